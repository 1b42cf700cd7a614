"""The Downtime Turn under concurrency (PostgreSQL only): many clicks at once on one page
do the step once; many Conspicuous Consumptions of one Errant at once record one."""

import pytest

from campaigns import services
from campaigns.systems.errant import downtime
from campaigns.systems.errant.turn_models import ErrantTurn
from characters.models import CoinEntry, XpEntry
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
    CoinEntry.objects.create(character=wren, kind=CoinEntry.Kind.ADJUSTMENT,
                             amount_cp=50_000)
    return campaign, campaign.owner, wren


def test_ten_starts_at_once_declare_one_turn(table):
    campaign, guide, _ = table
    run_at_once(10, lambda i: downtime.start(campaign=campaign, by=guide, settlement="town",
                                             seen=0))
    assert ErrantTurn.objects.filter(kind="downtime").count() == 1


def test_ten_clicks_of_one_page_do_the_step_once(table):
    campaign, guide, wren = table
    turn = downtime.start(campaign=campaign, by=guide, settlement="town")
    seen = downtime.version(turn)
    results = run_at_once(10, lambda i: downtime.act(
        campaign=campaign, by=guide, turn_pk=turn.pk, step="recover", seen=seen))
    assert sum(not isinstance(r, Exception) for r in results) == 1
    turn.refresh_from_db()
    assert turn.state["done"] == ["declare", "recover"]


def test_ten_consumptions_of_one_errant_record_one(table):
    campaign, guide, wren = table
    turn = downtime.start(campaign=campaign, by=guide, settlement="town")
    while downtime.next_step(turn) != "consumption":
        data = {"rumour": "x"} if downtime.next_step(turn) == "rumour" else {}
        turn = downtime.act(campaign=campaign, by=guide, turn_pk=turn.pk,
                            step=downtime.next_step(turn), data=data)
    run_at_once(10, lambda i: downtime.act(
        campaign=campaign, by=guide, turn_pk=turn.pk, step="consumption", action="consume",
        data={"character": wren.pk, "kind": "frippery"}))
    assert XpEntry.objects.filter(character=wren, kind=XpEntry.Kind.WASTE).count() == 1
