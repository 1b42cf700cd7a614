"""The character builder in a real browser: live derived stats, errors beside the
fields, the random helpers, the keyboard, a phone, axe and the screenshots."""

import re
import shutil
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from characters.models import Character
from rules.models import GearItem
from tests.browser.conftest import (
    PHONE,
    SCREENSHOTS,
    axe_check,
    describe,
    htmx_settled,
    login,
    screenshot,
)
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

DOCS_SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
ATTRIBUTE_LABELS = ("Strength", "Wisdom", "Dexterity", "Agility", "Charisma", "Endurance")
ATTRIBUTE_KEYS = ("str", "wis", "dex", "agi", "cha", "end")


@pytest.fixture
def rules_catalog(transactional_db):
    """The gear catalog. A data migration loads it, but the flush after each
    transactional test empties the tables, so load it again when it is gone."""
    if not GearItem.objects.exists():
        call_command("load_rules", stdout=StringIO())


@pytest.fixture
def builder(page, live_server, rules_catalog, password):
    """A logged-in player on an empty builder (a fixed name keeps screenshots stable)."""
    login(page, live_server, UserFactory(username="mirela"), password)
    page.goto("/characters/new/?system=eldritch-gambit")
    expect(page.get_by_role("heading", name="New character")).to_be_visible()
    return page


def stat(page, name):
    return page.locator(f"[data-stat={name}]")


def field(page, label):
    return page.get_by_label(label, exact=True)


def errors(page, field_name):
    return page.locator(f"#errors-{field_name}")


def mark_page(page):
    """Leave a marker on window: a reload would wipe it."""
    page.evaluate("window.__marker = 1")


def assert_not_reloaded(page):
    assert page.evaluate("window.__marker") == 1, "the page reloaded"


# Live derived stats


def test_typing_updates_the_derived_stats_without_a_reload(builder):
    page = builder
    mark_page(page)
    expect(stat(page, "af")).to_have_text("10")

    field(page, "Agility").fill("3")
    expect(stat(page, "af")).to_have_text("13")

    field(page, "Strength").fill("2")
    field(page, "Endurance").fill("4")
    field(page, "Level").fill("10")
    expect(stat(page, "hp_base")).to_have_text("16")
    expect(stat(page, "rally")).to_have_text("1d4+4")
    expect(stat(page, "load_capacity")).to_have_text("6")

    field(page, "Worn armor").select_option(label="Leather (AP 5, Rally d6, Load 1)")
    expect(stat(page, "hp_armored")).to_have_text("21")
    expect(stat(page, "rally")).to_have_text("1d6+4")

    field(page, "Carried shield").select_option(label="Shield, medium (AF +2, Block +2, Load 1)")
    expect(stat(page, "af")).to_have_text("15")
    # What was typed is still there: the preview swaps only the stats panel.
    expect(field(page, "Agility")).to_have_value("3")
    expect(field(page, "Endurance")).to_have_value("4")
    assert_not_reloaded(page)


def test_clicking_a_stat_explains_it(builder):
    page = builder
    field(page, "Strength").fill("2")
    field(page, "Endurance").fill("4")  # room to carry the shield
    field(page, "Agility").fill("3")
    field(page, "Carried shield").select_option(label="Shield, medium (AF +2, Block +2, Load 1)")
    expect(stat(page, "af")).to_have_text("15")

    stat(page, "af").click()

    why = page.locator("#why-af")
    expect(why).to_be_visible()
    expect(why).to_contain_text("10 + AGI 3 + shield 2")
    expect(why).to_contain_text("SRD: Characters > Defenses")
    page.mouse.move(5, 5)  # a click pins it: moving away does not close it
    expect(why).to_be_visible()

    # It stays open while the player types, explaining the new number.
    field(page, "Agility").fill("4")
    expect(stat(page, "af")).to_have_text("16")
    expect(page.locator("#why-af")).to_be_visible()
    expect(page.locator("#why-af")).to_contain_text("AF 16 = 10 + AGI 4 + shield 2")

    stat(page, "af").click()
    expect(page.locator("#why-af")).to_be_hidden()


def test_a_tap_on_a_touch_screen_opens_the_explanation(browser, live_server, rules_catalog,
                                                       password):
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True,
                                  base_url=live_server.url)
    page = context.new_page()
    try:
        login(page, live_server, UserFactory(), password)
        page.goto("/characters/new/?system=eldritch-gambit")

        stat(page, "hp_base").tap()

        why = page.locator("#why-hp_base")
        expect(why).to_be_visible()
        expect(why).to_contain_text("Base HP 10 = Level 10 + STR 0 + END 0")
        box = why.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        page.screenshot(path=str(SCREENSHOTS / "builder-375-explanation.png"))
    finally:
        context.close()


def test_escape_closes_the_explanation_and_keyboard_opens_it(builder):
    page = builder
    stat(page, "wp").focus()
    page.keyboard.press("Enter")
    why = page.locator("#why-wp")
    expect(why).to_be_visible()

    page.keyboard.press("Escape")

    expect(why).to_be_hidden()


# Bad input


def test_an_attribute_over_the_maximum_is_shown_beside_it_live(builder):
    page = builder
    mark_page(page)

    field(page, "Strength").fill("6")

    expect(errors(page, "str")).to_have_text(
        "Strength +6 is over the Level 10 maximum of +5."
    )
    expect(field(page, "Strength")).to_have_attribute("aria-invalid", "true")
    expect(field(page, "Strength")).to_have_attribute(
        "aria-describedby", re.compile(r"\berrors-str\b")
    )
    expect(stat(page, "str")).to_have_text("6")

    field(page, "Strength").fill("5")

    expect(errors(page, "str")).to_be_empty()
    expect(field(page, "Strength")).not_to_have_attribute("aria-invalid", "true")
    expect(stat(page, "str")).to_have_text("5")
    assert_not_reloaded(page)


def test_an_invalid_submit_saves_nothing_and_keeps_what_was_typed(builder):
    page = builder
    before = Character.objects.count()
    typed = {
        "Name": "Brannoc",
        "Pronouns": "he/him",
        "Career": "Disgraced lamplighter",
        "Level": "10",
        "Strength": "6",
        "Agility": "2",
        "Coins (cp)": "300",
    }
    for label, value in typed.items():
        field(page, label).fill(value)
    field(page, "Skill 1").fill("Light lamps")
    field(page, "Worn armor").select_option(label="Leather (AP 5, Rally d6, Load 1)")
    expect(errors(page, "str")).to_contain_text("over the Level 10 maximum")

    page.get_by_role("button", name="Create character").click()

    expect(page.get_by_role("status").filter(has_text="Nothing was saved")).to_be_visible()
    expect(errors(page, "str")).to_have_text("Strength +6 is over the Level 10 maximum of +5.")
    assert Character.objects.count() == before
    for label, value in typed.items():
        expect(field(page, label)).to_have_value(value)
    expect(field(page, "Skill 1")).to_have_value("Light lamps")
    expect(field(page, "Worn armor").locator("option:checked")).to_have_text(
        "Leather (AP 5, Rally d6, Load 1)"
    )


def test_typing_that_changes_no_number_leaves_the_panel_and_errors_alone(builder):
    """A screen reader hears an error once, and a tap on the panel is not lost to a
    swap that changes nothing."""
    page = builder
    field(page, "Strength").fill("6")
    expect(errors(page, "str")).not_to_be_empty()
    page.evaluate("""() => {
      window.__mutations = 0;
      new MutationObserver(() => window.__mutations++)
        .observe(document.getElementById("errors-str"), {childList: true, subtree: true});
      document.getElementById("stats-panel").dataset.marker = "1";
    }""")

    with page.expect_response(re.compile(r"/characters/preview/$")):
        field(page, "Name").fill("Brannoc")
    htmx_settled(page)

    assert page.evaluate("window.__mutations") == 0
    expect(page.locator("#stats-panel")).to_have_attribute("data-marker", "1")
    field(page, "Strength").fill("4")
    expect(errors(page, "str")).to_be_empty()
    expect(page.locator("#stats-panel")).not_to_have_attribute("data-marker", "1")


def test_spending_more_points_than_the_level_gives(builder):
    page = builder

    for label, value in zip(ATTRIBUTE_LABELS[:3], ("5", "5", "1"), strict=True):
        field(page, label).fill(value)

    expect(errors(page, "attributes")).to_have_text(
        "11 Attribute points spent, but Level 10 gives only 10."
    )
    expect(stat(page, "attribute_points_left")).to_have_text("-1")


@pytest.mark.parametrize(
    ("label", "name", "value", "message"),
    [
        ("Level", "level", "-3", "Level must be a whole number from 1 to 100."),
        ("Level", "level", "100000000000000000000",
         "Level must be a whole number from 1 to 100."),
        ("Strength", "str", "99999999999", "Strength must be a whole number from -10 to 99."),
        ("Coins (cp)", "coins_cp", "1000000000000",
         "Coins (cp) must be a whole number from 0 to 100000000."),
    ],
)
def test_negative_and_huge_numbers_are_refused(builder, label, name, value, message):
    page = builder
    before = Character.objects.count()

    field(page, label).fill(value)

    expect(errors(page, name)).to_have_text(message)
    page.get_by_role("button", name="Create character").click()
    expect(errors(page, name)).to_have_text(message)
    expect(field(page, label)).to_have_value(value)
    assert Character.objects.count() == before


def test_the_panel_says_it_cannot_compute_an_unreadable_level_and_recovers(builder):
    """Level 99999: the panel says why it cannot compute instead of showing the numbers
    of the last valid Level; the error stays beside the field; Level 12 brings them back."""
    page = builder
    mark_page(page)
    field(page, "Level").fill("10")
    expect(stat(page, "level")).to_have_text("10")

    field(page, "Level").fill("99999")

    panel = page.locator("#stats-panel")
    expect(panel.locator("[data-cannot-compute]")).to_contain_text(
        "Cannot compute the derived stats")
    expect(panel.locator("[data-cannot-compute]")).to_contain_text(
        "Level: Level must be a whole number from 1 to 100.")
    expect(panel.locator("[data-stat]")).to_have_count(0)
    expect(errors(page, "level")).to_have_text("Level must be a whole number from 1 to 100.")
    expect(field(page, "Level")).to_have_value("99999")
    screenshot(page, "builder-cannot-compute")
    violations = axe_check(page)
    assert not violations, describe(violations)

    field(page, "Level").fill("12")

    expect(stat(page, "level")).to_have_text("12")
    expect(panel.locator("[data-cannot-compute]")).to_have_count(0)
    expect(errors(page, "level")).to_be_empty()

    field(page, "Agility").fill("-50")
    expect(panel.locator("[data-cannot-compute]")).to_contain_text(
        "Agility: Agility must be a whole number from -10 to 99.")
    field(page, "Agility").fill("3")
    expect(stat(page, "af")).to_have_text("13")
    assert_not_reloaded(page)


# Random helpers


def attribute_values(page):
    return [int(field(page, label).input_value()) for label in ATTRIBUTE_LABELS]


def test_rolling_attributes_shows_the_dice_and_fills_a_legal_build(builder):
    page = builder
    field(page, "Level").fill("8")
    expect(stat(page, "attribute_points")).to_have_text("8")

    page.get_by_role("button", name=re.compile("^Roll attributes")).click()

    tray = page.locator(".dice-tray")
    expect(tray).to_contain_text("Attributes (8d6)")
    expect(tray.locator(".die")).to_have_count(8)
    for die in tray.locator(".die").all_inner_texts():
        assert 1 <= int(die) <= 6
    values = attribute_values(page)
    assert sum(values) == 8
    assert all(0 <= value <= 4 for value in values)  # at most half of Level 8
    expect(stat(page, "attribute_points_left")).to_have_text("0")
    expect(page.locator("#sheet-issues .alert-danger")).to_have_count(0)
    expect(field(page, "Level")).to_have_value("8")


def test_roll_everything_keeps_what_is_locked(builder):
    page = builder
    field(page, "Name").fill("Mirela of the Marsh")
    page.get_by_label("Keep the name when rolling everything").check()

    page.get_by_role("button", name="Roll everything not kept").click()

    tray = page.locator(".dice-tray")
    expect(tray).to_contain_text("Attributes (10d6)")
    expect(tray).to_contain_text("Starting coins")
    expect(tray).not_to_contain_text("Name initial")
    expect(field(page, "Name")).to_have_value("Mirela of the Marsh")
    expect(page.get_by_label("Keep the name when rolling everything")).to_be_checked()
    expect(field(page, "Description")).to_have_value(re.compile("^Quirk: "))
    assert sum(attribute_values(page)) == 10
    coins = int(field(page, "Coins (cp)").input_value())
    assert coins % 100 == 0 and 200 <= coins <= 800
    # The rolled build still previews live after the swap.
    field(page, "Level").fill("12")
    expect(stat(page, "attribute_points")).to_have_text("12")


# Keyboard and labels


FOCUS_STYLE = """el => {
  const style = getComputedStyle(el);
  return {
    tag: el.tagName, name: el.id || el.name, text: el.textContent.trim().slice(0, 40),
    stat: el.dataset.stat || "",
    outline: style.outlineStyle, width: parseFloat(style.outlineWidth),
    visible: el.checkVisibility ? el.checkVisibility() : el.offsetParent !== null,
  };
}"""


def test_keyboard_focus_is_always_visible(builder):
    page = builder
    page.locator("body").focus()
    seen = []
    for _ in range(150):
        page.keyboard.press("Tab")
        focused = page.evaluate_handle("document.activeElement")
        info = focused.evaluate(FOCUS_STYLE)
        if info["tag"] == "BODY":
            break
        seen.append(info)
        assert info["visible"], f"focus went to a hidden element: {info}"
        assert info["outline"] != "none" and info["width"] >= 2, f"no focus ring: {info}"
    names = {info["name"] for info in seen}
    assert {"id_level", "id_str", "id_end", "id_armor", "id_shield"} <= names
    assert any(info["tag"] == "BUTTON" and "Roll" in info["text"] for info in seen)
    assert any(info["text"] == "Create character" for info in seen)
    assert any(info["stat"] == "af" for info in seen)  # the stats explain by keyboard too


def test_the_builder_can_be_filled_and_saved_by_keyboard(builder):
    page = builder
    field(page, "Level").focus()
    page.keyboard.press("Control+a")
    page.keyboard.type("10")
    page.keyboard.press("Tab")  # XP
    page.keyboard.press("Tab")  # Name
    page.keyboard.type("Keyboard Kit")
    field(page, "Agility").focus()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    expect(stat(page, "af")).to_have_text("12")

    page.get_by_role("button", name="Create character").focus()
    page.keyboard.press("Enter")

    expect(page.get_by_role("heading", name="Keyboard Kit")).to_be_visible()
    assert Character.objects.get().name == "Keyboard Kit"


def test_every_control_has_a_label(builder):
    page = builder
    controls = page.locator("main").locator(
        "input:not([type=hidden]), select, textarea"
    )
    assert controls.count() > 20
    for control in controls.all():
        expect(control).to_have_accessible_name(re.compile(r"\w"))
        label = control.evaluate(
            "el => el.labels.length ? el.labels[0].textContent.trim() : ''"
        )
        assert label, f"{control.evaluate('el => el.outerHTML')} has no <label>"
        matches = page.get_by_label(label, exact=True)
        assert control.evaluate("(el, found) => found.includes(el)", matches.element_handles())


# Phone, axe and screenshots


def test_the_builder_fits_a_phone(builder):
    page = builder
    page.set_viewport_size(PHONE)
    page.reload()
    field(page, "Strength").fill("2")
    expect(stat(page, "str")).to_have_text("2")

    overflow = page.evaluate("document.documentElement.scrollWidth")

    assert overflow <= PHONE["width"], "the builder scrolls sideways on a phone"
    # The key numbers follow the typing in a bar at the bottom of the screen.
    summary = page.locator(".stats-summary")
    expect(summary).to_be_in_viewport()
    expect(summary).to_contain_text("HP 12")
    page.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)")
    screenshot(page, "builder-375")
    page.screenshot(path=str(SCREENSHOTS / "builder-375-screen.png"))


def test_the_empty_builder_has_no_serious_accessibility_violations(builder):
    violations = axe_check(builder)

    assert not violations, describe(violations)


def test_the_builder_with_errors_has_no_serious_accessibility_violations(builder):
    page = builder
    field(page, "Strength").fill("6")
    field(page, "Coins (cp)").fill("-1")
    expect(errors(page, "coins_cp")).not_to_be_empty()
    expect(errors(page, "str")).not_to_be_empty()
    live = axe_check(page)

    page.get_by_role("button", name="Create character").click()
    expect(page.get_by_role("status").filter(has_text="Nothing was saved")).to_be_visible()
    submitted = axe_check(page)
    screenshot(page, "builder-errors")

    assert not live, describe(live)
    assert not submitted, describe(submitted)


def test_builder_screenshot_for_the_readme(builder):
    page = builder
    values = {"Name": "Mirela of the Marsh", "Pronouns": "she/her",
              "Career": "Reformed grave robber", "Quest": "Return the stolen bones",
              "Origin": "Raised in a marsh chapel", "Strength": "2", "Wisdom": "1",
              "Dexterity": "1", "Agility": "3", "Charisma": "0", "Endurance": "3"}
    for label, value in values.items():
        field(page, label).fill(value)
    field(page, "Skill 1").fill("Pick locks")
    field(page, "Skill 2").fill("Read old scripts")
    field(page, "Worn armor").select_option(label="Leather (AP 5, Rally d6, Load 1)")
    field(page, "Carried shield").select_option(label="Shield, small (AF +1, Block +3, Load 0)")
    expect(stat(page, "af")).to_have_text("14")
    expect(stat(page, "hp_armored")).to_have_text("20")
    page.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)")
    expect(page.locator("#stats-panel")).to_be_in_viewport()
    expect(page.locator(".stats-summary")).to_be_hidden()  # the panel is beside the form

    path = screenshot(page, "builder")

    DOCS_SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(path, DOCS_SCREENSHOTS / "builder.png")
