"""The campaign's settings page (campaigns:edit): who may reach it, what it changes, and
bad input kept with its message next to the field."""

import pytest
from django.urls import reverse

from campaigns import services
from campaigns.models import Campaign, Role
from campaigns.services import CampaignError
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


def edit_url(campaign):
    return reverse("campaigns:edit", args=[campaign.pk])


def valid(campaign, **changes):
    data = {"name": campaign.name, "pitch": campaign.pitch, "starting_level": 10,
            "default_highlight_rounds": campaign.default_highlight_rounds}
    data.update(changes)
    return data


@pytest.mark.parametrize("who,get,post", [
    ("anonymous", 302, 302), ("stranger", 404, 404), ("player", 403, 403),
    ("co_imp", 200, 302), ("imp", 200, 302)])
def test_who_may_change_the_campaign(client, campaign, imp, who, get, post):
    users = {"anonymous": None, "stranger": UserFactory(), "imp": imp,
             "player": MembershipFactory(campaign=campaign).user,
             "co_imp": MembershipFactory(campaign=campaign, role=Role.CO_IMP).user}
    if users[who] is not None:
        client.force_login(users[who])
    assert client.get(edit_url(campaign)).status_code == get
    response = client.post(edit_url(campaign), valid(campaign, name=f"Renamed by {who}"))
    assert response.status_code == post
    campaign.refresh_from_db()
    assert (campaign.name == f"Renamed by {who}") == (post == 302 and who != "anonymous")


def test_the_imp_changes_name_pitch_and_starting_level(client, campaign, imp):
    client.force_login(imp)
    page = client.get(edit_url(campaign)).content.decode()
    assert f'value="{campaign.name}"' in page and "Starting level" in page
    response = client.post(edit_url(campaign), valid(campaign, name="The Long Night",
                                                     pitch="Bring lanterns.",
                                                     starting_level=12), follow=True)
    campaign.refresh_from_db()
    assert (campaign.name, campaign.pitch, campaign.settings["starting_level"]) == (
        "The Long Night", "Bring lanterns.", 12)
    assert "starting Level 12" in response.content.decode()


@pytest.mark.parametrize("changes,field,message", [
    ({"name": ""}, "name", "required"), ({"name": "x" * 121}, "name", "at most 120"),
    ({"starting_level": "ten"}, "starting_level", "whole number"),
    ({"starting_level": "101"}, "starting_level", "less than or equal"),
    ({"default_highlight_rounds": "9"}, "default_highlight_rounds", "valid choice"),
    ({"name": "A\x00B"}, "name", "Null characters")])
def test_bad_input_keeps_what_was_typed_with_the_message_by_the_field(client, campaign, imp,
                                                                     changes, field, message):
    client.force_login(imp)
    before = Campaign.objects.get(pk=campaign.pk)
    response = client.post(edit_url(campaign), valid(campaign, pitch="Typed pitch",
                                                     **changes))
    html = response.content.decode()
    assert response.status_code == 400
    assert f'id="{"id_" + field}-error"' in html or f"id_{field}" in html
    assert message.lower() in html.lower() and "Typed pitch" in html
    campaign.refresh_from_db()
    assert (campaign.name, campaign.settings) == (before.name, before.settings)


def test_the_system_cannot_be_changed_by_posting_it(client, campaign, imp):
    client.force_login(imp)
    client.post(edit_url(campaign), {**valid(campaign), "system": "mettle-core"})
    campaign.refresh_from_db()
    assert campaign.system == "eldritch-gambit"


def test_a_mettle_campaign_changes_its_freestyle_budget(client):
    campaign = CampaignFactory(system="mettle-core", settings={"freestyle_budget": 22})
    client.force_login(campaign.owner)
    page = client.get(edit_url(campaign)).content.decode()
    assert 'name="freestyle_budget"' in page and 'name="starting_level"' not in page
    response = client.post(edit_url(campaign), {"name": campaign.name, "freestyle_budget": 25,
                                                "make_up_xp": 1,
                                                "default_highlight_rounds": 2})
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.settings["freestyle_budget"] == 25


def test_the_service_refuses_a_player(campaign):
    player = MembershipFactory(campaign=campaign).user
    with pytest.raises(CampaignError, match="Only the campaign's Imp"):
        services.campaign_update(campaign=campaign, by=player, name="Mine now")
