"""A three-Round fight in the browser: Ana and Bo against a Mob of three goblins, with
a Wait and an interruption. At every step the Imp's tracker shows who holds
Initiative, and offers exactly the moves Volleyball Initiative allows (Scenes >
Staging > Initiative: the target with an Action goes next, else anyone with an Action;
a new Round when nobody has one, the last holder passing; a waiter interrupts with
the declared Action and decides at the next Round to keep waiting or rejoin). A
player's page follows by itself (htmx polls every 2 s), without reloading.

Screenshots go to artifacts/screenshots/initiative-*.png; axe finds no serious or
critical violation on the tracker or the live view.
"""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, axe_check, describe, login, screenshot
from tests.factories import DEFAULT_PASSWORD, CampaignFactory, CharacterFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def as_user(browser, live_server, user, viewport=None):
    context = browser.new_context(viewport=viewport or {"width": 1280, "height": 900},
                                  base_url=live_server.url, reduced_motion="reduce")
    page = context.new_page()
    login(page, live_server, user, DEFAULT_PASSWORD)
    return context, page


def banner(page):
    return page.locator("#next [data-banner]")


def shown(page, prefix: str) -> list[str]:
    """The names on the buttons starting with prefix ("Pass to: ", "Target: ")."""
    texts = page.locator("#next button").all_inner_texts()
    return sorted(t.removeprefix(prefix).strip() for t in texts if t.startswith(prefix))


def check(page, text: str, *, passes=None, targets=None, with_action=None):
    expect(banner(page)).to_have_text(text)
    if passes is not None:
        assert shown(page, "Pass to: ") == sorted(passes), text
    if targets is not None:
        assert shown(page, "Target: ") == sorted(targets), text
    if with_action is not None:
        cells = page.locator("[data-action-state]")
        names = page.locator("tbody tr").evaluate_all(
            "rows => rows.map(r => r.dataset.combatant)")
        states = cells.all_inner_texts()
        having = sorted(n for n, s in zip(names, states, strict=True)
                        if s.startswith("Has an Action"))
        assert having == sorted(with_action), (text, dict(zip(names, states, strict=True)))


def click(page, name: str):
    with page.expect_navigation():
        page.get_by_role("button", name=name, exact=True).click()


def damage(page, who: str, amount: int, shot: str = ""):
    row = page.locator(f'[data-edit="{who}"]')
    row.locator("summary").click()
    row.get_by_label(f"Amount for {who}").fill(str(amount))
    if shot:
        screenshot(page, shot)
    with page.expect_navigation():
        row.get_by_role("button", name=f"Apply to {who}").click()


def test_three_rounds_two_characters_against_a_mob(browser, live_server):
    imp = UserFactory(username="the-imp")
    campaign = CampaignFactory(owner=imp, name="The Ford")
    ana = CharacterFactory(name="Ana", campaign=campaign)
    bo = CharacterFactory(name="Bo", campaign=campaign)
    from campaigns.models import Membership

    for character in (ana, bo):
        Membership.objects.create(campaign=campaign, user=character.owner)

    imp_context, page = as_user(browser, live_server, imp)
    page.goto(campaign.get_absolute_url())
    with page.expect_navigation():
        page.get_by_role("link", name="Initiative", exact=True).click()
    page.get_by_label("Name of the fight").fill("Ambush at the ford")
    click(page, "Create the tracker")
    click(page, "Add the campaign's characters (2)")
    # A Mob of one is refused next to the field, and what was typed stays.
    page.get_by_label("Name", exact=True).fill("Goblins")
    page.get_by_label("Maximum HP").fill("6")
    page.get_by_label("A Mob (one HP pool)").check()
    page.get_by_label("Members").fill("1")
    click(page, "Add to the fight")
    expect(page.locator("#add-foe")).to_contain_text("A Mob has at least 2 members.")
    expect(page.get_by_label("Name", exact=True)).to_have_value("Goblins")
    screenshot(page, "initiative-setup-error")
    violations = axe_check(page)
    assert not violations, describe(violations)
    page.get_by_label("Name", exact=True).fill("Goblins")
    page.get_by_label("Maximum HP").fill("6")
    page.get_by_label("AF", exact=True).fill("10")
    page.get_by_label("A Mob (one HP pool)").check()
    page.get_by_label("Members").fill("3")
    click(page, "Add to the fight")
    expect(page.locator('tr[data-combatant="Goblins"] [data-stat="hp"]')).to_have_text(
        "6/6 · 3 members")
    fight_url = page.url.split("#")[0]

    # A player watches.
    player_context, player = as_user(browser, live_server, bo.owner)
    player.goto(fight_url)
    live = player.locator("#live [data-banner]")
    expect(live).to_have_text("Setting up: add the combatants, then trigger Initiative.")
    player.evaluate("window.notReloaded = true")

    # Ana proposes the first hostile Action: she holds and triggers Initiative.
    page.get_by_label("Ana", exact=True).check()
    click(page, "Trigger Initiative")
    check(page, "Round 1: Ana holds Initiative and acts.", targets=["Bo", "Goblins"],
          with_action=["Ana", "Bo", "Goblins"])
    expect(live).to_have_text("Round 1: Ana holds Initiative and acts.")  # no reload
    assert player.evaluate("window.notReloaded") is True
    screenshot(page, "initiative-tracker")
    violations = axe_check(page)
    assert not violations, describe(violations)

    # Round 1. Ana attacks the Mob: the Mob still has an Action, it must go next.
    page.get_by_label("Action (optional)").first.fill("melee Attack")
    page.get_by_label("Action (optional)").first.press("Enter")  # does not act on anyone
    page.wait_for_timeout(300)
    check(page, "Round 1: Ana holds Initiative and acts.")
    click(page, "Target: Goblins")
    check(page, "Round 1: Ana passes Initiative.", passes=["Goblins"],
          with_action=["Bo", "Goblins"])
    damage(page, "Goblins", 2, "initiative-edit")  # not a Felling blow: the pool drops
    expect(page.locator('tr[data-combatant="Goblins"] [data-stat="hp"]')).to_have_text(
        "4/6 · 3 members")
    check(page, "Round 1: Ana passes Initiative.", passes=["Goblins"])
    click(page, "Pass to: Goblins")
    check(page, "Round 1: Goblins holds Initiative and acts.", targets=["Ana", "Bo"])
    click(page, "Target: Bo")
    check(page, "Round 1: Goblins passes Initiative.", passes=["Bo"], with_action=["Bo"])
    click(page, "Pass to: Bo")
    check(page, "Round 1: Bo holds Initiative and acts.", targets=["Ana", "Goblins"])

    # Bo Waits with a ranged Attack: nobody has an Action left, Round 2 begins, and Bo
    # first decides to keep waiting or rejoin.
    page.get_by_label("Wait with which Action?").fill("ranged Attack")
    click(page, "Wait")
    check(page, "Round 2: Bo passes Initiative.", passes=[])
    expect(page.locator("#next")).to_contain_text("New Round: a waiter decides first.")
    expect(player.locator("#live [data-waiter]")).to_have_text(
        "Bo waits with ranged Attack.")
    click(page, "Keep waiting (Bo)")
    check(page, "Round 2: Bo passes Initiative.", passes=["Ana", "Goblins"],
          with_action=["Ana", "Goblins"])
    click(page, "Pass to: Goblins")
    check(page, "Round 2: Goblins holds Initiative and acts.", targets=["Ana", "Bo"])

    # Bo interrupts the Mob's turn with the waited ranged Attack, a Felling blow: one
    # goblin falls instead of damage. Initiative stays with the Mob.
    page.locator("section[aria-labelledby=waiters-heading]").get_by_label(
        "Goblins", exact=True).check()
    click(page, "Interrupt: Bo (ranged Attack)")
    check(page, "Round 2: Goblins holds Initiative and acts.", targets=["Ana", "Bo"],
          with_action=["Ana", "Goblins"])
    damage(page, "Goblins", 6)
    expect(page.locator('tr[data-combatant="Goblins"] [data-stat="hp"]')).to_have_text(
        "4/6 · 2 members")
    expect(player.locator("#live")).to_contain_text("Bo interrupts with ranged Attack")
    screenshot(page, "initiative-interrupt")
    click(page, "Target: Ana")
    check(page, "Round 2: Goblins passes Initiative.", passes=["Ana"])
    click(page, "Pass to: Ana")
    click(page, "Target: Goblins")

    # Everyone has spent their Action: Round 3. Ana targeted the Mob, so she passes on
    # (not to herself), and the Mob is not bound to go next any more.
    check(page, "Round 3: Ana passes Initiative.", passes=["Bo", "Goblins"],
          with_action=["Ana", "Bo", "Goblins"])
    expect(live).to_have_text("Round 3: Ana passes Initiative.")
    assert player.evaluate("window.notReloaded") is True
    screenshot(player, "initiative-player")
    page.set_viewport_size(PHONE)
    screenshot(page, "initiative-tracker-phone")
    page.set_viewport_size({"width": 1280, "height": 900})
    violations = axe_check(player)
    assert not violations, describe(violations)

    click(page, "Pass to: Bo")
    check(page, "Round 3: Bo holds Initiative and acts.", targets=["Ana", "Goblins"])
    click(page, "Target: Goblins")
    check(page, "Round 3: Bo passes Initiative.", passes=["Goblins"])
    click(page, "Pass to: Goblins")
    click(page, "No target")
    # The Mob targeted nobody: it hands Initiative to anyone with an Action, Ana.
    check(page, "Round 3: Goblins passes Initiative.", passes=["Ana"], with_action=["Ana"])
    click(page, "Pass to: Ana")
    check(page, "Round 3: Ana holds Initiative and acts.", targets=["Bo", "Goblins"])
    damage(page, "Ana", 5)
    click(page, "No target")
    # Round 4: Ana acted on nobody, so she may even pass to herself.
    check(page, "Round 4: Ana passes Initiative.", passes=["Ana", "Bo", "Goblins"])

    # The conflict is over: HP refills.
    page.get_by_text("End Initiative…").click()
    click(page, "End Initiative now")
    check(page, "Initiative has ended after Round 4.")
    expect(page.locator('tr[data-combatant="Ana"] [data-stat="hp"]')).to_have_text(
        re.compile(r"^(\d+)/\1$"))
    expect(live).to_have_text("Initiative has ended after Round 4.")
    screenshot(page, "initiative-ended")

    player.set_viewport_size(PHONE)
    screenshot(player, "initiative-player-phone")
    imp_context.close()
    player_context.close()
