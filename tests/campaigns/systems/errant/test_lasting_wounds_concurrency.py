"""Lasting wounds under concurrency (PostgreSQL only): ten Guides' clicks healing one wound
heal it once; one physician's ten wounds in one Downtime Turn: one treated (GS §Retainers,
"one disease or wound per Downtime Turn"); ten undos of one healing undo it once."""

import pytest

from campaigns import services
from campaigns.services import CampaignError
from campaigns.systems.errant import downtime, lasting
from characters.systems.errant.apps import KEY
from characters.systems.errant.models import ErrantWound, ErrantWoundHeal
from tests.characters.systems.errant.helpers import make_wren
from tests.concurrency import needs_postgresql, run_at_once
from tests.factories import CampaignFactory, MembershipFactory

pytestmark = [pytest.mark.django_db(transaction=True), needs_postgresql]


@pytest.fixture
def wounded():
    campaign = CampaignFactory(system=KEY)
    player = MembershipFactory(campaign=campaign).user
    wren = make_wren(player)
    services.character_join(campaign=campaign, character=wren, by=player)
    wounds = [ErrantWound.objects.create(character=wren, campaign=campaign, column="trauma",
                                         row=3, text="Arm wrecked.") for _ in range(10)]
    return campaign, wounds


def test_ten_clicks_heal_one_wound_once(wounded):
    campaign, wounds = wounded
    results = run_at_once(10, lambda i: lasting.heal(
        campaign=campaign, by=campaign.owner, wound_pk=wounds[0].pk, how="beneficence"))
    refused = [r for r in results if isinstance(r, CampaignError)]
    assert len(refused) == 9 and {r.code for r in refused} == {"healed"}
    assert ErrantWoundHeal.objects.count() == 1


def test_one_physician_treats_one_wound_a_downtime_turn(wounded):
    campaign, wounds = wounded
    downtime.start(campaign=campaign, by=campaign.owner, settlement="town")
    results = run_at_once(10, lambda i: lasting.heal(
        campaign=campaign, by=campaign.owner, wound_pk=wounds[i].pk, how="physician",
        physician="Dr Vell"))
    refused = [r for r in results if isinstance(r, CampaignError)]
    assert len(refused) == 9 and {r.code for r in refused} == {"physician_busy"}
    assert ErrantWoundHeal.objects.filter(undone_at__isnull=True).count() == 1


def test_ten_undos_of_one_healing_undo_it_once(wounded):
    campaign, wounds = wounded
    done = lasting.heal(campaign=campaign, by=campaign.owner, wound_pk=wounds[0].pk,
                        how="beneficence")
    results = run_at_once(10, lambda i: lasting.undo_heal(
        campaign=campaign, by=campaign.owner, heal_pk=done.pk))
    refused = [r for r in results if isinstance(r, CampaignError)]
    assert len(refused) == 9 and {r.code for r in refused} == {"undone"}
