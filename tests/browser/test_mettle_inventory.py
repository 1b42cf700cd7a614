"""The METTLE Core inventory in a real browser (issue #13): a purchase one digit over
Credit takes a point of Credit until the next campaign, an item goes into a container,
a line goes to the party stash; every change answers without a reload, the numbers
follow, and the page passes axe."""

import pytest
from playwright.sync_api import expect

from campaigns import services as campaign_services
from characters.models import InventoryItem
from tests.browser.conftest import (
    PHONE,
    axe_check,
    describe,
    follow,
    htmx_settled,
    login,
    screenshot,
)
from tests.characters.systems.mettle.helpers import make_viktor
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def stat(page, name):
    return page.locator(f"#inventory-stats [data-stat={name}]")


def test_buy_over_credit_pack_and_give_to_the_stash(page, live_server, password):
    campaign = CampaignFactory(system="mettle-core", name="Odesa Nights")
    player = UserFactory(username="viktors-player")
    MembershipFactory(campaign=campaign, user=player)
    viktor = make_viktor(player)
    campaign_services.character_join(campaign=campaign, character=viktor, by=player)
    login(page, live_server, player, password)

    page.goto(f"/characters/{viktor.pk}/")
    follow(page.get_by_role("link", name="Manage the inventory"))
    expect(page.get_by_role("heading", name="Inventory of Viktor")).to_be_visible()
    expect(stat(page, "credit")).to_have_text("2")
    expect(stat(page, "load")).to_have_text("1")
    expect(stat(page, "soak")).to_have_text("3")
    page.evaluate("() => { window.notReloaded = true; }")

    # Chain (Cost 3) with Credit 2: one digit over, a point of Credit lost.
    page.get_by_label("Item", exact=True).select_option("Armour:Medium (Chain)")
    page.get_by_role("button", name="Buy").click()
    expect(page.locator("#inventory-status")).to_contain_text("a point of Credit is lost")
    expect(stat(page, "credit")).to_have_text("1")
    expect(page.locator("#credit-ledger")).to_contain_text("one digit over")
    # Heavy (Plate), Cost 4, is now two digits over: refused, said beside the field.
    page.get_by_label("Item", exact=True).select_option("Armour:Heavy (Plate)")
    page.get_by_role("button", name="Buy").click()
    expect(page.locator("[data-error=key]")).to_contain_text("out of reach")
    expect(page.get_by_label("Item", exact=True)).to_have_value("Armour:Heavy (Plate)")
    expect(stat(page, "credit")).to_have_text("1")

    # Wear the chain: Soak 3 + 2.
    chain = page.locator("[data-item='Medium (Chain)']")
    chain.get_by_role("button", name="Wear").click()
    expect(stat(page, "soak")).to_have_text("5")

    # A small backpack (no Cost: added), and the deck of cards packed in it.
    page.get_by_label("Item", exact=True).select_option(
        "Common loads:Backpack, small & filled with gear")
    page.get_by_role("button", name="Buy").click()
    htmx_settled(page)
    cards = page.locator("[data-item='Deck of cards']")
    cards.get_by_label("Pack Deck of cards in").select_option(label="In Backpack, small & "
                                                                    "filled with gear")
    cards.get_by_role("button", name="Move", exact=True).click()
    expect(page.locator("[data-item='Deck of cards'] [data-in]")).to_have_text(
        "in Backpack, small & filled with gear")
    expect(stat(page, "load")).to_have_text("4")  # sword cane 1, chain 2, pack 1

    # The pocket knife goes to the party stash.
    knife = page.locator("[data-item='Pocket knife']")
    knife.get_by_label("Give Pocket knife to").select_option("stash")
    knife.get_by_role("button", name="Give").click()
    expect(page.locator("#inventory-status")).to_contain_text("went into the party stash")
    expect(page.locator("[data-item='Pocket knife']")).to_have_count(0)
    assert page.evaluate("() => window.notReloaded") is True
    htmx_settled(page)
    screenshot(page, "mettle-inventory")
    violations = axe_check(page)
    assert not violations, describe(violations)

    # On a phone: no sideways scrolling.
    page.set_viewport_size(PHONE)
    page.goto(f"/characters/{viktor.pk}/mettle-inventory/")
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, "mettle-inventory-phone")

    assert InventoryItem.objects.get(name="Pocket knife").stash_id == campaign.pk
    page.goto(f"/campaigns/{campaign.pk}/stash/")
    expect(page.locator("body")).to_contain_text("Pocket knife")
