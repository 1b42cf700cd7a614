"""In Chromium, a poll that finds nothing new is answered 304 and the page stays as it
was (the XHR revalidates through the HTTP cache and htmx gets the kept answer); a new
roll still shows up at the next poll (campaigns/polling.py)."""

import random
import time

import pytest
from playwright.sync_api import expect

from campaigns import polling
from campaigns.systems.eldritch_gambit import roll_services
from rules.engine.eldritch_gambit import rolls
from tests.browser.conftest import login
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    MembershipFactory,
    SessionFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_session_log_poll_gets_304s_keeps_the_page_and_shows_a_new_roll(
        page, live_server, password, monkeypatch):
    imp = UserFactory(username="imp-polls")
    campaign = CampaignFactory(owner=imp, name="The Quiet Table")
    player = MembershipFactory(campaign=campaign).user
    hero = CharacterFactory(owner=player, campaign=campaign, name="Wren")
    SessionFactory(campaign=campaign)
    roll_services.make_roll(character=hero, by=imp, spec=rolls.rally("1d6"), kind="rally",
                            rng=random.Random(1))
    # What the server answered (Chromium shows the XHR the kept 200 after a 304).
    statuses = []
    tag = polling._cacheable
    monkeypatch.setattr(polling, "_cacheable", lambda response, etag: (
        statuses.append(response.status_code), tag(response, etag))[1])
    login(page, live_server, imp, password)
    page.goto(f"/campaigns/{campaign.pk}/sessions/1/log/")
    entries = page.locator("#session-log .roll-entry")
    expect(entries).to_have_count(1)
    before = page.locator("#session-log").inner_html()

    deadline = time.monotonic() + 15
    while statuses.count(304) < 2 and time.monotonic() < deadline:
        page.wait_for_timeout(250)
    assert statuses.count(304) >= 2, statuses  # polls (every 2 s) answered "nothing new"
    expect(entries).to_have_count(1)
    assert page.locator("#session-log").inner_html() == before

    roll_services.make_roll(character=hero, by=imp, spec=rolls.rally("1d8"), kind="rally",
                            rng=random.Random(2))
    expect(entries).to_have_count(2, timeout=8000)
    expect(page.locator("#session-log")).to_contain_text("Wren")
