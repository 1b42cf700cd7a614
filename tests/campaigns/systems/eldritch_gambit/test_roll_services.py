"""Checks, Gambits, Rolls, Rerolls and Roll-offs as services, with a seeded random source."""

import random

import pytest

from campaigns.systems.eldritch_gambit import roll_services
from campaigns.systems.eldritch_gambit.roll_services import RollRefused
from campaigns.systems.eldritch_gambit.rolls import Roll
from characters.systems.eldritch_gambit.builds import sheet_for
from rules.engine.eldritch_gambit import rolls
from rules.engine.eldritch_gambit.checks import CheckSpec
from rules.engine.eldritch_gambit.scenes import action
from tests.factories import (
    AsphodelFactory,
    CharacterFactory,
    InventoryItemFactory,
    SessionFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def _damage(character, by, rng=None):
    return roll_services.make_roll(
        character=character, by=by, spec=rolls.weapon_damage("Spear", "1d8+3", 8),
        kind=Roll.Kind.DAMAGE, rng=rng or random.Random(1))


def test_check_records_the_odds_and_the_actions_defaults():
    hero = AsphodelFactory()
    check = roll_services.make_check(
        character=hero, by=hero.owner, spec=CheckSpec(20, 2, 11), label="Attack, Melee: DEX",
        action=action("attack-melee"), rng=random.Random(4))
    natural = random.Random(4).randrange(20) + 1
    assert check.dice == [natural]
    assert check.total == natural + 2
    assert check.outcome == ("success" if natural + 2 >= 11 or natural == 20 else "failure")
    assert check.chances["success"] == "3/5"  # faces 9..20
    assert check.detail["default_critical"] == "Bonus Damage"
    assert check.detail["default_botch"] == "Countered"
    assert check.session is None  # not in a campaign


def test_chances_are_exact_fractions():
    # d20+2 vs 11: faces 9..20 succeed = 12 of 20; a 1 fails anyway.
    chances = roll_services.chances_of(CheckSpec(20, 2, 11))
    assert chances["success"] == "3/5"
    assert chances["critical"] == "9/25"
    assert chances["botch"] == "4/25"


@pytest.mark.parametrize(("first_success", "second_success", "outcome"), [
    (True, True, "critical"), (True, False, "failure"),
    (False, True, "success"), (False, False, "botch"),
])
def test_gambit_outcomes(first_success, second_success, outcome):
    hero = CharacterFactory()

    class Fixed(random.Random):
        """Face 15 (a success vs DF 10) or 2 (a failure), in the given order."""

        def __init__(self, faces):
            super().__init__(0)
            self.faces = list(faces)

        def randrange(self, *args, **kwargs):
            return self.faces.pop(0) - 1

    faces = [15 if first_success else 2, 15 if second_success else 2]
    rng = Fixed(faces)
    check = roll_services.make_check(character=hero, by=hero.owner, spec=CheckSpec(20, 0, 10),
                                     label="Check: DEX", rng=rng)
    gambit = roll_services.call_gambit(check=check, by=hero.owner, rng=rng)
    assert gambit.outcome == outcome
    assert gambit.gambit_of == check
    with pytest.raises(RollRefused) as refused:
        roll_services.call_gambit(check=check, by=hero.owner, rng=random.Random(1))
    assert refused.value.code == "gambit_once"


def test_a_stranger_cannot_roll():
    hero = CharacterFactory()
    with pytest.raises(RollRefused):
        roll_services.make_check(character=hero, by=UserFactory(), spec=CheckSpec(20, 0, 10),
                                 label="Check")


def test_reroll_spends_one_wp_and_keeps_the_better():
    hero = AsphodelFactory()  # WIS 1: WP 11, floor 6
    first = _damage(hero, hero.owner, random.Random(1))
    again = roll_services.reroll(roll=first, by=hero.owner, rng=random.Random(2))
    hero.refresh_from_db()
    assert hero.wp_current == 10
    assert again.reroll_of == first
    assert again.detail["wp_before"] == 11 and again.detail["wp_after"] == 10
    first_dice, new_dice = first.detail["dice_total"], sum(again.dice)
    kept = first_dice + new_dice if first_dice == new_dice else max(first_dice, new_dice)
    assert again.total == kept + 3
    with pytest.raises(RollRefused) as refused:
        roll_services.reroll(roll=first, by=hero.owner)
    assert refused.value.code == "reroll_once"


def test_reroll_tie_adds_the_two():
    assert rolls.reroll_keep(4, 4) == 8
    assert rolls.reroll_keep(2, 10) == 10
    assert rolls.reroll_keep(7, 3) == 7


def test_reroll_refused_at_the_floor():
    hero = AsphodelFactory(wp_current=6)  # floor 6: spending one would go below
    roll = _damage(hero, hero.owner)
    with pytest.raises(RollRefused) as refused:
        roll_services.reroll(roll=roll, by=hero.owner)
    assert refused.value.code == "wp_floor"
    hero.refresh_from_db()
    assert hero.wp_current == 6
    assert not Roll.objects.filter(kind="reroll").exists()


def test_reroll_allowed_down_to_the_floor():
    hero = AsphodelFactory(wp_current=7)
    roll_services.reroll(roll=_damage(hero, hero.owner), by=hero.owner)
    hero.refresh_from_db()
    assert hero.wp_current == 6
    assert sheet_for(hero)["wp_spendable"].value == 0


def test_checks_and_gambits_cannot_be_rerolled():
    hero = AsphodelFactory()
    check = roll_services.make_check(character=hero, by=hero.owner, spec=CheckSpec(20, 0, 10),
                                     label="Check")
    with pytest.raises(RollRefused) as refused:
        roll_services.reroll(roll=check, by=hero.owner)
    assert refused.value.code == "reroll_check"
    gambit = roll_services.call_gambit(check=check, by=hero.owner)
    with pytest.raises(RollRefused):
        roll_services.reroll(roll=gambit, by=hero.owner)
    hero.refresh_from_db()
    assert hero.wp_current is None


def test_hazards_are_not_the_characters_rolls_to_reroll():
    hero = AsphodelFactory()
    fall = roll_services.make_roll(character=hero, by=hero.owner, spec=rolls.fall(2),
                                   kind=Roll.Kind.FALL)
    with pytest.raises(RollRefused) as refused:
        roll_services.reroll(roll=fall, by=hero.owner)
    assert refused.value.code == "not_rerollable"


def test_buildup_adds_to_the_tracker_and_poisons():
    hero = AsphodelFactory(poison_buildup=13)  # Base HP 15
    roll = roll_services.make_roll(character=hero, by=hero.owner, spec=rolls.buildup(),
                                   kind=Roll.Kind.BUILDUP, rng=random.Random(5))
    hero.refresh_from_db()
    assert hero.poison_buildup == 13 + roll.total
    assert "poisoned" in hero.statuses
    assert roll.detail["takes_effect"] == (13 + roll.total > 15)


def test_rolls_log_into_the_latest_session(campaign, seat):
    hero = seat(name="Bram")
    assert roll_services.current_session(hero) is None
    SessionFactory(campaign=campaign)
    latest = SessionFactory(campaign=campaign)
    roll = _damage(hero, campaign.owner)  # the Imp rolls for a character of the campaign
    assert roll.session == latest
    assert roll.rolled_by == campaign.owner


def test_request_key_records_once():
    hero = CharacterFactory()
    one = roll_services.make_check(character=hero, by=hero.owner, spec=CheckSpec(20, 0, 10),
                                   label="Check", request_key="k1")
    two = roll_services.make_check(character=hero, by=hero.owner, spec=CheckSpec(20, 0, 10),
                                   label="Check", request_key="k1")
    assert one.pk == two.pk
    assert Roll.objects.count() == 1


def test_roll_off_ties_go_to_the_attacker():
    hero = CharacterFactory()
    result = roll_services.roll_off(character=hero, by=hero.owner, attacker="3", defender="3",
                                    label="Clash")
    assert result.outcome == "attacker" and result.total == 0
    result = roll_services.roll_off(character=hero, by=hero.owner, attacker="1", defender="3",
                                    label="Clash")
    assert result.outcome == "defender" and result.total == 2


def test_weapon_damage_from_the_sheet_with_critical():
    hero = AsphodelFactory()
    InventoryItemFactory(character=hero, name="Spear", kind="weapon",
                         catalog_item=None)
    line = rolls.weapon_damage("Spear", "2d8+3", 8, critical=True)  # a Large spear
    result = roll_services.make_roll(character=hero, by=hero.owner, spec=line,
                                     kind=Roll.Kind.DAMAGE, rng=random.Random(3))
    assert len(result.dice) == 2
    assert result.total == sum(result.dice) + 3 + 8


def test_a_check_total_is_recorded_at_zero_not_below():
    # Basics > Rolls > Modifiers: "This can reduce the result to zero but not into the
    # negatives"; Basics > Checks: "Modifiers apply to Checks just as they do for Rolls."
    hero = CharacterFactory()

    class Face(random.Random):
        def randrange(self, *args, **kwargs):
            return 3 - 1  # a natural 3

    rng = Face(0)
    check = roll_services.make_check(character=hero, by=hero.owner, spec=CheckSpec(20, -6, 0),
                                     label="Attack a Fallen foe", rng=rng)
    assert (check.dice, check.total, check.outcome) == ([3], 0, "success")
    gambit = roll_services.call_gambit(check=check, by=hero.owner, rng=rng)
    assert (gambit.total, gambit.outcome) == (0, "critical")
