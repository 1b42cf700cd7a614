"""METTLE's Initiative tracker under concurrent clicks (PostgreSQL only): the encounter
row lock makes steps run one after the other, so a double click cannot act twice, split
twice or hit twice."""

import pytest

from campaigns import services as campaign_services
from campaigns.services import CampaignError
from campaigns.systems.mettle import initiative as service
from campaigns.systems.mettle.encounters import MettleInitiativeStep
from characters.systems.mettle.apps import KEY
from tests.characters.systems.mettle.helpers import make_viktor
from tests.concurrency import needs_postgresql, run_at_once
from tests.factories import CampaignFactory, MembershipFactory

pytestmark = [pytest.mark.django_db(transaction=True), needs_postgresql]


@pytest.fixture
def encounter():
    campaign = CampaignFactory(system=KEY)
    player = MembershipFactory(campaign=campaign).user
    viktor = make_viktor(player)
    campaign_services.character_join(campaign=campaign, character=viktor, by=player)
    encounter = service.create(campaign=campaign, by=campaign.owner, name="Quay")
    service.add_characters(encounter_id=encounter.pk, version=None,
                           characters=[campaign.game_system.character_model.objects.get()])
    service.add_npc(encounter_id=encounter.pk, version=None, name="Thug", pool=4)
    hero = str(encounter.combatants.get(name="Viktor").pk)
    service.step(encounter_id=encounter.pk, version=None, kind="trigger",
                 payload={"key": hero}, by=campaign.owner)
    encounter.refresh_from_db()
    return encounter, hero, str(encounter.combatants.get(name="Thug").pk)


def test_ten_clicks_on_split_record_one_split(encounter):
    encounter, hero, thug = encounter
    version = encounter.version
    results = run_at_once(10, lambda i: service.step(
        encounter_id=encounter.pk, version=version, kind="split",
        payload={"actor": hero, "dice": 5, "parts": 2, "targets": [thug]}, by=None))
    recorded = [r for r in results if isinstance(r, MettleInitiativeStep)]
    refused = [r for r in results if isinstance(r, CampaignError)]
    assert len(recorded) == 1 and len(refused) == 9
    assert {r.code for r in refused} == {"stale"}


def test_without_versions_the_engine_still_refuses_a_second_split(encounter):
    encounter, hero, thug = encounter
    results = run_at_once(8, lambda i: service.step(
        encounter_id=encounter.pk, version=None, kind="split",
        payload={"actor": hero, "dice": 5, "parts": 2, "targets": [thug]}, by=None))
    assert sum(isinstance(r, MettleInitiativeStep) for r in results) == 1
    assert all(isinstance(r, (MettleInitiativeStep, CampaignError)) for r in results)
