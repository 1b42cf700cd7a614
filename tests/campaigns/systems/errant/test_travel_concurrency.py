"""Travel Turns under concurrency (PostgreSQL only): clicks at once are counted one after
the other (each Turn of the day once), a double submission records one Turn, a stale page
is refused."""

import pytest

from campaigns import services
from campaigns.systems.errant import travel
from campaigns.systems.errant.turn_models import ErrantTurn
from characters.systems.errant.apps import KEY
from tests.characters.systems.errant.helpers import make_wren
from tests.concurrency import needs_postgresql, run_at_once
from tests.factories import CampaignFactory, MembershipFactory

pytestmark = [pytest.mark.django_db(transaction=True), needs_postgresql]


@pytest.fixture
def table():
    campaign = CampaignFactory(system=KEY)
    player = MembershipFactory(campaign=campaign).user
    wren = make_wren(player)
    services.character_join(campaign=campaign, character=wren, by=player)
    return campaign, campaign.owner


def explore(campaign, guide, **kw):
    return travel.run(campaign=campaign, by=guide,
                      plan=travel.TravelPlan(action="explore", rest_choice="exhaustion"), **kw)


def test_eight_turns_at_once_are_counted_in_order(table):
    campaign, guide = table
    results = run_at_once(8, lambda i: explore(campaign, guide))
    assert [r for r in results if isinstance(r, Exception)] == []
    log = list(ErrantTurn.objects.order_by("number"))
    assert [(t.number, t.day, t.turn_of_day) for t in log] == [
        (1, 1, 1), (2, 1, 2), (3, 1, 3), (4, 1, 4), (5, 1, 5), (6, 1, 6), (7, 2, 1),
        (8, 2, 2)]


def test_one_request_at_once_records_one_turn(table):
    campaign, guide = table
    results = run_at_once(8, lambda i: explore(campaign, guide, request_key="same"))
    assert [r for r in results if isinstance(r, Exception)] == []
    assert ErrantTurn.objects.count() == 1
    assert len({r.pk for r in results}) == 1


def test_a_page_seen_once_runs_one_turn(table):
    campaign, guide = table
    results = run_at_once(8, lambda i: explore(campaign, guide, seen=0))
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert ErrantTurn.objects.count() == 1
