"""Checks: reading the dice, the Edge and Difficulty tables, exact odds with and without a
Twist and with Raises, against the Engine chapter's examples and an exhaustive
enumeration of every roll (METTLE Core SRD, Engine > Checks)."""

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement, product
from math import factorial

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.mettle.checks import (
    POOL_MAX,
    CheckRoll,
    check_odds,
    check_pool,
    difficulty_rank,
    distribution,
    edge_quality,
    read_dice,
    teamwork_pools,
)

FACES = range(1, 7)


def test_reading_the_dice_example():
    # EN §Success & Failure: "[4, 1, 3, 5, 2, 2] yields a Score of 8 ... and 2 Edge".
    assert read_dice([4, 1, 3, 5, 2, 2]) == (8, 2)


def test_a_face_off_the_d6_is_refused():
    with pytest.raises(ValueError):
        read_dice([7])


def test_the_score_must_beat_the_difficulty():
    assert not CheckRoll((3, 2), difficulty=5).success  # a tie fails
    assert CheckRoll((3, 3), difficulty=5).success


def test_viktors_nature_check_against_the_clerks_motive():
    # Example of Play: NATURE 3D +1D, [3, 2, 2, 6]: Score 7, 1 Edge, beats MOTIVE 4.
    roll = CheckRoll((3, 2, 2, 6), difficulty=4)
    assert (roll.score, roll.edge, roll.success, roll.quality) == (7, 1, True, "Good")
    assert check_pool(3, bonuses=[1]) == 4


def test_the_twist_example_of_the_engine_chapter():
    # EN §Twists: 5 dice vs 3, [1, 4, 4, 5, 6] fails; the four Edge dice reroll [1, 3, 5, 5]:
    # "[1, 1, 3, 5, 5]. The result is a Score of 5 and an Edge of 2".
    roll = CheckRoll((1, 4, 4, 5, 6), difficulty=3)
    assert not roll.success and roll.may_twist
    twisted = CheckRoll((1, 4, 4, 5, 6), difficulty=3, twist_faces=(1, 3, 5, 5))
    assert sorted(twisted.final_faces) == [1, 1, 3, 5, 5]
    assert (twisted.score, twisted.edge, twisted.success) == (5, 2, True)


def test_kirins_twist_in_the_example_of_play():
    # POISE 5 vs 5: [1, 2, 2, 5, 6] is Score 5, 2 Edge, a failure; the two Edge dice
    # reroll [3, 4]: Score 8, Edge 1.
    roll = CheckRoll((1, 2, 2, 5, 6), difficulty=5, twist_faces=(3, 4))
    assert (roll.first_score, roll.first_edge) == (5, 2)
    assert (roll.score, roll.edge, roll.success) == (8, 1, True)


def test_no_twist_after_a_success_or_without_edge():
    with pytest.raises(ValueError):
        CheckRoll((3, 3), difficulty=1, twist_faces=())
    with pytest.raises(ValueError):
        CheckRoll((1, 1), difficulty=5, twist_faces=())
    assert not CheckRoll((1, 1), difficulty=5).may_twist
    with pytest.raises(ValueError):  # the Twist rerolls exactly the Edge dice
        CheckRoll((1, 4, 5), difficulty=5, twist_faces=(1,))


@pytest.mark.parametrize(("edge", "quality"), [
    (0, "OK"), (1, "Good"), (2, "Great"), (3, "Excellent"), (4, "Amazing"), (5, "Legendary"),
    (9, "Legendary"),
])
def test_edge_table(edge, quality):
    assert edge_quality(edge) == quality


@pytest.mark.parametrize(("difficulty", "rank"), [
    (0, None), (1, "Routine"), (2, "Routine"), (3, "Challenging"), (6, "Daunting"),
    (10, "Formidable"), (14, "Formidable"), (15, "Nigh Impossible"), (40, "Nigh Impossible"),
])
def test_difficulty_ladder(difficulty, rank):
    assert difficulty_rank(difficulty) == rank


# next-games.md §1.4, the odds grid, computed by hand from the same rule.
GRID = {
    1: ("1/2", "1/3", "0", "0", "0", "0"),
    2: ("3/4", "7/12", "1/6", "0", "0", "0"),
    3: ("7/8", "3/4", "10/27", "5/108", "0", "0"),
    4: ("15/16", "41/48", "239/432", "31/216", "5/1296", "0"),
    5: ("31/32", "11/12", "301/432", "709/2592", "19/864", "0"),
    6: ("63/64", "61/64", "173/216", "2413/5832", "247/3888", "7/11664"),
    7: ("127/128", "187/192", "377/432", "12749/23328", "9181/69984", "47/11664"),
    8: ("255/256", "757/768", "6361/6912", "123461/186624", "61861/279936", "1325/93312"),
}


@pytest.mark.parametrize("dice", sorted(GRID))
def test_odds_grid(dice):
    for difficulty, expected in zip((0, 1, 3, 6, 10, 15), GRID[dice], strict=True):
        assert check_odds(dice, difficulty).p_success == Fraction(expected)


@pytest.mark.parametrize(("dice", "difficulty", "plain", "twist"), [
    (1, 0, "1/2", "3/4"), (2, 3, "1/6", "3/8"), (3, 3, "10/27", "11/16"),
    (5, 5, "1591/3888", "401/512"),
])
def test_twist_odds_examples(dice, difficulty, plain, twist):
    odds = check_odds(dice, difficulty)
    assert odds.p_success == Fraction(plain)
    assert odds.p_success_with_twist == Fraction(twist)


def test_assumed_success_is_not_a_rule():
    # "One may often just assume success if their Pool is higher": 3D vs 2 is 7/12.
    assert check_odds(3, 2).p_success == Fraction(7, 12)


# -- exhaustive enumeration --------------------------------------------------------------------
# Every roll of n d6, grouped by the multiset of its faces and weighted by the number of
# orders it can come up in (n! / the product of each face's count!); checked against the
# plain listing of all 6**n ordered rolls for small pools.


def ordered_rolls(dice: int) -> Counter:
    return Counter(read_dice(faces) for faces in product(FACES, repeat=dice))


@cache
def enumerated_rolls(dice: int) -> Counter:
    """(Score, Edge) -> how many of the 6**dice ordered rolls give it."""
    counts: Counter = Counter()
    for faces in combinations_with_replacement(FACES, dice):
        orders = factorial(dice)
        for n in Counter(faces).values():
            orders //= factorial(n)
        counts[read_dice(faces)] += orders
    return counts


def enumerated_odds(dice: int, difficulty: int, raises: int = 0) -> tuple[Fraction, Fraction]:
    """P(success) and P(success with a Twist on every failure with Edge), by going through
    every roll and every reroll."""
    rolled = dice - raises
    total = 6 ** rolled
    win = saved = Fraction(0)
    for (score, edge), n in enumerated_rolls(rolled).items():
        edge += raises
        if score > difficulty:
            win += Fraction(n, total)
        elif edge:
            rerolls = enumerated_rolls(edge)
            good = sum(m for (s, _e), m in rerolls.items() if score + s > difficulty)
            saved += Fraction(n, total) * Fraction(good, 6 ** edge)
    return win, win + saved


@pytest.mark.parametrize("dice", range(0, 6))
def test_grouped_enumeration_is_every_ordered_roll(dice):
    assert enumerated_rolls(dice) == ordered_rolls(dice)


@pytest.mark.parametrize("dice", range(0, 9))
def test_odds_match_enumeration_of_every_roll(dice):
    # Issue 13: every pool 1-8 and Difficulty 0-25, with and without a Twist.
    for difficulty in range(-1, 26):
        odds = check_odds(dice, difficulty)
        assert (odds.p_success, odds.p_success_with_twist) == enumerated_odds(dice, difficulty)


@pytest.mark.parametrize("dice", range(1, 9))
def test_odds_with_raises_match_enumeration(dice):
    for raises in range(1, dice + 1):
        for difficulty in range(0, 26):
            odds = check_odds(dice, difficulty, raises)
            assert ((odds.p_success, odds.p_success_with_twist)
                    == enumerated_odds(dice, difficulty, raises))


@pytest.mark.parametrize("dice", range(0, 9))
def test_distribution_matches_enumeration(dice):
    counts = enumerated_rolls(dice)
    assert distribution(dice) == {k: Fraction(n, 6 ** dice) for k, n in counts.items()}


# -- properties --------------------------------------------------------------------------------

pools = st.integers(min_value=0, max_value=14)
difficulties = st.integers(min_value=0, max_value=45)


@given(pools)
def test_distribution_sums_to_one(dice):
    assert sum(distribution(dice).values()) == 1


@given(pools, difficulties)
def test_odds_are_chances_and_a_twist_only_helps(dice, difficulty):
    odds = check_odds(dice, difficulty)
    assert 0 <= odds.p_success <= odds.p_success_with_twist <= 1
    assert odds.p_success + odds.p_failure == 1
    assert sum(odds.edge_on_success.values()) == odds.p_success
    assert odds.p_twist_allowed <= odds.p_failure


@given(pools)
def test_difficulty_zero_and_three_times_the_pool(dice):
    # D 0 fails only when every die is Edge; "impossible to beat a Difficulty three times
    # your pool or higher".
    assert check_odds(dice, 0).p_success == 1 - Fraction(1, 2 ** dice)
    assert check_odds(dice, 3 * dice).p_success == 0


@given(st.integers(min_value=1, max_value=12), difficulties)
def test_more_dice_never_hurt_and_harder_never_helps(dice, difficulty):
    assert check_odds(dice, difficulty).p_success <= check_odds(dice + 1, difficulty).p_success
    assert check_odds(dice, difficulty + 1).p_success <= check_odds(dice, difficulty).p_success


@given(st.integers(min_value=0, max_value=10), st.data())
def test_raises_are_the_smaller_pool_with_certain_edge(dice, data):
    raises = data.draw(st.integers(min_value=0, max_value=dice))
    difficulty = data.draw(difficulties)
    odds = check_odds(dice, difficulty, raises)
    assert odds.p_success == check_odds(dice - raises, difficulty).p_success
    assert all(edge >= raises for edge in odds.edge_on_success)


def test_raises_cannot_exceed_the_pool():
    with pytest.raises(ValueError):
        check_odds(2, 1, raises=3)


def test_die_modifiers():
    assert check_pool(3, bonuses=[1, 2], penalties=[-1]) == 5
    assert check_pool(3, bonuses=[1, 2], penalties=[1, 3], largest_only=True) == 2
    assert check_pool(2, penalties=[5]) == 0  # a pool never goes below zero dice


def test_teamwork_gives_lower_pools_one_die():
    # EN §Teamwork: "+1D to anyone whose relevant pool is lower than the highest".
    assert teamwork_pools([5, 3, 5, 2]) == (5, 4, 5, 3)


def test_pools_beyond_the_input_bound_are_refused():
    assert check_odds(POOL_MAX, POOL_MAX).p_success > 0
    with pytest.raises(ValueError):
        check_odds(POOL_MAX + 1, 3)
