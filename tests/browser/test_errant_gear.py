"""An Errant's gear and money in a real browser: Wren records a guilder found, buys a
lantern in a town (htmx swaps the page: the money and the Item Slots follow), then gives
it to the Company's store, where the stash page shows it in slots."""

import pytest
from playwright.sync_api import expect

from characters.models import Character, CoinEntry, InventoryItem
from characters.systems.errant.builds import sheet_for
from characters.systems.errant.models import ErrantCharacter
from tests.browser.conftest import axe_check, describe, follow, htmx_settled, login
from tests.characters.systems.errant.helpers import make_wren
from tests.factories import CampaignFactory, MembershipFactory

pytestmark = pytest.mark.django_db(transaction=True)


def stat(page, name):
    return page.locator(f"[data-stat={name}]")


def test_buy_a_lantern_and_give_it_to_the_store(page, live_server, password):
    campaign = CampaignFactory(system="errant", name="The Hollow Road")
    player = MembershipFactory(campaign=campaign).user
    wren = make_wren(player)
    Character.objects.filter(pk=wren.pk).update(campaign=campaign)
    before = sheet_for(ErrantCharacter.objects.get(pk=wren.pk)).value("slots_filled")

    login(page, live_server, player, password)
    page.goto(f"/characters/{wren.pk}/")
    follow(page.get_by_role("link", name="Gear and money: buy, sell, the purse"))
    expect(stat(page, "money")).to_have_text("0 p")  # ER: an Errant starts with none
    page.get_by_label("Guilders").fill("1")
    page.get_by_label("Why").fill("A purse under the bridge")
    page.get_by_role("button", name="Record").click()
    htmx_settled(page)
    expect(stat(page, "money")).to_have_text("1 g")
    assert CoinEntry.objects.get(character=wren).amount_cp == 100
    expect(stat(page, "slots_filled")).to_have_text(str(before))
    violations = axe_check(page)
    assert not violations, describe(violations)

    page.get_by_label("Settlement", exact=True).select_option("3")
    page.get_by_label("Item", exact=True).select_option("Light|Lantern")
    page.get_by_role("button", name="Buy").click()
    htmx_settled(page)
    expect(page.locator("[data-status]")).to_contain_text("Bought Lantern: 3 s.")
    expect(stat(page, "money")).to_have_text("7 s")
    expect(stat(page, "slots_filled")).to_have_text(str(before + 1))
    expect(page.locator("[data-latest-trade]")).to_contain_text("Bought Lantern")

    lantern = InventoryItem.objects.get(character=wren, name="Lantern")
    page.get_by_label("Give Lantern to").select_option("stash")
    page.locator("tr[data-line='Lantern'] >> role=button[name='Give']").click()
    expect(page.locator("#messages")).to_contain_text("Lantern went into the party stash.")
    expect(stat(page, "slots_filled")).to_have_text(str(before))
    lantern.refresh_from_db()
    assert lantern.stash_id == campaign.pk and lantern.errant_item.quarters == 4
    assert sheet_for(ErrantCharacter.objects.get(pk=wren.pk)).value("slots_filled") == before

    page.goto(f"/campaigns/{campaign.pk}/stash/")
    expect(page.locator("main")).to_contain_text("Lantern")
