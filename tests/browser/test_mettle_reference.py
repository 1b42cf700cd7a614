"""METTLE Core's rules reference in a real browser (the style of test_reference.py):
searching from /rules/ finds METTLE entries beside Eldritch Gambit's, each result says
its game, a result leads to its entry with the CC BY 4.0 attribution, the pages pass axe
and fit a phone, and a METTLE sheet's explanation links to its entry."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, axe_check, describe, login, screenshot
from tests.browser.test_reference import hits, type_query, viewport_shot
from tests.characters.systems.mettle.helpers import make_viktor
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_search_finds_mettle_entries_and_says_which_game(page, live_server):
    page.goto("/rules/")
    expect(page.get_by_role("heading", name="METTLE Core", level=2)).to_be_visible()
    type_query(page, "split actions")
    mettle = hits(page).filter(has=page.locator('[data-game="METTLE Core"]'))
    expect(mettle.first.get_by_role("link")).to_have_text("Split Actions")
    expect(mettle.first.locator(".search-label")).to_have_text("Scenes")
    viewport_shot(page, "rules-search-mettle-split-actions")
    violations = axe_check(page)
    assert not violations, describe(violations)

    type_query(page, "staggered")
    both = {hits(page).nth(n).locator(".search-game").inner_text()
            for n in range(hits(page).count())}
    assert {"METTLE Core", "Eldritch Gambit"} <= both, both
    staggered = hits(page).filter(has=page.locator('[data-game="METTLE Core"]')).filter(
        has=page.get_by_role("link", name="Staggered", exact=True))
    with page.expect_navigation():
        staggered.first.get_by_role("link", name="Staggered", exact=True).click()
    assert page.url.endswith("/rules/mettle-core/statuses/staggered/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Staggered")
    expect(page.locator(".reference-entry")).to_contain_text("Lose Free Move & Rally")
    expect(page.locator(".attribution")).to_contain_text(
        "licensed for our use under the Creative Commons Attribution 4.0")
    violations = axe_check(page)
    screenshot(page, "rules-mettle-staggered")
    assert not violations, describe(violations)


def test_an_action_entry_and_its_chapter_on_a_phone(page, live_server):
    page.set_viewport_size(PHONE)
    page.goto("/rules/mettle-core/scenes/attack/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Attack")
    expect(page.locator(".reference-entry")).to_contain_text(
        "Check pair: NATURE vs. the target's POISE")
    expect(page.locator(".outcomes")).to_contain_text("Success")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    violations = axe_check(page)
    screenshot(page, "rules-mettle-attack-375")
    assert not violations, describe(violations)
    with page.expect_navigation():
        page.get_by_role("link", name="Scenes", exact=True).first.click()
    assert page.url.endswith("/rules/mettle-core/scenes/")
    expect(page.get_by_role("link", name="Split Actions", exact=True)).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.goto("/rules/mettle-core/tables/weapons/")
    expect(page.get_by_role("table", name="WEAPONS")).to_be_visible()
    violations = axe_check(page)
    screenshot(page, "rules-mettle-weapons-375")
    assert not violations, describe(violations)


def test_a_mettle_explanation_links_to_its_entry(page, live_server, password):
    user = UserFactory(username="viktor-player")
    viktor = make_viktor(user)
    login(page, live_server, user, password)
    page.goto(viktor.get_absolute_url())
    page.locator("[data-stat=mettle_max]").click()
    why = page.locator("#d-why-mettle_max")
    expect(why).to_be_visible()
    link = why.get_by_role("link", name="Engine > Mettle")
    expect(link).to_be_visible()
    screenshot(page, "mettle-explanation-links-to-the-rules")
    with page.expect_navigation():
        link.click()
    assert page.url.endswith("/rules/mettle-core/engine/mettle/")
    expect(page.locator(".citation")).to_contain_text("METTLE Core SRD, Engine > Mettle")
    expect(page.locator(".reference-entry")).to_contain_text("MOTIVE plus their highest")
