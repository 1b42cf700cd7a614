"""The Play page's Check and live odds (as the load benchmark's ErrantChecks posts them,
with htmx) cost a fixed number of queries, however many rolls and sessions the Errant and
its campaign have."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns import services
from campaigns.systems.errant.rolls import ErrantRoll
from tests.campaigns.systems.errant.test_checks import posted, table  # noqa: F401

pytestmark = pytest.mark.django_db

# The session, the user, the Errant; its sheet's gear lines, trainings, lasting wounds, XP
# and coins; then
# make_roll's savepoint (in a test's transaction), the Errant locked, the request key, the
# session, the roll's savepoint, insert and release, make_roll's release; then the recent
# rolls. The sheet is computed once: make_roll rolls with the page's (a roll writes nothing
# it reads). The current session is read once: the htmx answer (the panel) does not show it.
CHECK_QUERIES = 17
ODDS_QUERIES = 8  # the sheet's inputs, the lasting wounds among them


def url(table, name):  # noqa: F811
    return reverse(f"characters:{name}", args=[table["wren"].pk])


def count(client, path, data) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as queries:
        response = client.post(path, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return len(queries), response.content.decode()


def test_a_check_and_its_odds_are_flat_in_rolls_and_sessions(client, table):  # noqa: F811
    client.force_login(table["player"])
    first, body = count(client, url(table, "errant_roll"), posted(request_key="a" * 32))
    assert 'id="roll-result"' in body
    odds, body = count(client, url(table, "errant_roll_odds"), posted(dv="2"))
    assert 'data-odds="success"' in body
    for _ in range(10):
        services.session_start(campaign=table["campaign"], by=table["guide"])
    for n in range(30):
        client.post(url(table, "errant_roll"), posted(request_key=f"{n:032x}"),
                    HTTP_HX_REQUEST="true")
    assert ErrantRoll.objects.count() == 31
    later, body = count(client, url(table, "errant_roll"), posted(request_key="b" * 32))
    assert 'id="roll-result"' in body
    assert first == later == CHECK_QUERIES
    with CaptureQueriesContext(connection) as queries:
        client.post(url(table, "errant_roll"), posted(request_key="c" * 32),
                    HTTP_HX_REQUEST="true")
    gear_reads = [q for q in queries.captured_queries
                  if 'FROM "characters_inventoryitem"' in q["sql"]]
    assert len(gear_reads) == 1  # one sheet a roll
    assert count(client, url(table, "errant_roll_odds"), posted(dv="2"))[0] == odds \
        == ODDS_QUERIES
