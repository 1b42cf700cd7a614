"""A second game system in a real browser: the system choice on New character, the tiny
system's builder with its live preview, and its sheet; screenshots to look at."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import axe_check, describe, follow, htmx_settled, login, screenshot
from tests.factories import UserFactory
from tests.tiny_system.fixtures import tiny  # noqa: F401 -- the fixture
from tests.tiny_system.models import TinyCharacter
from tests.tiny_system.system import LICENCE, NAME

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("tiny")]


def test_choose_build_preview_and_see_a_tiny_character(page, live_server, password):
    login(page, live_server, UserFactory(), password)
    page.goto("/characters/new/")
    choice = page.locator("#system-choice")
    expect(choice).to_contain_text(NAME)
    expect(choice).to_contain_text(LICENCE)
    expect(choice).to_contain_text("Eldritch Gambit")
    screenshot(page, "system-choice")
    assert describe(axe_check(page)) == ""

    follow(page.get_by_role("link", name=f"New {NAME} character"))
    expect(page.locator("[data-system=tiny-test]").first).to_contain_text(LICENCE)
    page.get_by_label("Name", exact=True).fill("Pip")
    page.get_by_label("Grit", exact=True).fill("4")
    page.get_by_label("Wits", exact=True).fill("2")
    expect(page.locator("[data-stat=toughness]")).to_have_text("10")
    htmx_settled(page)
    screenshot(page, "tiny-builder")
    page.get_by_role("button", name="Create character").click()
    page.wait_for_url("**/characters/*/")
    expect(page.locator("[data-stat=toughness]")).to_have_text("10")
    expect(page.locator(".system-line")).to_contain_text(LICENCE)
    screenshot(page, "tiny-sheet")
    assert describe(axe_check(page)) == ""
    assert TinyCharacter.objects.get().grit == 4


def test_the_campaign_form_shows_the_chosen_systems_settings(page, live_server, password):
    """Choosing the game system swaps in its settings: Eldritch Gambit's starting Level and
    Highlight rounds; none for the tiny system, whose campaign is made without them."""
    from campaigns.models import Campaign

    login(page, live_server, UserFactory(), password)
    page.goto("/campaigns/new/")
    expect(page.get_by_label("Starting level")).to_have_value("10")
    expect(page.get_by_label("Highlight rounds per session")).to_be_visible()
    page.get_by_label("Name", exact=True).fill("Tiny table")
    page.get_by_label("Game system").select_option(label=NAME)
    expect(page.locator("#system-settings")).to_have_attribute("data-system", "tiny-test")
    expect(page.get_by_label("Starting level")).to_have_count(0)
    expect(page.get_by_label("Highlight rounds per session")).to_have_count(0)
    expect(page.get_by_label("Name", exact=True)).to_have_value("Tiny table")
    htmx_settled(page)
    screenshot(page, "tiny-campaign-form")
    assert describe(axe_check(page)) == ""
    page.get_by_label("Game system").select_option(label="Eldritch Gambit")
    expect(page.get_by_label("Starting level")).to_have_value("10")
    page.get_by_label("Starting level").fill("6")
    with page.expect_navigation():
        page.get_by_role("button", name="Create the campaign").click()
    expect(page.locator("h1 + p")).to_contain_text("starting Level 6")
    assert Campaign.objects.get().settings == {"starting_level": 6}
