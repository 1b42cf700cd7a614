"""What the Imp's ritual turn (a Highlight awarded or passed, a plain POST that
redirects to the session) costs: a fixed number of queries, whatever the party and the
history of turns before it."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns import services
from tests.factories import CampaignFactory, CharacterFactory, MembershipFactory

pytestmark = pytest.mark.django_db

# Transaction control (BEGIN, SAVEPOINT, COMMIT...) differs by database: not counted.
DATA = ("SELECT", "INSERT", "UPDATE", "DELETE")
# Django's session and user; the view's membership, session and character; the service's
# session (locked, with its campaign), character (locked), the Imp's role, the request
# key, the absences and turns told, the party (whose turn it is); the XP entry and the
# Highlight written; the character's XP for the message.
TURN_QUERIES = 15


def award_queries(client, session, character, action="award") -> tuple[int, str]:
    url = reverse("campaigns:turn", args=[session.campaign_id, session.number])
    data = {"character": character.pk, "action": action, "text": "A deed",
            "request_key": f"turn-{character.pk}-{action}-{session.pk}"}
    with CaptureQueriesContext(connection) as captured:
        response = client.post(url, data)
    assert response.status_code == 302
    sql = [q["sql"] for q in captured.captured_queries if q["sql"].startswith(DATA)]
    return len(sql), "\n".join(q[:150] for q in sql)


@pytest.mark.parametrize("party,history", [(2, 1), (4, 1), (8, 1), (4, 20)])
def test_a_ritual_turn_costs_the_same_whatever_the_party_and_history(client, party,
                                                                     history):
    campaign = CampaignFactory()
    imp = campaign.owner
    characters = [CharacterFactory(campaign=campaign, name=f"Hero {i}", quest="A quest",
                                   owner=MembershipFactory(campaign=campaign).user)
                  for i in range(party)]
    services.session_start(campaign=campaign, by=imp)
    for _ in range(history):  # sessions whose rituals were told to the end
        session = services.session_start(campaign=campaign, by=imp)
        while turns := services.highlight_turns(session):
            services.highlight_award(session=session, character=turns[0][0], by=imp)
    session = services.session_start(campaign=campaign, by=imp)
    client.force_login(imp)
    first = services.highlight_turns(session)[0][0]
    count, sql = award_queries(client, session, first)
    assert count == TURN_QUERIES, sql
    second = services.highlight_turns(session)[0][0]
    assert second != first and second in characters
    count, sql = award_queries(client, session, second, "pass")
    assert count == TURN_QUERIES - 2, sql  # no XP: no entry written, no XP read


# Django's session and user; the view's membership and session; the ritual table's party
# (with its ledgers' sums), Highlights, absences; Eldritch Gambit's Level-ups, Quests and
# the party's written Quests and invested XP; the session list's neighbours.
PAGE_QUERIES = 12


@pytest.mark.parametrize("party,history", [(2, 1), (4, 1), (8, 1), (4, 20)])
def test_the_session_page_costs_the_same_whatever_the_party_and_history(client, party,
                                                                       history):
    """The page the Imp runs the ritual from (and the one each turn redirects to): whose
    turn it is comes from the Highlights, absences and party the ritual table read, not
    from reading them again."""
    campaign = CampaignFactory()
    imp = campaign.owner
    for i in range(party):
        CharacterFactory(campaign=campaign, name=f"Hero {i}", quest="A quest",
                         owner=MembershipFactory(campaign=campaign).user)
    for _ in range(history):
        session = services.session_start(campaign=campaign, by=imp)
        while turns := services.highlight_turns(session):
            services.highlight_award(session=session, character=turns[0][0], by=imp)
    session = services.session_start(campaign=campaign, by=imp)
    first = services.highlight_turns(session)[0][0]
    services.highlight_award(session=session, character=first, by=imp)  # a turn told
    client.force_login(imp)
    url = session.get_absolute_url()
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    sql = [q["sql"] for q in captured.captured_queries if q["sql"].startswith(DATA)]
    assert len(sql) == PAGE_QUERIES, "\n".join(q[:150] for q in sql)
    # Whose turn it is: the next in the party's order, the first's turn told.
    now = services.highlight_turns(session)[0][0]
    assert now != first
    assert (f'<tr data-character="{now.pk}" class="turn-now" aria-current="step">'
            in response.content.decode())
