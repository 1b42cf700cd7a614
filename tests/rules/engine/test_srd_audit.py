"""Rule cases from the SRD's text that the other engine tests did not pin down.

Each test cites the sentence it checks. Edge cases the text implies (zero, negatives,
Level 1, Size and quality together) are tested where the worked examples stop.
"""

from rules.engine.dice import Dice
from rules.engine.eldritch_gambit import (
    ArmorStats,
    Attributes,
    CharacterBuild,
    Coverage,
    GearPiece,
    Kind,
    Quality,
    ShieldStats,
    TraitChoice,
    WeaponStats,
    compute_sheet,
)
from rules.engine.eldritch_gambit.checks import CheckSpec, modifier
from rules.engine.eldritch_gambit.rolls import weapon_damage
from tests.rules.engine.srd_examples import ASPHODEL, CHAIN

HEATER = GearPiece("Shield, large", Kind.SHIELD, load=2, shield=ShieldStats(3, 1),
                   weapon=WeaponStats(0, "1d6"), equipped=True)
GAUNTLET = GearPiece("Gauntlet", Kind.WEAPON, weapon=WeaponStats(0, "1d4+1", tags=("Stun",)))
UNARMED = GearPiece("Unarmed", Kind.WEAPON, weapon=WeaponStats(0, "1d4", tags=("Stun",)))
SLING = GearPiece("Sling", Kind.WEAPON, weapon=WeaponStats(0, "1d4", range=2))
DAGGER = GearPiece("Dagger", Kind.WEAPON, weapon=WeaponStats(1, "1d6", range=1))


def sheet_for(attributes=ASPHODEL, level=10, **kwargs):
    return compute_sheet(CharacterBuild(level=level, attributes=attributes, **kwargs))


# ------------------------------------------------------------------ Level 1 (Characters > Level)


def test_level_one_character():
    # LEVEL BENEFITS: "1 | 1 (max 1) | -"; "Characters add a Level whenever they earn
    # as many XP as their current Level."; Base HP = Level + STR + END.
    sheet = sheet_for(Attributes(str=1), level=1)
    assert sheet.value("attribute_points") == 1
    assert sheet.value("attribute_max") == 1
    assert sheet.value("tier") is None
    assert sheet.value("xp_to_next") == 1
    assert sheet.value("hp_base") == 2
    assert not sheet.errors


def test_negative_attributes_lower_their_numbers_but_refund_nothing():
    # Characters > Attributes: "You may have a negative Attribute if you wish but get no
    # points back for it." The negative still counts in every formula that uses it.
    attributes = Attributes(str=-1, agi=-2, wis=-1, end=-1, dex=1)
    sheet = sheet_for(attributes, level=1)
    assert sheet.value("attribute_points_spent") == 1
    assert not sheet.errors
    assert sheet.value("af_base") == 8  # 10 + AGI (the AF in play is 0: Fallen)
    assert sheet.value("wp") == 9  # 10 + WIS
    assert sheet.value("wp_floor") == 5  # half of 9, rounded up
    assert sheet.value("hp_base") == -1  # Level + STR + END: already Fallen
    assert sheet.has_status("fallen")
    assert sheet.value("rally") == "1d4-1"
    assert sheet.value("load_capacity") == -2


# ------------------------------------------------------------- Checks (Basics > Checks)


def test_a_natural_one_fails_even_against_df_zero():
    # "A natural or raw result of one; before any modifier, always fails."
    assert not CheckSpec(die=20, modifier=10, df=0).succeeds(1)
    assert not CheckSpec(die=12, modifier=10, df=0).succeeds(1)


def test_staggered_attack_is_on_a_d12_even_for_a_d20_action():
    # "Staggered combatants ... all Checks are made on a d12 instead of d20."
    sheet = sheet_for(statuses=frozenset({"Staggered"}))
    assert sheet.check_die == 12
    assert sheet.value("check_dice") == "d12 / d12"


def test_modifier_keeps_one_bonus_and_one_penalty_whatever_their_sources():
    # "Modifier = Attribute + Bonus + Penalty": a superior kit (+2) and a weapon's Hit
    # (+2) do not stack; Blinded (-4) and a soft cover (-4) do not either.
    assert modifier(2, bonuses=(2, 2), penalties=(-4, -4)) == 0


# ------------------------------------------------------------ Weapons (Resources > Weapons)


def test_gauntlet_keeps_its_plus_one_and_adds_str():
    # STANDARD WEAPONS: Gauntlet 1d4+1; "STR adds to damage for every listed weapon";
    # a Critical adds the max of one die (the d4).
    (line,) = sheet_for(gear=(GAUNTLET,)).weapons
    assert (line.hit, line.damage, line.critical_bonus) == (2, "1d4+4", 4)


def test_fist_fighter_example():
    # Scenes > Attack, Melee: "a fist-fighter with +2 STR (1d4+2 dmg) would do 1d4+6 on
    # a Critical."
    (line,) = sheet_for(Attributes(str=2), gear=(UNARMED,)).weapons
    assert line.damage == "1d4+2"
    critical = weapon_damage(line.name, line.damage, line.critical_bonus, critical=True)
    assert critical.expression == "1d4+2+4"
    assert critical.total_for(1) == 7


def test_negative_str_lowers_damage_but_the_roll_stops_at_zero():
    # "STR adds to damage"; Modifiers "can reduce the result to zero but not into the
    # negatives".
    (line,) = sheet_for(Attributes(str=-2), gear=(SLING,)).weapons
    assert line.damage == "1d4-2"
    spec = weapon_damage(line.name, line.damage, line.critical_bonus)
    assert spec.total_for(1) == 0


def test_inferior_weapon_with_no_hit_bonus_has_a_penalty():
    # "Inferior weapons are half price but lower to hit and damage by one"; the Hit "-"
    # is 0.
    sling = GearPiece("Sling", Kind.WEAPON, quality=Quality.INFERIOR,
                      weapon=WeaponStats(0, "1d4", range=2))
    (line,) = sheet_for(Attributes(), gear=(sling,)).weapons
    assert (line.hit, line.damage) == (-1, "1d4-1")


def test_superior_shield_bashes_better_but_blocks_the_same():
    # Shields: "A shield is also a weapon, bashing for 1d6+STR damage regardless of
    # size"; Superior weapons "raise to hit and damage by one". Quality is not said to
    # change the AF bonus, so it does not.
    heater = GearPiece("Shield, large", Kind.SHIELD, load=2, shield=ShieldStats(3, 1),
                       weapon=WeaponStats(0, "1d6"), equipped=True, quality=Quality.SUPERIOR)
    sheet = sheet_for(gear=(heater,))
    (line,) = sheet.weapons
    assert (line.hit, line.damage) == (3, "1d6+4")  # DEX 2 + 1; STR 3 + 1
    assert sheet.value("af") == 14  # 10 + AGI 1 + 3


def test_two_handed_and_reach_tags_do_not_change_the_numbers():
    spear = GearPiece("Spear", Kind.WEAPON, load=1,
                      weapon=WeaponStats(2, "1d8", range=1, tags=("Reach",)))
    (line,) = sheet_for(gear=(spear,)).weapons
    # Asphodel's spear: Hit +2 + DEX 2; 1d8 + STR 3; Range 1, twice that on a d12.
    assert (line.hit, line.damage, line.range, line.long_range) == (4, "1d8+3", 1, 2)


# ------------------------------------------------------- Size and Traits (Bestiary)


def test_small_armored_hide_steps_its_rally_die_down():
    # Armored: "This includes the usual Rally die type increase from armor"; Size
    # changes "the dice for damage and Rallies": Small rolls one die type smaller.
    sheet = sheet_for(Attributes(end=2), traits=(TraitChoice("Size", "Small"),
                                                 TraitChoice("Armored", "light")))
    assert sheet.value("rally") == "1d4+2"
    assert sheet.value("armor_ap") == 5  # Small: HP "-", so AP is not multiplied


def test_large_partial_chain_counts_as_leather_then_doubles():
    # A partial set "drops the effective armor type by one"; Large: "x2" HP, "also
    # applies to AP"; Rolls "2d".
    chain_shirt = GearPiece("Chain mail", Kind.ARMOR, load=2, coverage=Coverage.PARTIAL,
                            armor=ArmorStats(10, 8, rank=2), equipped=True)
    sheet = sheet_for(Attributes(str=2, end=4), traits=(TraitChoice("Size", "Large"),),
                      gear=(chain_shirt,))
    assert sheet.value("hp_base") == 32
    assert sheet.value("armor_ap") == 10
    assert sheet.value("hp_armored") == 42
    assert sheet.value("rally") == "2d6+4"


def test_poison_compares_with_the_size_multiplied_base_hp():
    # Poisoned: "If the total exceeds their Base HP, the poison takes effect." A Large
    # creature's Base HP is doubled (SIZES: HP x2).
    traits = (TraitChoice("Size", "Large"),)
    base = sheet_for(Attributes(), traits=traits).value("hp_base")
    assert base == 20
    at = sheet_for(Attributes(), traits=traits, statuses=frozenset({"Poisoned"}),
                   poison_buildup=20)
    over = sheet_for(Attributes(), traits=traits, statuses=frozenset({"Poisoned"}),
                     poison_buildup=21)
    assert "poison_takes_effect" not in [i.code for i in at.warnings]
    assert "poison_takes_effect" in [i.code for i in over.warnings]


def test_trait_load_counts_for_swimming():
    # Templates: Traits "inflict or relieve Load, as in the Encumbrance section";
    # Encumbrance: "Swim (Move) Checks are at -1 for each Load." Flight is Load 2.
    sheet = sheet_for(traits=(TraitChoice("Flight", "", 2),))
    assert sheet.value("load") == 2
    assert sheet.value("swim_penalty") == -2


def test_swim_penalty_with_chain_mail_and_a_heater():
    # Chain mail Load 2 + a large shield Load 2: -4 to Swim.
    sheet = sheet_for(gear=(CHAIN, HEATER))
    assert (sheet.value("load"), sheet.value("swim_penalty")) == (4, -4)


def test_critical_bonus_on_size_stepped_dice():
    # "A Critical works as usual, adding the max of one die": the die after Size.
    sheet = sheet_for(Attributes(str=1), gear=(DAGGER,), traits=(TraitChoice("Size", "Huge"),))
    (line,) = sheet.weapons
    assert (line.damage, line.critical_bonus) == ("3d6+1", 6)
    assert str(Dice.parse(line.damage).plus(line.critical_bonus)) == "3d6+7"
