"""The ritual under concurrency: many Imps' clicks at once (PostgreSQL only)."""

import pytest

from campaigns import services
from campaigns.models import Highlight
from characters.models import XpEntry
from tests.concurrency import needs_postgresql, run_at_once
from tests.factories import CampaignFactory, CharacterFactory, MembershipFactory, SessionFactory

pytestmark = [
    pytest.mark.django_db(transaction=True),
    needs_postgresql,
]


@pytest.fixture
def table():
    campaign = CampaignFactory()
    player = MembershipFactory(campaign=campaign).user
    hero = CharacterFactory(owner=player, campaign=campaign, progress__level=1,
                            progress__xp=0)
    return campaign, hero


def test_fifty_awards_at_once_add_exactly_fifty_xp(table):
    campaign, hero = table
    # One turn each in 50 sessions after the first (a session has at most 4 turns).
    SessionFactory(campaign=campaign)
    sessions = [SessionFactory(campaign=campaign) for _ in range(50)]

    results = run_at_once(50, lambda i: services.highlight_award(
        session=sessions[i], character=hero, by=campaign.owner, text=f"Deed {i}",
        request_key=f"award-{i}"))

    assert [r for r in results if isinstance(r, Exception)] == []
    assert XpEntry.objects.filter(character=hero, kind="highlight").count() == 50
    # The open rituals hold the Level-ups ("Level Up?" comes after the Quest XP).
    assert services.progress(hero) == (1, 50)

    # The Imps close the 50 rituals at once: the last to close buys every Level, once.
    results = run_at_once(50, lambda i: services.ritual_close(session=sessions[i],
                                                              by=campaign.owner))
    assert [r for r in results if isinstance(r, Exception)] == []
    # From Level 1: Levels 2..10 cost 1 + 2 + ... + 9 = 45 XP, 5 left (< 10).
    spends = XpEntry.objects.filter(character=hero, kind="level_spend").order_by("pk")
    assert [-e.xp_change for e in spends] == list(range(1, 10))
    assert services.progress(hero) == (10, 5)


def test_the_same_request_from_ten_threads_is_recorded_once(table):
    campaign, hero = table
    SessionFactory(campaign=campaign)
    session = SessionFactory(campaign=campaign)

    results = run_at_once(10, lambda i: services.highlight_award(
        session=session, character=hero, by=campaign.owner, text="The bridge",
        request_key="same-award"))

    assert [r for r in results if isinstance(r, Exception)] == []
    assert len({r.pk for r in results}) == 1
    assert Highlight.objects.count() == 1
    assert XpEntry.objects.filter(character=hero, kind="highlight").count() == 1
    assert services.progress(hero) == (1, 1)
    results = run_at_once(10, lambda i: services.ritual_close(session=session,
                                                              by=campaign.owner))
    assert [r for r in results if isinstance(r, Exception)] == []
    assert services.progress(hero) == (2, 0)


def test_an_out_of_turn_click_racing_the_turn_is_refused(table):
    """Ash's turn; the Imp awards Ash while a co-Imp clicks Bram's (stale) form: Bram's
    is refused or comes after Ash's, never before it."""
    campaign, hero = table
    hero.name = "Ash"
    hero.save()
    bram = CharacterFactory(owner=MembershipFactory(campaign=campaign).user,
                            campaign=campaign, name="Bram")
    SessionFactory(campaign=campaign)
    session = SessionFactory(campaign=campaign)
    who = [hero, bram] * 5

    results = run_at_once(10, lambda i: services.highlight_award(
        session=session, character=who[i], by=campaign.owner, request_key=f"turn-{i}"))

    refusals = {r.code for r in results if isinstance(r, Exception)}
    assert refusals <= {"not_their_turn", "no_turns_left"}
    turns = list(Highlight.objects.filter(session=session).order_by("pk")
                 .values_list("character__name", "round_number"))
    # Whatever the order the threads ran in, the turns went Ash, Bram, Ash, Bram, ...
    assert turns == [("Ash", 1), ("Bram", 1), ("Ash", 2), ("Bram", 2), ("Ash", 3),
                     ("Bram", 3)][:len(turns)]
    assert len(turns) >= 1
