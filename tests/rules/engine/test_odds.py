"""Exact Check odds against an exhaustive enumeration of both dice.

Basics > Checks: natural 1 always fails, a natural 20 (d20) or 12 (d12) always succeeds,
otherwise success at or above the DF. Basics > Checks > Gambits: Success then success is a
Critical, Success then failure a Failure, Failure then success a Success, Failure then
failure a Botch; the Gambit uses the same die and Modifier. Confused: an odd raw number
fails.
"""

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.eldritch_gambit.checks import (
    BOTCH,
    CRITICAL,
    FAILURE,
    GAMBIT_AFTER_FAILURE,
    GAMBIT_AFTER_SUCCESS,
    GAMBIT_ALWAYS,
    NO_GAMBIT,
    OUTCOMES,
    POLICIES,
    SUCCESS,
    CheckSpec,
    check_odds,
    percent,
)

MODIFIERS = range(-10, 16)
DFS = range(0, 41)


def naive_success(die, modifier, df, natural, confused=False):
    """The rule as the SRD words it, written independently of the engine."""
    if natural == 1:
        return False
    if confused and natural % 2 == 1:
        return False
    if die == 20 and natural == 20:
        return True
    if die == 12 and natural == 12:
        return True
    # "This can reduce the result to zero but not into the negatives" (Basics > Rolls >
    # Modifiers), and "Modifiers apply to Checks just as they do for Rolls".
    return max(natural + modifier, 0) >= df


def enumerate_policy(die, modifier, df, policy, confused=False):
    """Every (first roll, Gambit roll) pair, equally likely, counted by outcome."""
    counts = Counter()
    for first in range(1, die + 1):
        for second in range(1, die + 1):
            ok = naive_success(die, modifier, df, first, confused)
            again = naive_success(die, modifier, df, second, confused)
            gambit = (policy == GAMBIT_ALWAYS or (policy == GAMBIT_AFTER_SUCCESS and ok)
                      or (policy == GAMBIT_AFTER_FAILURE and not ok))
            if not gambit:
                counts[SUCCESS if ok else FAILURE] += 1
            elif ok:
                counts[CRITICAL if again else FAILURE] += 1
            else:
                counts[SUCCESS if again else BOTCH] += 1
    return {outcome: Fraction(counts[outcome], die * die) for outcome in OUTCOMES}


@pytest.mark.parametrize("die", [20, 12])
@pytest.mark.parametrize("confused", [False, True])
def test_odds_match_exhaustive_enumeration(die, confused):
    for modifier in MODIFIERS:
        for df in DFS:
            odds = check_odds(CheckSpec(die, modifier, df, confused=confused))
            successes = sum(naive_success(die, modifier, df, n, confused)
                            for n in range(1, die + 1))
            assert odds.p_success == Fraction(successes, die), (die, modifier, df)
            for policy in POLICIES:
                expected = enumerate_policy(die, modifier, df, policy, confused)
                assert odds.distributions[policy] == expected, (die, modifier, df, policy)
            always = enumerate_policy(die, modifier, df, GAMBIT_ALWAYS, confused)
            assert odds.p_critical == always[CRITICAL]
            assert odds.p_botch == always[BOTCH]
            assert odds.p_fail_after_success_gambit == always[FAILURE]
            assert odds.p_saved_by_gambit == always[SUCCESS]


def test_outcome_of_rolled_dice_matches_enumeration():
    for die in (12, 20):
        for modifier in (-3, 0, 4):
            spec = CheckSpec(die, modifier, 12)
            for first in range(1, die + 1):
                assert spec.outcome(first) == (
                    SUCCESS if naive_success(die, modifier, 12, first) else FAILURE)
                for second in range(1, die + 1):
                    ok = naive_success(die, modifier, 12, first)
                    again = naive_success(die, modifier, 12, second)
                    expected = {(True, True): CRITICAL, (True, False): FAILURE,
                                (False, True): SUCCESS, (False, False): BOTCH}[(ok, again)]
                    assert spec.outcome(first, second) == expected


@pytest.mark.parametrize(
    ("die", "modifier", "df", "p"),
    [
        (20, 0, 10, Fraction(11, 20)),  # 10..20
        (20, 100, 5, Fraction(19, 20)),  # a natural 1 still fails
        (20, -100, 30, Fraction(1, 20)),  # a natural 20 still succeeds
        (12, -100, 30, Fraction(1, 12)),  # a d12's 12 always succeeds
        (12, 3, 12, Fraction(4, 12)),  # Mazzy: d12 + CHA 3 vs 12 (9, 10, 11, 12)
        (20, 2, 0, Fraction(19, 20)),  # DF 0 (AF of a Fallen foe): only a 1 fails
    ],
)
def test_known_chances(die, modifier, df, p):
    assert check_odds(CheckSpec(die, modifier, df)).p_success == p


def test_example_percentages():
    odds = check_odds(CheckSpec(20, 0, 10))
    assert percent(odds.p_success) == "55%"
    assert percent(odds.p_critical) == "30.25%"
    assert percent(odds.p_botch) == "20.25%"
    assert percent(Fraction(1, 12)) == "8.33%"
    assert percent(Fraction(1, 400000)) == "<0.01%"
    assert percent(Fraction(0)) == "0%"
    assert percent(Fraction(1)) == "100%"


def test_spec_refuses_other_dice_and_faces():
    with pytest.raises(ValueError):
        CheckSpec(6, 0, 10)
    with pytest.raises(ValueError):
        CheckSpec(12, 0, 10).succeeds(13)


@given(die=st.sampled_from([12, 20]), modifier=st.integers(-50, 50), df=st.integers(0, 100),
       confused=st.booleans())
def test_distributions_are_probability_distributions(die, modifier, df, confused):
    odds = check_odds(CheckSpec(die, modifier, df, confused=confused))
    for policy in POLICIES:
        distribution = odds.distributions[policy]
        assert sum(distribution.values()) == 1
        assert all(0 <= chance <= 1 for chance in distribution.values())
    # Natural 1 always fails and the top face always succeeds (unless Confused makes the
    # top face... it is even, so it still succeeds).
    assert Fraction(1, die) <= odds.p_success <= Fraction(die - 1, die)
    # No Gambit never yields a Critical or a Botch.
    assert odds.distributions[NO_GAMBIT][CRITICAL] == odds.distributions[NO_GAMBIT][BOTCH] == 0


@given(die=st.sampled_from([12, 20]), modifier=st.integers(-30, 30), df=st.integers(0, 60))
def test_odds_are_monotone(die, modifier, df):
    """A larger Modifier never hurts; a higher DF never helps."""
    base = check_odds(CheckSpec(die, modifier, df)).p_success
    assert check_odds(CheckSpec(die, modifier + 1, df)).p_success >= base
    assert check_odds(CheckSpec(die, modifier, df + 1)).p_success <= base


@given(die=st.sampled_from([12, 20]), modifier=st.integers(-30, 30), df=st.integers(0, 60))
def test_gambit_after_failure_only_raises_success_chance(die, modifier, df):
    odds = check_odds(CheckSpec(die, modifier, df))
    after_failure = odds.distributions[GAMBIT_AFTER_FAILURE]
    assert after_failure[SUCCESS] >= odds.p_success
    assert after_failure[SUCCESS] + after_failure[BOTCH] == 1
