"""Damage die steps, Quality, Blocks, Depletion and Supply, money and prices (Errant SRD,
IT §Attack Rolls; PR §Weapons ... §Currency, §Rarity)."""

from fractions import Fraction as F

import pytest

from rules.engine.errant import gear as G
from rules.engine.errant.data import goods_tables


@pytest.mark.parametrize(("die", "enhance", "impair", "result"), [
    (8, 1, 0, 10), (8, 2, 0, 12), (8, 0, 1, 6), (8, 0, 2, 4),  # IT's own examples
    (8, 2, 2, 8), (6, 0, 3, 1), (4, 0, 5, 1), (12, 3, 0, 20), (1, 1, 0, 4)])
def test_enhance_and_impair(die, enhance, impair, result):
    assert G.step_damage_die(die, enhance, impair) == result


def test_the_scale_and_its_ends():
    assert G.die_label(G.step_damage_die(4, impair=1)) == "1"
    assert G.impaired_to_one(G.step_damage_die(6, impair=2))
    assert G.die_label(20) == "D20"
    with pytest.raises(ValueError):
        G.step_damage_die(7)


def test_weapon_sizes():
    assert G.weapon_damage_bonus("heavy") == 1
    assert G.weapon_damage_bonus("light") == -1
    assert G.weapon_damage_bonus("light", dual_wielding=True) == 0
    assert G.damage_total(1, -1) == 1  # "to a minimum of 1"
    assert G.damage_total(3, 1) == 4


def test_quality():
    assert [G.quality_value(g) for g in ("shoddy", "average", "masterwork")] == [1, 2, 3]
    assert G.lose_quality(2) == 1 and G.lose_quality(1, 3) == 0
    assert G.is_destroyed(0) and not G.is_destroyed(1)
    assert G.quality_price(25, "shoddy") == 12  # half, rounded down
    assert G.quality_price(50, "masterwork") == 100
    assert G.quality_rarity(2, "shoddy") == 1 and G.quality_rarity(2, "masterwork") == 3


def test_blocks():
    # PR §Armour: 2 Blocks from a large shield impair 2 steps and leave 4.
    assert G.block(6, 2) == (2, 4)
    with pytest.raises(ValueError):
        G.block(1, 2)


@pytest.mark.parametrize(("slots", "supply"), [(F(1, 4), 1), (F(1, 2), 2), (F(1), 4),
                                                (F(2), 8)])
def test_supply_to_restore(slots, supply):
    # PR §Supply: 1/4 -> 1, 1/2 -> 2, 1 -> 4 ("4 Supply per Item Slot", QR).
    assert G.supply_to_restore(slots) == supply


def test_restore_or_remove():
    assert G.restore(F(1, 2), 4) == G.Restore(True, False, 2, 2)
    assert G.restore(F(1), 3) == G.Restore(False, True, 3, 0)
    assert G.deplete(2) == 1 and G.deplete(0) == 0


def test_money():
    assert G.money(125) == (1, 2, 5)
    assert G.money_label(125) == "1 g 2 s 5 p"
    assert G.money_label(0) == "0 p"
    assert G.money_label(30) == "3 s"
    with pytest.raises(ValueError):
        G.money(-1)


def test_rarity():
    assert G.resale_value(100, 1) == 10 and G.resale_value(100, 5) == 50
    assert G.resale_value(100, 3) == 30  # AMB-E16
    assert G.p_available(1) == F(9, 10) and G.p_available(5) == F(1, 2)
    assert G.freely_traded(3, 3) and not G.freely_traded(4, 3)


def test_price_table_cells():
    assert G.parse_price("1,000") == 1000
    assert G.parse_price("×4") is None and G.parse_price("1/night") is None
    assert G.parse_slots("½") == F(1, 2) and G.parse_slots("2") == 2
    assert G.parse_slots("") is None


def test_the_price_tables_ship_with_the_kit_items():
    rows = {row["name"]: row for table in goods_tables() for row in table["rows"]}
    assert G.parse_price(rows["Torch"]["price"]) == 5
    assert G.parse_slots(rows["Torch"]["slots"]) == F(1, 2)
    # AMB-E17: GS prices the bedroll at 1/2 slot (ER's kit says 1).
    assert G.parse_slots(rows["Bedroll"]["slots"]) == F(1, 2)
    assert G.parse_price(rows["Supply"]["price"]) == G.SUPPLY_PRICE
