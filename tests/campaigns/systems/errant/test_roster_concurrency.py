"""The roster swap and training under concurrency (PostgreSQL only): many clicks at once
make one swap in a session, and one training attempt per request."""

import pytest

from campaigns import services
from campaigns.services import CampaignError
from campaigns.systems.errant import roster
from characters.models import CoinEntry
from characters.systems.errant.apps import KEY
from characters.systems.errant.models import ErrantCharacter, ErrantRosterSwap, ErrantTraining
from tests.characters.systems.errant.helpers import make_wren
from tests.concurrency import needs_postgresql, run_at_once
from tests.factories import CampaignFactory, MembershipFactory

pytestmark = [pytest.mark.django_db(transaction=True), needs_postgresql]


@pytest.fixture
def table():
    campaign = CampaignFactory(system=KEY)
    player = MembershipFactory(campaign=campaign).user
    errants = []
    for name in ("Wren", "Squire", "Page"):
        errant = make_wren(player, name=name)
        services.character_join(campaign=campaign, character=errant, by=player)
        errants.append(ErrantCharacter.objects.get(pk=errant.pk))
    services.session_start(campaign=campaign, by=campaign.owner)
    roster.roster_choose(campaign=campaign, character=errants[0], by=player)
    return campaign, player, errants


def test_two_swaps_at_once_make_one(table):
    campaign, player, (_, squire, page) = table
    results = run_at_once(2, lambda i: roster.roster_choose(
        campaign=campaign, character=[squire, page][i], by=player))
    errors = [r for r in results if isinstance(r, Exception)]
    assert len(errors) == 1 and isinstance(errors[0], CampaignError)
    assert errors[0].code == "swapped_this_session"
    assert ErrantRosterSwap.objects.filter(is_swap=True).count() == 1


def test_ten_clicks_of_one_swap_record_it_once(table):
    campaign, player, (_, squire, _) = table
    results = run_at_once(10, lambda i: roster.roster_choose(
        campaign=campaign, character=squire, by=player, request_key="same"))
    assert [r for r in results if isinstance(r, Exception)] == []
    assert ErrantRosterSwap.objects.filter(is_swap=True).count() == 1


def test_training_clicks_at_once_pay_in_turn(table):
    campaign, player, (wren, _, _) = table
    CoinEntry.objects.create(character=wren, kind=CoinEntry.Kind.ADJUSTMENT, amount_cp=3_000)
    # 1,000 then 2,000: the purse pays two attempts; the third is refused, never overdrawn.
    results = run_at_once(3, lambda i: roster.train(
        campaign=campaign, character=wren, attribute="pres", by=player))
    refused = [r for r in results if isinstance(r, CampaignError)]
    assert len(refused) == 1 and refused[0].code == "not_enough_money"
    assert sorted(ErrantTraining.objects.values_list("attempt", flat=True)) == [1, 2]
    assert ErrantCharacter.objects.get(pk=wren.pk).coins_cp == 0
