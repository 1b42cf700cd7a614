"""The Guide's party dashboard of an Errant campaign reads every sheet in a fixed number
of queries, whatever the party and its gear (GameSystem.for_sheets)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns import services
from tests.characters.systems.errant.helpers import make_wren
from tests.factories import MembershipFactory

pytestmark = pytest.mark.django_db


def dashboard_queries(client, campaign) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("campaigns:detail", args=[campaign.pk]))
    assert response.status_code == 200
    return len(queries), response.content.decode()


def test_the_dashboard_costs_the_same_for_one_errant_or_four(client, campaign, guide, wren):
    client.force_login(guide)
    one, html = dashboard_queries(client, campaign)
    assert "Wren" in html
    for name in ("Ash", "Bryn", "Cole"):
        player = MembershipFactory(campaign=campaign).user
        errant = make_wren(player, name=name)
        services.character_join(campaign=campaign, character=errant, by=player)
    four, html = dashboard_queries(client, campaign)
    assert all(name in html for name in ("Ash", "Bryn", "Cole"))
    assert four == one
