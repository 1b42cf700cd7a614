"""The inventory in a real browser: items added, armor worn, a backpack dropped and
picked up, and the derived numbers following without a reload; a phone, axe and the
screenshots."""

from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from characters.systems.eldritch_gambit import inventory
from rules.models import GearItem
from tests.browser.conftest import PHONE, SCREENSHOTS, axe_check, describe, login, screenshot
from tests.factories import AsphodelFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def rules_catalog(transactional_db):
    """The gear catalog. A data migration loads it, but the flush after each
    transactional test empties the tables, so load it again when it is gone."""
    if not GearItem.objects.exists():
        call_command("load_rules", stdout=StringIO())


@pytest.fixture
def asphodel(rules_catalog):
    return AsphodelFactory(owner=UserFactory(username="asphodel-player"))


@pytest.fixture
def inventory_page(page, live_server, asphodel, password):
    login(page, live_server, asphodel.owner, password)
    page.goto(f"/characters/{asphodel.pk}/inventory/")
    expect(page.get_by_role("heading", name="Inventory", exact=True)).to_be_visible()
    return page


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


def mark_page(page):
    page.evaluate("window.__marker = 1")


def assert_not_reloaded(page):
    assert page.evaluate("window.__marker") == 1, "the page reloaded"


def search(page, text):
    page.get_by_label("Search the catalog").fill(text)
    expect(page.locator("#catalog-results .catalog-row").first).to_be_visible()


def add_from_catalog(page, name, *, buy=False):
    search(page, name)
    verb = "Buy" if buy else "Add"
    page.locator("#catalog-results").get_by_role("button", name=f"{verb} {name}",
                                                 exact=True).click()
    expect(item(page, name)).to_be_visible()


def gear(name):
    return GearItem.objects.srd().get(name=name)


def test_adding_and_wearing_changes_the_numbers_without_a_reload(inventory_page):
    page = inventory_page
    mark_page(page)
    expect(stat(page, "af")).to_have_text("11")
    expect(stat(page, "hp_armored")).to_have_text("15")
    expect(stat(page, "rally")).to_have_text("1d4+2")
    expect(stat(page, "load")).to_have_text("0")

    add_from_catalog(page, "Chain mail", buy=True)
    expect(stat(page, "coins_cp")).to_have_text("200")
    expect(stat(page, "load")).to_have_text("2")
    expect(stat(page, "hp_armored")).to_have_text("15")  # carried, not worn

    page.get_by_role("button", name="Wear Chain mail").click()
    expect(stat(page, "hp_armored")).to_have_text("25")
    expect(stat(page, "rally")).to_have_text("1d8+2")
    expect(item(page, "Chain mail")).to_contain_text("worn")

    add_from_catalog(page, "Shield, large")
    page.get_by_role("button", name="Ready Shield, large").click()
    expect(stat(page, "af")).to_have_text("14")
    expect(stat(page, "load")).to_have_text("4")

    add_from_catalog(page, "Spear")
    expect(stat(page, "load")).to_have_text("5")
    expect(stat(page, "encumbrance")).to_have_text("none")
    expect(page.locator("#inventory")).to_contain_text(
        "Hit +4, 1d8+3 damage, Critical +8, Range 1 (d12 to 2), Reach")

    add_from_catalog(page, "Lantern")
    expect(stat(page, "load")).to_have_text("6")
    expect(stat(page, "encumbrance")).to_have_text("encumbered")

    more(page, "Chain mail")
    page.get_by_label("Worn as", exact=False).first.select_option("partial")
    page.get_by_role("button", name="Set how Chain mail is worn").click()
    expect(stat(page, "hp_armored")).to_have_text("20")
    # The fold stays open after the swap, and the button used keeps the focus.
    expect(item(page, "Chain mail").locator("details.inv-more").first).to_have_attribute(
        "open", "")
    expect(page.get_by_role("button", name="Set how Chain mail is worn")).to_be_focused()
    expect(stat(page, "rally")).to_have_text("1d6+2")
    expect(stat(page, "load")).to_have_text("5")
    expect(stat(page, "encumbrance")).to_have_text("none")
    assert_not_reloaded(page)


def test_dropping_and_picking_up_the_backpack(inventory_page, asphodel):
    page = inventory_page
    inventory.starting_package(character=asphodel, by=asphodel.owner, weapon=gear("Spear"),
                               armor=gear("Chain mail"))
    page.reload()
    mark_page(page)
    expect(stat(page, "load")).to_have_text("4")
    expect(stat(page, "load_capacity")).to_have_text("5")

    add_from_catalog(page, "Backpack")
    for name in ("Rope (10m)", "Bedroll"):
        add_from_catalog(page, name)
        more(page, name)
        page.get_by_label(f"Move to (for {name})").select_option(label="Backpack (0 / 4)"
                                                                  if name == "Rope (10m)"
                                                                  else "Backpack (1 / 4)")
        page.get_by_role("button", name=f"Move {name}", exact=True).click()
        expect(item(page, "Backpack").locator(f'li[data-item="{name}"]')).to_be_visible()
    expect(page.locator(".inv-capacity").first).to_have_text("holds Load 2 / 4")
    expect(stat(page, "load")).to_have_text("6")
    expect(stat(page, "encumbrance")).to_have_text("encumbered")

    more(page, "Backpack")
    page.get_by_role("button", name="Drop Backpack", exact=True).click()
    expect(stat(page, "load")).to_have_text("4")
    # Focus stays on the same control, now "Pick up", wherever the line moved to.
    expect(page.get_by_role("button", name="Pick up Backpack", exact=True)).to_be_focused()
    expect(stat(page, "encumbrance")).to_have_text("none")
    dropped = page.locator("#inventory").get_by_role("heading", name="Dropped")
    expect(dropped).to_be_visible()
    expect(item(page, "Backpack")).to_contain_text("dropped")

    page.get_by_role("button", name="Pick up Backpack", exact=True).click()
    expect(stat(page, "load")).to_have_text("6")
    expect(stat(page, "encumbrance")).to_have_text("encumbered")
    assert_not_reloaded(page)


def test_a_full_container_is_refused_beside_the_select(inventory_page, asphodel):
    page = inventory_page
    backpack = inventory.item_add(character=asphodel, by=asphodel.owner,
                                  catalog_item=gear("Backpack"))
    inventory.item_add(character=asphodel, by=asphodel.owner, catalog_item=gear("Rope (10m)"),
                       quantity=4, container=backpack)
    inventory.item_add(character=asphodel, by=asphodel.owner, catalog_item=gear("Lantern"))
    page.reload()
    mark_page(page)
    more(page, "Lantern")
    page.get_by_label("Move to (for Lantern)").select_option(label="Backpack (4 / 4)")
    page.get_by_role("button", name="Move Lantern", exact=True).click()
    error = item(page, "Lantern").locator(".invalid-feedback")
    expect(error).to_have_text("Backpack holds at most Load 4: with Lantern it would hold 5.")
    expect(page.get_by_label("Move to (for Lantern)")).to_have_value(str(backpack.pk))
    expect(page.get_by_label("Move to (for Lantern)")).to_be_focused()
    assert_not_reloaded(page)


def test_buying_without_the_coin_keeps_the_choices(inventory_page):
    page = inventory_page
    search(page, "Plate mail")
    page.get_by_label("Quality").select_option("superior")
    page.get_by_role("button", name="Buy Plate mail", exact=True).click()
    expect(page.locator("#errors-catalog-item")).to_have_text(
        "Plate mail (superior) costs 10000 cp; the purse holds 500 cp.")
    expect(page.get_by_label("Quality")).to_have_value("superior")
    expect(page.get_by_label("Search the catalog")).to_have_value("Plate mail")
    expect(page.locator("#catalog-results")).to_contain_text("Plate mail")


def test_the_starting_gear_in_one_click(inventory_page):
    page = inventory_page
    mark_page(page)
    page.get_by_label("Normal weapon").select_option(label="Spear (Hit +2, 1d8, Load 1)")
    page.get_by_label("Normal armor (worn)").select_option(
        label="Chain mail (AP 10, Rally d8, Load 2)")
    page.get_by_label("Career tool or item").fill("Dragon-slaying manual")
    page.get_by_label("Origin memento or trinket").fill("Sacrificial amulet")
    page.get_by_label("Also roll 2d4 x 100 cp for the purse").check()
    page.get_by_role("button", name="Take the starting gear").click()
    expect(stat(page, "load")).to_have_text("4")
    expect(page.locator("#starting-gear .die")).to_have_count(2)
    for name, value in {"af": "11", "hp_base": "15", "hp_armored": "25", "rally": "1d8+2",
                        "wp": "11", "load_capacity": "5", "encumbrance": "none"}.items():
        expect(stat(page, name)).to_have_text(value)
    expect(page.locator("#inventory-status")).to_contain_text("Rolled 2d4 x 100")
    assert_not_reloaded(page)


def test_coins_and_a_reversal(inventory_page):
    page = inventory_page
    mark_page(page)
    page.get_by_label("Amount").fill("250")
    page.get_by_label("Note").fill("Dragon hoard")
    page.get_by_role("button", name="Add coins").click()
    expect(stat(page, "coins_cp")).to_have_text("750")
    expect(page.get_by_label("Note")).to_have_value("")
    page.get_by_role("button", name="Reverse Adjustment +250 cp").click()
    expect(stat(page, "coins_cp")).to_have_text("500")
    expect(page.locator("#coin-ledger")).to_contain_text("reversed")
    assert_not_reloaded(page)


def test_without_javascript_every_action_still_works(browser, live_server, asphodel, password):
    context = browser.new_context(java_script_enabled=False, base_url=live_server.url)
    page = context.new_page()
    login(page, live_server, asphodel.owner, password)
    page.goto(f"/characters/{asphodel.pk}/inventory/")
    page.get_by_label("Search the catalog").fill("chain")
    page.get_by_role("button", name="Search", exact=True).click()
    page.get_by_role("button", name="Buy Chain mail", exact=True).click()
    expect(page.locator("#messages")).to_contain_text("Bought Chain mail for 300 cp.")
    page.get_by_role("button", name="Wear Chain mail").click()
    expect(stat(page, "hp_armored")).to_have_text("25")
    more(page, "Chain mail")  # a <details>: it opens without JavaScript
    page.get_by_label("Qty of Chain mail").fill("-1")
    page.get_by_role("button", name="Set quantity of Chain mail").click()
    expect(item(page, "Chain mail")).to_contain_text(
        "Quantity must be a whole number from 1 to 10000.")
    expect(page.get_by_label("Qty of Chain mail")).to_have_value("-1")
    context.close()


@pytest.mark.parametrize(("name", "viewport"), [("1280", None), ("375", PHONE)])
def test_the_inventory_fits_the_screen(inventory_page, asphodel, name, viewport):
    page = inventory_page
    inventory.starting_package(character=asphodel, by=asphodel.owner, weapon=gear("Spear"),
                               armor=gear("Chain mail"), career_tool="Dragon-slaying manual",
                               memento="Sacrificial amulet")
    backpack = inventory.item_add(character=asphodel, by=asphodel.owner,
                                  catalog_item=gear("Backpack"))
    sack = inventory.item_add(character=asphodel, by=asphodel.owner,
                              catalog_item=gear("Sack, small"), container=backpack)
    inventory.item_add(character=asphodel, by=asphodel.owner, catalog_item=gear("Rope (10m)"),
                       container=sack)
    inventory.item_add(character=asphodel, by=asphodel.owner, catalog_item=gear("Lantern"),
                       container=backpack)
    draught = inventory.item_add(character=asphodel, by=asphodel.owner,
                                 name="Healing draught", load=0, kind="ephemera")
    inventory.charges_set(character=asphodel, item=draught, charges=2)
    inventory.item_add(character=asphodel, by=asphodel.owner, name="Wolf tattoo", load=0,
                       kind="materia")
    if viewport:
        page.set_viewport_size(viewport)
    page.goto(f"/characters/{asphodel.pk}/inventory/?q=sword")
    expect(stat(page, "load")).to_have_text("6")
    page.get_by_role("button", name="Attune (spend 1 WP) Wolf tattoo").click()
    expect(stat(page, "wp")).to_have_text("10")
    expect(stat(page, "wp_current")).to_have_text("10")  # the WP spent (Magic > Materia)
    expect(item(page, "Wolf tattoo")).to_contain_text("Attuned: 1 WP held until it is removed")
    page.get_by_role("button", name="Use a charge of Healing draught").click()
    expect(item(page, "Healing draught")).to_contain_text("Ephemera, 1 charge")
    more(page, "Rope (10m)")  # the deepest line, two containers in
    page.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)")

    width = page.evaluate("document.documentElement.scrollWidth")
    screenshot(page, f"inventory-{name}")
    page.screenshot(path=str(SCREENSHOTS / f"inventory-{name}-screen.png"))

    assert width <= page.viewport_size["width"], "the inventory scrolls sideways"


def test_the_inventory_has_no_serious_accessibility_violations(inventory_page, asphodel):
    page = inventory_page
    inventory.starting_package(character=asphodel, by=asphodel.owner, weapon=gear("Spear"),
                               armor=gear("Chain mail"))
    page.goto(f"/characters/{asphodel.pk}/inventory/?q=mail")
    expect(stat(page, "load")).to_have_text("4")
    more(page, "Spear")
    clean = axe_check(page)
    # With errors shown beside the fields.
    page.get_by_label("Qty of Spear").fill("0")
    page.get_by_role("button", name="Set quantity of Spear").click()
    expect(item(page, "Spear").locator(".invalid-feedback")).to_be_visible()
    page.get_by_label("Amount").fill("9999")
    page.get_by_label("Note").fill("Bribe")
    page.get_by_role("button", name="Remove coins").click()
    expect(page.locator("#coins-form .invalid-feedback")).to_be_visible()
    with_errors = axe_check(page)
    screenshot(page, "inventory-errors")

    assert not clean, describe(clean)
    assert not with_errors, describe(with_errors)
