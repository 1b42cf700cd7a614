"""The Template page in a real browser: Size and Traits change the derived numbers live,
without a reload and without saving; a plain submit saves; axe; phone and desktop."""

from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from characters.models import InventoryItem
from characters.systems.eldritch_gambit.models import EldritchGambitCharacter
from rules.models import GearItem, Trait
from tests.browser.conftest import (
    PHONE,
    axe_check,
    describe,
    htmx_settled,
    login,
    screenshot,
)
from tests.factories import AsphodelFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def rules_catalog(transactional_db):
    """The rules rows. A data migration loads them, but the flush after each
    transactional test empties the tables, so load them again when they are gone."""
    if not GearItem.objects.exists() or not Trait.objects.exists():
        call_command("load_rules", stdout=StringIO())


@pytest.fixture
def asphodel(rules_catalog):
    """The SRD's example character in chain mail with a spear (a fixed owner name keeps
    the screenshots stable)."""
    character = AsphodelFactory(owner=UserFactory(username="tamsin"))
    for name in ("Chain mail", "Spear"):
        gear = GearItem.objects.srd().get(name=name)
        InventoryItem.objects.create(character=character, catalog_item=gear, name=name,
                                     kind=gear.category, equipped=name == "Chain mail")
    return character


@pytest.fixture
def template_page(page, live_server, asphodel, password):
    login(page, live_server, asphodel.owner, password)
    page.goto(f"/characters/{asphodel.pk}/template/")
    expect(page.get_by_role("heading", name=f"Template of {asphodel.name}")).to_be_visible()
    return page


def stat(page, name):
    return page.locator(f"#stats-panel [data-stat={name}]")


def mark_page(page):
    page.evaluate("window.__marker = 1")


def assert_not_reloaded(page):
    assert page.evaluate("window.__marker") == 1, "the page reloaded"


def test_choosing_size_large_doubles_base_hp_without_a_reload(template_page, asphodel):
    page = template_page
    mark_page(page)
    expect(stat(page, "hp_base")).to_have_text("15")
    expect(stat(page, "rally")).to_have_text("1d8+2")

    page.get_by_label("Size", exact=True).select_option(label="Large, Load 2")

    expect(stat(page, "hp_base")).to_have_text("30")
    expect(stat(page, "armor_ap")).to_have_text("20")
    expect(stat(page, "hp_armored")).to_have_text("50")
    expect(stat(page, "rally")).to_have_text("2d8+2")
    expect(page.locator("[data-weapon=Spear] [data-stat=weapon_damage]")).to_have_text("2d8+3")
    assert_not_reloaded(page)
    # Nothing is saved until the player saves.
    assert EldritchGambitCharacter.objects.get(pk=asphodel.pk).template_traits == []


def test_a_trait_row_shows_its_rule_and_a_bad_load_beside_it(template_page):
    page = template_page
    mark_page(page)
    page.get_by_label("Trait", exact=True).select_option(label="Fast, Load 1 or more")
    expect(page.locator("#hint-traits-0")).to_contain_text("Add a Zone to Move")
    expect(stat(page, "load")).to_have_text("4")

    page.get_by_label("Load", exact=True).fill("-3")

    expect(page.locator("#errors-traits-0-load")).to_contain_text("Fast takes a Load of 1")
    # The panel says it cannot compute, and why, rather than count Fast's own Load.
    reason = page.locator("#stats-panel [data-cannot-compute]")
    expect(reason).to_contain_text("Cannot compute the derived stats")
    expect(reason).to_contain_text("Trait 1, Load: Fast takes a Load of 1")
    expect(page.locator("#stats-panel [data-stat]")).to_have_count(0)
    expect(page.get_by_label("Load", exact=True)).to_have_value("-3")
    screenshot(page, "template-cannot-compute")
    page.get_by_label("Load", exact=True).fill("2")
    expect(page.locator("#errors-traits-0-load")).to_be_empty()
    expect(stat(page, "load")).to_have_text("5")
    expect(reason).to_have_count(0)
    assert_not_reloaded(page)


def test_the_template_saves_by_plain_submit(template_page, asphodel):
    page = template_page
    page.get_by_label("Template name").fill("Minotaur")
    page.get_by_label("Size", exact=True).select_option(label="Large, Load 2")
    page.get_by_label("Trait", exact=True).select_option(label="Resistance (Element), Load 1")
    page.get_by_label("Value", exact=True).fill("Fire")

    with page.expect_navigation():
        page.get_by_role("button", name="Save the Template").click()

    expect(page.get_by_text("The Template of Asphodel the Grumbling Bloom was saved.")
           ).to_be_visible()
    expect(page.locator("[data-stat=hp_base]")).to_have_text("30")
    character = EldritchGambitCharacter.objects.get(pk=asphodel.pk)
    assert character.template_name == "Minotaur"
    assert character.template_traits == [
        {"name": "Size", "value": "Large", "load": 2},
        {"name": "Resistance", "value": "Fire", "load": 1},
    ]


def test_adding_a_custom_trait_row(template_page, asphodel):
    page = template_page
    page.get_by_label("Trait", exact=True).select_option(label="Flight, Load 2")
    page.get_by_role("button", name="Add a Trait").click()
    htmx_settled(page)

    second = page.locator("#row-traits-1")
    expect(second).to_be_visible()
    expect(page.locator("#id_traits-0-trait")).to_have_value(
        str(Trait.objects.srd().get(slug="flight").pk))
    second.get_by_label("Trait", exact=True).select_option(value="custom")
    second.get_by_label("Name of a custom Trait").fill("Gills")
    second.get_by_label("Load", exact=True).fill("1")
    expect(stat(page, "load")).to_have_text("6")

    with page.expect_navigation():
        page.get_by_role("button", name="Save the Template").click()

    assert EldritchGambitCharacter.objects.get(pk=asphodel.pk).template_traits == [
        {"name": "Flight", "value": "", "load": 2},
        {"name": "Gills", "value": "", "load": 1},
    ]


def test_the_template_page_has_no_serious_accessibility_violations(template_page):
    page = template_page
    page.get_by_label("Size", exact=True).select_option(label="Large, Load 2")
    page.get_by_label("Trait", exact=True).select_option(label="Bane, Load -2 to -1")
    page.get_by_label("Load", exact=True).fill("5")
    expect(page.locator("#errors-traits-0-load")).not_to_be_empty()
    page.get_by_role("button", name="Add a Trait").click()
    htmx_settled(page)
    page.locator("#id_traits-1-trait").select_option(value="custom")
    page.locator("#id_traits-1-name").fill("Gills")
    expect(page.locator("#hint-traits-1")).to_contain_text("Your own Trait")
    expect(page.locator("#errors-traits-1-name")).to_be_empty()
    screenshot(page, "template-errors")

    violations = axe_check(page)

    assert not violations, describe(violations)


def test_screenshots_at_desktop_and_phone(template_page):
    page = template_page
    page.get_by_label("Template name").fill("Minotaur")
    page.get_by_label("Size", exact=True).select_option(label="Large, Load 2")
    page.get_by_label("Armored", exact=True).select_option(
        label="Light: 5 AP, d6 Rally, Load 1")
    page.get_by_label("Trait", exact=True).select_option(label="Resistance (Element), Load 1")
    page.get_by_label("Value", exact=True).fill("Fire")
    expect(stat(page, "hp_base")).to_have_text("30")
    page.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)")
    screenshot(page, "template")

    page.set_viewport_size(PHONE)
    page.reload()
    expect(stat(page, "hp_base")).to_have_text("15")
    overflow = page.evaluate("document.documentElement.scrollWidth")
    assert overflow <= PHONE["width"], "the Template page scrolls sideways on a phone"
    screenshot(page, "template-375")


def test_the_rules_reference_and_homebrew_pages_pass_axe(page, live_server, rules_catalog,
                                                         password):
    login(page, live_server, UserFactory(), password)
    page.goto("/rules/")
    expect(page.get_by_role("heading", name="Rules reference")).to_be_visible()
    reference = axe_check(page)
    screenshot(page, "rules-index")
    page.goto("/rules/homebrew/gear/new/")
    page.get_by_label("Name").fill("Bone club")
    page.get_by_label("Kind of gear").select_option(label="Weapon")
    page.get_by_label("Damage dice").fill("club")
    with page.expect_navigation():
        page.get_by_role("button", name="Create gear item").click()
    expect(page.locator("#errors-weapon_damage")).to_contain_text("dice")
    form = axe_check(page)
    screenshot(page, "homebrew-gear-errors")

    assert not reference, describe(reference)
    assert not form, describe(form)
