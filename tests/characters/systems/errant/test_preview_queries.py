"""The Errant builder's live preview (a POST on every keystroke) reads a stored Errant in a
fixed number of queries, whatever it carries, and each ledger sum once."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns import services as campaign_services
from characters.systems.errant.builds import kit_lines
from tests.factories import CampaignFactory, MembershipFactory

from .helpers import make_wren, posted

pytestmark = pytest.mark.django_db

# The session, the user, the character's game system and then the Errant (get_built),
# its inventory lines, its XP ledger's sum, its trainers' raises, its lasting wounds, its
# coin ledger's sum:
# in a campaign or not (Errant's builder never asks whether it played in one, which only
# Eldritch Gambit's builder needs to know: its Level and XP).
PREVIEW_QUERIES = 9
HISTORY_QUESTION = '"characters_xpentry"."kind" IN'


def preview(client, errant, data) -> tuple[list[str], str]:
    with CaptureQueriesContext(connection) as queries:
        response = client.post(reverse("characters:preview", args=[errant.pk]), data)
    assert response.status_code == 200
    return [q["sql"] for q in queries.captured_queries], response.content.decode()


@pytest.mark.parametrize("kits", [1, 3])
def test_the_preview_reads_an_errant_in_no_campaign_in_fixed_queries(client, user, kits):
    gear = kit_lines("violent", "small_shield") * kits
    errant = make_wren(user, gear=gear)
    client.force_login(user)
    sql, body = preview(client, errant, posted(gear=gear))
    assert len(sql) == PREVIEW_QUERIES, sql
    assert sum('SUM("characters_xpentry"."xp_change")' in s for s in sql) == 1
    assert not any(HISTORY_QUESTION in s for s in sql)
    assert 'data-stat="slots_filled"' in body


def test_the_preview_reads_an_errant_in_a_campaign_in_fixed_queries(client, user):
    campaign = CampaignFactory(system="errant")
    MembershipFactory(campaign=campaign, user=user)
    errant = make_wren(user)
    campaign_services.character_join(campaign=campaign, character=errant, by=user)
    client.force_login(user)
    sql, body = preview(client, errant, posted())
    assert len(sql) == PREVIEW_QUERIES, sql
    assert sum('"characters_xpentry"."xp_change"' in s for s in sql) == 1
    assert 'data-stat="slots_filled"' in body
