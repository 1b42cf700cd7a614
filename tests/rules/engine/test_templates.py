"""Templates: Size (dice, HP, AP) and the Armored Trait; weapon lines by Size.

Eldritch Gambit SRD, Bestiary > Templates > Size: "a medium-sized character with +1
STR and a dagger does 1d6+1 damage, a large one does 2d6+1, and a small one does
1d4+1. A Critical works as usual, adding the max of one die to the Roll. In this case,
the medium-sized character would do 1d6+7, the large one 2d6+7, and the small one
1d4+5." SIZES table: Rolls (before adding STR or END) and HP ("also applies to AP").
"d12 to d10 is one smaller while d8 to d4 would be two. This can take a d4 down to
uncommon die sizes: d3 (d6/2) or d2 (d4/2)." Armored: "four levels (light, medium,
heavy, ultra), matching the types of armor available as gear. This includes the usual
Rally die type increase." Team decision: Armored and worn armor do not stack.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.dice import DIE_LADDER, Dice, step_die
from rules.engine.eldritch_gambit import (
    ArmorStats,
    Attributes,
    CharacterBuild,
    GearPiece,
    Kind,
    Quality,
    Size,
    TraitChoice,
    WeaponStats,
    compute_sheet,
)
from rules.engine.eldritch_gambit.templates import sized_dice
from tests.rules.engine.srd_examples import CHAIN

EXAMPLE = Attributes(str=2, end=4)  # Level 10: Base HP 16, Rally 1d4+4
LEATHER = GearPiece("Leather", Kind.ARMOR, load=1, armor=ArmorStats(5, 6, rank=1),
                    equipped=True)
DAGGER = GearPiece("Dagger", Kind.WEAPON, load=0, weapon=WeaponStats(1, "1d6", range=1))


def size(name):
    return TraitChoice("Size", name)


def sheet_for(attributes=EXAMPLE, level=10, **kwargs):
    return compute_sheet(CharacterBuild(level=level, attributes=attributes, **kwargs))


# ---------------------------------------------------------------- die steps


@pytest.mark.parametrize(
    ("sides", "steps", "result"),
    [
        (12, -1, 10),  # "d12 to d10 is one smaller"
        (8, -2, 4),  # "d8 to d4 would be two"
        (10, -1, 8),
        (6, -1, 4),
        (6, -2, 3),
        (4, -1, 3),  # a d4 goes down to d3 ...
        (4, -2, 2),  # ... and d2
        (3, -1, 2),
        (12, -2, 8),
        (8, 0, 8),
        # Homebrew dice off the ladder: the first step down is the nearest rung below.
        (20, -1, 12),
        (20, -2, 10),
        (5, -1, 4),
        (5, -2, 3),
        (7, -1, 6),
        (20, 1, 20),  # never grows off the ladder
        (20, 0, 20),
        (20, -9, 2),  # the ladder's end is a hard limit
    ],
)
def test_die_steps(sides, steps, result):
    assert step_die(sides, steps) == result


@given(sides=st.integers(min_value=2, max_value=100), steps=st.integers(-8, -1))
def test_a_step_down_never_grows_and_lands_on_the_ladder(sides, steps):
    smaller = step_die(sides, steps)
    assert smaller in DIE_LADDER
    assert smaller <= sides
    # one step more is never a larger die, and the first step is a smaller one unless
    # the ladder's end is reached
    assert step_die(sides, steps - 1) <= smaller
    assert step_die(sides, -1) < sides or sides == DIE_LADDER[0]


@pytest.mark.parametrize(
    ("size_name", "dice"),
    [
        (Size.TINY, "1d3"),  # 2 smaller
        (Size.SMALL, "1d4"),  # 1 smaller
        (Size.MEDIUM, "1d6"),
        (Size.LARGE, "2d6"),
        (Size.HUGE, "3d6"),
        (Size.GIANT, "4d6"),
        (Size.TITANIC, "5d6"),
    ],
)
def test_sizes_rolls_column(size_name, dice):
    assert str(sized_dice(Dice(1, 6), size_name)) == dice


# ---------------------------------------------------------------- the Bestiary's dagger


@pytest.mark.parametrize(
    ("size_name", "damage", "critical", "critical_total"),
    [
        ("Medium", "1d6+1", 6, "1d6+7"),
        ("Large", "2d6+1", 6, "2d6+7"),
        ("Small", "1d4+1", 4, "1d4+5"),
    ],
)
def test_bestiary_dagger_example(size_name, damage, critical, critical_total):
    sheet = sheet_for(Attributes(str=1), gear=(DAGGER,), traits=(size(size_name),))
    (line,) = sheet.weapons
    assert line.damage == damage
    assert line.critical_bonus == critical
    assert str(Dice.parse(line.damage).plus(line.critical_bonus)) == critical_total


def test_tiny_dagger_steps_twice():
    sheet = sheet_for(Attributes(str=1), gear=(DAGGER,), traits=(size("Tiny"),))
    (line,) = sheet.weapons
    assert (line.damage, line.critical_bonus) == ("1d3+1", 3)


def test_weapon_hit_is_weapon_bonus_plus_dex():
    # Human, Librarian: Base +1, Dagger "Hit +2, 1d6+1 dmg".
    sheet = sheet_for(Attributes(str=1, dex=1), gear=(DAGGER,))
    (line,) = sheet.weapons
    assert (line.hit, line.damage) == (2, "1d6+1")


def test_asphodel_weapons():
    # Spear "+2, 1d8, Reach, Range 1"; Dagger "+1, 1d6, Range: 1"; STR +3, DEX +2.
    spear = GearPiece("Spear", Kind.WEAPON, load=1,
                      weapon=WeaponStats(2, "1d8", range=1, tags=("Reach",)))
    sheet = sheet_for(Attributes(str=3, wis=1, dex=2, agi=1, cha=1, end=2),
                      gear=(spear, DAGGER))
    lines = {line.name: line for line in sheet.weapons}
    assert (lines["Spear"].hit, lines["Spear"].damage, lines["Spear"].critical_bonus) == (
        4, "1d8+3", 8)
    assert (lines["Dagger"].hit, lines["Dagger"].damage, lines["Dagger"].critical_bonus) == (
        3, "1d6+3", 6)


def test_size_does_not_change_hit():
    sheet = sheet_for(Attributes(str=1, dex=1), gear=(DAGGER,), traits=(size("Large"),))
    assert sheet.weapons[0].hit == 2


@pytest.mark.parametrize(
    ("quality", "hit", "damage"),
    [
        (Quality.STANDARD, 3, "1d8+2"),
        (Quality.SUPERIOR, 4, "1d8+3"),  # "raise to hit and damage by one"
        (Quality.INFERIOR, 2, "1d8+1"),  # "lower to hit and damage by one"
    ],
)
def test_weapon_quality(quality, hit, damage):
    sword = GearPiece("Sword", Kind.WEAPON, load=1, quality=quality,
                      weapon=WeaponStats(2, "1d8"))
    (line,) = sheet_for(Attributes(str=2, dex=1), gear=(sword,)).weapons
    assert (line.hit, line.damage) == (hit, damage)


def test_ranged_weapon_reaches_twice_as_far_on_a_d12():
    # "You can fire from up to twice as far by dropping the Attack Check to a d12."
    bow = GearPiece("Bow, long", Kind.WEAPON, load=2, weapon=WeaponStats(0, "1d8", range=3))
    (line,) = sheet_for(gear=(bow,)).weapons
    assert (line.range, line.long_range) == (3, 6)


def test_dropped_weapons_leave_the_sheet():
    dropped = GearPiece("Dagger", Kind.WEAPON, dropped=True, weapon=WeaponStats(1, "1d6"))
    assert sheet_for(gear=(dropped,)).weapons == ()


# ---------------------------------------------------------------- HP, AP and Rally by Size


@pytest.mark.parametrize(
    ("size_name", "base", "armored", "rally"),
    [
        ("Tiny", 16, 21, "1d3+4"),  # d6 two smaller; HP "-" (unchanged)
        ("Small", 16, 21, "1d4+4"),
        ("Medium", 16, 21, "1d6+4"),
        ("Large", 32, 42, "2d6+4"),  # x2 HP, and AP 5 x2
        ("Huge", 48, 63, "3d6+4"),
        ("Giant", 64, 84, "4d6+4"),
        ("Titanic", 80, 105, "5d6+4"),
    ],
)
def test_size_multiplies_hp_and_ap_and_rally_dice(size_name, base, armored, rally):
    sheet = sheet_for(gear=(LEATHER,), traits=(size(size_name),))
    assert sheet.value("hp_base") == base
    assert sheet.value("hp_armored") == armored
    assert sheet.value("rally") == rally


@pytest.mark.parametrize(
    ("size_name", "rally"), [("Tiny", "1d2+4"), ("Small", "1d3+4"), ("Large", "2d4+4")]
)
def test_unarmored_rally_by_size(size_name, rally):
    # Creep Candle (Small, unarmored): "Rally: 1d3+1".
    assert sheet_for(traits=(size(size_name),)).value("rally") == rally


def test_size_trait_is_read_in_any_case():
    sheet = sheet_for(traits=(TraitChoice("size", "large"),))
    assert sheet.size is Size.LARGE
    assert sheet.value("hp_base") == 32


def test_no_size_trait_is_medium():
    assert sheet_for().size is Size.MEDIUM


# ---------------------------------------------------------------- the Armored Trait


@pytest.mark.parametrize(
    ("level_name", "ap", "rally"),
    [("light", 5, "1d6+4"), ("medium", 10, "1d8+4"), ("heavy", 15, "1d10+4"),
     ("ultra", 20, "1d12+4")],
)
def test_armored_trait_levels(level_name, ap, rally):
    # TEMPLATES: "Armored, light 5 AP, d6 Rally" ... "Armored, ultra 20 AP, d12 Rally".
    sheet = sheet_for(traits=(TraitChoice("Armored", level_name),))
    assert sheet.value("hp_armored") == 16 + ap
    assert sheet.value("rally") == rally


@pytest.mark.parametrize(
    ("trait_level", "worn", "ap", "rally"),
    [
        ("light", CHAIN, 10, "1d8+4"),  # the worn chain mail is better
        ("heavy", CHAIN, 15, "1d10+4"),  # the hide is better
        ("medium", CHAIN, 10, "1d8+4"),  # equal: still 10, never 20
        ("light", LEATHER, 5, "1d6+4"),
    ],
)
def test_armored_trait_and_worn_armor_do_not_stack(trait_level, worn, ap, rally):
    sheet = sheet_for(gear=(worn,), traits=(TraitChoice("Armored", trait_level),))
    assert sheet.value("hp_armored") == 16 + ap
    assert sheet.value("rally") == rally


def test_armored_trait_scales_with_size():
    # Dragon, young: Large, Armor (light) "Scaly hide (5AP)", Rally 2d6+4.
    sheet = sheet_for(traits=(size("Large"), TraitChoice("Armored", "light")))
    assert sheet.value("hp_base") == 32
    assert sheet.value("hp_armored") == 42
    assert sheet.value("rally") == "2d6+4"


def test_worn_armor_still_weighs_when_the_hide_is_better():
    sheet = sheet_for(gear=(CHAIN,), traits=(TraitChoice("Armored", "heavy", load=3),))
    assert sheet.value("load") == 2 + 3
