"""Errant money, buying and selling (market.py): the purse in pennies from the coin
ledger, coins filling slots, purchases refused by Rarity, availability or money, sales at
the resale rate, one trade per request key, the latest trade undone."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from characters.models import CoinEntry, InventoryItem
from characters.systems.errant import market
from characters.systems.errant.builds import coin_count, sheet_for
from characters.systems.errant.inventory import new_line
from characters.systems.errant.models import ErrantCharacter, ErrantTrade
from tests.factories import UserFactory

from .helpers import make_wren

pytestmark = pytest.mark.django_db
LANTERN = "Light|Lantern"


def fresh(character):
    return ErrantCharacter.objects.get(pk=character.pk)


def pay(character, pennies):
    CoinEntry.objects.create(character=character, kind=CoinEntry.Kind.ADJUSTMENT,
                             amount_cp=pennies)


def names(character):
    return [line["name"] for line in fresh(character).gear]


@pytest.fixture
def wren_():
    return make_wren(UserFactory())


def test_the_price_tables_give_items_with_sizes_and_rarity():
    lantern = market.goods()[LANTERN]
    assert (lantern.name, lantern.price, lantern.quarters, lantern.rarity) == (
        "Lantern", 30, 4, 3)
    torch = market.good_named("Torch")
    assert (torch.uses, torch.quarters, torch.kind) == (2, 2, "light")
    assert market.goods()["Weapons|Weapon, heavy"].graded
    # Animals, buildings, retainers are not gear.
    assert not any(good.table == "Retainers" for good in market.goods().values())


@pytest.mark.parametrize(("name", "quarters"), [("Backpack", 0), ("Sack", 0), ("Pouch", 0),
                                               ("Basket", 0), ("Sack, oilskin", 0),
                                               ("Barrel", 40), ("Chest", 20)])
def test_large_containers_fill_item_slots_and_small_ones_none(name, quarters):
    """PR §Containers: "Backpacks, sacks, pouches, and other such containers do not fill
    Item Slots themselves, though larger containers such as barrels and treasure chests
    do": the GS column is the slots filled ("-": none; AMB-E-GEAR-4)."""
    good = market.goods()[f"Containers|{name}"]
    assert (good.kind, good.quarters) == ("container", quarters)


def test_a_bought_chest_fills_five_item_slots(wren_):
    pay(wren_, 1_000)
    slots = sheet_for(fresh(wren_)).value("slots_filled")
    market.buy(character=wren_, key="Containers|Chest", by=wren_.owner, tier=3)
    assert names(wren_)[-1] == "Chest"
    assert sheet_for(fresh(wren_)).value("slots_filled") == slots + 5


@pytest.mark.parametrize(("pennies", "coins"), [(0, 0), (9, 9), (10, 1), (111, 3),
                                                (199, 19), (250, 7), (10_000, 100)])
def test_the_purse_is_carried_in_the_fewest_coins(pennies, coins):
    assert coin_count(pennies) == coins
    purse = market.purse(pennies)
    assert purse["guilders"] * 100 + purse["shillings"] * 10 + purse["pence"] == pennies


def test_coins_fill_item_slots_a_hundred_to_a_slot(wren_):
    before = sheet_for(fresh(wren_)).value("slots_filled")
    pay(wren_, 2_400)  # 24 guilders: 24 coins fill no quarter (AMB-E31)
    assert sheet_for(fresh(wren_)).value("slots_filled") == before
    pay(wren_, 100)  # 25 guilders: a quarter slot
    assert sheet_for(fresh(wren_)).value("slots_filled") == before + Fraction(1, 4)
    pay(wren_, 99)  # 25 g 9 s 9 p: 43 coins (not 2,599 pennies: 6 slots)
    assert sheet_for(fresh(wren_)).value("slots_filled") == before + Fraction(1, 4)


def test_an_errant_starts_with_no_money(wren_):
    assert fresh(wren_).coins_cp == 0
    with pytest.raises(market.TradeRefused, match="costs 3 s; Wren has 0 p"):
        market.buy(character=wren_, key=LANTERN, by=wren_.owner, tier=3)


def test_buying_a_lantern_takes_the_money_and_adds_the_line(wren_):
    pay(wren_, 100)
    slots = sheet_for(fresh(wren_)).value("slots_filled")
    trade = market.buy(character=wren_, key=LANTERN, by=wren_.owner, tier=3)
    assert fresh(wren_).coins_cp == 70
    assert trade.entry.kind == CoinEntry.Kind.PURCHASE and trade.entry.amount_cp == -30
    assert names(wren_)[-1] == "Lantern"
    lantern = fresh(wren_).gear[-1]
    assert (lantern["quarters"], lantern["location"], lantern["kind"]) == (4, "backpack", "light")
    assert sheet_for(fresh(wren_)).value("slots_filled") == slots + 1


def test_a_purchase_above_the_settlements_tier_is_refused(wren_):
    pay(wren_, 100)
    with pytest.raises(market.TradeRefused, match="Rarity 3"):
        market.buy(character=wren_, key=LANTERN, by=wren_.owner, tier=2)
    assert fresh(wren_).coins_cp == 100 and "Lantern" not in names(wren_)


def test_quality_changes_price_and_rarity_for_weapons_only(wren_):
    pay(wren_, 1_000)
    market.buy(character=wren_, key="Weapons|Weapon, medium", by=wren_.owner, tier=3,
               grade="masterwork")
    assert fresh(wren_).coins_cp == 900  # 50 x 2
    assert fresh(wren_).gear[-1]["quality"] == 3
    with pytest.raises(market.TradeRefused, match="Rarity 3"):  # 2 + 1 in a village
        market.buy(character=wren_, key="Weapons|Weapon, medium", by=wren_.owner, tier=2,
                   grade="masterwork")
    with pytest.raises(market.TradeRefused, match="one Quality"):
        market.buy(character=wren_, key=LANTERN, by=wren_.owner, tier=5, grade="shoddy")


class Dice(random.Random):
    def __init__(self, face):
        super().__init__()
        self.face = face

    def randint(self, low, high):
        return self.face


def test_the_availability_test_is_rolled_when_asked(wren_):
    pay(wren_, 100)
    with pytest.raises(market.TradeRefused, match="rolled 71 on the D100, above 70"):
        market.buy(character=wren_, key=LANTERN, by=wren_.owner, tier=3,
                   test_availability=True, rng=Dice(71))
    trade = market.buy(character=wren_, key=LANTERN, by=wren_.owner, tier=3,
                       test_availability=True, rng=Dice(70))
    assert "availability 70 of 70" in trade.entry.note


def test_the_same_request_buys_once(wren_):
    pay(wren_, 100)
    first = market.buy(character=wren_, key=LANTERN, by=wren_.owner, tier=3,
                       request_key="k1")
    again = market.buy(character=wren_, key=LANTERN, by=wren_.owner, tier=3,
                       request_key="k1")
    assert first.pk == again.pk and fresh(wren_).coins_cp == 70
    assert names(wren_).count("Lantern") == 1


def test_selling_pays_the_resale_rate_and_removes_the_line(wren_):
    torch = next(line for line in InventoryItem.objects.filter(character=wren_)
                 if line.name == "Torch")
    stone = new_line(wren_, {"name": "Lucky stone", "quarters": 1})
    with pytest.raises(market.TradeRefused, match="no price"):
        market.sell(character=wren_, item_pk=stone.pk, by=wren_.owner, tier=5)
    # The kit's names are the tables' rows: "Medium weapon" is "Weapon, medium".
    assert market.resale(next(line for line in fresh(wren_).gear
                              if line["name"] == "Medium weapon"))[1:] == (10, 2)
    trade = market.sell(character=wren_, item_pk=torch.pk, by=wren_.owner, tier=2)
    # Torch: 5 p, Rarity 2: 20% (AMB-E16) = 1 p.
    assert trade.entry.amount_cp == 1 and "Torch" not in names(wren_)
    with pytest.raises(market.TradeRefused, match="no longer"):
        market.sell(character=wren_, item_pk=torch.pk, by=wren_.owner, tier=2)


def test_the_latest_trade_is_undone_once(wren_):
    pay(wren_, 100)
    market.buy(character=wren_, key=LANTERN, by=wren_.owner, tier=3)
    torch = InventoryItem.objects.get(character=wren_, name="Torch")
    sale = market.sell(character=wren_, item_pk=torch.pk, by=wren_.owner, tier=3)
    purchase = ErrantTrade.objects.get(kind="purchase")
    with pytest.raises(market.TradeRefused, match="latest"):
        market.undo(character=wren_, trade_pk=purchase.pk, by=wren_.owner)
    market.undo(character=wren_, trade_pk=sale.pk, by=wren_.owner)
    assert "Torch" in names(wren_) and fresh(wren_).coins_cp == 70
    assert fresh(wren_).gear[names(wren_).index("Torch")]["uses"] == 2
    market.undo(character=wren_, trade_pk=purchase.pk, by=wren_.owner)
    assert "Lantern" not in names(wren_) and fresh(wren_).coins_cp == 100
    assert market.latest_trade(wren_) is None
    assert CoinEntry.objects.filter(kind=CoinEntry.Kind.REVERSAL).count() == 2


def test_a_purchase_given_away_cannot_be_undone(wren_):
    pay(wren_, 100)
    trade = market.buy(character=wren_, key=LANTERN, by=wren_.owner, tier=3)
    InventoryItem.objects.filter(pk=trade.item_id).delete()
    with pytest.raises(market.TradeRefused, match="no longer all here"):
        market.undo(character=wren_, trade_pk=trade.pk, by=wren_.owner)
    assert fresh(wren_).coins_cp == 70
