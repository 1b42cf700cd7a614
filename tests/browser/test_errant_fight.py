"""An Errant fight in a real browser (issue 15, "Initiative Turns"): the Guide starts a
fight (2 Errants), adds 2 NPCs, makes the odd-or-even call (both d6 shown and the winner
named), one Errant acts quickly and one slowly, an Attack Roll with its damage, the four
phases in order, and the Turn's end with an expiring effect; a player's live view follows
without the NPCs' numbers; axe finds nothing serious; a phone screenshot.

The dice are the test's: `fight.make_rng` is replaced (the live server runs in this
process), so every roll is known."""

import random
import re

import pytest
from playwright.sync_api import expect

from campaigns import services
from campaigns.systems.errant import fight
from characters.systems.errant.builds import sheet_for
from characters.systems.errant.models import ErrantCharacter
from tests.browser.conftest import PHONE, axe_check, describe, follow, login, screenshot
from tests.characters.systems.errant.helpers import make_wren
from tests.factories import CampaignFactory, MembershipFactory

pytestmark = pytest.mark.django_db(transaction=True)


class Scripted(random.Random):
    """The faces listed, in order, each kept within the die rolled."""

    def __init__(self, faces):
        super().__init__()
        self.faces = faces

    def randint(self, a, b):
        return max(a, min(b, self.faces.pop(0)))


def test_an_initiative_turn_with_the_call_quick_and_slow_and_the_live_view(
        page, live_server, password, monkeypatch, browser):
    # distance 4, surprise 3; the call's dice 2 + 3; Ash's Attack Roll 6; the hag's 3.
    faces = [4, 3, 2, 3, 6, 3]
    monkeypatch.setattr(fight, "make_rng", lambda: Scripted(faces))
    campaign = CampaignFactory(system="errant", name="The Drowned Abbey")
    guide = campaign.owner
    player = MembershipFactory(campaign=campaign).user
    other = MembershipFactory(campaign=campaign).user
    wren = make_wren(player)
    ash = make_wren(other, name="Ash", ancestry="cunning")
    for errant, owner in ((wren, player), (ash, other)):
        services.character_join(campaign=campaign, character=errant, by=owner)
    wren_hp = sheet_for(ErrantCharacter.objects.get(pk=wren.pk)).stats["hp_max"].value
    ash_die = fight.errant_payload(ErrantCharacter.objects.get(pk=ash.pk))["damage_sides"]

    login(page, live_server, guide, password)
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/")
    follow(page.get_by_role("link", name="Fight (Initiative Turns)"))
    page.get_by_label("Name").fill("At the weir")
    page.locator("[data-fight-start]").click()
    expect(page.locator("[data-distance]")).to_have_text("40")
    expect(page.locator("[data-surprise]")).to_have_text("nobody is surprised")

    for name, hp, threat, morale in (("Goblin", "4", "1", "7"), ("Bog hag", "17", "3", "9")):
        form = page.locator("#npc")
        form.get_by_label("Name").fill(name)
        form.get_by_label("Threat").fill(threat)
        form.get_by_label("HP").fill(hp)
        form.get_by_label("Morale").fill(morale)
        form.locator("[data-add-npc]").click()
        expect(page.locator("[data-fighter]", has_text=name)).to_be_visible()
    expect(page.locator("[data-morale='n5']")).to_contain_text("1/6")  # ML 9: 6/36

    # The odd-or-even call: Wren calls odd; 2 + 3 = 5: the Company wins.
    page.get_by_label("Who calls").select_option("Wren")
    page.get_by_label("Odd").check()
    expect(page.locator("#turn")).to_contain_text("1/2 (50%)")
    page.locator("[data-roll-order]").click()
    expect(page.locator("[data-errant-die]")).to_have_text("2")
    expect(page.locator("[data-guide-die]")).to_have_text("3")
    expect(page.locator("[data-winner]")).to_have_text("the Company wins")
    expect(page.locator("[data-phase='1']")).to_have_attribute("aria-current", "step")

    page.get_by_label("Effect", exact=True).fill("Dust in the eyes")
    page.locator("[data-add-effect]").click()
    expect(page.locator("[data-effects]")).to_contain_text("Dust in the eyes: 1 Turn")

    # Paces: Ash quick, Wren slow, the goblin quick, the hag slow.
    page.locator(f"[data-quick='e{ash.pk}']").click()
    page.locator(f"[data-slow='e{wren.pk}']").click()
    page.locator("[data-quick='n4']").click()
    page.locator("[data-slow='n5']").click()
    expect(page.locator(f"[data-fighter='e{wren.pk}'] [data-pace]")).to_have_text("slow")

    # Phase 1, the Company quick: Ash's Attack Roll kills the goblin.
    expect(page.locator("[data-acting]")).to_contain_text("Ash")
    page.get_by_label("Attacker").select_option(f"e{ash.pk}")
    page.get_by_label("Target", exact=True).select_option("n4")
    page.locator("[data-attack]").click()
    damage = min(6, ash_die)
    expect(page.locator("[data-step='attack']").first).to_contain_text(
        f"rolled {damage} = {damage} damage")
    # A slow Errant out of phase is refused with the engine's reason.
    page.locator("#act").get_by_label("Who", exact=True).select_option(f"e{wren.pk}")
    page.get_by_label("Action", exact=True).select_option("move")
    page.locator("[data-act]").click()
    expect(page.locator("[data-fight-error='act']")).to_contain_text("It is not Wren's phase")

    for n in (2, 3):
        page.locator("[data-next-phase]").click()
        expect(page.locator(f"[data-phase='{n}']")).to_have_attribute("aria-current", "step")
    page.locator("#act").get_by_label("Who", exact=True).select_option(f"e{wren.pk}")
    page.get_by_label("Action", exact=True).select_option("move")
    page.get_by_label("What they do").fill("To the weir's edge")
    page.locator("[data-act]").click()
    page.locator("[data-next-phase]").click()
    expect(page.locator("[data-phase='4']")).to_have_attribute("aria-current", "step")
    page.get_by_label("Attacker").select_option("n5")
    page.get_by_label("Target", exact=True).select_option(f"e{wren.pk}")
    page.locator("[data-attack]").click()
    expect(page.locator(f"[data-fighter='e{wren.pk}'] [data-hp]")).to_have_text(
        f"{wren_hp - 3}/{wren_hp}")
    assert axe_check(page) == [], describe(axe_check(page))
    screenshot(page, "errant_fight_guide")

    page.locator("[data-end-turn]").click()
    expect(page.locator("[data-expired]")).to_contain_text("Dust in the eyes")

    # The player's live view: the Turn, the dice, Wren's HP; the NPCs by name only.
    context = browser.new_context(viewport=PHONE, base_url=live_server.url,
                                  reduced_motion="reduce")
    phone = context.new_page()
    login(phone, live_server, player, password)
    phone.goto(f"{live_server.url}/campaigns/{campaign.pk}/")
    follow(phone.get_by_role("link", name="The fight (live)"))
    expect(phone.locator("[data-live-turn]")).to_contain_text("Initiative Turn 1")
    expect(phone.locator("[data-winner]")).to_have_text("the Company wins")
    expect(phone.locator("[data-own-hp]")).to_have_text(f"{wren_hp - 3}/{wren_hp} HP")
    expect(phone.locator("[data-expired]")).to_contain_text("Dust in the eyes")
    hag = phone.locator("[data-live-fighter='Bog hag']")
    expect(hag).to_be_visible()
    body = phone.locator("body").inner_text()
    assert "Threat" not in body and "Morale 9" not in body and "17" not in body
    assert not re.search(r"Bog hag \d+ to \d+ HP", body)
    assert axe_check(phone) == [], describe(axe_check(phone))
    screenshot(phone, "errant_fight_live_phone")

    # The live view follows the Guide's next call.
    faces.extend([1, 2])
    page.get_by_label("Even").check()
    page.locator("[data-roll-order]").click()
    expect(phone.locator("[data-live-turn]")).to_contain_text("Initiative Turn 2",
                                                              timeout=10_000)
    context.close()
