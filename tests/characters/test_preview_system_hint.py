"""The live preview's address names the character's game system (the builder's page
writes it), which saves the read of the system's name on every keystroke
(characters.models.get_built): a hint, never trusted. Each game's builder, as a
player's browser meets it."""

import html
import re
from urllib.parse import urlencode

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.characters.systems.encounters import helpers as encounters
from tests.characters.systems.errant import helpers as errant
from tests.characters.systems.mettle import helpers as mettle
from tests.characters.test_views import builder_data
from tests.factories import AsphodelFactory, UserFactory

pytestmark = pytest.mark.django_db


def asphodel(owner):
    return AsphodelFactory(owner=owner)


GAMES = {
    "eldritch-gambit": (asphodel, builder_data),
    "mettle-core": (mettle.make_viktor, mettle.posted),
    "errant": (errant.make_wren, errant.posted),
    "encounters": (encounters.make_sable, encounters.posted),
}


def preview_address(client, character) -> str:
    page = client.get(reverse("characters:edit", args=[character.pk])).content.decode()
    return html.unescape(re.search(r'hx-post="([^"]*/preview/[^"]*)"', page).group(1))


def logged_in_owner(client, key):
    """A character of game `key`, its owner logged in; its preview's plain address and
    the builder's posted data for it."""
    make, posted = GAMES[key]
    owner = UserFactory()
    character = make(owner)
    client.force_login(owner)
    return character, reverse("characters:preview", args=[character.pk]), posted


def post(client, path, data):
    with CaptureQueriesContext(connection) as queries:
        response = client.post(path, data, HTTP_HX_REQUEST="true")
    return response, len(queries)


@pytest.mark.parametrize("key", GAMES)
def test_the_builders_preview_names_its_game_and_reads_one_query_less(client, key):
    character, plain, posted = logged_in_owner(client, key)
    hinted = preview_address(client, character)
    assert hinted == f"{plain}?system={key}"
    for data in (posted(), {}):  # as typed, and a form with nothing in it
        with_hint, hint_queries = post(client, hinted, data)
        without, plain_queries = post(client, plain, data)
        assert with_hint.status_code == without.status_code == 200
        assert with_hint.content == without.content
        assert hint_queries == plain_queries - 1


@pytest.mark.parametrize("key", GAMES)
def test_a_wrong_or_hostile_hint_reads_the_system_as_before(client, key):
    _, plain, posted = logged_in_owner(client, key)
    expected, _ = post(client, plain, posted())
    other = next(k for k in GAMES if k != key)
    for hint in (other, "no-such-game", "' OR 1=1 --", "\x00", "é" * 500):
        response, _ = post(client, f"{plain}?{urlencode({'system': hint})}", posted())
        assert response.status_code == 200, hint
        assert response.content == expected.content, hint


@pytest.mark.parametrize("key", GAMES)
def test_the_hint_opens_no_one_elses_character(client, key):
    """Anonymous, another player and the owner, with the right hint."""
    make, posted = GAMES[key]
    character = make(UserFactory())
    path = f"{reverse('characters:preview', args=[character.pk])}?system={key}"
    anonymous = client.post(path, posted(), HTTP_HX_REQUEST="true")
    assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]
    client.force_login(UserFactory())
    assert client.post(path, posted(), HTTP_HX_REQUEST="true").status_code == 404
    client.force_login(character.owner)
    assert client.post(path, posted(), HTTP_HX_REQUEST="true").status_code == 200

