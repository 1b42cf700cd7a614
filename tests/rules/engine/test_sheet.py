"""compute_sheet: issues with stable codes, the derived export, explanations.

Eldritch Gambit SRD, Characters > Level ("The most you can put into an Attribute is
half the Level, rounded up"), Characters > Attributes ("A character gets Attribute
points ... equal to their Level"), Characters > Defenses (Armored HP is the maximum;
Willpower), Resources > Armor ("armor only raises max HP, not current").
"""

import pytest

from rules.engine.eldritch_gambit import (
    DERIVED_NAMES,
    Attributes,
    CharacterBuild,
    GearPiece,
    Kind,
    compute_sheet,
)
from tests.rules.engine.srd_examples import ASPHODEL, CHAIN

MATERIA = GearPiece("Dormant Demon", Kind.MATERIA, attuned=True)

EXPECTED_DERIVED = {
    "level", "tier", "attribute_points", "attribute_points_spent", "attribute_max",
    "str", "wis", "dex", "agi", "cha", "end",
    "af", "hp_base", "hp_armored", "hp_current", "rally",
    "wp", "wp_current", "wp_floor", "load", "load_capacity", "encumbrance",
}
INT_KEYS = EXPECTED_DERIVED - {"tier", "rally", "encumbrance"}


def sheet_for(attributes=ASPHODEL, level=10, **kwargs):
    return compute_sheet(CharacterBuild(level=level, attributes=attributes, **kwargs))


def codes(sheet):
    return [issue.code for issue in sheet.issues]


# ---------------------------------------------------------------- a clean build


def test_asphodel_has_no_issues():
    assert sheet_for(gear=(CHAIN,)).issues == ()


def test_default_build_starts_at_level_10():
    sheet = compute_sheet(CharacterBuild())
    assert sheet.value("level") == 10
    assert sheet.value("attribute_points") == 10
    assert sheet.value("attribute_points_left") == 10


# ---------------------------------------------------------------- Attribute maximum


def test_over_maximum_message():
    sheet = sheet_for(Attributes(str=6, end=4))
    (issue,) = sheet.issues
    assert issue.code == "attribute_over_maximum"
    assert issue.message == "Strength +6 is over the Level 10 maximum of +5."
    assert issue.field == "str"
    assert issue.is_error
    assert sheet.issues_for("str") == (issue,)


@pytest.mark.parametrize(
    ("level", "attributes", "field", "message"),
    [
        (10, Attributes(wis=7), "wis", "Wisdom +7 is over the Level 10 maximum of +5."),
        (7, Attributes(agi=5), "agi", "Agility +5 is over the Level 7 maximum of +4."),
        (1, Attributes(cha=2), "cha", "Charisma +2 is over the Level 1 maximum of +1."),
        (20, Attributes(end=11), "end", "Endurance +11 is over the Level 20 maximum of +10."),
        (3, Attributes(dex=3), "dex", "Dexterity +3 is over the Level 3 maximum of +2."),
    ],
)
def test_over_maximum_messages(level, attributes, field, message):
    issues = [i for i in sheet_for(attributes, level=level).issues
              if i.code == "attribute_over_maximum"]
    assert [(i.field, i.message) for i in issues] == [(field, message)]


@pytest.mark.parametrize(("level", "score"), [(10, 5), (9, 5), (1, 1), (3, 2), (19, 10)])
def test_at_maximum_is_fine(level, score):
    sheet = sheet_for(Attributes(str=score), level=level)
    assert "attribute_over_maximum" not in codes(sheet)


def test_over_maximum_is_flagged_on_the_row():
    rows = {row.key: row for row in sheet_for(Attributes(str=6)).attributes}
    assert rows["str"].over_maximum
    assert not rows["end"].over_maximum


def test_each_attribute_over_maximum_is_its_own_issue():
    sheet = sheet_for(Attributes(str=6, dex=6), level=10)
    assert codes(sheet).count("attribute_over_maximum") == 2


# ---------------------------------------------------------------- Attribute budget


def test_over_budget():
    sheet = sheet_for(Attributes(str=5, wis=2, dex=2, agi=1, cha=1))  # 11 of 10
    (issue,) = sheet.issues
    assert issue.code == "attribute_points_over_budget"
    assert issue.field == "attributes"
    assert issue.is_error
    assert "11" in issue.message and "10" in issue.message
    assert sheet.value("attribute_points_left") == -1


def test_spending_exactly_the_budget_is_fine():
    assert "attribute_points_over_budget" not in codes(sheet_for(Attributes(str=5, end=5)))


def test_underspending_is_fine():
    sheet = sheet_for(Attributes(str=2))
    assert sheet.issues == ()
    assert sheet.value("attribute_points_left") == 8


def test_level_below_one():
    assert "level_below_minimum" in codes(sheet_for(Attributes(), level=0))


# ---------------------------------------------------------------- current HP and WP


def test_hp_current_over_armored_maximum():
    sheet = sheet_for(gear=(CHAIN,), hp_current=26)
    (issue,) = sheet.issues
    assert issue.code == "hp_current_over_maximum"
    assert issue.field == "hp_current"
    assert issue.is_error


def test_hp_current_at_armored_maximum_is_fine():
    assert sheet_for(gear=(CHAIN,), hp_current=25).issues == ()


def test_hp_current_over_base_but_within_armor_is_fine():
    assert sheet_for(gear=(CHAIN,), hp_current=20).issues == ()


def test_wp_current_over_maximum():
    sheet = sheet_for(wp_current=12)
    (issue,) = sheet.issues
    assert issue.code == "wp_current_over_maximum"
    assert issue.field == "wp_current"
    assert issue.is_error


def test_wp_current_over_what_materia_leaves():
    # WP 11 less one attuned Materia is 10; 11 is now too many.
    sheet = sheet_for(gear=(MATERIA,), wp_current=11)
    assert codes(sheet) == ["wp_current_over_maximum"]
    assert sheet_for(gear=(MATERIA,), wp_current=10).issues == ()


def test_wp_current_cannot_be_negative():
    assert "wp_current_negative" in codes(sheet_for(wp_current=-1))


def test_errors_and_warnings_are_split():
    sheet = sheet_for(Attributes(str=6), wp_current=1)
    assert {i.code for i in sheet.errors} == {"attribute_over_maximum"}
    assert {i.code for i in sheet.warnings} == {"wp_below_floor"}


# ---------------------------------------------------------------- derived()


def test_derived_names_are_the_documented_22():
    assert len(DERIVED_NAMES) == 22
    assert set(DERIVED_NAMES) == EXPECTED_DERIVED


def test_asphodel_derived():
    assert sheet_for(gear=(CHAIN,)).derived() == {
        "level": 10,
        "tier": "Heroic",
        "attribute_points": 10,
        "attribute_points_spent": 10,
        "attribute_max": 5,
        "str": 3,
        "wis": 1,
        "dex": 2,
        "agi": 1,
        "cha": 1,
        "end": 2,
        "af": 11,
        "hp_base": 15,
        "hp_armored": 25,
        "hp_current": 25,
        "rally": "1d8+2",
        "wp": 11,
        "wp_current": 11,
        "wp_floor": 6,
        "load": 2,
        "load_capacity": 5,
        "encumbrance": "none",
    }


@pytest.mark.parametrize(
    "build",
    [
        CharacterBuild(),
        CharacterBuild(level=3, attributes=Attributes(str=2, wis=-1)),
        CharacterBuild(level=20, attributes=Attributes(str=10, end=10), hp_current=-3,
                       statuses=frozenset({"Surprised"})),
        CharacterBuild(level=10, attributes=ASPHODEL, gear=(CHAIN, MATERIA), wp_current=4),
    ],
)
def test_derived_types(build):
    derived = compute_sheet(build).derived()
    assert set(derived) == EXPECTED_DERIVED
    for key in INT_KEYS:
        assert type(derived[key]) is int, key
    assert derived["tier"] is None or type(derived["tier"]) is str
    assert type(derived["rally"]) is str
    assert derived["encumbrance"] in {"none", "encumbered", "incapacitated"}


def test_derived_tier_is_none_below_level_5():
    assert sheet_for(Attributes(str=2), level=4).derived()["tier"] is None


# ---------------------------------------------------------------- explanations


def test_hp_explains_itself():
    sheet = sheet_for(gear=(CHAIN,))
    assert sheet["hp_base"].explanation == "Base HP 15 = Level 10 + STR 3 + END 2"
    assert sheet["hp_armored"].explanation == "Armored HP 25 = Base HP 15 + AP 10"


def test_wp_explains_the_materia():
    assert sheet_for(gear=(MATERIA,))["wp"].explanation == (
        "WP 10 = 10 + WIS 1 + attuned Materia -1"
    )


def test_fallen_af_explains_the_drop():
    explanation = sheet_for(hp_current=0)["af"].explanation
    assert explanation.startswith("AF 0 = 10 + AGI 1")
    assert "Fallen" in explanation
