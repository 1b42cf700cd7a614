"""Defenses: Hit Points, Rally, Agility Factor, Willpower, and what statuses do to them.

Eldritch Gambit SRD, Characters > Defenses (DEFENSES table, the worked HP example, HP
Status Effects, Status), Characters > Example Character (Asphodel), Resources > Armor
(STANDARD ARMORS, partial sets) and Shields (STANDARD SHIELDS), Magic > Materia.
"""

import pytest

from rules.engine.eldritch_gambit import (
    ArmorStats,
    Attributes,
    CharacterBuild,
    Coverage,
    GearPiece,
    Kind,
    Quality,
    ShieldStats,
    compute_sheet,
)
from rules.engine.eldritch_gambit.gear import price_cp
from tests.rules.engine.srd_examples import ASPHODEL


def armor(name, ap, rally, load, rank, cp, **kwargs):
    kwargs.setdefault("equipped", True)
    return GearPiece(name, Kind.ARMOR, load=load, armor=ArmorStats(ap, rally, rank=rank),
                     cost_cp=cp, **kwargs)


def shield(name, af, block, load, **kwargs):
    kwargs.setdefault("equipped", True)
    return GearPiece(name, Kind.SHIELD, load=load, shield=ShieldStats(af, block), **kwargs)


def materia(name="Dormant Demon", **kwargs):
    kwargs.setdefault("attuned", True)
    return GearPiece(name, Kind.MATERIA, **kwargs)


# STANDARD ARMORS: AP, Rally die, Load, cp.
LEATHER = armor("Leather", 5, 6, 1, 1, 100)
CHAIN = armor("Chain mail", 10, 8, 2, 2, 300)
SCALE = armor("Scale mail", 15, 10, 3, 3, 600)
PLATE = armor("Plate mail", 20, 12, 4, 4, 1000)

# STANDARD SHIELDS: AF, Block, Load.
BUCKLER = shield("Buckler", 1, 3, 0)
TARGET = shield("Target", 2, 2, 1)
HEATER = shield("Heater", 3, 1, 2)

EXAMPLE = Attributes(str=2, end=4)  # the Hit Points example


def sheet_for(attributes=EXAMPLE, level=10, **kwargs):
    return compute_sheet(CharacterBuild(level=level, attributes=attributes, **kwargs))


# ---------------------------------------------------------------- the SRD's worked examples


def test_hit_points_example_unarmored():
    # "a Level 10 character with 2 STR and 4 END gets 16 Base HP. They can Rally for
    # 1d4+4 HP."
    sheet = sheet_for()
    assert sheet.value("hp_base") == 16
    assert sheet.value("hp_armored") == 16
    assert sheet.value("rally") == "1d4+4"


def test_hit_points_example_in_leather():
    # "If they wear leather armor granting 5 AP, their Armored HP jumps to 21 and their
    # Rally to 1d6+4."
    sheet = sheet_for(gear=(LEATHER,))
    assert sheet.value("hp_base") == 16
    assert sheet.value("hp_armored") == 21
    assert sheet.value("rally") == "1d6+4"


def test_asphodel_example_character():
    # Level 10: +3 STR, +2 END, +2 DEX, +1 WIS, AGI and CHA; chain mail.
    sheet = sheet_for(ASPHODEL, gear=(CHAIN,))
    assert sheet.value("af") == 11  # 10 + AGI 1
    assert sheet.value("hp_base") == 15  # 10 + 3 + 2
    assert sheet.value("hp_armored") == 25  # + 10 AP
    assert sheet.value("rally") == "1d8+2"
    assert sheet.value("wp") == 11  # 10 + WIS 1
    assert sheet.value("wp_floor") == 6  # half of 11, rounded up
    assert sheet.value("load_capacity") == 5  # STR + END
    assert sheet.value("attribute_points_spent") == 10
    assert not sheet.issues


def test_asphodel_unarmored():
    sheet = sheet_for(ASPHODEL)
    assert sheet.value("hp_armored") == 15
    assert sheet.value("rally") == "1d4+2"


# ---------------------------------------------------------------- the DEFENSES table


@pytest.mark.parametrize(
    ("attributes", "af", "hp", "wp"),
    [
        (Attributes(), 10, 10, 10),
        (Attributes(agi=5), 15, 10, 10),
        (Attributes(agi=-2), 8, 10, 10),
        (Attributes(str=5, end=5), 10, 20, 10),
        (Attributes(str=-1, end=-1), 10, 8, 10),
        (Attributes(wis=4), 10, 10, 14),
        (Attributes(wis=-2), 10, 10, 8),
    ],
)
def test_defenses_table(attributes, af, hp, wp):
    # AF = 10 + AGI; HP = Level + STR + END; WP = 10 + WIS.
    sheet = sheet_for(attributes)
    assert (sheet.value("af"), sheet.value("hp_base"), sheet.value("wp")) == (af, hp, wp)


@pytest.mark.parametrize("level", [1, 5, 12, 20])
def test_base_hp_includes_level(level):
    assert sheet_for(EXAMPLE, level=level).value("hp_base") == level + 6


# ---------------------------------------------------------------- armor


@pytest.mark.parametrize(
    ("piece", "armored", "rally"),
    [
        (None, 16, "1d4+4"),
        (LEATHER, 21, "1d6+4"),
        (CHAIN, 26, "1d8+4"),
        (SCALE, 31, "1d10+4"),
        (PLATE, 36, "1d12+4"),
    ],
)
def test_standard_armors(piece, armored, rally):
    sheet = sheet_for(gear=(piece,) if piece else ())
    assert sheet.value("hp_armored") == armored
    assert sheet.value("rally") == rally


def test_armor_counts_only_when_worn():
    carried = armor("Chain mail", 10, 8, 2, 2, 300, equipped=False)
    sheet = sheet_for(gear=(carried,))
    assert sheet.value("hp_armored") == 16
    assert sheet.value("rally") == "1d4+4"


def test_dropped_armor_does_not_protect():
    sheet = sheet_for(gear=(armor("Chain mail", 10, 8, 2, 2, 300, dropped=True),))
    assert sheet.value("hp_armored") == 16


@pytest.mark.parametrize(
    ("piece", "ap", "rally", "load"),
    [
        # "A partial set drops the effective armor type by one and a minimal set by two.
        # For example, a chain mail shirt by itself counts as Leather."
        (armor("Chain mail shirt", 10, 8, 2, 2, 300, coverage=Coverage.PARTIAL), 5, "1d6+4", 1),
        (armor("Chain mail bits", 10, 8, 2, 2, 300, coverage=Coverage.MINIMAL), 0, "1d4+4", 0),
        (armor("Plate cuirass", 20, 12, 4, 4, 1000, coverage=Coverage.PARTIAL), 15, "1d10+4", 3),
        (armor("Plate gauntlets", 20, 12, 4, 4, 1000, coverage=Coverage.MINIMAL), 10, "1d8+4", 2),
        (armor("Leather vest", 5, 6, 1, 1, 100, coverage=Coverage.PARTIAL), 0, "1d4+4", 0),
    ],
)
def test_partial_and_minimal_sets(piece, ap, rally, load):
    sheet = sheet_for(gear=(piece,))
    assert sheet.value("hp_armored") == 16 + ap
    assert sheet.value("rally") == rally
    assert sheet.value("load") == load


def test_two_suits_cannot_be_worn():
    sheet = sheet_for(gear=(LEATHER, CHAIN))
    assert "armor_multiple_worn" in {issue.code for issue in sheet.issues}


@pytest.mark.parametrize(
    ("cp", "quality", "price"),
    [
        (100, Quality.STANDARD, 100),
        (300, Quality.SUPERIOR, 3000),  # "ten times the price"
        (300, Quality.INFERIOR, 150),  # "half price"
        (5, Quality.INFERIOR, 3),  # halved, rounded up (team decision)
        (25, Quality.INFERIOR, 13),
        (None, Quality.SUPERIOR, None),
    ],
)
def test_quality_prices(cp, quality, price):
    assert price_cp(cp, quality) == price


# ---------------------------------------------------------------- shields


@pytest.mark.parametrize(("piece", "af"), [(BUCKLER, 12), (TARGET, 13), (HEATER, 14)])
def test_shields_add_to_af(piece, af):
    # STANDARD SHIELDS: Small +1, Medium +2, Large +3 AF.
    assert sheet_for(ASPHODEL, gear=(piece,)).value("af") == af


def test_af_explains_itself():
    sheet = sheet_for(ASPHODEL, gear=(TARGET,))
    assert sheet["af"].explanation == "AF 13 = 10 + AGI 1 + shield 2"


def test_a_shield_not_in_hand_adds_nothing():
    assert sheet_for(ASPHODEL, gear=(shield("Target", 2, 2, 1, equipped=False),)).value(
        "af") == 11
    assert sheet_for(ASPHODEL, gear=(shield("Target", 2, 2, 1, dropped=True),)).value(
        "af") == 11


def test_only_one_shield_counts():
    sheet = sheet_for(ASPHODEL, gear=(BUCKLER, HEATER))
    assert sheet.value("af") == 14
    assert "shield_multiple_carried" in {issue.code for issue in sheet.issues}


# ---------------------------------------------------------------- statuses and AF


@pytest.mark.parametrize("status", ["Fallen", "fallen", "Incapacitated"])
def test_fallen_and_incapacitated_drop_af_to_zero(status):
    # "Fallen ... their AF drops to zero"; "Incapacitated ... AF drops to zero".
    sheet = sheet_for(ASPHODEL, gear=(HEATER,), statuses=frozenset({status}))
    assert sheet.value("af") == 0


@pytest.mark.parametrize(
    ("attributes", "gear", "af"),
    [
        (ASPHODEL, (), 6),  # 11 halved = 5.5, rounded up
        (ASPHODEL, (TARGET,), 7),  # 13 -> 6.5 -> 7
        (Attributes(agi=2), (), 6),  # 12 -> 6
        (Attributes(agi=5, str=1, end=1), (HEATER,), 9),  # 18 -> 9
    ],
)
def test_surprised_halves_af_rounding_up(attributes, gear, af):
    # "Surprised: ... halve their AF"; Basics: "If halved, always round up."
    sheet = sheet_for(attributes, gear=gear, statuses=frozenset({"Surprised"}))
    assert sheet.value("af") == af


def test_fallen_and_surprised_is_still_zero():
    sheet = sheet_for(ASPHODEL, statuses=frozenset({"Surprised", "Fallen"}))
    assert sheet.value("af") == 0


@pytest.mark.parametrize("hp_current", [None, 5, 0, -7])
def test_dead_drops_af_to_zero_like_fallen(hp_current):
    # "Fallen combatants ... get no Action, and their AF drops to zero." Dead follows a
    # Fallen character's failed Recovery Check: it is never better than Fallen (the
    # Initiative tracker already treats Dead as Fallen).
    sheet = sheet_for(ASPHODEL, gear=(HEATER,), statuses=frozenset({"Dead"}),
                      hp_current=hp_current)
    assert sheet.value("af") == 0
    assert "Dead: AF drops to 0" in sheet["af"].explanation


@pytest.mark.parametrize("hp_current", [0, -1, -20])
def test_zero_hp_or_below_is_fallen(hp_current):
    # "At zero or below, they are Fallen."
    sheet = sheet_for(ASPHODEL, hp_current=hp_current)
    assert sheet.has_status("fallen")
    assert "fallen" in sheet.derived_statuses
    assert sheet.value("af") == 0


def test_one_hp_left_is_still_standing():
    sheet = sheet_for(ASPHODEL, hp_current=1)
    assert not sheet.has_status("fallen")
    assert sheet.value("af") == 11


def test_unknown_status_names_are_ignored():
    sheet = sheet_for(ASPHODEL, statuses=frozenset({"Sleepy"}))
    assert sheet.statuses == ()
    assert sheet.value("af") == 11


# ---------------------------------------------------------------- current HP


def test_current_hp_defaults_to_armored_maximum():
    assert sheet_for(ASPHODEL, gear=(CHAIN,)).value("hp_current") == 25


def test_current_hp_can_be_below_maximum():
    # "armor only raises max HP, not current"
    sheet = sheet_for(ASPHODEL, gear=(CHAIN,), hp_current=15)
    assert sheet.value("hp_current") == 15
    assert not sheet.issues


# ---------------------------------------------------------------- Willpower


@pytest.mark.parametrize(
    ("wis", "wp", "floor"),
    [(0, 10, 5), (1, 11, 6), (2, 12, 6), (3, 13, 7), (-1, 9, 5), (5, 15, 8)],
)
def test_wp_floor_is_half_rounded_up(wis, wp, floor):
    # "WP can only drop to half"; halves round up.
    sheet = sheet_for(Attributes(wis=wis))
    assert sheet.value("wp") == wp
    assert sheet.value("wp_floor") == floor


def test_attuned_materia_lowers_wp_but_not_the_floor():
    # "Readying a Materia costs a WP, which cannot be regained until the item is
    # discarded"; Magic: "spend a single WP to attune".
    sheet = sheet_for(ASPHODEL, gear=(materia(),))
    assert sheet.value("wp") == 10
    assert sheet.value("wp_floor") == 6
    assert sheet.value("wp_current") == 10


def test_each_attuned_materia_costs_one_wp():
    sheet = sheet_for(ASPHODEL, gear=(materia("Codswallop"), materia("Dormant Demon")))
    assert sheet.value("wp") == 9


def test_materia_not_attuned_costs_nothing():
    sheet = sheet_for(ASPHODEL, gear=(materia(attuned=False),))
    assert sheet.value("wp") == 11


def test_ephemera_do_not_lower_wp():
    # "Unlike Materia, Ephemera inflict little strain on the mind and do not lower WP."
    sheet = sheet_for(ASPHODEL, gear=(GearPiece("Black Meat", Kind.EPHEMERA, charges=1),))
    assert sheet.value("wp") == 11


def test_wp_below_floor_is_a_warning_not_an_error():
    sheet = sheet_for(ASPHODEL, wp_current=5)
    codes = {issue.code: issue for issue in sheet.issues}
    assert "wp_below_floor" in codes
    assert not codes["wp_below_floor"].is_error


def test_wp_at_floor_is_fine():
    assert not sheet_for(ASPHODEL, wp_current=6).issues


# ---------------------------------------------------------------- other statuses


def test_poison_takes_effect_only_over_base_hp():
    # "If the total exceeds their Base HP, the poison takes effect."
    poisoned = frozenset({"Poisoned"})
    at = sheet_for(ASPHODEL, statuses=poisoned, poison_buildup=15)
    over = sheet_for(ASPHODEL, statuses=poisoned, poison_buildup=16)
    assert "poison_takes_effect" not in {issue.code for issue in at.issues}
    assert "poison_takes_effect" in {issue.code for issue in over.issues}


def test_burning_cannot_rally_is_noted():
    sheet = sheet_for(ASPHODEL, statuses=frozenset({"Burning"}))
    assert any("cannot Rally" in note for note in sheet["rally"].notes)


def test_dropped_attuned_materia_still_holds_its_wp_down():
    # Magic > Materia: the WP "does not come back until they discard the item".
    from rules.engine.eldritch_gambit import Attributes, CharacterBuild, GearPiece, compute_sheet

    orb = GearPiece("Orb", kind="materia", attuned=True, dropped=True)
    sheet = compute_sheet(CharacterBuild(attributes=Attributes(wis=2), gear=(orb,)))
    assert sheet.value("wp") == 11


@pytest.mark.parametrize(("count", "wp", "warned"), [(5, 5, False), (6, 4, True)])
def test_attuned_materia_cannot_take_wp_below_half(count, wp, warned):
    # Magic > Materia: "Casters must spend a single WP to attune"; Characters > Defenses >
    # Willpower: "WP can only drop to half". WIS 0: WP 10, floor 5, so 5 Materia at most.
    gear = tuple(materia(f"Materia {i}") for i in range(count))
    sheet = sheet_for(Attributes(), gear=gear)
    assert sheet.value("wp") == wp
    assert sheet.value("wp_floor") == 5
    codes = [issue.code for issue in sheet.warnings]
    assert ("materia_below_floor" in codes) is warned
    assert not sheet.errors


def test_the_clash_block_is_the_ready_shields_largest():
    """Resources > Shields: "Shields and other Blocking weapons aid Melee clashes/failures:
    add the Block bonus to the wielder's Clash damage Roll". Only what is carried ready
    counts; of several, the largest Block (docs/RULES.md)."""
    def block(*gear):
        return compute_sheet(CharacterBuild(level=10, attributes=ASPHODEL, gear=gear)).block

    assert block() is None
    assert block(BUCKLER) is BUCKLER and BUCKLER.shield.block == 3
    assert block(HEATER, BUCKLER) is BUCKLER  # the sheet's AF takes the Heater's +3
    assert block(shield("Buckler", 1, 3, 0, equipped=False)) is None  # put away
    assert block(shield("Buckler", 1, 3, 0, dropped=True)) is None
    assert block(shield("Pavise", 3, 0, 2)) is None  # no Block to add
