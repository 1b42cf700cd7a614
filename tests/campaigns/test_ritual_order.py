"""The ritual follows the SRD's XP diagram (Characters > Advancement): Highlights XP,
each player in turn; then the optional Quest investment; then "Level Up?". Undoing a
Highlight gives the turn back; an out-of-turn award is refused; Level-ups wait for the
character's Highlights and Quest step, or for the Imp to close the ritual (or the next
session to start). docs/RULES.md, "Advancement", has the readings."""

import importlib
import re

import pytest
from django.apps import apps
from django.urls import reverse

from campaigns import services
from campaigns.models import Highlight, Session
from campaigns.services import progress
from campaigns.systems.eldritch_gambit import quests
from campaigns.systems.eldritch_gambit.models import QuestInvestment
from characters.models import XpEntry
from rules.engine.eldritch_gambit.levels import levels_affordable
from tests.campaigns.test_services import refused
from tests.factories import CampaignFactory, CharacterFactory, MembershipFactory, SessionFactory

pytestmark = pytest.mark.django_db

Kind = XpEntry.Kind


@pytest.fixture
def table(campaign, imp, seat):
    """Session 2 of a table of two: Ash (Level 10, XP 9) and Bram (Level 10, XP 0)."""
    ash = seat(name="Ash", xp=9)
    bram = seat(name="Bram", xp=0)
    services.session_start(campaign=campaign, by=imp)
    session = services.session_start(campaign=campaign, by=imp)
    return session, ash, bram


def award(session, character, imp, **kwargs):
    return services.highlight_award(session=session, character=character, by=imp,
                                    text=kwargs.pop("text", "A fine deed"), **kwargs)


def pass_turn(session, character, imp):
    return services.highlight_pass(session=session, character=character, by=imp)


def invest(session, character, by=None):
    return quests.quest_invest(session=session, character=character,
                                 by=by or character.owner)


def spends(character):
    return XpEntry.objects.filter(character=character, kind=Kind.LEVEL_SPEND,
                                  reversed_by__isnull=True).count()


# -- each player in turn ------------------------------------------------------------------


def test_only_the_character_whose_turn_it_is_is_awarded(table, imp):
    """"The Imp asks each player in turn" (Highlights XP): Ash, then Bram, round by round."""
    session, ash, bram = table
    assert services.highlight_turns(session) == [(ash, 1), (bram, 1)]
    with refused("not_their_turn") as info:
        award(session, bram, imp)
    assert info.value.message == "It is Ash's turn (round 1), not Bram's."
    assert info.value.field == "character"
    with refused("not_their_turn"):
        pass_turn(session, bram, imp)
    assert not Highlight.objects.exists() and not XpEntry.objects.filter(
        kind=Kind.HIGHLIGHT).exists()
    award(session, ash, imp)
    with refused("not_their_turn"):
        award(session, ash, imp)  # Ash again before Bram's round 1
    award(session, bram, imp)
    assert services.highlight_turns(session) == [(ash, 2), (bram, 2)]


def test_an_absent_player_is_skipped(table, imp):
    session, ash, bram = table
    services.absence_set(session=session, character=ash, by=imp)
    assert services.highlight_turns(session) == [(bram, 1)]
    award(session, bram, imp)
    award(session, bram, imp)


def test_undo_gives_the_turn_back_to_retell_or_pass(table, imp):
    session, ash, bram = table
    first = award(session, ash, imp, text="The wrong deed")
    services.xp_entry_reverse(entry=first.xp_entry, by=imp)
    first.refresh_from_db()
    assert first.undone_at is not None  # kept, marked undone
    assert progress(ash) == (10, 9)
    # Ash's round 1 is open again, and it is Ash's turn (not Bram's).
    assert services.highlight_turns(session) == [(ash, 1), (bram, 1)]
    with refused("not_their_turn"):
        award(session, bram, imp)
    retold = award(session, ash, imp, text="The bell tower climb")
    assert retold.round_number == 1
    assert progress(ash) == (10, 10)
    # Undo it again, then pass: the turn is used, no XP.
    services.xp_entry_reverse(entry=retold.xp_entry, by=imp)
    passed = pass_turn(session, ash, imp)
    assert (passed.round_number, passed.awarded) == (1, False)
    assert [(h.round_number, h.awarded, h.undone_at is None)
            for h in Highlight.objects.filter(character=ash).order_by("pk")] == [
        (1, True, False), (1, True, False), (1, False, True)]


def test_undo_of_an_earlier_round_reopens_that_round_first(table, imp):
    session, ash, bram = table
    early = award(session, ash, imp)
    pass_turn(session, bram, imp)
    award(session, ash, imp)
    services.xp_entry_reverse(entry=early.xp_entry, by=imp)
    # Round 1 of Ash comes before Bram's round 2.
    assert services.highlight_turns(session) == [(ash, 1), (bram, 2)]
    assert award(session, ash, imp).round_number == 1


def test_an_undo_after_the_investment_is_refused_until_the_investment_is_undone(table, imp):
    session, ash, bram = table
    highlight = award(session, ash, imp)
    for _ in range(2):
        pass_turn(session, bram, imp)
        pass_turn(session, ash, imp)
    pass_turn(session, bram, imp)
    investment = invest(session, ash)
    with refused("invested_after") as info:
        services.xp_entry_reverse(entry=highlight.xp_entry, by=imp)
    assert "undo the investment first" in info.value.message
    services.xp_entry_reverse(entry=investment.xp_entry, by=imp)
    services.xp_entry_reverse(entry=highlight.xp_entry, by=imp)
    assert services.highlight_turns(session) == [(ash, 1)]


# -- the XP diagram: Highlights, Quest, then "Level Up?" -----------------------------------


def test_a_highlight_that_reaches_the_level_still_leaves_xp_to_invest(table, imp):
    """Today's table: Ash at Level 10 with 9 XP tells two Highlights (11 XP), passes
    once, invests one XP in the Quest (10 XP), and only then levels up: Level 11, 0 XP."""
    session, ash, bram = table
    award(session, ash, imp)
    assert progress(ash) == (10, 10)  # XP = Level, but "Level Up?" comes later
    pass_turn(session, bram, imp)
    award(session, ash, imp)
    pass_turn(session, bram, imp)
    pass_turn(session, ash, imp)
    assert progress(ash) == (10, 11) and spends(ash) == 0
    assert services.ritual_holding(ash) == session
    invest(session, ash)  # its Highlights and its Quest step are done
    assert progress(ash) == (11, 0)
    assert spends(ash) == 1
    assert services.ritual_holding(ash) is None


def test_the_imp_closes_the_ritual_and_everyone_levels_up(table, imp, campaign):
    session, ash, bram = table
    award(session, ash, imp)
    award(session, bram, imp)
    services.xp_adjust(character=bram, xp_change=20, note="The dragon's hoard", by=imp)
    assert progress(bram) == (10, 21)  # the ritual holds the adjustment's Levels too
    bought = services.ritual_close(session=session, by=imp)
    # Bram: 21 buys Level 11 (10), then 11 buys Level 12 (11), 0 left.
    assert {c.name: len(entries) for c, entries in bought.items()} == {"Ash": 1, "Bram": 2}
    assert progress(ash) == (11, 0) and progress(bram) == (12, 0)
    session.refresh_from_db()
    assert session.ritual_closed_by == imp and session.ritual_closed_at is not None
    # Closing again changes nothing.
    assert services.ritual_close(session=session, by=imp) == {}
    assert XpEntry.objects.filter(kind=Kind.LEVEL_SPEND).count() == 3
    # The ritual is over: no more turns, no more Quest XP in it.
    with refused("ritual_closed"):
        award(session, bram, imp)
    with refused("ritual_closed"):
        invest(session, ash)
    assert services.highlight_turns(session) == []


def test_the_next_session_closes_the_ritual_the_imp_forgot(table, imp, campaign):
    """The careful reading: XP earned is never lost to a forgotten click; starting the
    next session ends the ritual before it and buys its Level-ups."""
    session, ash, bram = table
    award(session, ash, imp)
    assert progress(ash) == (10, 10)
    services.session_start(campaign=campaign, by=imp)
    session.refresh_from_db()
    assert not session.ritual_open
    assert progress(ash) == (11, 0)


def test_an_absent_players_levels_are_not_held(table, imp):
    session, ash, bram = table
    services.absence_set(session=session, character=bram, by=imp)
    services.xp_adjust(character=bram, xp_change=10, note="Found the map", by=imp)
    assert progress(bram) == (11, 0)
    # A present player's are held until the end of their ritual.
    services.xp_adjust(character=ash, xp_change=1, note="Found the key", by=imp)
    assert progress(ash) == (10, 10)
    # Marked absent before any turn: nothing holds them any more.
    services.absence_set(session=session, character=ash, by=imp)
    assert progress(ash) == (11, 0)


def test_the_first_session_holds_nothing(campaign, imp, seat):
    hero = seat(xp=9)
    services.session_start(campaign=campaign, by=imp)
    services.xp_adjust(character=hero, xp_change=1, note="A good start", by=imp)
    assert progress(hero) == (11, 0)


def test_undoing_an_award_after_the_levels_were_bought_asks_then_reopens(table, imp):
    session, ash, bram = table
    highlight = award(session, ash, imp)
    services.ritual_close(session=session, by=imp)
    assert progress(ash) == (11, 0)
    with refused("level_undo_needed"):
        services.xp_entry_reverse(entry=highlight.xp_entry, by=imp)
    assert progress(ash) == (11, 0)
    services.xp_entry_reverse(entry=highlight.xp_entry, by=imp, confirm_level_undo=True)
    assert progress(ash) == (10, 9)
    session.refresh_from_db()
    assert session.ritual_open  # the turn, and so the ritual, is open again
    assert services.highlight_turns(session)[0] == (ash, 1)


def test_undoing_an_investment_after_its_level_up_holds_the_level_again(table, imp):
    session, ash, bram = table
    award(session, ash, imp)
    pass_turn(session, bram, imp)
    award(session, ash, imp)
    pass_turn(session, bram, imp)
    pass_turn(session, ash, imp)
    investment = invest(session, ash)
    assert progress(ash) == (11, 0)
    # The XP comes back (no Level to take back); Ash's Quest step is open again.
    services.xp_entry_reverse(entry=investment.xp_entry, by=imp)
    assert progress(ash) == (11, 1)
    assert not QuestInvestment.objects.exists()
    assert services.ritual_holding(ash) == session


def test_a_player_cannot_close_the_ritual(table, imp):
    session, ash, bram = table
    with refused("not_imp"):
        services.ritual_close(session=session, by=ash.owner)
    session.refresh_from_db()
    assert session.ritual_open


def test_levels_affordable_follows_the_srd():
    """"Levels raise when the character has as many XP as their current Level ...
    keeping any leftovers": Level 1 with 4 XP buys Level 2 (1) and Level 3 (2), 1 left."""
    assert levels_affordable(1, 4) == 2
    assert levels_affordable(10, 9) == 0
    assert levels_affordable(10, 10) == 1
    assert levels_affordable(10, 21) == 2


# -- the session page and its POSTs --------------------------------------------------------


def _row(page, character):
    return page.split(f'data-character="{character.pk}"')[1].split("</tr>")[0]


def _url(name, session):
    return reverse(f"campaigns:{name}", args=[session.campaign_id, session.number])


def test_the_page_shows_the_award_form_only_on_the_current_row(client, table, imp):
    session, ash, bram = table
    client.force_login(imp)
    page = client.get(session.get_absolute_url()).content.decode()
    assert "Award 1 XP" in _row(page, ash) and "Award 1 XP" not in _row(page, bram)
    assert "Round 1: waits for their turn" in _row(page, bram)
    award(session, ash, imp)
    page = client.get(session.get_absolute_url()).content.decode()
    assert "Award 1 XP" not in _row(page, ash) and "Award 1 XP" in _row(page, bram)
    assert "The XP pays for 1 Level" in _row(page, ash)


def test_an_out_of_turn_post_is_refused_with_a_message(client, table, imp):
    session, ash, bram = table
    client.force_login(imp)
    response = client.post(_url("turn", session), {"character": bram.pk, "action": "award",
                                                   "text": "Out of turn", "request_key": "k"},
                           follow=True)
    assert "It is Ash&#x27;s turn (round 1), not Bram&#x27;s." in response.content.decode()
    assert not Highlight.objects.exists()


def test_a_stale_request_key_of_another_character_is_refused(client, table, imp):
    session, ash, bram = table
    client.force_login(imp)
    data = {"action": "award", "text": "Deed", "request_key": "same-key"}
    client.post(_url("turn", session), {**data, "character": ash.pk})
    response = client.post(_url("turn", session), {**data, "character": bram.pk},
                           follow=True)
    assert "That request was already used for something else." in \
        response.content.decode()
    assert Highlight.objects.count() == 1


def test_the_undo_view_says_the_turn_is_open_again(client, table, imp):
    session, ash, bram = table
    highlight = award(session, ash, imp)
    client.force_login(imp)
    response = client.post(reverse("campaigns:xp_reverse", args=[
        session.campaign_id, session.number, highlight.xp_entry_id]), follow=True)
    page = response.content.decode()
    assert "Ash&#x27;s turn is open again: retell it or pass." in page
    assert "Award 1 XP" in _row(page, ash)
    assert re.search(r"Round 1 of 3:\s*<strong>Ash</strong>'s turn, then Bram", page)


def test_closing_the_ritual_marks_who_levelled_up(client, table, imp):
    session, ash, bram = table
    award(session, ash, imp)
    client.force_login(imp)
    page = client.get(session.get_absolute_url()).content.decode()
    assert "Close the ritual: Level up" in page
    response = client.post(_url("ritual_close", session), follow=True)
    page = response.content.decode()
    assert "Level up: Ash +1 Level, now Level 11." in page
    assert "Level up! +1 Level, now Level 11" in _row(page, ash)
    assert "Level up!" not in _row(page, bram)
    assert "The ritual is closed" in page and "Close the ritual" not in page
    # A player reads it too, and has no Close button.
    client.force_login(bram.owner)
    page = client.get(session.get_absolute_url()).content.decode()
    assert "Level up! +1 Level, now Level 11" in _row(page, ash)
    assert "Close the ritual" not in page


def test_closing_a_session_of_another_campaign_is_not_found(client, table, imp):
    session, ash, bram = table
    other = CampaignFactory(owner=imp)
    services.session_start(campaign=other, by=imp)
    services.session_start(campaign=other, by=imp)
    client.force_login(imp)
    # Session 3 of this campaign does not exist.
    response = client.post(reverse("campaigns:ritual_close", args=[session.campaign_id, 3]))
    assert response.status_code == 404
    # A stranger to the campaign gets 404 for its ritual.
    client.force_login(MembershipFactory(campaign=other).user)
    assert client.post(_url("ritual_close", session)).status_code == 404
    assert Session.objects.get(pk=session.pk).ritual_open


def test_another_campaigns_character_cannot_take_the_turn(client, table, imp):
    session, ash, bram = table
    stranger = CharacterFactory(campaign=CampaignFactory(owner=imp), name="Aaron")
    client.force_login(imp)
    response = client.post(_url("turn", session), {"character": stranger.pk,
                                                   "action": "award"})
    assert response.status_code == 404
    assert not Highlight.objects.exists()


def test_an_adjustment_says_the_level_up_waits_for_the_ritual(client, table, imp):
    session, ash, bram = table
    client.force_login(imp)
    url = reverse("campaigns:xp_adjust", args=[session.campaign_id, ash.pk])
    response = client.post(url, {"xp_change": "1", "note": "Found the key"}, follow=True)
    assert ("Ash: +1 XP (Found the key). The Level-up waits for the end of session 2&#x27;s "
            "ritual") in response.content.decode()
    assert progress(ash) == (10, 10)
    services.ritual_close(session=session, by=imp)
    response = client.post(url, {"xp_change": "1", "note": "Found a coin"}, follow=True)
    assert "waits" not in response.content.decode().split("Found a coin")[1][:40]
    assert progress(ash) == (11, 1)


def test_the_migration_closes_the_earlier_rituals_and_marks_undone_awards(campaign, imp,
                                                                          seat):
    """Data from before the change: every session open, an undone award unmarked."""
    migration = importlib.import_module("campaigns.migrations.0004_ritual_close")
    hero = seat(name="Ash")
    sessions = [SessionFactory(campaign=campaign) for _ in range(3)]
    highlight = award(sessions[2], hero, imp)
    services.xp_entry_reverse(entry=highlight.xp_entry, by=imp)
    Highlight.objects.filter(pk=highlight.pk).update(undone_at=None)

    migration.close_earlier_rituals(apps, None)

    closed = [s.ritual_closed_at for s in Session.objects.order_by("number")]
    assert closed[0] == sessions[1].created_at and closed[1] == sessions[2].created_at
    assert closed[2] is None  # the latest stays open
    highlight.refresh_from_db()
    assert highlight.undone_at == highlight.xp_entry.reversed_by.created_at


def test_the_dashboard_says_a_held_level_up_waits_for_the_ritual(client, table, imp, campaign):
    """A Highlight that pays for the Level buys nothing until the ritual's end: the
    dashboard's "XP needed" reads 0 then, and says the Level-up waits, not that it is lost."""
    session, ash, bram = table
    award(session, ash, imp)  # Ash: Level 10, XP 10 (held)
    client.force_login(imp)
    page = client.get(campaign.get_absolute_url()).content.decode()
    ash_row = re.search(rf'<tr data-character="{ash.pk}">.*?</tr>', page, re.S).group(0)
    bram_row = re.search(rf'<tr data-character="{bram.pk}">.*?</tr>', page, re.S).group(0)
    assert '<span data-stat="xp_to_next">0</span>' in ash_row
    assert "Level up at the ritual's end" in ash_row
    assert "ritual's end" not in bram_row
