"""The Errant gear and money page (market_views.py): who may read and trade, the purse and
slots shown, buying, selling and undoing through the page (htmx and not), and hostile
input answered beside its field, never a 500."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from characters.models import Character, CoinEntry, InventoryItem
from characters.systems.errant.models import ErrantCharacter
from tests.factories import CampaignFactory, CharacterFactory, MembershipFactory, UserFactory

from .helpers import make_wren, stats

pytestmark = pytest.mark.django_db
LANTERN = "Light|Lantern"


@pytest.fixture
def wren_():
    errant = make_wren(UserFactory())
    CoinEntry.objects.create(character=errant, kind=CoinEntry.Kind.ADJUSTMENT, amount_cp=123)
    return errant


def login(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def url(name, errant, *args):
    return reverse(f"characters:{name}", args=[errant.pk, *args])


def buy_data(**changes):
    return {"tier": "3", "good": LANTERN, "grade": "average", "quantity": "1",
            "request_key": "", **changes}


def test_the_page_shows_the_purse_and_slots(wren_):
    response = login(wren_.owner).get(url("errant_gear", wren_))
    assert response.status_code == 200
    shown = stats(response)
    assert (shown["money"], shown["guilders"], shown["shillings"], shown["pence"],
            shown["coins"]) == ("1 g 2 s 3 p", "1", "2", "3", "6")
    assert "Lantern" in response.content.decode()  # the price tables
    detail = login(wren_.owner).get(wren_.get_absolute_url()).content.decode()
    assert url("errant_gear", wren_) in detail


def test_permissions():
    campaign = CampaignFactory(system="errant")
    player = MembershipFactory(campaign=campaign).user
    errant = make_wren(player)
    Character.objects.filter(pk=errant.pk).update(campaign=campaign)
    page = url("errant_gear", errant)
    anonymous = Client().get(page)
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]
    assert Client().post(url("errant_buy", errant), buy_data()).status_code == 302
    stranger = login(UserFactory())
    assert stranger.get(page).status_code == 404
    assert stranger.post(url("errant_buy", errant), buy_data()).status_code == 404
    other_player = login(MembershipFactory(campaign=campaign).user)
    assert other_player.get(page).status_code == 404
    guide = login(campaign.owner)
    response = guide.get(page)
    assert response.status_code == 200 and url("errant_buy", errant) not in \
        response.content.decode()  # the Guide reads; the player trades
    assert guide.post(url("errant_buy", errant), buy_data()).status_code == 404
    assert login(player).get(page).status_code == 200


def test_another_systems_character_is_404(wren_):
    other = CharacterFactory(owner=wren_.owner)
    client = login(wren_.owner)
    assert client.get(url("errant_gear", other)).status_code == 404
    assert client.post(url("errant_buy", other), buy_data()).status_code == 404
    assert client.post(url("errant_sell", wren_, 999_999), {"tier": "5"}).status_code in (
        200, 302)


def test_buying_through_the_page_with_htmx(wren_):
    client = login(wren_.owner)
    response = client.post(url("errant_buy", wren_), buy_data(request_key="abc"),
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    body = response.content.decode()
    assert 'id="gear-page"' in body and "Bought Lantern: 3 s." in body
    assert stats(response)["money"] == "9 s 3 p"
    # The same click again buys nothing more.
    client.post(url("errant_buy", wren_), buy_data(request_key="abc"), HTTP_HX_REQUEST="true")
    assert ErrantCharacter.objects.get(pk=wren_.pk).coins_cp == 93


@pytest.mark.parametrize(("changes", "field", "words"), [
    ({"good": "Nothing|Such"}, "good", "Choose an item of the price tables."),
    ({"good": ""}, "good", "Choose an item of the price tables."),
    ({"quantity": "many"}, "quantity", "whole number"),
    ({"quantity": "10" * 30}, "quantity", "at most"),
    ({"quantity": "-3"}, "quantity", "at least 1"),
    ({"tier": "9"}, "tier", "1 to 5"),
    ({"tier": "2"}, "good", "Rarity 3"),
    ({"grade": "legendary"}, "grade", "shoddy, average or masterwork"),
    ({"grade": "shoddy"}, "grade", "one Quality"),
    ({"quantity": "5"}, "good", "Wren has 1 g 2 s 3 p"),
])
def test_hostile_buying_is_refused_beside_its_field(wren_, changes, field, words):
    response = login(wren_.owner).post(url("errant_buy", wren_), buy_data(**changes))
    assert response.status_code == 200
    body = response.content.decode()
    assert f'data-field-error="{field}"' in body and words in body
    assert ErrantCharacter.objects.get(pk=wren_.pk).coins_cp == 123
    if changes.get("quantity") == "many":
        assert 'value="many"' in body  # nothing typed is lost


def test_selling_and_undoing_through_the_page(wren_):
    client = login(wren_.owner)
    torch = InventoryItem.objects.get(character=wren_, name="Torch")
    response = client.post(url("errant_sell", wren_, torch.pk), {"tier": "3"})
    assert response.status_code == 302
    assert ErrantCharacter.objects.get(pk=wren_.pk).coins_cp == 124
    again = client.post(url("errant_sell", wren_, torch.pk), {"tier": "3"},
                        HTTP_HX_REQUEST="true")
    assert again.status_code == 200 and "no longer on this sheet" in again.content.decode()
    bad = client.post(url("errant_sell", wren_, torch.pk), {"tier": "x"})
    assert bad.status_code == 200 and "tier from 1 to 5" in bad.content.decode()
    trade = wren_.coin_entries.get(kind=CoinEntry.Kind.SALE)
    assert client.post(url("errant_trade_undo", wren_), {"trade": "nope"}).status_code == 200
    response = client.post(url("errant_trade_undo", wren_), {"trade": str(trade.pk)})
    assert response.status_code == 302
    assert ErrantCharacter.objects.get(pk=wren_.pk).coins_cp == 123
    assert InventoryItem.objects.filter(character=wren_, name="Torch").exists()
    twice = client.post(url("errant_trade_undo", wren_), {"trade": str(trade.pk)})
    assert twice.status_code == 200 and "Only the latest" in twice.content.decode()


def test_get_only_and_post_only(wren_):
    client = login(wren_.owner)
    assert client.post(url("errant_gear", wren_)).status_code == 405
    assert client.get(url("errant_buy", wren_)).status_code == 405


def money_data(**changes):
    return {"direction": "gained", "guilders": "1", "shillings": "2", "pennies": "3",
            "note": "A purse under the bridge", "request_key": "", **changes}


def test_money_is_recorded_and_undone(wren_):
    client = login(wren_.owner)
    response = client.post(url("errant_money", wren_), money_data(request_key="m1"),
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and stats(response)["money"] == "2 g 4 s 6 p"
    client.post(url("errant_money", wren_), money_data(request_key="m1"))  # a double click
    assert ErrantCharacter.objects.get(pk=wren_.pk).coins_cp == 246
    spent = client.post(url("errant_money", wren_),
                        money_data(direction="spent", guilders="", shillings="5", pennies="",
                                   note="A round for the house"))
    assert spent.status_code == 302
    assert ErrantCharacter.objects.get(pk=wren_.pk).coins_cp == 196
    entry = wren_.coin_entries.filter(kind=CoinEntry.Kind.ADJUSTMENT).latest("pk")
    stale = wren_.coin_entries.filter(kind=CoinEntry.Kind.ADJUSTMENT).earliest("pk")
    assert "Only the latest" in client.post(url("errant_money_undo", wren_),
                                            {"entry": str(stale.pk)}).content.decode()
    client.post(url("errant_money_undo", wren_), {"entry": str(entry.pk)})
    assert ErrantCharacter.objects.get(pk=wren_.pk).coins_cp == 246


@pytest.mark.parametrize(("changes", "field", "words"), [
    ({"guilders": "lots"}, "guilders", "A whole number of coins."),
    ({"pennies": "-4"}, "pennies", "At least 0 coins."),
    ({"shillings": "9" * 30}, "shillings", "At most 99,999 coins."),
    ({"note": ""}, "note", "Say where the money came from or went."),
    ({"note": "x" * 301}, "note", "300 characters"),
    ({"direction": "stolen"}, "direction", "Say gained or spent."),
    ({"guilders": "", "shillings": "0", "pennies": ""}, "amount", "Enter an amount"),
    ({"direction": "spent", "guilders": "2"}, "amount", "cannot be spent"),
])
def test_hostile_money_is_refused_beside_its_field(wren_, changes, field, words):
    response = login(wren_.owner).post(url("errant_money", wren_), money_data(**changes))
    assert response.status_code == 200
    body = response.content.decode()
    expected = "guilders" if field == "amount" else field
    assert f'data-field-error="{expected}"' in body and words in body
    assert ErrantCharacter.objects.get(pk=wren_.pk).coins_cp == 123


def test_money_permissions(wren_):
    assert Client().post(url("errant_money", wren_), money_data()).status_code == 302
    assert login(UserFactory()).post(url("errant_money", wren_), money_data()).status_code \
        == 404
    assert login(UserFactory()).post(url("errant_money_undo", wren_), {"entry": "1"}) \
        .status_code == 404
    assert ErrantCharacter.objects.get(pk=wren_.pk).coins_cp == 123
