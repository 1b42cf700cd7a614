"""Gear changing hands under concurrency (PostgreSQL only): hand-overs in opposite
directions at once never deadlock, one item given twice at once moves once, and one
request from many threads is recorded once."""

import pytest

from characters import transfers
from characters.inventory import InventoryError
from characters.models import GearTransfer, InventoryItem
from tests.concurrency import needs_postgresql, run_at_once
from tests.factories import CampaignFactory, CharacterFactory, MembershipFactory

pytestmark = [
    pytest.mark.django_db(transaction=True),
    needs_postgresql,
]


@pytest.fixture
def party():
    campaign = CampaignFactory()
    heroes = [CharacterFactory(owner=MembershipFactory(campaign=campaign).user,
                               campaign=campaign) for _ in range(3)]
    return campaign, heroes


def trinkets(character, count):
    return [InventoryItem.objects.create(character=character, name=f"Coin {i}", load=0)
            for i in range(count)]


def test_giving_both_ways_at_once_never_deadlocks(party):
    _campaign, (alba, brom, _cade) = party
    from_alba, from_brom = trinkets(alba, 10), trinkets(brom, 10)

    def work(i):
        if i % 2:
            return transfers.item_give(item=from_alba[i // 2], to_character=brom, by=alba.owner)
        return transfers.item_give(item=from_brom[i // 2], to_character=alba, by=brom.owner)

    results = run_at_once(20, work)

    assert [r for r in results if isinstance(r, Exception)] == []
    assert set(brom.items.values_list("pk", flat=True)) == {i.pk for i in from_alba}
    assert set(alba.items.values_list("pk", flat=True)) == {i.pk for i in from_brom}
    assert GearTransfer.objects.count() == 20


def test_one_item_given_to_several_at_once_moves_once(party):
    campaign, (alba, brom, cade) = party
    pack = InventoryItem.objects.create(character=alba, name="Backpack", load=1)
    InventoryItem.objects.create(character=alba, name="Rope", load=1, container=pack)
    receivers = [brom, cade, None] * 3

    def work(i):  # from Alba's inventory page, as the views call it
        if receivers[i] is None:
            return transfers.item_give(item=pack, to_stash=campaign, from_character=alba,
                                       by=alba.owner)
        return transfers.item_give(item=pack, to_character=receivers[i], from_character=alba,
                                   by=alba.owner)

    results = run_at_once(len(receivers), work)

    done = [r for r in results if isinstance(r, GearTransfer)]
    refused = [r for r in results if isinstance(r, InventoryError)]
    assert len(done) == 1 and len(refused) == len(receivers) - 1, results
    assert {r.code for r in refused} == {"no_such_item"}
    assert GearTransfer.objects.count() == 1
    holders = set(InventoryItem.objects.values_list("character_id", "stash_id"))
    assert len(holders) == 1 and (alba.pk, None) not in holders  # the lot moved together


def test_the_same_request_from_ten_threads_is_recorded_once(party):
    _campaign, (alba, brom, _cade) = party
    pack = InventoryItem.objects.create(character=alba, name="Backpack", load=1)

    results = run_at_once(10, lambda i: transfers.item_give(
        item=pack, to_character=brom, from_character=alba, by=alba.owner,
        request_key="same-give"))

    assert [r for r in results if isinstance(r, Exception)] == []
    assert len({r.pk for r in results}) == 1
    assert GearTransfer.objects.count() == 1
    assert list(brom.items.values_list("pk", flat=True)) == [pack.pk]
