"""The ritual is safe to click: the same award submitted twice (a double click, or
the browser's back button and a resubmit, both with the same request key) is recorded
once; an interrupted round (a closed tab) resumes from the page alone, with whose turn
it is and the right totals; concurrent submissions through the views on PostgreSQL.

Run these on PostgreSQL too:
DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres pytest tests/campaigns/test_safety.py
"""

import re
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from campaigns import services
from campaigns.models import Highlight
from campaigns.services import progress
from campaigns.systems.eldritch_gambit.models import QuestInvestment
from characters.models import XpEntry
from tests.factories import CampaignFactory, CharacterFactory, MembershipFactory, SessionFactory

NAMES = ("Ash", "Bram", "Cleo", "Dara")


def make_table():
    campaign = CampaignFactory(name="The Drowned Crown")
    imp = campaign.owner
    party = [CharacterFactory(owner=MembershipFactory(campaign=campaign).user,
                              campaign=campaign, name=name, quest=f"{name}'s Quest",
                              progress__xp=xp)
             for name, xp in zip(NAMES, (7, 0, 8, 3), strict=True)]
    services.session_start(campaign=campaign, by=imp)
    session = services.session_start(campaign=campaign, by=imp)
    return campaign, imp, session, party


def turn_url(session):
    return reverse("campaigns:turn", args=[session.campaign_id, session.number])


def form_of(page: str, character) -> dict:
    """The award form of the character's row, as the browser would submit it."""
    row = page.split(f'data-character="{character.pk}"')[1].split("</tr>")[0]
    key = re.search(r'name="request_key" value="(\w+)"', row).group(1)
    return {"character": character.pk, "request_key": key, "action": "award",
            "text": f"A deed of {character.name}"}


def whose_turn(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page.split('id="whose-turn"')[1]
                                      .split("</p>")[0].split(">", 1)[1])).strip()


@pytest.mark.django_db
def test_the_same_award_posted_twice_is_recorded_once(client):
    campaign, imp, session, (ash, *_rest) = make_table()
    client.force_login(imp)
    data = form_of(client.get(session.get_absolute_url()).content.decode(), ash)

    first = client.post(turn_url(session), data)
    second = client.post(turn_url(session), data)  # double click, or back and resubmit

    assert first.status_code == second.status_code == 302
    assert Highlight.objects.filter(character=ash).count() == 1
    assert XpEntry.objects.filter(character=ash, kind="highlight").count() == 1
    assert progress(ash) == (10, 8)
    page = client.get(session.get_absolute_url()).content.decode()
    assert "Round 1: +1 XP" in page and "Round 2: +1 XP" not in page


@pytest.mark.django_db
def test_the_same_investment_posted_twice_is_recorded_once(client):
    campaign, imp, session, party = make_table()
    ash = party[0]
    for _round in range(3):  # everyone passes, in turn
        for character in party:
            services.highlight_pass(session=session, character=character, by=imp)
    client.force_login(ash.owner)
    page = client.get(campaign.get_absolute_url()).content.decode()
    key = page.split('name="request_key" value="')[1].split('"')[0]
    url = reverse("campaigns:invest", args=[campaign.pk, session.number])
    for _ in range(2):
        client.post(url, {"character": ash.pk, "request_key": key})
    assert QuestInvestment.objects.count() == 1
    assert progress(ash) == (10, 6)


@pytest.mark.django_db
def test_an_interrupted_round_resumes_without_losing_or_repeating_an_award(client):
    campaign, imp, session, party = make_table()
    ash, bram, cleo, dara = party
    client.force_login(imp)
    page = client.get(session.get_absolute_url()).content.decode()
    assert whose_turn(page) == "Round 1 of 3: Ash's turn, then Bram, Cleo, Dara."
    # Half the turns of the session: rounds 1 (all four) and 2 (Ash and Bram).
    for character in (ash, bram, cleo, dara, ash, bram):
        page = client.get(session.get_absolute_url()).content.decode()
        client.post(turn_url(session), form_of(page, character))
    stale = form_of(page, bram)  # the closed tab's last form: Bram's round 2, sent

    # The tab is closed. A new browser (a new client, logged in again) opens the page.
    fresh = Client()
    fresh.force_login(imp)
    page = fresh.get(session.get_absolute_url()).content.decode()
    assert whose_turn(page) == "Round 2 of 3: Cleo's turn, then Dara."
    assert page.split(f'data-character="{cleo.pk}"')[1].startswith(
        ' class="turn-now" aria-current="step"')
    # The old tab's form arrives late (the browser retried it): nothing is repeated.
    client.post(turn_url(session), stale)
    assert Highlight.objects.count() == 6
    # The Imp carries on from the new page: Cleo and Dara, then round 3.
    for character in (cleo, dara, ash, bram, cleo, dara):
        page = fresh.get(session.get_absolute_url()).content.decode()
        fresh.post(turn_url(session), form_of(page, character))
    page = fresh.get(session.get_absolute_url()).content.decode()
    assert whose_turn(page) == "The Highlights are all told: Quest XP next, then the Level-ups."
    assert Highlight.objects.count() == 12
    assert XpEntry.objects.filter(kind="highlight").count() == 12
    # Each got exactly 3 XP: Ash 7+3, Bram 0+3, Cleo 8+3, Dara 3+3; the Levels they pay
    # for are bought when the ritual ends ("Level Up?" after the Quest XP).
    assert [progress(c) for c in party] == [(10, 10), (10, 3), (10, 11), (10, 6)]
    services.ritual_close(session=session, by=imp)
    assert [progress(c) for c in party] == [(11, 0), (10, 3), (11, 1), (10, 6)]


pg_only = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL: SQLite serialises writers and answers 'database is locked'",
)


def at_once(count, work):
    barrier = threading.Barrier(count)

    def one(i):
        try:
            barrier.wait()
            return work(i)
        except Exception as error:  # noqa: BLE001 - reported by the test
            return error
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(one, range(count)))


@pg_only
@pytest.mark.django_db(transaction=True)
def test_ten_clicks_at_once_through_the_view_are_one_award():
    campaign, imp, session, (ash, *_rest) = make_table()
    client = Client()
    client.force_login(imp)
    data = form_of(client.get(session.get_absolute_url()).content.decode(), ash)
    cookies = client.cookies

    def click(_i):
        browser = Client()
        browser.cookies = cookies
        return browser.post(turn_url(session), data).status_code

    results = at_once(10, click)
    assert results == [302] * 10
    assert Highlight.objects.count() == 1
    assert XpEntry.objects.filter(kind="highlight").count() == 1
    assert progress(ash) == (10, 8)


@pg_only
@pytest.mark.django_db(transaction=True)
def test_fifty_awards_through_the_views_at_once_add_fifty_xp():
    """50 Imps' clicks for one character in 50 sessions (a session has at most 4 turns),
    all at once through the view: exactly 50 XP; then the 50 rituals closed at once
    through the view: the right Level-ups, each bought once."""
    campaign = CampaignFactory()
    hero = CharacterFactory(owner=MembershipFactory(campaign=campaign).user,
                            campaign=campaign, progress__level=1, progress__xp=0)
    # Fifty rituals open at once (session_start would close each before the next).
    sessions = [SessionFactory(campaign=campaign) for _ in range(51)][1:]
    client = Client()
    client.force_login(campaign.owner)
    cookies = client.cookies

    def click(i):
        browser = Client()
        browser.cookies = cookies
        return browser.post(turn_url(sessions[i]), {
            "character": hero.pk, "action": "award", "text": f"Deed {i}",
            "request_key": f"view-award-{i}"}).status_code

    assert at_once(50, click) == [302] * 50
    assert XpEntry.objects.filter(character=hero, kind="highlight").count() == 50
    assert progress(hero) == (1, 50)  # the open rituals hold the Level-ups

    def close(i):
        browser = Client()
        browser.cookies = cookies
        return browser.post(reverse("campaigns:ritual_close", args=[
            campaign.pk, sessions[i].number])).status_code

    assert at_once(50, close) == [302] * 50
    # From Level 1: Levels 2..10 cost 1 + 2 + ... + 9 = 45 XP; 5 left (< 10).
    assert progress(hero) == (10, 5)
    assert XpEntry.objects.filter(character=hero, kind="level_spend").count() == 9
