"""Errant Checks in the browser, at a table of two (issue #14): the player opens Play from
Wren's page, sets DV 4 on a phys Check and sees the exact chance change as a fraction
before rolling, rolls a dealt 5 (a success), then an opposed Check against an NPC's
Threat; the Guide, on the session's Errant roll log in another browser, sees the rolls
appear without reloading (the conditional poll).

CR §Checks (above the DV, at most the Attribute), §Position & Impact (the meaning shown),
§Opposed Checks; IT §NPC Attributes (Threat + 8). The d20 is dealt by a scripted source
(roll_services._SYSTEM_RANDOM). Screenshots in artifacts/screenshots/; axe finds no
serious or critical violation.
"""

import pytest
from playwright.sync_api import expect

from campaigns import services
from campaigns.systems.errant import roll_services
from campaigns.systems.errant.roll_views import show
from campaigns.systems.errant.rolls import ErrantRoll
from characters.systems.errant.apps import KEY
from characters.systems.errant.builds import sheet_for
from rules.engine.errant.checks import opposed_odds, p_success
from tests.browser.conftest import (
    DESKTOP,
    PHONE,
    Dealt,
    axe_check,
    describe,
    follow,
    htmx_settled,
    login,
    screenshot,
)
from tests.characters.systems.errant.helpers import make_wren
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)
SLOW = 15000  # ms: a busy machine may take longer than expect()'s 5 s for a swap


@pytest.fixture
def table(transactional_db):
    guide = UserFactory(username="guide-errant")
    campaign = CampaignFactory(owner=guide, name="The Peacock King's Manor", system=KEY)
    player = MembershipFactory(campaign=campaign, user=UserFactory(username="ada")).user
    wren = make_wren(player)
    services.character_join(campaign=campaign, character=wren, by=player)
    services.session_start(campaign=campaign, by=guide)
    return {"guide": guide, "player": player, "wren": wren, "campaign": campaign}


def fraction(chance) -> str:
    return f"({chance.numerator}/{chance.denominator})"


def test_a_check_reaches_the_guides_log_live(page, browser, live_server, password, table,
                                             monkeypatch):
    monkeypatch.setattr(roll_services, "_SYSTEM_RANDOM", Dealt(5, 9, 3))
    campaign = table["campaign"]
    phys = sheet_for(table["wren"]).value("phys")

    guide_context = browser.new_context(viewport=DESKTOP, base_url=live_server.url,
                                        reduced_motion="reduce")
    guide_page = guide_context.new_page()
    login(guide_page, live_server, table["guide"], password)
    guide_page.goto(f"/campaigns/{campaign.pk}/sessions/1/")
    follow(guide_page.get_by_role("link", name="Roll log"))
    expect(guide_page.locator("#log-empty")).to_be_visible()
    guide_page.evaluate("window.__notReloaded = true")

    login(page, live_server, table["player"], password)
    page.goto(f"/characters/{table['wren'].pk}/")
    follow(page.get_by_role("link", name="Play: Checks"))
    expect(page.get_by_role("heading", name="Make a Check")).to_be_visible()
    expect(page.locator('[data-fraction="success"]')).to_have_text(fraction(p_success(phys, 0)))

    page.get_by_label("DV", exact=True).fill("4")
    expect(page.locator('[data-fraction="success"]')).to_have_text(
        fraction(p_success(phys, 4)), timeout=SLOW)
    expect(page.locator('[data-odds="success"]')).to_contain_text(
        show(p_success(phys, 4))["percent"])
    page.get_by_label("Position").select_option("dire")
    expect(page.locator("[data-stakes]")).to_contain_text("worse than you even imagined",
                                                          timeout=SLOW)
    # A wrong DV is said beside it; the odds wait for a right one.
    page.get_by_label("DV", exact=True).fill("999")
    expect(page.locator("#errors-dv")).to_contain_text("whole number", timeout=SLOW)
    page.get_by_label("DV", exact=True).fill("4")
    expect(page.locator("#errors-dv")).to_be_empty(timeout=SLOW)
    assert not ErrantRoll.objects.exists()

    page.get_by_role("button", name="Roll the d20").click()
    htmx_settled(page)
    outcome = page.locator('#roll-result [data-result="outcome"]')
    expect(outcome).to_have_text("Success", timeout=SLOW)
    expect(page.locator("#roll-result [data-face]")).to_have_text("5")
    expect(page.locator("#roll-meaning")).to_contain_text("Fair Impact")
    screenshot(page, "errant-check-success")
    violations = axe_check(page)
    assert not violations, describe(violations)

    entry = guide_page.locator('#session-log [data-kind="check"]')
    expect(entry).to_be_visible(timeout=SLOW)
    expect(entry).to_contain_text("Success")

    # An opposed Check against an NPC of Threat 2 (at most 10), both at DV 0.
    page.get_by_label("Roll", exact=True).select_option("opposed")
    htmx_settled(page)
    page.get_by_label("DV", exact=True).fill("0")
    page.get_by_label("Opponent", exact=True).fill("Head chef")
    page.get_by_label("Or the NPC's Threat").fill("2")
    page.get_by_label("Opponent's DV").fill("0")
    odds = opposed_odds((phys, 0), (10, 0))
    expect(page.locator('[data-fraction="win"]')).to_have_text(fraction(odds.first_wins),
                                                               timeout=SLOW)
    page.get_by_role("button", name="Roll the d20").click()
    htmx_settled(page)
    won = "Won" if phys >= 9 else "Lost"
    expect(outcome).to_have_text(won, timeout=SLOW)
    expect(guide_page.locator('#session-log [data-kind="opposed"]')).to_contain_text(
        "Head chef", timeout=SLOW)
    assert guide_page.evaluate("window.__notReloaded") is True
    screenshot(guide_page, "errant-session-log")
    violations = axe_check(guide_page)
    assert not violations, describe(violations)
    page.set_viewport_size(PHONE)
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, "errant-check-phone")
    guide_context.close()
