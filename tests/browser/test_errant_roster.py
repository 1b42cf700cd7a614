"""The Errant Roster page in a real browser (issue 14): a player with two Errants in the
Company chooses one, swaps once (then no second swap is offered in the session, a note
says when), trains an Attribute (the odds shown before, the dice after, the sheet follows);
the Guide sees the adjutant's split when granting XP (ER §Adjutants, §Rosters; DT
§Improving Attributes). axe on each page; a phone screenshot."""

import pytest
from playwright.sync_api import expect

from campaigns import services
from campaigns.systems.errant import advancement
from characters.models import CoinEntry
from characters.systems.errant.builds import sheet_for
from characters.systems.errant.models import ErrantCharacter, ErrantTraining
from rules.engine.errant.advancement import adjutant_split, p_training
from tests.browser.conftest import PHONE, axe_check, describe, login, screenshot
from tests.characters.systems.errant.helpers import make_wren
from tests.factories import CampaignFactory, MembershipFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_swap_once_train_and_the_adjutants_split(page, live_server, password):
    campaign = CampaignFactory(system="errant", name="The Drowned Abbey")
    guide = campaign.owner
    player = MembershipFactory(campaign=campaign).user
    wren = make_wren(player)
    squire = make_wren(player, name="Squire")
    for errant in (wren, squire):
        services.character_join(campaign=campaign, character=errant, by=player)
    services.session_start(campaign=campaign, by=guide)
    advancement.waste_grant(campaign=campaign, characters=[wren], source="waste",
                            pennies=2_000, by=guide)  # Renown 2: may attract an adjutant
    CoinEntry.objects.create(character=wren, kind=CoinEntry.Kind.ADJUSTMENT,
                             amount_cp=5_000, note="A patron's purse")
    roster_url = f"{live_server.url}/campaigns/{campaign.pk}/company/roster/"

    login(page, live_server, player, password)
    page.goto(roster_url)
    assert axe_check(page) == [], describe(axe_check(page))
    active = page.locator(f"[data-roster-player='{player.pk}'] [data-roster-active]")
    expect(active).to_have_text("nobody chosen yet")
    page.locator(f"[data-roster-choose='{wren.pk}']").click()
    expect(active).to_have_text("Wren")
    page.locator(f"[data-roster-choose='{squire.pk}']").click()
    expect(active).to_have_text("Squire")
    expect(page.locator("[data-roster-swapped]")).to_contain_text("Wren to Squire")
    # One swap a session: no second one is offered, a note says when.
    expect(page.locator("[data-roster-choose]")).to_have_count(0)
    expect(page.locator("[data-roster-wait]")).to_contain_text("swap again next session")
    expect(active).to_have_text("Squire")

    # Training Wren's pres: the odds before the roll, as a fraction and a percent.
    page.goto(roster_url)
    card = page.locator(f"#training-{wren.pk}")
    pres = sheet_for(ErrantCharacter.objects.get(pk=wren.pk)).attributes.pres
    chance = p_training(pres)
    odds = card.locator("[data-training-odds=pres]")
    expect(odds.locator("[data-attribute-value]")).to_have_text(str(pres))
    expect(odds.locator("[data-odds-fraction]")).to_have_text(
        f"{chance.numerator}/{chance.denominator}")
    expect(card.locator("[data-training-cost]")).to_have_text("1000 p")
    card.get_by_label("Attribute", exact=True).select_option("pres")
    card.locator("[data-training-submit]").click()
    expect(page.locator("#messages")).to_contain_text("5D4")
    attempt = ErrantTraining.objects.get()
    expect(page.locator("#messages")).to_contain_text(
        f"rises to {pres + 1}" if attempt.raised else f"stays {pres}")
    card = page.locator(f"#training-{wren.pk}")
    expect(card.locator("[data-training-cost]")).to_have_text("2000 p")
    expect(card.locator("[data-training-purse]")).to_have_text("4000 p")
    screenshot(page, "errant_roster_player")
    assert axe_check(page) == [], describe(axe_check(page))

    # The sheet follows.
    page.goto(f"{live_server.url}/characters/{wren.pk}/")
    expect(page.locator("[data-stat=pres]").first).to_have_text(str(pres + attempt.raised))

    # Squire becomes Wren's adjutant.
    page.goto(roster_url + "#adjutants")
    page.get_by_label("Adjutant", exact=True).select_option(str(squire.pk))
    page.locator("[data-adjutant-submit]").click()
    expect(page.locator(f"[data-adjutant-row='{wren.pk}'] [data-adjutant-link]")).to_have_text(
        "adjutant Squire")

    # The phone.
    page.set_viewport_size(PHONE)
    page.goto(roster_url)
    screenshot(page, "errant_roster_phone")
    assert axe_check(page) == [], describe(axe_check(page))
    page.set_viewport_size({"width": 1280, "height": 900})

    # The Guide grants XP to Wren and sees it divided with Squire.
    page.context.clear_cookies()
    login(page, live_server, guide, password)
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/company/")
    expect(page.locator("[data-adjutant-split]")).to_contain_text("¾ to Wren")
    page.get_by_label("Wren").check()
    page.get_by_label("Source").select_option("waste")
    page.get_by_label("Pennies", exact=True).fill("1000")
    page.locator("[data-waste-submit]").click()
    master, adjutant = adjutant_split(1_000)
    expect(page.locator("#messages")).to_contain_text(
        f"Wren +{master:,} XP and Squire +{adjutant:,} XP")
    expect(page.locator(f"[data-member='{squire.pk}'] [data-member-xp]")).to_have_text(
        str(adjutant))
    screenshot(page, "errant_roster_guide_split")
    assert axe_check(page) == [], describe(axe_check(page))
