"""An affliction's ticks under concurrent clicks (PostgreSQL only): ten clicks of "lower"
take no more than the Dose; ten clicks of one button (one request key) are one tick."""

import random

import pytest

from campaigns import services
from campaigns.services import CampaignError
from campaigns.systems.mettle import hazards
from campaigns.systems.mettle.hazard_models import MettleHazard
from characters.systems.mettle.apps import KEY
from characters.systems.mettle.models import MettleCharacter
from tests.characters.systems.mettle.helpers import make_viktor
from tests.concurrency import needs_postgresql, run_at_once
from tests.factories import CampaignFactory, MembershipFactory

pytestmark = [pytest.mark.django_db(transaction=True), needs_postgresql]


class Dice(random.Random):
    def __init__(self, face):
        super().__init__(0)
        self.face = face

    def randint(self, a, b):
        return self.face


@pytest.fixture
def afflicted():
    campaign = CampaignFactory(system=KEY)
    user = MembershipFactory(campaign=campaign).user
    character = make_viktor(user)
    services.character_join(campaign=campaign, character=character, by=user)
    cold = hazards.apply(campaign=campaign, by=campaign.owner, rng=Dice(5), data={
        "character": character.pk, "kind": "affliction", "affliction": "cold"})
    assert cold.dose == 2  # 1d6 (5) - 3
    return campaign, character, cold


def test_ten_clicks_take_no_more_than_the_dose(afflicted):
    campaign, character, cold = afflicted
    results = run_at_once(10, lambda i: hazards.affliction_tick(
        campaign=campaign, by=campaign.owner, affliction_pk=cold.pk, step="lower",
        request_key=f"{i:032d}"))
    done = [r for r in results if isinstance(r, MettleHazard)]
    assert len(done) == 2
    assert all(isinstance(r, CampaignError) and r.code == "dose_reached"
               for r in results if r not in done)
    assert MettleCharacter.objects.get(pk=character.pk).mettle_max_lost == 2


def test_one_button_clicked_ten_times_is_one_tick(afflicted):
    campaign, character, cold = afflicted
    results = run_at_once(10, lambda i: hazards.affliction_tick(
        campaign=campaign, by=campaign.owner, affliction_pk=cold.pk, step="lower",
        request_key="c" * 32))
    assert len({r.pk for r in results}) == 1
    assert MettleCharacter.objects.get(pk=character.pk).mettle_max_lost == 1


def test_ticks_in_a_fight_and_its_end_at_once_neither_deadlock_nor_get_lost(afflicted):
    """AMB-M-AFF-4: the card locks the fight before the character, as the fight's end
    does; a tick racing the end is in the fight's ledger (before it) or on the sheet
    alone (once it is over): never a deadlock, and the Dose is taken exactly."""
    from campaigns.systems.mettle import initiative

    campaign, character, cold = afflicted
    encounter = initiative.create(campaign=campaign, by=campaign.owner, name="Quay")
    initiative.add_characters(encounter_id=encounter.pk, version=None,
                              characters=[MettleCharacter.objects.get(pk=character.pk)])
    initiative.add_npc(encounter_id=encounter.pk, version=None, name="Thug", pool=3)
    me = str(encounter.combatants.get(character_id=character.pk).pk)
    initiative.step(encounter_id=encounter.pk, version=None, kind="trigger",
                    payload={"key": me}, by=campaign.owner)

    def work(i):
        if i == 0:
            return initiative.step(encounter_id=encounter.pk, version=None, kind="end",
                                   payload={}, by=campaign.owner)
        return hazards.affliction_tick(campaign=campaign, by=campaign.owner,
                                       affliction_pk=cold.pk, step="lower",
                                       request_key=f"{i:032d}")

    results = run_at_once(6, work)
    ticks = [r for r in results if isinstance(r, MettleHazard)]
    assert len(ticks) == 2
    assert all(isinstance(r, CampaignError) and r.code == "dose_reached"
               for r in results[1:] if r not in ticks), results
    assert MettleCharacter.objects.get(pk=character.pk).mettle_max_lost == 2
