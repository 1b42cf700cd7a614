"""The Content-Security-Policy in a real browser: the pages that do the most (the
builder's live preview, the inventory, the Checks page, the print view, the Initiative
tracker) load and work with the strict policy, and Chromium reports no violation.

A violation shows both as a `securitypolicyviolation` event, recorded on window by an
init script, and as a console error ("Refused to ... Content Security Policy").
"""

from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from rules.models import GearItem
from tests.browser.conftest import htmx_settled, login, screenshot
from tests.factories import (
    AsphodelFactory,
    CampaignFactory,
    MembershipFactory,
    SessionFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db(transaction=True)

RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(`${event.violatedDirective} blocked ${event.blockedURI || "inline"}`
    + ` at ${event.sourceFile}:${event.lineNumber}`);
});
"""


@pytest.fixture
def rules_catalog(transactional_db):
    if not GearItem.objects.exists():
        call_command("load_rules", stdout=StringIO())


@pytest.fixture
def watched(page):
    """The page, with every CSP violation and console error it reports collected."""
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text)
            if message.type == "error" else None)
    page.on("pageerror", lambda error: console.append(str(error)))
    page.add_init_script(RECORD_VIOLATIONS)
    page.console_errors = console
    return page


def assert_no_violation(page, where: str):
    violations = page.evaluate("window.__cspViolations || []")
    csp_console = [text for text in page.console_errors if "Content Security Policy" in text]
    assert not violations, f"{where}: {violations}"
    assert not csp_console, f"{where}: {csp_console}"
    assert not page.console_errors, f"{where}: {page.console_errors}"


def test_the_policy_is_sent_and_the_busiest_pages_keep_to_it(watched, live_server, password,
                                                              rules_catalog):
    page = watched
    imp = UserFactory(username="csp-imp")
    campaign = CampaignFactory(owner=imp, name="The Strict Keep")
    player = MembershipFactory(campaign=campaign, user=UserFactory(username="csp-player")).user
    hero = AsphodelFactory(owner=player, campaign=campaign)
    SessionFactory(campaign=campaign)
    login(page, live_server, player, password)

    # The builder's live preview: typing swaps the stats panel through htmx.
    response = page.goto("/characters/new/?system=eldritch-gambit")
    policy = response.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "unsafe-inline" not in policy
    page.get_by_label("Agility", exact=True).fill("3")
    expect(page.locator("[data-stat=af]")).to_have_text("13")
    htmx_settled(page)
    assert_no_violation(page, "builder")

    # The inventory: a search swaps the catalog results in.
    page.goto(f"/characters/{hero.pk}/inventory/")
    htmx_settled(page)
    assert_no_violation(page, "inventory")

    # The Checks page.
    page.goto(f"/characters/{hero.pk}/play/")
    htmx_settled(page)
    assert_no_violation(page, "checks")

    # The print view: its @page rule is an inline <style> allowed by the nonce.
    page.goto(f"/characters/{hero.pk}/print/?paper=letter")
    size = page.evaluate(
        "[...document.styleSheets].flatMap(s => [...s.cssRules])"
        ".filter(r => r instanceof CSSPageRule).map(r => r.style.size).join(' ')")
    assert "letter" in size
    screenshot(page, "csp-print")
    assert_no_violation(page, "print view")

    # The Template page: its Trait rows' styles are a static file now.
    page.goto(f"/characters/{hero.pk}/template/")
    assert_no_violation(page, "template")

    # The Initiative tracker, as the Imp.
    page.context.clear_cookies()
    login(page, live_server, imp, password)
    page.goto(f"/campaigns/{campaign.pk}/initiative/")
    page.get_by_label("Name of the fight").fill("A strict ambush")
    with page.expect_navigation():
        page.get_by_role("button", name="Create the tracker").click()
    with page.expect_navigation():
        page.get_by_role("button", name="Add the campaign's characters (1)").click()
    expect(page.locator(f'tr[data-combatant="{hero.name}"]')).to_be_visible()
    htmx_settled(page)
    screenshot(page, "csp-initiative")
    assert_no_violation(page, "initiative tracker")


def test_an_inline_script_would_be_reported(watched, live_server):
    """The check above can fail: an injected inline script is refused and recorded."""
    page = watched
    page.goto("/")
    page.evaluate("""() => {
        const script = document.createElement("script");
        script.textContent = "window.__ran = true";
        document.body.appendChild(script);
    }""")
    assert page.evaluate("window.__ran === undefined")
    violations = page.evaluate("window.__cspViolations")
    assert any("script-src" in v for v in violations), violations
