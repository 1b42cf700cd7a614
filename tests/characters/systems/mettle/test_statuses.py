"""A METTLE character's statuses (issue #13, AMB-M-STAT-1): the owner sets the lasting ones
in the builder, each problem said beside the field with the ticks kept; the sheet page and
the printed sheet show them with their effects; a Staggered character is not Fallen."""

import re

import pytest
from django.urls import reverse

from characters.systems.mettle.models import MettleCharacter
from characters.systems.mettle.printing import printed_sheet
from tests.characters import pdf_tools
from tests.factories import UserFactory

from .helpers import make_viktor, posted

pytestmark = pytest.mark.django_db


@pytest.fixture
def player(client, user):
    client.force_login(user)
    return client


def ticked(body: str, key: str) -> bool:
    return bool(re.search(rf'<input type="checkbox" name="statuses" value="{key}"[^>]*checked',
                          body))


def edit(player, character, **changes):
    statuses = changes.pop("statuses", [])
    data = posted(**changes)
    data["statuses"] = statuses
    return player.post(reverse("characters:edit", args=[character.pk]), data)


def test_the_owner_sets_statuses_and_the_page_shows_their_effects(player, user):
    viktor = make_viktor(user)
    response = edit(player, viktor, mettle_current=-2, statuses=["staggered", "blinded"])
    assert response.status_code == 302
    viktor.refresh_from_db()
    assert sorted(viktor.statuses) == ["blinded", "staggered"]
    body = player.get(viktor.get_absolute_url()).content.decode()
    assert 'data-status="staggered"' in body and 'data-status="blinded"' in body
    assert 'data-status="fallen"' not in body  # Staggered, not Fallen
    assert "-1D to Checks per point of negative Mettle" in body
    assert "other Checks +3 Difficulty" in body
    # The builder shows them ticked; unticking clears them.
    form = player.get(reverse("characters:edit", args=[viktor.pk])).content.decode()
    assert ticked(form, "staggered") and ticked(form, "blinded")
    assert not ticked(form, "afflicted")
    assert edit(player, viktor, mettle_current=-2).status_code == 302
    viktor.refresh_from_db()
    assert viktor.statuses == []
    body = player.get(viktor.get_absolute_url()).content.decode()
    assert 'data-status="fallen"' in body  # Mettle -2 without Staggered: Fallen


@pytest.mark.parametrize(("mettle", "statuses", "message"), [
    ("", ["staggered"], "Staggered lasts only while Mettle is 0 or below"),
    ("3", ["staggered", "afflicted"], "Staggered lasts only while Mettle is 0 or below"),
    ("-1", ["nonsense"], "Choose statuses from the list."),
    ("-1", ["fallen"], "Choose statuses from the list."),
    ("-1", ["<script>alert(1)</script>"], "Choose statuses from the list."),
])
def test_a_refused_status_is_said_beside_the_field_and_the_ticks_kept(player, user, mettle,
                                                                      statuses, message):
    viktor = make_viktor(user)
    response = edit(player, viktor, mettle_current=mettle, statuses=statuses)
    body = response.content.decode()
    assert response.status_code == 200 and message in body
    assert 'id="errors-statuses"' in body
    assert "<script>alert(1)</script>" not in body
    if "afflicted" in statuses:
        assert ticked(body, "afflicted") and ticked(body, "staggered")
    assert MettleCharacter.objects.get(pk=viktor.pk).statuses == []


def test_another_player_cannot_set_statuses(client, user):
    viktor = make_viktor(user)
    client.force_login(UserFactory())
    response = edit(client, viktor, mettle_current=-2, statuses=["staggered"])
    assert response.status_code == 404
    assert MettleCharacter.objects.get(pk=viktor.pk).statuses == []


def test_anonymous_cannot_set_statuses(client, user):
    viktor = make_viktor(user)
    response = edit(client, viktor, mettle_current=-2, statuses=["staggered"])
    assert response.status_code == 302 and "/login/" in response.url
    assert MettleCharacter.objects.get(pk=viktor.pk).statuses == []


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_printed_sheet_ticks_the_statuses_and_says_what_they_do(player, user, paper):
    viktor = make_viktor(user, mettle_current=-3)
    MettleCharacter.objects.filter(pk=viktor.pk).update(
        statuses=["afflicted", "blinded", "burning", "deafened", "staggered", "dead"])
    viktor = MettleCharacter.objects.get(pk=viktor.pk)
    printed = printed_sheet(viktor)
    assert printed["status_boxes"][:4] == ("staggered", "fallen", "rattled", "encumbered")
    assert [key for key, _, _ in printed["status_notes"]] == [
        "afflicted", "blinded", "burning", "dead", "deafened", "staggered"]
    body = player.get(reverse("characters:print", args=[viktor.pk])).content.decode()
    assert 'class="m-box-check m-ticked" data-status-box="staggered"' in body
    assert 'class="m-box-check" data-status-box="fallen"' in body
    response = player.get(reverse("characters:sheet_pdf", args=[viktor.pk]), {"paper": paper})
    content = response.content
    pdf_tools.png(content, f"mettle-sheet-statuses-{paper}", 60)
    assert pdf_tools.pages(content) == 1
    assert "Afflicted:" in pdf_tools.flat(content)
