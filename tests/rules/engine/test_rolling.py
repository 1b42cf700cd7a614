"""Rolling notation with d20 from an injected random source, and the sheet's Rolls.

Basics > Rolls > Modifiers ("can reduce the result to zero but not into the negatives"),
Rerolls ("choosing the best result. If the result is the same, add the two"), Roll-offs
("ties go to the attacker"); Scenes > Scenery > Falling, Fire, Poison; Scenes > Actions >
Attack, Melee (Critical: "the highest possible result on their largest damage die").
"""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.eldritch_gambit import rolls
from rules.engine.eldritch_gambit.templates import Size
from rules.engine.rolling import MAX_TOTAL, DiceRoller, RollError, roll, validate


def test_a_seeded_source_gives_the_same_dice():
    first = roll("4d6+2", random.Random(42))
    again = roll("4d6+2", random.Random(42))
    assert first == again
    assert first.total == sum(first.dice) + 2
    assert len(first.dice) == 4 and all(1 <= d <= 6 for d in first.dice)


def test_the_dice_come_from_the_given_source():
    class Sixes(random.Random):
        def randrange(self, *args, **kwargs):
            return args[0] - 1  # the top face

    assert roll("3d6", Sixes()).total == 18
    assert DiceRoller(Sixes()).roll("1d20").total == 20


def test_production_uses_the_systems_source():
    roller = DiceRoller()
    assert isinstance(roller.context.rng, random.SystemRandom)


def test_kept_dice_only():
    result = roll("4d6kh3", random.Random(1))
    assert len(result.dice) == 3
    assert result.total == sum(result.dice)


@pytest.mark.parametrize(("text", "message"), [
    ("", "Type dice to roll"),
    ("1d", "is not dice notation"),
    ("fireball", "is not dice notation"),
    ("101d6", "rolls more than 100 dice"),
    ("1d0", "cannot roll a 0-sided die"),
    ("1d6/0", "cannot divide by zero"),
    ("1d6+" + "1" * 60, "at most 60 characters"),
    ("1d1+2147483647", "totals more than 2,147,483,647"),
    ("-2147483648", "totals more than 2,147,483,647"),
    ("1d1*99999999999.0", "totals more than 2,147,483,647"),
])
def test_bad_notation_has_a_readable_message(text, message):
    with pytest.raises(RollError) as error:
        roll(text)
    assert message in str(error.value)


def test_the_largest_total_still_rolls():
    assert roll("2147483646+1d1").total == MAX_TOTAL == 2**31 - 1


def test_validate_parses_without_rolling():
    assert validate(" 1d8+3 ") == "1d8+3"
    with pytest.raises(RollError):
        validate("1d8+")


def test_rolls_floor_at_zero():
    spec = rolls.RollSpec("Weak", 1, 4, modifier=-10)
    assert rolls.roll_spec(spec, random.Random(3)).total == 0


def test_weapon_damage_critical_adds_the_max_of_the_largest_die():
    # Attack, Melee: "a fist-fighter with +2 STR (1d4+2 dmg) would do 1d4+6 on a Critical."
    spec = rolls.weapon_damage("Unarmed", "1d4+2", 4, critical=True)
    assert spec.expression == "1d4+2+4"
    result = rolls.roll_spec(spec, random.Random(9))
    assert result.total == result.dice[0] + 6


@pytest.mark.parametrize(("zones", "size", "plummet", "count", "multiplier"), [
    (1, Size.MEDIUM, False, 1, 1),
    (4, Size.MEDIUM, False, 4, 1),
    (10, Size.MEDIUM, False, 10, 1),
    (25, Size.MEDIUM, False, 10, 1),  # up to 10d6
    (3, Size.LARGE, False, 3, 2),  # x the HP multiple
    (3, Size.TITANIC, False, 3, 5),
    (3, Size.TINY, False, 3, 1),
    (3, Size.MEDIUM, True, 2, 1),  # Plummet: a die less
    (1, Size.MEDIUM, True, 0, 1),
])
def test_falls(zones, size, plummet, count, multiplier):
    spec = rolls.fall(zones, size, plummet=plummet)
    assert (spec.count, spec.sides, spec.multiplier) == (count, 6, multiplier)
    result = rolls.roll_spec(spec, random.Random(zones))
    assert result.total == sum(result.dice) * multiplier
    assert not spec.rerollable


def test_a_fall_is_at_least_one_zone():
    with pytest.raises(ValueError):
        rolls.fall(0)


@pytest.mark.parametrize(("kind", "count"), [("small", 1), ("medium", 2), ("large", 3),
                                             ("burning", 1)])
def test_fire(kind, count):
    assert (rolls.fire(kind).count, rolls.fire(kind).sides) == (count, 6)


def test_buildup_is_usually_1d6():
    spec = rolls.buildup()
    assert (spec.count, spec.sides, spec.label) == (1, 6, "Poison Buildup")


def test_wp_floor():
    # Asphodel: WP 11, floor 6.
    assert rolls.can_spend_wp(7, 6)
    assert not rolls.can_spend_wp(6, 6)
    assert not rolls.can_spend_wp(3, 6)


@given(first=st.integers(0, 60), second=st.integers(0, 60))
def test_reroll_keeps_the_better_or_adds_a_tie(first, second):
    kept = rolls.reroll_keep(first, second)
    assert kept >= max(first, second)
    assert kept == (first + second if first == second else max(first, second))


@given(seed=st.integers(0, 10_000), modifier=st.integers(-5, 5))
def test_reroll_never_lowers_the_result(seed, modifier):
    spec = rolls.RollSpec("Damage", 2, 6, modifier)
    rng = random.Random(seed)
    first = rolls.roll_spec(spec, rng)
    again = rolls.reroll(first, rng)
    assert again.total >= first.total


@given(attacker=st.integers(0, 40), defender=st.integers(0, 40))
def test_roll_offs(attacker, defender):
    result = rolls.RollOff(attacker, defender)
    assert result.winner == ("attacker" if attacker >= defender else "defender")
    assert result.excess == abs(attacker - defender)


def test_the_clash_example():
    # "two fist-fighters Roll 1 and 3 as damage. The one with 3 wins and does 2 damage"
    result = rolls.RollOff(attacker=1, defender=3)
    assert (result.winner, result.excess) == ("defender", 2)


@pytest.mark.parametrize(("zones", "size", "dice", "total"), [
    (3, Size.MEDIUM, (4, 4, 3), 6),  # 11 halved, rounded up
    (2, Size.MEDIUM, (1, 1), 1),
    (2, Size.LARGE, (3, 4), 7),  # (7 x 2) halved
])
def test_jump_halves_fall_damage_rounding_up(zones, size, dice, total):
    # Bestiary > Jump: "This also halves fall damage"; Basics > Rolls > Modifiers: "If
    # halved, always round up."
    spec = rolls.fall(zones, size, jump=True)
    assert spec.halved and "Jump" in spec.note
    assert spec.expression.endswith(" halved")
    assert spec.total_for(sum(dice)) == total
    assert not rolls.fall(zones, size).halved


def test_clash_damage_adds_the_block_as_a_named_bonus():
    # Resources > Shields: "add the Block bonus to the wielder's Clash damage Roll"; the
    # Buckler's Block is +3 (STANDARD SHIELDS).
    spec = rolls.clash_damage("Sword", "1d8+3", block=3, block_name="Buckler")
    assert spec.label == "Sword clash damage"
    assert spec.expression == "1d8+3+3" and spec.note == "Clash: + 3 Block (Buckler)"
    result = rolls.roll_spec(spec, random.Random(9))
    assert result.total == result.dice[0] + 6
    bare = rolls.clash_damage("Sword", "1d8+3")
    assert bare.expression == "1d8+3" and bare.note == "Clash: no shield ready, no Block"
    # A normal damage Roll never carries it.
    assert rolls.weapon_damage("Sword", "1d8+3", 8).bonus == 0


def test_rally_with_an_allys_cha_swaps_end_for_it():
    # Scenes > Actions > Rally: "instead of their own END, the rallier may use the CHA of
    # the ally that passed Initiative to them". Characters > Defenses: "They can Rally for
    # 1d4+4 HP. If they wear leather armor ... their Rally to 1d6+4" (END 4).
    spec = rolls.rally_with_cha("1d6+4", end=4, cha=3, ally="Gravemind")
    assert spec.expression == "1d6+3" and spec.rerollable
    assert spec.label == "HP recovered with Gravemind's CHA"
    assert spec.note == "Gravemind's CHA +3 instead of END +4: Gravemind passed Initiative"
    # A Large rallier keeps its 2d (Bestiary > Size: the dice change "before adding ...
    # END (Rally)"); a negative CHA lowers it, never below 0 (Basics > Rolls > Modifiers).
    large = rolls.rally_with_cha("2d4+2", end=2, cha=-3, ally="Mope")
    assert (large.count, large.sides, large.modifier) == (2, 4, -3)
    assert all(rolls.roll_spec(large, random.Random(seed)).total >= 0 for seed in range(50))
    assert rolls.rally_with_cha("1d4", end=0, cha=2, ally="A").expression == "1d4+2"
