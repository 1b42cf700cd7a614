"""Weather carried Turn to Turn (TT §Weather; next-games.md E43, AMB-E13, AMB-E146/147)."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.errant import weather as W
from rules.engine.errant.data.turns_tables import SEASONS

states = st.builds(W.Weather, st.sampled_from(SEASONS), st.integers(0, 4))


def test_starts_in_the_middle_band():
    assert [W.start(s).cell.label for s in SEASONS] == [
        "Cloudy", "Sunny", "Overcast", "Inclement weather (e.g. sleet)"]
    assert W.start("winter").severity == "inclement" and W.start("winter").pace_key


def test_carry_over_applies_to_the_next_roll():
    clear = W.roll(W.start("spring"), 10)
    assert clear.cell.label == "Clear skies" and clear.next_roll_modifier == 2
    assert W.roll(clear, 10).cell.label == "Beautiful day"  # 10 + 2 = 12
    overcast = W.start("autumn")  # -2
    assert W.roll(overcast, 8).cell.label == "Overcast"  # 8 - 2 = 6
    assert W.roll(overcast, 5).severity == "inclement"  # 3
    assert W.roll(overcast, 4).severity == "severe"  # 2


def test_totals_past_the_table_read_as_its_ends():
    """AMB-E147: Overcast -2 on a 2 is still the 2 row; Clear +2 on 12 the 12 row."""
    assert W.roll(W.start("autumn"), 2).severity == "severe"
    clear = W.Weather("summer", 3)
    assert W.roll(clear, 12).cell.label == "Beautiful day"


def test_beautiful_day_needs_one_sleeping_turn():
    assert W.Weather("spring", 4).sleep_turns == 1 and W.start("spring").sleep_turns == 2


def test_event_die_faces():
    storm = W.Weather("summer", 0)
    assert W.on_event(storm, 3) == W.start("summer")
    assert W.on_event(storm, 4) == storm  # the Guide chose another local effect
    assert W.on_event(storm, 4, dice_total=7) == W.start("summer")
    for face in (1, 2, 5, 6):
        assert W.on_event(storm, face) == storm
    with pytest.raises(ValueError):
        W.on_event(storm, 0)


def test_new_day():
    """AMB-E146: back to normal unless the Guide lets it persist."""
    storm = W.Weather("winter", 0)
    assert W.new_day(storm) == W.start("winter")
    assert W.new_day(storm, persists=True) == storm


def test_bad_input():
    with pytest.raises(ValueError):
        W.start("monsoon")
    with pytest.raises(ValueError):
        W.roll(W.start("spring"), 13)


@given(states)
def test_next_distribution_sums_to_one(state):
    d = W.next_distribution(state)
    assert sum(d.values()) == 1
    assert all(s.season == state.season for s in d)


@given(states, st.integers(2, 12))
def test_reset_always_returns_to_normal(state, total):
    assert W.reset(W.roll(state, total)) == W.start(state.season)


@given(states, st.integers(2, 12))
def test_carry_over_is_only_the_current_cells(state, total):
    plain = W.Weather(state.season, W.NORMAL_BAND if state.next_roll_modifier else state.band)
    expected = W.band_of(total + state.next_roll_modifier)
    assert W.roll(state, total).band == expected
    if plain.next_roll_modifier == 0:
        assert W.roll(plain, total).band == W.band_of(total)


@given(states, st.lists(st.tuples(st.integers(1, 6), st.integers(2, 12)), max_size=20))
def test_any_run_of_turns_stays_in_the_season_table(state, turns):
    for face, total in turns:
        state = W.on_event(state, face, total)
        assert 0 <= state.band < 5


def test_spring_from_normal_odds():
    d = W.next_distribution(W.start("spring"))
    assert d[W.Weather("spring", 4)] == Fraction(1, 36)
    assert d[W.Weather("spring", 3)] == Fraction(4 + 3 + 2, 36)  # 9, 10, 11
