"""Gear changing hands in a campaign (campaigns/transfers.py): a backpack with a sack
inside with rope goes to a party member or the stash with everything in it; both Loads
follow (the rules engine's numbers); one ledger row shows on both sides; refusals."""

from contextlib import contextmanager

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from campaigns import services as campaign_services
from campaigns import transfers
from characters.models import Character, GearTransfer, InventoryItem
from characters.systems.eldritch_gambit import inventory, selectors
from characters.systems.eldritch_gambit.builds import sheet_for
from characters.systems.eldritch_gambit.inventory import InventoryError
from characters.systems.eldritch_gambit.models import EldritchGambitCharacter
from rules.models import GearItem
from tests.factories import (
    AsphodelFactory,
    CampaignFactory,
    CharacterFactory,
    CoImpMembershipFactory,
    MembershipFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def gear(name):
    return GearItem.objects.srd().get(name=name)


def add(character, name, **kwargs):
    return inventory.item_add(character=character, by=character.owner,
                              catalog_item=gear(name), **kwargs)


def load(character):
    return sheet_for(EldritchGambitCharacter.objects.get(pk=character.pk)).value("load")


def wp(character):
    return sheet_for(EldritchGambitCharacter.objects.get(pk=character.pk)).value("wp")


@contextmanager
def refused(code):
    """The service refuses with this code, and nothing is written."""
    before = (list(InventoryItem.objects.values().order_by("pk")), GearTransfer.objects.count())
    with pytest.raises(InventoryError) as info:
        yield info
    assert info.value.code == code, info.value
    after = (list(InventoryItem.objects.values().order_by("pk")), GearTransfer.objects.count())
    assert after == before


@pytest.fixture
def campaign(db):
    return CampaignFactory()


@pytest.fixture
def asphodel(campaign):
    player = MembershipFactory(campaign=campaign).user
    return AsphodelFactory(owner=player, campaign=campaign)


@pytest.fixture
def brom(campaign):
    player = MembershipFactory(campaign=campaign).user
    return CharacterFactory(owner=player, campaign=campaign, name="Brom")


@pytest.fixture
def pack(asphodel):
    """Asphodel's backpack: a lantern and a small sack in it, two ropes in the sack."""
    backpack = add(asphodel, "Backpack")
    sack = add(asphodel, "Sack, small", container=backpack)
    rope = add(asphodel, "Rope (10m)", quantity=2, container=sack)
    lantern = add(asphodel, "Lantern", container=backpack)
    return backpack, sack, rope, lantern


def refresh(*items):
    for item in items:
        item.refresh_from_db()


# -- giving ---------------------------------------------------------------------------------


def test_a_backpack_goes_with_everything_in_it(asphodel, brom, pack):
    backpack, sack, rope, lantern = pack
    spear = add(asphodel, "Spear")
    mine_before, theirs_before = load(asphodel), load(brom)
    # The whole lot as the engine counts it: the pack's own Load 0 + lantern 1 + rope 2.
    assert mine_before == 1 + 1 + 2 and theirs_before == 0

    transfer = transfers.item_give(item=backpack, to_character=brom, by=asphodel.owner)

    assert load(asphodel) == 1  # the spear stays
    assert load(brom) == 3
    refresh(backpack, sack, rope, lantern, spear)
    assert {i.character_id for i in (backpack, sack, rope, lantern)} == {brom.pk}
    assert spear.character_id == asphodel.pk
    # The lot keeps its shape: the sack in the pack, the rope in the sack.
    assert sack.container_id == backpack.pk and rope.container_id == sack.pk
    assert lantern.container_id == backpack.pk
    assert backpack.container_id is None and not backpack.dropped and not backpack.equipped
    assert transfer.kind == GearTransfer.Kind.GIVE
    assert (transfer.from_character, transfer.to_character) == (asphodel, brom)
    assert transfer.campaign == asphodel.campaign
    assert (transfer.item_name, transfer.quantity, transfer.lines) == ("Backpack", 1, 4)
    assert transfer.contents == ["Sack, small", "Rope (10m) x2", "Lantern"]
    assert (transfer.from_label, transfer.to_label) == (asphodel.name, "Brom")
    assert transfer.created_by == asphodel.owner


def test_the_ledger_row_shows_on_both_sides(asphodel, brom, pack):
    transfer = transfers.item_give(item=pack[0], to_character=brom, by=asphodel.owner)
    assert list(selectors.transfers_of(asphodel)) == [transfer]
    assert list(selectors.transfers_of(brom)) == [transfer]
    back = transfers.item_give(item=pack[0], to_character=asphodel, by=brom.owner)
    assert list(selectors.transfers_of(asphodel)) == [back, transfer]
    assert list(selectors.transfers_of(brom)) == [back, transfer]
    assert load(asphodel) == 3 and load(brom) == 0


def test_the_receiver_lists_the_lot_after_their_own_gear(asphodel, brom, pack):
    own = add(brom, "Spear")
    transfers.item_give(item=pack[0], to_character=brom, by=asphodel.owner)
    names = list(brom.items.values_list("name", flat=True))
    assert names == ["Spear", "Backpack", "Sack, small", "Rope (10m)", "Lantern"]
    assert own.position < InventoryItem.objects.get(pk=pack[0].pk).position


def test_an_item_given_from_inside_a_container_lands_loose(asphodel, brom, pack):
    backpack, sack, rope, _lantern = pack
    transfer = transfers.item_give(item=rope, to_character=brom, by=asphodel.owner)
    refresh(rope, sack)
    assert rope.character_id == brom.pk and rope.container_id is None
    assert sack.character_id == asphodel.pk
    assert transfer.lines == 1 and transfer.contents == []
    assert load(asphodel) == 1 and load(brom) == 2


def test_a_dropped_backpack_is_handed_over_and_carried(asphodel, brom, pack):
    backpack = pack[0]
    inventory.item_drop(character=asphodel, item=backpack)
    assert load(asphodel) == 0
    transfers.item_give(item=backpack, to_character=brom, by=asphodel.owner)
    backpack.refresh_from_db()
    assert not backpack.dropped
    assert load(asphodel) == 0 and load(brom) == 3


def test_worn_armor_is_handed_over_not_worn(asphodel, brom):
    chain = add(asphodel, "Chain mail")
    inventory.item_equip(character=asphodel, item=chain)
    assert sheet_for(asphodel).value("hp_armored") == 25
    transfers.item_give(item=chain, to_character=brom, by=asphodel.owner)
    chain.refresh_from_db()
    assert not chain.equipped
    assert sheet_for(EldritchGambitCharacter.objects.get(pk=asphodel.pk)).value("hp_armored") == 15
    assert load(brom) == 2


def test_attuned_materia_gives_the_wp_back(asphodel, brom):
    """Magic > Materia: the WP "does not come back until they discard the item or
    someone else spends a WP to wield it"; the receiver has not attuned it yet."""
    tattoo = inventory.item_add(character=asphodel, by=asphodel.owner, name="Wolf tattoo",
                                load=0, kind="materia")
    inventory.materia_attune(character=asphodel, item=tattoo, attuned=True)
    assert wp(asphodel) == 10
    brom_wp = wp(brom)
    transfers.item_give(item=tattoo, to_character=brom, by=asphodel.owner)
    tattoo.refresh_from_db()
    assert not tattoo.attuned
    assert wp(asphodel) == 11 and wp(brom) == brom_wp


def test_a_large_receiver_carries_the_lot_at_half_load(asphodel, campaign, pack):
    """The Load each side sees is the engine's: a Large character halves carried gear."""
    giant = CharacterFactory(owner=MembershipFactory(campaign=campaign).user,
                             campaign=campaign, template_traits=[
                                 {"name": "Size", "value": "Large", "load": 2}])
    before = load(giant)
    transfers.item_give(item=pack[0], to_character=giant, by=asphodel.owner)
    assert load(asphodel) == 0
    assert load(giant) - before == 3 // 2  # Load 3 halved, rounded down


def test_the_imp_and_a_co_imp_may_give_a_characters_gear(asphodel, brom, campaign, pack):
    transfers.item_give(item=pack[3], to_character=brom, by=campaign.owner)
    co_imp = CoImpMembershipFactory(campaign=campaign).user
    transfers.item_give(item=pack[1], to_character=brom, by=co_imp)
    assert set(brom.items.values_list("name", flat=True)) == {"Lantern", "Sack, small",
                                                              "Rope (10m)"}


def test_the_same_request_twice_moves_the_gear_once(asphodel, brom, pack):
    first = transfers.item_give(item=pack[0], to_character=brom, by=asphodel.owner,
                                request_key="give-1")
    # The page sent it again: the pack is Brom's now, yet the answer is the same.
    again = transfers.item_give(item=pack[0], to_character=brom, by=asphodel.owner,
                                from_character=asphodel, request_key="give-1")
    assert again.pk == first.pk
    assert GearTransfer.objects.count() == 1
    assert load(brom) == 3 and load(asphodel) == 0
    later = transfers.item_give(item=pack[0], to_character=asphodel, by=brom.owner,
                                request_key="give-2")
    assert later.pk != first.pk


def test_the_request_key_is_unique_in_the_database(asphodel, brom):
    GearTransfer.objects.create(kind="give", from_label="a", to_label="b", item_name="x",
                                request_key="k")
    with pytest.raises(IntegrityError), transaction.atomic():
        GearTransfer.objects.create(kind="give", from_label="a", to_label="b", item_name="y",
                                    request_key="k")


def test_both_characters_are_locked_in_pk_order(asphodel, brom, pack):
    """Every hand-over locks its characters lowest pk first (after the campaign when
    the stash takes part), so A->B and B->A at once cannot wait for each other."""
    first, second = sorted((asphodel, brom), key=lambda c: c.pk)
    item = add(second, "Spear")

    def locked_pks(call):
        calls = []
        original = transfers._lock_characters

        def spy(*characters):
            result = original(*characters)
            calls.append(list(result))
            return result

        transfers._lock_characters = spy
        try:
            with CaptureQueriesContext(connection) as queries:
                call()
        finally:
            transfers._lock_characters = original
        return calls, [q["sql"] for q in queries.captured_queries]

    calls, sql = locked_pks(lambda: transfers.item_give(item=item, to_character=first,
                                                        by=second.owner))
    assert calls == [[first.pk, second.pk]]
    # The character rows are read whole (to lock them) one by one, in that order.
    reads = [s for s in sql if 'FROM "characters_character"' in s and "LIMIT 1" in s
             and '"characters_character"."owner_id"' in s]
    assert [f'"characters_character"."id" = {pk}' in s for pk, s in
            zip((first.pk, second.pk), reads[:2], strict=True)] == [True, True]
    calls, sql = locked_pks(lambda: transfers.item_give(item=pack[0], to_stash=asphodel.campaign,
                                                        by=asphodel.owner))
    campaign_read = next(i for i, s in enumerate(sql) if 'FROM "campaigns_campaign"' in s)
    character_read = next(i for i, s in enumerate(sql) if 'FROM "characters_character"' in s
                          and f'"characters_character"."id" = {asphodel.pk}' in s)
    assert campaign_read < character_read


# -- the stash ------------------------------------------------------------------------------


def test_the_stash_holds_the_lot_and_gives_it_back(asphodel, brom, campaign, pack):
    backpack, sack, rope, lantern = pack
    put = transfers.item_give(item=backpack, to_stash=campaign, by=asphodel.owner,
                              note="For the road")
    assert put.kind == GearTransfer.Kind.TO_STASH and put.to_character is None
    assert put.to_label == "The party stash" and put.note == "For the road"
    refresh(backpack, sack, rope, lantern)
    for line in (backpack, sack, rope, lantern):
        assert line.character_id is None and line.stash_id == campaign.pk
    assert rope.container_id == sack.pk
    assert load(asphodel) == 0
    assert list(transfers.stash_transfers(campaign)) == [put]

    took = transfers.item_take_from_stash(item=backpack, to_character=brom, by=brom.owner,
                                          campaign=campaign)
    assert took.kind == GearTransfer.Kind.FROM_STASH and took.from_character is None
    assert (took.from_label, took.to_label, took.lines) == ("The party stash", "Brom", 4)
    assert load(brom) == 3
    assert not campaign.stash_items.exists()
    assert list(transfers.stash_transfers(campaign)) == [took, put]
    assert list(selectors.transfers_of(brom)) == [took]


def test_the_imp_takes_from_the_stash_into_anyones_character(asphodel, brom, campaign, pack):
    transfers.item_give(item=pack[3], to_stash=campaign, by=asphodel.owner)
    transfers.item_take_from_stash(item=pack[3], to_character=brom, by=campaign.owner)
    assert brom.items.filter(name="Lantern").exists()


def test_taking_twice_with_one_key(asphodel, brom, campaign, pack):
    transfers.item_give(item=pack[0], to_stash=campaign, by=asphodel.owner)
    first = transfers.item_take_from_stash(item=pack[0], to_character=brom, by=brom.owner,
                                           request_key="take-1")
    again = transfers.item_take_from_stash(item=pack[0], to_character=brom, by=brom.owner,
                                           request_key="take-1")
    assert again.pk == first.pk
    assert GearTransfer.objects.filter(kind="from_stash").count() == 1


def test_an_item_is_held_by_exactly_one_character_or_stash(asphodel, campaign):
    for fields in ({}, {"character": asphodel, "stash": campaign}):
        with pytest.raises(IntegrityError), transaction.atomic():
            InventoryItem.objects.create(name="Ghost", load=0, **fields)


# -- refusals -------------------------------------------------------------------------------


def test_a_giver_in_no_campaign(brom):
    loner = AsphodelFactory()
    rope = add(loner, "Rope (10m)")
    with refused("not_in_campaign"):
        transfers.item_give(item=rope, to_character=brom, by=loner.owner)


def test_a_receiver_in_another_campaign_or_none(asphodel, pack):
    stranger = CharacterFactory(campaign=CampaignFactory())
    with refused("not_in_campaign") as info:
        transfers.item_give(item=pack[0], to_character=stranger, by=asphodel.owner)
    assert info.value.field == "to"
    assert "gear goes only to characters of the same campaign" in info.value.message
    with refused("not_in_campaign"):
        transfers.item_give(item=pack[0], to_character=CharacterFactory(), by=asphodel.owner)


def test_a_character_that_left(asphodel, brom, pack):
    campaign_services.character_leave(character=brom, by=brom.owner)
    with refused("not_in_campaign"):
        transfers.item_give(item=pack[0], to_character=brom, by=asphodel.owner)
    brom_rope = add(Character.objects.get(pk=brom.pk), "Rope (10m)")
    with refused("not_in_campaign"):
        transfers.item_give(item=brom_rope, to_character=asphodel, by=brom.owner)


def test_someone_elses_item(asphodel, brom, campaign, pack):
    with refused("not_your_character"):
        transfers.item_give(item=pack[0], to_character=brom, by=brom.owner)
    with refused("not_your_character"):
        transfers.item_give(item=pack[0], to_stash=campaign, by=UserFactory())


def test_an_item_that_does_not_exist_or_is_elsewhere(asphodel, brom, campaign, pack):
    with refused("no_such_item"):
        transfers.item_give(item=999_999, to_character=brom, by=asphodel.owner)
    # The page showed it with Brom, but it is Asphodel's.
    with refused("no_such_item"):
        transfers.item_give(item=pack[0], from_character=brom, to_character=asphodel,
                            by=brom.owner)
    # A stash item is taken, not given.
    transfers.item_give(item=pack[3], to_stash=campaign, by=asphodel.owner)
    with refused("no_such_item"):
        transfers.item_give(item=pack[3], to_character=brom, by=campaign.owner)


def test_giving_to_oneself_nobody_or_two(asphodel, brom, campaign, pack):
    with refused("same_character"):
        transfers.item_give(item=pack[0], to_character=asphodel, by=asphodel.owner)
    with refused("no_receiver"):
        transfers.item_give(item=pack[0], by=asphodel.owner)
    with refused("no_receiver"):
        transfers.item_give(item=pack[0], to_character=brom, to_stash=campaign,
                            by=asphodel.owner)
    with refused("no_such_character"):
        transfers.item_give(item=pack[0], to_character=999_999, by=asphodel.owner)
    with refused("note_too_long"):
        transfers.item_give(item=pack[0], to_character=brom, by=asphodel.owner,
                            note="x" * 301)


def test_another_campaigns_stash(asphodel, pack):
    other = CampaignFactory()
    with refused("other_campaign"):
        transfers.item_give(item=pack[0], to_stash=other, by=asphodel.owner)
    with refused("no_such_stash"):
        transfers.item_give(item=pack[0], to_stash=999_999, by=asphodel.owner)


def test_taking_refusals(asphodel, brom, campaign, pack):
    transfers.item_give(item=pack[0], to_stash=campaign, by=asphodel.owner)
    other = CampaignFactory()
    other_hero = CharacterFactory(owner=other.owner, campaign=other)
    # Not this campaign's stash: refused as if it did not exist.
    with refused("no_such_item"):
        transfers.item_take_from_stash(item=pack[0], to_character=other_hero,
                                       by=other.owner, campaign=other)
    with refused("no_such_item"):
        transfers.item_take_from_stash(item=999_999, to_character=brom, by=brom.owner)
    spear = add(brom, "Spear")
    with refused("no_such_item"):  # in a character's gear, not in a stash
        transfers.item_take_from_stash(item=spear, to_character=brom, by=brom.owner)
    with refused("not_member"):
        transfers.item_take_from_stash(item=pack[0], to_character=other_hero,
                                       by=other.owner)
    with refused("not_in_campaign"):
        transfers.item_take_from_stash(item=pack[0], to_character=other_hero,
                                       by=campaign.owner)
    with refused("not_your_character"):
        transfers.item_take_from_stash(item=pack[0], to_character=asphodel, by=brom.owner)
    with refused("no_such_character"):
        transfers.item_take_from_stash(item=pack[0], to_character=999_999, by=brom.owner)


def test_the_history_outlives_a_deleted_character(asphodel, brom, pack):
    transfer = transfers.item_give(item=pack[0], to_character=brom, by=asphodel.owner)
    name = asphodel.name
    asphodel.delete()
    transfer.refresh_from_db()
    assert transfer.from_character is None and transfer.from_label == name
    assert list(selectors.transfers_of(brom)) == [transfer]
    assert selectors.describe_transfer(transfer, character=brom) == (
        f"Received Backpack with 3 lines inside from {name}")
    assert load(brom) == 3  # what was given is Brom's, not deleted with the giver


# -- part of a stack ------------------------------------------------------------------------


def stack(character, name="Iron spikes", quantity=10, **kwargs):
    """A free-form line of `quantity`, Load 1 each."""
    kwargs.setdefault("load", 1)
    return inventory.item_add(character=character, by=character.owner, name=name,
                              quantity=quantity, **kwargs)


def test_giving_part_of_a_stack_splits_it(asphodel, brom, pack):
    own = add(brom, "Spear")
    spikes = stack(asphodel, notes="Forged in Ambrose")
    mine, theirs = load(asphodel), load(brom)

    transfer = transfers.item_give(item=spikes, to_character=brom, by=asphodel.owner,
                                   quantity=4)

    spikes.refresh_from_db()
    assert (spikes.character_id, spikes.quantity) == (asphodel.pk, 6)
    part = brom.items.get(name="Iron spikes")
    assert part.pk != spikes.pk and part.quantity == 4
    assert (part.load, part.kind, part.quality, part.notes) == (1, "item", "standard",
                                                                "Forged in Ambrose")
    assert part.container_id is None and not part.equipped and not part.dropped
    assert own.position < part.position  # last in Brom's order
    assert load(asphodel) == mine - 4 and load(brom) == theirs + 4
    assert (transfer.item_id, transfer.item_name, transfer.quantity, transfer.lines) == (
        part.pk, "Iron spikes", 4, 1)
    assert transfer.contents == []
    assert selectors.describe_transfer(transfer, character=asphodel) == (
        "Gave Iron spikes x4 to Brom")
    assert selectors.describe_transfer(transfer, character=brom) == (
        f"Received Iron spikes x4 from {asphodel.name}")
    assert list(selectors.transfers_of(asphodel)) == [transfer]
    assert list(selectors.transfers_of(brom)) == [transfer]


def test_the_rest_of_a_packed_stack_stays_packed(asphodel, brom, pack):
    backpack, sack, rope, lantern = pack
    mine = load(asphodel)
    transfers.item_give(item=rope, to_character=brom, by=asphodel.owner, quantity=1)
    rope.refresh_from_db()
    assert (rope.quantity, rope.container_id, rope.character_id) == (1, sack.pk, asphodel.pk)
    part = brom.items.get()
    assert (part.name, part.quantity, part.container_id) == ("Rope (10m)", 1, None)
    assert load(asphodel) == mine - 1 == 2 and load(brom) == 1


def test_a_catalog_stack_keeps_its_catalog_item_and_quality(asphodel, brom):
    rope = add(asphodel, "Rope (10m)", quantity=3, quality="superior")
    transfers.item_give(item=rope, to_character=brom, by=asphodel.owner, quantity=1)
    part = brom.items.get()
    assert (part.catalog_item_id, part.name, part.quality, part.quantity) == (
        rope.catalog_item_id, "Rope (10m)", "superior", 1)
    rope.refresh_from_db()
    assert rope.quantity == 2


def test_all_of_the_stack_moves_the_line_itself(asphodel, brom):
    spikes = stack(asphodel, quantity=5)
    for quantity in (5, None):
        holder = brom if quantity else asphodel
        giver = asphodel if quantity else brom
        transfer = transfers.item_give(item=spikes, to_character=holder, by=giver.owner,
                                       quantity=quantity)
        spikes.refresh_from_db()
        assert spikes.character_id == holder.pk and spikes.quantity == 5
        assert transfer.item_id == spikes.pk and transfer.quantity == 5
    assert InventoryItem.objects.count() == 1


def test_an_ephemera_part_keeps_the_charges_of_one_item(asphodel, brom):
    potions = stack(asphodel, "Potion of Light", quantity=3, kind="ephemera", load=0)
    inventory.charges_set(character=asphodel, item=potions, charges=2)
    transfers.item_give(item=potions, to_character=brom, by=asphodel.owner, quantity=1)
    part = brom.items.get()
    potions.refresh_from_db()
    assert (part.kind, part.quantity, part.charges) == ("ephemera", 1, 2)
    assert (potions.quantity, potions.charges) == (2, 2)


def test_attuned_materia_part_goes_unattuned_and_the_rest_stays_attuned(asphodel, brom):
    stones = stack(asphodel, "Ember stone", quantity=2, kind="materia", load=0)
    inventory.materia_attune(character=asphodel, item=stones, attuned=True)
    transfers.item_give(item=stones, to_character=brom, by=asphodel.owner, quantity=1)
    stones.refresh_from_db()
    assert stones.attuned and stones.quantity == 1
    assert not brom.items.get().attuned


def test_part_of_a_stack_into_the_stash_and_part_of_it_back(asphodel, brom, campaign):
    torches = stack(asphodel, "Torch", quantity=3)
    put = transfers.item_give(item=torches, to_stash=campaign, by=asphodel.owner, quantity=2)
    torches.refresh_from_db()
    assert torches.quantity == 1 and load(asphodel) == 1
    stashed = campaign.stash_items.get()
    assert stashed.quantity == 2 and put.item_id == stashed.pk and put.quantity == 2

    took = transfers.item_take_from_stash(item=stashed, to_character=brom, by=brom.owner,
                                          campaign=campaign, quantity=1)
    stashed.refresh_from_db()
    assert stashed.quantity == 1 and stashed.stash_id == campaign.pk
    part = brom.items.get()
    assert part.quantity == 1 and took.item_id == part.pk and took.quantity == 1
    assert load(brom) == 1
    assert selectors.describe_transfer(took) == "Brom took Torch"
    assert selectors.describe_transfer(put) == f"{asphodel.name} stashed Torch x2"

    # The last one: the line itself leaves the stash.
    last = transfers.item_take_from_stash(item=stashed, to_character=brom, by=brom.owner,
                                          quantity=1)
    assert last.item_id == stashed.pk and not campaign.stash_items.exists()
    assert load(brom) == 2


def test_part_of_a_stack_once_per_request_key(asphodel, brom, campaign):
    spikes = stack(asphodel)
    first = transfers.item_give(item=spikes, to_character=brom, by=asphodel.owner,
                                quantity=3, request_key="part-1")
    again = transfers.item_give(item=spikes, to_character=brom, by=asphodel.owner,
                                from_character=asphodel, quantity=3, request_key="part-1")
    assert again.pk == first.pk
    spikes.refresh_from_db()
    assert spikes.quantity == 7 and brom.items.get().quantity == 3
    assert GearTransfer.objects.count() == 1

    transfers.item_give(item=spikes, to_stash=campaign, by=asphodel.owner)
    took = transfers.item_take_from_stash(item=spikes, to_character=brom, by=brom.owner,
                                          quantity=2, request_key="take-part")
    assert transfers.item_take_from_stash(item=spikes, to_character=brom, by=brom.owner,
                                          quantity=2, request_key="take-part").pk == took.pk
    spikes.refresh_from_db()
    assert spikes.quantity == 5 and campaign.stash_items.count() == 1
    assert brom.items.count() == 2


@pytest.mark.parametrize(("quantity", "code"), [
    (0, "quantity_too_small"),
    (-3, "quantity_too_small"),
    (11, "quantity_more_than_held"),
    (10_001, "quantity_too_large"),
    (10**30, "quantity_too_large"),
    ("3", "quantity_invalid"),
    (2.5, "quantity_invalid"),
    (True, "quantity_invalid"),
])
def test_how_many_is_refused_beside_the_field(asphodel, brom, campaign, quantity, code):
    spikes = stack(asphodel)
    with refused(code) as info:
        transfers.item_give(item=spikes, to_character=brom, by=asphodel.owner,
                            quantity=quantity)
    assert info.value.field == "quantity"
    other = stack(brom, "Chalk")
    transfers.item_give(item=other, to_stash=campaign, by=brom.owner)
    with refused(code) as info:
        transfers.item_take_from_stash(item=other, to_character=brom, by=brom.owner,
                                       quantity=quantity)
    assert info.value.field == "quantity"


def test_the_refusal_says_how_many_there_are(asphodel, brom, campaign):
    spikes = stack(asphodel)
    with refused("quantity_more_than_held") as info:
        transfers.item_give(item=spikes, to_character=brom, by=asphodel.owner, quantity=12)
    assert info.value.message == (
        f"{asphodel.display_name} holds only 10 of Iron spikes: give at most 10.")
    transfers.item_give(item=spikes, to_stash=campaign, by=asphodel.owner)
    with refused("quantity_more_than_held") as info:
        transfers.item_take_from_stash(item=spikes, to_character=brom, by=brom.owner,
                                       quantity=12)
    assert info.value.message == "The party stash holds only 10 of Iron spikes: take at most 10."


def test_a_container_holding_things_goes_whole(asphodel, brom, campaign):
    sacks = add(asphodel, "Sack, small", quantity=2)
    add(asphodel, "Lantern", container=sacks)
    with refused("container_not_split") as info:
        transfers.item_give(item=sacks, to_character=brom, by=asphodel.owner, quantity=1)
    assert info.value.field == "quantity"
    assert "a container goes whole" in info.value.message
    transfers.item_give(item=sacks, to_stash=campaign, by=asphodel.owner, quantity=2)
    with refused("container_not_split"):
        transfers.item_take_from_stash(item=sacks, to_character=brom, by=brom.owner,
                                       quantity=1)
    # Empty, a stack of containers splits like any other.
    empty = add(asphodel, "Sack, small", quantity=2)
    transfers.item_give(item=empty, to_character=brom, by=asphodel.owner, quantity=1)
    empty.refresh_from_db()
    assert empty.quantity == 1


def test_a_quantity_refusal_after_the_item_is_gone_keeps_its_code(asphodel, brom):
    spikes = stack(asphodel)
    transfers.item_give(item=spikes, to_character=brom, by=asphodel.owner)
    with refused("no_such_item"):
        transfers.item_give(item=spikes, from_character=asphodel, to_character=brom,
                            by=asphodel.owner, quantity=3)
