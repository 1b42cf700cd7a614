"""The demo METTLE campaign of `manage.py seed_demo` (issue #13): the Guide (the demo Imp),
Viktor (player1) and Mae Lindqvist (player2), two sessions with a Highlights round told,
NPC pools and the Faction triangle; made once, however often seed_demo runs."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from campaigns.models import Campaign, Highlight
from campaigns.services import progress
from campaigns.systems.mettle import guide
from campaigns.systems.mettle.guide_models import MettleFactionCheck, MettleNpc, MettleTriangle
from characters.models import Character
from characters.systems.mettle.apps import KEY

pytestmark = pytest.mark.django_db


def test_seed_demo_makes_the_mettle_campaign_once(client):
    out = StringIO()
    call_command("seed_demo", stdout=out)
    call_command("seed_demo", stdout=StringIO())
    campaign = Campaign.objects.get(system=KEY)
    assert f"Demo campaign: The Idol of Saint Vitus ({campaign.get_absolute_url()})" in \
        out.getvalue()
    assert campaign.owner.username == "imp"
    assert sorted(Character.objects.filter(campaign=campaign).values_list(
        "name", "owner__username")) == [("Mae Lindqvist", "player2"), ("Viktor", "player1")]
    assert Character.objects.filter(name="Viktor").count() == 1
    assert [s.number for s in campaign.sessions.order_by("number")] == [1, 2]
    told = Highlight.objects.filter(session__campaign=campaign)
    assert told.count() == 2  # round 1 of 2: one turn each
    viktor = Character.objects.get(name="Viktor")
    assert progress(viktor)[1] == 1  # one Highlight, 1 XP
    assert MettleNpc.objects.filter(campaign=campaign).count() == 3
    assert MettleTriangle.objects.filter(campaign=campaign).count() == 1
    assert MettleFactionCheck.objects.count() == 1
    resources = guide.resources_of(campaign.mettle_triangle)
    assert resources["rival"] == min(resources.values())
    lines = out.getvalue().splitlines()
    imp = next(line for line in lines if line.lstrip().startswith("imp "))
    assert "imp-demo-pass" in imp and "Guide" in imp
    player2 = next(line for line in lines if line.lstrip().startswith("player2 "))
    assert "Mae Lindqvist" in player2

    client.force_login(campaign.owner)
    page = client.get(reverse("campaigns:mettle_guide", args=[campaign.pk])).content.decode()
    assert "Horse 4D (FRAME 7)" in page and "Mae Lindqvist" in page
    assert "Recent Faction Checks" in page and "Roll the Faction triangle" not in page
    session = client.get(campaign.sessions.get(number=2).get_absolute_url()).content.decode()
    assert "<strong>Mae Lindqvist</strong>'s turn" in session
