"""A Downtime Turn in the browser, at a table of two (issue #15): the Guide walks DT's
steps from the first to lifestyle in a town, Wren's Conspicuous Consumption (dealt D8 8:
8 x 600 p) grants enough XP that her Renown rises, and the Company page shows the new
Renown and the pending Attribute raise. The player, on the Downtime page in another
browser, sees the log fill in without reloading (the conditional poll). Dice are dealt by
a scripted source (downtime._SYSTEM_RANDOM); axe finds no serious or critical violation;
the phone layout does not scroll sideways."""

import pytest
from playwright.sync_api import expect

from campaigns import services
from campaigns.systems.errant import downtime
from characters.models import CoinEntry
from characters.systems.errant.apps import KEY
from rules.engine.errant.advancement import renown_for_xp
from rules.engine.errant.data.downtime_tables import CONSUMPTION_DICE
from tests.browser.conftest import (
    DESKTOP,
    PHONE,
    Dealt,
    axe_check,
    describe,
    htmx_settled,
    login,
    screenshot,
)
from tests.characters.systems.errant.helpers import make_wren
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)
SLOW = 15000


@pytest.fixture
def table(transactional_db):
    guide = UserFactory(username="guide-downtime")
    campaign = CampaignFactory(owner=guide, name="The Drowned Abbey", system=KEY)
    player = MembershipFactory(campaign=campaign, user=UserFactory(username="bea")).user
    wren = make_wren(player)
    services.character_join(campaign=campaign, character=wren, by=player)
    CoinEntry.objects.create(character=wren, kind=CoinEntry.Kind.ADJUSTMENT,
                             amount_cp=10_000 - wren.coins_cp)
    return {"guide": guide, "player": player, "wren": wren, "campaign": campaign}


def click(page, name):
    with page.expect_navigation():
        page.get_by_role("button", name=name).click()


def test_a_downtime_turn_from_the_first_step_to_lifestyle(page, browser, live_server,
                                                          password, table, monkeypatch):
    # Event Die 3 (nothing to resolve), the action's 2D6 6 + 5, the consumption's D8 8,
    # the Faction turn's D6 5.
    monkeypatch.setattr(downtime, "_SYSTEM_RANDOM", Dealt(3, 6, 5, 8, 5))
    campaign, wren = table["campaign"], table["wren"]
    url = f"/campaigns/{campaign.pk}/company/downtime/"
    xp_before = services.progress(wren)[1]
    amount = 8 * CONSUMPTION_DICE["town"][1]
    renown_after = renown_for_xp(xp_before + amount)
    assert renown_after > renown_for_xp(xp_before)

    player_context = browser.new_context(viewport=DESKTOP, base_url=live_server.url,
                                         reduced_motion="reduce")
    player_page = player_context.new_page()
    login(player_page, live_server, table["player"], password)
    player_page.goto(url)
    expect(player_page.locator("#downtime-log-empty")).to_be_visible()
    expect(player_page.get_by_role("button", name="Begin a Downtime Turn")).to_have_count(0)
    player_page.evaluate("window.__notReloaded = true")

    login(page, live_server, table["guide"], password)
    page.goto(f"/campaigns/{campaign.pk}/company/")
    expect(page.get_by_role("link", name="Downtime", exact=True)).to_have_attribute("href", url)
    page.goto(url)
    page.get_by_label("Settlement").select_option("town")
    page.get_by_label("The last Downtime Turn of this run").check()
    click(page, "Begin a Downtime Turn")
    expect(page.locator('[data-step="recover"]')).to_contain_text("(now)")
    click(page, "Restore and remove Supply")
    expect(page.locator("#event-odds [data-face='2']")).to_contain_text("1/6")
    # Two negative dice: the odds change before anything is rolled (E39: P(1) = 91/216).
    page.get_by_label("Negative dice").fill("2")
    expect(page.locator("#event-odds [data-face='1']")).to_contain_text("91/216",
                                                                        timeout=SLOW)
    page.get_by_label("Negative dice").fill("0")
    expect(page.locator("#event-odds [data-face='1']")).to_contain_text("1/6", timeout=SLOW)
    htmx_settled(page)
    click(page, "Roll the Event Die")
    expect(page.locator("[data-event-face]")).to_have_text("3")
    click(page, "Resolve")
    click(page, "Go on")  # no debt to double
    page.get_by_label("The rumour the Company hears").fill("The abbot's bell rings below")
    click(page, "Record the rumour")
    click(page, "Free actions done")

    expect(page.locator('#action-odds [data-modifier="0"]')).to_contain_text("1/6")
    page.locator("#action-character").select_option(str(wren.pk))
    page.get_by_label("Goal (tracker)").fill("Restore the chapel")
    page.get_by_label("Successes needed").select_option("3")
    click(page, "Roll the action")
    expect(page.locator('[data-tracker="Restore the chapel"]')).to_contain_text("1/3")
    click(page, "Actions done")

    expect(page.locator("#consumption-odds")).to_contain_text("1/8")
    page.locator("#consume-character").select_option(str(wren.pk))
    page.get_by_label("Kind").select_option("carousing")
    click(page, "Roll the Conspicuous Consumption")
    expect(page.locator("#downtime-log")).to_contain_text(f"+{amount:,} XP")
    screenshot(page, "errant-downtime-consumption")
    violations = axe_check(page)
    assert not violations, describe(violations)
    click(page, "Consumption done")
    expect(page.locator("#faction-odds")).to_contain_text("1/6")
    page.get_by_label("Faction").fill("The Drowned Monks")
    page.get_by_label("Assets").fill("3")
    # D6 + 3: 6+ on faces 3-6, one success 2/3 of the time.
    expect(page.locator("#faction-odds")).to_contain_text("2/3", timeout=SLOW)
    htmx_settled(page)
    click(page, "Roll the Faction turn")
    expect(page.locator("#downtime-log")).to_contain_text("D6 5 + 3 - 0 = 8: 1 success")
    click(page, "Faction turns done")
    click(page, "Advance the calendar")
    expect(page.locator("[data-months]")).to_have_text("1")
    coins = wren.coins_cp
    click(page, "Pay the lifestyle")
    expect(page.locator("#downtime-log")).to_contain_text(f"lifestyle {coins - coins // 2:,} p")
    expect(page.get_by_role("button", name="Begin a Downtime Turn")).to_be_visible()
    assert wren.coins_cp == coins // 2
    assert services.progress(wren)[1] == xp_before + amount

    # The player saw it all arrive without reloading.
    expect(player_page.locator("#downtime-log")).to_contain_text("Conspicuous Consumption",
                                                                 timeout=SLOW)
    expect(player_page.locator("#downtime-log")).to_contain_text("lifestyle", timeout=SLOW)
    assert player_page.evaluate("window.__notReloaded") is True
    htmx_settled(player_page)
    violations = axe_check(player_page)
    assert not violations, describe(violations)
    player_page.set_viewport_size(PHONE)
    player_page.reload()
    assert player_page.evaluate(
        "() => document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(player_page, "errant-downtime-phone")

    # The Company page: the new Renown and its pending Attribute raise.
    page.goto(f"/campaigns/{campaign.pk}/company/")
    row = page.locator(f'[data-member="{wren.pk}"]')
    expect(row.locator("[data-member-renown]")).to_have_text(str(renown_after))
    expect(row.locator("[data-raise-pending]")).to_be_visible()
    screenshot(page, "errant-downtime-company")
    player_context.close()
