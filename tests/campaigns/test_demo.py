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
    campaign = Campaign.objects.get()
    assert f"Demo campaign: The Dragon of Ambrose ({campaign.get_absolute_url()})" in \
        out.getvalue()
    assert sorted(c.name for c in Character.objects.filter(campaign=campaign)) == [
        "Asphodel the Grumbling Bloom", "Bram Underbough"]
    assert Highlight.objects.count() == 3
    asphodel = Character.objects.get(name="Asphodel the Grumbling Bloom")
    assert progress(asphodel) == (10, 2)
    client.force_login(campaign.owner)
    page = client.get(campaign.sessions.get(number=2).get_absolute_url()).content.decode()
    assert "<strong>Bram Underbough</strong>'s turn" in page
