"""Attributes: descriptions, points spent, and the random roll method.

Eldritch Gambit SRD, Characters > Attributes. The random roll: "roll d6 equal to
Level, then put each 1 into STR, each 2 into WIS, each 3 into DEX, each 4 into AGI,
each 5 into CHA, and each 6 into END ... If more than half the dice end up in one
Attribute, flip the excess dice over to their opposite side and put them in that
Attribute instead." Opposite faces of a d6 add to 7. Team decision: the crowded
Attribute keeps floor(n/2) dice, the rest flip, and flipped dice never flip back.
"""

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine.eldritch_gambit import CharacterBuild, compute_sheet
from rules.engine.eldritch_gambit.attributes import (
    Attributes,
    attributes_from_dice,
    describe,
    points_spent,
    roll_attributes,
)

# The Dice picture: d6 face -> Attribute.
FACE = {1: "str", 2: "wis", 3: "dex", 4: "agi", 5: "cha", 6: "end"}
KEYS = ("str", "wis", "dex", "agi", "cha", "end")
ATTRIBUTE_ISSUES = {"attribute_over_maximum", "attribute_points_over_budget"}


def reference_roll(dice):
    """The random roll method written straight from the rules text."""
    n = len(dice)
    counts = Counter(FACE[d] for d in dice)
    for face in range(1, 7):
        attribute = FACE[face]
        if counts[attribute] * 2 > n:  # more than half the dice
            keep = n // 2
            excess = counts[attribute] - keep
            counts[attribute] = keep
            counts[FACE[7 - face]] += excess  # the opposite side
            break  # only one Attribute can hold more than half; no flipping back
    return {key: counts[key] for key in KEYS}


def scores(attributes):
    return {key: attributes[key] for key in KEYS}


def expected(**values):
    return {key: values.get(key, 0) for key in KEYS}


# ---------------------------------------------------------------- descriptions


@pytest.mark.parametrize(
    ("score", "word"),
    [
        (-2, "Abysmal"),
        (-1, "Poor"),
        (0, "Low"),
        (1, "Normal"),
        (2, "High"),
        (3, "Very high"),
        (4, "Great"),
        (5, "Optimal"),
    ],
)
def test_attribute_descriptions_table(score, word):
    assert describe(score) == word


@pytest.mark.parametrize("score", [6, 7, 10])
def test_six_or_more_is_superhuman(score):
    # "It is not unusual for high-level characters to have "superhuman" Attributes of +6
    # or more."
    assert describe(score) == "Superhuman"


# ---------------------------------------------------------------- points spent


@pytest.mark.parametrize(
    ("attributes", "spent"),
    [
        (Attributes(), 0),
        (Attributes(str=3, wis=1, dex=2, agi=1, cha=1, end=2), 10),  # Asphodel
        (Attributes(str=5, end=5), 10),
        # "You may have a negative Attribute if you wish but get no points back for it."
        (Attributes(str=4, wis=-2), 4),
        (Attributes(str=5, wis=-1, cha=-2, end=5), 10),
        (Attributes(wis=-1, agi=-2), 0),
    ],
)
def test_points_spent_ignores_negatives(attributes, spent):
    assert points_spent(attributes) == spent


def test_a_negative_attribute_does_not_pay_for_an_extra_plus():
    # Level 10 with eleven pluses and a -1 is still one point over the budget.
    sheet = compute_sheet(CharacterBuild(level=10, attributes=Attributes(
        str=5, dex=5, agi=1, wis=-1)))
    assert sheet.value("attribute_points_spent") == 11
    assert "attribute_points_over_budget" in {i.code for i in sheet.issues}


# ---------------------------------------------------------------- random roll by hand


@pytest.mark.parametrize(
    ("dice", "result"),
    [
        ([], expected()),
        ([1, 2, 3, 4, 5, 6], expected(str=1, wis=1, dex=1, agi=1, cha=1, end=1)),
        ([1, 1, 2, 3, 3, 3, 5, 6, 6, 4], expected(str=2, wis=1, dex=3, agi=1, cha=1, end=2)),
        # Exactly half is not "more than half": nothing flips.
        ([1] * 5 + [3] * 5, expected(str=5, dex=5)),
        ([1, 6], expected(str=1, end=1)),
    ],
)
def test_each_face_goes_to_its_attribute(dice, result):
    assert scores(attributes_from_dice(dice).attributes) == result


@pytest.mark.parametrize(
    ("dice", "result"),
    [
        # Ten 1s at Level 10: five stay in STR, five flip to 6 (END).
        ([1] * 10, expected(str=5, end=5)),
        ([6] * 10, expected(str=5, end=5)),
        ([2] * 10, expected(wis=5, cha=5)),
        ([5] * 10, expected(wis=5, cha=5)),
        ([3] * 10, expected(dex=5, agi=5)),
        ([4] * 10, expected(dex=5, agi=5)),
        # Six 4s of ten: one die past half flips to 3 (DEX).
        ([4] * 6 + [3] * 4, expected(dex=5, agi=5)),
        ([4] * 6 + [1, 2, 5, 6], expected(str=1, wis=1, dex=1, agi=5, cha=1, end=1)),
    ],
)
def test_excess_dice_flip_to_the_opposite_face(dice, result):
    assert scores(attributes_from_dice(dice).attributes) == result


@pytest.mark.parametrize(
    ("dice", "result"),
    [
        # Odd counts: the crowded Attribute keeps floor(n/2) dice.
        ([1] * 5, expected(str=2, end=3)),
        ([5, 5, 5, 2, 3], expected(wis=2, cha=2, dex=1)),
        ([4] * 7 + [1, 2], expected(str=1, wis=1, dex=3, agi=4)),
        ([2, 2, 2], expected(wis=1, cha=2)),
        # A single die is always more than half of one die: it keeps none and flips.
        ([1], expected(end=1)),
        ([6], expected(str=1)),
        ([1, 1], expected(str=1, end=1)),
    ],
)
def test_flip_rule_with_odd_counts(dice, result):
    assert scores(attributes_from_dice(dice).attributes) == result


def test_flipped_dice_are_never_flipped_back():
    # Three 1s of five: one flips to END, which then holds three of five (more than half),
    # but flipped dice stay where they landed. 3 is still within the Level 5 max of 3.
    roll = attributes_from_dice([1, 1, 1, 6, 6])
    assert scores(roll.attributes) == expected(str=2, end=3)
    assert len(roll.flipped) == 1


def test_the_roll_keeps_every_die_and_shows_the_flips():
    roll = attributes_from_dice([1] * 10)
    assert roll.dice == (1,) * 10
    assert len(roll.flipped) == 5
    assert sorted(roll.final_faces) == [1] * 5 + [6] * 5


@pytest.mark.parametrize("face", [0, 7, -1])
def test_a_d6_has_faces_one_to_six(face):
    with pytest.raises(ValueError):
        attributes_from_dice([1, 2, face])


# ---------------------------------------------------------------- seeded rolls


@pytest.mark.parametrize("level", [1, 2, 5, 9, 10, 11, 20, 30])
@pytest.mark.parametrize("seed", range(12))
def test_seeded_roll_follows_the_method(level, seed):
    roll = roll_attributes(level, random.Random(seed))
    assert len(roll.dice) == level  # "roll d6 equal to Level"
    assert all(1 <= d <= 6 for d in roll.dice)
    assert scores(roll.attributes) == reference_roll(roll.dice)


@pytest.mark.parametrize("seed", [0, 1, 42, 2024])
def test_same_seed_same_roll(seed):
    assert roll_attributes(10, random.Random(seed)) == roll_attributes(10, random.Random(seed))


def test_level_zero_rolls_no_dice():
    roll = roll_attributes(0, random.Random(1))
    assert roll.dice == ()
    assert scores(roll.attributes) == expected()


# ---------------------------------------------------------------- properties

dice_lists = st.lists(st.integers(min_value=1, max_value=6), max_size=40)


@given(dice_lists)
def test_roll_matches_the_rules_text(dice):
    assert scores(attributes_from_dice(dice).attributes) == reference_roll(dice)


@given(dice_lists)
def test_roll_total_equals_level(dice):
    assert sum(scores(attributes_from_dice(dice).attributes).values()) == len(dice)


@given(dice_lists)
def test_roll_scores_are_never_negative(dice):
    assert min(scores(attributes_from_dice(dice).attributes).values()) >= 0


@given(dice_lists)
def test_roll_never_exceeds_the_level_maximum(dice):
    maximum = (len(dice) + 1) // 2  # half the Level, rounded up
    assert max(scores(attributes_from_dice(dice).attributes).values()) <= maximum


@given(dice_lists)
def test_crowded_attribute_keeps_half_rounded_down(dice):
    n = len(dice)
    counts = Counter(FACE[d] for d in dice)
    crowded = [key for key in KEYS if counts[key] * 2 > n]
    result = scores(attributes_from_dice(dice).attributes)
    for key in crowded:
        assert result[key] == n // 2


@settings(max_examples=60)
@given(st.integers(min_value=1, max_value=40), st.integers(min_value=0, max_value=2**32))
def test_rolled_attributes_are_a_legal_build(level, seed):
    roll = roll_attributes(level, random.Random(seed))
    sheet = compute_sheet(CharacterBuild(level=level, attributes=roll.attributes))
    assert not ATTRIBUTE_ISSUES & {issue.code for issue in sheet.issues}
    assert sheet.value("attribute_points_spent") == level


# ---------------------------------------------------------------- the value object


def test_attributes_from_mapping_defaults_to_zero():
    attrs = Attributes.from_mapping({"str": 3, "end": "2"})
    assert scores(attrs) == expected(str=3, end=2)


def test_attributes_unknown_key():
    with pytest.raises(KeyError):
        Attributes()["luck"]
