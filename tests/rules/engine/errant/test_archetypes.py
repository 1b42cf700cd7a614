"""The four Archetypes' resources by formula, checked row by row against the ER tables,
and the starting kits (Errant SRD, ER §The Violent ... §The Zealot, §Select Starting
Equipment)."""

from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.errant import archetypes as R
from rules.engine.errant.data import (
    DEVIANT,
    DEVIANT_TABLE,
    OCCULT,
    OCCULT_TABLE,
    VIOLENT,
    VIOLENT_TABLE,
    ZEALOT,
    ZEALOT_TABLE,
)
from rules.engine.errant.sheet import ErrantBuild

RENOWNS = range(1, 10)


@pytest.mark.parametrize("renown", RENOWNS)
def test_violent_table(renown):
    assert (R.attack_rolls(renown), R.feats_known(renown), R.combat_dice(renown)) == \
        VIOLENT_TABLE[renown]


@pytest.mark.parametrize("renown", RENOWNS)
def test_deviant_table(renown):
    gained, jetton_bonus = DEVIANT_TABLE[renown]
    assert R.proficiency_points(renown) == sum(DEVIANT_TABLE[r][0] for r in range(1, renown + 1))
    assert R.jettons(10, renown) == 10 + jetton_bonus


@pytest.mark.parametrize("renown", RENOWNS)
def test_occult_table(renown):
    assert (R.prepared_sorceries(renown), R.sorcery_depletion(renown), R.stabilise(renown),
            R.maleficence_label(renown), R.retorts(renown)) == OCCULT_TABLE[renown]


@pytest.mark.parametrize("renown", RENOWNS)
def test_zealot_table(renown):
    offset, relics, _unlabelled = ZEALOT_TABLE[renown]
    assert R.favour(12, renown) == 12 + offset
    assert R.relics_attuned(renown) == relics


def test_the_literal_table_rows():
    # ER: Violent R1 "1 1 3 2", R9 "9 4 7 10"; Occult R3 "3 4 1 6 4D6/2D6 2";
    # Zealot R1 "pres-8", R9 "pres".
    assert VIOLENT_TABLE[1] == (1, 3, 2) and VIOLENT_TABLE[9] == (4, 7, 10)
    assert OCCULT_TABLE[3] == (4, 1, 6, "4D6/2D6", 2)
    assert R.favour(10, 1) == 2 and R.favour(10, 9) == 10
    assert R.jettons(7, 1) == 9  # "Skill+2"


def test_low_favour_is_nothing_to_spend():
    assert R.favour(6, 1) == -2  # AMB-E22
    assert R.favour_available(R.favour(6, 1)) == 0
    assert R.favour(6, 1, deeds=5) == 3


def test_stabilise_dv_adds_encumbrance():
    assert R.stabilise_dv(1, 3) == 11  # ER §The Occult: stabilise + Encumbrance


def test_proficiency_spending():
    assert R.proficiency_problems({"stealth": 2}, 1) == []
    codes = [p.code for p in R.proficiency_problems({"stealth": 3}, 1)]
    assert "proficiency_points_invalid" in codes
    assert [p.code for p in R.proficiency_problems({"stealth": 2, "lore": 1}, 1)] == \
        ["proficiency_points_over"]
    unspent = R.proficiency_problems({"lore": 1}, 1)
    assert [(p.code, p.severity) for p in unspent] == [("proficiency_points_unspent", "warning")]


def test_damage_dice():
    assert [R.damage_die(a) for a in (VIOLENT, DEVIANT, OCCULT, ZEALOT)] == [8, 6, 4, 6]


def test_common_kit_is_five_slots_and_four_supply():
    # ER §Select Starting Equipment; AMB-E17 (bedroll 1, mess kit 1/4 here).
    kit = R.starting_kit(DEVIANT, "burglars_tools")
    common = kit[:-1]
    assert sum(item.slots * item.quantity for item in common) == 5
    assert sum(i.quantity for i in common if i.kind == "supply") == 4
    assert sum(i.slots * i.quantity for i in kit) == 6
    torch = next(i for i in kit if i.name == "Torch")
    assert (torch.slots, torch.burn) == (F(1, 2), 2)


@pytest.mark.parametrize(("archetype", "choice", "slots"), [
    (VIOLENT, "heavy_weapon", 7), (VIOLENT, "small_shield", 6), (VIOLENT, "large_shield", 7),
    (DEVIANT, "alchemists_kit", 6), (OCCULT, "grimoires", 6), (ZEALOT, "relic", 6)])
def test_archetype_kits(archetype, choice, slots):
    kit = R.starting_kit(archetype, choice)
    assert sum(i.slots * i.quantity for i in kit) == slots
    assert sum(i.slots * i.quantity for i in R.starting_kit(archetype, choice, quiver=True)) \
        == slots + 1


def test_a_kit_of_another_archetype_is_refused():
    with pytest.raises(KeyError):
        R.starting_kit(OCCULT, "relic")


def test_archetype_values_names():
    names = [v.name for v in R.archetype_values(OCCULT, 1, 10, 10, encumbrance=2)]
    assert names == ["prepared_sorceries", "sorcery_depletion", "stabilise", "stabilise_dv",
                     "maleficence", "retorts"]
    values = {v.name: v.value for v in R.archetype_values(ZEALOT, 3, 10, 11)}
    assert values == {"favour": 5, "relics_attuned": 2}


def test_mastery_is_two_points_on_a_deviant():
    """ER §The Deviant: "Spending an additional Proficiency point ... grants you mastery"."""
    deviant = ErrantBuild(archetype=DEVIANT, proficiencies=(("anatomy", 2), ("lore", 1)))
    assert R.has_mastery(deviant, "anatomy")
    assert not R.has_mastery(deviant, "lore") and not R.has_mastery(deviant, "speechcraft")
    assert not R.has_mastery(ErrantBuild(archetype=OCCULT, proficiencies=(("anatomy", 2),)),
                             "anatomy")


def test_lore_mastery_gives_a_deviant_sorcery_depletion_1():
    """ER §The Deviant, Lore mastery: "your Sorcery Depletion is 1" (AMB-E-LORE): 1 at
    every Renown, where an Occult's is 1, 2, 3 by Renown."""
    for renown in (1, 7, 9):
        values = {v.name: v.value for v in R.archetype_values(DEVIANT, renown, 13, 10,
                                                               lore_mastery=True)}
        assert values == {"proficiency_points": renown + 1, "jettons": 13 + 2 * renown,
                          "sneak_attack_dice": 2, "sorcery_depletion": 1}
    assert R.sorcery_depletion(7) == 3
    assert [v.name for v in R.archetype_values(DEVIANT, 7, 13, 10)] == [
        "proficiency_points", "jettons", "sneak_attack_dice"]


def test_sneak_attack_two_dice_three_with_assassin():
    """ER §The Deviant: Sneak Attack "rolling two damage dice"; Stealth mastery Assassin:
    "you roll three damage dice when making a sneak attack"; other Archetypes have none."""
    assert R.sneak_attack_dice(ErrantBuild(archetype=DEVIANT)) == 2
    assert R.sneak_attack_dice(ErrantBuild(archetype=DEVIANT,
                                           proficiencies=(("stealth", 1),))) == 2
    assert R.sneak_attack_dice(ErrantBuild(archetype=DEVIANT,
                                           proficiencies=(("stealth", 2),))) == 3
    assert R.sneak_attack_dice(ErrantBuild(archetype=OCCULT,
                                           proficiencies=(("stealth", 2),))) == 0
    values = {v.name: v.value for v in R.archetype_values(DEVIANT, 1, 9, 9, assassin=True)}
    assert values["sneak_attack_dice"] == 3


@given(st.integers(0, 30), st.booleans())
def test_a_beast_masters_companion_has_hp_and_spd_of_skill_and_a_d6(skill, assassin):
    """Survival mastery Beast Master: "HP and SPD equal to your skill, a damage die of D6,
    and can perform sneak attacks"; Checks on your skill; Assassin benefits it too
    (AMB-E-BEAST). No mastery, no companion."""
    build = ErrantBuild(archetype=DEVIANT, proficiencies=(
        ("survival", 2), *((("stealth", 2),) if assassin else ())))
    c = R.animal_companion(build, skill)
    assert (c.hp, c.spd, c.damage_sides, c.check_attribute) == (skill, skill, 6, skill)
    assert c.sneak_dice == (3 if assassin else 2)
    assert R.animal_companion(ErrantBuild(archetype=DEVIANT,
                                          proficiencies=(("survival", 1),)), skill) is None
    assert R.animal_companion(ErrantBuild(proficiencies=(("survival", 2),)), skill) is None
