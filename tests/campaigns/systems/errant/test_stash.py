"""The Company's store (the generic party stash) speaks of Item Slots for Errant."""

import pytest
from django.urls import reverse

from campaigns import transfers
from characters.models import InventoryItem
from characters.systems.errant import inventory
from characters.systems.errant.inventory import carried_lines

pytestmark = pytest.mark.django_db


def test_the_company_store_counts_item_slots_not_load(client, campaign, player, wren):
    torch = next(line for line in carried_lines(wren) if line.name == "Torch")
    transfers.item_give(item=torch.pk, from_character=wren, by=player, to_stash=campaign.pk,
                        quantity=1)
    client.force_login(player)
    html = client.get(reverse("campaigns:stash", args=[campaign.pk])).content.decode()
    assert "Torch" in html and "nobody's Item Slots" in html
    stored = InventoryItem.objects.get(stash=campaign)
    slots = inventory.line_slots(stored)
    assert f'Item Slots <span data-stat="stash_load">{slots}</span>' in html
    assert "Load" not in html.replace("Loading", "")
