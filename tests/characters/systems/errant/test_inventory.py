"""An Errant's gear as generic inventory lines with their ErrantItem: the builder writes
one line per row, moves and uses change one row, duplicating copies the ErrantItems, and
the campaign's transfers (to another Errant, into the Company's store and out) carry the
ErrantItem with the line (a split part gets a copy)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from campaigns import transfers
from characters.models import Character, InventoryItem
from characters.services import character_duplicate
from characters.systems.errant import inventory, services
from characters.systems.errant.builds import sheet_for
from characters.systems.errant.demo import wren
from characters.systems.errant.models import ErrantCharacter, ErrantItem
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

from .helpers import make_wren

pytestmark = pytest.mark.django_db


def fresh(character) -> ErrantCharacter:
    return ErrantCharacter.objects.get(pk=character.pk)


def line_named(character, name) -> InventoryItem:
    return next(line for line in inventory.carried_lines(fresh(character)) if line.name == name)


def test_the_builder_writes_one_line_per_row_with_its_errant_item():
    errant = make_wren(UserFactory())
    lines = inventory.carried_lines(errant)
    assert len(lines) == len(wren()["gear"])
    assert ErrantItem.objects.filter(item__character=errant).count() == len(lines)
    assert fresh(errant).gear == wren()["gear"]
    # The generic kind follows the Errant kind for weapons and shields.
    assert line_named(errant, "Shield, small").kind == InventoryItem.Kind.SHIELD


def test_an_update_rewrites_only_changed_rows_and_removes_the_rest():
    errant = make_wren(UserFactory())
    first = inventory.carried_lines(errant)
    gear = wren()["gear"][:-1]
    gear[0] = {**gear[0], "location": "handy"}
    services.character_update(character=errant, data={**wren(), "gear": gear}, by=errant.owner)
    after = inventory.carried_lines(fresh(errant))
    # The same rows (pks) are kept: the transfer history points at them.
    assert [line.pk for line in after] == [line.pk for line in first[:-1]]
    assert fresh(errant).gear == gear


def test_a_move_updates_the_one_errant_item_row():
    errant = make_wren(UserFactory())
    index = next(i for i, line in enumerate(errant.gear) if line["name"] == "Torch")
    services.item_move(character=errant, index=index, name="Torch", location="handy")
    assert line_named(errant, "Torch").errant_item.location == "handy"
    with pytest.raises(services.MoveRefused):
        services.item_move(character=errant, index=index, name="Rope", location="worn")


def test_a_duplicate_has_its_own_lines_and_errant_items():
    errant = make_wren(UserFactory())
    source = Character.objects.with_progress().get(pk=errant.pk)
    copy = character_duplicate(character=source, by=errant.owner)
    assert fresh(copy).gear == fresh(errant).gear
    copied = inventory.carried_lines(fresh(copy))
    assert all(line.errant_item.item_id == line.pk for line in copied)
    assert not {line.pk for line in copied} & {line.pk for line in
                                               inventory.carried_lines(errant)}


def test_the_stash_counts_item_slots():
    errant = make_wren(UserFactory())
    lines = inventory.carried_lines(errant)
    loads, total = inventory.stash_loads(lines)
    torch = line_named(errant, "Torch")
    assert loads[torch.pk].load == Fraction(1, 2)  # ER §Select Starting Equipment: 1/2 slot
    assert total == sum((Fraction(line["quarters"] * line["quantity"], 4)
                         for line in wren()["gear"]), Fraction(0))


@pytest.fixture
def party():
    campaign = CampaignFactory(system="errant")
    one = make_wren(MembershipFactory(campaign=campaign).user, name="Wren")
    two = make_wren(MembershipFactory(campaign=campaign).user, name="Odo")
    Character.objects.filter(pk__in=[one.pk, two.pk]).update(campaign=campaign)
    return campaign, fresh(one), fresh(two)


def test_an_item_given_to_another_errant_keeps_its_errant_item_and_lands_in_the_backpack(party):
    campaign, wren_, odo = party
    index = next(i for i, line in enumerate(wren_.gear) if line["name"] == "Torch")
    services.item_move(character=wren_, index=index, name="Torch", location="hand")
    torch = line_named(wren_, "Torch")
    odo_slots = sheet_for(fresh(odo)).value("slots_filled")
    transfers.item_give(item=torch, by=wren_.owner, to_character=odo, from_character=wren_)
    given = [line for line in fresh(odo).gear if line["name"] == "Torch"]
    assert len(given) == 2 and given[-1]["location"] == "backpack"
    assert given[-1]["uses"] == 2 and given[-1]["quarters"] == 2
    assert [line["name"] for line in fresh(wren_).gear].count("Torch") == 0
    assert sheet_for(fresh(odo)).value("slots_filled") == odo_slots + Fraction(1, 2)


def test_part_of_a_stack_put_in_the_companys_store_copies_its_errant_item(party):
    campaign, wren_, _ = party
    supply = line_named(wren_, "Supply")
    assert supply.quantity == 4
    transfers.item_give(item=supply, by=wren_.owner, to_stash=campaign, quantity=1)
    stored = InventoryItem.objects.get(stash=campaign)
    assert (stored.quantity, stored.errant_item.kind, stored.errant_item.quarters) == (
        1, "supply", 1)
    assert line_named(wren_, "Supply").quantity == 3
    loads, total = inventory.stash_loads([stored])
    assert total == Fraction(1, 4)
    # And out again, into Wren's backpack.
    transfers.item_take_from_stash(item=stored, to_character=wren_, by=wren_.owner)
    assert [line["quantity"] for line in fresh(wren_).gear
            if line["name"] == "Supply"] == [3, 1]


def test_exhaustion_fills_a_slot_each_beside_the_lines():
    errant = make_wren(UserFactory())
    lines = sum((Fraction(line["quarters"] * line["quantity"], 4) for line in errant.gear),
                Fraction(0))
    assert sheet_for(fresh(errant)).value("slots_filled") == lines
    tired = make_wren(UserFactory(), exhaustion=2)  # PR §Exhaustion: a slot each
    assert sheet_for(fresh(tired)).value("slots_filled") == lines + 2
