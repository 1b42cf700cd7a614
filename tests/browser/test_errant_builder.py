"""The Errant builder in a real browser: a new user rolls an Errant (every die shown), swaps
two Attributes, takes the starting kit in one step, moves the torch from the backpack to a
handy slot and sees Encumbrance and SPD, with and without the backpack, follow; saved, the
sheet moves it back in one action and the numbers follow again."""

import dataclasses
from fractions import Fraction

import pytest
from playwright.sync_api import expect

from characters.systems.errant.models import ErrantCharacter
from rules.engine.errant import ErrantBuild, compute_sheet
from rules.engine.errant.archetypes import starting_kit
from rules.engine.errant.data import ATTRIBUTE_KEYS
from rules.engine.errant.sheet import items_from_kit
from tests.browser.conftest import axe_check, describe, follow, htmx_settled, login, screenshot
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)
MOVED = ("slots_filled", "slots_filled_no_backpack", "encumbrance", "encumbrance_no_backpack",
         "spd", "spd_no_backpack", "movement_dice", "movement_dice_no_backpack")


def stat(page, name):
    return page.locator(f"[data-stat={name}]")


def dice_typed(page) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(int(face) for face in page.locator(f"[name=dice_{key}]").input_value()
                       .split()) for key in ATTRIBUTE_KEYS)


def expect_numbers(page, sheet, names) -> None:
    for name in names:
        expect(stat(page, name)).to_have_text(sheet[name].display)


def kit(torch_at: str):
    return tuple(dataclasses.replace(item, location=torch_at) if item.name == "Torch" else item
                 for item in items_from_kit(starting_kit("violent", "heavy_weapon")))


def test_a_new_user_rolls_swaps_takes_the_kit_and_moves_the_torch(page, live_server, password):
    login(page, live_server, UserFactory(username="wren"), password)
    page.goto("/characters/new/")
    follow(page.get_by_role("link", name="New Errant character"))
    expect(page.locator(".system-line")).to_contain_text("CC BY-SA 4.0")
    expect(page.locator("[data-no-dice]")).to_be_visible()

    # Roll: 4D4 for each Attribute, in order, every die shown.
    page.get_by_role("button", name="Roll 4D4 for each Attribute").click()
    expect(page.locator(".dice-tray .die")).to_have_count(16)
    htmx_settled(page)
    dice = dice_typed(page)
    rolled = compute_sheet(ErrantBuild(dice=dice))
    expect_numbers(page, rolled, ATTRIBUTE_KEYS)

    # One swap of two scores.
    page.get_by_label("Swap", exact=True).select_option("phys-mind")
    swapped = compute_sheet(ErrantBuild(dice=dice, swap=("phys", "mind")))
    expect(stat(page, "phys")).to_have_text(str(sum(dice[2])))
    expect(stat(page, "mind")).to_have_text(str(sum(dice[0])))
    expect_numbers(page, swapped, ("phys", "skill", "mind", "pres", "hp_max", "item_slots"))

    # The kit in one step: the common kit, the Violent's heavy weapon, 4 Supply.
    page.get_by_label("Name", exact=True).fill("Wren")
    page.get_by_label("Archetype's kit").select_option("heavy_weapon")
    page.get_by_role("button", name="Take the starting kit").click()
    expect(page.locator("[data-roll='Starting kit']")).to_contain_text("a heavy weapon")
    htmx_settled(page)
    torch = page.get_by_label("Where: Torch")
    expect(torch).to_have_value("backpack")
    build = ErrantBuild(dice=dice, swap=("phys", "mind"), items=kit("backpack"))
    before = compute_sheet(build)
    expect_numbers(page, before, MOVED)

    # The torch to a handy slot: one select; the numbers follow, backpack on and off.
    torch.select_option("handy")
    after = compute_sheet(dataclasses.replace(build, items=kit("handy")))
    expect_numbers(page, after, MOVED)
    assert after.value("slots_filled_no_backpack") == \
        before.value("slots_filled_no_backpack") + Fraction(1, 2)
    assert after.value("encumbrance") == before.value("encumbrance")

    # phys 7 (mind's dice typed as 1 2 2 2, then swapped): backpack off, the medium weapon
    # in hand, the heavy weapon and the torch handy fill 3½ of 7: Encumbrance 2; the torch
    # back in the backpack: 3 slots, Encumbrance 1, SPD one more.
    page.locator("[name=dice_mind]").fill("1 2 2 2")
    expect(stat(page, "phys")).to_have_text("7")
    expect(stat(page, "encumbrance_no_backpack")).to_have_text("2")
    skill = int(stat(page, "skill").inner_text())
    expect(stat(page, "spd_no_backpack")).to_have_text(str(skill - 2))
    torch.select_option("backpack")
    expect(stat(page, "encumbrance_no_backpack")).to_have_text("1")
    expect(stat(page, "spd_no_backpack")).to_have_text(str(skill - 1))
    expect(stat(page, "encumbrance")).to_have_text("4")  # 7 of 7 slots: full
    htmx_settled(page)
    screenshot(page, "errant-builder")
    assert describe(axe_check(page)) == ""

    page.get_by_role("button", name="Create character").click()
    page.wait_for_url("**/characters/*/")
    errant = ErrantCharacter.objects.get()
    assert (errant.name, errant.swap, errant.dice[2]) == ("Wren", ("phys", "mind"),
                                                           [1, 2, 2, 2])
    expect(stat(page, "encumbrance_no_backpack")).to_have_text("1")

    # On the sheet, moving the torch is one action too (a select and its button).
    page.get_by_label("Place of Torch").select_option("handy")
    page.get_by_role("button", name="Move Torch").click()
    expect(page.locator("#move-status")).to_contain_text("Torch moved")
    expect(stat(page, "encumbrance_no_backpack")).to_have_text("2")
    expect(stat(page, "spd_no_backpack")).to_have_text(str(skill - 2))
    htmx_settled(page)
    screenshot(page, "errant-sheet")
    assert describe(axe_check(page)) == ""
    errant.refresh_from_db()
    assert [line["location"] for line in errant.gear if line["name"] == "Torch"] == ["handy"]


def test_a_renown_gain_raises_two_different_attributes(page, live_server, password):
    """ER §Renown: at 2,000 XP (money wasted, in the XP ledger) Renown 2; the Company
    raises one Attribute by 1, the player a different one."""
    from characters.models import XpEntry
    from tests.characters.systems.errant.helpers import make_wren

    user = UserFactory(username="wren2")
    errant = make_wren(user)
    XpEntry.objects.create(character=errant, kind=XpEntry.Kind.ADJUSTMENT, xp_change=2_000,
                           note="A funeral (Conspicuous Consumption)")
    login(page, live_server, user, password)
    page.goto(f"/characters/{errant.pk}/edit/")
    expect(stat(page, "renown")).to_have_text("2")
    expect(page.locator("[data-issue=renown_raises_pending]")).to_contain_text(
        "1 Renown raise(s) to choose.")
    page.get_by_label("Renown 2, the Company's").select_option("phys")
    yours = page.get_by_label("Renown 2, yours")
    yours.select_option("phys")
    expect(page.locator("#errors-renown_raises")).to_contain_text(
        "Renown 2: the player's Attribute must differ from the Company's (phys).")
    yours.select_option("pres")
    expect(stat(page, "phys")).to_have_text("14")
    expect(stat(page, "pres")).to_have_text("10")
    expect(stat(page, "hp_max")).to_have_text("14")
    expect(page.locator("#errors-renown_raises")).to_have_text("")
    expect(page.locator("[data-issue=renown_raises_pending]")).to_have_count(0)
    htmx_settled(page)
    page.get_by_role("button", name="Save changes").click()
    page.wait_for_url(f"**/characters/{errant.pk}/")
    expect(stat(page, "phys")).to_have_text("14")
    expect(stat(page, "item_slots")).to_have_text("14")
    errant.refresh_from_db()
    assert errant.renown_raises == [["phys", "pres"]]

    # A physical Check from the sheet: phys 14 against DV 10 + Encumbrance 1: 12 to 14.
    page.get_by_label("DV", exact=True).fill("10")
    page.get_by_label("Physical (climbing, sneaking, swimming) or stabilise: + Encumbrance"
                      ).check()
    expect(page.locator("[data-chance]")).to_have_text("3/20")
    expect(page.locator("[data-check-dv]")).to_have_text("DV 11 = base 10 + 1 Encumbrance")
    page.get_by_label("DV", exact=True).fill("-3")
    expect(page.locator("[data-check-odds]")).to_contain_text("it succeeds by itself")
    page.get_by_label("DV", exact=True).fill("99")
    expect(page.locator("#errors-dv")).to_contain_text("DV is a whole number from -20 to 40.")
    expect(page.get_by_label("DV", exact=True)).to_have_value("99")
    htmx_settled(page)
    assert describe(axe_check(page)) == ""


def test_the_errant_pages_fit_a_phone(browser, live_server, password):
    """On a 375 px phone the sheet, the builder and the print view do not scroll sideways
    (the item table scrolls inside its box), and axe finds nothing serious."""
    from tests.browser.conftest import PHONE
    from tests.characters.systems.errant.helpers import make_wren

    user = UserFactory(username="wren3")
    errant = make_wren(user, exhaustion=1)
    context = browser.new_context(viewport=PHONE, base_url=live_server.url,
                                  reduced_motion="reduce")
    phone = context.new_page()
    try:
        login(phone, live_server, user, password)
        for name, url in (("sheet", f"/characters/{errant.pk}/"),
                          ("builder", f"/characters/{errant.pk}/edit/"),
                          ("new", "/characters/new/?system=errant"),
                          ("print", f"/characters/{errant.pk}/print/")):
            phone.goto(url)
            htmx_settled(phone)
            width = phone.evaluate("() => document.documentElement.scrollWidth")
            assert width <= PHONE["width"], (name, width)
            screenshot(phone, f"phone-errant-{name}")
            if name != "print":
                assert describe(axe_check(phone)) == "", name
    finally:
        context.close()
