"""WP on allies' Rolls, against the text: Characters > Defenses > Willpower, "Normally,
one can only spend WP on their own Rolls. The exception is that Fallen or Dead characters
may spend WP on Rolls made by allies." The Reroll's rules stay (Basics > Rolls >
Rerolls: one WP a Roll, never a Check; "WP can only drop to half"), with the payer's WP
and floor."""

import pytest
from django.urls import reverse

from campaigns.systems.eldritch_gambit import roll_services
from campaigns.systems.eldritch_gambit.roll_services import RollRefused
from campaigns.systems.eldritch_gambit.rolls import Roll
from characters.systems.eldritch_gambit.models import EldritchGambitCharacter
from rules.engine.eldritch_gambit import rolls
from rules.engine.eldritch_gambit.checks import CheckSpec
from tests.factories import (
    AsphodelFactory,
    CampaignFactory,
    CoImpMembershipFactory,
    MembershipFactory,
    SessionFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    """Asphodel (WP 11, floor 6) and Gravemind (Fallen at 0 HP, WP 11 full) in a
    campaign, each with its own player."""
    campaign = CampaignFactory()
    player = MembershipFactory(campaign=campaign).user
    hero = AsphodelFactory(owner=player, campaign=campaign)
    mourner = MembershipFactory(campaign=campaign).user
    fallen = AsphodelFactory(name="Gravemind", owner=mourner, campaign=campaign,
                             hp_current=0)
    SessionFactory(campaign=campaign)
    return {"campaign": campaign, "imp": campaign.owner, "player": player, "hero": hero,
            "mourner": mourner, "fallen": fallen,
            "co_imp": CoImpMembershipFactory(campaign=campaign).user,
            "stranger": UserFactory()}


def rally_of(hero, by=None):
    return roll_services.make_roll(character=hero, by=by or hero.owner,
                                   spec=rolls.rally("1d4+2"), kind=Roll.Kind.RALLY)


def wp(character):
    return EldritchGambitCharacter.objects.get(pk=character.pk).wp_current


# -- the service ------------------------------------------------------------------------


@pytest.mark.parametrize("state", [{"hp_current": 0}, {"hp_current": -3},
                                   {"statuses": ["fallen"]}, {"statuses": ["dead"]}])
def test_a_fallen_or_dead_character_pays_an_allys_reroll(table, state):
    hero, fallen = table["hero"], table["fallen"]
    EldritchGambitCharacter.objects.filter(pk=fallen.pk).update(
        hp_current=state.get("hp_current"), statuses=state.get("statuses", []))
    fallen.refresh_from_db()
    original = rally_of(hero)
    again = roll_services.reroll(roll=original, by=table["mourner"], payer=fallen)
    assert again.character_id == hero.pk and again.reroll_of == original
    assert again.detail["paid_by"] == "Gravemind" and again.detail["paid_by_id"] == fallen.pk
    assert (again.detail["wp_before"], again.detail["wp_after"]) == (11, 10)
    assert wp(fallen) == 10 and wp(hero) is None  # the ally's own WP untouched
    assert again.rolled_by == table["mourner"]


def test_the_imp_may_pay_with_the_fallen_characters_wp(table):
    original = rally_of(table["hero"])
    for who in ("imp", "co_imp"):
        original = rally_of(table["hero"])
        roll_services.reroll(roll=original, by=table[who], payer=table["fallen"])
    assert wp(table["fallen"]) == 9


def test_a_character_standing_may_not_pay_for_an_ally(table):
    standing = AsphodelFactory(name="Upright", owner=table["mourner"],
                               campaign=table["campaign"])
    with pytest.raises(RollRefused) as refused:
        roll_services.reroll(roll=rally_of(table["hero"]), by=table["mourner"],
                             payer=standing)
    assert refused.value.code == "payer_not_fallen"
    assert "Upright is neither Fallen nor Dead" in refused.value.message
    assert wp(standing) is None and not Roll.objects.filter(kind="reroll").exists()


def test_a_fallen_character_of_another_campaign_is_no_ally(table):
    elsewhere = AsphodelFactory(owner=table["mourner"], campaign=CampaignFactory(),
                                hp_current=0)
    outside = AsphodelFactory(owner=table["mourner"], hp_current=0)
    for payer in (elsewhere, outside):
        with pytest.raises(RollRefused) as refused:
            roll_services.reroll(roll=rally_of(table["hero"]), by=table["mourner"],
                                 payer=payer)
        assert refused.value.code == "not_an_ally"
        assert wp(payer) is None
    assert not Roll.objects.filter(kind="reroll").exists()


def test_only_the_payers_player_or_imp_spends_its_wp(table):
    original = rally_of(table["hero"])
    for who in ("player", "stranger"):  # the ally's own player may not spend it
        with pytest.raises(RollRefused) as refused:
            roll_services.reroll(roll=original, by=table[who], payer=table["fallen"])
        assert refused.value.code == "not_your_character"
    with pytest.raises(RollRefused):
        roll_services.reroll(roll=original, by=None, payer=table["fallen"])
    assert wp(table["fallen"]) is None and not Roll.objects.filter(kind="reroll").exists()


def test_the_payers_floor_applies(table):
    fallen = table["fallen"]
    EldritchGambitCharacter.objects.filter(pk=fallen.pk).update(wp_current=6)
    with pytest.raises(RollRefused) as refused:
        roll_services.reroll(roll=rally_of(table["hero"]), by=table["mourner"],
                             payer=fallen)
    assert refused.value.code == "wp_floor"
    assert refused.value.message.startswith("Gravemind's WP 6 cannot drop below the floor "
                                            "of 6")
    EldritchGambitCharacter.objects.filter(pk=fallen.pk).update(wp_current=7)
    roll_services.reroll(roll=rally_of(table["hero"]), by=table["mourner"], payer=fallen)
    assert wp(fallen) == 6


def test_one_reroll_per_roll_whoever_pays(table):
    hero, fallen = table["hero"], table["fallen"]
    original = rally_of(hero)
    roll_services.reroll(roll=original, by=table["mourner"], payer=fallen)
    with pytest.raises(RollRefused) as refused:
        roll_services.reroll(roll=original, by=table["player"])
    assert refused.value.code == "reroll_once" and wp(hero) is None
    mine = rally_of(hero)
    roll_services.reroll(roll=mine, by=table["player"])
    with pytest.raises(RollRefused) as refused:
        roll_services.reroll(roll=mine, by=table["mourner"], payer=fallen)
    assert refused.value.code == "reroll_once" and wp(fallen) == 10


def test_never_a_check_nor_a_hazards_roll_of_an_ally(table):
    hero, fallen = table["hero"], table["fallen"]
    check = roll_services.make_check(character=hero, by=table["player"],
                                     spec=CheckSpec(20, 0, 10), label="Anycheck: DEX")
    fall = roll_services.make_roll(character=hero, by=table["player"],
                                   spec=rolls.fall(2), kind=Roll.Kind.FALL)
    for original, code in ((check, "reroll_check"), (fall, "not_rerollable")):
        with pytest.raises(RollRefused) as refused:
            roll_services.reroll(roll=original, by=table["mourner"], payer=fallen)
        assert refused.value.code == code
    assert wp(fallen) is None


def test_a_double_click_spends_one_wp(table):
    original = rally_of(table["hero"])
    first = roll_services.reroll(roll=original, by=table["mourner"], payer=table["fallen"],
                                 request_key="k" * 32)
    again = roll_services.reroll(roll=original, by=table["mourner"], payer=table["fallen"],
                                 request_key="k" * 32)
    assert first.pk == again.pk and wp(table["fallen"]) == 10


# -- the Play page ----------------------------------------------------------------------


def play(client, character):
    return client.get(reverse("characters:play", args=[character.pk])).content.decode()


def post(client, payer, roll, htmx=True, **data):
    url = reverse("characters:ally_reroll", args=[payer.pk, roll.pk])
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(url, data, **extra)


def test_the_fallen_characters_page_lists_the_allies_rolls_to_reroll(client, table):
    hero, fallen = table["hero"], table["fallen"]
    rally = rally_of(hero)
    fall = roll_services.make_roll(character=hero, by=hero.owner, spec=rolls.fall(1),
                                   kind=Roll.Kind.FALL)
    done = rally_of(hero)
    roll_services.reroll(roll=done, by=table["player"])
    own = rally_of(fallen)
    client.force_login(table["mourner"])
    html = play(client, fallen)
    section = html.split('id="ally-rolls"', 1)[1].split("</ul>", 1)[0]
    assert "Fallen, Gravemind may spend WP on Rolls made by allies" in html
    assert f'data-ally-roll="{rally.pk}"' in section
    assert "Reroll with Gravemind's WP (WP 11 → 10)" in section
    for other in (fall, done, own):
        assert f'data-ally-roll="{other.pk}"' not in section
    # Standing, the ally's page and a character outside a campaign offer none.
    client.force_login(table["player"])
    assert 'id="ally-rolls"' not in play(client, hero)
    alone = AsphodelFactory(hp_current=0)
    client.force_login(alone.owner)
    assert 'id="ally-rolls"' not in play(client, alone)


def test_at_the_floor_the_button_is_disabled_with_the_numbers(client, table):
    fallen = table["fallen"]
    EldritchGambitCharacter.objects.filter(pk=fallen.pk).update(wp_current=6)
    rally = rally_of(table["hero"])
    client.force_login(table["mourner"])
    section = play(client, fallen).split('id="ally-rolls"', 1)[1].split("</ul>", 1)[0]
    button = section.split(f'data-ally-reroll="{rally.pk}"', 1)[1].split(">", 1)[0]
    assert "disabled" in button and "WP 6 at the floor (6)" in section


def test_rerolling_from_the_page_spends_the_payers_wp_and_the_log_names_them(client, table):
    hero, fallen = table["hero"], table["fallen"]
    rally = rally_of(hero)
    client.force_login(table["mourner"])
    response = post(client, fallen, rally, request_key="a" * 32)
    assert response.status_code == 200 and response["HX-Trigger"] == "rolls-changed"
    html = response.content.decode()
    assert '<strong data-stat="wp_current">10</strong>' in html  # the payer's tracker
    assert "1 WP spent by Gravemind, Fallen or Dead: WP 11 → 10" in html
    assert f'data-ally-roll="{rally.pk}"' not in html  # rerolled: no longer offered
    assert wp(fallen) == 10 and wp(hero) is None
    # The ally's player sees who paid, in the ally's log.
    client.force_login(table["player"])
    assert "1 WP spent by Gravemind, Fallen or Dead" in play(client, hero)
    # Without JavaScript, the whole page.
    client.force_login(table["mourner"])
    again = rally_of(hero)
    response = post(client, fallen, again, htmx=False, request_key="b" * 32)
    assert response.status_code == 200 and wp(fallen) == 9


def test_a_refusal_shows_beside_the_allies_rolls(client, table):
    hero, fallen = table["hero"], table["fallen"]
    EldritchGambitCharacter.objects.filter(pk=fallen.pk).update(wp_current=6)
    rally = rally_of(hero)
    client.force_login(table["mourner"])
    response = post(client, fallen, rally)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="ally-reroll-error">Gravemind&#x27;s WP 6 cannot drop below' in html
    assert post(client, fallen, rally, htmx=False).status_code == 409
    # Standing again (healed): refused, with the reason where the list was.
    EldritchGambitCharacter.objects.filter(pk=fallen.pk).update(hp_current=None,
                                                                wp_current=None)
    html = post(client, fallen, rally).content.decode()
    assert 'id="ally-reroll-error">Gravemind is neither Fallen nor Dead' in html
    assert not Roll.objects.filter(kind="reroll").exists()


def test_who_may_reroll_with_the_fallen_characters_wp(client, table):
    hero, fallen = table["hero"], table["fallen"]
    url = reverse("characters:ally_reroll", args=[fallen.pk, rally_of(hero).pk])
    assert client.post(url).status_code == 302  # anonymous: to the login page
    for who in ("player", "stranger"):  # the ally's player cannot spend Gravemind's WP
        client.force_login(table[who])
        assert client.post(url).status_code == 404
    assert not Roll.objects.filter(kind="reroll").exists()
    for n, who in enumerate(("imp", "co_imp", "mourner")):
        client.force_login(table[who])
        roll = rally_of(hero)
        assert post(client, fallen, roll, request_key=f"{n:032x}").status_code == 200
    assert wp(fallen) == 8 and Roll.objects.filter(kind="reroll").count() == 3


def test_hostile_rolls_are_404(client, table):
    hero, fallen = table["hero"], table["fallen"]
    client.force_login(table["mourner"])
    elsewhere = AsphodelFactory(campaign=CampaignFactory())
    for roll in (rally_of(elsewhere), rally_of(fallen)):  # another campaign's; its own
        assert post(client, fallen, roll).status_code == 404
    base = reverse("characters:ally_reroll", args=[fallen.pk, 1]).rsplit("/1/", 1)[0]
    for value in ("x", "-1", "0", "99999999", "9" * 40, "%C2%B2"):
        assert client.post(f"{base}/{value}/ally-reroll/").status_code == 404
    alone = AsphodelFactory(owner=table["mourner"], hp_current=0)
    assert post(client, alone, rally_of(hero)).status_code == 404  # outside a campaign
    # A forged request key (too long, a NUL byte) is a 400, before anything else.
    for key in ("k" * 200, "a\x00b"):
        assert post(client, fallen, rally_of(hero), request_key=key).status_code == 400
    assert not Roll.objects.filter(kind="reroll").exists() and wp(fallen) is None
