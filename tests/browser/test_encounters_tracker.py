"""The encounter tracker (seed 004) in the browser: the Guide runs three rounds of a
four-combatant fight (Sable and Bram against a ghoul and a cultist) with a haste, a run
before an attack, a defence out of turn of the other kind (aborting the cultist's curse),
a wait stepping in between two of the ghoul's movement actions, a hold-over into round 3
and the Recovery step; Sable's player's page follows by itself (htmx conditional polls).
Screenshots: artifacts/screenshots/encounters-tracker-*.
"""

import pytest
from playwright.sync_api import expect

from campaigns.systems.encounters import tracker
from characters.models import Character
from characters.systems.encounters import services as character_services
from characters.systems.encounters.apps import KEY
from characters.systems.encounters.demo import BRAM, SABLE
from tests.browser.conftest import axe_check, describe, htmx_settled, login, screenshot
from tests.browser.test_csp import RECORD_VIOLATIONS
from tests.factories import DEFAULT_PASSWORD, CampaignFactory, MembershipFactory

pytestmark = pytest.mark.django_db(transaction=True)
# The players' page polls every 2 s; on a busy machine give it a few polls.
POLL = 15_000


def as_user(browser, live_server, user):
    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  base_url=live_server.url, reduced_motion="reduce")
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    login(page, live_server, user, DEFAULT_PASSWORD)
    return context, page


def no_violations(page):
    assert page.evaluate("() => window.__cspViolations") == []
    assert [e for e in page.errors if "Content Security Policy" in e] == []


def click(page, button):
    with page.expect_navigation():
        button.click()


def row(page, key):
    return page.locator(f"#fighter-{key}")


def initiative(page, key, name, mode, roll=""):
    r = row(page, key)
    r.get_by_label(f"Mode of {name}").select_option(mode)
    r.get_by_label(f"Initiative roll of {name}").fill(roll)
    click(page, r.get_by_role("button", name="Enter", exact=True))


def declare(page, key, name, text):
    r = row(page, key)
    r.get_by_label(f"Actions of {name}, one a line").fill(text)
    click(page, r.get_by_role("button", name="Declare"))


def take(page, key, button="Take"):
    line = page.locator(f'#queue li.fw-bold[data-queue="{key}"]').first
    click(page, line.get_by_role("button", name=button, exact=True))


def step(page, name):
    click(page, page.get_by_role("button", name=name))


def test_the_guide_runs_three_rounds_and_the_player_follows(browser, live_server):
    campaign = CampaignFactory(system=KEY)
    players = {}
    for build in (SABLE, BRAM):
        player = MembershipFactory(campaign=campaign).user
        character = character_services.character_create(owner=player, data=build)
        Character.objects.filter(pk=character.pk).update(campaign=campaign)
        players[build["name"]] = (player, tracker.character_key(character.pk))
    sable, bram = players["Sable"][1], players["Bram"][1]
    guide_context, page = as_user(browser, live_server, campaign.owner)
    page.goto(f"/campaigns/{campaign.pk}/encounters/")
    page.get_by_label("Name").fill("Ossuary")
    click(page, page.get_by_role("button", name="Create the encounter"))
    tracker_url = page.url.split("#")[0]
    for name, quickness, command in (("Ghoul", "3", "0"), ("Cultist", "1", "4")):
        form = page.locator("#foe-form")
        form.get_by_label("Name").fill(name)
        for label, value in (("Quickness", quickness), ("Command", command),
                             ("Strength", "2"), ("Willpower", "2"), ("Stamina", "5"),
                             ("Health", "6"), ("Sanity", "6"),
                             ("Load (percent of maximum lift)", "0")):
            form.get_by_label(label, exact=True).fill(value)
        click(page, form.get_by_role("button", name="Add the foe"))
    ghoul, cultist = "f4", "f5"
    click(page, page.get_by_role("button", name="Start the encounter"))
    expect(page.locator("[data-phase]").first).to_contain_text("Round 1")

    player_context, player_page = as_user(browser, live_server, players["Sable"][0])
    player_page.goto(tracker_url)
    expect(player_page.locator("#live")).to_contain_text("Round 1", timeout=POLL)

    # Round 1.
    initiative(page, sable, "Sable", "maneuver", "12")
    initiative(page, bram, "Bram", "concentrate", "9")
    initiative(page, ghoul, "Ghoul", "maneuver", "10")
    initiative(page, cultist, "Cultist", "concentrate", "7")
    declare(page, sable, "Sable", "haste\nmajor physical strike")
    declare(page, ghoul, "Ghoul", "run 15\nmajor physical bite")
    declare(page, bram, "Bram", "major mental ward")
    declare(page, cultist, "Cultist", "major mental curse")
    expect(row(page, sable).locator("[data-penalty]")).to_have_text("-2")
    # A refusal shows beside its field, the typed text kept.
    row(page, bram).get_by_label("Actions of Bram, one a line").fill(
        "run 15\nrun 15\nrun 15")
    click(page, row(page, bram).get_by_role("button", name="Declare"))
    expect(row(page, bram).locator('[data-error="items"]')).to_contain_text(
        "At most 4 movement actions")
    expect(row(page, bram).get_by_label("Actions of Bram, one a line")).to_have_value(
        "run 15\nrun 15\nrun 15")
    page.goto(tracker_url)
    step(page, "Begin the Action phase")
    expect(page.locator("#queue li").first).to_contain_text("Sable: strike at 14")
    screenshot(page, "encounters-tracker-round-1-queue")
    violations = axe_check(page)
    assert not violations, describe(violations)
    expect(player_page.locator("#live-queue li").first).to_contain_text(
        "Sable: strike at 14", timeout=POLL)
    take(page, sable)
    take(page, ghoul)
    take(page, bram, "Wait")
    expect(page.locator("#waiters")).to_contain_text("may step in before: Ghoul")
    click(page, page.locator(f'#waiters [data-waiter="{bram}"]').get_by_role(
        "button", name="Step in now"))
    take(page, bram)
    take(page, ghoul)
    r = row(page, cultist)
    r.get_by_label("Defence of Cultist").select_option("physical")
    click(page, r.get_by_role("button", name="Defend out of turn"))
    expect(row(page, cultist).locator("[data-standing]")).to_have_text("aborted")
    take(page, ghoul)
    step(page, "End the Action phase")
    step(page, "Recover and open the next round")

    # Round 2: Sable pushes, waits, holds over.
    for key, name, mode, roll in ((sable, "Sable", "maneuver", "11"),
                                  (bram, "Bram", "concentrate", "8"),
                                  (ghoul, "Ghoul", "maneuver", "9"),
                                  (cultist, "Cultist", "concentrate", "5")):
        initiative(page, key, name, mode, roll)
    for key, name in ((sable, "Sable"), (bram, "Bram"), (ghoul, "Ghoul"),
                      (cultist, "Cultist")):
        declare(page, key, name, "strike" if key in (sable, ghoul) else "ward")
    row(page, sable).get_by_label("Stamina hits Sable pushes").fill("1")
    click(page, row(page, sable).get_by_role("button", name="Push"))
    step(page, "Begin the Action phase")
    take(page, sable, "Wait")
    click(page, page.locator(f'#waiters [data-waiter="{sable}"]').get_by_role(
        "button", name="Hold into the next round"))
    for key in (ghoul, bram, cultist):
        take(page, key)
    step(page, "End the Action phase")
    expect(page.locator("#recovering")).to_contain_text("Sable")
    screenshot(page, "encounters-tracker-recovery")
    step(page, "Recover and open the next round")
    expect(row(page, sable).locator("[data-stamina]")).to_have_text("8/8")

    # Round 3: the held-over Sable needs no roll and goes first.
    initiative(page, sable, "Sable", "maneuver")
    for key, name, mode, roll in ((bram, "Bram", "concentrate", "15"),
                                  (ghoul, "Ghoul", "maneuver", "14"),
                                  (cultist, "Cultist", "concentrate", "3")):
        initiative(page, key, name, mode, roll)
    for key, name in ((sable, "Sable"), (bram, "Bram"), (ghoul, "Ghoul"),
                      (cultist, "Cultist")):
        declare(page, key, name, "strike" if key in (sable, ghoul) else "ward")
    step(page, "Begin the Action phase")
    expect(page.locator("#queue li").first).to_contain_text("Sable: strike at 0 (held over)")
    expect(player_page.locator("#live")).to_contain_text("Round 3", timeout=POLL)
    expect(player_page.locator("#live-queue li").first).to_contain_text("Sable: strike",
                                                                         timeout=POLL)
    expect(player_page.locator(f'[data-own="{sable}"]')).to_be_visible(timeout=POLL)
    assert player_page.locator(f'[data-own="{bram}"]').count() == 0
    screenshot(page, "encounters-tracker-round-3")
    screenshot(player_page, "encounters-tracker-player")
    click(page, page.get_by_role("button", name="Undo the last step"))
    expect(page.locator("[data-phase]").first).to_contain_text("Initiative phase")
    # A calculator answers in place, with its arithmetic.
    calc = page.locator('form:has(input[name="calc"][value="range"])')
    calc.get_by_label("Distance in yards").fill("25")
    calc.get_by_label("Increment", exact=True).select_option("missile")
    calc.get_by_role("button", name="Challenge").click()
    expect(page.locator("#calc-result")).to_contain_text("challenge 3 - 1 = 2")
    no_violations(page)
    no_violations(player_page)
    player_context.close()
    guide_context.close()


def test_the_builder_previews_as_you_type(browser, live_server):
    campaign = CampaignFactory(system=KEY, settings={"skill_roll": "1d10+skill"})
    player = MembershipFactory(campaign=campaign).user
    context, page = as_user(browser, live_server, player)
    page.goto(f"/characters/new/?campaign={campaign.pk}")
    page.get_by_label("Name").fill("Wisp")
    page.get_by_label("Quickness").fill("7")
    htmx_settled(page)
    expect(page.locator('#stats-panel [data-stat="initiative_maneuver"]')).to_have_text(
        "1d10+7")
    page.get_by_label("Load (percent of maximum lift)").fill("50")
    htmx_settled(page)
    expect(page.locator('#stats-panel [data-stat="pace"]')).to_have_text("5")
    page.get_by_label("Stamina").fill("0")
    htmx_settled(page)
    expect(page.locator("[data-cannot-compute]")).to_be_visible()
    expect(page.locator("#errors-stamina_max")).to_contain_text("Stamina is a whole number")
    expect(page.get_by_label("Name")).to_have_value("Wisp")
    page.get_by_label("Stamina").fill("9")
    htmx_settled(page)
    screenshot(page, "encounters-builder")
    click(page, page.get_by_role("button", name="Create character"))
    click(page, page.get_by_role("link", name="Wisp", exact=True))
    expect(page.locator('[data-stat="initiative_maneuver"]').first).to_have_text("1d10+7")
    no_violations(page)
    context.close()
