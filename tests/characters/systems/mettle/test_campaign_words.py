"""A METTLE Core table is run by a Guide, not an Imp (GameSystem.game_master): the generic
campaign pages name the roles in the campaign's game's words."""

import pytest
from django.urls import reverse

from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_the_campaign_pages_name_the_guide(client):
    guide, player = UserFactory(), UserFactory()
    campaign = CampaignFactory(system="mettle-core", owner=guide)
    MembershipFactory(campaign=campaign, user=player)
    client.force_login(guide)
    page = client.get(campaign.get_absolute_url()).content.decode()
    assert "Guide · <span data-campaign-system" in page and "Imp" not in page
    members = client.get(reverse("campaigns:members", args=[campaign.pk])).content.decode()
    assert "The Guide runs the campaign; co-Guides run sessions" in members
    assert "Make co-Guide" in members and "Imp" not in members
    listing = client.get(reverse("campaigns:list")).content.decode()
    assert "<td>Guide</td>" in listing


def test_an_eldritch_gambit_table_keeps_its_imp(client):
    imp = UserFactory()
    campaign = CampaignFactory(owner=imp)
    client.force_login(imp)
    assert "Imp · <span data-campaign-system" in client.get(
        campaign.get_absolute_url()).content.decode()
