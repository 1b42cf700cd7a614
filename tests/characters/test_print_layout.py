"""characters/printing.py without a PDF: the paper from the browser's language, and how
boxes are filled (normal type, small type in two columns, the rest moved on)."""

from io import StringIO

import pytest
from django.core.management import call_command

from characters import printing
from characters.printing import Box, Entry, fit_entries, fit_line, fit_text
from characters.systems.eldritch_gambit import printing as sheet_layout


@pytest.mark.parametrize(("header", "paper"), [
    ("en-US,en;q=0.9", "letter"),
    ("en-CA", "letter"),
    ("es-MX,es;q=0.8", "letter"),
    ("fil-PH", "letter"),
    ("en-GB,en;q=0.9", "a4"),
    ("fr-FR,fr;q=0.9,en-US;q=0.5", "a4"),  # the preferred language decides
    ("de;q=0.5,en-US;q=0.9", "letter"),  # by quality, not by position
    ("en", "a4"),  # no region anywhere: the world's default
    ("en,en-US;q=0.7", "letter"),  # a language without a region does not decide
    ("zh-Hant-TW", "a4"),  # the region after a script subtag
    ("", "a4"),
    ("*", "a4"),
    ("en-US;q=0,fr-CA;q=0.3", "letter"),  # q=0 means "not this one"
    ("garbage;;,,", "a4"),
])
def test_the_paper_follows_the_region_of_the_preferred_language(header, paper):
    assert printing.paper_from_accept_language(header).key == paper


def test_the_query_overrides_the_language(rf):
    request = rf.get("/", {"paper": "a4"}, headers={"accept-language": "en-US"})
    assert printing.paper_for(request).key == "a4"
    request = rf.get("/", {"paper": "legal"}, headers={"accept-language": "en-US"})
    assert printing.paper_for(request).key == "letter"  # unknown: the language decides


BOX = Box(width=66, height=48, columns_small=2)  # 10 normal lines, 13 small per column


def entries(n, text="Rope (10m)"):
    return [Entry(f"{text} {i}") for i in range(n)]


def test_few_entries_stay_in_normal_type_with_blank_lines_left():
    fitted = fit_entries(entries(4), BOX)

    assert fitted.size == "normal"
    assert len(fitted.columns) == 1
    assert fitted.blank_lines == [6]
    assert not fitted.rest


def test_more_entries_go_small_in_two_columns_and_all_stay():
    fitted = fit_entries(entries(20), BOX)

    assert fitted.size == "small"
    assert len(fitted.columns) == 2
    assert [len(c) for c in fitted.columns] == [10, 10]
    assert fitted.entries == entries(20)
    assert not fitted.rest


def test_what_does_not_fit_moves_on_in_order_and_one_line_says_so():
    fitted = fit_entries(entries(40), BOX)

    shown = fitted.entries
    assert len(shown) == 25  # 13 + 12: the last line says "N more on page 2"
    assert shown + fitted.rest == entries(40)
    assert fitted.blank_lines == [0, 0]


def test_a_long_name_counts_for_the_lines_it_wraps_to():
    fitted = fit_entries([Entry("x" * 100)] + entries(3), BOX)

    assert fitted.size == "normal"
    assert fitted.blank_lines == [10 - 3 - 3]  # 100 characters wrap to 3 lines


def test_a_long_description_shrinks_then_continues_on_page_two():
    box = sheet_layout.DESCRIPTION
    assert fit_text("A short one.", box).size == "normal"
    medium = fit_text("word " * 60, box)
    assert medium.size in ("small", "tiny") and not medium.rest

    text = " ".join(f"word{n}" for n in range(400))
    fitted = fit_text(text, box)

    assert fitted.rest
    assert fitted.text + " " + fitted.rest == text  # cut at a space, nothing lost
    assert fitted.size == "tiny"


def test_a_long_concept_line_shrinks_then_continues():
    assert fit_line("Vengeful Dragon Slayer", 86).size == "normal"
    assert fit_line("x " * 60, 86).size in ("small", "tiny")
    fitted = fit_line("word " * 60, 44)
    assert fitted.rest and (fitted.text + " " + fitted.rest).split() == ["word"] * 60


def test_the_bench_prints_the_pdf_times_beside_the_print_html(db):
    out = StringIO()
    call_command("bench", requests=1, warmup=0, stdout=out)
    output = out.getvalue()

    rows = {}
    for label in ("GET characters:print (HTML, baseline)",
                  "GET characters:sheet_pdf (1 character)",
                  "GET campaigns:party_pdf (8 characters)"):
        line = next(line for line in output.splitlines() if line.startswith(label))
        rows[label] = line[len(label):].split()
    median, cpu, pages, size, ratio = rows["GET campaigns:party_pdf (8 characters)"]
    assert float(median) > 0 and float(cpu) > 0 and int(size) > 0
    assert pages == "8"
    assert rows["GET characters:sheet_pdf (1 character)"][2] == "1"
    assert rows["GET characters:print (HTML, baseline)"][4] == "1.0x"
    assert "aim:" not in output  # the bench measures; targets come from the load benchmark


def test_a_weapon_line_takes_the_lines_of_its_longer_column():
    weapon = Entry("Spear", weapon_notes="Reach, Range 1, Reload 2, Superior, Thrown, Two-handed")

    fitted = fit_entries([weapon], sheet_layout.WEAPONS,
                         notes_width=sheet_layout.WEAPON_NOTES_WIDTH)

    assert fitted.blank_lines == [6 - 2]  # the notes wrap to two lines
