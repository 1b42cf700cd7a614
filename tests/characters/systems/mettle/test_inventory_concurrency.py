"""METTLE purchases and their undo under concurrency (PostgreSQL only): many clicks at
once buy once, never spend more Credit than there is, and undo once."""

import pytest

from characters.inventory import InventoryError
from characters.models import InventoryItem
from characters.systems.mettle import inventory
from characters.systems.mettle.models import CreditEntry
from tests.concurrency import needs_postgresql, run_at_once

from .helpers import make_viktor

pytestmark = [pytest.mark.django_db(transaction=True), needs_postgresql]


def test_ten_clicks_with_one_key_buy_once(user):
    viktor = make_viktor(user)
    results = run_at_once(10, lambda i: inventory.item_buy(
        character=viktor, by=user, key="Armour:Medium (Chain)", request_key="one-click"))
    assert [r for r in results if isinstance(r, Exception)] == []
    assert InventoryItem.objects.filter(character=viktor, name="Medium (Chain)").count() == 1
    assert CreditEntry.objects.filter(character=viktor).count() == 1
    assert inventory.current_credit(viktor) == 1


def test_ten_purchases_one_digit_over_at_once_cost_one_point(user):
    viktor = make_viktor(user)  # Credit 2: a Cost of 3 is one digit over, once
    results = run_at_once(10, lambda i: inventory.item_buy(
        character=viktor, by=user, key="Armour:Flak Jacket"))
    bought = [r for r in results if isinstance(r, inventory.Bought)]
    refused = [r for r in results if isinstance(r, InventoryError)]
    assert len(bought) == 1 and len(refused) == 9
    assert {r.code for r in refused} == {"over_credit"}
    assert inventory.current_credit(viktor) == 1


def test_ten_undo_clicks_undo_once(user):
    viktor = make_viktor(user)
    entry = inventory.item_buy(character=viktor, by=user, key="Armour:Flak Jacket").entry
    results = run_at_once(10, lambda i: inventory.credit_entry_reverse(
        character=viktor, entry=entry.pk, by=user))
    assert len([r for r in results if isinstance(r, CreditEntry)]) == 1
    assert {r.code for r in results if isinstance(r, InventoryError)} == {"already_reversed"}
    assert inventory.current_credit(viktor) == 2
