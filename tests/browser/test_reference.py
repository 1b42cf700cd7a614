"""The rules reference in a real browser: search as you type narrows the list without a
reload, a result's link leads to its entry, the pages pass axe and fit a phone, and the
search still works with JavaScript off."""

from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from rules.models import GearItem
from tests.browser.conftest import (
    CHROMIUM,
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


@pytest.fixture
def rules_catalog(transactional_db):
    """The gear catalog (the flush after each transactional test empties it)."""
    if not GearItem.objects.exists():
        call_command("load_rules", stdout=StringIO())


def viewport_shot(page, name):
    """The visible part only: the reference is long, a full page shot is unreadable."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def hits(page):
    return page.locator(".search-hit")


def type_query(page, text):
    box = page.get_by_label("Search the rules")
    box.fill("")
    box.press_sequentially(text, delay=20)
    htmx_settled(page)


def test_typing_narrows_the_results_without_a_reload_and_links_lead_to_entries(
        page, live_server, rules_catalog):
    page.goto("/rules/")
    expect(page.get_by_role("heading", name="Rules reference", level=1)).to_be_visible()
    page.evaluate("window.__sameDocument = true")

    type_query(page, "gra")
    expect(page.locator("#search-count")).to_be_visible()
    broad = hits(page).count()
    assert broad > 1
    page.get_by_label("Search the rules").press_sequentially("pple", delay=20)
    expect(page.locator("#search-count")).to_contain_text("for “grapple”")
    htmx_settled(page)
    narrow = hits(page).count()
    assert 1 <= narrow < broad, (broad, narrow)
    expect(hits(page).first.get_by_role("link")).to_have_text("Grapple")
    expect(page.locator(".search-hit mark").first).to_have_text("Grapple")
    assert page.evaluate("window.__sameDocument") is True, "the page reloaded"
    assert page.url.endswith("/rules/")

    violations = axe_check(page)
    viewport_shot(page, "rules-reference-search")
    assert not violations, describe(violations)

    with page.expect_navigation():
        hits(page).first.get_by_role("link").click()
    assert page.url.endswith("/rules/actions/grapple/")
    expect(page.get_by_role("heading", name="Grapple", level=1)).to_be_visible()
    expect(page.locator('[data-field="check"]')).to_have_text("DEX vs. AF")
    expect(page.get_by_role("table", name="Suggested outcomes of Grapple")).to_be_visible()
    entry_violations = axe_check(page)
    screenshot(page, "rules-reference-grapple")
    assert not entry_violations, describe(entry_violations)


def test_no_results_say_so_and_clearing_the_box_clears_them(page, live_server, rules_catalog):
    page.goto("/rules/")
    type_query(page, "xylophone")
    expect(page.locator("#search-none")).to_have_text(
        "Nothing in the rules matches “xylophone”. Try fewer words, or a shorter part of one."
    )
    assert hits(page).count() == 0
    type_query(page, "fire")
    expect(hits(page).first.get_by_role("link")).to_have_text("Fire")
    page.get_by_label("Search the rules").fill("")
    htmx_settled(page)
    expect(page.locator("#search-results")).to_be_empty()


def test_linked_rows_and_entry_pages_on_a_phone(page, live_server, rules_catalog):
    page.set_viewport_size(PHONE)
    page.goto("/rules/staging/initiative/")
    expect(page.get_by_role("heading", name="Initiative", level=1)).to_be_visible()
    expect(page.get_by_text("Volleyball", exact=False).first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "rules-reference-initiative-375")
    page.goto("/rules/scenery/cover/")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    violations = axe_check(page)
    assert not violations, describe(violations)
    page.goto("/rules/")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto("/rules/#actions-heading")
    viewport_shot(page, "rules-reference-actions")
    page.goto("/rules/#gambits-heading")
    viewport_shot(page, "rules-reference-gambits")
    page.set_viewport_size(PHONE)
    page.goto("/rules/#status-burning")
    expect(page.locator("#status-burning")).to_be_in_viewport()
    viewport_shot(page, "rules-reference-status-row-375")


def test_search_works_without_javascript(browser, live_server, rules_catalog):
    if not CHROMIUM.exists():
        pytest.skip("no chromium")
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto("/rules/")
        page.get_by_label("Search the rules").fill("fire")
        with page.expect_navigation():
            page.get_by_role("button", name="Search").click()
        assert "/rules/search/?q=fire" in page.url
        expect(page.get_by_role("heading", name="Search the rules")).to_be_visible()
        expect(page.locator(".search-hit").first.get_by_role("link")).to_have_text("Fire")
        expect(page.get_by_label("Search the rules")).to_have_value("fire")
    finally:
        context.close()


# The chapters, and the explanations that link to them


def test_a_stats_explanation_links_to_its_rules_entry(page, live_server, rules_catalog,
                                                      password):
    """The builder's WP explains itself; its "SRD: Characters > Defenses > Willpower"
    is a link, and following it lands on that heading's entry, with its text."""
    login(page, live_server, UserFactory(username="mirela"), password)
    page.goto("/characters/new/?system=eldritch-gambit")
    page.get_by_label("Wisdom", exact=True).fill("3")
    expect(page.locator("[data-stat=wp]")).to_have_text("13")

    page.locator("[data-stat=wp]").click()
    why = page.locator("#why-wp")
    expect(why).to_be_visible()
    expect(why).to_contain_text("WP 13 = 10 + WIS 3")
    link = why.get_by_role("link", name="Characters > Defenses > Willpower")
    expect(link).to_be_visible()
    screenshot(page, "builder-explanation-links-to-the-rules")
    with page.expect_navigation():
        link.click()

    assert page.url.endswith("/rules/characters/willpower/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Willpower (WP)")
    expect(page.locator(".citation")).to_contain_text(
        "Eldritch Gambit SRD, Characters > Defenses > Willpower")
    expect(page.locator(".reference-entry")).to_contain_text("WP is equal to ten plus WIS")
    expect(page.get_by_role("link", name="Characters").first).to_be_visible()
    expect(page.locator(".attribution")).to_contain_text("CC BY 4.0")
    violations = axe_check(page)
    assert not violations, describe(violations)
    screenshot(page, "rules-entry-willpower")


def test_a_hovered_explanation_stays_open_on_the_way_to_its_link(page, live_server,
                                                               rules_catalog, password):
    """A mouse hover shows an explanation in passing; moving the pointer on into it (across
    the small gap below the number) keeps it open, so its "SRD:" link can be followed.
    Leaving both closes it."""
    login(page, live_server, UserFactory(username="hover"), password)
    page.goto("/characters/new/?system=eldritch-gambit")
    number = page.locator("[data-stat=wp]")
    why = page.locator("#why-wp")
    number.hover()
    expect(why).to_be_visible()
    box = number.bounding_box()
    # Down through the gap between the number and its explanation, then onto the link.
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] + 3)
    link = why.get_by_role("link", name="Characters > Defenses > Willpower")
    link.hover()
    page.wait_for_timeout(500)
    expect(why).to_be_visible()
    with page.expect_navigation():
        link.click()
    assert page.url.endswith("/rules/characters/willpower/")

    page.go_back()
    number = page.locator("[data-stat=wp]")
    number.hover()
    expect(page.locator("#why-wp")).to_be_visible()
    page.mouse.move(5, 5)  # away from both
    expect(page.locator("#why-wp")).to_be_hidden()


@pytest.mark.parametrize(("query", "name"), [
    ("reroll", "Rerolls"), ("willpower", "Willpower (WP)"), ("advancement", "Advancement"),
    ("highlights", "Highlights XP"), ("gambit", "Gambits"),
])
def test_the_tables_words_find_the_chapters(page, live_server, rules_catalog, query, name):
    page.goto(f"{live_server.url}/rules/")
    type_query(page, query)
    first = hits(page).first
    expect(first.get_by_role("link")).to_have_text(name)
    if query == "highlights":
        viewport_shot(page, "rules-search-highlights")
        with page.expect_navigation():
            first.get_by_role("link").click()
        assert page.url.endswith("/rules/characters/highlights-xp/")
        expect(page.locator(".reference-entry")).to_contain_text("Highlight")


def test_a_chapter_lists_its_headings_and_fits_a_phone(page, live_server, rules_catalog):
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/rules/")
    with page.expect_navigation():
        page.locator("#chapters-heading").locator("..").get_by_role(
            "link", name="Basics", exact=True).click()
    assert page.url.endswith("/rules/basics/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Basics")
    with page.expect_navigation():
        page.get_by_role("link", name="Rerolls", exact=True).click()
    expect(page.locator(".reference-entry")).to_contain_text("cannot Reroll Checks")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    violations = axe_check(page)
    assert not violations, describe(violations)
    page.goto(f"{live_server.url}/rules/characters/")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    violations = axe_check(page)
    assert not violations, describe(violations)
    screenshot(page, "rules-chapter-characters-375")
