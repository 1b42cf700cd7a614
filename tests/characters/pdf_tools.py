"""Reading the printed sheet's PDF in tests with Debian's poppler-utils: pdfinfo for the
pages, pdftotext for the text (and each word's place on the page), pdftoppm for a PNG
to look at."""

from __future__ import annotations

import html
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "print"
MM_PER_PT = 25.4 / 72
SHEET_WIDTH_MM = 263  # static/css/print.css: .sheet
PAGE_MARGIN_MM = 8  # templates/base_print.html: @page margin


def require_poppler() -> None:
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext is missing: apt-get install -y poppler-utils")


def _run(args: list[str], content: bytes) -> str:
    return subprocess.run(args, input=content, capture_output=True, check=True,
                          timeout=60).stdout.decode()


def info(content: bytes) -> dict[str, str]:
    require_poppler()
    out = _run(["pdfinfo", "-"], content)
    return {key.strip(): value.strip() for key, _, value in
            (line.partition(":") for line in out.splitlines()) if value}


def pages(content: bytes) -> int:
    return int(info(content)["Pages"])


def text(content: bytes, *, layout: bool = False) -> str:
    """The text in reading order (-raw keeps each box's lines together)."""
    require_poppler()
    return _run(["pdftotext", "-layout" if layout else "-raw", "-", "-"], content)


def flat(content: bytes) -> str:
    """The text with every run of white space made one space, so that words wrapped
    across lines still read as one phrase (and "man-" + "sized" as "man-sized")."""
    return re.sub(r"(?<=\w-) (?=\w)", "", re.sub(r"\s+", " ", text(content)))


@dataclass(frozen=True)
class Word:
    text: str
    x: float  # mm from the sheet's left edge
    y: float  # mm from the sheet's top edge
    page: int


WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="[\d.]+">'
                  r"(.*?)</word>")


def words(content: bytes, page: int = 1) -> list[Word]:
    """The words of a page with their place in mm on the sheet (the sheet is centred on
    the page: the same coordinates on Letter and A4)."""
    require_poppler()
    width_pt = float(info(content)["Page size"].split()[0])
    left = (width_pt * MM_PER_PT - SHEET_WIDTH_MM) / 2
    out = _run(["pdftotext", "-bbox", "-f", str(page), "-l", str(page), "-", "-"], content)
    return [Word(html.unescape(t), float(x) * MM_PER_PT - left,
                 float(y) * MM_PER_PT - PAGE_MARGIN_MM, page)
            for x, y, t in WORD.findall(out)]


def inside(found: list[Word], x0: float, x1: float, y0: float, y1: float) -> list[Word]:
    """The words that start inside a rectangle of the sheet (mm), top to bottom, left to
    right."""
    chosen = [w for w in found if x0 <= w.x < x1 and y0 <= w.y < y1]
    return sorted(chosen, key=lambda w: (round(w.y), w.x))


def line_of(found: list[Word], word: str, x0: float = 0, x1: float = 999) -> list[str]:
    """The words on the same line as the first `word` (within 1.5 mm), left to right."""
    anchor = next(w for w in found if w.text == word and x0 <= w.x < x1)
    return [w.text for w in sorted(found, key=lambda w: w.x)
            if abs(w.y - anchor.y) < 1.5 and x0 <= w.x < x1]


def png(content: bytes, name: str, resolution: int = 80) -> list[Path]:
    """Each page as artifacts/print/<name>-<n>.png (pdftoppm -png -r 80), to look at."""
    require_poppler()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pdf = ARTIFACTS / f"{name}.pdf"
    pdf.write_bytes(content)
    for old in ARTIFACTS.glob(f"{name}-*.png"):
        old.unlink()
    subprocess.run(["pdftoppm", "-png", "-r", str(resolution), str(pdf), str(ARTIFACTS / name)],
                   check=True, timeout=60)
    return sorted(ARTIFACTS.glob(f"{name}-*.png"))
