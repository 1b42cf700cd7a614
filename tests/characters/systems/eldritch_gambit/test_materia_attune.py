"""Attuning a Materia from the inventory page (Magic > Materia: "Casters must spend a
single WP to attune ... This WP does not come back until they discard the item"): who
may, what a refusal says next to the line, the button and its reason, and concurrent
clicks (PostgreSQL) spending WP once each and never below the floor."""

import pytest
from django.urls import reverse

from campaigns.systems.eldritch_gambit import roll_services
from campaigns.systems.eldritch_gambit.rolls import Roll
from characters.models import InventoryItem
from characters.systems.eldritch_gambit import inventory
from characters.systems.eldritch_gambit.builds import sheet_for
from characters.systems.eldritch_gambit.inventory import InventoryError
from characters.systems.eldritch_gambit.models import EldritchGambitCharacter
from rules.engine.eldritch_gambit import rolls
from tests.concurrency import needs_postgresql, run_at_once
from tests.factories import (
    AsphodelFactory,
    CampaignFactory,
    CoImpMembershipFactory,
    MembershipFactory,
    UserFactory,
)

HTMX = {"HTTP_HX_REQUEST": "true"}


def materia(character, name="Wolf tattoo", quantity=1):
    return inventory.item_add(character=character, by=character.owner, name=name, load=0,
                              kind="materia", quantity=quantity)


def attune_url(character, item):
    return reverse("characters:item_attune", args=[character.pk, item.pk])


def line(body, item):
    start = body.index(f'id="item-{item.pk}"')
    return body[start:body.index(f'id="more-{item.pk}"', start)]


def wp_current(character):
    return EldritchGambitCharacter.objects.get(pk=character.pk).wp_current


@pytest.mark.django_db
def test_only_the_owner_attunes(client):
    campaign = CampaignFactory()
    player = MembershipFactory(campaign=campaign).user
    hero = AsphodelFactory(owner=player, campaign=campaign, wp_current=9)
    tattoo = materia(hero)
    address = attune_url(hero, tattoo)
    assert client.post(address, {"on": "1"}).status_code == 302  # anonymous: log in
    for user in (campaign.owner, CoImpMembershipFactory(campaign=campaign).user,
                 MembershipFactory(campaign=campaign).user, UserFactory()):
        client.force_login(user)  # the Imp reads the sheet; the inventory is the player's
        assert client.post(address, {"on": "1"}, **HTMX).status_code == 404
    tattoo.refresh_from_db()
    assert not tattoo.attuned and wp_current(hero) == 9
    client.force_login(player)
    response = client.post(address, {"on": "1"}, **HTMX)
    assert response.status_code == 200
    assert "Wolf tattoo is attuned: 1 WP spent, held until it is discarded or given." in (
        response.content.decode())
    tattoo.refresh_from_db()
    assert tattoo.attuned and wp_current(hero) == 8


@pytest.mark.django_db
@pytest.mark.parametrize("on", ["", "2", "yes", "-1", "1\x00", "０", "x" * 500])
def test_hostile_input_says_so_and_changes_nothing(client, on):
    hero = AsphodelFactory(wp_current=9)
    tattoo = materia(hero)
    client.force_login(hero.owner)
    response = client.post(attune_url(hero, tattoo), {"on": on}, **HTMX)
    assert response.status_code == 200
    assert "Choose on or off." in response.content.decode()
    tattoo.refresh_from_db()
    assert not tattoo.attuned and wp_current(hero) == 9


@pytest.mark.django_db
def test_another_characters_item_or_no_item_is_refused(client):
    hero = AsphodelFactory()
    theirs = materia(AsphodelFactory())
    client.force_login(hero.owner)
    for pk in (theirs.pk, 999999):
        response = client.post(reverse("characters:item_attune", args=[hero.pk, pk]),
                               {"on": "1"}, **HTMX)
        assert response.status_code == 200
        assert "That item is not in this inventory" in response.content.decode()
    theirs.refresh_from_db()
    assert not theirs.attuned


@pytest.mark.django_db
def test_the_floor_refusal_is_next_to_the_line_and_the_button_says_why(client):
    hero = AsphodelFactory(wp_current=6)  # at the floor of 6
    tattoo = materia(hero)
    client.force_login(hero.owner)
    body = client.get(reverse("characters:inventory", args=[hero.pk])).content.decode()
    row = line(body, tattoo)
    assert "disabled" in row.split(f'id="attune-{tattoo.pk}"', 1)[1].split(">", 1)[0]
    assert "Current WP 6, floor 6: 0 WP to spend, 1 needed." in row
    # Posted all the same (a stale page): refused next to the line, nothing spent.
    body = client.post(attune_url(hero, tattoo), {"on": "1"}, **HTMX).content.decode()
    assert (f'id="item-{tattoo.pk}-error">Attuning Wolf tattoo spends 1 WP: current WP 6 '
            "cannot drop below the floor of 6.") in body
    tattoo.refresh_from_db()
    assert not tattoo.attuned and wp_current(hero) == 6
    # Without JavaScript: the page again, with the message.
    response = client.post(attune_url(hero, tattoo), {"on": "1"})
    assert response.status_code in (200, 302, 409, 422)
    tattoo.refresh_from_db()
    assert not tattoo.attuned


@pytest.mark.django_db
def test_an_attuned_line_offers_no_stop_and_a_posted_stop_is_refused(client):
    hero = AsphodelFactory()
    tattoo = materia(hero)
    client.force_login(hero.owner)
    body = client.get(reverse("characters:inventory", args=[hero.pk])).content.decode()
    assert f'id="attune-{tattoo.pk}" type="submit">Attune (spend 1 WP)' in line(body, tattoo)
    client.post(attune_url(hero, tattoo), {"on": "1"}, **HTMX)
    body = client.get(reverse("characters:inventory", args=[hero.pk])).content.decode()
    row = line(body, tattoo)
    assert "Stop attuning" not in row and 'value="0"' not in row
    assert "Materia, attuned (1 WP held)" in row
    assert "Attuned: 1 WP held until it is removed, sold or given." in row
    body = client.post(attune_url(hero, tattoo), {"on": "0"}, **HTMX).content.decode()
    assert "Wolf tattoo stays attuned: the WP spent on it is held until it is discarded" in body
    tattoo.refresh_from_db()
    assert tattoo.attuned and wp_current(hero) == 10


# -- concurrent clicks (PostgreSQL) ---------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@needs_postgresql
def test_ten_attunements_at_once_stop_at_the_floor():
    hero = AsphodelFactory(wp_current=9)  # floor 6: three WP to spend
    lines = [materia(hero, f"Ring {i}") for i in range(10)]
    results = run_at_once(10, lambda i: inventory.materia_attune(
        character=hero, item=lines[i], attuned=True))
    done = [r for r in results if isinstance(r, InventoryItem)]
    refused = [r for r in results if isinstance(r, InventoryError)]
    assert len(done) == 3 and len(refused) == 7
    assert all(r.code == "wp_floor" for r in refused)
    assert wp_current(hero) == 6
    assert InventoryItem.objects.filter(character=hero, attuned=True).count() == 3


@pytest.mark.django_db(transaction=True)
@needs_postgresql
def test_one_materia_attuned_from_ten_clicks_spends_one_wp():
    hero = AsphodelFactory(wp_current=9)
    tattoo = materia(hero)
    results = run_at_once(10, lambda i: inventory.materia_attune(
        character=hero, item=tattoo, attuned=True))
    assert all(isinstance(r, InventoryItem) for r in results)
    assert wp_current(hero) == 8


@pytest.mark.django_db(transaction=True)
@needs_postgresql
def test_attunements_and_rerolls_at_once_share_the_wp():
    hero = AsphodelFactory(wp_current=9)  # three WP to spend
    lines = [materia(hero, f"Ring {i}") for i in range(5)]
    rallies = [roll_services.make_roll(character=hero, by=hero.owner,
                                       spec=rolls.rally("1d4+2"), kind=Roll.Kind.RALLY)
               for _ in range(5)]

    def act(i):
        if i % 2:
            return inventory.materia_attune(character=hero, item=lines[i // 2], attuned=True)
        return roll_services.reroll(roll=rallies[i // 2], by=hero.owner)

    results = run_at_once(10, act)
    spent = [r for r in results if isinstance(r, (InventoryItem, Roll))]
    assert len(spent) == 3 and wp_current(hero) == 6


# -- the quantity of an attuned line (docs/RULES.md, Materia) --------------------------------


def quantity_url(character, item):
    return reverse("characters:item_quantity", args=[character.pk, item.pk])


def attuned(hero, quantity=1, name="Wolf tattoo"):
    item = materia(hero, name, quantity)
    inventory.materia_attune(character=hero, item=item, attuned=True)
    return item


@pytest.mark.django_db
def test_raising_an_attuned_line_attunes_the_units_added_for_a_wp_each():
    hero = AsphodelFactory()  # WP 11 full, floor 6
    tattoo = attuned(hero)  # 10 of 10
    inventory.item_set_quantity(character=hero, item=tattoo, quantity=3)
    hero.refresh_from_db()
    sheet = sheet_for(hero)
    assert wp_current(hero) == 8 and sheet.value("wp") == 8  # 11 less 3 attuned units
    assert not [i for i in sheet.issues if i.code == "wp_current_over_maximum"]
    # An unattuned Materia line, or any other, spends nothing.
    ring = materia(hero, "Ring")
    inventory.item_set_quantity(character=hero, item=ring, quantity=4)
    assert wp_current(hero) == 8
    # The same quantity again (a double click) spends nothing more.
    inventory.item_set_quantity(character=hero, item=tattoo, quantity=3)
    assert wp_current(hero) == 8


@pytest.mark.django_db
def test_raising_past_the_floor_is_refused_with_the_way_out():
    hero = AsphodelFactory(wp_current=9)
    tattoo = attuned(hero)  # WP 8, floor 6: two to spend
    with pytest.raises(InventoryError) as refused:
        inventory.item_set_quantity(character=hero, item=tattoo, quantity=4)
    assert refused.value.code == "wp_floor" and refused.value.field == "quantity"
    assert refused.value.message == (
        "Wolf tattoo is attuned: 3 more attune for 3 WP, and current WP 8 cannot drop below "
        "the floor of 6. Add them as a line of their own to carry them unattuned.")
    tattoo.refresh_from_db()
    assert tattoo.quantity == 1 and wp_current(hero) == 8
    inventory.item_set_quantity(character=hero, item=tattoo, quantity=3)
    assert wp_current(hero) == 6


@pytest.mark.django_db
def test_lowering_an_attuned_line_lifts_the_wp_its_units_held_not_refilled():
    hero = AsphodelFactory()
    tattoo = attuned(hero, quantity=3)  # 11 less 3: 8 of 8
    assert wp_current(hero) == 8 and sheet_for(hero).value("wp") == 8
    inventory.item_set_quantity(character=hero, item=tattoo, quantity=1)
    hero.refresh_from_db()
    sheet = sheet_for(hero)
    # Two units discarded: WP is 10 again, to be regained the usual ways.
    assert sheet.value("wp") == 10 and sheet.value("wp_current") == 8
    tattoo.refresh_from_db()
    assert tattoo.attuned and tattoo.quantity == 1


@pytest.mark.django_db
def test_the_quantity_says_what_it_costs_and_a_refusal_is_next_to_it(client):
    hero = AsphodelFactory(wp_current=9)
    tattoo = attuned(hero)  # WP 8: two to spend
    client.force_login(hero.owner)
    body = client.get(reverse("characters:inventory", args=[hero.pk])).content.decode()
    assert (f'id="qty-{tattoo.pk}-attuned">Attuned: each one added is attuned for 1 WP (2 to '
            "spend); each one taken off lifts the WP it held.") in body
    body = client.post(quantity_url(hero, tattoo), {"quantity": "5"}, **HTMX).content.decode()
    assert (f'id="qty-{tattoo.pk}-error">Wolf tattoo is attuned: 4 more attune for 4 WP'
            in body)
    assert wp_current(hero) == 8
    body = client.post(quantity_url(hero, tattoo), {"quantity": "2"}, **HTMX).content.decode()
    assert "Wolf tattoo: quantity 2, all attuned (2 WP held)." in body
    assert wp_current(hero) == 7
    for typed in ("-1", "0", "x", "1\x00", "9" * 30):
        client.post(quantity_url(hero, tattoo), {"quantity": typed}, **HTMX)
    tattoo.refresh_from_db()
    assert tattoo.quantity == 2 and wp_current(hero) == 7


@pytest.mark.django_db
def test_only_the_owner_raises_an_attuned_line(client):
    campaign = CampaignFactory()
    player = MembershipFactory(campaign=campaign).user
    hero = AsphodelFactory(owner=player, campaign=campaign)
    tattoo = attuned(hero)
    address = quantity_url(hero, tattoo)
    assert client.post(address, {"quantity": "3"}).status_code == 302
    for user in (campaign.owner, CoImpMembershipFactory(campaign=campaign).user,
                 MembershipFactory(campaign=campaign).user, UserFactory()):
        client.force_login(user)
        assert client.post(address, {"quantity": "3"}, **HTMX).status_code == 404
    tattoo.refresh_from_db()
    assert tattoo.quantity == 1 and wp_current(hero) == 10


@pytest.mark.django_db(transaction=True)
@needs_postgresql
def test_raises_and_rerolls_at_once_share_the_wp():
    hero = AsphodelFactory(wp_current=10)
    lines = [attuned(hero, name=f"Ring {i}") for i in range(2)]  # WP 8 of 9: two to spend
    rallies = [roll_services.make_roll(character=hero, by=hero.owner,
                                       spec=rolls.rally("1d4+2"), kind=Roll.Kind.RALLY)
               for _ in range(5)]

    def act(i):
        if i < 5:
            return inventory.item_set_quantity(character=hero, item=lines[i % 2],
                                               quantity=2)
        return roll_services.reroll(roll=rallies[i - 5], by=hero.owner)

    results = run_at_once(10, act)
    assert wp_current(hero) == 6
    raised = InventoryItem.objects.filter(character=hero, quantity=2).count()
    rerolled = len([r for r in results if isinstance(r, Roll)])
    assert raised + rerolled == 2
