"""The METTLE Core inventory page and its actions (issue #13): who may use them
(anonymous, another player, the owner, the Guide), hostile input (a clear message beside
the field, what was typed kept, never a 500), htmx answers (the page's region), giving
to the party stash or another character, and the Guide restoring lost Credit."""

import pytest
from django.urls import reverse

from campaigns import services as campaign_services
from characters.models import GearTransfer, InventoryItem
from characters.systems.mettle import inventory
from characters.systems.mettle.models import CreditEntry
from tests.factories import CampaignFactory, MembershipFactory

from .helpers import make_viktor, stats

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign(db):
    return CampaignFactory(system="mettle-core")


@pytest.fixture
def guide(campaign):
    return campaign.owner


@pytest.fixture
def owner(campaign):
    return MembershipFactory(campaign=campaign).user


@pytest.fixture
def viktor(campaign, owner):
    character = make_viktor(owner)
    campaign_services.character_join(campaign=campaign, character=character, by=owner)
    return character


@pytest.fixture
def anya(campaign):
    player = MembershipFactory(campaign=campaign).user
    character = make_viktor(player, name="Anya")
    campaign_services.character_join(campaign=campaign, character=character, by=player)
    return character


def url(name, viktor, *args):
    return reverse(f"characters:{name}", args=[viktor.pk, *args])


def sword(viktor):
    return InventoryItem.objects.get(character=viktor, name="Sword cane")


def test_the_owner_sees_the_page_with_the_numbers(client, owner, viktor):
    client.force_login(owner)
    response = client.get(url("mettle_inventory", viktor))
    assert response.status_code == 200
    shown = stats(response)
    assert (shown["load"], shown["load_capacity"], shown["soak"], shown["credit"]) == (
        "1", "3", "3", "2")
    body = response.content.decode()
    assert "Sword cane" in body and 'data-verdict="costs_credit"' in body
    assert client.get(reverse("characters:detail", args=[viktor.pk])).status_code == 200


@pytest.mark.parametrize("who", ["anonymous", "other", "guide"])
def test_others_cannot_use_the_inventory(client, who, viktor, guide, anya):
    if who == "other":
        client.force_login(anya.owner)
    elif who == "guide":
        client.force_login(guide)
    item = sword(viktor)
    for name, args, method in (("mettle_inventory", (), "get"),
                               ("mettle_inventory_buy", (), "post"),
                               ("mettle_inventory_add_free", (), "post"),
                               ("mettle_item_drop", (item.pk,), "post"),
                               ("mettle_item_move", (item.pk,), "post"),
                               ("mettle_item_give", (item.pk,), "post"),
                               ("mettle_item_remove", (item.pk,), "post")):
        response = getattr(client, method)(url(name, viktor, *args),
                                           {"key": "Weapons:Axe", "to": "stash"})
        if who == "anonymous":
            assert response.status_code == 302 and "login" in response.url
        else:
            assert response.status_code == 404, name
    assert InventoryItem.objects.filter(character=viktor).count() == 6
    assert not CreditEntry.objects.exists()


def test_buying_one_digit_over_through_the_page(client, owner, viktor):
    client.force_login(owner)
    data = {"key": "Armour:Medium (Chain)", "request_key": "abc123"}
    response = client.post(url("mettle_inventory_buy", viktor), data,
                           headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert "a point of Credit is lost" in response.content.decode()
    assert stats(response)["credit"] == "1"
    # The page's region alone (the partial), not the whole page.
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="inventory-page"') and "<html" not in body
    # A double click: the same request key buys once.
    again = client.post(url("mettle_inventory_buy", viktor), data)
    assert again.status_code == 302
    assert InventoryItem.objects.filter(character=viktor, name="Medium (Chain)").count() == 1
    assert inventory.current_credit(viktor) == 1


@pytest.mark.parametrize(("data", "field", "message"), [
    ({"key": "Weapons:Laser"}, "key", "Choose an item of the METTLE tables."),
    ({"key": ""}, "key", "Choose an item to buy."),
    ({"key": "Armour:Heavy (Plate)"}, "key", "out of reach"),
    ({"key": "Weapons:Axe", "container": "abc"}, "container", "Choose a container"),
    ({"key": "Weapons:Axe", "container": "99999999999999999999"}, "container",
     "Choose a container"),
    ({"key": "Weapons:Axe", "container": "123456"}, "container", "Choose a container"),
])
def test_a_refused_purchase_says_why_beside_the_field(client, owner, viktor, data, field,
                                                      message):
    client.force_login(owner)
    response = client.post(url("mettle_inventory_buy", viktor), data,
                           headers={"HX-Request": "true"})
    body = response.content.decode()
    assert response.status_code == 200
    assert f'data-error="{field}"' in body and message in body
    assert InventoryItem.objects.filter(character=viktor).count() == 6


@pytest.mark.parametrize(("data", "field"), [
    ({"name": "", "load": "0", "quantity": "1"}, "name"),
    ({"name": "x" * 200, "load": "0", "quantity": "1"}, "name"),
    ({"name": "Crate", "load": "-1", "quantity": "1"}, "load"),
    ({"name": "Crate", "load": "1e9", "quantity": "1"}, "load"),
    ({"name": "Crate", "load": "99999999999999999999999", "quantity": "1"}, "load"),
    ({"name": "Crate", "load": "1", "quantity": "0"}, "quantity"),
    ({"name": "Crate", "load": "1", "quantity": "many"}, "quantity"),
    ({"name": "Crate", "load": "1", "quantity": "1", "container": "[]"}, "container"),
])
def test_a_refused_free_item_keeps_what_was_typed(client, owner, viktor, data, field):
    client.force_login(owner)
    response = client.post(url("mettle_inventory_add_free", viktor), data)
    body = response.content.decode()
    assert response.status_code == 200 and f'data-error="{field}"' in body
    if data["name"] and len(data["name"]) < 150:
        assert f'value="{data["name"]}"' in body
    assert InventoryItem.objects.filter(character=viktor).count() == 6


def test_bad_item_ids_are_said_not_500(client, owner, viktor, anya):
    client.force_login(owner)
    theirs = sword(anya)
    for pk in (theirs.pk, 987654):
        for name in ("mettle_item_drop", "mettle_item_pick_up", "mettle_item_remove"):
            response = client.post(url(name, viktor, pk), headers={"HX-Request": "true"})
            assert response.status_code == 200
            assert "not in this inventory" in response.content.decode()
    response = client.post(url("mettle_item_move", viktor, sword(viktor).pk),
                           {"container": str(theirs.pk)})
    assert response.status_code == 200 and "Choose a container" in response.content.decode()
    response = client.post(url("mettle_item_wear", viktor, sword(viktor).pk), {"on": "on"})
    assert "not armour" in response.content.decode()
    response = client.post(url("mettle_credit_reverse", viktor, 424242))
    assert response.status_code == 200 and "not in this character" in response.content.decode()
    assert InventoryItem.objects.filter(pk=theirs.pk, character=anya).exists()


def test_pack_drop_and_pick_up_through_the_page(client, owner, viktor):
    client.force_login(owner)
    client.post(url("mettle_inventory_buy", viktor),
                {"key": "Common loads:Backpack, small & filled with gear"})
    pack = InventoryItem.objects.get(character=viktor, name__startswith="Backpack")
    item = InventoryItem.objects.get(character=viktor, name="Deck of cards")
    response = client.post(url("mettle_item_move", viktor, item.pk), {"container": pack.pk},
                           headers={"HX-Request": "true"})
    assert "packed in Backpack" in response.content.decode()
    assert InventoryItem.objects.get(pk=item.pk).container_id == pack.pk
    response = client.post(url("mettle_item_drop", viktor, pack.pk),
                           headers={"HX-Request": "true"})
    assert stats(response)["load"] == "1"
    response = client.post(url("mettle_item_pick_up", viktor, pack.pk),
                           headers={"HX-Request": "true"})
    assert stats(response)["load"] == "2"


def test_give_to_the_stash_and_to_another_character(client, owner, viktor, anya, campaign):
    client.force_login(owner)
    item = InventoryItem.objects.get(character=viktor, name="Deck of cards")
    response = client.post(url("mettle_item_give", viktor, item.pk),
                           {"to": "stash", "request_key": "g1"},
                           headers={"HX-Request": "true"})
    assert "went into the party stash" in response.content.decode()
    assert InventoryItem.objects.get(pk=item.pk).stash_id == campaign.pk
    blade = sword(viktor)
    client.post(url("mettle_item_give", viktor, blade.pk), {"to": str(anya.pk)})
    blade.refresh_from_db()
    assert blade.character_id == anya.pk and blade.mettle_weapon.weapon == "Sword"
    assert GearTransfer.objects.count() == 2
    for to in ("abc", "99999999999999999999", str(anya.pk + 1000)):
        response = client.post(url("mettle_item_give", viktor,
                                   InventoryItem.objects.get(character=viktor,
                                                             name="Brown suit").pk),
                               {"to": to})
        assert response.status_code == 200 and "data-item-error" in response.content.decode()
    stash = client.get(reverse("campaigns:stash", args=[campaign.pk]))
    assert stash.status_code == 200 and "Deck of cards" in stash.content.decode()
    # Its link to the character's own inventory is METTLE's page.
    assert f'href="{url("mettle_inventory", viktor)}"' in stash.content.decode()


def test_the_guide_restores_lost_credit(client, owner, guide, viktor, anya):
    restore = reverse("characters:mettle_credit_restore", args=[viktor.pk])
    page = reverse("characters:detail", args=[viktor.pk])
    client.force_login(guide)
    # Nothing lost: no button (issue #13).
    assert "data-credit-restore" not in client.get(page).content.decode()
    client.logout()
    inventory.item_buy(character=viktor, by=owner, key="Armour:Medium (Chain)")
    assert client.post(restore).status_code == 302  # to the login page
    for user in (owner, anya.owner):
        client.force_login(user)
        assert client.post(restore).status_code == 404
    assert inventory.current_credit(viktor) == 1
    client.force_login(guide)
    body = client.get(page).content.decode()
    assert restore in body and "Restore the Credit lost (1)" in body
    response = client.post(restore)
    assert response.status_code == 302 and inventory.current_credit(viktor) == 2
    assert CreditEntry.objects.filter(character=viktor, kind="guide").get().created_by == guide
    client.post(restore)  # nothing more to restore
    assert CreditEntry.objects.filter(character=viktor, kind="guide").count() == 1
    assert "data-credit-restore" not in client.get(page).content.decode()


def test_another_systems_character_is_not_found_here(client, owner):
    from tests.factories import CharacterFactory

    hero = CharacterFactory(owner=owner)  # an Eldritch Gambit character
    client.force_login(owner)
    assert client.get(reverse("characters:mettle_inventory", args=[hero.pk])).status_code == 404
    assert client.post(reverse("characters:mettle_inventory_buy", args=[hero.pk]),
                       {"key": "Weapons:Axe"}).status_code == 404


def test_a_request_key_of_another_character_is_refused(client, owner, viktor):
    other = make_viktor(owner, name="Vik II")
    inventory.item_buy(character=other, by=owner, key="Weapons:Axe", request_key="shared")
    client.force_login(owner)
    response = client.post(url("mettle_inventory_buy", viktor),
                           {"key": "Weapons:Axe", "request_key": "shared"})
    assert response.status_code == 200 and "another character" in response.content.decode()
    assert not InventoryItem.objects.filter(character=viktor, name="Axe").exists()


def test_a_refused_give_keeps_the_quantity_typed(client, owner, viktor):
    client.force_login(owner)
    stack = inventory.item_add_free(character=viktor, name="Torch", load=1, quantity=3)
    response = client.post(url("mettle_item_give", viktor, stack.pk),
                           {"to": "stash", "quantity": "7"})
    body = response.content.decode()
    assert response.status_code == 200 and "data-item-error" in body and 'value="7"' in body
    assert InventoryItem.objects.get(pk=stack.pk).quantity == 3
