"""Giving gear from the inventory page and the party stash page: permissions (anonymous,
a player outside the campaign, the owner, a fellow member, the Imp), plain posts and
htmx partials, refusals beside the select, never a server error."""

import re

import pytest
from django.urls import reverse

from campaigns import stash_views, transfers
from characters.models import GearTransfer, InventoryItem
from characters.systems.eldritch_gambit import inventory, inventory_views
from rules.models import GearItem
from tests.factories import (
    AsphodelFactory,
    CampaignFactory,
    CharacterFactory,
    CoImpMembershipFactory,
    MembershipFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def gear(name):
    return GearItem.objects.srd().get(name=name)


def add(character, name, **kwargs):
    return inventory.item_add(character=character, by=character.owner,
                              catalog_item=gear(name), **kwargs)


def stats(response):
    return dict(re.findall(r'data-stat="(\w+)"[^>]*>([^<]*)<', response.content.decode()))


@pytest.fixture
def rendered(monkeypatch):
    """The template names the views render (a partial sends no template_rendered
    signal, so response.templates cannot tell)."""
    names = []
    for module in (inventory_views, stash_views):
        original = module.render

        def spy(request, template_name, *args, _original=original, **kwargs):
            names.append(template_name)
            return _original(request, template_name, *args, **kwargs)

        monkeypatch.setattr(module, "render", spy)
    return names


@pytest.fixture
def campaign(db):
    return CampaignFactory()


@pytest.fixture
def asphodel(campaign):
    return AsphodelFactory(owner=MembershipFactory(campaign=campaign).user, campaign=campaign)


@pytest.fixture
def brom(campaign):
    return CharacterFactory(owner=MembershipFactory(campaign=campaign).user, campaign=campaign,
                            name="Brom")


@pytest.fixture
def pack(asphodel):
    """Asphodel's backpack with a small sack in it, and two ropes in the sack: Load 2."""
    backpack = add(asphodel, "Backpack")
    sack = add(asphodel, "Sack, small", container=backpack)
    add(asphodel, "Rope (10m)", quantity=2, container=sack)
    return backpack


def give_url(character, item_pk):
    return reverse("characters:item_give", args=[character.pk, item_pk])


def stash_url(campaign):
    return reverse("campaigns:stash", args=[campaign.pk])


def take_url(campaign, item_pk):
    return reverse("campaigns:stash_take", args=[campaign.pk, item_pk])


def holders():
    return list(InventoryItem.objects.order_by("pk").values_list("character_id", "stash_id"))


def logged_in(client, user):
    client.force_login(user)
    return client


# -- giving: permissions --------------------------------------------------------------------


def test_anonymous_is_sent_to_log_in(client, asphodel, brom, pack):
    before = holders()
    response = client.post(give_url(asphodel, pack.pk), {"to": str(brom.pk)})
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert holders() == before


@pytest.mark.parametrize("who", ["stranger", "fellow member", "imp", "co-imp"])
def test_nobody_but_the_owner_gives_from_the_inventory_page(client, campaign, asphodel, brom,
                                                             pack, who):
    """The inventory page is its player's (404 for anyone else, as every inventory
    action); the Imp hands out stash gear from the stash page instead."""
    user = {"stranger": UserFactory, "fellow member": lambda: brom.owner,
            "imp": lambda: campaign.owner,
            "co-imp": lambda: CoImpMembershipFactory(campaign=campaign).user}[who]()
    before = holders()
    logged_in(client, user)
    for headers in ({}, HTMX):
        response = client.post(give_url(asphodel, pack.pk), {"to": str(brom.pk)}, **headers)
        assert response.status_code == 404
    assert holders() == before
    assert not GearTransfer.objects.exists()


def test_the_owner_gives_the_backpack_by_plain_post(client, asphodel, brom, pack):
    logged_in(client, asphodel.owner)
    response = client.post(give_url(asphodel, pack.pk), {"to": str(brom.pk)})
    assert response.status_code == 302
    assert response["Location"] == (reverse("characters:inventory", args=[asphodel.pk])
                                    + f"#item-{pack.pk}")
    assert set(brom.items.values_list("name", flat=True)) == {"Backpack", "Sack, small",
                                                              "Rope (10m)"}
    page = client.get(response["Location"]).content.decode()
    assert "Backpack, with everything in it, went to Brom." in page
    assert "Gave Backpack with 2 lines inside to Brom" in page
    assert "Inside: Sack, small; Rope (10m) x2" in page


def test_htmx_answers_with_the_inventory_stats_and_history(client, asphodel, brom, pack,
                                                          rendered):
    logged_in(client, asphodel.owner)
    assert stats(client.get(reverse("characters:inventory", args=[asphodel.pk])))["load"] == "2"
    response = client.post(give_url(asphodel, pack.pk), {"to": str(brom.pk)}, **HTMX)
    assert response.status_code == 200
    assert rendered[-1] == "characters/inventory.html#htmx-response"
    assert response["HX-Retarget"] == "#inventory"
    body = response.content.decode()
    assert "<html" not in body
    assert re.search(r'id="inventory-stats"[^>]*hx-swap-oob="true"', body)
    assert re.search(r'id="transfer-history"[^>]*hx-swap-oob="true"', body)
    assert stats(response)["load"] == "0"
    assert f'id="item-{pack.pk}"' not in body
    assert "Gave Backpack with 2 lines inside to Brom" in body
    # Brom's page shows it received, with its Load.
    logged_in(client, brom.owner)
    theirs = client.get(reverse("characters:inventory", args=[brom.pk]))
    assert stats(theirs)["load"] == "2"
    assert f"Received Backpack with 2 lines inside from {asphodel.name}" in \
        theirs.content.decode()


def test_the_give_select_lists_the_party_and_the_stash(client, campaign, asphodel, brom, pack):
    left = CharacterFactory(owner=brom.owner, name="Gone")  # in no campaign
    logged_in(client, asphodel.owner)
    body = client.get(reverse("characters:inventory", args=[asphodel.pk])).content.decode()
    select = re.search(rf'<select[^>]*id="give-{pack.pk}".*?</select>', body, re.S).group(0)
    assert f'<option value="{brom.pk}">Brom</option>' in select
    assert '<option value="stash">The party stash</option>' in select
    assert f'value="{asphodel.pk}"' not in select and f'value="{left.pk}"' not in select
    assert stash_url(campaign) in body
    # Outside a campaign there is nobody to give to.
    loner = AsphodelFactory(owner=asphodel.owner)
    rope = add(loner, "Rope (10m)")
    body = client.get(reverse("characters:inventory", args=[loner.pk])).content.decode()
    assert f'id="give-{rope.pk}"' not in body
    assert "In a campaign, gear can be handed" in body


def test_giving_to_the_stash(client, campaign, asphodel, pack):
    logged_in(client, asphodel.owner)
    response = client.post(give_url(asphodel, pack.pk), {"to": "stash"}, **HTMX)
    assert "Backpack, with everything in it, went into the party stash." in \
        response.content.decode()
    assert set(campaign.stash_items.values_list("name", flat=True)) == {
        "Backpack", "Sack, small", "Rope (10m)"}


def test_the_same_give_posted_twice_is_one(client, asphodel, brom, pack):
    logged_in(client, asphodel.owner)
    data = {"to": str(brom.pk), "request_key": "k-give-1"}
    client.post(give_url(asphodel, pack.pk), data, **HTMX)
    again = client.post(give_url(asphodel, pack.pk), data, **HTMX)
    assert again.status_code == 200
    assert "That was handed over already." in again.content.decode()
    assert GearTransfer.objects.count() == 1


# -- giving: refusals beside the select -------------------------------------------------------


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
@pytest.mark.parametrize(("typed", "message"), [
    ("", "Choose who receives it."),
    ("abc", "Choose a character of the party or the party stash."),
    ("99999999999999999999999", "Choose a character of the party or the party stash."),
    ("999999", "Choose a character of the party."),
])
def test_bad_receivers(client, asphodel, pack, headers, typed, message):
    logged_in(client, asphodel.owner)
    response = client.post(give_url(asphodel, pack.pk), {"to": typed}, **headers)
    assert response.status_code == 200
    body = response.content.decode()
    assert f'id="give-{pack.pk}-error">{message}' in body
    assert re.search(rf'id="give-{pack.pk}" aria-invalid="true"', body)
    assert not GearTransfer.objects.exists()


def test_a_receiver_outside_the_campaign(client, asphodel, pack):
    stranger = CharacterFactory(campaign=CampaignFactory(), name="Stranger")
    logged_in(client, asphodel.owner)
    body = client.post(give_url(asphodel, pack.pk), {"to": str(stranger.pk)},
                       **HTMX).content.decode()
    assert (f'id="give-{pack.pk}-error">Stranger is not in {asphodel.campaign.name}: gear goes '
            "only to characters of the same campaign.") in body
    assert InventoryItem.objects.get(pk=pack.pk).character_id == asphodel.pk


def test_an_item_that_is_gone_or_someone_elses(client, asphodel, brom, pack):
    theirs = add(brom, "Lantern")
    logged_in(client, asphodel.owner)
    for item_pk in (999999, theirs.pk):
        response = client.post(give_url(asphodel, item_pk), {"to": str(brom.pk)}, **HTMX)
        assert response.status_code == 200
        assert "That item is not in this inventory" in response.content.decode()
    assert InventoryItem.objects.get(pk=theirs.pk).character_id == brom.pk
    assert client.get(give_url(asphodel, pack.pk)).status_code == 405


# -- the stash page -------------------------------------------------------------------------


@pytest.fixture
def stashed(campaign, asphodel, pack):
    transfers.item_give(item=pack, to_stash=campaign, by=asphodel.owner)
    return pack


def test_the_stash_for_anonymous_and_strangers(client, campaign, brom, stashed):
    before = holders()
    for method, address in (("get", stash_url(campaign)),
                            ("post", take_url(campaign, stashed.pk))):
        response = getattr(client, method)(address, {"to": str(brom.pk)})
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    logged_in(client, UserFactory())
    for method, address in (("get", stash_url(campaign)),
                            ("post", take_url(campaign, stashed.pk))):
        for headers in ({}, HTMX):
            response = getattr(client, method)(address, {"to": str(brom.pk)}, **headers)
            assert response.status_code == 404
    assert holders() == before


def test_a_member_sees_the_stash_with_its_load_and_contents(client, campaign, brom, stashed,
                                                            rendered):
    logged_in(client, brom.owner)
    response = client.get(stash_url(campaign))
    assert response.status_code == 200
    assert rendered == ["characters/stash_detail.html"]
    body = response.content.decode()
    assert stats(response)["stash_load"] == "2"
    assert re.search(r'data-item="Backpack".*<ul class="inv-list inv-contents" aria-label="In '
                     r'Backpack">.*data-item="Sack, small".*aria-label="In Sack, small">.*'
                     r'data-item="Rope \(10m\)"', body, re.S)
    assert f'data-capacity="{stashed.pk}"><span class="visually-hidden">holds Load </span>2 / 4' \
        in body
    # A player takes into their own characters only.
    select = re.search(rf'<select[^>]*id="take-{stashed.pk}".*?</select>', body, re.S).group(0)
    assert f'<option value="{brom.pk}">Brom</option>' in select
    assert select.count("<option") == 1
    assert "Hero" not in select and "Asphodel" not in select
    assert "stashed Backpack with 2 lines inside" in body


def test_the_imp_may_take_into_anyone(client, campaign, asphodel, brom, stashed):
    logged_in(client, campaign.owner)
    body = client.get(stash_url(campaign)).content.decode()
    select = re.search(rf'<select[^>]*id="take-{stashed.pk}".*?</select>', body, re.S).group(0)
    assert f'value="{brom.pk}"' in select and f'value="{asphodel.pk}"' in select
    response = client.post(take_url(campaign, stashed.pk), {"to": str(brom.pk)})
    assert response.status_code == 302 and response["Location"] == stash_url(campaign)
    assert brom.items.filter(name="Backpack").exists()
    body = client.get(stash_url(campaign)).content.decode()
    assert "Brom took Backpack with 2 lines inside" in body
    assert f"(by {campaign.owner.get_username()})" in body


def test_a_co_imp_may_take_into_anyone(client, campaign, asphodel, brom, stashed):
    logged_in(client, CoImpMembershipFactory(campaign=campaign).user)
    client.post(take_url(campaign, stashed.pk), {"to": str(asphodel.pk)}, **HTMX)
    assert asphodel.items.filter(name="Backpack").exists()


def test_taking_by_htmx(client, campaign, brom, stashed, rendered):
    logged_in(client, brom.owner)
    response = client.post(take_url(campaign, stashed.pk), {"to": str(brom.pk)}, **HTMX)
    assert response.status_code == 200
    assert rendered == ["characters/stash_detail.html#htmx-response"]
    assert response["HX-Retarget"] == "#stash-items"
    body = response.content.decode()
    assert re.search(r'id="stash-history"[^>]*hx-swap-oob="true"', body)
    assert re.search(r'id="stash-status"[^>]*hx-swap-oob="innerHTML"', body)
    assert "Backpack, with everything in it, went to Brom." in body
    assert stats(response)["stash_load"] == "0"
    assert "The stash is empty." in body


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_a_player_cannot_take_into_someone_elses_character(client, campaign, asphodel, brom,
                                                           stashed, headers):
    logged_in(client, brom.owner)
    response = client.post(take_url(campaign, stashed.pk), {"to": str(asphodel.pk)}, **headers)
    assert response.status_code == 200
    body = response.content.decode()
    assert f'id="take-{stashed.pk}-error">Take it into your own character' in body
    assert InventoryItem.objects.get(pk=stashed.pk).stash_id == campaign.pk


def test_taking_what_is_not_in_this_stash(client, campaign, asphodel, brom, stashed):
    other = CampaignFactory()
    theirs = InventoryItem.objects.create(stash=other, name="Their chest", load=1)
    logged_in(client, brom.owner)
    for item_pk in (theirs.pk, 999999, add(brom, "Lantern").pk):
        response = client.post(take_url(campaign, item_pk), {"to": str(brom.pk)}, **HTMX)
        assert response.status_code == 200
        assert "That item is not in this stash" in response.content.decode()
    assert InventoryItem.objects.get(pk=theirs.pk).stash_id == other.pk
    for typed in ("", "x", "99999999999999999999999"):
        response = client.post(take_url(campaign, stashed.pk), {"to": typed})
        assert response.status_code == 200
        assert f'id="take-{stashed.pk}-error">' in response.content.decode()
    assert client.get(take_url(campaign, stashed.pk)).status_code == 405


def test_the_same_take_posted_twice_is_one(client, campaign, brom, stashed):
    logged_in(client, brom.owner)
    data = {"to": str(brom.pk), "request_key": "k-take-1"}
    client.post(take_url(campaign, stashed.pk), data)
    again = client.post(take_url(campaign, stashed.pk), data, **HTMX)
    assert "That was taken already." in again.content.decode()
    assert GearTransfer.objects.filter(kind="from_stash").count() == 1


def test_a_member_without_a_character_sees_the_stash_but_no_take(client, campaign, stashed):
    logged_in(client, MembershipFactory(campaign=campaign).user)
    body = client.get(stash_url(campaign)).content.decode()
    assert 'data-item="Backpack"' in body
    assert f'id="take-{stashed.pk}"' not in body
    assert "Bring a character into the campaign to take gear from the stash." in body


def test_the_campaign_page_links_to_the_stash(client, campaign, brom):
    logged_in(client, brom.owner)
    body = client.get(reverse("campaigns:detail", args=[campaign.pk])).content.decode()
    assert f'href="{stash_url(campaign)}">Party stash</a>' in body


# -- part of a stack ------------------------------------------------------------------------


@pytest.fixture
def spikes(asphodel):
    """Asphodel's 10 iron spikes, Load 1 each."""
    return inventory.item_add(character=asphodel, by=asphodel.owner, name="Iron spikes",
                              load=1, quantity=10)


def quantity_of(item):
    return InventoryItem.objects.get(pk=item.pk).quantity


def test_how_many_is_offered_beside_give_for_a_stack_only(client, asphodel, pack, spikes):
    logged_in(client, asphodel.owner)
    body = client.get(reverse("characters:inventory", args=[asphodel.pk])).content.decode()
    give = re.search(rf'<form[^>]*action="{give_url(asphodel, spikes.pk)}".*?</form>', body,
                     re.S).group(0)
    assert f'<label class="small" for="give-qty-{spikes.pk}">How many' in give
    assert re.search(rf'<input[^>]*max="10" name="quantity" id="give-qty-{spikes.pk}" '
                     r'value=""', give)
    assert f'id="give-qty-{spikes.pk}-max">of 10</span>' in give
    # A single item, or a container with things in it, goes whole: no number to type.
    assert f'id="give-qty-{pack.pk}"' not in body
    rope = InventoryItem.objects.get(name="Rope (10m)")  # x2 inside the sack
    assert f'id="give-qty-{rope.pk}"' in body


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_the_owner_gives_part_of_a_stack(client, asphodel, brom, spikes, headers):
    logged_in(client, asphodel.owner)
    response = client.post(give_url(asphodel, spikes.pk),
                           {"to": str(brom.pk), "quantity": "4"}, **headers)
    if headers:
        body = response.content.decode()
        assert stats(response)["load"] == "6"
    else:
        assert response.status_code == 302
        body = client.get(response["Location"]).content.decode()
    assert "Iron spikes x4 went to Brom." in body
    assert "Gave Iron spikes x4 to Brom" in body
    assert quantity_of(spikes) == 6
    assert brom.items.get().quantity == 4
    logged_in(client, brom.owner)
    theirs = client.get(reverse("characters:inventory", args=[brom.pk]))
    assert stats(theirs)["load"] == "4"
    assert f"Received Iron spikes x4 from {asphodel.name}" in theirs.content.decode()


def test_an_empty_how_many_gives_the_whole_line(client, asphodel, campaign, spikes):
    logged_in(client, asphodel.owner)
    response = client.post(give_url(asphodel, spikes.pk), {"to": "stash", "quantity": ""},
                           **HTMX)
    assert "Iron spikes x10 went into the party stash." in response.content.decode()
    assert InventoryItem.objects.get(pk=spikes.pk).stash_id == campaign.pk


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
@pytest.mark.parametrize(("typed", "message"), [
    ("0", "Give at least 1 (leave it empty to give the whole line)."),
    ("-2", "Give at least 1 (leave it empty to give the whole line)."),
    ("11", "holds only 10 of Iron spikes: give at most 10."),
    ("99999999999999999999999", "No line holds more than 10000"),
    ("abc", "Say how many to give as a whole number."),
    ("2.5", "Say how many to give as a whole number."),
])
def test_how_many_refused_beside_the_field(client, asphodel, brom, spikes, headers, typed,
                                           message):
    logged_in(client, asphodel.owner)
    response = client.post(give_url(asphodel, spikes.pk),
                           {"to": str(brom.pk), "quantity": typed}, **headers)
    assert response.status_code == 200
    body = response.content.decode()
    error = re.search(rf'id="give-qty-{spikes.pk}-error">([^<]*)<', body).group(1)
    assert message in error
    field = re.search(rf'<input[^>]*id="give-qty-{spikes.pk}"[^>]*>', body).group(0)
    assert f'value="{typed}"' in field and 'aria-invalid="true"' in field
    # The receiver chosen stays chosen; the Qty form of the line is not the one refused.
    assert f'<option value="{brom.pk}" selected>Brom</option>' in body
    assert f'id="qty-{spikes.pk}-error"' not in body
    assert f'id="give-{spikes.pk}-error"' not in body
    assert quantity_of(spikes) == 10 and not GearTransfer.objects.exists()


def test_a_bad_receiver_keeps_how_many(client, asphodel, spikes):
    logged_in(client, asphodel.owner)
    body = client.post(give_url(asphodel, spikes.pk), {"to": "", "quantity": "3"},
                       **HTMX).content.decode()
    assert f'id="give-{spikes.pk}-error">Choose who receives it.' in body
    field = re.search(rf'<input[^>]*id="give-qty-{spikes.pk}"[^>]*>', body).group(0)
    assert 'value="3"' in field and "aria-invalid" not in field


@pytest.mark.parametrize("who", ["anonymous", "stranger", "fellow member", "imp"])
def test_only_the_owner_gives_part_of_a_stack(client, campaign, asphodel, brom, spikes, who):
    if who != "anonymous":
        logged_in(client, {"stranger": UserFactory, "fellow member": lambda: brom.owner,
                           "imp": lambda: campaign.owner}[who]())
    response = client.post(give_url(asphodel, spikes.pk), {"to": str(brom.pk), "quantity": "3"})
    assert response.status_code == (302 if who == "anonymous" else 404)
    assert quantity_of(spikes) == 10 and not brom.items.exists()


@pytest.fixture
def stashed_spikes(campaign, asphodel, spikes):
    transfers.item_give(item=spikes, to_stash=campaign, by=asphodel.owner)
    return spikes


def test_how_many_is_offered_beside_take(client, campaign, brom, stashed_spikes):
    logged_in(client, brom.owner)
    body = client.get(stash_url(campaign)).content.decode()
    assert f'<label class="small" for="take-qty-{stashed_spikes.pk}">How many' in body
    assert re.search(rf'<input[^>]*max="10" name="quantity" id="take-qty-{stashed_spikes.pk}"',
                     body)
    assert f'id="take-qty-{stashed_spikes.pk}-max">of 10</span>' in body


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_a_member_takes_part_of_a_stack(client, campaign, brom, stashed_spikes, headers):
    logged_in(client, brom.owner)
    response = client.post(take_url(campaign, stashed_spikes.pk),
                           {"to": str(brom.pk), "quantity": "3"}, **headers)
    if headers:
        body = response.content.decode()
        assert stats(response)["stash_load"] == "7"
    else:
        assert response.status_code == 302
        body = client.get(stash_url(campaign)).content.decode()
    assert "Iron spikes x3 went to Brom." in body
    assert "Brom took Iron spikes x3" in body
    assert quantity_of(stashed_spikes) == 7 and brom.items.get().quantity == 3


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
@pytest.mark.parametrize(("typed", "message"), [
    ("0", "Take at least 1"),
    ("12", "The party stash holds only 10 of Iron spikes: take at most 10."),
    ("x", "Say how many to take as a whole number."),
])
def test_take_how_many_refused_beside_the_field(client, campaign, brom, stashed_spikes,
                                                headers, typed, message):
    logged_in(client, brom.owner)
    pk = stashed_spikes.pk
    response = client.post(take_url(campaign, pk), {"to": str(brom.pk), "quantity": typed},
                           **headers)
    assert response.status_code == 200
    body = response.content.decode()
    assert message in re.search(rf'id="take-qty-{pk}-error">([^<]*)<', body).group(1)
    assert f'id="take-{pk}-error"' not in body
    field = re.search(rf'<input[^>]*id="take-qty-{pk}"[^>]*>', body).group(0)
    assert f'value="{typed}"' in field and 'aria-invalid="true"' in field
    assert f'<option value="{brom.pk}" selected>Brom</option>' in body
    assert quantity_of(stashed_spikes) == 10 and not brom.items.exists()


def test_take_part_permissions(client, campaign, asphodel, brom, stashed_spikes):
    data = {"to": str(brom.pk), "quantity": "2"}
    url = take_url(campaign, stashed_spikes.pk)
    assert client.post(url, data).status_code == 302  # anonymous: to log in
    logged_in(client, UserFactory())
    assert client.post(url, data).status_code == 404
    logged_in(client, asphodel.owner)  # another player, into Brom: refused beside the select
    body = client.post(url, data, **HTMX).content.decode()
    assert f'id="take-{stashed_spikes.pk}-error">Take it into your own character' in body
    field = re.search(rf'<input[^>]*id="take-qty-{stashed_spikes.pk}"[^>]*>', body).group(0)
    assert 'value="2"' in field and "aria-invalid" not in field  # kept, not the culprit
    assert quantity_of(stashed_spikes) == 10 and not brom.items.exists()
    logged_in(client, campaign.owner)  # the Imp, into anyone's
    client.post(url, data)
    assert quantity_of(stashed_spikes) == 8 and brom.items.get().quantity == 2
