"""METTLE Core's Volleyball Initiative in the browser (issue #13): two PCs, Viktor and
Anya, against an NPC pool, with a Split Action, a Wait and a Defend interrupt. At every
step the Guide's tracker offers exactly the moves the rules allow (the Scenes chapter,
seed 001 > Initiative, Split Actions; Actions > Defend): in an argument the PCs have the
privilege; after each Split part the target goes next while the splitter keeps the
Action; a waiter with "Defend" interrupts right after an Attack on an ally and becomes
the target; damage goes through Soak (EN §Taking Damage). A player's page follows by
itself (htmx conditional polls). Screenshots: artifacts/screenshots/mettle-initiative-*.
"""

import pytest
from playwright.sync_api import expect

from campaigns import services
from campaigns.models import Membership
from characters.systems.mettle.apps import KEY
from tests.browser.conftest import axe_check, describe, login, screenshot
from tests.characters.systems.mettle.helpers import make_viktor
from tests.factories import DEFAULT_PASSWORD, CampaignFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def as_user(browser, live_server, user):
    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  base_url=live_server.url, reduced_motion="reduce")
    page = context.new_page()
    login(page, live_server, user, DEFAULT_PASSWORD)
    return context, page


def buttons(page, prefix: str) -> list[str]:
    texts = page.locator("#next button").all_inner_texts()
    return sorted(t.removeprefix(prefix).strip() for t in texts if t.startswith(prefix))


def with_action(page) -> list[str]:
    names = page.locator("tbody tr").evaluate_all("rows => rows.map(r => r.dataset.combatant)")
    states = page.locator("[data-action-state]").all_inner_texts()
    return sorted(n for n, s in zip(names, states, strict=True) if s.startswith("Has an Action"))


def check(page, text: str, *, passes=None, targets=None, parts=None, acting=None,
          defenses=None):
    expect(page.locator("#next [data-banner]")).to_have_text(text)
    if passes is not None:
        assert buttons(page, "Pass to: ") == sorted(passes), text
    if targets is not None:
        assert buttons(page, "Target: ") == sorted(targets), text
    if parts is not None:
        assert buttons(page, "Next part: ") == sorted(parts), text
    if acting is not None:
        assert with_action(page) == sorted(acting), text
    if defenses is not None:
        assert sorted(page.locator("#next [data-defend]").all_inner_texts()) == sorted(
            defenses), text


def click(page, name: str):
    with page.expect_navigation():
        page.get_by_role("button", name=name, exact=True).click()


def test_two_pcs_against_an_npc_pool_with_split_defend_and_wait(browser, live_server):
    guide = UserFactory(username="the-guide")
    campaign = CampaignFactory(owner=guide, name="Quay Street", system=KEY)
    players = []
    for name in ("Viktor", "Anya"):
        player = UserFactory()
        Membership.objects.create(campaign=campaign, user=player)
        character = make_viktor(player, name=name)  # Mettle 9, Soak 3 (FRAME 3)
        services.character_join(campaign=campaign, character=character, by=player)
        players.append(player)

    _, page = as_user(browser, live_server, guide)
    page.goto(campaign.get_absolute_url())
    with page.expect_navigation():
        page.get_by_role("link", name="Initiative", exact=True).click()
    page.get_by_label("Name of the fight").fill("Ambush on the quay")
    click(page, "Create the tracker")
    click(page, "Add the campaign's characters (2)")
    # An NPC pool of 0 dice is refused beside the field; what was typed stays.
    page.get_by_label("Name", exact=True).fill("Dock thugs")
    page.get_by_label("NPC pool (dice)").fill("0")
    click(page, "Add to the fight")
    expect(page.locator("#add-npc")).to_contain_text("greater than or equal to 1")
    expect(page.get_by_label("Name", exact=True)).to_have_value("Dock thugs")
    page.get_by_label("NPC pool (dice)").fill("4")
    page.get_by_label("Higher Attribute").select_option("frame")
    page.get_by_label("Its pool").fill("6")
    click(page, "Add to the fight")
    thugs_row = page.locator('tr[data-combatant="Dock thugs"]')
    expect(thugs_row.locator('[data-stat="mettle"]')).to_have_text("4/4")
    expect(thugs_row.locator('[data-stat="soak"]')).to_have_text("6")  # FRAME 6 soaks
    expect(thugs_row.locator("th")).to_contain_text("Dock thugs 4D (FRAME 6)")
    fight_url = page.url.split("#")[0]

    _, player = as_user(browser, live_server, players[1])  # Anya's player watches
    player.goto(fight_url)
    live = player.locator("#live [data-banner]")
    expect(live).to_have_text("Setting up: add the combatants, then trigger Initiative.")
    expect(player.locator("#live")).not_to_contain_text("FRAME 6")
    player.evaluate("window.notReloaded = true")

    # All three claim the first Action: the PCs have the privilege, and the two PCs
    # choose between themselves.
    for name in ("Viktor", "Anya", "Dock thugs"):
        page.get_by_label(name, exact=True).check()
    click(page, "Trigger Initiative")
    expect(page.locator("#claimants-error")).to_have_text(
        "Anya and Viktor both claim the first Action: choose who.")
    page.get_by_role("radio", name="Viktor").check()
    click(page, "Trigger Initiative")
    check(page, "Round 1: Viktor holds Initiative and acts.", targets=["Anya", "Dock thugs"],
          acting=["Anya", "Dock thugs", "Viktor"])
    expect(live).to_have_text("Round 1: Viktor holds Initiative and acts.")

    # Viktor splits 5D into two Actions, 3D and 2D; the first at the thugs. He keeps his
    # Action, and the thugs, his target, must go next.
    page.locator("#split summary").click()
    page.get_by_label("Pool (dice)", exact=True).fill("5")
    page.get_by_label("Actions", exact=True).fill("2")
    page.locator("#split").get_by_label("Dock thugs", exact=True).check()
    page.get_by_label("Action (optional)").nth(1).fill("Attack")
    click(page, "Split and take the first part")
    check(page, "Round 1: Viktor passes Initiative.", passes=["Dock thugs"],
          acting=["Anya", "Dock thugs", "Viktor"])
    expect(page.locator('tr[data-combatant="Viktor"] [data-parts-left]')).to_have_text(
        "(Split: 2D left)")
    expect(page.locator(".initiative-log")).to_contain_text(
        "Viktor splits 5D into 2 Actions (3D, 2D); part 1, 3D (Attack) targeting Dock thugs.")
    screenshot(page, "mettle-initiative-split")
    click(page, "Pass to: Dock thugs")
    # The thugs Attack Viktor: he still holds his Action (a part left), so he goes next.
    check(page, "Round 1: Dock thugs holds Initiative and acts.", targets=["Anya", "Viktor"])
    click(page, "Target: Viktor")
    check(page, "Round 1: Dock thugs passes Initiative.", passes=["Viktor"],
          acting=["Anya", "Viktor"])
    click(page, "Pass to: Viktor")
    # His next part: the thugs have no Action left, so the part's target does not bind.
    check(page, "Round 1: Viktor holds Initiative and acts.",
          parts=["Anya", "Dock thugs", "no target"])
    expect(page.locator("[data-split-parts]")).to_contain_text("2D left")
    click(page, "Next part: Dock thugs")
    check(page, "Round 1: Viktor passes Initiative.", passes=["Anya"], acting=["Anya"])
    click(page, "Pass to: Anya")

    # Anya Waits with Defend: nobody has an Action left, Round 2; she keeps waiting.
    check(page, "Round 1: Anya holds Initiative and acts.")
    page.get_by_label("Wait with which Action?").fill("Defend")
    click(page, "Wait")
    check(page, "Round 2: Anya passes Initiative.", passes=[])
    expect(player.locator("#live [data-waiter]")).to_have_text("Anya waits with Defend.")
    click(page, "Keep waiting (Anya)")
    check(page, "Round 2: Anya passes Initiative.", passes=["Dock thugs", "Viktor"],
          acting=["Dock thugs", "Viktor"])
    click(page, "Pass to: Dock thugs")
    click(page, "Target: Viktor")
    # Right after the Attack: Viktor may Defend with his Action, or Anya interrupts
    # with her waited Defend, stepping in as the target.
    check(page, "Round 2: Dock thugs passes Initiative.", passes=["Viktor"],
          defenses=["Defend Viktor: Anya steps in", "Defend: Viktor"])
    screenshot(page, "mettle-initiative-defend")
    click(page, "Defend Viktor: Anya steps in")
    expect(page.locator(".initiative-log")).to_contain_text(
        "Anya Defends Viktor, taking their place as the target.")
    # Viktor is no longer the target: he is free, and the only one with an Action.
    check(page, "Round 2: Dock thugs passes Initiative.", passes=["Viktor"],
          acting=["Viktor"])
    assert page.locator("[data-waiter]").count() == 0
    # The hit lands on Anya: 7 damage against Soak 3 + 2 (a successful Defend): 2.
    row = page.locator('[data-edit="Anya"]')
    row.locator("summary").click()
    row.get_by_label("Damage (DM + Edge) to Anya").fill("7")
    row.get_by_label("Defend's Soak bonus for Anya").fill("2")
    click(page, "Hit Anya")
    expect(page.locator('tr[data-combatant="Anya"] [data-stat="mettle"]')).to_have_text("7/9")
    click(page, "Pass to: Viktor")
    # Viktor's Free Move, then his Action: a Felling blow on the thugs (12 - 6 = 6).
    page.get_by_label("Move into Zone").fill("Quay")
    click(page, "Move (Free Move unless hindered)")
    check(page, "Round 2: Viktor holds Initiative and acts.", targets=["Anya", "Dock thugs"],
          acting=["Viktor"])
    expect(page.locator('tr[data-combatant="Viktor"] [data-zone]')).to_have_text("Quay")
    click(page, "Target: Dock thugs")
    row = page.locator('[data-edit="Dock thugs"]')
    row.locator("summary").click()
    row.get_by_label("Damage (DM + Edge) to Dock thugs").fill("12")
    click(page, "Hit Dock thugs")
    expect(thugs_row.locator('[data-stat="mettle"]')).to_have_text("-2/4")
    expect(thugs_row.locator("[data-action-state]")).to_have_text("Fallen: no Action")
    expect(player.locator('#live tr[data-combatant="Dock thugs"] [data-stat="mettle"]')
           ).to_have_text("Fallen")
    assert player.evaluate("window.notReloaded") is True
    screenshot(player, "mettle-initiative-player")
    violations = axe_check(player)
    assert not violations, describe(violations)
    # Undo takes the blow back.
    click(page, "Undo the last step")
    expect(thugs_row.locator('[data-stat="mettle"]')).to_have_text("4/4")
    screenshot(page, "mettle-initiative-tracker")
    violations = axe_check(page)
    assert not violations, describe(violations)
