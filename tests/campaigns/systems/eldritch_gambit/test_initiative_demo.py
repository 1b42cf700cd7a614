"""The demo fight of `manage.py seed_demo` (Volleyball Initiative)."""

from io import StringIO

import pytest
from django.core.management import call_command

from campaigns.models import Campaign
from campaigns.systems.eldritch_gambit import initiative as service
from campaigns.systems.eldritch_gambit.models import Encounter

pytestmark = pytest.mark.django_db


def test_seed_demo_makes_one_fight_mid_round(client):
    call_command("seed_demo", stdout=StringIO())
    call_command("seed_demo", stdout=StringIO())
    campaign = Campaign.objects.get(system="eldritch-gambit")
    encounter = Encounter.objects.get(campaign=campaign)
    state = service.load(encounter).state
    mob = encounter.combatants.get(name="Kobold pack")
    assert state.round == 1 and state.legal_passes() == (mob.key,)
    assert state.fighter(mob.key).members == 3  # a Felling blow took one kobold
    client.force_login(campaign.owner)
    page = client.get(encounter.get_absolute_url()).content.decode()
    assert "Pass to: Kobold pack" in page
