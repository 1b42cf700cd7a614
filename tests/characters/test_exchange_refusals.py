"""Import refusals for hostile bodies: a key named twice, a paste over Django's upload
limit. Each gets its message beside the field, never a bare error page."""

import json
import re

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from characters import exchange
from characters.models import Character
from tests.characters.test_exchange import asphodel_file
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner(db):
    return UserFactory()


def errors_slot(content: bytes, field: str) -> bytes:
    return re.search(rb'id="errors-' + field.encode() + rb'".*?</div>\s*</div>', content,
                     re.S).group()


# A key named twice


@pytest.mark.parametrize(("raw", "key"), [
    ('{"level": 1, "name": "A", "level": 100}', '"level"'),
    ('{"level": 1, "level": 1}', '"level"'),  # the same value twice is still ambiguous
    ('{"template": {"name": "Human", "traits": [{"name": "Size", "name": "Huge"}]}}',
     '"name"'),
    ('{"gear": [{"id": "g1", "quantity": 1, "quantity": 9000}]}', '"quantity"'),
    ('{"caf\\u00e9": 1, "café": 2}', '"café"'),  # equal once decoded
])
def test_parse_refuses_a_key_named_twice_and_names_it(raw, key):
    with pytest.raises(ValidationError) as caught:
        exchange.parse(raw.encode())
    assert caught.value.code == "duplicate_key"
    assert f"names the key {key} twice" in caught.value.messages[0]


def test_a_long_duplicated_key_is_shortened_in_the_message():
    key = "k" * 5000
    with pytest.raises(ValidationError) as caught:
        exchange.parse(json.dumps({key: 1}).replace("}", f', "{key}": 2}}'))
    message = caught.value.messages[0]
    assert f'"{"k" * 60}"…' in message
    assert len(message) < 200


def test_the_same_key_in_different_objects_is_fine():
    data = exchange.parse(b'{"a": {"name": 1}, "b": {"name": 2}}')
    assert data == {"a": {"name": 1}, "b": {"name": 2}}


def test_the_import_view_shows_the_duplicate_beside_the_text_and_keeps_it(client, owner):
    pasted = json.dumps(asphodel_file(), indent=2).replace(
        '"level": ', '"xp": 5,\n  "xp": 7,\n  "level": ', 1)
    client.force_login(owner)

    response = client.post(reverse("characters:import"), {"text": pasted})

    assert response.status_code == 200
    assert Character.objects.count() == 0
    assert [e.code for e in response.context["form"].errors.as_data()["text"]] == [
        "duplicate_key"]
    assert escape('names the key "xp" twice').encode() in errors_slot(response.content, "text")
    textarea = re.search(rb"<textarea[^>]*>(.*?)</textarea>", response.content, re.S).group(1)
    assert escape(pasted).encode() in textarea


# A paste over DATA_UPLOAD_MAX_MEMORY_SIZE


def too_big_text() -> str:
    return " " * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1) + "{}"


@pytest.mark.parametrize("enforce_csrf", [False, True])
def test_a_paste_over_the_upload_limit_gets_the_forms_message(owner, enforce_csrf):
    """With CSRF checks on, the middleware reads the body first and Django refuses it
    there; without, the view does: both end in the form, with the message by the text."""
    client = Client(enforce_csrf_checks=enforce_csrf)
    client.force_login(owner)
    token = client.get(reverse("characters:import")).cookies["csrftoken"].value

    response = client.post(reverse("characters:import"),
                           {"csrfmiddlewaretoken": token, "text": too_big_text()})

    assert response.status_code == 413
    assert Character.objects.count() == 0
    limit = f"{settings.DATA_UPLOAD_MAX_MEMORY_SIZE / 1024 / 1024:g}"
    slot = errors_slot(response.content, "text")
    assert f"The pasted text is over {limit} MB".encode() in slot
    assert b"upload the file instead" in slot
    assert b'<textarea name="text"' in response.content
    assert b'name="csrfmiddlewaretoken"' in response.content


def test_a_paste_just_under_the_upload_limit_gets_the_1_mb_message_and_is_kept(client,
                                                                               owner):
    client.force_login(owner)
    pasted = " " * (exchange.MAX_BYTES + 1) + "{}"

    response = client.post(reverse("characters:import"), {"text": pasted})

    assert response.status_code == 200
    assert [e.code for e in response.context["form"].errors.as_data()["text"]] == [
        "too_large"]


def test_anonymous_over_the_limit_is_sent_to_log_in_or_gets_the_plain_400(client):
    # The view's login check comes first when nothing read the body before it...
    response = client.post(reverse("characters:import"), {"text": too_big_text()})
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    # ...and when the CSRF check read it first, there is no form of theirs to show.
    browser = Client(enforce_csrf_checks=True)
    token = browser.get(reverse("login")).cookies["csrftoken"].value
    response = browser.post(reverse("characters:import"),
                            {"csrfmiddlewaretoken": token, "text": too_big_text()})
    assert response.status_code == 400
    assert b"pasted text" not in response.content


def test_other_views_over_the_limit_keep_djangos_400(client, owner):
    client.force_login(owner)
    response = client.post(reverse("characters:create"), {"name": too_big_text()})
    assert response.status_code == 400
