"""Attributes rolled 4D4 in order with at most one swap, or set by the Guide; Ancestry,
age, languages, Alignment, lifespan (Errant SRD, ER §Creating an Errant; IT §Death &
Dying)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine.errant import attributes as A
from rules.engine.errant.data import ANCESTRIES, ATTRIBUTE_KEYS, OCCULT, ZEALOT

scores = st.integers(min_value=4, max_value=16)
keys = st.sampled_from(ATTRIBUTE_KEYS)


def test_the_text_swap_example():
    # ER: "if you rolled a 9 for phys and a 13 for mind ... 13 phys and 9 mind".
    rolled = A.Attributes(phys=9, skill=10, mind=13, pres=8)
    final = A.apply_swap(rolled, ("phys", "mind"))
    assert final == A.Attributes(phys=13, skill=10, mind=9, pres=8)
    assert A.is_legal_result(rolled, ("phys", "mind"), final)
    assert A.reachable_by_one_swap(rolled, final)


def test_rolled_in_order_from_the_dice():
    dice = ((1, 2, 3, 4), (4, 4, 4, 4), (1, 1, 1, 1), (2, 2, 2, 3))
    assert A.from_dice(dice) == A.Attributes(10, 16, 4, 9)
    assert A.dice_problems(dice) == []


def test_dice_that_are_not_4d4_are_refused():
    problems = A.dice_problems(((1, 2, 3, 5), (1, 1, 1), (1, 1, 1, 1), (0, 1, 1, 1)))
    assert [p.field for p in problems] == ["phys", "skill", "pres"]
    assert A.dice_problems(((1, 1, 1, 1),))[0].code == "dice_wrong_count"


def test_a_swap_of_one_attribute_with_itself_or_a_stranger_is_refused():
    assert A.swap_problems(("phys", "phys"))[0].code == "swap_same_attribute"
    assert A.swap_problems(("phys", "luck"))[0].code == "swap_invalid"
    assert A.swap_problems(None) == []


def test_two_swaps_are_not_one():
    rolled = A.Attributes(4, 5, 6, 7)
    three_way = A.Attributes(5, 6, 4, 7)  # a rotation needs two swaps
    assert not A.reachable_by_one_swap(rolled, three_way)
    assert not A.is_legal_result(rolled, ("phys", "skill"), three_way)


def test_rolled_scores_outside_4d4_are_refused():
    problems = A.rolled_problems(A.Attributes(3, 17, 10, 10))
    assert [(p.code, p.field) for p in problems] == [("attribute_not_4d4", "phys"),
                                                      ("attribute_not_4d4", "skill")]


@settings(max_examples=60)
@given(st.tuples(scores, scores, scores, scores), keys, keys)
def test_any_single_swap_is_legal_and_reachable(values, first, second):
    rolled = A.Attributes(*values)
    swap = (first, second)
    final = A.apply_swap(rolled, swap if first != second else None)
    assert A.reachable_by_one_swap(rolled, final)
    assert sorted(final.values()) == sorted(rolled.values())


def test_rolling_gives_4d4_in_order():
    dice = A.roll_dice(random.Random(14))
    assert A.dice_problems(dice) == []
    assert A.rolled_problems(A.from_dice(dice)) == []


def test_set_by_the_guide_needs_a_note():
    attrs = A.Attributes(18, 3, 10, 10)  # e.g. a child inheriting a parent's phys (IT)
    assert [p.code for p in A.guide_problems(attrs, "")] == ["guide_note_missing"]
    assert A.guide_problems(attrs, "inherited phys from her mother") == []
    assert A.guide_problems(A.Attributes(0, 10, 10, 10), "x")[0].code == \
        "attribute_out_of_range"


def test_renown_raises_two_different_attributes():
    assert A.raise_problems([("phys", "phys")])[0].code == "renown_raise_same"
    assert A.raise_problems([("phys",)])[0].code == "renown_raise_invalid"
    raised = A.with_raises(A.Attributes(10, 10, 10, 10), [("phys", "mind"), ("phys", "pres")])
    assert raised == A.Attributes(12, 10, 11, 11)


@pytest.mark.parametrize(("ancestry", "low", "high"), [
    ("tough", 12, 50), ("arcane", 13, 70), ("cunning", 11, 30), ("adaptable", 11, 20)])
def test_minimum_starting_age_ranges(ancestry, low, high):
    # ER §Choose Ancestry: 2D20+10, 3D20+10, D20+10, D10+10.
    assert A.minimum_age_range(ancestry) == (low, high)
    dice, age = A.roll_minimum_age(ancestry, random.Random(3))
    assert len(dice) == ANCESTRIES[ancestry].age_dice
    assert low <= age <= high and age == sum(dice) + 10


@pytest.mark.parametrize(("mind", "extra", "total"), [(4, 0, 2), (10, 0, 2), (11, 1, 3),
                                                      (16, 6, 8)])
def test_languages(mind, extra, total):
    # ER §Note Languages Known: common + ancestry + 1 per point of mind above 10.
    assert A.extra_languages(mind) == extra
    assert A.languages_known(mind) == total


def test_alignment_starts_neutral_except_a_zealot_of_an_aligned_covenant():
    assert A.starting_alignment(OCCULT, "L") == "N"
    assert A.starting_alignment(ZEALOT, "L") == "L1"
    assert A.starting_alignment(ZEALOT, "C") == "C1"
    assert A.starting_alignment(ZEALOT, "") == "N"


def test_lifespan():
    # IT §Death & Dying: average (Tough 150, Arcane 200, Cunning 100, Adaptable 50, AMB-E12)
    # + phys - 1 per time at 0 HP.
    assert A.lifespan("adaptable", 12) == 62
    assert A.lifespan("arcane", 9, times_at_zero_hp=3) == 206


def test_arcane_minor_magic_odds():
    from fractions import Fraction

    # 2D6 + Renown 1: 10+ needs 9+ on 2D6 (10/36); 7-9 needs 6-8 (16/36); else 10/36.
    assert A.arcane_magic_odds(1) == {"success": Fraction(10, 36),
                                      "complication": Fraction(16, 36),
                                      "failure": Fraction(10, 36)}
    assert A.arcane_magic_odds(9)["success"] == 1


def test_keepsake_and_failed_profession_rolls():
    from rules.engine.errant.data import failed_professions, keepsakes

    roll, text = A.roll_d100(random.Random(5), keepsakes())
    assert 1 <= roll <= 100 and text == keepsakes()[roll - 1]
    roll, text = A.roll_d100(random.Random(6), failed_professions())
    assert text == failed_professions()[roll - 1]
    with pytest.raises(ValueError):
        A.roll_d100(random.Random(1), ("one",))
