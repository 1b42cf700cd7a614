"""Inventory services (characters/systems/eldritch_gambit/inventory.py): every change, and
the numbers that follow it, checked against the rules (Characters > Gear, Resources, Magic)."""

import random
from contextlib import contextmanager

import pytest

from characters.models import CoinEntry, InventoryItem
from characters.systems.eldritch_gambit import inventory
from characters.systems.eldritch_gambit.builds import sheet_for
from characters.systems.eldritch_gambit.inventory import InventoryError
from rules.models import GearItem
from tests.factories import AsphodelFactory, CharacterFactory, UserFactory

pytestmark = pytest.mark.django_db


def gear(name):
    return GearItem.objects.srd().get(name=name)


def stats(character, *names):
    sheet = sheet_for(character)
    return {name: sheet.value(name) for name in names}


def purse(character):
    return inventory.purse_cp(character)


def add(character, name, **kwargs):
    return inventory.item_add(character=character, by=character.owner,
                              catalog_item=gear(name), **kwargs)


@contextmanager
def refused(code):
    """The service refuses with this code (and writes nothing)."""
    with pytest.raises(InventoryError) as info:
        yield info
    assert info.value.code == code, info.value


@pytest.fixture
def asphodel(db):
    return AsphodelFactory()


@pytest.fixture
def packed(asphodel):
    """Asphodel with the SRD's starting gear: spear and chain mail (Characters >
    Example Character: "She takes a spear, chain mail armor, and the standard gear")."""
    inventory.starting_package(
        character=asphodel, by=asphodel.owner, weapon=gear("Spear"), armor=gear("Chain mail"),
        career_tool="Dragon-slaying manual", memento="Sacrificial amulet",
    )
    return asphodel


# -- the starting gear ---------------------------------------------------------------------


def test_asphodel_with_the_starting_gear_matches_her_sheet(packed):
    names = list(packed.items.values_list("name", flat=True))
    assert names == ["Spear", "Chain mail", "Dragon-slaying manual", "Sacrificial amulet",
                     "Clothing, traveling", "Backpack, small & filled with gear", "Dagger"]
    # spear 1 + chain mail 2 + the filled pack 1 = Load 4 of STR 3 + END 2 = 5.
    assert stats(packed, "load", "load_capacity", "encumbrance") == {
        "load": 4, "load_capacity": 5, "encumbrance": "none"}
    assert stats(packed, "af", "hp_base", "hp_armored", "rally", "wp") == {
        "af": 11, "hp_base": 15, "hp_armored": 25, "rally": "1d8+2", "wp": 11}
    chain = packed.items.get(name="Chain mail")
    assert chain.equipped
    pack = packed.items.get(name="Backpack, small & filled with gear")
    assert "Bedroll" in pack.notes and "water skin" in pack.notes
    assert purse(packed) == 500  # the gear is free


def test_starting_gear_charges_nothing_and_may_set_or_roll_the_purse(db):
    character = CharacterFactory(progress__coins_cp=120)
    inventory.starting_package(character=character, by=character.owner,
                               weapon=gear("Sword"), armor=None, coins="set")
    assert purse(character) == 500
    entry = character.coin_entries.last()
    assert entry.kind == CoinEntry.Kind.STARTING and entry.amount_cp == 380

    rolled = CharacterFactory(progress__coins_cp=0)
    package = inventory.starting_package(character=rolled, by=rolled.owner,
                                         weapon=gear("Sword"), armor=None, coins="roll",
                                         rng=random.Random(3))
    assert len(package.roll.dice) == 2 and all(1 <= d <= 4 for d in package.roll.dice)
    assert package.roll.total == sum(package.roll.dice) * 100 == purse(rolled)
    assert not rolled.items.filter(kind="armor").exists()


def test_starting_gear_is_taken_once(packed):
    with refused("starting_gear_present"):
        inventory.starting_package(character=packed, by=packed.owner, weapon=gear("Sword"),
                                   armor=None)
    assert packed.items.count() == 7


def test_starting_gear_wears_the_new_armor_only(asphodel):
    leather = add(asphodel, "Leather")
    inventory.item_equip(character=asphodel, item=leather)
    inventory.starting_package(character=asphodel, by=asphodel.owner, weapon=gear("Spear"),
                               armor=gear("Chain mail"))
    worn = asphodel.items.filter(kind="armor", equipped=True)
    assert [i.name for i in worn] == ["Chain mail"]


def test_starting_gear_refuses_a_weapon_that_is_not_one(asphodel):
    with refused("no_such_weapon"):
        inventory.starting_package(character=asphodel, by=asphodel.owner,
                                   weapon=gear("Chain mail"), armor=None)
    with refused("no_such_armor"):
        inventory.starting_package(character=asphodel, by=asphodel.owner,
                                   weapon=gear("Spear"), armor=gear("Sword"))
    with refused("load_out_of_range"):
        inventory.starting_package(character=asphodel, by=asphodel.owner,
                                   weapon=gear("Spear"), armor=None, memento="Rock",
                                   memento_load=-1)
    assert not asphodel.items.exists()


def test_a_memento_may_carry_load(asphodel):
    inventory.starting_package(character=asphodel, by=asphodel.owner, weapon=gear("Dagger"),
                               armor=None, memento="Grandmother's anvil", memento_load=2)
    # dagger 0 + anvil 2 + pack 1 + dagger 0.
    assert stats(asphodel, "load")["load"] == 3


# -- quality and prices (Resources) --------------------------------------------------------


def test_a_superior_sword_costs_ten_times_the_price(asphodel):
    with refused("insufficient_coins") as info:
        add(asphodel, "Sword", quality="superior", buy=True)
    assert info.value.message == "Sword (superior) costs 1400 cp; the purse holds 500 cp."


def test_buying_a_superior_sword(db):
    character = AsphodelFactory(progress__coins_cp=2000)
    add(character, "Sword", quality="superior", buy=True)
    assert purse(character) == 600  # 140 x 10
    sheet = sheet_for(character)
    (line,) = sheet.weapons
    # Hit = 2 + DEX 2 + 1; damage 1d8 + STR 3 + 1; a Critical adds the d8's 8.
    assert line.hit == 5
    assert line.damage == "1d8+4"
    assert line.critical_bonus == 8
    purchase = character.coin_entries.get(kind=CoinEntry.Kind.PURCHASE)
    assert purchase.amount_cp == -1400 and purchase.note == "Sword (superior)"


def test_an_inferior_chain_mail(asphodel):
    chain = add(asphodel, "Chain mail", quality="inferior", buy=True)
    assert purse(asphodel) == 350  # half of 300
    inventory.item_equip(character=asphodel, item=chain)
    result = stats(asphodel, "load", "hp_armored", "rally")
    assert result == {"load": 3, "hp_armored": 25, "rally": "1d8+2"}  # one Load more


def test_inferior_prices_round_up_and_quantities_multiply(asphodel):
    add(asphodel, "Torches (3)", quality="inferior", quantity=3, buy=True)
    assert purse(asphodel) == 500 - 3 * 3  # 5 cp halved is 3 (rounded up)
    assert asphodel.items.get().quantity == 3
    assert stats(asphodel, "load")["load"] == 3


def test_buying_refused_without_the_coin(db):
    character = AsphodelFactory(progress__coins_cp=120)
    with refused("insufficient_coins") as info:
        add(character, "Chain mail", buy=True)
    assert info.value.message == "Chain mail costs 300 cp; the purse holds 120 cp."
    assert info.value.field == "catalog_item"
    assert not character.items.exists()
    assert purse(character) == 120
    with refused("insufficient_coins") as info:
        add(character, "Rope (10m)", quantity=7, buy=True)
    assert info.value.message == "Rope (10m) x7 cost 140 cp; the purse holds 120 cp."


def test_an_item_without_a_price_cannot_be_bought(asphodel):
    with refused("no_price"):
        add(asphodel, "Backpack, small & filled with gear", buy=True)
    with refused("no_price"):
        inventory.item_add(character=asphodel, by=asphodel.owner, name="Rock", load=1, buy=True)


def test_adding_without_buying_leaves_the_purse(asphodel):
    add(asphodel, "Plate mail")
    assert purse(asphodel) == 500
    assert not asphodel.coin_entries.filter(kind=CoinEntry.Kind.PURCHASE).exists()


def test_the_same_purchase_submitted_twice_is_bought_once(asphodel):
    first = add(asphodel, "Rope (10m)", buy=True, request_key="k1")
    again = add(asphodel, "Rope (10m)", buy=True, request_key="k1")
    assert first is not None and again is None
    assert asphodel.items.count() == 1
    assert purse(asphodel) == 480


# -- adding: what is refused -------------------------------------------------------------


@pytest.mark.parametrize("quantity", [0, -1, 10_001])
def test_bad_quantities_are_refused(asphodel, quantity):
    with refused("quantity_zero" if quantity == 0 else "quantity_out_of_range"):
        add(asphodel, "Rope (10m)", quantity=quantity)
    assert not asphodel.items.exists()


def test_someone_elses_homebrew_is_not_in_the_catalog(asphodel):
    theirs = GearItem.objects.create(owner=UserFactory(), name="Vorpal spoon",
                                     slug="vorpal-spoon", category="item", load=0, cost_cp=1)
    with refused("no_such_gear"):
        inventory.item_add(character=asphodel, by=asphodel.owner, catalog_item=theirs)
    mine = GearItem.objects.create(owner=asphodel.owner, name="Lucky spoon",
                                   slug="lucky-spoon", category="item", load=0, cost_cp=3)
    inventory.item_add(character=asphodel, by=asphodel.owner, catalog_item=mine, buy=True)
    assert purse(asphodel) == 497


def test_free_form_items(asphodel):
    item = inventory.item_add(character=asphodel, by=asphodel.owner, name="Dragon scale",
                              load=2, quantity=2)
    assert item.catalog_item is None and item.kind == "item"
    assert stats(asphodel, "load")["load"] == 4
    with refused("load_out_of_range"):
        inventory.item_add(character=asphodel, by=asphodel.owner, name="Feather", load=-1)
    with refused("name_required"):
        inventory.item_add(character=asphodel, by=asphodel.owner, name="  ", load=0)
    with refused("kind_needs_catalog"):
        inventory.item_add(character=asphodel, by=asphodel.owner, name="Odd sword", load=1,
                           kind="weapon")


# -- containers -----------------------------------------------------------------------------


def test_a_container_holds_up_to_its_maximum_load(asphodel):
    backpack = add(asphodel, "Backpack")  # -/4
    add(asphodel, "Rope (10m)", container=backpack)
    add(asphodel, "Bedroll", container=backpack)
    add(asphodel, "Lantern", container=backpack)
    rations = add(asphodel, "Rations (3 days)")
    inventory.item_move(character=asphodel, item=rations, container=backpack)  # 4 of 4
    torches = add(asphodel, "Torches (3)")
    with refused("container_full") as info:
        inventory.item_move(character=asphodel, item=torches, container=backpack)
    assert info.value.message == "Backpack holds at most Load 4: with Torches (3) it would hold 5."
    with refused("container_full"):
        add(asphodel, "Torches (3)", container=backpack)
    add(asphodel, "Flint & Steel", container=backpack)  # Load 0 always fits
    torches.refresh_from_db()
    assert torches.container is None


def test_nested_contents_count_against_the_outer_container(asphodel):
    backpack = add(asphodel, "Backpack")  # -/4
    sack = add(asphodel, "Sack, small", container=backpack)  # -/3
    add(asphodel, "Lantern", container=backpack)
    add(asphodel, "Rations (3 days)", container=backpack)
    add(asphodel, "Rope (10m)", container=sack)
    add(asphodel, "Bedroll", container=sack)  # backpack 4 of 4, sack 2 of 3
    torches = add(asphodel, "Torches (3)")
    with refused("container_full") as info:
        inventory.item_move(character=asphodel, item=torches, container=sack)
    assert "Backpack holds at most Load 4" in info.value.message
    rope = asphodel.items.get(name="Rope (10m)")
    with refused("container_full"):
        inventory.item_set_quantity(character=asphodel, item=rope, quantity=2)


def test_a_container_cannot_go_inside_itself_or_its_contents(asphodel):
    backpack = add(asphodel, "Backpack")
    sack = add(asphodel, "Sack, large", container=backpack)
    with refused("container_cycle"):
        inventory.item_move(character=asphodel, item=backpack, container=backpack)
    with refused("container_cycle"):
        inventory.item_move(character=asphodel, item=backpack, container=sack)


def test_only_this_characters_containers_are_targets(asphodel):
    rope = add(asphodel, "Rope (10m)")
    lantern = add(asphodel, "Lantern")
    with refused("not_a_container"):
        inventory.item_move(character=asphodel, item=rope, container=lantern)
    other = CharacterFactory()
    their_pack = inventory.item_add(character=other, by=other.owner,
                                    catalog_item=gear("Backpack"))
    with refused("no_such_container"):
        inventory.item_move(character=asphodel, item=rope, container=their_pack)
    with refused("no_such_item"):
        inventory.item_drop(character=asphodel, item=their_pack)
    their_pack.refresh_from_db()
    assert not their_pack.dropped


def test_moving_out_to_carried_loose(asphodel):
    backpack = add(asphodel, "Backpack")
    rope = add(asphodel, "Rope (10m)", container=backpack)
    inventory.item_move(character=asphodel, item=rope, container=None)
    rope.refresh_from_db()
    assert rope.container is None


# -- encumbrance: packing, dropping, picking up -------------------------------------------


def test_packing_past_capacity_then_twice_capacity_then_ditching_the_backpack(db):
    character = CharacterFactory(strength=1, endurance=1)  # capacity 2, twice is 4
    backpack = add(character, "Backpack")
    add(character, "Rope (10m)", container=backpack)
    add(character, "Bedroll", container=backpack)
    assert stats(character, "load", "load_capacity", "encumbrance") == {
        "load": 2, "load_capacity": 2, "encumbrance": "none"}

    add(character, "Lantern", container=backpack)
    assert stats(character, "load", "encumbrance") == {"load": 3, "encumbrance": "encumbered"}
    assert "encumbered" in sheet_for(character).statuses

    add(character, "Rations (3 days)", container=backpack)
    add(character, "Torches (3)")
    result = stats(character, "load", "encumbrance", "af")
    assert result == {"load": 5, "encumbrance": "incapacitated", "af": 0}

    inventory.item_drop(character=character, item=backpack)
    result = stats(character, "load", "encumbrance", "af")
    assert result == {"load": 1, "encumbrance": "none", "af": 11}
    assert character.items.filter(container=backpack).count() == 4  # the lot goes with it

    inventory.item_pick_up(character=character, item=backpack)
    assert stats(character, "load", "encumbrance") == {"load": 5, "encumbrance": "incapacitated"}


def test_an_item_dropped_from_a_container_leaves_it(asphodel):
    backpack = add(asphodel, "Backpack")
    rope = add(asphodel, "Rope (10m)", container=backpack)
    inventory.item_drop(character=asphodel, item=rope)
    rope.refresh_from_db()
    assert rope.dropped and rope.container is None
    inventory.item_pick_up(character=asphodel, item=rope)
    rope.refresh_from_db()
    assert not rope.dropped and rope.container is None


def test_moving_a_dropped_item_picks_it_up(asphodel):
    backpack = add(asphodel, "Backpack")
    rope = add(asphodel, "Rope (10m)")
    inventory.item_drop(character=asphodel, item=rope)
    inventory.item_move(character=asphodel, item=rope, container=backpack)
    rope.refresh_from_db()
    assert not rope.dropped and rope.container_id == backpack.pk


# -- armor and shields ---------------------------------------------------------------------


def test_one_suit_worn_and_one_shield_ready(asphodel):
    leather = add(asphodel, "Leather")
    chain = add(asphodel, "Chain mail")
    inventory.item_equip(character=asphodel, item=leather)
    inventory.item_equip(character=asphodel, item=chain)
    leather.refresh_from_db()
    assert not leather.equipped
    assert stats(asphodel, "hp_armored", "rally") == {"hp_armored": 25, "rally": "1d8+2"}

    small = add(asphodel, "Shield, small")
    large = add(asphodel, "Shield, large")
    inventory.item_equip(character=asphodel, item=small)
    assert stats(asphodel, "af")["af"] == 12
    inventory.item_equip(character=asphodel, item=large)
    assert stats(asphodel, "af")["af"] == 14
    assert asphodel.items.filter(equipped=True).count() == 2

    inventory.item_equip(character=asphodel, item=large, equipped=False)
    assert stats(asphodel, "af")["af"] == 11
    assert not sheet_for(asphodel).issues


def test_only_armor_and_shields_are_worn(asphodel):
    spear = add(asphodel, "Spear")
    with refused("not_wearable"):
        inventory.item_equip(character=asphodel, item=spear)


def test_wearing_takes_the_armor_out_of_its_container(asphodel):
    sack = add(asphodel, "Sack, large")
    chain = add(asphodel, "Chain mail", container=sack)
    inventory.item_equip(character=asphodel, item=chain)
    chain.refresh_from_db()
    assert chain.container is None and chain.equipped
    inventory.item_move(character=asphodel, item=chain, container=sack)
    chain.refresh_from_db()
    assert not chain.equipped  # packed armor is not worn


def test_coverage_lowers_the_armor_type(asphodel):
    chain = add(asphodel, "Chain mail")
    inventory.item_equip(character=asphodel, item=chain)
    inventory.item_set_coverage(character=asphodel, item=chain, coverage="partial")
    # "a chain mail shirt by itself counts as Leather": AP 5, d6, Load 1.
    assert stats(asphodel, "hp_armored", "rally", "load") == {
        "hp_armored": 20, "rally": "1d6+2", "load": 1}
    with refused("invalid_coverage"):
        inventory.item_set_coverage(character=asphodel, item=chain, coverage="most")
    spear = add(asphodel, "Spear")
    with refused("not_armor"):
        inventory.item_set_coverage(character=asphodel, item=spear, coverage="partial")


def test_dropped_armor_is_no_longer_worn(asphodel):
    chain = add(asphodel, "Chain mail")
    inventory.item_equip(character=asphodel, item=chain)
    inventory.item_drop(character=asphodel, item=chain)
    chain.refresh_from_db()
    assert not chain.equipped
    assert stats(asphodel, "hp_armored", "load") == {"hp_armored": 15, "load": 0}


# -- quantity, removing, selling -------------------------------------------------------------


def test_quantity(asphodel):
    rope = add(asphodel, "Rope (10m)")
    inventory.item_set_quantity(character=asphodel, item=rope, quantity=3)
    assert stats(asphodel, "load")["load"] == 3
    with refused("quantity_zero"):
        inventory.item_set_quantity(character=asphodel, item=rope, quantity=0)
    with refused("quantity_out_of_range"):
        inventory.item_set_quantity(character=asphodel, item=rope, quantity=10_001)
    rope.refresh_from_db()
    assert rope.quantity == 3


def test_removing_a_container_spills_its_contents_loose(asphodel):
    backpack = add(asphodel, "Backpack")
    rope = add(asphodel, "Rope (10m)", container=backpack)
    name = inventory.item_remove(character=asphodel, item=backpack)
    assert name == "Backpack"
    rope.refresh_from_db()
    assert rope.container is None and not rope.dropped


def test_removing_a_dropped_container_leaves_its_contents_on_the_ground(asphodel):
    backpack = add(asphodel, "Backpack")
    rope = add(asphodel, "Rope (10m)", container=backpack)
    inventory.item_drop(character=asphodel, item=backpack)
    inventory.item_remove(character=asphodel, item=backpack)
    rope.refresh_from_db()
    assert rope.container is None and rope.dropped


def test_selling_at_half_price_by_default(asphodel):
    chain = add(asphodel, "Chain mail", quality="superior")
    assert inventory.sale_price_cp(chain) == 1500
    entry = inventory.item_sell(character=asphodel, item=chain, by=asphodel.owner)
    assert entry.kind == CoinEntry.Kind.SALE and entry.amount_cp == 1500
    assert entry.note == "Sold Chain mail (superior)"
    assert purse(asphodel) == 2000
    assert not asphodel.items.exists()


def test_selling_at_the_price_the_player_confirms(asphodel):
    rope = add(asphodel, "Rope (10m)", quantity=3)
    inventory.item_sell(character=asphodel, item=rope, by=asphodel.owner, price_cp=0)
    assert purse(asphodel) == 500
    lantern = add(asphodel, "Lantern")
    with refused("price_out_of_range"):
        inventory.item_sell(character=asphodel, item=lantern, by=asphodel.owner, price_cp=-5)
    assert asphodel.items.filter(pk=lantern.pk).exists()


def test_free_form_items_sell_for_nothing_by_default(asphodel):
    scale = inventory.item_add(character=asphodel, by=asphodel.owner, name="Dragon scale",
                               load=1)
    assert inventory.sale_price_cp(scale) == 0


# -- Ephemera and Materia (Magic) ------------------------------------------------------------


def test_ephemera_charges(asphodel):
    potion = inventory.item_add(character=asphodel, by=asphodel.owner, name="Black Meat",
                                load=0, kind="ephemera")
    assert potion.charges == 1
    inventory.charges_set(character=asphodel, item=potion, charges=3)
    potion.refresh_from_db()
    assert potion.charges == 3
    with refused("charges_out_of_range"):
        inventory.charges_set(character=asphodel, item=potion, charges=100)
    with refused("charges_out_of_range"):
        inventory.charges_set(character=asphodel, item=potion, charges=-1)
    rope = add(asphodel, "Rope (10m)")
    with refused("not_ephemera"):
        inventory.charges_set(character=asphodel, item=rope, charges=2)
    catalog = add(asphodel, "Ephemera")
    assert catalog.kind == InventoryItem.Kind.EPHEMERA and catalog.charges == 1


def test_attuned_materia_lower_wp_by_one_each(asphodel):
    ring = inventory.item_add(character=asphodel, by=asphodel.owner, name="Wolf tattoo",
                              load=0, kind="materia")
    broom = inventory.item_add(character=asphodel, by=asphodel.owner, name="Flying broom",
                               load=1, kind="materia")
    assert stats(asphodel, "wp")["wp"] == 11
    inventory.materia_attune(character=asphodel, item=ring)
    inventory.materia_attune(character=asphodel, item=broom, attuned=True)
    assert stats(asphodel, "wp", "wp_floor") == {"wp": 9, "wp_floor": 6}
    # Magic > Materia: "This WP does not come back until they discard the item": no
    # stopping while it is carried; the toggle only ever attunes.
    with refused("attunement_held") as info:
        inventory.materia_attune(character=asphodel, item=ring)
    assert info.value.message == (
        "Wolf tattoo stays attuned: the WP spent on it is held until it is discarded "
        "(Remove or Sell) or handed to another character.")
    with refused("attunement_held"):
        inventory.materia_attune(character=asphodel, item=ring, attuned=False)
    ring.refresh_from_db()
    assert ring.attuned and stats(asphodel, "wp")["wp"] == 9
    inventory.item_drop(character=asphodel, item=broom)  # set down is not discarded
    assert stats(asphodel, "wp")["wp"] == 9
    inventory.item_remove(character=asphodel, item=broom)
    assert stats(asphodel, "wp")["wp"] == 10
    rope = add(asphodel, "Rope (10m)")
    with refused("not_materia"):
        inventory.materia_attune(character=asphodel, item=rope)


def test_attuning_spends_a_current_wp(asphodel):
    """Magic > Materia: "Casters must spend a single WP to attune"; Asphodel: WP 11, floor
    6. The spend is written to current WP, from a stored number or from full."""
    ring = inventory.item_add(character=asphodel, by=asphodel.owner, name="Ring", load=0,
                              kind="materia")
    asphodel.wp_current = 8
    asphodel.save()
    inventory.materia_attune(character=asphodel, item=ring, attuned=True)
    asphodel.refresh_from_db()
    assert asphodel.wp_current == 7
    assert stats(asphodel, "wp", "wp_current") == {"wp": 10, "wp_current": 7}
    # The same request again (a double click): attuned already, nothing spent again.
    inventory.materia_attune(character=asphodel, item=ring, attuned=True)
    asphodel.refresh_from_db()
    assert asphodel.wp_current == 7
    # From full (blank): the WP spent is written, 11 -> 10.
    fresh = AsphodelFactory()
    tattoo = inventory.item_add(character=fresh, by=fresh.owner, name="Tattoo", load=0,
                                kind="materia")
    assert fresh.wp_current is None
    inventory.materia_attune(character=fresh, item=tattoo)
    fresh.refresh_from_db()
    assert fresh.wp_current == 10 and stats(fresh, "wp", "wp_current") == {
        "wp": 10, "wp_current": 10}


def test_discarding_lifts_wp_again_and_the_spent_wp_is_regained_as_any(asphodel):
    """Characters > Willpower: "cannot be regained until the item is discarded": once it
    is gone WP is whole again, and the WP spent is regained the usual ways (docs/RULES.md):
    current WP is not refilled by the discard itself."""
    ring = inventory.item_add(character=asphodel, by=asphodel.owner, name="Ring", load=0,
                              kind="materia")
    inventory.materia_attune(character=asphodel, item=ring)
    inventory.item_remove(character=asphodel, item=ring)
    asphodel.refresh_from_db()
    assert stats(asphodel, "wp", "wp_current") == {"wp": 11, "wp_current": 10}


def test_attuning_is_refused_at_the_wp_floor(asphodel):
    ring = inventory.item_add(character=asphodel, by=asphodel.owner, name="Ring", load=0,
                              kind="materia")
    asphodel.wp_current = 6  # the floor: half of 11, rounded up
    asphodel.save()
    with refused("wp_floor") as info:
        inventory.materia_attune(character=asphodel, item=ring, attuned=True)
    assert info.value.message == ("Attuning Ring spends 1 WP: current WP 6 cannot drop "
                                  "below the floor of 6.")
    assert info.value.field == "attuned"
    ring.refresh_from_db()
    asphodel.refresh_from_db()
    assert not ring.attuned and asphodel.wp_current == 6
    # Three on one line spend three WP: at 8 only two can be spent.
    rings = inventory.item_add(character=asphodel, by=asphodel.owner, name="Rings", load=0,
                               kind="materia", quantity=3)
    asphodel.wp_current = 8
    asphodel.save()
    with refused("wp_floor"):
        inventory.materia_attune(character=asphodel, item=rings)
    asphodel.wp_current = 9
    asphodel.save()
    inventory.materia_attune(character=asphodel, item=rings)
    asphodel.refresh_from_db()
    assert asphodel.wp_current == 6 and stats(asphodel, "wp")["wp"] == 8


# -- the purse -------------------------------------------------------------------------------


def test_coins_in_and_out_with_a_note(asphodel):
    inventory.coins_adjust(character=asphodel, amount_cp=250, note="Dragon hoard", by=None)
    inventory.coins_adjust(character=asphodel, amount_cp=-700, note="Bribe", by=None)
    assert purse(asphodel) == 50
    with refused("insufficient_coins") as info:
        inventory.coins_adjust(character=asphodel, amount_cp=-51, note="Ale", by=None)
    assert info.value.message == "The purse holds 50 cp: 51 cp cannot come out of it."
    with refused("note_required"):
        inventory.coins_adjust(character=asphodel, amount_cp=5, note=" ", by=None)
    with refused("amount_out_of_range"):
        inventory.coins_adjust(character=asphodel, amount_cp=0, note="Nothing", by=None)
    assert purse(asphodel) == 50


def test_a_coin_reversal(asphodel):
    add(asphodel, "Chain mail", buy=True)
    purchase = asphodel.coin_entries.get(kind=CoinEntry.Kind.PURCHASE)
    assert purse(asphodel) == 200
    reversal = inventory.coin_entry_reverse(character=asphodel, entry=purchase,
                                            by=asphodel.owner)
    assert reversal.kind == CoinEntry.Kind.REVERSAL
    assert reversal.reverses == purchase and reversal.amount_cp == 300
    assert reversal.note == "Reversed: Chain mail"
    assert purse(asphodel) == 500
    assert asphodel.items.filter(name="Chain mail").exists()  # the ledger only
    with refused("already_reversed"):
        inventory.coin_entry_reverse(character=asphodel, entry=purchase, by=asphodel.owner)
    with refused("reversal_of_reversal"):
        inventory.coin_entry_reverse(character=asphodel, entry=reversal, by=asphodel.owner)
    assert purse(asphodel) == 500


def test_a_reversal_never_empties_the_purse_below_zero(asphodel):
    starting = asphodel.coin_entries.get(kind=CoinEntry.Kind.STARTING)
    add(asphodel, "Chain mail", buy=True)  # 200 left
    with refused("insufficient_coins"):
        inventory.coin_entry_reverse(character=asphodel, entry=starting, by=asphodel.owner)
    assert purse(asphodel) == 200


def test_another_characters_entry_cannot_be_reversed(asphodel):
    other = CharacterFactory()
    theirs = other.coin_entries.get()
    with refused("no_such_entry"):
        inventory.coin_entry_reverse(character=asphodel, entry=theirs, by=asphodel.owner)
    assert not CoinEntry.objects.filter(reverses=theirs).exists()


def test_the_same_sale_or_adjustment_twice_counts_once(asphodel):
    rope = add(asphodel, "Rope (10m)")
    inventory.item_sell(character=asphodel, item=rope, by=None, price_cp=10, request_key="s1")
    assert inventory.item_sell(character=asphodel, item=rope, by=None, price_cp=10,
                               request_key="s1") is None
    inventory.coins_adjust(character=asphodel, amount_cp=5, note="Tip", by=None,
                           request_key="c1")
    inventory.coins_adjust(character=asphodel, amount_cp=5, note="Tip", by=None,
                           request_key="c1")
    assert purse(asphodel) == 515
