"""Rerolls and Gambits under concurrent clicks (PostgreSQL only): WP is spent once per
click and never below the floor; one Reroll per Roll, one Gambit per Check."""

import pytest

from campaigns.systems.eldritch_gambit import roll_services
from campaigns.systems.eldritch_gambit.roll_services import RollRefused
from campaigns.systems.eldritch_gambit.rolls import Roll
from characters.systems.eldritch_gambit.models import EldritchGambitCharacter
from rules.engine.eldritch_gambit import rolls
from rules.engine.eldritch_gambit.checks import CheckSpec
from tests.concurrency import needs_postgresql, run_at_once
from tests.factories import AsphodelFactory

pytestmark = [pytest.mark.django_db(transaction=True), needs_postgresql]


def _rally(hero):
    return roll_services.make_roll(character=hero, by=hero.owner, spec=rolls.rally("1d4+2"),
                                   kind=Roll.Kind.RALLY)


def test_ten_rerolls_at_once_stop_at_the_floor():
    hero = AsphodelFactory(wp_current=9)  # floor 6: three WP to spend
    originals = [_rally(hero) for _ in range(10)]
    results = run_at_once(10, lambda i: roll_services.reroll(roll=originals[i],
                                                             by=hero.owner))
    done = [r for r in results if isinstance(r, Roll)]
    refused = [r for r in results if isinstance(r, RollRefused)]
    assert len(done) == 3 and len(refused) == 7
    assert all(r.code == "wp_floor" for r in refused)
    assert EldritchGambitCharacter.objects.get(pk=hero.pk).wp_current == 6
    assert sorted(r.detail["wp_before"] for r in done) == [7, 8, 9]


def test_the_same_roll_rerolled_from_ten_clicks_spends_one_wp():
    hero = AsphodelFactory()
    original = _rally(hero)
    results = run_at_once(10, lambda i: roll_services.reroll(roll=original, by=hero.owner))
    assert len([r for r in results if isinstance(r, Roll)]) == 1
    assert all(r.code == "reroll_once" for r in results if isinstance(r, RollRefused))
    assert EldritchGambitCharacter.objects.get(pk=hero.pk).wp_current == 10
    assert Roll.objects.filter(kind="reroll").count() == 1


def test_one_gambit_from_ten_clicks():
    hero = AsphodelFactory()
    check = roll_services.make_check(character=hero, by=hero.owner, spec=CheckSpec(20, 0, 10),
                                     label="Anycheck: DEX")
    results = run_at_once(10, lambda i: roll_services.call_gambit(check=check, by=hero.owner))
    assert len([r for r in results if isinstance(r, Roll)]) == 1
    assert all(isinstance(r, RollRefused) and r.code == "gambit_once"
               for r in results if not isinstance(r, Roll))
    assert Roll.objects.filter(kind="gambit").count() == 1


def test_a_double_click_of_one_gambit_or_reroll_is_one_roll_shown_twice():
    """Ten copies of the same request (the same request_key) at once: one Gambit, one
    Reroll and one WP spent; every copy gets that roll back, none an error."""
    hero = AsphodelFactory()
    check = roll_services.make_check(character=hero, by=hero.owner, spec=CheckSpec(20, 0, 10),
                                     label="Anycheck: DEX")
    results = run_at_once(10, lambda i: roll_services.call_gambit(
        check=check, by=hero.owner, request_key="gambit-click"))
    gambit = Roll.objects.get(kind="gambit")
    assert all(isinstance(r, Roll) and r.pk == gambit.pk for r in results)
    original = _rally(hero)
    results = run_at_once(10, lambda i: roll_services.reroll(
        roll=original, by=hero.owner, request_key="reroll-click"))
    again = Roll.objects.get(kind="reroll")
    assert all(isinstance(r, Roll) and r.pk == again.pk for r in results)
    assert EldritchGambitCharacter.objects.get(pk=hero.pk).wp_current == 10


# -- WP on allies' Rolls (Characters > Defenses > Willpower: "Fallen or Dead characters may
# spend WP on Rolls made by allies") -------------------------------------------------------


def _fallen_and_ally(**fallen):
    from tests.factories import CampaignFactory

    campaign = CampaignFactory()
    hero = AsphodelFactory(campaign=campaign)
    payer = AsphodelFactory(name="Gravemind", campaign=campaign, hp_current=0, **fallen)
    return hero, payer


def test_ten_allies_rerolls_at_once_stop_at_the_payers_floor():
    hero, payer = _fallen_and_ally(wp_current=9)  # floor 6: three WP to spend
    originals = [_rally(hero) for _ in range(10)]
    results = run_at_once(10, lambda i: roll_services.reroll(
        roll=originals[i], by=payer.owner, payer=payer))
    done = [r for r in results if isinstance(r, Roll)]
    assert len(done) == 3
    assert all(isinstance(r, RollRefused) and r.code == "wp_floor"
               for r in results if not isinstance(r, Roll))
    assert EldritchGambitCharacter.objects.get(pk=payer.pk).wp_current == 6
    assert EldritchGambitCharacter.objects.get(pk=hero.pk).wp_current is None
    assert sorted(r.detail["wp_before"] for r in done) == [7, 8, 9]


def test_the_ally_and_the_fallen_rerolling_one_roll_at_once_spend_one_wp():
    """Half the clicks are the ally's own Reroll, half the Fallen's: one Reroll, one WP
    spent by whichever came first, and no deadlock (each locks one character, then the
    Roll)."""
    hero, payer = _fallen_and_ally()
    original = _rally(hero)
    results = run_at_once(10, lambda i: roll_services.reroll(
        roll=original, by=payer.owner if i % 2 else hero.owner,
        payer=payer if i % 2 else None))
    assert len([r for r in results if isinstance(r, Roll)]) == 1
    assert all(isinstance(r, RollRefused) and r.code == "reroll_once"
               for r in results if not isinstance(r, Roll))
    spent = [EldritchGambitCharacter.objects.get(pk=c.pk).wp_current for c in (hero, payer)]
    assert sorted(spent, key=lambda v: v is None) == [10, None]


def test_the_fallens_own_and_allies_rerolls_share_its_floor():
    hero, payer = _fallen_and_ally(wp_current=9)
    theirs = [_rally(hero) for _ in range(5)]
    own = [_rally(payer) for _ in range(5)]
    results = run_at_once(10, lambda i: roll_services.reroll(
        roll=theirs[i // 2] if i % 2 else own[i // 2], by=payer.owner,
        payer=payer if i % 2 else None))
    assert len([r for r in results if isinstance(r, Roll)]) == 3
    assert EldritchGambitCharacter.objects.get(pk=payer.pk).wp_current == 6


def test_two_fallen_paying_each_others_rolls_at_once_never_deadlock():
    """Both Fallen, each pays a Reroll of the other's Rolls: the characters are locked by
    pk, so the clicks queue instead of waiting in a circle."""
    hero, payer = _fallen_and_ally()
    EldritchGambitCharacter.objects.filter(pk=hero.pk).update(hp_current=0)
    theirs = [_rally(hero) for _ in range(5)]
    mine = [_rally(payer) for _ in range(5)]
    results = run_at_once(10, lambda i: roll_services.reroll(
        roll=theirs[i // 2] if i % 2 else mine[i // 2],
        by=payer.owner if i % 2 else hero.owner, payer=payer if i % 2 else hero))
    assert all(isinstance(r, Roll) for r in results), results
    assert EldritchGambitCharacter.objects.get(pk=payer.pk).wp_current == 6
    assert EldritchGambitCharacter.objects.get(pk=hero.pk).wp_current == 6
