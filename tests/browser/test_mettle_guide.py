"""The Guide's screen of a METTLE campaign in the browser (issue #13): the Guide opens it
from the campaign page, sees the party's Mettle, Soak and Credit, adds an NPC pool (a
refused pool first: the message beside the field, the name kept), rolls the Faction
triangle and a Faction Check, each answered in place by htmx. A player of the campaign
is refused the screen.

Screenshots: artifacts/screenshots/mettle-guide-*.png; axe finds no serious or critical
violation on the screen."""

import pytest
from playwright.sync_api import expect

from campaigns import services
from campaigns.systems.mettle import guide
from characters.systems.mettle.apps import KEY
from tests.browser.conftest import axe_check, describe, htmx_settled, login, screenshot
from tests.characters.systems.mettle.helpers import make_viktor
from tests.factories import DEFAULT_PASSWORD, CampaignFactory, MembershipFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_guide_adds_an_npc_and_rolls_the_faction_triangle(page, live_server, browser):
    campaign = CampaignFactory(system=KEY, name="The Idol")
    player = MembershipFactory(campaign=campaign).user
    services.character_join(campaign=campaign, character=make_viktor(player), by=player)

    login(page, live_server, campaign.owner, DEFAULT_PASSWORD)
    page.goto(campaign.get_absolute_url())
    with page.expect_navigation():
        page.get_by_role("link", name="Guide's screen").click()
    expect(page.get_by_role("heading", name="Guide's screen")).to_be_visible()
    party = page.locator("#party-glance")
    expect(party.locator("[data-stat=mettle]")).to_have_text("9/9")
    expect(party.locator("[data-stat=soak]")).to_have_text("3")
    expect(page.locator("#difficulty-ladder")).to_contain_text("Formidable")

    page.evaluate("() => { window.stayed = true; }")
    form = page.locator("#npc-form")
    form.get_by_label("Name").fill("Horse")
    form.get_by_label("NPC pool (dice)").fill("4")
    form.get_by_label("Far higher Attribute").select_option("frame")
    form.get_by_label("Its pool").fill("3")
    form.get_by_role("button", name="Save the NPC").click()  # htmx: only the section
    form = page.locator("#npc-form")
    expect(form.locator("#errors-higher_pool")).to_contain_text("higher than the pool")
    expect(form.get_by_label("Name")).to_have_value("Horse")
    form.get_by_label("Its pool").fill("7")
    form.get_by_label("Armour").select_option("Light (Leather)")
    form.get_by_role("button", name="Save the NPC").click()
    expect(page.locator("#npcs-notice")).to_contain_text("Saved Horse 4D (FRAME 7).")
    row = page.locator("#npc-pools tbody tr")
    expect(row).to_have_count(1)
    expect(row.locator("th")).to_have_text("Horse 4D (FRAME 7)")
    expect(row.locator("[data-stat=soak]")).to_contain_text("8")  # FRAME 7 + Leather 1

    page.get_by_role("button", name="Roll the Faction triangle").click()
    expect(page.locator("#factions-notice")).to_contain_text("rolled")
    cards = page.locator("#faction-cards [data-faction]")
    expect(cards).to_have_count(3)
    resources = guide.resources_of(campaign.mettle_triangle)
    for role, value in resources.items():
        expect(page.locator(f'[data-faction="{role}"] [data-stat=resources]')).to_have_text(
            str(value))
    expect(page.locator("#relations tbody tr")).to_have_count(6)
    check = page.locator("#check-form")
    check.get_by_label("Who acts").select_option("rival")
    check.get_by_label("Against").select_option("villain")
    check.get_by_role("button", name="Roll the Faction Check").click()
    expect(page.locator("#check-log li")).to_have_count(1)
    expect(page.locator("#check-log li")).to_contain_text(
        f"Rival {resources['rival']}D vs Villain {resources['villain']}")
    htmx_settled(page)
    assert page.evaluate("() => window.stayed") is True  # never reloaded: htmx swaps
    screenshot(page, "mettle-guide-screen")
    violations = axe_check(page)
    assert not violations, describe(violations)

    other = browser.new_context(base_url=live_server.url)
    player_page = other.new_page()
    login(player_page, live_server, player, DEFAULT_PASSWORD)
    response = player_page.goto(f"/campaigns/{campaign.pk}/guide/")
    assert response.status == 403
    other.close()


def test_guide_applies_a_fall_to_viktor_and_undoes_it(page, live_server):
    """The Hazards card (AMB-M-HZ-1): a fall without its Zones is refused beside the field
    (the character kept); two Zones roll 1d6+4 through POISE 2 and Viktor's Mettle drops,
    in the hazard log and on the party card (swapped with it); Undo gives it back."""
    campaign = CampaignFactory(system=KEY, name="The Idol")
    player = MembershipFactory(campaign=campaign).user
    viktor = make_viktor(player)
    services.character_join(campaign=campaign, character=viktor, by=player)

    login(page, live_server, campaign.owner, DEFAULT_PASSWORD)
    page.goto(f"/campaigns/{campaign.pk}/guide/")
    page.evaluate("() => { window.stayed = true; }")
    form = page.locator("#hazard-form")
    form.get_by_label("Character").select_option(label="Viktor")
    form.get_by_label("Hazard").select_option("fall")
    form.get_by_role("button", name="Apply the hazard").click()
    form = page.locator("#hazard-form")
    expect(form.locator("#errors-hz-zones")).to_contain_text("How many Zones")
    expect(form.get_by_label("Character")).to_have_value(str(viktor.pk))
    form.get_by_label("Zones fallen (~5 m each)").fill("2")
    form.get_by_role("button", name="Apply the hazard").click()
    expect(page.locator("#hazards-notice")).to_contain_text("Viktor: Fall, 1d6")
    expect(page.locator("#hazards-notice")).to_contain_text("less Soak 2")
    expect(page.locator("#hazard-log tbody tr")).to_have_count(1)
    mettle = page.locator("#party-glance [data-stat=mettle]")
    expect(mettle).not_to_have_text("9/9")  # the party card, swapped out of band
    dropped = mettle.inner_text()
    assert int(dropped.split("/")[0]) in range(1, 7)  # 9 - (1d6 + 4 - 2)
    screenshot(page, "mettle-guide-hazard")
    page.get_by_role("button", name="Undo").click()
    expect(page.locator("#hazards-notice")).to_contain_text("Undone")
    expect(mettle).to_have_text("9/9")
    htmx_settled(page)
    assert page.evaluate("() => window.stayed") is True
