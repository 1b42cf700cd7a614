"""A whole session's ritual for a table of four, in the browser, as the Imp and the
players click it: three rounds of Highlights (one pass, the final round about another
character), two Quest investments by the players from their own dashboards, a Quest
achieved that pays out across a Level-up, and the new Attribute point placed in the
builder. Then every Level and XP is the rules' figure, worked out by hand below.

Characters > Level: "Characters add a Level whenever they earn as many XP as their
current Level. The player then raises the Level by one and erases the old XP, keeping
any left over." Advancement > Highlights XP: "Any half-decent answer gets an XP ...
around the table three times". Quest XP: "Invest one XP ... If they accomplish it, they
get double the invested XP back!"

Screenshots of the dashboard, the session page and the Highlights log at 1280 and
375 px wide go to artifacts/screenshots/; axe finds no serious or critical violation.
"""

from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from campaigns import services
from campaigns.models import Highlight, Quest
from campaigns.services import progress
from characters.models import Character
from rules.models import GearItem
from tests.browser.conftest import PHONE, axe_check, describe, login, screenshot
from tests.factories import CampaignFactory, CharacterFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

# name, player, Level, XP before the session
TABLE = (
    ("Ash", "ash-player", 10, 5),
    ("Bram", "bram-player", 10, 0),
    ("Cleo", "cleo-player", 10, 8),
    ("Dara", "dara-player", 12, 3),
)
# Each round in table order: the Highlight told, or None for a pass.
ROUNDS = (
    {"Ash": "Ringing the drowned bell", "Bram": "Out-eating the ostrich",
     "Cleo": "The map in the rain", "Dara": "Parley with the harbour master"},
    {"Ash": "Bluffing the customs boat", "Bram": None,
     "Cleo": "Reading the tide tables", "Dara": "The rope bridge"},
    # The final round: something another character did.
    {"Ash": "Bram's wing-eating finale", "Bram": "Cleo's map saving us",
     "Cleo": "Dara holding the bridge", "Dara": "Ash ringing the bell"},
)
# By hand, from the rules:
#   Ash:  10/5, invested 1 in session 1 -> 4; +3 Highlights -> 7; invests 1 -> 6 (2 in
#         the Quest); Quest achieved pays 2 x 2 = 4 -> 10 XP = Level 10: Level 11, XP 0.
#   Bram: 10/0; +2 Highlights (one pass) -> 2; invests 1 -> 1.
#   Cleo: 10/8; +1 -> 9; +1 -> 10 = Level: Level 11, XP 0; +1 -> 1.
#   Dara: 12/3; +3 -> 6.
EXPECTED = {"Ash": (11, 0), "Bram": (10, 1), "Cleo": (11, 1), "Dara": (12, 6)}


@pytest.fixture
def rules_catalog(transactional_db):
    """The gear catalog. A data migration loads it, but the flush after each
    transactional test empties the tables, so load it again when it is gone."""
    if not GearItem.objects.exists():
        call_command("load_rules", stdout=StringIO())


@pytest.fixture
def table(rules_catalog):
    imp = UserFactory(username="imp-ritual")
    campaign = CampaignFactory(owner=imp, name="The Drowned Crown")
    characters = {}
    for name, username, level, xp in TABLE:
        player = MembershipFactory(campaign=campaign, user=UserFactory(username=username)).user
        characters[name] = CharacterFactory(
            owner=player, campaign=campaign, name=name, quest=f"{name}'s Quest",
            progress__level=level, progress__xp=xp)
    characters["Ash"].quest = "Find the drowned bell"
    characters["Ash"].save()
    first = services.session_start(campaign=campaign, by=imp)
    services.quest_invest(session=first, character=characters["Ash"],
                          by=characters["Ash"].owner)
    services.session_update(session=first, by=imp, recap="We sailed into the fog.")
    return imp, campaign, characters


def as_user(browser, live_server, user, password, *, viewport=None):
    context = browser.new_context(viewport=viewport or {"width": 1280, "height": 900},
                                  base_url=live_server.url, reduced_motion="reduce")
    page = context.new_page()
    login(page, live_server, user, password)
    return context, page


def whose_turn(page) -> str:
    return page.locator("#whose-turn").inner_text()


def row(page, character):
    return page.locator(f'#ritual tr[data-character="{character.pk}"]')


def check_axe(page):
    violations = axe_check(page)
    assert not violations, describe(violations)


def both_widths(page, name):
    """Screenshots at 1280 and 375 px wide, and axe at both."""
    check_axe(page)
    screenshot(page, f"{name}-1280")
    page.set_viewport_size(PHONE)
    check_axe(page)
    screenshot(page, f"{name}-375")
    page.set_viewport_size({"width": 1280, "height": 900})


def test_a_whole_session_for_a_table_of_four(browser, live_server, password, table):
    imp, campaign, characters = table
    ash, bram, cleo, dara = (characters[name] for name, *_ in TABLE)
    imp_context, page = as_user(browser, live_server, imp, password)

    # The Imp starts session 2, the final round about another character.
    page.goto(f"/campaigns/{campaign.pk}/sessions/")
    page.get_by_label("The final round is about another character").check()
    with page.expect_navigation():
        page.get_by_role("button", name="Start session 2").click()
    expect(page.get_by_role("heading", name="Session 2")).to_be_visible()

    # Three rounds, each player in turn, as the page says whose turn it is.
    for number, told in enumerate(ROUNDS, start=1):
        final = number == 3
        for name, text in told.items():
            character = characters[name]
            expected = f"Round {number} of 3{', about another character' if final else ''}: "
            assert whose_turn(page).startswith(f"{expected}{name}'s turn"), whose_turn(page)
            current = row(page, character)
            expect(current).to_have_attribute("aria-current", "step")
            if final and name == "Cleo":
                both_widths(page, "campaign-session-turn")  # mid-round, a form per row
            if text is None:
                with page.expect_navigation():
                    current.get_by_role("button", name="Pass").click()
                continue
            current.get_by_label(f"Round {number} Highlight of {name}").fill(text)
            about_other = current.get_by_label("About another character (final round)") \
                if final else None
            if final:
                expect(about_other).to_be_checked()  # the final round asks for it
            with page.expect_navigation():
                current.get_by_role("button", name="Award 1 XP").click()
            expect(page.locator("#messages")).to_contain_text(f"{name} gets 1 XP.")
    assert whose_turn(page) == "The Highlights are all told: Quest XP next."
    assert Highlight.objects.filter(session__number=2, awarded=False).count() == 1
    assert Highlight.objects.filter(session__number=2, round_number=3,
                                    about_other=True).count() == 4
    expect(row(page, cleo).locator('[data-stat="progress"]')).to_have_text("Level 11 · XP 1")
    both_widths(page, "campaign-session-ritual")

    # Two players invest one XP each, from their own dashboards.
    for character in (ash, bram):
        context, player_page = as_user(browser, live_server, character.owner, password)
        player_page.goto(campaign.get_absolute_url())
        mine = player_page.locator("#your-characters")
        expect(mine.get_by_role("link", name=f"Sheet of {character.name}")).to_be_visible()
        with player_page.expect_navigation():
            mine.get_by_role("button", name=f"Invest 1 XP in the Quest of {character.name} "
                                            "(session 2)").click()
        expect(mine).to_contain_text("Invested 1 XP in session 2")
        if character is bram:
            # A player sees the party summary, not the Imp's numbers.
            expect(player_page.locator("#party-dashboard")).not_to_contain_text("XP needed")
            both_widths(player_page, "campaign-dashboard-player")
        context.close()
    # Cleo and Dara keep their XP: investing is each player's choice.

    # The Imp marks Ash's Quest achieved: 2 invested, 4 paid, across a Level-up.
    page.goto(campaign.get_absolute_url() + "sessions/2/")
    with page.expect_navigation():
        row(page, ash).get_by_role("button", name="Quest achieved: pay 4 XP to Ash").click()
    expect(page.locator("#messages")).to_contain_text(
        "Quest achieved: Find the drowned bell (+4 XP).")
    expect(row(page, ash).locator('[data-stat="progress"]')).to_have_text("Level 11 · XP 0")
    assert Quest.objects.get(character=ash, status="achieved").payout_entry.xp_change == 4

    # The dashboard: every Level and XP as worked out by hand; Ash's point waits.
    page.goto(campaign.get_absolute_url())
    for name, (level, xp) in EXPECTED.items():
        party_row = page.locator(f'#party-dashboard tr[data-character="{characters[name].pk}"]')
        expect(party_row.locator('[data-stat="level"]')).to_have_text(str(level))
        expect(party_row.locator('[data-stat="xp"]')).to_have_text(str(xp))
    ash_points = page.locator(f'#party-dashboard tr[data-character="{ash.pk}"] '
                              '[data-stat="attribute_points_left"]')
    expect(ash_points).to_have_text("1")

    # Ash's player places the new point in the builder, within the new maximum (6).
    context, player_page = as_user(browser, live_server, ash.owner, password)
    player_page.goto(f"/characters/{ash.pk}/edit/")
    left = player_page.locator("#stats-panel [data-stat=attribute_points_left]")
    expect(left).to_have_text("1")
    expect(player_page.locator("#stats-panel [data-stat=attribute_max]")).to_have_text("6")
    player_page.get_by_label("Wisdom", exact=True).fill("2")
    expect(left).to_have_text("0")
    with player_page.expect_navigation():
        player_page.get_by_role("button", name="Save changes").click()
    expect(player_page.locator("#messages")).to_contain_text("Ash was saved.")
    context.close()
    assert Character.objects.get(pk=ash.pk).wisdom == 2

    # The Imp's dashboard follows by itself (the poll) and shows no point waiting.
    expect(ash_points).to_have_text("0", timeout=12_000)
    both_widths(page, "campaign-dashboard")

    # Every character's Level and XP are the rules' figures, in the ledger too.
    assert {name: progress(characters[name]) for name in EXPECTED} == EXPECTED

    # The log: every Highlight told, by player and by session.
    page.goto(f"/campaigns/{campaign.pk}/highlights/")
    expect(page.locator(f'#by-character tr[data-character="{bram.pk}"] '
                        '[data-count="told"]')).to_have_text("2")
    expect(page.locator(f'#by-character tr[data-character="{bram.pk}"] '
                        '[data-count="passed"]')).to_have_text("1")
    expect(page.locator('[data-session="2"]')).to_contain_text("Ash ringing the bell")
    both_widths(page, "campaign-highlights-log")

    # The recap: drafted from the Highlights, edited, saved, read by the table.
    page.goto(campaign.get_absolute_url() + "sessions/2/")
    with page.expect_navigation():
        page.get_by_role("button", name="Draft the recap from the Highlights").click()
    recap = page.get_by_label("Recap (the whole table reads it)")
    expect(recap).to_have_value(
        "- Ash: Ringing the drowned bell.\n- Bram: Out-eating the ostrich.\n"
        "- Cleo: The map in the rain.\n- Dara: Parley with the harbour master.\n"
        "- Ash: Bluffing the customs boat.\n- Cleo: Reading the tide tables.\n"
        "- Dara: The rope bridge.\n"
        "- Ash (about another character): Bram's wing-eating finale.\n"
        "- Bram (about another character): Cleo's map saving us.\n"
        "- Cleo (about another character): Dara holding the bridge.\n"
        "- Dara (about another character): Ash ringing the bell.")
    recap.fill("The bell rang, the ostrich lost, and the bridge held.")
    with page.expect_navigation():
        page.get_by_role("button", name="Save").click()
    imp_context.close()
    context, player_page = as_user(browser, live_server, dara.owner, password)
    player_page.goto(campaign.get_absolute_url())
    expect(player_page.locator(".recap")).to_contain_text("the bridge held")
    context.close()
