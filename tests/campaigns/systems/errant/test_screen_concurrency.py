"""The Guide's screen under concurrency (PostgreSQL only): the Company's row lock makes
clicks at once land one after the other on the Turn's state (no step of a lock, no
exchange lost), and a double submission counts once."""

import pytest

from campaigns import services
from campaigns.systems.errant import screen
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
    guide = campaign.owner
    turn = screen.start_exploration(campaign=campaign, by=guide)
    # A Steel lock, twist-tap-turn, normal (d12s 7, 2, 9).
    screen.new_lock(campaign=campaign, by=guide, d12s=(7, 2, 9))
    return campaign, guide, wren, turn


def test_one_request_sent_ten_times_picks_once(table):
    campaign, guide, wren, turn = table
    results = run_at_once(10, lambda i: screen.pick_lock(
        campaign=campaign, by=guide, action="twist", picker=wren.pk, turn_pk=turn.pk,
        request_key="same"))
    assert [r for r in results if isinstance(r, Exception)] == []
    state = ErrantTurn.objects.get(pk=turn.pk).state["lock"]
    assert len(state["steps"]) == 1 and state["progress"] == 1


def test_ten_picks_at_once_are_each_recorded(table):
    campaign, guide, wren, turn = table
    results = run_at_once(10, lambda i: screen.pick_lock(
        campaign=campaign, by=guide, action="tap", picker=wren.pk, turn_pk=turn.pk,
        request_key=f"k{i}"))
    done = [r for r in results if not isinstance(r, Exception)]
    state = ErrantTurn.objects.get(pk=turn.pk).state["lock"]
    # The first tap is wrong (stiff), the second jams it; the rest are refused.
    assert len(state["steps"]) == len(done) == 2 and state["jammed"]
    assert ErrantTurn.objects.get(pk=turn.pk).changes.filter(
        label__contains="tries to tap").count() == 2


def test_ten_exchanges_at_once_lose_none(table):
    campaign, guide, _, turn = table
    screen.reaction(campaign=campaign, by=guide, npc="Abbot", npc_alignment="N",
                    modifiers=[3], negotiate=True)
    results = run_at_once(6, lambda i: screen.exchange(
        campaign=campaign, by=guide, kind="banal", turn_pk=turn.pk, request_key=f"e{i}"))
    done = [r for r in results if not isinstance(r, Exception)]
    kept = ErrantTurn.objects.get(pk=turn.pk).state["negotiation"]
    assert kept["exchanges"] == len(done) == len(kept["log"])
