"""A whole session's ritual for a table of four, in the browser, as the Imp and the
players click it: three rounds of Highlights (one pass, the final round about another
character), two Quest investments by the players from their own dashboards, a Quest
achieved that pays out across a Level-up, the Imp closing the ritual (the XP diagram's
"Level Up?" after the Highlights and the Quest XP), and the new Attribute point placed
in the builder. Then every Level and XP is the rules' figure, worked out by hand below.

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
from campaigns.models import Highlight
from campaigns.services import progress
from campaigns.systems.eldritch_gambit import quests
from campaigns.systems.eldritch_gambit.models import Quest
from characters.systems.eldritch_gambit.models import EldritchGambitCharacter
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
#   Cleo: 10/8; +3 -> 11; no investment: the Imp closes the ritual, Level 11, XP 1.
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
    quests.quest_invest(session=first, character=characters["Ash"],
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
                both_widths(page, "campaign-session-turn")  # mid-round, one form
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
    assert whose_turn(page) == "The Highlights are all told: Quest XP next, then the Level-ups."
    assert Highlight.objects.filter(session__number=2, awarded=False).count() == 1
    assert Highlight.objects.filter(session__number=2, round_number=3,
                                    about_other=True).count() == 4
    # Cleo's 11 XP pay for Level 11, bought after the Quest XP ("Level Up?").
    expect(row(page, cleo).locator('[data-stat="progress"]')).to_have_text("Level 10 · XP 11")
    expect(row(page, cleo).locator('[data-stat="level-waiting"]')).to_contain_text(
        "The XP pays for 1 Level")
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
    expect(row(page, ash).locator('[data-stat="level-up"]')).to_have_text(
        "Level up! +1 Level, now Level 11")
    assert Quest.objects.get(character=ash, status="achieved").payout_entry.xp_change == 4

    # Cleo and Dara do not invest: the Imp closes the ritual, and Cleo levels up.
    with page.expect_navigation():
        page.get_by_role("button", name="Close the ritual: Level up").click()
    expect(page.locator("#messages")).to_contain_text(
        "Session 2's ritual is closed. Level up: Cleo +1 Level, now Level 11.")
    expect(row(page, cleo).locator('[data-stat="level-up"]')).to_have_text(
        "Level up! +1 Level, now Level 11")
    expect(row(page, dara).locator('[data-stat="level-up"]')).to_have_count(0)

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
    assert EldritchGambitCharacter.objects.get(pk=ash.pk).wisdom == 2

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


# -- a new Imp's first ritual: undo, the turn order, and "Level Up?" at the end -----------


@pytest.fixture
def pair(transactional_db):
    """Session 2 of a table of two: Ash (Level 10, XP 9: one XP short of Level 11) and
    Bram (Level 10, XP 0)."""
    imp = UserFactory(username="imp-pair")
    campaign = CampaignFactory(owner=imp, name="The Salt Road")
    characters = {}
    for name, xp in (("Ash", 9), ("Bram", 0)):
        player = MembershipFactory(campaign=campaign,
                                   user=UserFactory(username=f"{name.lower()}-pair")).user
        characters[name] = CharacterFactory(owner=player, campaign=campaign, name=name,
                                            quest=f"{name}'s Quest", progress__xp=xp)
    services.session_start(campaign=campaign, by=imp)
    session = services.session_start(campaign=campaign, by=imp)
    return imp, session, characters["Ash"], characters["Bram"]


def tell(page, character, number, text):
    current = row(page, character)
    current.get_by_label(f"Round {number} Highlight of {character.name}").fill(text)
    with page.expect_navigation():
        current.get_by_role("button", name="Award 1 XP").click()


def pass_turn(page, character):
    with page.expect_navigation():
        row(page, character).get_by_role("button", name="Pass").click()


def test_undo_then_retell(browser, live_server, password, pair):
    """The Imp awards Ash, undoes it: Ash's turn is open again (not Bram's), to retell;
    the next undo is followed by a pass."""
    imp, session, ash, bram = pair
    context, page = as_user(browser, live_server, imp, password)
    page.goto(session.get_absolute_url())
    tell(page, ash, 1, "The wrong story")
    assert whose_turn(page).startswith("Round 1 of 3: Bram's turn")

    with page.expect_navigation():
        row(page, ash).get_by_role("button", name="Undo").click()
    expect(page.locator("#messages")).to_contain_text(
        "Highlight undone. Ash's turn is open again: retell it or pass.")
    assert whose_turn(page).startswith("Round 1 of 3: Ash's turn, then Bram")
    expect(row(page, ash)).to_have_attribute("aria-current", "step")
    expect(row(page, ash)).to_contain_text("The wrong story")  # kept, marked undone
    expect(row(page, ash).locator(".badge", has_text="undone")).to_be_visible()
    screenshot(page, "campaign-ritual-undone")
    tell(page, ash, 1, "The salt bridge")
    expect(row(page, ash).locator('[data-stat="progress"]')).to_have_text("Level 10 · XP 10")

    # Bram's turn; an undone award again gives the turn back, and Bram passes.
    tell(page, bram, 1, "A story Bram did not tell")
    with page.expect_navigation():
        row(page, bram).get_by_role("button", name="Undo").click()
    assert whose_turn(page).startswith("Round 1 of 3: Bram's turn")
    pass_turn(page, bram)
    assert whose_turn(page).startswith("Round 2 of 3: Ash's turn")
    assert progress(bram) == (10, 0)
    assert list(Highlight.objects.filter(character=bram).order_by("pk").values_list(
        "round_number", "awarded")) == [(1, True), (1, False)]
    check_axe(page)
    context.close()


def test_investing_when_a_highlight_reached_the_level(browser, live_server, password, pair):
    """Ash (Level 10, XP 9) tells a Highlight that reaches the Level; the Level is not
    bought yet, so Ash still has XP to invest in the Quest after the Highlights; the
    Level-up comes at the end and the table shows it."""
    imp, session, ash, bram = pair
    context, page = as_user(browser, live_server, imp, password)
    page.goto(session.get_absolute_url())
    tell(page, ash, 1, "Ringing the bell")
    expect(page.locator("#messages")).to_contain_text(
        "Ash gets 1 XP. The Level-up comes after the Highlights and the Quest XP.")
    expect(row(page, ash).locator('[data-stat="progress"]')).to_have_text("Level 10 · XP 10")
    expect(row(page, ash).locator('[data-stat="level-waiting"]')).to_have_text(
        "The XP pays for 1 Level: bought after the Highlights and the Quest XP")
    pass_turn(page, bram)
    tell(page, ash, 2, "The second bell")
    for character in (bram, ash, bram):
        pass_turn(page, character)
    assert whose_turn(page) == "The Highlights are all told: Quest XP next, then the Level-ups."
    screenshot(page, "campaign-ritual-level-waiting")

    # Ash's player invests one XP from the dashboard: 11 -> 10, then "Level Up?".
    player_context, player_page = as_user(browser, live_server, ash.owner, password)
    player_page.goto(session.campaign.get_absolute_url())
    with player_page.expect_navigation():
        player_page.get_by_role("button",
                                name="Invest 1 XP in the Quest of Ash (session 2)").click()
    expect(player_page.locator("#your-characters")).to_contain_text(
        "Invested 1 XP in session 2")
    player_context.close()

    page.reload()
    expect(row(page, ash).locator('[data-stat="progress"]')).to_have_text("Level 11 · XP 0")
    expect(row(page, ash).locator('[data-stat="level-up"]')).to_have_text(
        "Level up! +1 Level, now Level 11")
    expect(row(page, ash)).to_contain_text("Invested 1 XP this session")
    # The Imp closes the ritual: Bram has nothing to level, the table says so.
    with page.expect_navigation():
        page.get_by_role("button", name="Close the ritual: Level up").click()
    expect(page.locator("#messages")).to_contain_text(
        "Session 2's ritual is closed: no one levels up.")
    expect(page.locator("#whose-turn")).to_have_text(
        "The ritual is closed: the Levels the XP paid for are bought.")
    expect(row(page, bram).locator('[data-stat="level-up"]')).to_have_count(0)
    both_widths(page, "campaign-ritual-levelled")
    assert progress(ash) == (11, 0) and progress(bram) == (10, 0)
    assert Quest.objects.get(character=ash).investments.count() == 1
    context.close()


def test_an_out_of_turn_award_is_impossible(browser, live_server, password, pair):
    """One Award form on the page, on the row whose turn it is; the others wait."""
    imp, session, ash, bram = pair
    context, page = as_user(browser, live_server, imp, password)
    page.goto(session.get_absolute_url())
    expect(page.get_by_role("button", name="Award 1 XP")).to_have_count(1)
    expect(row(page, ash).get_by_role("button", name="Award 1 XP")).to_be_visible()
    expect(row(page, bram).get_by_role("button", name="Award 1 XP")).to_have_count(0)
    expect(row(page, bram).get_by_role("button", name="Pass")).to_have_count(0)
    expect(row(page, bram)).to_contain_text("Round 1: waits for their turn")
    pass_turn(page, ash)
    expect(row(page, ash).get_by_role("button", name="Award 1 XP")).to_have_count(0)
    expect(row(page, bram).get_by_role("button", name="Award 1 XP")).to_be_visible()
    expect(page.get_by_role("button", name="Award 1 XP")).to_have_count(1)
    context.close()

    # A player sees whose turn it is, and no Award form at all.
    context, player_page = as_user(browser, live_server, bram.owner, password)
    player_page.goto(session.get_absolute_url())
    expect(player_page.locator("#whose-turn")).to_contain_text("Bram's turn")
    expect(player_page.get_by_role("button", name="Award 1 XP")).to_have_count(0)
    expect(player_page.get_by_role("button", name="Close the ritual: Level up")).to_have_count(0)
    context.close()
