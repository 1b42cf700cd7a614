"""The table's page: co-Imps named and removed, the campaign handed over, players and
characters leaving (their history stays)."""

import pytest
from django.urls import reverse

from campaigns import services
from campaigns.models import Highlight, Membership
from campaigns.systems.eldritch_gambit.models import Quest
from characters.models import Character
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    CoImpMembershipFactory,
    MembershipFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign(db):
    return CampaignFactory(name="The Drowned Crown")


@pytest.fixture
def imp(campaign):
    return campaign.owner


@pytest.fixture
def player(campaign):
    return MembershipFactory(campaign=campaign).user


@pytest.fixture
def hero(campaign, player):
    return CharacterFactory(owner=player, campaign=campaign, name="Ash", progress__xp=9,
                            quest="Find the lost bell")


def url(name, campaign, *args):
    return reverse(f"campaigns:{name}", args=[campaign.pk, *args])


def role(campaign, user):
    return Membership.objects.get(campaign=campaign, user=user).role


def test_the_table_lists_members_roles_and_characters(client, imp, player, campaign, hero):
    client.force_login(imp)
    page = client.get(url("members", campaign)).content.decode()
    assert player.username in page and "Ash" in page
    assert "Make co-Imp" in page and "Hand the campaign over" in page
    client.force_login(player)
    page = client.get(url("members", campaign)).content.decode()
    assert "Make co-Imp" not in page and "Hand the campaign over" not in page
    assert "Leave the table" in page and "Leave the campaign" in page


def test_the_imp_names_a_co_imp_who_then_runs_the_ritual(client, imp, player, campaign,
                                                          hero):
    client.force_login(imp)
    response = client.post(url("co_imp_add", campaign, player.pk), follow=True)
    assert f"{player.username} is now a co-Imp." in response.content.decode()
    assert role(campaign, player) == "co_imp"
    services.session_start(campaign=campaign, by=imp)
    session = services.session_start(campaign=campaign, by=imp)
    client.force_login(player)
    client.post(url("turn", campaign, session.number),
                {"character": hero.pk, "action": "award", "text": "The climb"})
    assert Highlight.objects.get().created_by == player
    # and steps down
    client.post(url("co_imp_remove", campaign, player.pk))
    assert role(campaign, player) == "player"


def test_the_imp_makes_a_co_imp_a_player_again(client, imp, campaign):
    co_imp = CoImpMembershipFactory(campaign=campaign).user
    client.force_login(imp)
    client.post(url("co_imp_remove", campaign, co_imp.pk))
    assert role(campaign, co_imp) == "player"


def test_the_imp_cannot_be_made_a_player(client, imp, campaign):
    client.force_login(imp)
    response = client.post(url("co_imp_remove", campaign, imp.pk), follow=True)
    assert "hand the campaign over instead" in response.content.decode()
    assert role(campaign, imp) == "imp"


def test_handing_the_campaign_over(client, imp, player, campaign):
    client.force_login(imp)
    page = client.get(url("handover", campaign)).content.decode()
    assert f'<option value="{player.pk}"' in page
    assert f'<option value="{imp.pk}"' not in page
    response = client.post(url("handover", campaign), {"user": player.pk})
    assert response["Location"] == campaign.get_absolute_url()
    campaign.refresh_from_db()
    assert campaign.owner == player
    assert role(campaign, player) == "imp" and role(campaign, imp) == "co_imp"
    # The old Imp no longer hands anything over; the new one does.
    assert client.get(url("handover", campaign)).status_code == 403
    client.force_login(player)
    assert client.get(url("handover", campaign)).status_code == 200


def test_handing_over_to_a_stranger_is_refused(client, imp, player, campaign):
    outsider = MembershipFactory().user  # a member of another campaign
    client.force_login(imp)
    response = client.post(url("handover", campaign), {"user": outsider.pk})
    assert response.status_code == 200
    assert "Choose a member." in response.content.decode()
    campaign.refresh_from_db()
    assert campaign.owner == imp


def test_a_player_takes_their_character_out_and_its_history_stays(client, imp, player,
                                                                   campaign, hero):
    services.session_start(campaign=campaign, by=imp)
    session = services.session_start(campaign=campaign, by=imp)
    services.highlight_award(session=session, character=hero, by=imp, text="The climb")
    client.force_login(player)
    response = client.post(url("character_leave", campaign, hero.pk))
    assert response["Location"] == campaign.get_absolute_url()
    hero.refresh_from_db()
    assert hero.campaign is None
    assert Highlight.objects.filter(character=hero).count() == 1
    # The XP stays; the Level it pays for is bought when the ritual it took part in ends.
    assert services.progress(hero) == (10, 10)
    services.ritual_close(session=session, by=imp)
    assert services.progress(hero) == (11, 0)
    # The Imp still reads its history; it gets no more turns.
    client.force_login(imp)
    page = client.get(url("character", campaign, hero.pk)).content.decode()
    assert "left the campaign" in page and "The climb" in page
    assert "Ash" not in client.get(session.get_absolute_url()).content.decode().split(
        'id="ritual"')[1].split("</section>")[0]


def test_the_imp_takes_a_character_out(client, imp, campaign, hero):
    client.force_login(imp)
    client.post(url("character_leave", campaign, hero.pk),
                {"next": url("members", campaign)})
    assert Character.objects.get(pk=hero.pk).campaign is None


def test_a_player_leaves_the_table_with_their_characters(client, player, campaign, hero):
    Quest.objects.create(character=hero, campaign=campaign, text="Find the lost bell")
    client.force_login(player)
    response = client.post(url("membership_leave", campaign, player.pk))
    assert response["Location"] == reverse("campaigns:list")
    assert not Membership.objects.filter(campaign=campaign, user=player).exists()
    hero.refresh_from_db()
    assert hero.campaign is None
    assert Quest.objects.get(character=hero).status == "active"
    assert client.get(campaign.get_absolute_url()).status_code == 404


def test_the_imp_removes_a_player_but_cannot_leave(client, imp, player, campaign, hero):
    client.force_login(imp)
    client.post(url("membership_leave", campaign, player.pk))
    assert not Membership.objects.filter(campaign=campaign, user=player).exists()
    response = client.post(url("membership_leave", campaign, imp.pk), follow=True)
    assert "hands the campaign over before leaving" in response.content.decode()
    assert role(campaign, imp) == "imp"
