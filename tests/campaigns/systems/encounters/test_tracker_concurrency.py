"""The encounter tracker under concurrency (PostgreSQL only): ten clicks of the same
page's step or undo write one ledger line (the row lock and the version), and ten steps
without a version each get their own sequence number."""

import pytest

from campaigns.services import CampaignError
from campaigns.systems.encounters import tracker
from campaigns.systems.encounters.models import SeedEncounterStep
from characters.systems.encounters.apps import KEY
from tests.concurrency import needs_postgresql, run_at_once
from tests.factories import CampaignFactory

pytestmark = [pytest.mark.django_db(transaction=True), needs_postgresql]

FOE = {"side": "foes", "quickness": 2, "command": 1}


@pytest.fixture
def encounter():
    campaign = CampaignFactory(system=KEY)
    encounter = tracker.encounter_create(campaign=campaign, by=campaign.owner, name="X")
    tracker.step(encounter_id=encounter.pk, version=None, kind="add",
                 payload={"key": "f1", "name": "Ghoul", **FOE}, by=campaign.owner)
    encounter.refresh_from_db()
    return encounter


def test_ten_clicks_of_one_page_take_one_step(encounter):
    owner = encounter.campaign.owner
    results = run_at_once(10, lambda i: tracker.step(
        encounter_id=encounter.pk, version=encounter.version, kind="start", payload={},
        by=owner))
    refused = [r for r in results if isinstance(r, CampaignError)]
    assert len(refused) == 9 and {r.code for r in refused} == {"stale"}
    assert SeedEncounterStep.objects.filter(kind="start").count() == 1


def test_ten_foes_added_at_once_each_get_their_own_line(encounter):
    owner = encounter.campaign.owner
    results = run_at_once(10, lambda i: tracker.step(
        encounter_id=encounter.pk, version=None, kind="add",
        payload={"key": f"g{i}", "name": f"Ghoul {i}", **FOE}, by=owner))
    assert [r for r in results if isinstance(r, Exception)] == []
    seqs = list(SeedEncounterStep.objects.filter(encounter=encounter)
                .values_list("seq", flat=True))
    assert len(seqs) == len(set(seqs)) == 12
    assert len(tracker.state_of(encounter).fighters) == 11


def test_ten_undos_of_one_page_undo_once(encounter):
    owner = encounter.campaign.owner
    results = run_at_once(10, lambda i: tracker.undo(
        encounter_id=encounter.pk, version=encounter.version, by=owner))
    assert sum(1 for r in results if not isinstance(r, Exception)) == 1
    assert SeedEncounterStep.objects.filter(undone_at__isnull=False).count() == 1
