"""The inventory page and its actions: permissions, plain posts and htmx partials,
and bad input refused beside its field with what was typed kept."""

import re

import pytest
from django.urls import reverse

from characters.models import CoinEntry, InventoryItem
from characters.systems.eldritch_gambit import inventory, inventory_views
from rules.models import GearItem
from tests.factories import AsphodelFactory, CharacterFactory, UserFactory

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def gear(name):
    return GearItem.objects.srd().get(name=name)


def stats(response):
    return dict(re.findall(r'data-stat="(\w+)"[^>]*>([^<]*)<', response.content.decode()))


@pytest.fixture
def rendered(monkeypatch):
    """The template names the inventory views render (a partial sends no
    template_rendered signal, so response.templates cannot tell)."""
    names = []
    original = inventory_views.render

    def spy(request, template_name, *args, **kwargs):
        names.append(template_name)
        return original(request, template_name, *args, **kwargs)

    monkeypatch.setattr(inventory_views, "render", spy)
    return names


@pytest.fixture
def owner(db):
    return UserFactory()


@pytest.fixture
def character(owner):
    return AsphodelFactory(owner=owner)


@pytest.fixture
def client_owner(client, owner):
    client.force_login(owner)
    return client


def add(character, name, **kwargs):
    return inventory.item_add(character=character, by=character.owner,
                              catalog_item=gear(name), **kwargs)


def url(name, character, *args):
    return reverse(f"characters:{name}", args=[character.pk, *args])


# -- permissions --------------------------------------------------------------------------

ITEM_ACTIONS = ["item_quantity", "item_equip", "item_coverage", "item_drop", "item_pick_up",
                "item_move", "item_sell", "item_remove", "item_charges", "item_attune"]
PAGE_ACTIONS = ["inventory_add", "inventory_add_free", "inventory_starting_gear",
                "inventory_coins"]


def every_url(character, item, entry):
    urls = [("get", url("inventory", character)), ("get", url("inventory_catalog", character))]
    urls += [("post", url(name, character)) for name in PAGE_ACTIONS]
    urls += [("post", url(name, character, item.pk)) for name in ITEM_ACTIONS]
    urls.append(("post", url("coin_reverse", character, entry.pk)))
    return urls


def post_data(character):
    return {
        "on": "1", "quantity": "2", "coverage": "partial", "container": "", "price_cp": "5",
        "charges": "2", "amount_cp": "100", "note": "x", "direction": "out", "buy": str(
            gear("Rope (10m)").pk), "add-quantity": "1", "add-quality": "standard",
        "weapon": gear("Sword").pk, "coins": "set", "free-name": "Rock", "free-load": "1",
        "free-quantity": "1", "free-kind": "item",
    }


def snapshot(character):
    return (list(InventoryItem.objects.filter(character=character).values()),
            list(CoinEntry.objects.filter(character=character).values()))


def test_anonymous_is_sent_to_log_in(client, character):
    item = add(character, "Chain mail")
    entry = character.coin_entries.get()
    before = snapshot(character)
    for method, address in every_url(character, item, entry):
        response = getattr(client, method)(address, post_data(character))
        assert response.status_code == 302, address
        assert response["Location"].startswith(reverse("login"))
    assert snapshot(character) == before


def test_another_player_gets_404_and_changes_nothing(client, character):
    item = add(character, "Chain mail")
    entry = character.coin_entries.get()
    before = snapshot(character)
    client.force_login(UserFactory())
    for method, address in every_url(character, item, entry):
        response = getattr(client, method)(address, post_data(character), **HTMX)
        assert response.status_code == 404, address
    assert snapshot(character) == before


def test_the_owner_sees_the_page_with_the_derived_panel(client_owner, character, rendered):
    inventory.starting_package(character=character, by=character.owner, weapon=gear("Spear"),
                               armor=gear("Chain mail"))
    response = client_owner.get(url("inventory", character))
    assert response.status_code == 200
    assert rendered == ["characters/inventory.html"]
    assert b"<html" in response.content
    values = stats(response)
    for name, value in {"load": "4", "load_capacity": "5", "encumbrance": "none", "af": "11",
                        "hp_base": "15", "hp_armored": "25", "rally": "1d8+2", "wp": "11",
                        "coins_cp": "500"}.items():
        assert values[name] == value, name
    body = response.content.decode()
    assert "Hit +4, 1d8+3 damage, Critical +8, Range 1 (d12 to 2), Reach" in body


def test_the_character_page_links_to_the_inventory(client_owner, character):
    response = client_owner.get(reverse("characters:detail", args=[character.pk]))
    assert url("inventory", character).encode() in response.content


# -- plain posts and htmx -------------------------------------------------------------------


def test_a_plain_post_redirects_back_to_the_page(client_owner, character):
    chain = add(character, "Chain mail")
    response = client_owner.post(url("item_equip", character, chain.pk), {"on": "1"})
    assert response.status_code == 302
    assert response["Location"] == url("inventory", character) + f"#item-{chain.pk}"
    chain.refresh_from_db()
    assert chain.equipped
    page = client_owner.get(response["Location"])
    assert "Chain mail is worn." in page.content.decode()
    assert stats(page)["hp_armored"] == "25"


def test_htmx_answers_with_the_inventory_and_the_stats_out_of_band(client_owner, character,
                                                                   rendered):
    chain = add(character, "Chain mail")
    response = client_owner.post(url("item_equip", character, chain.pk), {"on": "1"}, **HTMX)
    assert response.status_code == 200
    assert rendered == ["characters/inventory.html#htmx-response"]
    assert response["HX-Retarget"] == "#inventory"
    assert response["HX-Reswap"] == "outerHTML"
    body = response.content.decode()
    assert "<html" not in body
    assert '<section id="inventory"' in body
    assert '<aside id="inventory-stats" class="stats-panel card" aria-labelledby=' in body
    assert re.search(r'id="inventory-stats"[^>]*hx-swap-oob="true"', body)
    assert re.search(r'id="inventory-status"[^>]*hx-swap-oob="innerHTML"', body)
    assert "Chain mail is worn." in body
    assert 'id="catalog-add"' not in body  # never replaces a form the player may be typing in
    values = stats(response)
    assert values["hp_armored"] == "25" and values["rally"] == "1d8+2"


def test_selling_updates_the_ledger_out_of_band(client_owner, character):
    chain = add(character, "Chain mail")
    response = client_owner.post(url("item_sell", character, chain.pk), {"price_cp": "150"},
                                 **HTMX)
    body = response.content.decode()
    assert re.search(r'id="coin-ledger"[^>]*hx-swap-oob="true"', body)
    assert stats(response)["coins_cp"] == "650"
    assert "Sold Chain mail for 150 cp." in body


def test_buying_from_the_catalog(client_owner, character):
    data = {"buy": gear("Chain mail").pk, "add-quality": "inferior", "add-quantity": "1",
            "add-container": "", "q": "chain"}
    response = client_owner.post(url("inventory_add", character), data, **HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert "Bought Chain mail (inferior) for 150 cp." in body
    assert stats(response)["coins_cp"] == "350"
    assert re.search(r'id="catalog-add"[^>]*hx-swap-oob="true"', body)
    # The search and the choices are kept for the next purchase.
    assert 'value="chain"' in body
    assert '<option value="inferior" selected>' in body
    item = character.items.get()
    assert item.quality == "inferior" and item.catalog_item == gear("Chain mail")


def test_the_page_is_the_plain_search(client_owner, character):
    response = client_owner.get(url("inventory", character), {"q": "sword"})
    body = response.content.decode()
    assert 'data-gear="Sword"' in body and 'data-gear="Sword, great"' in body
    assert 'data-gear="Spear"' not in body
    assert '<form method="get" action="' + url("inventory", character) in body


def test_catalog_search_as_you_type(client_owner, character, rendered):
    other = GearItem.objects.create(owner=UserFactory(), name="Sword of someone else",
                                    slug="sword-else", category="item", cost_cp=1)
    mine = GearItem.objects.create(owner=character.owner, name="Sword of my own",
                                   slug="sword-mine", category="item", cost_cp=1)
    response = client_owner.get(url("inventory_catalog", character), {"q": "sword"}, **HTMX)
    assert rendered == ["characters/inventory.html#catalog-results"]
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="catalog-results"')
    assert f'value="{mine.pk}"' in body and f'value="{other.pk}"' not in body
    assert "140 cp · Load 1 · Hit +2, 1d8" in body
    assert 'name="buy"' in body and 'name="add"' in body
    armor = client_owner.get(url("inventory_catalog", character), {"category": "armor"},
                             **HTMX).content.decode()
    assert 'data-gear="Plate mail"' in armor and 'data-gear="Sword"' not in armor


def test_catalog_search_without_htmx_goes_to_the_page(client_owner, character):
    response = client_owner.get(url("inventory_catalog", character), {"q": "rope"})
    assert response.status_code == 302
    assert response["Location"] == url("inventory", character) + "?q=rope#catalog-add"


def test_the_starting_gear_with_rolled_coins(client_owner, character):
    data = {"weapon": gear("Spear").pk, "armor": gear("Chain mail").pk,
            "career_tool": "Dragon lore", "career_tool_load": "", "memento": "Amulet",
            "memento_load": "0", "coins": "roll"}
    response = client_owner.post(url("inventory_starting_gear", character), data, **HTMX)
    body = response.content.decode()
    assert "Rolled 2d4 x 100:" in body
    assert len(re.findall(r'<span class="die">[1-4]</span>', body)) == 2
    assert stats(response)["load"] == "4"
    assert stats(response)["coins_cp"] == str(inventory.purse_cp(character))


def test_coins_and_a_reversal(client_owner, character):
    response = client_owner.post(url("inventory_coins", character),
                                 {"amount_cp": "200", "note": "Dragon hoard", "direction": "in"},
                                 **HTMX)
    assert response["HX-Retarget"] == "#coin-ledger"
    assert stats(response)["coins_cp"] == "700"
    entry = character.coin_entries.get(note="Dragon hoard")
    response = client_owner.post(url("coin_reverse", character, entry.pk), **HTMX)
    assert stats(response)["coins_cp"] == "500"
    assert "Reversed: Dragon hoard (-200 cp)." in response.content.decode()
    again = client_owner.post(url("coin_reverse", character, entry.pk), **HTMX)
    assert again.status_code == 200
    assert "That entry was reversed already." in again.content.decode()
    assert inventory.purse_cp(character) == 500


# -- bad input: refused beside the field, what was typed kept, never a server error --------


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
@pytest.mark.parametrize(("typed", "message"), [
    ("-3", "Quantity must be a whole number from 1 to 10000."),
    ("lots", "Quantity must be a whole number from 1 to 10000."),
    ("0", "A quantity of 0 would remove the item: use Remove for that."),
])
def test_bad_quantities(client_owner, character, headers, typed, message):
    rope = add(character, "Rope (10m)")
    response = client_owner.post(url("item_quantity", character, rope.pk), {"quantity": typed},
                                 **headers)
    assert response.status_code == 200
    body = response.content.decode()
    assert f'<div class="invalid-feedback d-block w-100" id="qty-{rope.pk}-error">{message}' in body
    assert re.search(rf'id="qty-{rope.pk}" value="{re.escape(typed)}" aria-invalid="true"', body)
    rope.refresh_from_db()
    assert rope.quantity == 1


def test_a_container_over_its_maximum(client_owner, character):
    backpack = add(character, "Backpack")
    add(character, "Rope (10m)", quantity=4, container=backpack)
    lantern = add(character, "Lantern")
    response = client_owner.post(url("item_move", character, lantern.pk),
                                 {"container": str(backpack.pk)}, **HTMX)
    body = response.content.decode()
    assert (f'id="move-{lantern.pk}-error">Backpack holds at most Load 4: with Lantern it '
            "would hold 5.") in body
    assert f'<option value="{backpack.pk}" selected>' in body  # the choice is kept
    assert f'data-capacity="{backpack.pk}"><span class="visually-hidden">holds Load </span>4 / 4' \
        in body
    lantern.refresh_from_db()
    assert lantern.container is None


def test_adding_into_a_full_container_keeps_the_choices(client_owner, character):
    backpack = add(character, "Backpack")
    add(character, "Rope (10m)", quantity=4, container=backpack)
    data = {"add": gear("Lantern").pk, "add-quality": "superior", "add-quantity": "1",
            "add-container": str(backpack.pk), "q": "lantern"}
    response = client_owner.post(url("inventory_add", character), data, **HTMX)
    assert response["HX-Retarget"] == "#catalog-add"
    body = response.content.decode()
    assert "holds at most Load 4" in body
    assert '<option value="superior" selected>' in body
    assert f'<option value="{backpack.pk}" selected>' in body
    assert 'data-gear="Lantern"' in body  # the search results are still there
    assert character.items.count() == 2


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_buying_without_the_coin(client, headers):
    character = AsphodelFactory(progress__coins_cp=120)
    client.force_login(character.owner)
    data = {"buy": gear("Chain mail").pk, "add-quality": "standard", "add-quantity": "1",
            "add-container": "", "q": "chain"}
    response = client.post(url("inventory_add", character), data, **headers)
    assert response.status_code == 200
    body = response.content.decode()
    assert "Chain mail costs 300 cp; the purse holds 120 cp." in body
    assert 'value="chain"' in body
    assert not character.items.exists()
    assert inventory.purse_cp(character) == 120


def test_text_and_negatives_in_the_add_form(client_owner, character):
    data = {"add": gear("Rope (10m)").pk, "add-quality": "standard", "add-quantity": "-2",
            "add-container": ""}
    response = client_owner.post(url("inventory_add", character), data, **HTMX)
    body = response.content.decode()
    assert "Quantity must be a whole number from 1 to 10000." in body
    assert 'value="-2"' in body
    data["add-quantity"] = "two"
    body = client_owner.post(url("inventory_add", character), data, **HTMX).content.decode()
    assert 'value="two"' in body
    assert not character.items.exists()


def test_someone_elses_homebrew_id(client_owner, character):
    theirs = GearItem.objects.create(owner=UserFactory(), name="Secret blade",
                                     slug="secret-blade", category="item", cost_cp=1)
    data = {"buy": theirs.pk, "add-quality": "standard", "add-quantity": "1",
            "add-container": ""}
    response = client_owner.post(url("inventory_add", character), data, **HTMX)
    assert response.status_code == 200
    assert "Choose an item from the catalog you can use." in response.content.decode()
    assert not character.items.exists()
    data["buy"] = "<script>"
    response = client_owner.post(url("inventory_add", character), data, **HTMX)
    assert "Choose an item from the catalog you can use." in response.content.decode()


def test_another_characters_item(client_owner, character):
    other = CharacterFactory()
    their_pack = inventory.item_add(character=other, by=other.owner,
                                    catalog_item=gear("Backpack"))
    rope = add(character, "Rope (10m)")
    # Their item in our URL: refused with a message, nothing changed.
    response = client_owner.post(url("item_drop", character, their_pack.pk), **HTMX)
    assert response.status_code == 200
    assert "That item is not in this inventory" in response.content.decode()
    plain = client_owner.post(url("item_remove", character, their_pack.pk))
    assert plain.status_code == 200
    their_pack.refresh_from_db()
    assert not their_pack.dropped
    # Their container as our target: refused beside the Move select.
    response = client_owner.post(url("item_move", character, rope.pk),
                                 {"container": str(their_pack.pk)}, **HTMX)
    body = response.content.decode()
    assert f'id="move-{rope.pk}-error">Choose a container from this character' in body
    rope.refresh_from_db()
    assert rope.container is None
    # Their coin entry: refused.
    response = client_owner.post(url("coin_reverse", character,
                                     other.coin_entries.get().pk), **HTMX)
    assert "That entry is not in this purse" in response.content.decode()


def test_bad_coins(client_owner, character):
    response = client_owner.post(url("inventory_coins", character),
                                 {"amount_cp": "900", "note": "Bribe", "direction": "out"},
                                 **HTMX)
    assert response["HX-Retarget"] == "#coins-form"
    body = response.content.decode()
    assert "The purse holds 500 cp: 900 cp cannot come out of it." in body
    assert 'value="900"' in body and 'value="Bribe"' in body
    body = client_owner.post(url("inventory_coins", character),
                             {"amount_cp": "ten", "note": "", "direction": "in"},
                             **HTMX).content.decode()
    assert "Amount must be a whole number from 1 to 100000000 cp." in body
    assert "Say where the coins come from or go to." in body
    body = client_owner.post(url("inventory_coins", character),
                             {"amount_cp": "-5", "note": "x", "direction": "in"},
                             **HTMX).content.decode()
    assert "Enter a positive amount: Remove takes coins out." in body
    assert inventory.purse_cp(character) == 500


def test_each_line_shows_its_main_action_and_folds_the_rest(client_owner, character):
    """Wear for armor, Attune for a Materia, Use a charge for an Ephemera with charges,
    Pick up for a dropped line; the rest folds behind "More", closed until needed."""
    armor = add(character, "Chain mail")
    tattoo = inventory.item_add(character=character, by=character.owner, name="Wolf tattoo",
                                load=0, kind="materia")
    potion = inventory.item_add(character=character, by=character.owner, name="Potion",
                                load=0, kind="ephemera")
    inventory.charges_set(character=character, item=potion, charges=3)
    empty = inventory.item_add(character=character, by=character.owner, name="Empty vial",
                               load=0, kind="ephemera")
    inventory.charges_set(character=character, item=empty, charges=0)
    rope = add(character, "Rope (10m)")
    inventory.item_drop(character=character, item=rope)
    body = client_owner.get(url("inventory", character)).content.decode()

    def actions(item):
        """The main actions of a line: its markup from the line up to its fold."""
        start = body.index(f'id="item-{item.pk}"')
        return body[start:body.index(f'id="more-{item.pk}"', start)]

    assert f'id="equip-{armor.pk}" type="submit">Wear<' in actions(armor)
    assert f'id="qty-{armor.pk}"' not in actions(armor)
    assert f'id="attune-{tattoo.pk}"' in actions(tattoo)
    assert 'name="charges" value="2"' in actions(potion)
    assert "Use a charge" in actions(potion)
    assert "Use a charge" not in actions(empty)  # no charge left to use
    assert f'id="drop-{rope.pk}" type="submit">Pick up<' in actions(rope)
    for item in (armor, tattoo, potion, empty, rope):
        assert f'<details class="inv-more" id="more-{item.pk}">' in body  # closed
    response = client_owner.post(url("item_charges", character, potion.pk), {"charges": "2"},
                                 **HTMX)
    assert "Potion: 2 charges left." in response.content.decode()
    potion.refresh_from_db()
    assert potion.charges == 2


def test_bad_sale_price_and_charges(client_owner, character):
    rope = add(character, "Rope (10m)")
    body = client_owner.post(url("item_sell", character, rope.pk), {"price_cp": "-1"},
                             **HTMX).content.decode()
    assert f'id="price-{rope.pk}-error">The price must be a whole number of cp' in body
    assert f'<details class="inv-more" id="more-{rope.pk}" open>' in body
    assert character.items.filter(pk=rope.pk).exists()
    potion = inventory.item_add(character=character, by=character.owner, name="Potion",
                                load=0, kind="ephemera")
    body = client_owner.post(url("item_charges", character, potion.pk), {"charges": "x"},
                             **HTMX).content.decode()
    assert "Charges must be a whole number from 0 to 99." in body
    assert f'<details class="inv-more" id="more-{potion.pk}" open>' in body
    body = client_owner.post(url("item_equip", character, rope.pk), {"on": "1"},
                             **HTMX).content.decode()
    assert "Rope (10m) is not armor or a shield: it cannot be worn." in body


def test_bad_starting_gear(client_owner, character):
    data = {"weapon": gear("Chain mail").pk, "armor": "", "career_tool": "Pick",
            "career_tool_load": "heavy", "memento": "Locket", "memento_load": "0",
            "coins": "keep"}
    response = client_owner.post(url("inventory_starting_gear", character), data, **HTMX)
    assert response["HX-Retarget"] == "#starting-gear"
    body = response.content.decode()
    assert "Choose a weapon from the list." in body
    assert "Tool&#x27;s Load must be a whole number from 0 to 99." in body
    assert 'value="Pick"' in body and 'value="Locket"' in body
    assert not character.items.exists()


def test_a_garbage_method_or_id_is_never_a_server_error(client_owner, character):
    assert client_owner.get(url("inventory_add", character)).status_code == 405
    assert client_owner.post(url("item_drop", character, 999999)).status_code == 200
    assert client_owner.post(url("coin_reverse", character, 999999)).status_code == 200
    response = client_owner.post(url("item_move", character, 999999), {"container": "abc"})
    assert response.status_code == 200
