"""The Guide's screen under concurrent clicks (PostgreSQL only): the triangle is rolled
once, Resources never leave their bounds, an entry is undone once, a Twist is called
once and the Faction turn moves on once per page."""

import random

import pytest

from campaigns.services import CampaignError
from campaigns.systems.mettle import guide
from campaigns.systems.mettle.guide_models import (
    MettleFactionCheck,
    MettleResourcesEntry,
    MettleTriangle,
)
from characters.systems.mettle.apps import KEY
from tests.concurrency import needs_postgresql, run_at_once
from tests.factories import CampaignFactory

pytestmark = [pytest.mark.django_db(transaction=True), needs_postgresql]


class Dice(random.Random):
    def __init__(self, face):
        super().__init__(0)
        self.face = face

    def randint(self, a, b):
        return self.face


def test_ten_clicks_roll_one_triangle():
    campaign = CampaignFactory(system=KEY)
    results = run_at_once(10, lambda i: guide.triangle_roll(campaign=campaign,
                                                            by=campaign.owner))
    assert len({r.pk for r in results}) == 1
    assert MettleTriangle.objects.count() == 1 and MettleResourcesEntry.objects.count() == 3


def test_resources_never_go_below_zero_and_undo_once():
    campaign = CampaignFactory(system=KEY)
    triangle = guide.triangle_roll(campaign=campaign, by=campaign.owner, rng=Dice(1))
    assert guide.resources_of(triangle)["rival"] == 4
    results = run_at_once(10, lambda i: guide.resources_adjust(
        campaign=campaign, by=campaign.owner, role="rival", change=-1))
    assert len([r for r in results if isinstance(r, MettleResourcesEntry)]) == 4
    assert all(r.code == "resources_range" for r in results if isinstance(r, CampaignError))
    assert guide.resources_of(triangle)["rival"] == 0
    entry = MettleResourcesEntry.objects.filter(kind="adjustment").first()
    results = run_at_once(10, lambda i: guide.resources_undo(
        campaign=campaign, by=campaign.owner, entry_pk=entry.pk))
    assert len({r.pk for r in results}) == 1
    assert guide.resources_of(triangle)["rival"] == 1


def test_one_twist_and_one_turn_from_ten_clicks():
    campaign = CampaignFactory(system=KEY)
    guide.triangle_roll(campaign=campaign, by=campaign.owner, rng=Dice(1))
    # Resources 4 each; four sixes: Score 0, Edge 4, a failure with Edge.
    check = guide.faction_check_make(campaign=campaign, by=campaign.owner, actor="rival",
                                     target="backer", rng=Dice(6))
    results = run_at_once(10, lambda i: guide.faction_check_twist(
        campaign=campaign, by=campaign.owner, check_pk=check.pk, rng=random.Random(i)))
    assert len({tuple(r.twist_faces) for r in results}) == 1
    assert MettleFactionCheck.objects.get().twist_faces == results[0].twist_faces
    run_at_once(10, lambda i: guide.faction_turn_next(campaign=campaign, by=campaign.owner,
                                                      turn=1))
    assert MettleTriangle.objects.get().turn == 2
