"""The tiny system's character file: its body (the interface rules.systems documents) and,
once the generic envelope reads every system's format (characters/exchange.py), a round
trip through it."""

import json

import pytest
from django.core.exceptions import ValidationError

from characters import exchange
from tests.tiny_system.fixtures import make_tiny
from tests.tiny_system.models import TinyCharacter
from tests.tiny_system.system import FORMAT, game_system

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("tiny")]

ENVELOPE = hasattr(exchange, "character_export") and hasattr(exchange, "ExchangeError")
needs_envelope = pytest.mark.skipif(not ENVELOPE, reason="the per-system envelope "
                                    "(characters/exchange.py, helper D) has not landed")


def test_the_body_round_trips(user, other_user):
    body = game_system().exchange.export_body(make_tiny(user, name="Pip", grit=4, wits=1))
    assert body == {"name": "Pip", "grit": 4, "wits": 1, "derived": {"toughness": 9}}
    copy = game_system().exchange.import_body(owner=other_user, data=body, version=1)
    assert isinstance(copy, TinyCharacter)
    assert (copy.owner, copy.name, copy.grit, copy.wits) == (other_user, "Pip", 4, 1)


@pytest.mark.parametrize("data", [{"grit": 11, "wits": 1}, {"grit": True, "wits": 1},
                                  {"grit": "3", "wits": 1}, {"wits": 1},
                                  {"name": 5, "grit": 1, "wits": 1}])
def test_a_bad_body_is_refused_by_key(user, data):
    with pytest.raises(ValidationError) as refused:
        game_system().exchange.import_body(owner=user, data=data, version=1)
    assert any(message.split(":")[0] in ("grit", "name") for message in refused.value.messages)
    assert not TinyCharacter.objects.exists()


@needs_envelope
def test_export_and_import_through_the_envelope(client, user, other_user):
    character = make_tiny(user, name="Pip", grit=4, wits=1)
    client.force_login(user)
    response = client.get(f"/characters/{character.pk}/export/")
    data = json.loads(response.content)
    assert data == {"format": FORMAT, "version": 1, "name": "Pip", "grit": 4, "wits": 1,
                    "derived": {"toughness": 9}}
    client.force_login(other_user)
    response = client.post("/characters/import/", {"text": json.dumps(data)})
    copy = TinyCharacter.objects.get(owner=other_user)
    assert response.status_code == 302 and (copy.grit, copy.wits) == (4, 1)
