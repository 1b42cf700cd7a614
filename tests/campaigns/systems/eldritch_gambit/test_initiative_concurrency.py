"""The Initiative tracker under concurrent clicks (PostgreSQL only): the Encounter row
lock makes steps run one after the other, so a double click cannot act twice."""

import pytest

from campaigns.services import CampaignError
from campaigns.systems.eldritch_gambit import initiative as service
from campaigns.systems.eldritch_gambit.models import InitiativeStep
from tests.concurrency import needs_postgresql, run_at_once
from tests.factories import CampaignFactory, CharacterFactory, MembershipFactory

pytestmark = [pytest.mark.django_db(transaction=True), needs_postgresql]


@pytest.fixture
def encounter():
    campaign = CampaignFactory()
    player = MembershipFactory(campaign=campaign).user
    hero = CharacterFactory(owner=player, campaign=campaign, name="Ana")
    encounter = service.create(campaign=campaign, by=campaign.owner, name="Ambush")
    service.add_characters(encounter_id=encounter.pk, version=None, characters=[hero])
    service.add_foe(encounter_id=encounter.pk, version=None, name="Wolf", hp_max=8)
    hero_key = str(encounter.combatants.get(name="Ana").pk)
    service.step(encounter_id=encounter.pk, version=None, kind="trigger",
                 payload={"key": hero_key}, by=campaign.owner)
    encounter.refresh_from_db()
    return encounter, hero_key


def test_ten_clicks_on_act_record_one_action(encounter):
    encounter, hero = encounter
    version = encounter.version
    results = run_at_once(10, lambda i: service.step(
        encounter_id=encounter.pk, version=version, kind="act",
        payload={"actor": hero, "targets": []}, by=None))
    recorded = [r for r in results if isinstance(r, InitiativeStep)]
    refused = [r for r in results if isinstance(r, CampaignError)]
    assert len(recorded) == 1 and len(refused) == 9
    assert {r.code for r in refused} == {"stale"}
    assert InitiativeStep.objects.filter(encounter=encounter, kind="act").count() == 1


def test_without_versions_the_engine_still_refuses_a_second_action(encounter):
    encounter, hero = encounter
    results = run_at_once(8, lambda i: service.step(
        encounter_id=encounter.pk, version=None, kind="act",
        payload={"actor": hero, "targets": []}, by=None))
    assert sum(isinstance(r, InitiativeStep) for r in results) == 1
    assert all(isinstance(r, (InitiativeStep, CampaignError)) for r in results)
    assert InitiativeStep.objects.filter(encounter=encounter, kind="act").count() == 1
