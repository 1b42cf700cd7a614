"""Name Seeds, Description Seeds and starting coins.

Eldritch Gambit SRD, Characters > Concept > Name ("roll 5d6"; NAME SEEDS), Description
(DESCRIPTION SEEDS, d20) and Gear ("500 (or 2d4x100) copper pieces").
"""

import random

import pytest

from rules.engine.eldritch_gambit import seeds

NAME_INITIALS = dict(zip(range(5, 31), "UZOVNWGTBSCRJMDALEKPHFIYQX", strict=True))
QUIRKS = dict(zip(range(1, 21), [
    "Ailment", "Atavism", "Bearing", "Dress", "Ears", "Eyes", "Face", "Fear", "Gait",
    "Growth", "Habit", "Hair", "Hands", "Item", "Mouth", "Nose", "Physique", "Skin",
    "Tattoo", "Voice",
], strict=True))


def test_name_seeds_table():
    assert {total: row[0] for total, row in seeds.NAME_SEEDS.items()} == NAME_INITIALS
    assert seeds.NAME_SEEDS[20] == ("A", "Alistair, Arok, Ainu")


def test_description_seeds_table():
    assert {die: row[0] for die, row in seeds.DESCRIPTION_SEEDS.items()} == QUIRKS
    assert seeds.DESCRIPTION_SEEDS[20] == ("Voice", "gruff, flat, high-pitched")


@pytest.mark.parametrize("seed", range(20))
def test_name_initial_rolls_5d6(seed):
    roll = seeds.roll_name_initial(random.Random(seed))
    assert len(roll.dice) == 5
    assert all(1 <= d <= 6 for d in roll.dice)
    assert roll.total == sum(roll.dice)
    assert roll.result == NAME_INITIALS[roll.total]


@pytest.mark.parametrize("seed", range(20))
def test_quirk_rolls_a_d20(seed):
    roll = seeds.roll_quirk(random.Random(seed))
    (die,) = roll.dice
    assert 1 <= die <= 20
    assert roll.result == QUIRKS[die]


def test_starting_coins():
    assert seeds.STARTING_COINS_CP == 500


@pytest.mark.parametrize("seed", range(20))
def test_starting_coins_roll_2d4_hundreds(seed):
    roll = seeds.roll_starting_coins(random.Random(seed))
    assert len(roll.dice) == 2
    assert all(1 <= d <= 4 for d in roll.dice)
    assert roll.total == sum(roll.dice) * 100
    assert 200 <= roll.total <= 800
