"""A long log in a real browser (issue 12): the Errant Turn log shows a page of Turns
and the pager; Older shows the rest and stops polling (the newest would come back);
Newest returns and polls again. Axe finds nothing serious on either page."""

import pytest
from playwright.sync_api import expect

from campaigns import services
from campaigns.paging import LOG_PAGE_SIZE
from campaigns.systems.errant import turns
from tests.browser.conftest import axe_check, describe, login, screenshot
from tests.characters.systems.errant.helpers import make_wren
from tests.factories import CampaignFactory, MembershipFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_long_turn_log_pages_back_with_older(page, live_server, password):
    campaign = CampaignFactory(system="errant", name="The Long Road")
    guide = campaign.owner
    player = MembershipFactory(campaign=campaign).user
    services.character_join(campaign=campaign, character=make_wren(player), by=player)
    services.session_start(campaign=campaign, by=guide)
    total = LOG_PAGE_SIZE + 3
    for n in range(total):
        turns.declare(campaign=campaign, kind="exploration", by=guide, activity=f"Search {n}")

    login(page, live_server, player, password)
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/company/turns/")
    log = page.locator("#turn-log")
    expect(log.locator("[data-turn]")).to_have_count(LOG_PAGE_SIZE)
    expect(log.locator(f'[data-turn="{total}"]')).to_be_visible()
    pager = log.locator("[data-pager]")
    expect(pager).to_be_visible()
    assert axe_check(page) == [], describe(axe_check(page))

    # With htmx the link swaps only the log (and the address bar follows).
    pager.get_by_role("link", name="Older").click()
    expect(log.locator("[data-turn]")).to_have_count(3)
    assert "before=" in page.url
    expect(log.locator('[data-turn="1"]')).to_be_visible()
    screenshot(page, "turn-log-older")
    assert axe_check(page) == [], describe(axe_check(page))
    # The older page does not poll: a new Turn does not replace it.
    turns.declare(campaign=campaign, kind="exploration", by=guide, activity="Later")
    page.wait_for_timeout(3500)
    expect(log.locator("[data-turn]")).to_have_count(3)

    log.locator("[data-pager]").get_by_role("link", name="Newest").click()
    expect(log.locator(f'[data-turn="{total + 1}"]')).to_be_visible()
    expect(log.locator("[data-turn]")).to_have_count(LOG_PAGE_SIZE)
    # The newest page polls again: the next Turn appears by itself.
    turns.declare(campaign=campaign, kind="exploration", by=guide, activity="Later still")
    expect(log.locator(f'[data-turn="{total + 2}"]')).to_be_visible(timeout=8000)


def test_the_older_link_works_without_javascript(browser, live_server, password):
    campaign = CampaignFactory(system="errant", name="The Quiet Road")
    guide = campaign.owner
    for n in range(LOG_PAGE_SIZE + 1):
        turns.declare(campaign=campaign, kind="exploration", by=guide, activity=f"Search {n}")
    context = browser.new_context(java_script_enabled=False, base_url=live_server.url)
    page = context.new_page()
    try:
        login(page, live_server, guide, password)
        page.goto(f"{live_server.url}/campaigns/{campaign.pk}/company/turns/")
        with page.expect_navigation():
            page.locator("#turn-log [data-pager]").get_by_role("link", name="Older").click()
        assert "before=" in page.url
        expect(page.locator("#turn-log [data-turn]")).to_have_count(1)
    finally:
        context.close()
