"""The Errant Company in a real browser: the Guide records XP for money wasted that
crosses a Renown threshold, the Guide picks the Company's Attribute, the player a
different second one, and the sheet's numbers follow (ER §Renown)."""

import pytest
from playwright.sync_api import expect

from campaigns import services
from campaigns.systems.errant import advancement
from characters.systems.errant.builds import sheet_for
from characters.systems.errant.models import ErrantCharacter
from tests.browser.conftest import axe_check, describe, follow, login, screenshot
from tests.characters.systems.errant.helpers import make_wren
from tests.factories import CampaignFactory, MembershipFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_money_wasted_raises_renown_and_two_different_attributes(page, live_server,
                                                                  password):
    campaign = CampaignFactory(system="errant", name="The Drowned Abbey")
    guide = campaign.owner
    player = MembershipFactory(campaign=campaign).user
    wren = make_wren(player)
    services.character_join(campaign=campaign, character=wren, by=player)
    services.session_start(campaign=campaign, by=guide)
    advancement.waste_grant(campaign=campaign, characters=[wren], source="waste",
                            pennies=1_500, by=guide)
    before = sheet_for(ErrantCharacter.objects.get(pk=wren.pk)).stats

    # The Guide: 800 p of carousing crosses 2,000 XP.
    login(page, live_server, guide, password)
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/company/")
    assert axe_check(page) == [], describe(axe_check(page))
    page.get_by_label("Wren").check()
    page.get_by_label("Source").select_option("conspicuous")
    page.get_by_label("Kind of Conspicuous Consumption").select_option("carousing")
    page.get_by_label("Pennies", exact=True).fill("800")
    page.get_by_label("What happened").fill("A week at the Drowned Bell")
    page.locator("[data-waste-submit]").click()
    row = page.locator(f"[data-member='{wren.pk}']")
    expect(row.locator("[data-member-xp]")).to_have_text("2300")
    expect(row.locator("[data-member-renown]")).to_have_text("2")
    expect(row.locator("[data-raise-pending]")).to_have_text("1 to choose")
    screenshot(page, "errant_company_guide")

    # Wren's sheet says a raise is pending.
    page.goto(f"{live_server.url}/characters/{wren.pk}/")
    expect(page.locator("[data-issue=renown_raises_pending]")).to_be_visible()
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/company/")

    # The Guide records the Company's Attribute on Wren's campaign page.
    follow(row.get_by_role("link", name="Wren"))
    expect(page.locator("[data-renown-raise='2'] [data-raise-pending]")).to_be_visible()
    page.get_by_label("The Company's Attribute").select_option("phys")
    page.locator("[data-raise-company-submit]").click()
    expect(page.locator("[data-raise-company]")).to_have_text("phys")

    # The player: a different second Attribute (phys is not offered).
    page.context.clear_cookies()
    login(page, live_server, player, password)
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/characters/{wren.pk}/")
    expect(page.locator("#raise-player option[value=phys]")).to_be_disabled()
    page.get_by_label("Your Attribute").select_option("mind")
    page.locator("[data-raise-player]").click()
    expect(page.locator("[data-raise-done]")).to_contain_text("phys")
    expect(page.locator("[data-raise-done]")).to_contain_text("mind")
    screenshot(page, "errant_campaign_character")
    assert axe_check(page) == [], describe(axe_check(page))

    # The sheet follows: phys and mind +1, and what phys drives (HP, Item Slots).
    page.goto(f"{live_server.url}/characters/{wren.pk}/")
    expect(page.locator("[data-issue=renown_raises_pending]")).to_have_count(0)
    after = sheet_for(ErrantCharacter.objects.get(pk=wren.pk)).stats
    assert after["phys"].value == before["phys"].value + 1
    assert after["mind"].value == before["mind"].value + 1
    for name in ("phys", "mind", "skill", "pres", "renown", "item_slots", "hp_max"):
        expect(page.locator(f"[data-stat={name}]").first).to_have_text(after[name].display)
    screenshot(page, "errant_sheet_after_renown")
