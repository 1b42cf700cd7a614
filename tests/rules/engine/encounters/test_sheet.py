"""The derived view of a combatant's numbers (rules/engine/encounters/sheet.py), with
cases of our own design."""

from fractions import Fraction

import pytest

from rules.engine.encounters import EncounterError, Settings
from rules.engine.encounters.sheet import BOUNDS, compute_sheet, roll_text

NUMBERS = {"quickness": 4, "command": -3, "strength": 2, "willpower": 5,
           "stamina_max": 6, "health_max": 7, "sanity_max": 8, "load": 0}


@pytest.mark.parametrize(("formula", "skill", "text"), [
    ("2d6+skill", 4, "2d6+4"), ("2d6+skill", -3, "2d6-3"), ("skill+1d10", 0, "0+1d10"),
    ("1d20-skill", -2, "1d20+2"), ("3d6", 9, "3d6"), ("1d6 + SKILL", 2, "1d6 + 2")])
def test_the_roll_a_skill_makes_with_the_campaigns_formula(formula, skill, text):
    assert roll_text(formula, skill) == text


def test_each_mode_names_its_skill_and_roll():
    sheet = compute_sheet(NUMBERS)
    assert sheet["initiative_maneuver"].value == "2d6+4"
    assert "Quickness 4" in sheet["initiative_maneuver"].how
    assert sheet["initiative_concentrate"].value == "2d6-3"
    assert "Command -3" in sheet["initiative_concentrate"].how


@pytest.mark.parametrize(("load", "pace", "run"), [
    (0, "10", "40"), (9, "10", "40"), (10, "9", "36"), (25, "7 1/2", "30"),
    (80, "2", "8"), (100, "0", "0")])
def test_pace_and_the_farthest_run_follow_the_load(load, pace, run):
    sheet = compute_sheet({**NUMBERS, "load": load})
    assert (sheet["pace"].value, sheet["run_max"].value) == (pace, run)


def test_a_campaign_ignoring_encumbrance_keeps_the_full_pace():
    sheet = compute_sheet({**NUMBERS, "load": 60}, Settings(pace_formula="ignored"))
    assert sheet["pace"].value == "10" and "ignores encumbrance" in sheet["pace"].how


def test_charge_momentum_shows_only_when_the_campaign_uses_it():
    assert "charge_max" not in compute_sheet(NUMBERS)
    sheet = compute_sheet({**NUMBERS, "load": 25}, Settings(charge_momentum=True))
    # 30 yards run: three full tens.
    assert sheet["charge_max"].value == 3


def test_pushing_power_per_hit_and_before_collapse():
    sheet = compute_sheet(NUMBERS)
    assert sheet["push_strength"].value == 3 and "Willpower 5 + 1 = 6" in sheet[
        "push_strength"].how
    assert sheet["push_most"].value == 5 and "2 + 5 = 7" in sheet["push_most"].how
    assert compute_sheet({**NUMBERS, "stamina_max": 1})["push_most"].value == 0


def test_the_derived_mapping_keys_every_stat():
    derived = compute_sheet(NUMBERS).derived()
    assert derived["stamina_max"] == 6 and derived["second_action"] == -2
    assert not any(isinstance(value, Fraction) for value in derived.values())


@pytest.mark.parametrize("name", sorted(BOUNDS))
def test_a_number_out_of_bounds_is_refused(name):
    low, high = BOUNDS[name]
    for value in (low - 1, high + 1):
        with pytest.raises(EncounterError) as refused:
            compute_sheet({**NUMBERS, name: value})
        assert refused.value.field == name
