"""Handing gear to the party in a real browser: the backpack (a sack in it, rope in the
sack) goes to a party member and the giver's Load drops without a reload; the stash
page takes a line back; axe and screenshots."""

from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from campaigns import transfers
from characters.systems.eldritch_gambit import inventory
from rules.models import GearItem
from tests.browser.conftest import PHONE, axe_check, describe, follow, login, screenshot
from tests.factories import (
    AsphodelFactory,
    CampaignFactory,
    CharacterFactory,
    MembershipFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def rules_catalog(transactional_db):
    """The gear catalog. A data migration loads it, but the flush after each
    transactional test empties the tables, so load it again when it is gone."""
    if not GearItem.objects.exists():
        call_command("load_rules", stdout=StringIO())


def gear(name):
    return GearItem.objects.srd().get(name=name)


def add(character, name, **kwargs):
    return inventory.item_add(character=character, by=character.owner,
                              catalog_item=gear(name), **kwargs)


@pytest.fixture
def campaign(rules_catalog):
    return CampaignFactory(name="The Drowned Crown", owner=UserFactory(username="the-imp"))


@pytest.fixture
def asphodel(campaign):
    player = MembershipFactory(campaign=campaign,
                               user=UserFactory(username="asphodel-player")).user
    character = AsphodelFactory(owner=player, campaign=campaign)
    add(character, "Spear")
    backpack = add(character, "Backpack")
    sack = add(character, "Sack, small", container=backpack)
    add(character, "Rope (10m)", quantity=2, container=sack)
    add(character, "Lantern", container=backpack)
    return character


@pytest.fixture
def brom(campaign):
    player = MembershipFactory(campaign=campaign, user=UserFactory(username="brom-player")).user
    return CharacterFactory(owner=player, campaign=campaign, name="Brom the Bold")


def stat(page, name):
    return page.locator(f"[data-stat={name}]")


def item(page, name):
    return page.locator(f'li.inv-item[data-item="{name}"]').first


def more(page, name):
    """Open the line's "More" fold (its secondary actions), unless it is open already."""
    fold = item(page, name).locator("details.inv-more").first
    if fold.get_attribute("open") is None:
        fold.locator("summary").click()
    expect(fold).to_have_attribute("open", "")


def test_handing_the_backpack_to_a_party_member(page, live_server, password, asphodel, brom):
    login(page, live_server, asphodel.owner, password)
    page.goto(f"/characters/{asphodel.pk}/inventory/")
    page.evaluate("window.__marker = 1")
    # Spear 1 + the lot: lantern 1 + two ropes 2 (the pack and the sack weigh nothing).
    expect(stat(page, "load")).to_have_text("4")

    more(page, "Backpack")
    page.get_by_label("Give to (for Backpack, with everything in it)").select_option(
        label="Brom the Bold")
    page.get_by_role("button", name="Give Backpack", exact=True).click()

    expect(stat(page, "load")).to_have_text("1")
    expect(item(page, "Backpack")).to_have_count(0)
    expect(item(page, "Rope (10m)")).to_have_count(0)
    expect(page.locator("#inventory-status")).to_have_text(
        "Backpack, with everything in it, went to Brom the Bold.")
    history = page.locator("#transfer-history")
    expect(history).to_contain_text("Gave Backpack with 3 lines inside to Brom the Bold")
    expect(history).to_contain_text("Inside: Sack, small; Rope (10m) x2; Lantern")
    # The button went with the pack: focus waits on the gear's heading, not lost.
    expect(page.locator("#inventory-heading")).to_be_focused()
    assert page.evaluate("window.__marker") == 1, "the page reloaded"

    violations = axe_check(page)
    page.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)")
    screenshot(page, "transfer-given")
    assert not violations, describe(violations)

    # Brom carries it now, the same Load the engine counts.
    brom.refresh_from_db()
    assert sorted(brom.items.values_list("name", flat=True)) == [
        "Backpack", "Lantern", "Rope (10m)", "Sack, small"]


def test_the_stash_page_takes_a_line_back(page, live_server, password, campaign, asphodel,
                                          brom):
    backpack = asphodel.items.get(name="Backpack")
    transfers.item_give(item=backpack, to_stash=campaign, by=asphodel.owner,
                        note="For the crossing")
    transfers.item_give(item=asphodel.items.get(name="Spear"), to_stash=campaign,
                        by=asphodel.owner)
    login(page, live_server, brom.owner, password)
    page.goto(f"/campaigns/{campaign.pk}/")
    follow(page.get_by_role("link", name="Party stash"))
    expect(page.get_by_role("heading", name="The party stash")).to_be_visible()
    expect(stat(page, "stash_load")).to_have_text("4")
    expect(page.locator('[data-capacity]').first).to_have_text("holds Load 3 / 4")
    clean = axe_check(page)
    page.evaluate("window.__marker = 1")

    page.get_by_role("button", name="Take Spear", exact=True).click()
    expect(stat(page, "stash_load")).to_have_text("3")
    expect(page.locator("#stash-status")).to_have_text("Spear went to Brom the Bold.")
    expect(page.locator("#stash-history")).to_contain_text("Brom the Bold took Spear")
    expect(page.locator("#stash-history")).to_contain_text(
        f"{asphodel.name} stashed Backpack with 3 lines inside: For the crossing")
    assert page.evaluate("window.__marker") == 1, "the page reloaded"
    after = axe_check(page)
    page.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)")
    screenshot(page, "transfer-stash")

    page.goto(f"/characters/{brom.pk}/inventory/")
    expect(stat(page, "load")).to_have_text("1")
    expect(page.locator("#transfer-history")).to_contain_text(
        "Took Spear from the party stash")
    assert not clean, describe(clean)
    assert not after, describe(after)


def test_without_javascript_the_give_still_works(browser, live_server, password, asphodel,
                                                 brom):
    context = browser.new_context(java_script_enabled=False, base_url=live_server.url)
    page = context.new_page()
    login(page, live_server, asphodel.owner, password)
    page.goto(f"/characters/{asphodel.pk}/inventory/")
    more(page, "Lantern")  # a <details>: it opens without JavaScript
    page.get_by_label("Give to (for Lantern)").select_option(label="The party stash")
    page.get_by_role("button", name="Give Lantern", exact=True).click()
    expect(page.locator("#messages")).to_contain_text("Lantern went into the party stash.")
    expect(stat(page, "load")).to_have_text("3")
    more(page, "Spear")
    page.get_by_role("button", name="Give Spear", exact=True).click()  # nobody chosen
    expect(item(page, "Spear")).to_contain_text("Choose who receives it.")
    context.close()


def test_give_and_take_fit_a_phone(page, live_server, password, campaign, asphodel, brom):
    transfers.item_give(item=asphodel.items.get(name="Lantern"), to_stash=campaign,
                        by=asphodel.owner)
    login(page, live_server, asphodel.owner, password)
    page.set_viewport_size(PHONE)
    for address, name in ((f"/characters/{asphodel.pk}/inventory/", "transfer-inventory-375"),
                          (f"/campaigns/{campaign.pk}/stash/", "transfer-stash-375")):
        page.goto(address)
        expect(page.locator("h1")).to_be_visible()
        width = page.evaluate("document.documentElement.scrollWidth")
        screenshot(page, name)
        assert width <= PHONE["width"], f"{address} scrolls sideways"


def test_giving_part_of_a_stack(page, live_server, password, asphodel, brom):
    login(page, live_server, asphodel.owner, password)
    page.goto(f"/characters/{asphodel.pk}/inventory/")
    page.evaluate("window.__marker = 1")
    expect(stat(page, "load")).to_have_text("4")
    more(page, "Rope (10m)")
    how_many = page.get_by_label("How many of Rope (10m) to give")
    expect(page.get_by_label("How many of Lantern to give")).to_have_count(0)  # one lantern

    page.get_by_label("Give to (for Rope (10m))").select_option(label="Brom the Bold")
    how_many.fill("3")
    page.get_by_role("button", name="Give Rope (10m)", exact=True).click()

    refused = page.get_by_label("How many of Rope (10m) to give")
    expect(refused).to_have_attribute("aria-invalid", "true")
    expect(refused).to_have_value("3")  # what was typed is kept
    expect(item(page, "Rope (10m)")).to_contain_text(
        f"{asphodel.name} holds only 2 of Rope (10m): give at most 2.")
    expect(page.get_by_label("Give to (for Rope (10m))")).to_have_value(str(brom.pk))
    expect(stat(page, "load")).to_have_text("4")

    refused.fill("1")
    page.get_by_role("button", name="Give Rope (10m)", exact=True).click()

    expect(stat(page, "load")).to_have_text("3")
    expect(page.locator("#inventory-status")).to_have_text("Rope (10m) went to Brom the Bold.")
    expect(item(page, "Rope (10m)")).not_to_contain_text("x2")
    expect(page.get_by_label("How many of Rope (10m) to give")).to_have_count(0)  # one left
    assert page.evaluate("window.__marker") == 1, "the page reloaded"
    violations = axe_check(page)
    assert not violations, describe(violations)
    assert list(brom.items.values_list("name", "quantity")) == [("Rope (10m)", 1)]
