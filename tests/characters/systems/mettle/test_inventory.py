"""METTLE Core's gear as inventory lines (issue #13; next-games.md M8, M10, M11, AMB-M14;
docs/RULES.md AMB-M-GEAR-1..3): Load from the tables by name, containers, drop and pick
up, worn armour's Soak and POISE burden, Credit purchases (affordable, one digit over
for a point of Credit until the next campaign, refused beyond), the Credit ledger's undo
and restore, and what joining, leaving and duplicating do."""

import pytest
from django.urls import reverse

from campaigns import services as campaign_services
from characters.inventory import InventoryError
from characters.models import InventoryItem
from characters.services import character_duplicate
from characters.systems.mettle import inventory
from characters.systems.mettle.builds import sheet_for
from characters.systems.mettle.inventory import legacy_gear, lines_of
from characters.systems.mettle.models import CreditEntry, MettleCharacter, MettleWeapon
from rules.engine.mettle.sheet import Purchase
from tests.factories import CampaignFactory

from .helpers import make_viktor, posted, stats

pytestmark = pytest.mark.django_db


def line(character, name) -> InventoryItem:
    return InventoryItem.objects.get(character=character, name=name)


def value(character, name):
    return sheet_for(MettleCharacter.objects.get(pk=character.pk)).value(name)


def test_viktors_numbers_come_from_his_lines(user):
    viktor = make_viktor(user)
    assert [item.name for item in lines_of(viktor)] == [
        "Sword cane", "Brown suit", "Modest apartment", "Deck of cards", "Pocket knife",
        "Pocket watch and fob"]
    assert line(viktor, "Sword cane").mettle_weapon.weapon == "Sword"
    sheet = sheet_for(viktor)
    # Characters > Example Character: Load 1 of 3, Soak 3, the sword cane 5D / DM 5.
    assert (sheet.value("load"), sheet.value("load_capacity"), sheet.value("soak")) == (1, 3, 3)
    assert [(w.name, w.pool, w.dm) for w in sheet.weapons] == [("Sword cane", 5, 5)]


@pytest.mark.parametrize(("credit", "cost", "verdict"), [
    (2, 2, Purchase.AFFORDABLE), (2, 1, Purchase.AFFORDABLE), (2, 3, Purchase.COSTS_CREDIT),
    (2, 4, Purchase.REFUSED), (0, 1, Purchase.REFUSED), (1, 2, Purchase.COSTS_CREDIT),
])
def test_the_verdict_follows_the_digits(user, credit, cost, verdict):
    viktor = make_viktor(user, credit=credit)
    row = next(row for row in inventory.TABLE if row.cost == cost)
    assert inventory.verdict_for(viktor, row) is verdict


def test_an_affordable_purchase_costs_no_credit(user):
    viktor = make_viktor(user)  # Credit 2
    bought = inventory.item_buy(character=viktor, by=user, key="Weapons:Axe")  # Cost 2
    assert bought.verdict is Purchase.AFFORDABLE and bought.entry.change == 0
    assert bought.item.mettle_weapon.weapon == "Axe"
    assert inventory.current_credit(viktor) == 2 and value(viktor, "credit") == 2
    assert value(viktor, "load") == 2  # the sword cane and the axe, Load 1 each


def test_one_digit_over_costs_a_point_of_credit_until_restored(user):
    viktor = make_viktor(user)  # Credit 2
    bought = inventory.item_buy(character=viktor, by=user, key="Armour:Medium (Chain)",
                                request_key="k1")  # Cost 3
    assert bought.verdict is Purchase.COSTS_CREDIT and bought.entry.change == 1
    assert (inventory.current_credit(viktor), value(viktor, "credit")) == (1, 1)
    assert value(viktor, "credit_afford") == 9
    # The same click again buys nothing more.
    again = inventory.item_buy(character=viktor, by=user, key="Armour:Medium (Chain)",
                               request_key="k1")
    assert again.item is None and lines_of(viktor)[-1].name == "Medium (Chain)"
    assert InventoryItem.objects.filter(character=viktor, name="Medium (Chain)").count() == 1
    # Now Credit 1: a Cost of 3 is two digits over.
    with pytest.raises(InventoryError) as refused:
        inventory.item_buy(character=viktor, by=user, key="Armour:Medium (Chain)")
    assert refused.value.code == "over_credit" and refused.value.field == "key"
    restored = inventory.credit_restore(character=viktor, by=user)
    assert restored.change == -1 and inventory.current_credit(viktor) == 2
    assert inventory.credit_restore(character=viktor, by=user) is None


def test_more_than_one_digit_over_is_refused_and_nothing_written(user):
    viktor = make_viktor(user)
    before = InventoryItem.objects.count()
    with pytest.raises(InventoryError) as refused:
        inventory.item_buy(character=viktor, by=user, key="Armour:Heavy (Plate)")  # Cost 4
    assert "out of reach" in refused.value.message
    assert InventoryItem.objects.count() == before and not CreditEntry.objects.exists()


def test_undoing_a_purchase_gives_the_credit_back_and_takes_the_line(user):
    viktor = make_viktor(user)
    bought = inventory.item_buy(character=viktor, by=user, key="Armour:Medium (Chain)")
    reversal = inventory.credit_entry_reverse(character=viktor, entry=bought.entry, by=user)
    assert reversal.change == -1 and inventory.current_credit(viktor) == 2
    assert not InventoryItem.objects.filter(pk=bought.item.pk).exists()
    for entry, code in ((bought.entry, "already_reversed"), (reversal, "reversal_of_reversal"),
                        (999_999, "no_such_entry")):
        with pytest.raises(InventoryError) as refused:
            inventory.credit_entry_reverse(character=viktor, entry=entry, by=user)
        assert refused.value.code == code


def test_unknown_rows_and_containers_are_refused(user, other_user):
    viktor = make_viktor(user)
    other = make_viktor(other_user)
    pack = inventory.item_buy(character=other, by=other_user,
                              key="Common loads:Backpack, small & filled with gear").item
    for kwargs, code in (({"key": "Weapons:Laser"}, "no_such_gear"),
                         ({"key": "Weapons:Axe", "container": pack.pk}, "no_such_container"),
                         ({"key": "Weapons:Axe", "container": line(viktor, "Brown suit").pk},
                          "not_a_container")):
        with pytest.raises(InventoryError) as refused:
            inventory.item_buy(character=viktor, by=user, **kwargs)
        assert refused.value.code == code


def test_containers_drop_and_pick_up(user):
    viktor = make_viktor(user)
    pack = inventory.item_buy(character=viktor, by=user,
                              key="Common loads:Backpack, large & filled with gear").item
    assert value(viktor, "load") == 3  # sword cane 1 + large pack 2
    rope = inventory.item_add_free(character=viktor, name="Rope", load=1, quantity=2,
                                   container=pack.pk)
    assert rope.container_id == pack.pk
    assert (value(viktor, "load"), value(viktor, "encumbrance")) == (5, "encumbered")
    inventory.item_drop(character=viktor, item=pack)  # with everything in it
    assert value(viktor, "load") == 1
    inventory.item_pick_up(character=viktor, item=pack)
    assert value(viktor, "load") == 5
    inventory.item_move(character=viktor, item=rope, container=None)
    assert InventoryItem.objects.get(pk=rope.pk).container_id is None
    with pytest.raises(InventoryError) as refused:
        inventory.item_move(character=viktor, item=pack, container=pack.pk)
    assert refused.value.code == "container_cycle"
    removed = inventory.item_remove(character=viktor, item=pack)
    assert removed == "Backpack, large & filled with gear"


def test_load_over_twice_frame_incapacitates(user):
    viktor = make_viktor(user)  # FRAME 3
    inventory.item_add_free(character=viktor, name="Body", load=4, quantity=1)
    assert (value(viktor, "load"), value(viktor, "encumbrance")) == (5, "encumbered")
    inventory.item_add_free(character=viktor, name="Anvil", load=1, quantity=1)
    assert value(viktor, "encumbrance") == "encumbered"  # 6 is exactly twice: AMB-M5
    inventory.item_add_free(character=viktor, name="Pebble", load=1, quantity=1)
    assert value(viktor, "encumbrance") == "incapacitated"
    assert "incapacitated" in sheet_for(viktor).statuses


def test_worn_armour_adds_soak_and_its_burden_lowers_poise(user):
    viktor = make_viktor(user, credit=4)
    plate = inventory.item_buy(character=viktor, by=user, key="Armour:Heavy (Plate)").item
    assert value(viktor, "soak") == 3  # carried, not worn
    inventory.item_wear(character=viktor, item=plate)
    sheet = sheet_for(viktor)
    # RS §Armor: Soak FRAME 3 + 3; Load 1 + 3 = 4 over FRAME 3 lowers POISE 2 by 1 (AMB-M6).
    assert (sheet.value("soak"), sheet["poise"].display) == (6, "2(1)")
    inventory.item_drop(character=viktor, item=plate)
    assert value(viktor, "soak") == 3
    with pytest.raises(InventoryError) as refused:
        inventory.item_wear(character=viktor, item=line(viktor, "Brown suit"))
    assert refused.value.code == "not_wearable"


def test_free_items_are_checked(user):
    viktor = make_viktor(user)
    for kwargs, code in (({"name": " ", "load": 0}, "name_required"),
                         ({"name": "x" * 121, "load": 0}, "name_too_long"),
                         ({"name": "Crate", "load": 100}, "load_out_of_range"),
                         ({"name": "Crate", "load": None}, "load_out_of_range"),
                         ({"name": "Crate", "load": 1, "quantity": 0}, "quantity_out_of_range")):
        with pytest.raises(InventoryError) as refused:
            inventory.item_add_free(character=viktor, **kwargs)
        assert refused.value.code == code


def test_the_builder_keeps_packed_and_dropped_lines(user):
    viktor = make_viktor(user)
    pack = inventory.item_buy(character=viktor, by=user, key="Standard kits:Explorer's pack").item
    inventory.item_move(character=viktor, item=line(viktor, "Deck of cards"), container=pack)
    inventory.item_drop(character=viktor, item=line(viktor, "Brown suit"))
    gear = legacy_gear(lines_of(viktor))
    from characters.systems.mettle import services
    services.character_update(character=viktor, by=user, data={
        "name": "Viktor", "armor": "", "weapons": gear["weapons"],
        "gear": [g for g in gear["gear"] if g["name"] != "Pocket knife"]})
    assert line(viktor, "Deck of cards").container_id == pack.pk
    assert line(viktor, "Brown suit").dropped
    assert not InventoryItem.objects.filter(character=viktor, name="Pocket knife").exists()


def test_join_and_leave_restore_the_credit(user):
    campaign = CampaignFactory(system="mettle-core", owner=user)
    viktor = make_viktor(user)
    inventory.item_buy(character=viktor, by=user, key="Armour:Medium (Chain)")
    assert inventory.current_credit(viktor) == 1
    campaign_services.character_join(campaign=campaign, character=viktor, by=user)
    assert inventory.current_credit(viktor) == 2
    inventory.item_buy(character=viktor, by=user, key="Armour:Flak Jacket")
    assert inventory.current_credit(viktor) == 1
    campaign_services.character_leave(character=viktor, by=user)
    assert inventory.current_credit(viktor) == 2
    kinds = list(CreditEntry.objects.filter(character=viktor).values_list("kind", "change"))
    assert kinds == [("purchase", 1), ("restored", -1), ("purchase", 1), ("restored", -1)]


def test_a_duplicate_keeps_its_weapons_and_credit_lost(user):
    viktor = make_viktor(user)
    inventory.item_buy(character=viktor, by=user, key="Armour:Flak Jacket")
    copy = character_duplicate(character=viktor, by=user)
    assert inventory.current_credit(copy) == inventory.current_credit(viktor) == 1
    assert MettleWeapon.objects.filter(item__character=copy).get().weapon == "Sword"
    assert [(w.name, w.pool, w.dm) for w in sheet_for(
        MettleCharacter.objects.get(pk=copy.pk)).weapons] == [("Sword cane", 5, 5)]


def test_stash_loads_weigh_by_the_tables(user):
    viktor = make_viktor(user)
    pack = inventory.item_buy(character=viktor, by=user,
                              key="Common loads:Footlocker or chest").item
    inventory.item_add_free(character=viktor, name="Gold", load=1, quantity=2, container=pack)
    loads, total = inventory.stash_loads(lines_of(viktor))
    assert loads[pack.pk].load == 3 and loads[pack.pk].inside == 2
    assert loads[line(viktor, "Sword cane").pk].load == 1 and total == 6


def test_the_builder_preview_counts_the_lines_as_the_save_leaves_them(client, user):
    client.force_login(user)
    player = client
    viktor = make_viktor(user)
    pack = inventory.item_buy(character=viktor, by=user,
                              key="Common loads:Backpack, large & filled with gear").item
    inventory.item_add_free(character=viktor, name="Rope", load=1, quantity=1,
                            container=pack)
    inventory.item_drop(character=viktor, item=pack)
    gear = ("Brown suit\nModest apartment\nDeck of cards\nPocket knife\nPocket watch and fob\n"
            "Backpack, large & filled with gear\nRope (Load 1)")
    response = player.post(reverse("characters:preview", args=[viktor.pk]),
                           posted(gear=gear), headers={"HX-Request": "true"})
    assert stats(response)["load"] == "1" == str(value(viktor, "load"))  # the pack lies down
    # Without the pack, the rope falls out where it lay: on the ground.
    response = player.post(reverse("characters:preview", args=[viktor.pk]),
                           posted(gear=gear.replace("Backpack, large & filled with gear\n", "")),
                           headers={"HX-Request": "true"})
    assert stats(response)["load"] == "1"
    player.post(reverse("characters:edit", args=[viktor.pk]),
                posted(gear=gear.replace("Backpack, large & filled with gear\n", "")))
    rope = line(viktor, "Rope")
    assert (rope.container_id, rope.dropped, value(viktor, "load")) == (None, True, 1)


def test_weapons_beyond_the_builders_rows_survive_a_save_and_an_export(client, user):
    from characters import exchange

    viktor = make_viktor(user, credit=3)
    for _ in range(4):
        inventory.item_buy(character=viktor, by=user, key="Weapons:Club")
    assert len(sheet_for(viktor).weapons) == 5
    client.force_login(user)
    form = posted(weapon_2="Club", weapon_3="Club", weapon_4="Club")
    assert client.post(reverse("characters:edit", args=[viktor.pk]), form).status_code == 302
    assert len(sheet_for(viktor).weapons) == 5
    copy = exchange.character_import(owner=user, data=exchange.character_export(viktor))
    assert len(sheet_for(copy).weapons) == 5


def test_a_character_holds_at_most_so_many_lines(user):
    viktor = make_viktor(user)  # 6 lines
    InventoryItem.objects.bulk_create(InventoryItem(character=viktor, name=f"Pebble {n}",
                                                    position=10 + n)
                                      for n in range(inventory.MAX_LINES - 6))
    for act in (lambda: inventory.item_buy(character=viktor, by=user, key="Weapons:Axe"),
                lambda: inventory.item_add_free(character=viktor, name="One more", load=0)):
        with pytest.raises(InventoryError) as refused:
            act()
        assert refused.value.code == "too_many_lines"
