"""Chases (Errant SRD IT §Chases, §Chase Developments; AMB-E23)."""

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.errant import chases as C
from rules.engine.errant.checks import p_success


def test_slowest_member_rolls():
    side = [C.Runner("ava", 9, 2), C.Runner("mule", 4, 1), C.Runner("bo", 12, 3)]
    assert C.slowest(side).key == "mule"
    with pytest.raises(C.ChaseError):
        C.slowest([])


def test_two_fours_end_the_chase():
    r = C.chase_round([4, 4], [1, 2])
    assert r.escaped and r.ended and not r.caught and r.development_side is None
    r = C.chase_round([1, 3], [4, 4, 2])
    assert r.caught
    r = C.chase_round([4, 4], [4, 4])
    assert r.tiebreak and not r.ended


def test_doubles_other_than_4s_let_that_side_act():
    r = C.chase_round([3, 3], [1, 2])
    assert r.fugitives_act and not r.pursuers_act and not r.ended


def test_matching_faces_allow_ranged_attacks():
    # the text's example: fugitives 3 and 4, pursuers 2 and 3
    r = C.chase_round([3, 4], [2, 3])
    assert r.ranged
    assert not C.chase_round([1, 1], [2, 3]).ranged


def test_lowest_roller_draws_a_development():
    assert C.chase_round([1, 2], [3, 3]).development_side == "fugitives"
    assert C.chase_round([3, 4], [2]).development_side == "pursuers"
    assert C.chase_round([2, 3], [1, 4]).development_side is None  # AMB-E84
    assert C.chase_round([], [1]).development_side == "fugitives"  # failed sprint


def test_sprint_doubles_dice_with_a_phys_check():
    assert C.sprint_dice(2) == 4
    assert C.p_sprint(12, 2) == p_success(12, 2) == Fraction(1, 2)


def test_developments_table():
    assert C.development(1)[0] == "Hiding Spot" and C.development(10)[0] == "Twist"
    with pytest.raises(C.ChaseError):
        C.development(11)


@pytest.mark.parametrize("dice", range(0, 6))
def test_p_two_fours_against_the_binomial(dice):
    # P(at least two 4s) = 1 - P(no 4) - P(exactly one 4)
    closed = 1 - Fraction(3, 4) ** dice - dice * Fraction(1, 4) * Fraction(3, 4) ** (dice - 1) \
        if dice else Fraction(0)
    assert C.p_two_fours(dice) == closed
    if dice == 1:
        assert C.p_two_fours(1) == 0  # AMB-E23


def test_bad_faces():
    with pytest.raises(C.ChaseError):
        C.chase_round([5], [1])
    with pytest.raises(C.ChaseError):
        C.chase_round([], [])


@given(st.lists(st.integers(1, 4), max_size=6), st.lists(st.integers(1, 4), min_size=1,
                                                         max_size=6))
def test_round_invariants(f, p):
    r = C.chase_round(f, p)
    assert not (r.escaped and r.caught)
    assert r.ranged == any(a == b for a, b in product(f, p))
    if r.ended or r.tiebreak:
        assert r.development_side is None
