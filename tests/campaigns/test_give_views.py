"""The generic hand-over view (campaigns/give_views.py) that Errant's gear page uses:
a line to another Errant of the campaign or into the Company's store (the stash), its
ErrantItem following; permissions and hostile input (the refusal said, nothing moved)."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from characters.models import Character, GearTransfer, InventoryItem
from characters.systems.errant.models import ErrantCharacter
from tests.characters.systems.errant.helpers import make_wren
from tests.factories import CampaignFactory, CharacterFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def party():
    campaign = CampaignFactory(system="errant")
    one = make_wren(MembershipFactory(campaign=campaign).user, name="Wren")
    two = make_wren(MembershipFactory(campaign=campaign).user, name="Odo")
    Character.objects.filter(pk__in=[one.pk, two.pk]).update(campaign=campaign)
    return campaign, one, two


def login(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def give(client, errant, item, **data):
    return client.post(reverse("campaigns:errant_item_give", args=[errant.pk, item.pk]),
                       {"request_key": "", **data})


def said(response) -> str:
    return " ".join(str(message) for message in get_messages(response.wsgi_request))


def torch(errant) -> InventoryItem:
    return InventoryItem.objects.get(character=errant, name="Torch")


def test_the_owner_puts_a_torch_in_the_companys_store(party):
    campaign, wren_, _ = party
    response = give(login(wren_.owner), wren_, torch(wren_), to="stash")
    assert response.status_code == 302
    assert response["Location"] == reverse("characters:errant_gear", args=[wren_.pk])
    stored = InventoryItem.objects.get(stash=campaign)
    assert stored.errant_item.quarters == 2 and "went into the party stash" in said(response)
    stash = login(wren_.owner).get(reverse("campaigns:stash", args=[campaign.pk]))
    assert stash.status_code == 200 and "Torch" in stash.content.decode()


def test_the_guide_may_give_and_part_of_a_stack_goes(party):
    campaign, wren_, odo = party
    supply = InventoryItem.objects.get(character=wren_, name="Supply")
    response = give(login(campaign.owner), wren_, supply, to=str(odo.pk), quantity="2")
    assert "went to Odo" in said(response)
    supplies = [line for line in ErrantCharacter.objects.get(pk=odo.pk).gear
                if line["name"] == "Supply"]
    assert [line["quantity"] for line in supplies] == [4, 2]
    assert supplies[-1]["kind"] == "supply"


def test_permissions(party):
    campaign, wren_, odo = party
    item = torch(wren_)
    url = reverse("campaigns:errant_item_give", args=[wren_.pk, item.pk])
    anonymous = Client().post(url, {"to": "stash"})
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]
    assert give(login(UserFactory()), wren_, item, to="stash").status_code == 404
    assert give(login(odo.owner), wren_, item, to="stash").status_code == 404
    assert login(wren_.owner).get(url).status_code == 405
    co_guide = MembershipFactory(campaign=campaign, role="co_imp").user
    assert "went into the party stash" in said(give(login(co_guide), wren_, item, to="stash"))
    assert not GearTransfer.objects.filter(from_character=odo).exists()


@pytest.mark.parametrize(("data", "words"), [
    ({"to": "abc"}, "Choose a character of the party or the party stash."),
    ({"to": ""}, "Choose who receives it."),
    ({"to": "stash", "quantity": "x"}, "whole number"),
    ({"to": "stash", "quantity": "9" * 40}, "at most"),
    ({"to": "999999"}, "Choose a character of the party."),
])
def test_hostile_input_moves_nothing(party, data, words):
    _, wren_, _ = party
    response = give(login(wren_.owner), wren_, torch(wren_), **data)
    assert response.status_code == 302 and words in said(response)
    assert not GearTransfer.objects.exists()


def test_other_campaigns_and_systems(party):
    _, wren_, _ = party
    stranger = make_wren(wren_.owner, name="Elsewhere")
    response = give(login(wren_.owner), wren_, torch(wren_), to=str(stranger.pk))
    assert "not in" in said(response) and not GearTransfer.objects.exists()
    other = CharacterFactory(owner=wren_.owner)
    line = InventoryItem.objects.create(character=other, name="Rope")
    # Not an Errant's line, and an Eldritch Gambit character's page is its own.
    response = give(login(wren_.owner), wren_, line, to="stash")
    assert "not in this inventory" in said(response)
