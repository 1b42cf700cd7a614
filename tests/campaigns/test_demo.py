"""The demo campaign of `manage.py seed_demo`: made once, mid-ritual for the tour."""

from io import StringIO

import pytest
from django.core.management import call_command

from campaigns.models import Campaign, Highlight
from campaigns.services import progress
from characters.models import Character

pytestmark = pytest.mark.django_db


def test_seed_demo_makes_the_demo_campaign_once(client):
    out = StringIO()
    call_command("seed_demo", stdout=out)
    call_command("seed_demo", stdout=StringIO())
    campaign = Campaign.objects.get(system="eldritch-gambit")
    assert f"Demo campaign: The Dragon of Ambrose ({campaign.get_absolute_url()})" in \
        out.getvalue()
    assert sorted(c.name for c in Character.objects.filter(campaign=campaign)) == [
        "Asphodel the Grumbling Bloom", "Bram Underbough"]
    assert Highlight.objects.filter(session__campaign=campaign).count() == 3
    asphodel = Character.objects.get(name="Asphodel the Grumbling Bloom")
    assert progress(asphodel) == (10, 2)
    client.force_login(campaign.owner)
    page = client.get(campaign.sessions.get(number=2).get_absolute_url()).content.decode()
    assert "<strong>Bram Underbough</strong>'s turn" in page


def test_seed_demo_seeds_every_game_systems_example_and_lists_each_login_once():
    out = StringIO()
    call_command("seed_demo", stdout=out)
    call_command("seed_demo", stdout=StringIO())
    # Each registered system with a demo seeds its example once: Asphodel (Eldritch
    # Gambit), Viktor (METTLE Core), both the demo player's.
    owned = dict(Character.objects.filter(owner__username="player1")
                 .values_list("name", "system"))
    assert owned["Asphodel the Grumbling Bloom"] == "eldritch-gambit"
    assert owned["Viktor"] == "mettle-core"
    assert Character.objects.filter(name="Viktor").count() == 1
    logins = [line.split()[0] for line in out.getvalue().splitlines()
              if "password:" in line]
    assert sorted(logins) == sorted(set(logins))
    player1 = next(line for line in out.getvalue().splitlines() if "player1 " in line)
    assert "Viktor" in player1 and "player1-demo-pass" in player1
