"""METTLE Checks in the browser, at a table of two (issue #13): the player opens Play from
Viktor's page, chooses the Attack Action (NATURE 3D), sees the exact odds against a
Daunting Difficulty 6 before rolling, fails with Edge, calls a Twist at the price of a
Delay, and the Guide, on the session's METTLE roll log in another browser, sees the Check
and its Twist appear without reloading (the conditional poll).

EN §Checks (Score beats Difficulty), §Twists (reroll the Edge dice, Score kept; Delay the
default price); SC §Actions (Attack: NATURE vs the target's POISE). The dice are dealt by
a scripted source (roll_services._SYSTEM_RANDOM) so the failure with Edge is certain.
Screenshots in artifacts/screenshots/; axe finds no serious or critical violation.
"""

import pytest
from playwright.sync_api import expect

from campaigns import services
from campaigns.systems.mettle import roll_services
from campaigns.systems.mettle.roll_views import show
from campaigns.systems.mettle.rolls import MettleRoll
from characters.systems.mettle.apps import KEY
from rules.engine.mettle.checks import check_odds
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
from tests.characters.systems.mettle.helpers import make_viktor
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)
SLOW = 15000  # ms: a busy machine may take longer than expect()'s 5 s for a swap


@pytest.fixture
def table(transactional_db):
    guide = UserFactory(username="guide-mettle")
    campaign = CampaignFactory(owner=guide, name="The Gambler's Debt", system=KEY)
    player = MembershipFactory(campaign=campaign, user=UserFactory(username="vera")).user
    viktor = make_viktor(player)
    services.character_join(campaign=campaign, character=viktor, by=player)
    services.session_start(campaign=campaign, by=guide)
    return {"guide": guide, "player": player, "viktor": viktor, "campaign": campaign}


def test_a_check_with_a_twist_reaches_the_guides_log_live(page, browser, live_server,
                                                          password, table, monkeypatch):
    # NATURE 3D: [1, 5, 6] is Score 1, Edge 2 against 6: a failure with Edge; the Twist
    # rerolls the two Edge dice as [3, 3]: Score 7 beats 6.
    monkeypatch.setattr(roll_services, "_SYSTEM_RANDOM", Dealt(1, 5, 6, 3, 3))
    campaign = table["campaign"]

    guide_context = browser.new_context(viewport=DESKTOP, base_url=live_server.url,
                                        reduced_motion="reduce")
    guide_page = guide_context.new_page()
    login(guide_page, live_server, table["guide"], password)
    guide_page.goto(f"/campaigns/{campaign.pk}/sessions/1/")
    follow(guide_page.get_by_role("link", name="Roll log"))
    expect(guide_page.locator("#log-empty")).to_be_visible()
    guide_page.evaluate("window.__notReloaded = true")

    login(page, live_server, table["player"], password)
    page.goto(f"/characters/{table['viktor'].pk}/")
    follow(page.get_by_role("link", name="Play: Checks"))
    expect(page.get_by_role("heading", name="Make a Check")).to_be_visible()

    page.get_by_label("Action", exact=True).select_option("Attack")
    htmx_settled(page)
    expect(page.get_by_label("Roll", exact=True)).to_have_value("nature")
    expect(page.locator("#action-outcomes")).to_contain_text("the target dodges or parries",
                                                             timeout=SLOW)
    page.get_by_label("Difficulty", exact=True).select_option("6")
    odds = check_odds(3, 6)
    expect(page.locator('[data-odds="success"]')).to_contain_text(show(odds.p_success)["percent"])
    expect(page.locator('[data-fraction="with_twist"]')).to_have_text(
        f"({odds.p_success_with_twist})")
    assert not MettleRoll.objects.exists()

    page.get_by_role("button", name="Roll the Check").click()
    htmx_settled(page)
    expect(page.locator('[data-result="outcome"]')).to_have_text("Failure", timeout=SLOW)
    expect(page.locator('[data-result="edge"]')).to_have_text("2")
    screenshot(page, "mettle-check-failure-with-edge")
    page.get_by_label("The Twist's price").select_option("Delay")
    page.get_by_role("button", name="Call a Twist").click()
    htmx_settled(page)
    expect(page.locator('[data-result="twist-outcome"]')).to_have_text("Success, OK",
                                                                       timeout=SLOW)
    expect(page.locator('[data-result="twist-score"]')).to_have_text("7")
    expect(page.get_by_role("button", name="Call a Twist")).to_have_count(0)
    twist = MettleRoll.objects.get(kind="twist")
    assert twist.twist_price == "Delay" and twist.twist_of.faces == [1, 5, 6]
    screenshot(page, "mettle-check-twist")
    violations = axe_check(page)
    assert not violations, describe(violations)

    # The Guide's log follows without a reload.
    entry = guide_page.locator('#session-log [data-kind="twist"]')
    expect(entry).to_be_visible(timeout=SLOW)
    expect(entry).to_contain_text("Delay")
    expect(guide_page.locator('#session-log [data-kind="check"]')).to_contain_text("Failure")
    assert guide_page.evaluate("window.__notReloaded") is True
    screenshot(guide_page, "mettle-session-log")
    guide_context.close()


def test_a_split_action_shows_its_parts_and_rolls_each_once(page, live_server, password,
                                                            table):
    """Scenes > Split Actions: Viktor's CONCEPT 5D in two Actions is 3 and 2; a third
    Action on POISE 2 is capped at 2 (AMB-M7): 5 in three is 2, 2, 1 as evenly as possible;
    the Sword's +2D comes after the split, on its part only."""
    login(page, live_server, table["player"], password)
    page.goto(f"/characters/{table['viktor'].pk}/mettle/play/")
    page.get_by_label("Action 1: Attribute").select_option("concept")
    htmx_settled(page)
    page.get_by_label("Action 1: which").select_option("Attack")
    htmx_settled(page)
    page.get_by_label("Action 1: +/-D").fill("2")
    page.get_by_label("Action 1: Difficulty").fill("2")
    page.get_by_role("button", name="Show the split").click()
    htmx_settled(page)
    plan = page.locator("#split-plan")
    expect(plan).to_contain_text("5D split into 2: 3 and 2", timeout=SLOW)
    expect(plan.locator('[data-part="1"] [data-dice]')).to_contain_text("5D")
    expect(plan.locator('[data-part="1"] [data-odds="success"]')).to_contain_text(
        f"({check_odds(5, 2).p_success})")
    page.get_by_label("Actions", exact=True).select_option("3")
    htmx_settled(page)
    page.get_by_label("Action 3: Attribute").select_option("poise")
    htmx_settled(page)
    expect(plan).to_contain_text("5D split into 3: 2 and 2 and 1", timeout=SLOW)
    page.get_by_role("button", name="Roll part 1").dblclick()
    htmx_settled(page)
    expect(plan.locator('[data-part="1"] [data-rolled]')).to_be_visible(timeout=SLOW)
    page.get_by_role("button", name="Roll part 3").click()
    htmx_settled(page)
    expect(plan.locator('[data-part="3"] [data-rolled]')).to_be_visible(timeout=SLOW)
    rolls = MettleRoll.objects.order_by("pk")
    assert [(r.split["part"], r.pool, r.dice) for r in rolls] == [(1, 2, 4), (3, 1, 1)]
    expect(page.locator("#recent-checks [data-split-part]")).to_have_count(2)
    screenshot(page, "mettle-split-action")
    page.set_viewport_size(PHONE)
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, "mettle-split-action-phone")
