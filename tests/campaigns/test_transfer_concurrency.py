"""Gear changing hands under concurrency (PostgreSQL only): hand-overs in opposite
directions at once never deadlock, one item given twice at once moves once, one
request from many threads is recorded once, and two parts of one stack at once never
give more than the stack holds."""

import pytest

from campaigns import transfers
from characters.models import GearTransfer, InventoryItem
from characters.systems.eldritch_gambit.inventory import InventoryError
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


def test_two_parts_of_one_stack_at_once_never_give_more_than_there_is(party):
    campaign, (alba, brom, cade) = party
    arrows = InventoryItem.objects.create(character=alba, name="Arrows", load=0, quantity=10)
    receivers = [brom, cade]

    results = run_at_once(2, lambda i: transfers.item_give(
        item=arrows, to_character=receivers[i], from_character=alba, by=alba.owner,
        quantity=7))

    done = [r for r in results if isinstance(r, GearTransfer)]
    refused = [r for r in results if isinstance(r, InventoryError)]
    assert len(done) == 1 and len(refused) == 1, results
    assert refused[0].code == "quantity_more_than_held" and refused[0].field == "quantity"
    arrows.refresh_from_db()
    assert arrows.quantity == 3 and arrows.character_id == alba.pk
    given = InventoryItem.objects.exclude(pk=arrows.pk).get()
    assert given.quantity == 7 and given.character_id == done[0].to_character_id
    assert GearTransfer.objects.get().quantity == 7


def test_a_part_taken_from_the_stash_twice_at_once_is_taken_once(party):
    campaign, (alba, brom, _cade) = party
    rations = InventoryItem.objects.create(stash=campaign, name="Ration", load=0, quantity=4)
    takers = [alba, brom]

    results = run_at_once(2, lambda i: transfers.item_take_from_stash(
        item=rations, to_character=takers[i], by=takers[i].owner, campaign=campaign,
        quantity=3))

    assert len([r for r in results if isinstance(r, GearTransfer)]) == 1, results
    assert [r.code for r in results if isinstance(r, InventoryError)] == [
        "quantity_more_than_held"]
    rations.refresh_from_db()
    assert rations.quantity == 1 and rations.stash_id == campaign.pk
    assert sum(InventoryItem.objects.values_list("quantity", flat=True)) == 4
