"""The live preview reads only the ledgers its game's builder shows. Whether a character
ever played in a campaign matters to Eldritch Gambit's builder alone (its Level and XP
turn read-only: docs/RULES.md, "Level and XP after a campaign"); the other games'
previews never ask it, on any keystroke."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from characters.models import XpEntry
from tests.characters.test_preview_system_hint import GAMES, logged_in_owner

pytestmark = pytest.mark.django_db

HISTORY_QUESTION = '"characters_xpentry"."kind" IN'


def previewed(client, path, data):
    with CaptureQueriesContext(connection) as queries:
        response = client.post(path, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return [query["sql"] for query in queries.captured_queries]


@pytest.mark.parametrize("key", [key for key in GAMES if key != "eldritch-gambit"])
def test_other_games_previews_never_ask_about_campaigns(client, key):
    character, path, posted = logged_in_owner(client, key)
    sql = previewed(client, path, posted())
    assert not any(HISTORY_QUESTION in query for query in sql), sql


def test_eldritch_gambits_preview_asks_once_and_reads_the_ledger_once(client):
    """A character that left a campaign: its Level is the ledger's (read-only, whatever
    is posted), its Level and XP sums read in one query."""
    character, path, posted = logged_in_owner(client, "eldritch-gambit")
    ledger_level = character.level + 2
    XpEntry.objects.create(character=character, kind=XpEntry.Kind.LEFT)
    XpEntry.objects.create(character=character, kind=XpEntry.Kind.IMP_ADJUSTMENT,
                           level_change=2, xp_change=7)
    data = {**posted(), "level": "3", "xp": "999"}
    sql = previewed(client, path, data)
    assert sum(HISTORY_QUESTION in query for query in sql) == 1
    assert sum('SUM("characters_xpentry"."xp_change")' in query for query in sql) == 1
    body = client.post(path, data, HTTP_HX_REQUEST="true").content.decode()
    assert f'aria-label="Level {ledger_level}: show how it is computed"' in body
