"""The saved character in a real browser: the builder saves to the character page,
the page shows the engine's numbers, and the pages fit a phone and pass axe."""

import re
from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from characters.systems.eldritch_gambit.demo import ASPHODEL, seed_demo
from characters.systems.eldritch_gambit.models import EldritchGambitCharacter
from rules.models import GearItem
from tests.browser.conftest import PHONE, axe_check, describe, follow, login, screenshot
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

# The SRD's sheet for Asphodel (Characters > Example Character).
ASPHODEL_STATS = {
    "af": "11",
    "hp_base": "15",
    "hp_armored": "25",
    "rally": "1d8+2",
    "wp": "11",
    "wp_floor": "6",
    "load": "4",
    "load_capacity": "5",
    "encumbrance": "none",
}


@pytest.fixture
def rules_catalog(transactional_db):
    """The gear catalog. A data migration loads it, but the flush after each
    transactional test empties the tables, so load it again when it is gone."""
    if not GearItem.objects.exists():
        call_command("load_rules", stdout=StringIO())


@pytest.fixture
def asphodel(rules_catalog):
    seed_demo()
    return EldritchGambitCharacter.objects.get(name=ASPHODEL["name"])


@pytest.fixture
def player1(page, live_server, asphodel):
    """player1, logged in: Asphodel's owner."""
    login(page, live_server, asphodel.owner, "player1-demo-pass")
    return page


def stat(page, name):
    return page.locator(f"[data-stat={name}]")


def field(page, label):
    return page.get_by_label(label, exact=True)


def test_a_complete_character_is_saved_and_shown(page, live_server, rules_catalog, password):
    login(page, live_server, UserFactory(), password)
    page.goto("/characters/new/?system=eldritch-gambit")
    values = {
        "Level": "10", "XP": "3", "Name": "Mirela of the Marsh", "Pronouns": "she/her",
        "Career": "Reformed grave robber", "Quest": "Return the stolen bones",
        "Origin": "Raised in a marsh chapel", "Description": "Smells of peat smoke.",
        "Strength": "2", "Wisdom": "1", "Dexterity": "1", "Agility": "3",
        "Charisma": "0", "Endurance": "3", "Coins (cp)": "650",
    }
    for label, value in values.items():
        field(page, label).fill(value)
    field(page, "Skill 1").fill("Pick locks")
    field(page, "Skill 2").fill("Read old scripts")
    field(page, "Worn armor").select_option(label="Leather (AP 5, Rally d6, Load 1)")
    field(page, "Carried shield").select_option(label="Shield, small (AF +1, Block +3, Load 0)")
    page.get_by_label("Staggered").check()
    expect(stat(page, "af")).to_have_text("14")
    preview = {name: stat(page, name).inner_text()
               for name in ("af", "hp_base", "hp_armored", "rally", "wp", "wp_floor", "load",
                            "load_capacity", "encumbrance")}

    page.get_by_role("button", name="Create character").click()

    character = EldritchGambitCharacter.objects.get()
    expect(page).to_have_url(f"{live_server.url}/characters/{character.pk}/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Mirela of the Marsh")
    expect(page.get_by_role("status").first).to_contain_text("Mirela of the Marsh was created.")
    expected = {"af": "14", "hp_base": "15", "hp_armored": "20", "rally": "1d6+3",
                "wp": "11", "wp_floor": "6", "load_capacity": "5", "encumbrance": "none",
                "level": "10", "xp": "3", "str": "2", "agi": "3", "end": "3",
                "coins_cp": "650", "attribute_points_left": "0"}
    for name, value in expected.items():
        expect(stat(page, name)).to_have_text(value)
    # The live preview and the saved sheet agree, number for number.
    for name, value in preview.items():
        expect(stat(page, name)).to_have_text(value)
    main = page.get_by_role("main")
    for text in ("Reformed grave robber", "Return the stolen bones", "Raised in a marsh chapel",
                 "Smells of peat smoke.", "Pick locks", "Read old scripts", "Leather",
                 "Shield, small", "Staggered"):
        expect(main).to_contain_text(text)
    assert character.skills == ["Pick locks", "Read old scripts"]
    assert character.coins_cp == 650


def test_asphodel_shows_the_srd_numbers(player1, asphodel):
    page = player1
    page.goto("/characters/")
    follow(page.get_by_role("link", name=ASPHODEL["name"], exact=True))

    expect(page).to_have_url(re.compile(rf"/characters/{asphodel.pk}/$"))
    expect(page.get_by_role("heading", level=1)).to_contain_text("Asphodel the Grumbling Bloom")
    for name, value in ASPHODEL_STATS.items():
        expect(stat(page, name)).to_have_text(value)
    expect(page.locator("[data-weapon='Winged spear']")).to_be_visible()


def test_asphodel_explains_her_armored_hp(player1, asphodel):
    page = player1
    page.goto(asphodel.get_absolute_url())

    stat(page, "hp_armored").click()

    why = page.locator("#why-hp_armored")
    expect(why).to_be_visible()
    expect(why).to_contain_text("Armored HP 25 = Base HP 15 + AP 10")


def test_editing_previews_live_and_cancel_keeps_her(player1, asphodel):
    page = player1
    page.goto(asphodel.get_absolute_url())
    follow(page.get_by_role("link", name="Edit", exact=True))
    expect(stat(page, "af")).to_have_text("11")
    page.evaluate("window.__marker = 1")

    field(page, "Agility").fill("2")

    expect(stat(page, "af")).to_have_text("12")
    expect(stat(page, "attribute_points_left")).to_have_text("-1")
    expect(page.locator("#errors-attributes")).to_contain_text("11 Attribute points spent")
    assert page.evaluate("window.__marker") == 1
    follow(page.get_by_role("link", name="Cancel"))
    expect(stat(page, "af")).to_have_text("11")
    asphodel.refresh_from_db()
    assert asphodel.agility == 1


@pytest.mark.parametrize(("name", "viewport"), [("1280", None), ("375", PHONE)])
def test_the_character_page_fits_the_screen(player1, asphodel, name, viewport):
    page = player1
    if viewport:
        page.set_viewport_size(viewport)
    page.goto(asphodel.get_absolute_url())
    expect(stat(page, "af")).to_have_text("11")

    width = page.evaluate("document.documentElement.scrollWidth")
    screenshot(page, f"character-{name}")

    assert width <= page.viewport_size["width"], "the character page scrolls sideways"


def test_the_character_list_fits_a_phone(player1):
    page = player1
    page.set_viewport_size(PHONE)
    page.goto("/characters/")
    expect(page.get_by_role("link", name=ASPHODEL["name"], exact=True)).to_be_visible()

    width = page.evaluate("document.documentElement.scrollWidth")
    screenshot(page, "character-list-375")

    assert width <= PHONE["width"], "the character list scrolls sideways"


@pytest.mark.parametrize("path", ["detail", "list", "edit", "compare"])
def test_character_pages_have_no_serious_accessibility_violations(player1, asphodel, path):
    page = player1
    url = {"detail": asphodel.get_absolute_url(), "list": "/characters/",
           "edit": f"/characters/{asphodel.pk}/edit/",
           "compare": f"/characters/compare/?a={asphodel.pk}&b={asphodel.pk}"}[path]
    page.goto(url)
    if path == "list":
        screenshot(page, "character-list-1280")

    violations = axe_check(page)

    assert not violations, describe(violations)


def test_an_empty_character_list_has_no_serious_accessibility_violations(
    page, live_server, password
):
    login(page, live_server, UserFactory(), password)
    page.goto("/characters/")
    expect(page.get_by_role("link", name="Build your first character")).to_be_visible()

    violations = axe_check(page)

    assert not violations, describe(violations)
