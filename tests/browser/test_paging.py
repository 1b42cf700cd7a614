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

    with page.expect_navigation():
        pager.get_by_role("link", name="Older").click()
    assert "before=" in page.url
    expect(log.locator("[data-turn]")).to_have_count(3)
    expect(log.locator('[data-turn="1"]')).to_be_visible()
    screenshot(page, "turn-log-older")
    assert axe_check(page) == [], describe(axe_check(page))
    # The older page does not poll: a new Turn does not replace it.
    turns.declare(campaign=campaign, kind="exploration", by=guide, activity="Later")
    page.wait_for_timeout(3500)
    expect(log.locator("[data-turn]")).to_have_count(3)

    with page.expect_navigation():
        log.locator("[data-pager]").get_by_role("link", name="Newest").click()
    expect(log.locator(f'[data-turn="{total + 1}"]')).to_be_visible()
    expect(log.locator("[data-turn]")).to_have_count(LOG_PAGE_SIZE)
