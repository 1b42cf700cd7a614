"""The Errant Guide's screen in a real browser (issue #15): the Guide starts an Exploration
Turn, picks a lock step by step, rolls a Reaction with the Company's Alignment and
negotiates two exchanges, runs a Chase round; the Turn log holds all of it (read from the
database: the log page is another part's)."""

import pytest
from playwright.sync_api import expect

from campaigns import services
from campaigns.systems.errant.turn_models import ErrantTurn
from rules.engine.errant import reactions
from tests.browser.conftest import (
    PHONE,
    axe_check,
    describe,
    follow,
    htmx_settled,
    login,
    screenshot,
)
from tests.characters.systems.errant.helpers import make_wren
from tests.factories import CampaignFactory, MembershipFactory

pytestmark = pytest.mark.django_db(transaction=True)


def reaction_odds_fit(page) -> None:
    """The Reaction odds fit their card: each table no wider than its scrolling wrapper
    (nothing to scroll sideways) and inside the card, the page no wider than the window
    (they used to be wider than the card, at desktop width and worse on a phone)."""
    tables = page.evaluate("""() => [...document.querySelectorAll('[data-reaction-odds]')]
        .map(table => {
            const wrapper = table.closest('.table-responsive');
            const card = table.closest('.card').getBoundingClientRect();
            const box = table.getBoundingClientRect();
            return {width: table.scrollWidth, room: wrapper.clientWidth,
                    inside: box.left >= card.left && box.right <= card.right};
        })""")
    assert tables and all(t["width"] <= t["room"] and t["inside"] for t in tables), tables
    assert page.evaluate("document.documentElement.scrollWidth") <= page.evaluate(
        "window.innerWidth")


def test_the_guide_runs_a_lock_a_reaction_and_a_chase(page, live_server, password):
    campaign = CampaignFactory(system="errant", name="The Drowned Abbey")
    guide = campaign.owner
    player = MembershipFactory(campaign=campaign).user
    wren = make_wren(player, alignment="L2")
    services.character_join(campaign=campaign, character=wren, by=player)
    services.session_start(campaign=campaign, by=guide)

    login(page, live_server, guide, password)
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/")
    follow(page.get_by_role("link", name="Guide's screen"))
    expect(page.get_by_role("heading", name="The Guide's screen")).to_be_visible()
    page.get_by_label("What the Company does").fill("Into the crypt")
    page.get_by_label("Moving slowly").check()
    follow(page.get_by_role("button", name="Start the Exploration Turn"))
    expect(page.locator("[data-pace]")).to_contain_text("1/2")

    # A Steel lock, twist-tap-turn, no modifier (d12s 7, 2, 9), picked step by step.
    page.get_by_label("Three d12s (empty: roll them)").fill("7 2 9")
    page.get_by_role("button", name="Set a new lock").click()
    htmx_settled(page)
    expect(page.locator("[data-lock-sequence]")).to_have_text("twist-tap-turn")
    for step, action in enumerate(("twist", "tap", "turn"), start=1):
        page.get_by_label("Who picks").select_option(label="Wren")
        page.get_by_label("Action", exact=True).select_option(action)
        page.locator("[data-pick-submit]").click()
        htmx_settled(page)
        expect(page.locator("[data-lock-progress]")).to_have_text(f"{step}/3")
    expect(page.locator("[data-lock-state]")).to_contain_text("open")
    expect(page.locator("[data-lock-step]")).to_have_count(3)

    # A Reaction against a Lawful NPC: Wren is L2, so +2; then two exchanges.
    alignment = reactions.alignment_modifier(["L2"], "L")
    page.get_by_label("NPC", exact=True).fill("The abbot")
    page.get_by_label("NPC's Alignment").select_option("L")
    page.get_by_label("The Guide's modifiers").fill("+1")
    page.get_by_label("Begin a Negotiation").check()
    page.locator("[data-reaction-submit]").click()
    htmx_settled(page)
    expect(page.locator("[data-reaction]")).to_contain_text(f"{alignment:+d} (Alignment)")
    reaction_odds_fit(page)
    page.get_by_label("Exchange", exact=True).select_option("banal")
    page.locator("[data-exchange-submit]").click()
    htmx_settled(page)
    page.get_by_label("Exchange", exact=True).select_option("giving")
    page.get_by_label("The Check", exact=True).select_option("yes")
    page.get_by_label("Impact", exact=True).select_option("strong")
    page.locator("[data-exchange-submit]").click()
    htmx_settled(page)
    expect(page.locator("[data-exchange]")).to_have_count(2)
    expect(page.locator("[data-exchange]").nth(1)).to_contain_text("touched (+3)")

    # A Chase: Wren flees a hound; one round.
    page.locator("#chase").get_by_label("Wren").first.check()
    page.get_by_label("Pursuing NPCs").fill("Hound, 8, 2, 10")
    page.locator("[data-chase-submit]").click()
    htmx_settled(page)
    expect(page.locator("[data-chase-side=pursuers]")).to_contain_text("Hound")
    page.locator("[data-round-submit]").click()
    htmx_settled(page)
    expect(page.locator("[data-chase-round]")).to_have_count(1)
    expect(page.locator("[data-turn-changes]")).to_contain_text("Chase round 1")
    assert axe_check(page) == [], describe(axe_check(page))
    screenshot(page, "errant_screen_guide")

    turn = ErrantTurn.objects.get(company__campaign=campaign)
    labels = [c.label for c in turn.changes.order_by("pk")]
    assert turn.kind == "exploration" and turn.state["lock"]["open"]
    assert sum("tries to" in label for label in labels) == 3
    assert any(label.startswith("Reaction Roll, The abbot") for label in labels)
    assert sum(label.startswith("Exchange") for label in labels) == 2
    assert any(label.startswith("Chase round 1") for label in labels)
    assert turn.state["negotiation"]["exchanges"] == 2

    page.set_viewport_size(PHONE)
    page.reload()
    assert axe_check(page) == [], describe(axe_check(page))
    reaction_odds_fit(page)
    screenshot(page, "errant_screen_phone")
