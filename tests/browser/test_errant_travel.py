"""A day of Travel in a real browser (issue 15): the Guide runs six Travel Turns from the
Turn log page (a lost navigation Check, a Deplete eating the rations, a local effect that
changes the weather, a Deplete on Supply, making camp by night with a watch, a watch
alone, a night's Rest with no watch where a 5 counts as 1), with the Event Die's exact
odds shown and following the form before each roll; a player's page follows the log live
and never shows the navigation DV. The dice are scripted in the live server's process
(travel._rng)."""

import re

import pytest
from playwright.sync_api import expect

from campaigns import services
from campaigns.systems.errant import travel
from characters.systems.errant.builds import sheet_for
from characters.systems.errant.models import ErrantCharacter
from tests.browser.conftest import DESKTOP, PHONE, axe_check, describe, follow, login, screenshot
from tests.campaigns.systems.errant.test_travel_turns import Dice
from tests.characters.systems.errant.helpers import make_wren
from tests.factories import CampaignFactory, MembershipFactory

pytestmark = pytest.mark.django_db(transaction=True)
SLOW = 10_000


def test_a_day_of_travel(page, browser, live_server, password, monkeypatch):
    campaign = CampaignFactory(system="errant", name="The Drowned Abbey")
    guide = campaign.owner
    player = MembershipFactory(campaign=campaign).user
    other = MembershipFactory(campaign=campaign).user
    wren, ash = make_wren(player), make_wren(other, name="Ash", ancestry="cunning")
    services.character_join(campaign=campaign, character=wren, by=player)
    services.character_join(campaign=campaign, character=ash, by=other)
    wren = ErrantCharacter.objects.get(pk=wren.pk)
    services.session_start(campaign=campaign, by=guide)
    skill = sheet_for(wren).stats["skill"].value
    assert skill >= 12  # the scripted d20s below succeed up to 12
    # One Event Die each Turn: nobody is over Encumbrance 4 (PR §Event Die).
    assert travel.preview(campaign, travel.TravelPlan()).dice.count == 1
    # d20 20 (lost), d6 2 (NE), Event 3 | d20 10, Event 4, 2d6 5+6 | d20 10, Event 3 |
    # d20 12 (camp), Event 6 | Event 5 (watch kept) | Event 5 (no watch: counts as 1).
    dice = Dice(20, 2, 3, 10, 4, 5, 6, 10, 3, 12, 6, 5, 5)
    monkeypatch.setattr(travel, "_rng", lambda: dice)

    # The player opens the log first, on a phone; it follows by itself.
    player_context = browser.new_context(viewport=PHONE, base_url=live_server.url,
                                         reduced_motion="reduce")
    player_page = player_context.new_page()
    login(player_page, live_server, player, password)
    player_page.goto(f"/campaigns/{campaign.pk}/company/turns/")
    expect(player_page.locator("#log-empty")).to_be_visible()
    player_page.evaluate("window.__notReloaded = true")

    login(page, live_server, guide, password)
    page.goto(f"/campaigns/{campaign.pk}/company/")
    follow(page.get_by_role("link", name="The Turn log").first)
    expect(page.get_by_role("heading", name="Run a Travel Turn")).to_be_visible()
    tf = page.locator("#travel-form")
    odds = page.locator("#travel-odds")
    expect(odds.locator("[data-odds-result=encounter] [data-fraction]")).to_have_text("(1/6)")
    # The odds follow the form before rolling: two negative dice, P(Encounter) = 91/216.
    tf.get_by_label("Guide's negative dice").fill("2")
    expect(odds.locator("[data-odds-result=encounter]")).to_contain_text("42.13% (91/216)",
                                                                         timeout=SLOW)
    expect(odds.locator("[data-odds-count]")).to_have_text("3")
    tf.get_by_label("Guide's negative dice").fill("0")
    expect(odds.locator("[data-odds-count]")).to_have_text("1", timeout=SLOW)
    assert_accessible(page)

    def travel_turn(action, **choose):
        tf.get_by_label("The Company's action").select_option(action)
        tf.get_by_label("Terrain").select_option("rough")
        tf.get_by_label("Secret base DV").fill("4")
        tf.get_by_label("Pathfinder").select_option(str(wren.pk))
        for who in choose.get("watch", ()):
            page.locator(f"input[name=watchers][value='{who.pk}']").check()
        for who in choose.get("sleep", ()):
            page.locator(f"input[name=sleepers][value='{who.pk}']").check()
        if "fives" in choose:
            expect(odds).to_contain_text("a 5 counts as 1", timeout=SLOW)
            expect(odds.locator("[data-odds-result=encounter] [data-fraction]")).to_have_text(
                "(1/3)")
        with page.expect_navigation():
            page.locator("[data-travel-submit]").click()

    def entry(number):
        return page.locator(f"#turn-log [data-turn='{number}']")

    # Turn 1: lost (d20 20 against DV 4 + 2 for rough land), the d6 says NE; Deplete.
    expect(odds.locator("[data-p-lost]")).to_be_visible()
    travel_turn("peregrinate")
    first = entry(1)
    expect(first).to_contain_text("day 1, Turn 1 of 6")
    expect(first.locator("[data-turn-secret]")).to_contain_text("navigation DV 6")
    expect(first.locator("[data-lost]")).to_contain_text("they move NE (d6 2)")
    expect(first.locator("[data-event-faces]")).to_have_text("3")
    expect(first.locator("[data-event-result]")).to_have_attribute("data-event-result",
                                                                   "deplete")
    expect(first).to_contain_text("Wren eats: Rations Depletion 1 to 0")
    expect(first).to_contain_text("Ash eats: Rations Depletion 1 to 0")
    # The player sees the Turn arrive, without the DV or the direction.
    player_entry = player_page.locator("#turn-log [data-turn='1']")
    expect(player_entry).to_be_visible(timeout=SLOW)
    expect(player_entry).to_contain_text("the Guide keeps its result")
    expect(player_entry).not_to_contain_text("DV")
    expect(player_entry).not_to_contain_text("NE")

    # Turn 2: on course; local effect, the weather changes: 2d6 5 + 6 = 11, Clear skies.
    travel_turn("peregrinate")
    second = entry(2)
    expect(second.locator("[data-weather-dice]")).to_have_text("5 + 6")
    expect(second.locator("[data-turn-weather]")).to_have_text("Clear skies")
    expect(page.locator("[data-weather]")).to_contain_text("+2 to the next weather roll")

    # Turn 3: Deplete again: no rations left, 1 Supply each; the weather back to normal.
    travel_turn("peregrinate")
    third = entry(3)
    expect(third).to_contain_text("Wren: no ration, Supply 4 to 3")
    expect(third).to_contain_text("Ash: no ration, Supply 4 to 3")
    expect(third.locator("[data-turn-weather]")).to_have_text("Cloudy")

    # Turn 4, night: camp found (DV 4 + 2 + 4 for the night = 10, d20 12); Ash watches
    # alone while Wren sleeps: 1 Exhaustion.
    expect(odds.locator("[data-next-turn]")).to_contain_text("night")
    travel_turn("make_camp", watch=[ash], sleep=[wren])
    fourth = entry(4)
    expect(fourth.locator("[data-turn-secret]")).to_contain_text("navigation DV 10")
    expect(fourth).to_contain_text("Ash keeps watch alone: +1 Exhaustion")
    # Turn 5: Wren watches, Ash sleeps; a 5 with a watch is an encounter sign.
    travel_turn("take_watch", watch=[wren], sleep=[ash])
    fifth = entry(5)
    expect(fifth.locator("[data-event-result]")).to_have_attribute("data-event-result",
                                                                   "encounter_sign")
    expect(fifth).to_contain_text("Wren keeps watch alone: +1 Exhaustion")
    # Turn 6: both sleep, no watch: the 5 counts as 1, an Encounter; both have slept two
    # Turns: a night's Rest, -1 Exhaustion each.
    travel_turn("sleep", sleep=[wren, ash], fives=True)
    sixth = entry(6)
    expect(sixth.locator("[data-event-faces]")).to_have_text("5")
    expect(sixth.locator("[data-event-face]")).to_have_text("1")
    expect(sixth.locator("[data-event-result]")).to_have_attribute("data-event-result",
                                                                   "encounter")
    expect(sixth).to_contain_text("Wren: a night's Rest, -1 Exhaustion")
    expect(sixth).to_contain_text("Ash: a night's Rest, -1 Exhaustion")
    assert [ErrantCharacter.objects.get(pk=e.pk).exhaustion for e in (wren, ash)] == [0, 0]
    assert not dice.faces  # every scripted die was rolled, in order
    expect(odds.locator("[data-next-turn]")).to_contain_text("day 2, Travel Turn 1 of 6")
    screenshot(page, "errant-travel-guide")
    assert_accessible(page)

    # The player's page followed all six without a reload, and never shows a DV.
    expect(player_page.locator("#turn-log [data-turn]")).to_have_count(6, timeout=SLOW)
    expect(player_page.locator("#turn-log [data-turn='6']")).to_contain_text(
        "Wren: a night's Rest")
    assert player_page.evaluate("window.__notReloaded") is True
    log_text = player_page.locator("#turn-log").inner_text()
    assert not re.search(r"\bDV\b", log_text) and "data-turn-secret" not in \
        player_page.content()
    assert player_page.evaluate(
        "() => document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(player_page, "errant-travel-player-phone")
    assert_accessible(player_page)

    # Undo the newest Turn: the night's Rest is taken back.
    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_navigation():
        page.locator("[data-turn-undo]").click()
    expect(entry(6)).to_have_attribute("data-undone", "")
    assert [ErrantCharacter.objects.get(pk=e.pk).exhaustion for e in (wren, ash)] == [1, 1]
    # The Guide's page on a phone: nothing scrolls sideways.
    page.set_viewport_size(PHONE)
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, "errant-travel-guide-phone")
    page.set_viewport_size(DESKTOP)
    player_context.close()


def assert_accessible(page):
    violations = axe_check(page)
    assert not violations, describe(violations)
