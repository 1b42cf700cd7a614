"""The table page and a character's campaign view in the browser: a player changes
their Quest (the old one stays in the history), the Imp adjusts XP with a note and names
a co-Imp; axe and screenshots at 1280 and 375 px wide."""

import pytest
from playwright.sync_api import expect

from campaigns import services
from campaigns.models import Membership
from campaigns.systems.eldritch_gambit import quests
from tests.browser.conftest import PHONE, axe_check, describe, login, screenshot
from tests.factories import CampaignFactory, CharacterFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table():
    imp = UserFactory(username="imp-pages")
    campaign = CampaignFactory(owner=imp, name="The Drowned Crown")
    player = MembershipFactory(campaign=campaign, user=UserFactory(username="ash-player")).user
    ash = CharacterFactory(owner=player, campaign=campaign, name="Ash", progress__xp=4,
                           quest="Find the drowned bell")
    MembershipFactory(campaign=campaign, user=UserFactory(username="bram-player"))
    first = services.session_start(campaign=campaign, by=imp)
    quests.quest_invest(session=first, character=ash, by=player)
    return imp, campaign, player, ash


def both_widths(page, name):
    for viewport, suffix in (({"width": 1280, "height": 900}, "1280"), (PHONE, "375")):
        page.set_viewport_size(viewport)
        violations = axe_check(page)
        assert not violations, describe(violations)
        screenshot(page, f"{name}-{suffix}")
    page.set_viewport_size({"width": 1280, "height": 900})


def test_a_player_changes_their_quest(page, live_server, password, table):
    imp, campaign, player, ash = table
    login(page, live_server, player, password)
    page.goto(f"/campaigns/{campaign.pk}/characters/{ash.pk}/")
    page.get_by_label("New Quest").fill("Ring the bell at midnight")
    with page.expect_navigation():
        page.get_by_role("button", name="Change the Quest").click()
    expect(page.locator("#messages")).to_contain_text("Ash's Quest is now: Ring the bell")
    history = page.locator("#quest-history")
    expect(history).to_contain_text("Find the drowned bell")
    expect(history.locator('[data-status="abandoned"]')).to_have_text("Abandoned in session 1")
    expect(page.locator('[data-stat="xp"]')).to_have_text("3")  # the invested XP is lost
    both_widths(page, "campaign-character")


def test_the_imp_adjusts_xp_and_names_a_co_imp(page, live_server, password, table):
    imp, campaign, player, ash = table
    login(page, live_server, imp, password)
    page.goto(f"/campaigns/{campaign.pk}/characters/{ash.pk}/")
    page.get_by_label("XP change").fill("7")
    page.get_by_label("Why").fill("Saved the lighthouse keeper")
    with page.expect_navigation():
        page.get_by_role("button", name="Record the adjustment").click()
    # 3 + 7 = 10 = Level 10: Level 11, XP 0.
    expect(page.locator('[data-stat="level"]')).to_have_text("11")
    expect(page.locator("#ledger")).to_contain_text("Saved the lighthouse keeper")

    page.goto(f"/campaigns/{campaign.pk}/members/")
    with page.expect_navigation():
        page.get_by_role("button", name="Make co-Imp ash-player").click()
    expect(page.locator('tr[data-member="ash-player"] [data-role]')).to_have_text("Co-Imp")
    assert Membership.objects.get(user=player).role == "co_imp"
    both_widths(page, "campaign-table")
