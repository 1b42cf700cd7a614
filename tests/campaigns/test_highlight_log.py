"""The Highlights log (every Highlight told, by player with counts and by session) and
the session recap drafted from the session's Highlights, edited by the Imp and read by
the players as "Last time on ..."."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns import services
from campaigns.models import Session
from tests.factories import CampaignFactory, CharacterFactory, MembershipFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign(db):
    return CampaignFactory(name="The Drowned Crown")


@pytest.fixture
def imp(campaign):
    return campaign.owner


@pytest.fixture
def player(campaign):
    return MembershipFactory(campaign=campaign).user


@pytest.fixture
def party(campaign, player):
    ash = CharacterFactory(owner=player, campaign=campaign, name="Ash", progress__level=20)
    bram = CharacterFactory(owner=MembershipFactory(campaign=campaign).user,
                            campaign=campaign, name="Bram", progress__level=20)
    return ash, bram


def play(session, imp, turns):
    """turns: (character, text or None for a pass, about_other) in order."""
    for character, text, about_other in turns:
        if text is None:
            services.highlight_pass(session=session, character=character, by=imp)
        else:
            services.highlight_award(session=session, character=character, by=imp, text=text,
                                     about_other=about_other)


@pytest.fixture
def history(campaign, imp, party):
    ash, bram = party
    services.session_start(campaign=campaign, by=imp)
    two = services.session_start(campaign=campaign, by=imp, final_round_about_other=True)
    play(two, imp, [(ash, "The bell tower climb", False), (bram, None, False),
                    (ash, "Bluffing the harbour master", False), (bram, "The rope trick", False),
                    (ash, "Bram's rope trick!", True), (bram, "Ash on the bell", True)])
    three = services.session_start(campaign=campaign, by=imp)
    play(three, imp, [(ash, "The drowned chapel", False), (bram, None, False),
                      (ash, "Lighting the beacon", False), (bram, None, False)])
    undone = services.highlight_award(session=three, character=ash, by=imp, text="Oops")
    services.xp_entry_reverse(entry=undone.xp_entry, by=imp)
    # Undoing gave Ash the turn back: it is retold.
    services.highlight_award(session=three, character=ash, by=imp, text="The lighthouse")
    services.highlight_pass(session=three, character=bram, by=imp)
    return two, three


def counts(page, character):
    row = page.split(f'data-character="{character.pk}"')[1].split("</tr>")[0]
    return dict(re.findall(r'data-count="(\w+)">(\d+)<', row)), 'data-few="1"' in row


def test_the_log_counts_each_players_highlights(client, imp, campaign, party, history):
    ash, bram = party
    client.force_login(imp)
    page = client.get(reverse("campaigns:highlights", args=[campaign.pk])).content.decode()
    assert counts(page, ash) == ({"told": "6", "passed": "0", "about_other": "1",
                                  "undone": "1", "sessions": "2"}, False)
    # Bram told 2 of 6 turns: fewer than two in three, so the Imp sees it.
    assert counts(page, bram) == ({"told": "2", "passed": "4", "about_other": "1",
                                   "undone": "0", "sessions": "2"}, True)
    assert "8 in all" in page


def test_the_log_lists_every_highlight_by_session(client, imp, campaign, party, history):
    client.force_login(imp)
    page = client.get(reverse("campaigns:highlights", args=[campaign.pk])).content.decode()
    three = page.split('data-session="3"')[1].split("</article>")[0]
    two = page.split('data-session="2"')[1].split("</article>")[0]
    assert page.index('data-session="3"') < page.index('data-session="2"')  # newest first
    assert "3 Highlights about session 2" in three
    assert "The drowned chapel" in three and "Oops" in three and "undone" in three
    assert "5 Highlights about session 1" in two
    assert "Bram&#x27;s rope trick!" in two and "(about another character)" in two


def test_the_log_pages_its_sessions(client, imp, campaign, party):
    ash, _bram = party
    for _ in range(23):
        session = services.session_start(campaign=campaign, by=imp)
        if session.number > 1:
            services.highlight_award(session=session, character=ash, by=imp,
                                     text=f"Deed of session {session.number}")
    client.force_login(imp)
    url = reverse("campaigns:highlights", args=[campaign.pk])
    first = client.get(url).content.decode()
    assert "Deed of session 23" in first and "Deed of session 13" not in first
    assert "Page 1 of 3" in first
    last = client.get(url + "?page=3").content.decode()
    assert "Deed of session 2<" in last.replace("&ldquo;", "").replace("&rdquo;", "<")
    assert client.get(url + "?page=99").status_code == 200  # the last page


def test_the_log_query_count_is_flat(client, imp, campaign, party, history):
    def count():
        client.force_login(imp)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("campaigns:highlights",
                                      args=[campaign.pk])).status_code == 200
        return len(queries)

    small = count()
    for _ in range(12):
        CharacterFactory(campaign=campaign, progress__level=30,
                         owner=MembershipFactory(campaign=campaign).user)
        session = services.session_start(campaign=campaign, by=imp)
        # One round around the whole table, in turn.
        for character, _round in services.highlight_turns(session):
            services.highlight_award(session=session, character=character, by=imp, text="x")
    assert count() == small


def test_the_recap_is_drafted_from_the_highlights(client, imp, campaign, history):
    two, _three = history
    client.force_login(imp)
    response = client.post(two.get_absolute_url(), {"action": "draft", "notes": "Secret",
                                                    "recap": ""})
    assert response.status_code == 200
    draft = response.context["form"]["recap"].value()
    assert draft.splitlines() == [
        "- Ash: The bell tower climb.",
        "- Ash: Bluffing the harbour master.",
        "- Bram: The rope trick.",
        "- Ash (about another character): Bram's rope trick!",
        "- Bram (about another character): Ash on the bell.",
    ]
    assert response.context["form"]["notes"].value() == "Secret"  # kept, not saved
    assert Session.objects.get(pk=two.pk).recap == ""
    # The Imp edits it, then saves.
    client.post(two.get_absolute_url(), {"notes": "Secret",
                                         "recap": draft + "\nThe bell rang at dawn."})
    assert Session.objects.get(pk=two.pk).recap.endswith("The bell rang at dawn.")


def test_an_undone_highlight_is_left_out_of_the_draft(history):
    _two, three = history
    assert "Oops" not in services.recap_draft(three)


def test_players_read_the_recap_as_last_time_on(client, imp, player, campaign, history):
    two, _three = history
    services.session_update(session=two, by=imp, recap="- Ash: The bell tower climb.",
                            notes="The vampire is the mayor")
    client.force_login(player)
    page = client.get(two.get_absolute_url()).content.decode()
    assert "Last time on The Drowned Crown" in page and "The bell tower climb" in page
    assert "vampire" not in page and "Draft the recap" not in page
    dashboard = client.get(campaign.get_absolute_url()).content.decode()
    assert "Last time on The Drowned Crown" in dashboard
    assert "Session 2" in dashboard and "The bell tower climb" in dashboard


def test_a_player_cannot_draft_the_recap(client, player, history):
    two, _three = history
    client.force_login(player)
    assert client.post(two.get_absolute_url(), {"action": "draft"}).status_code == 403
