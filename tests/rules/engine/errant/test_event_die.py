"""The Event Die (PR §Event Die; TT; XT; next-games.md E39-E40, AMB-E6, AMB-E140/141)."""

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.errant import event_die as E


def brute(positive, negative):
    """Roll 1 + |net| d6 by hand and keep the highest (net > 0) or lowest (net < 0)."""
    net = positive - negative
    counts = [0] * 7
    rolls = list(product(range(1, 7), repeat=1 + abs(net)))
    for roll in rolls:
        counts[max(roll) if net > 0 else min(roll) if net < 0 else roll[0]] += 1
    return {f: Fraction(counts[f], len(rolls)) for f in range(1, 7)}


@pytest.mark.parametrize("positive", range(5))
@pytest.mark.parametrize("negative", range(5))
def test_distribution_matches_exhaustive_enumeration(positive, negative):
    d = E.distribution(positive, negative)
    assert d == brute(positive, negative)
    assert d == E.enumerate_distribution(positive, negative)
    assert sum(d.values()) == 1


def test_spec_examples():
    assert E.distribution(0, 2)[1] == Fraction(91, 216)
    d = E.distribution(1, 0)
    assert d[1] == Fraction(1, 36) and d[6] == Fraction(11, 36)
    assert E.distribution(0, 0) == dict.fromkeys(range(1, 7), Fraction(1, 6))


@given(st.integers(0, 10), st.integers(0, 10), st.integers(0, 5))
def test_cancelling_one_for_one(p, n, extra):
    assert E.distribution(p + extra, n + extra) == E.distribution(p, n)


@given(st.integers(0, 6), st.integers(0, 6))
def test_more_negative_dice_never_lower_the_chance_of_an_encounter(p, n):
    assert E.distribution(p, n + 1)[1] >= E.distribution(p, n)[1]


def test_sources_for_travel():
    dice = E.event_dice("travel", encumbrances=(5, 4, 8, 0), pace="quick",
                        rested_last_turn=True)
    assert dice.negative == 4 and dice.positive == 0  # two heavy, quick, last Rest
    assert dice.count == 5 and dice.keep == "lowest"
    assert [s.label for s in dice.sources][0] == "2 member(s) with Encumbrance over 4"


def test_encumbrance_exactly_four_adds_nothing():
    assert E.event_dice("exploration", encumbrances=(4, 4)).net == 0


def test_slow_pace_cancels_a_heavy_member():
    dice = E.event_dice("exploration", encumbrances=(6,), pace="slow")
    assert dice.positive == 1 and dice.negative == 1 and dice.count == 1


def test_breaking_a_door_only_in_exploration():
    assert E.event_dice("exploration", breaking_door=True).negative == 1
    with pytest.raises(ValueError):
        E.event_dice("travel", breaking_door=True)


def test_downtime_ignores_encumbrance_and_pace():
    """Downtime lists none of the Travel/Exploration sources; only the Guide's dice."""
    dice = E.event_dice("downtime", encumbrances=(8,), extra_positive=1)
    assert dice.net == 1


def test_initiative_has_no_event_die():
    """AMB-E140: the text rolls the Event Die only in Travel, Exploration and Downtime."""
    with pytest.raises(ValueError, match="no Event Die"):
        E.event_dice("initiative")
    with pytest.raises(ValueError):
        E.effects("initiative", 1)


@pytest.mark.parametrize("bad", [{"pace": "fast"}, {"extra_negative": -1}])
def test_bad_sources(bad):
    with pytest.raises(ValueError):
        E.event_dice("travel", **bad)


def test_keep_validates_the_roll():
    assert E.keep((3, 5, 2), 2) == 5 and E.keep((3, 5, 2), -2) == 2
    with pytest.raises(ValueError):
        E.keep((3, 5), 2)
    with pytest.raises(ValueError):
        E.keep((7,), 0)


def test_travel_effects():
    d = E.effects("travel", 3)
    assert d.deplete_rations and d.ongoing_effects_end and d.weather_resets
    assert not d.burn_lights and not d.deplete_magic
    assert E.effects("travel", 4).weather_may_change
    assert E.effects("travel", 2).rest_or_exhaustion
    assert E.effects("travel", 1).encounter
    assert E.effects("travel", 6).result.key == "free"


def test_exploration_effects():
    b = E.effects("exploration", 3)
    assert b.burn_lights and b.deplete_magic and b.ongoing_effects_end
    assert not b.deplete_rations and not b.weather_resets
    assert not E.effects("exploration", 4).weather_may_change


def test_downtime_effects():
    assert E.effects("downtime", 3).ongoing_effects_end
    assert [E.effects("downtime", f).result.key for f in range(1, 7)] == [
        "encounter", "complication", "expiration", "trend", "intimation", "free"]


def test_no_watch_turns_fives_into_encounters():
    """AMB-E6: the swap applies to the kept result."""
    assert E.effects("travel", 5, fives_are_ones=True).encounter
    assert not E.effects("travel", 5).encounter
    dice = E.event_dice("travel", encumbrances=(5,))
    d = E.result_distribution("travel", dice, fives_are_ones=True)
    base = E.distribution(0, 1)
    assert d["encounter"] == base[1] + base[5]
    assert "encounter_sign" not in d
    assert sum(d.values()) == 1
    with pytest.raises(ValueError):
        E.effects("exploration", 5, fives_are_ones=True)


def test_rest_result_feeds_the_next_turn():
    """AMB-E141: a Rest result means one negative die on the next Turn."""
    first = E.effects("travel", 2)
    nxt = E.event_dice("travel", rested_last_turn=first.rest_or_exhaustion)
    assert nxt.negative == 1
