"""Checks and Modifiers.

Eldritch Gambit SRD, Basics > Checks: "roll 1d20 plus the relevant Attribute ...
Other actions require a relevant OCS ... If they do not have it, they use 1d12
instead." Basics > Rolls > Modifiers: "Modifier = Attribute + Bonus + Penalty ...
bonuses do not stack with other bonuses and penalties do not stack with other
penalties." Characters > Defenses: Staggered - "all Checks are made on a d12 instead
of d20."
"""

import pytest

from rules.engine.eldritch_gambit import Attributes, CharacterBuild, compute_sheet
from rules.engine.eldritch_gambit.checks import (
    CheckSpec,
    check_die,
    difficulty_name,
    modifier,
)
from tests.rules.engine.srd_examples import ASPHODEL


@pytest.mark.parametrize(
    ("has_ocs", "staggered", "die"),
    [(True, False, 20), (False, False, 12), (True, True, 12), (False, True, 12)],
)
def test_check_die(has_ocs, staggered, die):
    assert check_die(has_ocs=has_ocs, staggered=staggered) == die


@pytest.mark.parametrize(
    ("attribute", "bonuses", "penalties", "total"),
    [
        (2, (), (), 2),
        (2, (3,), (), 5),
        (2, (), (-4,), -2),
        (2, (3,), (-4,), 1),
        # Bonuses do not stack: only the largest counts.
        (2, (1, 3, 2), (), 5),
        (0, (2, 2), (), 2),
        # Nor penalties: only the largest counts.
        (2, (), (-1, -4, -2), -2),
        (1, (), (-4, -4), -3),
        # Both at once.
        (3, (1, 2), (-1, -4), 1),
        (-1, (4, 2), (-2,), 1),
        # A penalty written as a magnitude is still a penalty.
        (2, (), (4,), -2),
        (2, (), (4, -1), -2),
    ],
)
def test_modifier_is_attribute_plus_largest_bonus_plus_largest_penalty(
    attribute, bonuses, penalties, total
):
    assert modifier(attribute, bonuses, penalties) == total


def test_modifier_without_extras_is_the_attribute():
    assert modifier(-2) == -2


@pytest.mark.parametrize(
    ("df", "name"),
    [
        (5, "Routine"),
        (10, "Challenging"),
        (15, "Daunting"),
        (20, "Formidable"),
        (25, "Nigh impossible"),
        (30, "Nigh impossible"),  # "25+"
    ],
)
def test_difficulties_table(df, name):
    assert difficulty_name(df) == name


def test_sheet_check_dice():
    sheet = compute_sheet(CharacterBuild(attributes=ASPHODEL))
    assert sheet.value("check_dice") == "d20 / d12"
    assert sheet.check_die == 20
    rows = {row.key: row for row in sheet.attributes}
    assert (rows["dex"].check_d20, rows["dex"].check_d12) == ("d20+2", "d12+2")
    assert (rows["agi"].check_d20, rows["agi"].check_d12) == ("d20+1", "d12+1")


def test_sheet_check_dice_show_negative_attributes():
    sheet = compute_sheet(CharacterBuild(attributes=Attributes(str=4, wis=-2)))
    rows = {row.key: row for row in sheet.attributes}
    assert rows["wis"].check_d20 == "d20-2"
    assert rows["cha"].check_d20 == "d20+0"


@pytest.mark.parametrize("status", ["Staggered", "staggered"])
def test_staggered_checks_are_all_on_a_d12(status):
    sheet = compute_sheet(CharacterBuild(attributes=ASPHODEL, statuses=frozenset({status})))
    assert sheet.value("check_dice") == "d12 / d12"
    assert sheet.check_die == 12
    rows = {row.key: row for row in sheet.attributes}
    assert (rows["dex"].check_d20, rows["dex"].check_d12) == ("d12+2", "d12+2")


def test_miscellaneous_item_quality():
    # "Superior miscellaneous items grant a +2 to any Checks using them ... Inferior ones
    # inflict a -2 penalty"
    from rules.engine.eldritch_gambit.gear import ITEM_CHECK_BY_QUALITY, Quality

    assert ITEM_CHECK_BY_QUALITY == {Quality.STANDARD: 0, Quality.SUPERIOR: 2,
                                     Quality.INFERIOR: -2}


def test_a_check_total_never_goes_below_zero():
    # Basics > Rolls > Modifiers: a Modifier "can reduce the result to zero but not into
    # the negatives"; Basics > Checks: "Modifiers apply to Checks just as they do for Rolls."
    spec = CheckSpec(die=20, modifier=-6, df=0)
    assert spec.total(4) == 0
    assert spec.total(10) == 4
    # So against DF 0 (a Fallen foe's AF) every face succeeds but the natural 1.
    assert spec.success_faces == tuple(range(2, 21))
