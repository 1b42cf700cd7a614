"""Fights under concurrency (PostgreSQL only): ten clicks of the same page's step or undo
write one ledger line (the Company's and the fight's row locks and the version), and one
Initiative Turn row in the Company's Turn log."""

import pytest

from campaigns import services
from campaigns.services import CampaignError
from campaigns.systems.errant import fight
from campaigns.systems.errant.fight_models import ErrantFightStep
from campaigns.systems.errant.turn_models import ErrantTurn
from characters.systems.errant.apps import KEY
from tests.characters.systems.errant.helpers import make_wren
from tests.concurrency import needs_postgresql, run_at_once
from tests.factories import CampaignFactory, MembershipFactory

pytestmark = [pytest.mark.django_db(transaction=True), needs_postgresql]

NPC = {"name": "Goblin", "threat": 1, "hp": 4, "att": "spear", "mv": "2", "morale": 7,
       "alignment": "Chaotic", "damage_sides": 6, "warband": 0}


@pytest.fixture
def running():
    campaign = CampaignFactory(system=KEY)
    player = MembershipFactory(campaign=campaign).user
    wren = make_wren(player)
    services.character_join(campaign=campaign, character=wren, by=player)
    f = fight.start(campaign=campaign, by=campaign.owner, name="X", character_pks=[wren.pk])
    f.refresh_from_db()
    fight.step(campaign=campaign, by=campaign.owner, fight_pk=f.pk, version=f.version,
               kind="npc", payload=NPC)
    f.refresh_from_db()
    return f


def test_ten_clicks_on_the_call_take_one_turn(running):
    campaign = running.company.campaign
    results = run_at_once(10, lambda i: fight.step(
        campaign=campaign, by=campaign.owner, fight_pk=running.pk, version=running.version,
        kind="turn", payload={"call": "odd"}))
    refused = [r for r in results if isinstance(r, CampaignError)]
    assert len(refused) == 9 and {r.code for r in refused} == {"stale"}
    assert ErrantFightStep.objects.filter(kind="turn").count() == 1
    assert ErrantTurn.objects.filter(kind="initiative", undone_at__isnull=True).count() == 1


def test_ten_double_submissions_count_once(running):
    campaign = running.company.campaign
    results = run_at_once(10, lambda i: fight.step(
        campaign=campaign, by=campaign.owner, fight_pk=running.pk, version=None,
        kind="npc", payload={**NPC, "name": "Ogre"}, request_key="same-click"))
    assert [r for r in results if isinstance(r, Exception)] == []
    assert ErrantFightStep.objects.filter(kind="npc", payload__name="Ogre").count() == 1


def test_ten_undos_of_one_page_undo_once(running):
    campaign = running.company.campaign
    results = run_at_once(10, lambda i: fight.undo(
        campaign=campaign, by=campaign.owner, fight_pk=running.pk, version=running.version))
    assert sum(1 for r in results if not isinstance(r, Exception)) == 1
    assert ErrantFightStep.objects.filter(undone_at__isnull=False).count() == 1
