"""In a campaign the XP ledger rules Level and XP: saving the builder keeps them (a
player cannot type a new Level, and a form left open while the Imp awarded XP does not
undo the award), while every other choice is saved. Out of a campaign the builder sets
them as before."""

import re

import pytest
from django.urls import reverse

from campaigns import services as campaign_services
from characters.models import Character, XpEntry
from characters.systems.eldritch_gambit import services as eg_services
from characters.systems.eldritch_gambit.models import EldritchGambitCharacter
from tests.characters.test_views import builder_data
from tests.factories import CampaignFactory, CharacterFactory, MembershipFactory

pytestmark = pytest.mark.django_db

# The factory's Attributes: 2 + 1 + 2 + 1 + 1 + 3 = 10 points.
SPREAD = {"str": "2", "wis": "1", "dex": "2", "agi": "1", "cha": "1", "end": "3"}


@pytest.fixture
def campaign(db):
    return CampaignFactory(name="The Drowned Crown")


@pytest.fixture
def hero(campaign):
    player = MembershipFactory(campaign=campaign).user
    return CharacterFactory(owner=player, campaign=campaign, name="Ash", progress__xp=9)


def totals(character):
    found = Character.objects.with_progress().get(pk=character.pk)
    return found.level_total, found.xp_total


def save(client, character, **fields):
    client.force_login(character.owner)
    return client.post(reverse("characters:edit", args=[character.pk]),
                       builder_data(**{**SPREAD, **fields}))


def test_a_typed_level_and_xp_are_not_saved_in_a_campaign(client, hero):
    response = save(client, hero, level="15", xp="14", career="Bell ringer")
    assert response.status_code == 302
    assert totals(hero) == (10, 9)
    assert not XpEntry.objects.filter(character=hero, kind="adjustment").exists()
    # The rest is saved.
    assert EldritchGambitCharacter.objects.get(pk=hero.pk).career == "Bell ringer"
    page = client.get(hero.get_absolute_url()).content.decode()
    assert "the campaign's XP ledger sets its Level and XP" in page
    assert reverse("campaigns:character", args=[hero.campaign_id, hero.pk]) in page


def test_a_form_left_open_does_not_undo_an_award(client, campaign, hero):
    """The player opened the builder at Level 10, XP 9; meanwhile a Highlight bought
    Level 11 (at the end of the ritual). Saving the stale form keeps Level 11 (without
    the guard it wrote an adjustment of -1 Level, +9 XP)."""
    campaign_services.session_start(campaign=campaign, by=campaign.owner)
    session = campaign_services.session_start(campaign=campaign, by=campaign.owner)
    campaign_services.highlight_award(session=session, character=hero, by=campaign.owner)
    campaign_services.ritual_close(session=session, by=campaign.owner)
    assert totals(hero) == (11, 0)
    response = save(client, hero, level="10", xp="9", career="Bell ringer")
    assert response.status_code == 302
    assert totals(hero) == (11, 0)
    assert EldritchGambitCharacter.objects.get(pk=hero.pk).career == "Bell ringer"


def test_the_ledgers_attribute_budget_is_the_one_checked_after_a_level_up(client, campaign,
                                                                          hero):
    campaign_services.xp_adjust(character=hero, xp_change=1, note="Bonus", by=campaign.owner)
    client.force_login(hero.owner)
    page = client.get(reverse("characters:edit", args=[hero.pk])).content.decode()
    assert 'value="11"' in page  # the builder opens at the ledger's Level
    # One point waiting at Level 11; two more are refused.
    assert save(client, hero, level="11", xp="0", wis="3").status_code == 200
    assert EldritchGambitCharacter.objects.get(pk=hero.pk).wisdom == 1


def test_a_character_never_in_a_campaign_gets_its_level_and_xp_from_the_builder(client):
    free = CharacterFactory(name="Bryn", progress__xp=3)
    assert save(client, free, level="12", xp="2").status_code == 302
    assert totals(free) == (12, 2)


def test_leaving_does_not_free_level_and_xp(client, hero):
    """The laundering attempt: leave, type Level 100 and XP 9999, come back. The ledger
    keeps Level 10, XP 9, and says when the character left and came back."""
    campaign = hero.campaign
    campaign_services.character_leave(character=hero, by=hero.owner)
    response = save(client, hero, level="100", xp="9999", career="Bell ringer")
    assert response.status_code == 302
    assert totals(hero) == (10, 9)
    assert not XpEntry.objects.filter(character=hero, kind="adjustment").exists()
    assert EldritchGambitCharacter.objects.get(pk=hero.pk).career == "Bell ringer"
    page = client.get(reverse("characters:edit", args=[hero.pk])).content.decode()
    assert "Kept by the XP ledger since it played in a campaign" in page
    detail = client.get(hero.get_absolute_url()).content.decode()
    assert "played in a campaign: its XP ledger still sets its Level and XP" in detail
    campaign_services.character_join(campaign=campaign, character=hero, by=hero.owner)
    assert totals(hero) == (10, 9)
    kinds = list(XpEntry.objects.filter(character=hero).values_list("kind", "note"))
    assert kinds[-2:] == [("left", "Left The Drowned Crown at Level 10 with 9 XP"),
                          ("joined", "Joined The Drowned Crown at Level 10 with 9 XP")]


def test_the_preview_after_leaving_shows_the_ledgers_level(client, hero):
    campaign_services.character_leave(character=hero, by=hero.owner)
    client.force_login(hero.owner)
    response = client.post(reverse("characters:preview", args=[hero.pk]),
                           builder_data(**SPREAD, level="100", xp="0"), HTTP_HX_REQUEST="true")
    assert 'data-stat="level"' in response.content.decode()
    assert re.search(r'data-stat="level"[^>]*>10<', response.content.decode())


def test_the_service_itself_keeps_the_ledger(hero):
    data = {"level": 50, "xp": 40, "coins_cp": 700, "name": "Ash",
            "str": 2, "wis": 1, "dex": 2, "agi": 1, "cha": 1, "end": 3}
    eg_services.character_update(character=hero, data=data, by=hero.owner)
    assert totals(hero) == (10, 9)
    assert Character.objects.with_progress().get(pk=hero.pk).coins_total == 700


def test_a_typed_level_does_not_raise_the_attribute_budget(client, hero):
    response = save(client, hero, level="15", xp="0", str="4", wis="2", dex="3")
    assert response.status_code == 200  # refused: 15 points at Level 10
    assert EldritchGambitCharacter.objects.get(pk=hero.pk).strength == 2


# -- XP at or above the Level (Characters > Advancement) ---------------------------------


def test_the_builder_refuses_xp_at_the_level_with_what_it_comes_to(client):
    free = CharacterFactory(name="Bryn")
    response = save(client, free, level="10", xp="15")
    assert response.status_code == 200
    errors = response.context["form"].errors.as_data()["xp"]
    assert [e.code for e in errors] == ["xp_not_below_level"]
    assert "enter Level 11 with 5 XP" in response.content.decode()
    assert 'value="15"' in response.content.decode()  # what was typed stays
    assert totals(free) == (10, 0)


@pytest.mark.parametrize(("level", "xp", "expected"), [
    ("10", "10", "Level 11 with 0 XP"), ("1", "4", "Level 3 with 1 XP"),
])
def test_the_message_counts_every_level_the_xp_buys(client, level, xp, expected):
    response = save(client, CharacterFactory(), level=level, xp=xp, str="0", wis="0",
                    dex="0", agi="0", cha="0", end="0")
    assert expected in response.content.decode()


def test_xp_just_below_the_level_saves(client):
    free = CharacterFactory()
    assert save(client, free, level="10", xp="9").status_code == 302
    assert totals(free) == (10, 9)


def test_a_new_character_is_refused_too_and_the_preview_says_why(client):
    user = CharacterFactory().owner
    client.force_login(user)
    response = client.post(reverse("characters:create"), builder_data(level="10", xp="15"))
    assert response.status_code == 200
    assert not Character.objects.filter(owner=user, name="Mira").exists()
    preview = client.post(reverse("characters:preview"), builder_data(level="10", xp="15"),
                          HTTP_HX_REQUEST="true").content.decode()
    assert re.search(r'id="errors-xp" hx-swap-oob="innerHTML">.*enter Level 11 with 5 XP',
                     preview, re.S)
