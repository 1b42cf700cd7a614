"""METTLE Core's printed sheet: our own one-page design that uses the whole page on A4
and on Letter, with large pencil boxes for Mettle, Credit lost and XP, ruled lines for
Backstories, Contacts and gear, and the CC BY 4.0 attribution line. The PDFs are read with
poppler (tests/characters/pdf_tools.py) and kept as PNGs in artifacts/print/ to look at."""

import pytest
from django.urls import reverse

from characters.systems.mettle.forms import GEAR_NAME_LENGTH
from characters.systems.mettle.models import CreditEntry
from characters.systems.mettle.printing import printed_sheet
from rules.engine.mettle.data import ATTRIBUTION
from tests.characters import pdf_tools

from .helpers import make_viktor

MM_PER_PT = 25.4 / 72
PAPER_MM = {"a4": (297, 210), "letter": (279.4, 215.9)}


@pytest.fixture
def player(client, user):
    client.force_login(user)
    return client


def pdf_of(player, character, paper: str) -> bytes:
    response = player.get(reverse("characters:sheet_pdf", args=[character.pk]),
                          {"paper": paper})
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    return response.content


def word_boxes(content: bytes) -> list[tuple[str, float, float, float, float]]:
    """Every word with its box in mm from the page's top left corner."""
    import re
    import subprocess

    out = subprocess.run(["pdftotext", "-bbox", "-", "-"], input=content, check=True,
                         capture_output=True, timeout=60).stdout.decode()
    found = re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" '
                       r'yMax="([\d.]+)">(.*?)</word>', out)
    return [(text, *(float(v) * MM_PER_PT for v in box)) for *box, text in found]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_one_page_that_uses_the_whole_paper(player, user, paper):
    viktor = make_viktor(user, backstories=["Raised in Odesa (Russian)"])
    content = pdf_of(player, viktor, paper)
    pdf_tools.png(content, f"mettle-sheet-{paper}", 60)
    assert pdf_tools.pages(content) == 1
    width, height = (float(v) * MM_PER_PT for v in
                     pdf_tools.info(content)["Page size"].split()[:3:2])
    assert (round(width), round(height)) == tuple(round(v) for v in PAPER_MM[paper])
    words = word_boxes(content)
    left = min(w[1] for w in words)
    right = max(w[3] for w in words)
    bottom = max(w[4] for w in words)
    # Within the 8 mm margins, and out to them: the sheet is as wide as the printable
    # area (less a few mm) and reaches the bottom (the attribution line at the foot).
    assert left >= 7.5 and right <= width - 7.5
    assert right - left >= width - 16 - 20, (left, right)
    assert bottom >= height - 8 - 15, bottom
    text = pdf_tools.flat(content)
    for words_ in ("Viktor", "CONCEPT", "Itinerant gambler", "Current", "Credit lost",
                   "XP", "Backstories", "Raised in Odesa (Russian)", "Contacts", "Oleg",
                   "Gear", "Pocket watch and fob", "Sword cane", "5D", "Staggered",
                   "Creative Commons Attribution 4.0"):
        assert words_.casefold() in text.casefold(), words_  # labels print in capitals
    # The footer's attribution is the SRD's own line.
    assert " ".join(ATTRIBUTION.split()[:12]) in text


def test_what_the_pencil_changed_is_printed_in_its_box(player, user):
    viktor = make_viktor(user, mettle_current=4)
    CreditEntry.objects.create(character=viktor, kind=CreditEntry.Kind.PURCHASE, change=1)
    body = player.get(reverse("characters:print", args=[viktor.pk])).content.decode()
    assert '<span class="m-pencil m-pencil-big">4</span>' in body
    assert '<span class="m-pencil m-pencil-big">1</span>' in body
    fresh = make_viktor(user, name="Fresh")
    body = player.get(reverse("characters:print", args=[fresh.pk])).content.decode()
    assert body.count('<span class="m-pencil m-pencil-big"></span>') == 3  # Mettle, Credit, XP


def test_the_printed_numbers_are_the_engines(user):
    viktor = make_viktor(user)
    printed = printed_sheet(viktor)
    assert len(printed["mettle_boxes"]) == printed["sheet"].value("mettle_max") == 9
    raises = {key: cost.value for key, _, _, cost, _ in printed["attributes"]}
    assert raises == {key: printed["sheet"].value(f"raise_cost_{key}") for key in raises}
    assert raises["concept"] == 10 and raises["poise"] == 5  # CH §Spending XP: 2 x 5, 5
    assert len(printed["weapon_blanks"]) == 5  # one weapon, six rows


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_print_page_offers_both_papers(player, user, paper):
    viktor = make_viktor(user)
    body = player.get(reverse("characters:print", args=[viktor.pk]),
                      {"paper": paper}).content.decode()
    assert f'<html lang="en" class="paper-{paper}">' in body
    assert "mettle-print.css" in body and 'class="m-sheet"' in body


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_most_a_sheet_can_hold_prints_on_one_page(player, user, paper):
    """The builder's limits (20 lines of 200 characters, 120-character Descriptors and
    gear names):
    smaller type, then a last line counting what the page could not hold."""
    long = "a long tale of cards and trains, " * 6
    viktor = make_viktor(
        user, credit=9, contacts=[f"Contact {n}: {long}"[:200] for n in range(20)],
        backstories=[f"Backstory {n}: {long}"[:200] for n in range(20)],
        concept_descriptor="An itinerant gambler " * 5,
        gear=[{"name": f"Gear line {n} {long}"[:GEAR_NAME_LENGTH], "load": None,
               "quantity": 2}
              for n in range(20)])
    content = pdf_of(player, viktor, paper)
    pdf_tools.png(content, f"mettle-sheet-full-{paper}", 60)
    assert pdf_tools.pages(content) == 1
    text = pdf_tools.flat(content)
    assert "Contact 0:" in text and "Backstory 0:" in text and "Gear line 0" in text
    assert "more on the character's page" in text
    assert "Creative Commons Attribution 4.0" in text


def test_a_box_takes_the_largest_type_that_holds_it():
    from characters.printing import NORMAL, SMALL, TINY
    from characters.systems.mettle.printing import CONTACTS, GEAR, fit_list

    assert fit_list(["Oleg", "Samuelson"], CONTACTS).size == NORMAL
    assert fit_list([f"Contact {n}" for n in range(9)], CONTACTS).size == SMALL
    assert fit_list([f"Contact {n}" for n in range(11)], CONTACTS).size == TINY
    crowded = fit_list(["x" * 200] * 20, CONTACTS)
    assert crowded.size == TINY and 0 < len(crowded.lines) < 20
    assert crowded.more == 20 - len(crowded.lines)
    assert fit_list([f"Gear line {n} with a longish name" for n in range(20)],
                    GEAR).more == 0


def test_the_partys_pdf_has_one_full_page_per_character(client, user):
    from characters.models import Character
    from tests.factories import CampaignFactory, MembershipFactory

    campaign = CampaignFactory(system="mettle-core")
    MembershipFactory(campaign=campaign, user=user)
    for name in ("Viktor", "Vera"):
        character = make_viktor(user, name=name)
        Character.objects.filter(pk=character.pk).update(campaign=campaign)
    client.force_login(campaign.owner)
    response = client.get(reverse("campaigns:party_pdf", args=[campaign.pk]),
                          {"paper": "letter"})
    assert response.status_code == 200
    assert pdf_tools.pages(response.content) == 2
    words = word_boxes(response.content)
    assert max(w[4] for w in words) >= 215.9 - 8 - 15
