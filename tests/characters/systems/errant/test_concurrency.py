"""Many clicks at once on an Errant's sheet (PostgreSQL): the row lock makes them land one
after the other, and the Depletion each page showed makes a burst of the same click
count once."""

import pytest

from characters.systems.errant import services
from characters.systems.errant.models import ErrantCharacter
from tests.concurrency import needs_postgresql, run_at_once

from .helpers import make_wren

pytestmark = [pytest.mark.django_db(transaction=True), needs_postgresql]


def test_eight_uses_of_the_same_page_burn_the_torch_once(user):
    errant = make_wren(user)
    index = next(i for i, line in enumerate(errant.gear) if line["name"] == "Torch")
    results = run_at_once(8, lambda _: services.item_use(
        character=errant, index=index, name="Torch", action="use", seen=2))
    done = [r for r in results if isinstance(r, tuple)]
    refused = [r for r in results if isinstance(r, services.MoveRefused)]
    assert (len(done), len(refused)) == (1, 7), results
    torch = ErrantCharacter.objects.get(pk=errant.pk).gear[index]
    assert torch["uses"] == 1


def test_moves_at_once_keep_every_other_line(user):
    errant = make_wren(user)
    names = [line["name"] for line in errant.gear]
    targets = ["handy", "worn", "hand", "backpack", "container", "worn", "handy", "hand"]
    results = run_at_once(8, lambda i: services.item_move(
        character=errant, index=i, name=names[i], location=targets[i]))
    assert not [r for r in results if isinstance(r, Exception)], results
    gear = ErrantCharacter.objects.get(pk=errant.pk).gear
    assert [line["location"] for line in gear[:8]] == targets
    assert [line["name"] for line in gear] == names


def _purse(errant, pennies):
    from characters.models import CoinEntry

    CoinEntry.objects.create(character=errant, kind=CoinEntry.Kind.ADJUSTMENT,
                             amount_cp=pennies)


def test_a_burst_of_the_same_purchase_buys_once(user):
    from characters.systems.errant import market

    errant = make_wren(user)
    _purse(errant, 100)
    results = run_at_once(8, lambda _: market.buy(character=errant, key="Light|Lantern",
                                                  by=user, tier=3, request_key="once"))
    assert not [r for r in results if isinstance(r, Exception)], results
    assert len({r.pk for r in results}) == 1
    errant = ErrantCharacter.objects.get(pk=errant.pk)
    assert errant.coins_cp == 70
    assert [line["name"] for line in errant.gear].count("Lantern") == 1


def test_purchases_at_once_never_spend_more_than_the_purse(user):
    from characters.systems.errant import market

    errant = make_wren(user)
    _purse(errant, 100)  # three lanterns' worth
    results = run_at_once(8, lambda i: market.buy(character=errant, key="Light|Lantern",
                                                  by=user, tier=3, request_key=f"k{i}"))
    refused = [r for r in results if isinstance(r, market.TradeRefused)]
    assert len(refused) == 5, results
    errant = ErrantCharacter.objects.get(pk=errant.pk)
    assert errant.coins_cp == 10
    assert [line["name"] for line in errant.gear].count("Lantern") == 3
