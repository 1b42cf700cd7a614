"""Night one at a real table, in the browser as a new player meets it: join with no
character and build one from the join page; join with a character that plays elsewhere
and duplicate it in; take the starting gear after the builder's armor; leave, try to
retype Level and XP, come back. Plus the invitation's Copy button, the Imp's landing
and the builder's XP message."""

from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from campaigns import services
from characters.models import Character, XpEntry
from rules.models import GearItem
from tests.browser.conftest import axe_check, describe, htmx_settled, login, screenshot
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    InvitationFactory,
    MembershipFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def rules_catalog(transactional_db):
    """The gear catalog (the flush after each transactional test empties it)."""
    if not GearItem.objects.exists():
        call_command("load_rules", stdout=StringIO())


def gear(name):
    return GearItem.objects.srd().get(name=name)


def field(page, label):
    return page.get_by_label(label, exact=True)


def fill_attributes(page, **values):
    labels = {"str": "Strength", "wis": "Wisdom", "dex": "Dexterity", "agi": "Agility",
              "cha": "Charisma", "end": "Endurance"}
    for key, value in values.items():
        field(page, labels[key]).fill(str(value))


def join(page, invitation):
    page.goto(invitation.get_absolute_url())
    with page.expect_navigation():
        page.get_by_role("button", name="Join the campaign").click()
    expect(page.locator("#ways-forward")).to_be_visible()


def test_join_with_no_character_then_build_one_from_the_join_page(page, live_server, password,
                                                                  rules_catalog):
    campaign = CampaignFactory(name="The Drowned Crown", settings={"starting_level": 6})
    invitation = InvitationFactory(campaign=campaign)
    login(page, live_server, UserFactory(username="wren"), password)
    join(page, invitation)
    expect(page.locator("#messages")).to_contain_text("Welcome to The Drowned Crown")
    expect(page.locator("#ways-forward")).to_contain_text("You have no character yet.")
    screenshot(page, "join-no-character")
    violations = axe_check(page)
    assert not violations, describe(violations)

    with page.expect_navigation():
        page.get_by_role("link", name="Build a new character for this campaign").click()
    expect(page.locator("#joining-note")).to_contain_text("The Drowned Crown")
    expect(field(page, "Level")).to_have_value("6")
    expect(field(page, "Level")).to_be_disabled()
    expect(page.locator('[data-stat="level"]').first).to_have_text("6")
    field(page, "Name").fill("Wren")
    fill_attributes(page, str=1, wis=1, dex=1, agi=1, cha=1, end=1)
    htmx_settled(page)
    with page.expect_navigation():
        page.get_by_role("button", name="Create character").click()
    assert page.url.endswith(campaign.get_absolute_url())
    expect(page.locator("#messages")).to_contain_text("Wren was created and joined")
    expect(page.locator("#your-characters")).to_contain_text("Wren")
    expect(page.locator("#your-characters [data-stat=level]")).to_have_text("6")
    screenshot(page, "join-built-in-campaign")


def test_join_with_a_character_elsewhere_and_duplicate_it_in(page, live_server, password):
    player = UserFactory(username="asphodel-player")
    salt_road = CampaignFactory(name="Salt Road")
    MembershipFactory(campaign=salt_road, user=player)
    asphodel = CharacterFactory(owner=player, campaign=salt_road, name="Asphodel",
                                progress__level=12, progress__xp=4)
    bram = CharacterFactory(owner=player, name="Bram")
    campaign = CampaignFactory(name="The Drowned Crown")
    invitation = InvitationFactory(campaign=campaign)
    login(page, live_server, player, password)
    join(page, invitation)
    ways = page.locator("#ways-forward")
    busy = ways.locator(f'[data-character="{asphodel.pk}"]')
    expect(busy).to_contain_text("Cannot be brought: plays in Salt Road")
    expect(ways.locator(f'[data-character="{bram.pk}"]').get_by_role(
        "button", name="Bring Bram")).to_be_visible()
    screenshot(page, "join-ways-forward")
    violations = axe_check(page)
    assert not violations, describe(violations)

    # Two submissions: the first navigation may be aborted by the second, so wait for where
    # they end rather than for the first.
    busy.get_by_role("button", name="Duplicate Asphodel into The Drowned Crown").dblclick()
    page.wait_for_url(f"**{campaign.get_absolute_url()}")
    expect(page.locator("#your-characters")).to_contain_text("Asphodel (copy)")
    expect(page.locator("#your-characters [data-stat=level]")).to_have_text("12")
    assert Character.objects.filter(campaign=campaign).count() == 1  # one copy, two clicks
    assert Character.objects.get(pk=asphodel.pk).campaign == salt_road

    # Bram, from the campaign's Bring page, in one click.
    with page.expect_navigation():
        page.get_by_role("link", name="Bring a character").click()
    with page.expect_navigation():
        page.get_by_role("button", name="Bring Bram").click()
    expect(page.locator("#your-characters")).to_contain_text("Bram")


def test_starting_gear_after_the_builders_armor(page, live_server, password, rules_catalog):
    login(page, live_server, UserFactory(username="mail-wearer"), password)
    page.goto("/characters/new/?system=eldritch-gambit")
    field(page, "Name").fill("Asphodel")
    fill_attributes(page, str=2, wis=1, dex=2, agi=1, cha=1, end=3)
    field(page, "Worn armor").select_option(value=str(gear("Chain mail").pk))
    htmx_settled(page)
    with page.expect_navigation():
        page.get_by_role("button", name="Create character").click()
    asphodel = Character.objects.get(name="Asphodel")
    page.goto(f"/characters/{asphodel.pk}/inventory/")
    section = page.locator("#starting-gear")
    expect(section).to_contain_text("Already worn: Chain mail")
    expect(section.get_by_label("Normal armor (worn)").locator("option:checked")
           ).to_contain_text("Chain mail")
    section.get_by_label("Normal weapon").select_option(value=str(gear("Spear").pk))
    screenshot(page, "starting-gear-knows-the-armor")
    section.get_by_role("button", name="Take the starting gear").click()
    expect(page.locator("#starting-gear-taken")).to_contain_text("Taken on")
    htmx_settled(page)
    expect(page.locator("#starting-gear-taken")).to_contain_text(
        "kept: Chain mail (already worn)")
    expect(page.get_by_role("button", name="Take the starting gear")).to_have_count(0)
    assert asphodel.items.filter(name="Chain mail").count() == 1
    expect(page.locator("#inventory-stats [data-stat=load]").first).to_have_text("4")
    screenshot(page, "starting-gear-taken")
    violations = axe_check(page)
    assert not violations, describe(violations)


def test_rejoining_after_leaving_keeps_the_ledgers_level(page, live_server, password,
                                                        rules_catalog):
    imp = UserFactory(username="imp-rejoin")
    campaign = CampaignFactory(owner=imp, name="The Drowned Crown")
    player = MembershipFactory(campaign=campaign).user
    ash = CharacterFactory(owner=player, name="Ash", progress__xp=9)
    services.character_join(campaign=campaign, character=ash, by=player)
    login(page, live_server, player, password)
    page.goto(f"/campaigns/{campaign.pk}/characters/{ash.pk}/")
    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_navigation():
        page.get_by_role("button", name="Leave the campaign").click()

    page.goto(f"/characters/{ash.pk}/edit/")
    expect(field(page, "Level")).to_be_disabled()
    expect(field(page, "XP")).to_be_disabled()
    expect(page.locator("#builder")).to_contain_text(
        "Kept by the XP ledger since it played in a campaign")
    screenshot(page, "rejoin-builder-keeps-level")
    # A hand-made POST with Level 100 and XP 9999 (the fields are disabled) changes nothing.
    page.evaluate("""() => {
        for (const name of ['level', 'xp']) {
            const input = document.querySelector(`[name=${name}]`);
            input.disabled = false; input.value = name === 'level' ? '100' : '9999';
        }
    }""")
    with page.expect_navigation():
        page.get_by_role("button", name="Save changes").click()
    page.goto(f"/campaigns/{campaign.pk}/bring/")
    with page.expect_navigation():
        page.get_by_role("button", name="Bring Ash").click()
    expect(page.locator("#your-characters [data-stat=level]")).to_have_text("10")
    expect(page.locator("#your-characters [data-stat=xp]")).to_have_text("9")

    # The Imp reads the trail in the ledger.
    page.context.clear_cookies()
    login(page, live_server, imp, password)
    page.goto(f"/campaigns/{campaign.pk}/characters/{ash.pk}/")
    joined = page.locator('tr[data-kind="joined"]')
    expect(joined.first).to_contain_text("Joined The Drowned Crown at Level 10 with 9 XP")
    expect(page.locator('tr[data-kind="left"]')).to_contain_text("Left The Drowned Crown")
    assert not XpEntry.objects.filter(character=ash, kind="adjustment").exists()
    screenshot(page, "rejoin-imp-ledger")


def test_the_builder_refuses_xp_at_the_level_in_the_live_preview(page, live_server, password,
                                                                rules_catalog):
    login(page, live_server, UserFactory(), password)
    page.goto("/characters/new/?system=eldritch-gambit")
    field(page, "XP").fill("15")
    expect(page.locator("#errors-xp")).to_contain_text("enter Level 11 with 5 XP")
    with page.expect_navigation():
        page.get_by_role("button", name="Create character").click()
    expect(page.locator("#errors-xp")).to_contain_text("enter Level 11 with 5 XP")
    expect(field(page, "XP")).to_have_value("15")
    assert not Character.objects.exists()


def test_the_imp_lands_on_campaigns_and_copies_the_invitation(browser, live_server, password):
    imp = UserFactory(username="imp-copy")
    campaign = CampaignFactory(owner=imp, name="The Drowned Crown")
    invitation = InvitationFactory(campaign=campaign)
    context = browser.new_context(base_url=live_server.url, reduced_motion="reduce",
                                  permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    try:
        login(page, live_server, imp, password)
        assert page.url.endswith("/campaigns/")
        page.goto(campaign.get_absolute_url())
        button = page.locator("#invitations").get_by_role("button", name="Copy")
        expect(button).to_be_visible()
        button.click()
        expect(button).to_have_text("Copied")
        copied = page.evaluate("navigator.clipboard.readText()")
        assert copied == f"{live_server.url}{invitation.get_absolute_url()}"
        screenshot(page, "invitation-copy")
    finally:
        context.close()


def test_without_javascript_the_link_stays_selectable(browser, live_server, password):
    imp = UserFactory(username="imp-nojs")
    campaign = CampaignFactory(owner=imp)
    InvitationFactory(campaign=campaign)
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    page = context.new_page()
    try:
        login(page, live_server, imp, password)
        page.goto(campaign.get_absolute_url())
        expect(page.locator("#invitations button[data-copy]")).to_be_hidden()
        expect(page.get_by_role("textbox", name="Invitation link")).to_be_visible()
    finally:
        context.close()
