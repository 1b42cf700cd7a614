"""A METTLE Core table in the browser (issue #13, "a Guide runs a two-round ritual for
three players with a raise bought"): the Guide starts session 3 and runs two rounds of
Highlights for Anya, Boris and Viktor (one pass), gives Boris, back after missing session
2, his make-up XP, and closes the ritual; then Viktor's player spends his XP on a raise
of CONCEPT, his highest, and sees Mettle and the Backstory slots follow, live.

Characters > Getting XP: "Each player then gets a turn to talk about a memorable event or
Highlight from the last game, netting them an XP ... two rounds of this for a
medium-length game session". Guidance > Characters: "a bonus 'make-up' XP for each
missing session" (AMB-M10). Characters > Spending XP: "To raise the highest
(unmodified) Attribute by one, spend twice its current level in XP." Engine > Mettle:
"MOTIVE plus their highest (unmodified) Attribute"; Characters > Step 4: "as many
Backstories as their highest unmodified Attribute".

Screenshots of the session page and the Spend XP page at 1280 and 375 px wide go to
artifacts/screenshots/; axe finds no serious or critical violation.
"""

import pytest
from playwright.sync_api import expect

from campaigns import services
from campaigns.models import Highlight
from characters.models import XpEntry
from characters.systems.mettle.apps import KEY
from characters.systems.mettle.builds import sheet_for
from characters.systems.mettle.models import MettleCharacter
from tests.browser.conftest import PHONE, axe_check, describe, htmx_settled, login, screenshot
from tests.characters.systems.mettle.helpers import make_viktor
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

# Each round in table order (by name): the Highlight told, or None for a pass.
ROUNDS = (
    {"Anya": "The rooftop chase", "Boris": "Picking the vault", "Viktor": "The card game"},
    {"Anya": None, "Boris": "Anya's rooftop chase", "Viktor": "Cheating the cheat"},
)
XP_BEFORE = {"Anya": 0, "Boris": 0, "Viktor": 8}
# By hand: Anya 0 + 1 (a pass) = 1; Boris 0 + 2 + 1 make-up (session 2 missed) = 3;
# Viktor 8 + 2 = 10, then CONCEPT 5 -> 6 costs 2 x 5 = 10: 0 left.
XP_AFTER = {"Anya": 1, "Boris": 3, "Viktor": 0}


@pytest.fixture
def table(transactional_db):
    guide = UserFactory(username="guide-mettle")
    campaign = CampaignFactory(owner=guide, name="Baltimore 1904", system=KEY,
                               default_highlight_rounds=2)
    characters = {}
    for name in ROUNDS[0]:
        player = MembershipFactory(campaign=campaign,
                                   user=UserFactory(username=f"{name.lower()}-player")).user
        character = make_viktor(player, name=name)
        services.character_join(campaign=campaign, character=character, by=player)
        if XP_BEFORE[name]:
            services.xp_adjust(character=character, xp_change=XP_BEFORE[name],
                               note="Earlier sessions", by=guide)
        characters[name] = character
    services.session_start(campaign=campaign, by=guide)
    second = services.session_start(campaign=campaign, by=guide)
    services.absence_set(session=second, character=characters["Boris"], by=guide)
    services.ritual_close(session=second, by=guide)
    return guide, campaign, characters


def as_user(browser, live_server, user, password):
    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  base_url=live_server.url, reduced_motion="reduce")
    page = context.new_page()
    login(page, live_server, user, password)
    return context, page


def row(page, character):
    return page.locator(f'#ritual tr[data-character="{character.pk}"]')


def both_widths(page, name):
    for viewport, suffix in (({"width": 1280, "height": 900}, "1280"), (PHONE, "375")):
        page.set_viewport_size(viewport)
        violations = axe_check(page)
        assert not violations, describe(violations)
        screenshot(page, f"{name}-{suffix}")
    page.set_viewport_size({"width": 1280, "height": 900})


def xp(character):
    return sum(XpEntry.objects.filter(character=character).values_list("xp_change",
                                                                        flat=True))


def test_a_guide_runs_a_two_round_ritual_for_three_players_with_a_raise_bought(
        browser, live_server, password, table):
    guide, campaign, characters = table
    context, page = as_user(browser, live_server, guide, password)

    page.goto(f"/campaigns/{campaign.pk}/sessions/")
    with page.expect_navigation():
        page.get_by_role("button", name="Start session 3").click()
    expect(page.get_by_role("heading", name="Session 3")).to_be_visible()

    # Boris is back after missing session 2: his make-up XP is offered.
    boris = row(page, characters["Boris"])
    expect(boris.locator("[data-make-up]")).to_contain_text("Missed session 2")
    with page.expect_navigation():
        boris.get_by_role("button", name="Award 1 make-up XP to Boris").click()
    expect(page.locator("#messages")).to_contain_text("Boris gets 1 make-up XP.")
    expect(row(page, characters["Boris"]).locator("[data-make-up]")).to_contain_text(
        "+1 XP: Session 3: made up session 2")

    for number, told in enumerate(ROUNDS, start=1):
        for name, text in told.items():
            current = row(page, characters[name])
            expect(page.locator("#whose-turn")).to_contain_text(
                f"Round {number} of 2: {name}'s turn")
            expect(current).to_have_attribute("aria-current", "step")
            if text is None:
                with page.expect_navigation():
                    current.get_by_role("button", name="Pass").click()
                continue
            current.get_by_label(f"Round {number} Highlight of {name}").fill(text)
            with page.expect_navigation():
                current.get_by_role("button", name="Award 1 XP").click()
            expect(page.locator("#messages")).to_contain_text(f"{name} gets 1 XP.")
    expect(page.locator("#whose-turn")).to_have_text("The Highlights are all told.")
    assert Highlight.objects.filter(session__number=3, awarded=True).count() == 5
    both_widths(page, "mettle-session-ritual")
    with page.expect_navigation():
        page.get_by_role("button", name="Close the ritual").click()
    expect(page.locator("#messages")).to_contain_text("Session 3's ritual is closed.")
    context.close()

    # Viktor's player spends his 10 XP on CONCEPT, his highest: twice 5.
    viktor = characters["Viktor"]
    context, page = as_user(browser, live_server, viktor.owner, password)
    page.goto(viktor.get_absolute_url())
    expect(page.locator('[data-stat="mettle_max"]').first).to_have_text("9")
    with page.expect_navigation():
        page.get_by_role("link", name="Spend XP").click()
    expect(page.locator('[data-stat="xp_left"]')).to_have_text("10")
    expect(page.locator('[data-stat="raise_cost_concept"]')).to_have_text("10")
    expect(page.locator('[data-stat="mettle_max"]')).to_have_text("9")
    expect(page.locator('[data-stat="backstories_max"]')).to_have_text("5")
    page.get_by_role("button", name="Raise CONCEPT to 6").click()  # htmx: no navigation
    htmx_settled(page)
    expect(page.locator("#advancement")).to_contain_text("CONCEPT is now 6 (10 XP spent).")
    expect(page.locator('[data-stat="xp_left"]')).to_have_text("0")
    expect(page.locator('[data-stat="mettle_max"]')).to_have_text("10")  # MOTIVE 4 + 6
    expect(page.locator('[data-stat="backstories_max"]')).to_have_text("6")
    expect(page.locator('[data-stat="concept"]')).to_have_text("6")
    # Nothing else is affordable now: the page says what each needs.
    expect(page.get_by_role("button", name="Raise MOTIVE to 5")).to_have_count(0)
    expect(page.locator('[data-needs="motive"]')).to_have_text("Needs 6 XP")
    both_widths(page, "mettle-spend-xp")

    page.goto(viktor.get_absolute_url())
    expect(page.locator('[data-stat="mettle_max"]').first).to_have_text("10")
    expect(page.locator('[data-stat="backstories_max"]').first).to_have_text("6")
    context.close()

    assert {name: xp(character) for name, character in characters.items()} == XP_AFTER
    sheet = sheet_for(MettleCharacter.objects.get(pk=viktor.pk))
    assert sheet.attributes.concept == 6 and sheet.stats["xp_earned"].value == 10


def test_the_guide_grants_a_voucher_and_loses_a_contact_the_player_spends_it(
        browser, live_server, password, table):
    guide, campaign, characters = table
    viktor = characters["Viktor"]
    context, page = as_user(browser, live_server, guide, password)
    page.goto(f"/characters/{viktor.pk}/mettle/xp/")
    page.get_by_label("Grant a Voucher (note, optional)").fill("Sat out the card game")
    page.get_by_role("button", name="Grant a Voucher").click()  # htmx
    htmx_settled(page)
    expect(page.locator('#vouchers [data-stat="vouchers"]')).to_have_text("1")
    expect(page.locator("#voucher-log")).to_contain_text("Sat out the card game")
    oleg = page.locator('[data-contact="Oleg"]')
    oleg.get_by_role("button", name="Lost Oleg").click()  # no note: refused beside it
    htmx_settled(page)
    expect(page.locator("#contact-errors")).to_contain_text("Say how the Contact was lost.")
    page.locator('[data-contact="Oleg"]').get_by_label("Why (Oleg)").fill("Cheated him")
    page.locator('[data-contact="Oleg"]').get_by_role("button", name="Lost Oleg").click()
    htmx_settled(page)
    expect(page.locator('[data-contact="Oleg"] [data-contact-lost]')).to_be_visible()
    both_widths(page, "mettle-spend-xp-guide")
    context.close()

    context, page = as_user(browser, live_server, viktor.owner, password)
    page.goto(viktor.get_absolute_url())
    expect(page.locator('[data-stat="vouchers"]')).to_have_text("1")
    expect(page.locator("[data-contacts] [data-contact-lost]")).to_have_count(1)
    page.goto(f"/characters/{viktor.pk}/mettle/xp/")
    page.get_by_label("Spend a Voucher: what it reveals they did").fill(
        "Had marked the deck the night before")
    page.get_by_role("button", name="Spend a Voucher").click()
    htmx_settled(page)
    expect(page.locator('#vouchers [data-stat="vouchers"]')).to_have_text("0")
    expect(page.locator("#voucher-log")).to_contain_text("Had marked the deck")
    expect(page.get_by_role("button", name="Grant a Voucher")).to_have_count(0)
    context.close()
