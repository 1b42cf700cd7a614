"""Rendered PDFs are kept in the shared cache (CACHES["pdfs"]) by what they show: the same
sheet is rendered once, whoever asks; any change that shows on it (a name, an item, XP, a
portrait, the paper) is rendered again and never served from before; at most PDF_RENDERS
PDFs render at once, and one that waits too long gets "busy, try again"."""

import os

import pytest
from django.core.cache import caches
from django.urls import reverse

from characters import printing
from tests.characters.test_print_portrait import picture, upload
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    InventoryItemFactory,
    MembershipFactory,
    XpEntryFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def renders(monkeypatch):
    """The PDFs actually rendered (not served from the cache), as a list of bytes."""
    caches["pdfs"].clear()
    rendered = []
    real = printing.render_pdf

    def counting(html, *, portraits=None):
        rendered.append(real(html, portraits=portraits))
        return rendered[-1]

    monkeypatch.setattr(printing, "render_pdf", counting)
    return rendered


def pdf(client, url):
    response = client.get(url)
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "application/pdf"
    return response.content


def test_the_same_sheet_is_rendered_once_for_everyone(client, renders):
    campaign = CampaignFactory()
    character = CharacterFactory(campaign=campaign, name="Quill")
    url = reverse("characters:sheet_pdf", args=[character.pk])
    client.force_login(character.owner)
    first = pdf(client, url)
    assert pdf(client, url) == first  # a new CSP nonce each time: not part of the key
    client.force_login(campaign.owner)  # the Imp sees the same sheet
    assert pdf(client, url) == first
    assert len(renders) == 1


def test_any_change_that_shows_renders_again_and_never_serves_the_old_pdf(client, renders):
    character = CharacterFactory(name="Quill")
    url = reverse("characters:sheet_pdf", args=[character.pk])
    client.force_login(character.owner)
    seen = [pdf(client, url)]
    character.name = "Quillon"
    character.save()
    seen.append(pdf(client, url))
    InventoryItemFactory(character=character, name="Lantern")
    seen.append(pdf(client, url))
    XpEntryFactory(character=character, xp_change=7)
    seen.append(pdf(client, url))
    assert len(renders) == 4
    assert len(set(seen)) == 4
    a4, letter = pdf(client, url + "?paper=a4"), pdf(client, url + "?paper=letter")
    assert a4 != letter and seen[-1] in (a4, letter)  # the default paper is one of them
    assert len(renders) == 5
    assert pdf(client, url + "?paper=a4") == a4  # nothing changed since: kept
    assert len(renders) == 5


def test_a_new_portrait_renders_again(client, renders):
    character = CharacterFactory(name="Framed")
    client.force_login(character.owner)
    url = reverse("characters:sheet_pdf", args=[character.pk])
    upload(client, character, picture("PNG", size=(60, 90)))
    first = pdf(client, url)
    # The same name and the same URL in the HTML: only the picture's bytes differ.
    upload(client, character, picture("PNG", size=(90, 60)))
    second = pdf(client, url)
    assert len(renders) == 2 and first != second


def test_the_party_pdf_is_kept_and_follows_each_character(client, renders):
    campaign = CampaignFactory()
    party = [CharacterFactory(campaign=campaign, name=f"Hero {i}",
                              owner=MembershipFactory(campaign=campaign).user)
             for i in range(3)]
    client.force_login(campaign.owner)
    url = reverse("campaigns:party_pdf", args=[campaign.pk])
    first = pdf(client, url)
    assert pdf(client, url) == first and len(renders) == 1
    InventoryItemFactory(character=party[2], name="Grappling hook")
    assert pdf(client, url) != first and len(renders) == 2


def test_a_pdf_that_waits_too_long_for_a_turn_is_told_to_try_again(client, renders,
                                                                  settings):
    settings.PDF_WAIT_SECONDS = 0
    character = CharacterFactory(name="Quill")
    client.force_login(character.owner)
    url = reverse("characters:sheet_pdf", args=[character.pk])
    with printing.render_turn():  # every turn taken (PDF_RENDERS is 1)
        busy = client.get(url)
    assert busy.status_code == 503 and busy["Retry-After"]
    assert "try again" in busy.content.decode()
    assert renders == []
    pdf(client, url)  # the turn is free again
    assert len(renders) == 1


def test_with_a_renderer_process_the_pdf_is_rendered_there(client, settings, monkeypatch):
    settings.PDF_RENDER_PROCESS = True
    caches["pdfs"].clear()
    def not_here(html, *, portraits=None):
        raise AssertionError("rendered in the server's process")

    monkeypatch.setattr(printing, "render_pdf", not_here)
    character = CharacterFactory(name="Elsewhere")
    client.force_login(character.owner)
    url = reverse("characters:sheet_pdf", args=[character.pk])
    first = pdf(client, url)
    assert first.startswith(b"%PDF")
    assert pdf(client, url) == first  # kept


def test_the_renderer_process_runs_at_a_lower_cpu_priority(client, settings):
    """PDF_RENDER_NICE: the renderer yields the CPU to the server's requests."""
    settings.PDF_RENDER_PROCESS = True
    caches["pdfs"].clear()
    character = CharacterFactory(name="Patient")
    client.force_login(character.owner)
    assert pdf(client, reverse("characters:sheet_pdf", args=[character.pk])).startswith(b"%PDF")
    # The renderer reads the settings module as the server does (not overridden here).
    ours = os.nice(0)
    theirs = printing._renderer.submit(os.nice, 0).result()
    assert settings.PDF_RENDER_NICE > 0
    assert theirs == min(19, ours + settings.PDF_RENDER_NICE)


def test_pdfs_under_way_in_a_process_are_capped(client, renders, settings, monkeypatch):
    """PDF_REQUESTS_PER_PROCESS places: when every one is taken (by PDFs waiting for
    their turn), the next PDF is told to try again at once, holding no thread."""
    import threading

    monkeypatch.setattr(printing, "_in_process", threading.BoundedSemaphore(1))
    character = CharacterFactory(name="Quill")
    client.force_login(character.owner)
    url = reverse("characters:sheet_pdf", args=[character.pk])
    assert printing._pdf_place().acquire(blocking=False)  # a PDF under way
    try:
        busy = client.get(url)
    finally:
        printing._pdf_place().release()
    assert busy.status_code == 503 and renders == []
    pdf(client, url)
    assert len(renders) == 1
