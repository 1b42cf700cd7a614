"""What a Check and a Roll from the Play page cost: a fixed number of queries, whatever
the character's history, and an htmx answer reads only what its panel shows (the roll
log and the session note are the whole page's; the log polls for itself)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.systems.eldritch_gambit.rolls import Roll
from tests.factories import AsphodelFactory, CampaignFactory, MembershipFactory, SessionFactory

pytestmark = pytest.mark.django_db

CHECK = {"action": "attack-melee", "attribute": "dex", "ocs": "on", "bonus": "0",
         "penalty": "0", "difficulty": "10", "df_other": "", "request_key": ""}
HTMX = {"HTTP_HX_REQUEST": "true"}
# Transaction control (BEGIN, SAVEPOINT, COMMIT...) differs by database: not counted.
DATA = ("SELECT", "INSERT", "UPDATE", "DELETE")
# Django's session and user; the character (with its ledgers' sums) and its lines; the
# request key looked up; the session the roll is logged in; the roll written; and, for a
# Check, its Gambit (none yet).
CHECK_QUERIES = 8
# The same but the Gambit: the request key looked up twice (before rolling, then when
# writing), the roll's Reroll (none yet: its button shows), and the campaign's other
# characters, whatever their number (the Rally's allies and their CHA).
ROLL_QUERIES = 10


@pytest.fixture
def hero(client):
    campaign = CampaignFactory()
    player = MembershipFactory(campaign=campaign).user
    hero = AsphodelFactory(owner=player, campaign=campaign)
    for _ in range(2):  # allies: the Rally lists their CHA
        AsphodelFactory(name="Ally", owner=MembershipFactory(campaign=campaign).user,
                        campaign=campaign)
    SessionFactory(campaign=campaign)
    client.force_login(player)
    return hero


def data_queries(client, url, data) -> tuple[int, list[str]]:
    with CaptureQueriesContext(connection) as captured:
        response = client.post(url, data, **HTMX)
    assert response.status_code == 200
    sql = [q["sql"] for q in captured.captured_queries if q["sql"].startswith(DATA)]
    return len(sql), sql


@pytest.mark.parametrize("history", [0, 40])
def test_a_check_costs_the_same_whatever_the_history(client, hero, history):
    url = reverse("characters:check", args=[hero.pk])
    for i in range(history):
        client.post(url, {**CHECK, "request_key": f"{i:032x}"}, **HTMX)
    client.post(url, {**CHECK, "request_key": "f" * 32}, **HTMX)  # what is typed is kept
    count, sql = data_queries(client, url, {**CHECK, "request_key": "e" * 32})
    assert count == CHECK_QUERIES, "\n".join(sql)
    assert not any("django_session" in q and q.startswith("UPDATE") for q in sql)


def test_a_check_typed_anew_is_kept_in_the_session(client, hero):
    url = reverse("characters:check", args=[hero.pk])
    client.post(url, {**CHECK, "request_key": "a" * 32}, **HTMX)
    count, sql = data_queries(client, url, {**CHECK, "bonus": "2", "request_key": "b" * 32})
    assert any("django_session" in q and q.startswith("UPDATE") for q in sql)
    page = client.get(reverse("characters:play", args=[hero.pk])).content.decode()
    assert 'name="bonus" value="2"' in page


@pytest.mark.parametrize("history", [0, 40])
def test_a_roll_costs_the_same_whatever_the_history(client, hero, history):
    url = reverse("characters:roll", args=[hero.pk])
    for i in range(history):
        client.post(url, {"what": "rally", "request_key": f"{i:032x}"}, **HTMX)
    count, sql = data_queries(client, url, {"what": "rally", "request_key": "e" * 32})
    assert count == ROLL_QUERIES, "\n".join(sql)


def test_the_htmx_answers_leave_the_log_alone_and_the_page_shows_it(client, hero):
    check = client.post(reverse("characters:check", args=[hero.pk]), CHECK, **HTMX)
    assert check["HX-Trigger"] == "rolls-changed"
    assert "roll-log" not in check.content.decode()
    page = client.post(reverse("characters:check", args=[hero.pk]),
                       {**CHECK, "request_key": "c" * 32})
    assert page.status_code == 200
    text = page.content.decode()
    assert 'id="roll-log"' in text and "Logged in" in text
    assert Roll.objects.count() == 2


def test_a_buildup_rolls_panel_shows_the_new_buildup(client, hero):
    """The Buildup Roll writes the character's Buildup: its panel shows the new one (it
    showed the one before the Roll)."""
    response = client.post(reverse("characters:roll", args=[hero.pk]),
                           {"what": "buildup", "buildup-buildup": "2d6"}, **HTMX)
    hero.refresh_from_db()
    assert hero.poison_buildup >= 2
    assert (f'<strong data-stat="poison_buildup">{hero.poison_buildup}</strong>'
            in response.content.decode())
