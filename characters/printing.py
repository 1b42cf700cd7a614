"""The print pipeline every game system's printed sheet goes through: the paper, fitting
text into a box, the page as HTML and the PDF.

A system's sheet layout (which line goes in which box) is its package's (Eldritch
Gambit's: characters/systems/eldritch_gambit/printing.py); its template serves the
browser's print view and WeasyPrint alike, so both show the same content.

Nothing can measure text on the server, so each box has a budget of lines and an
estimate of the characters that fit on a line (CHAR_WIDTH_EM, on the generous side).
A box first tries the normal type, then the small type in two columns; what still
does not fit moves to a continuation page, announced on the first page ("continued on
page 2"), so no text is ever cut off. The line budgets are the ones of print.css.
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import importlib.metadata
import math
import multiprocessing
import os
import re
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.cache import caches
from django.core.files.storage import default_storage
from django.template.loader import render_to_string
from django.utils.http import content_disposition_header

# -- paper ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Paper:
    key: str
    label: str
    css_size: str  # the @page size


PAPERS = {
    "letter": Paper("letter", "US Letter (11 x 8.5 in)", "letter landscape"),
    "a4": Paper("a4", "A4 (297 x 210 mm)", "A4 landscape"),
}
# Where Letter is the usual paper (the Americas that use it, and the Philippines);
# everywhere else A4. Decided by the region of the browser's preferred language.
LETTER_REGIONS = frozenset({
    "US", "CA", "MX", "PH", "PR", "CL", "CO", "VE", "GT", "CR", "PA", "DO", "SV", "NI",
    "BZ", "HN",
})
LANGUAGE_RANGE = re.compile(r"^\s*([A-Za-z]{1,8})(?:[-_]([A-Za-z0-9]{1,8}))*\s*$")


def paper_from_accept_language(header: str) -> Paper:
    """Letter when the browser's most preferred language that names a region names a
    Letter region (en-US, es-MX, fr-CA, fil-PH ...), else A4. A language without a
    region (plain "en") does not decide; no region at all means A4."""
    ranges = []
    for position, part in enumerate(header.split(",")):
        tag, _, params = part.partition(";")
        quality = 1.0
        match = re.search(r"q\s*=\s*([0-9.]+)", params)
        if match:
            try:
                quality = float(match.group(1))
            except ValueError:
                quality = 0.0
        if quality > 0 and LANGUAGE_RANGE.match(tag):
            ranges.append((-quality, position, tag.strip()))
    for _, _, tag in sorted(ranges):
        subtags = re.split(r"[-_]", tag)[1:]
        regions = [s.upper() for s in subtags if len(s) == 2 and s.isalpha()]
        if regions:
            return PAPERS["letter"] if regions[0] in LETTER_REGIONS else PAPERS["a4"]
    return PAPERS["a4"]


def paper_for(request) -> Paper:
    """?paper=letter|a4 if given, else from the browser's Accept-Language."""
    chosen = request.GET.get("paper", "")
    if chosen in PAPERS:
        return PAPERS[chosen]
    return paper_from_accept_language(request.headers.get("Accept-Language", ""))


# -- fitting text into boxes ------------------------------------------------------------

# DejaVu Serif Condensed averages about 0.47 em a character in English text: a little
# more leaves room for capitals and wide letters.
CHAR_WIDTH_EM = 0.52
PT_TO_MM = 25.4 / 72

# Type sizes (pt) and line pitches (mm), as in static/css/print.css.
NORMAL, SMALL, TINY = "normal", "small", "tiny"
TYPE = {NORMAL: (9.0, 4.8), SMALL: (7.0, 3.6), TINY: (6.0, 3.0)}


def chars_per_line(width_mm: float, size: str) -> int:
    points = TYPE[size][0]
    return max(int(width_mm / (CHAR_WIDTH_EM * points * PT_TO_MM)), 8)


def lines_needed(text: str, width_mm: float, size: str) -> int:
    per_line = chars_per_line(width_mm, size)
    return sum(max(math.ceil(len(part) / per_line), 1) for part in (text or "").split("\n"))


def lines_in(height_mm: float, size: str) -> int:
    return int(height_mm // TYPE[size][1])


@dataclass(frozen=True)
class Box:
    """A box of written lines: its text width and height in mm, per column."""

    width: float
    height: float
    columns_small: int = 1  # columns in the small type


@dataclass
class Entry:
    """One line (or a few, when it wraps) in a list box."""

    text: str
    load: str = ""
    note: str = ""
    depth: int = 0
    muted: bool = False
    hit: str = ""  # weapons only: their own columns
    damage: str = ""
    weapon_notes: str = ""

    @property
    def full_text(self) -> str:
        return " ".join(p for p in (self.text, self.note) if p)


@dataclass
class Fitted:
    """A list box as printed: its type size, its columns, its blank lines, and the
    entries that did not fit (listed on the continuation page)."""

    size: str
    columns: list[list[Entry]]
    blank_lines: list[int]  # per column: empty lines to write on
    rest: list[Entry] = field(default_factory=list)

    @property
    def entries(self) -> list[Entry]:
        return [entry for column in self.columns for entry in column]

    @property
    def cols(self) -> list[dict]:
        """For the template: each column's entries, its empty lines, the last one."""
        return [{"entries": column, "blanks": range(blanks), "last": n == len(self.columns) - 1}
                for n, (column, blanks) in enumerate(zip(self.columns, self.blank_lines,
                                                         strict=True))]

    @property
    def first_blanks(self) -> range:
        return range(self.blank_lines[0])


def fit_entries(entries: Sequence[Entry], box: Box, *, load_column: float = 0,
                notes_width: float = 0) -> Fitted:
    """Fill a box: the normal type in one column if everything fits, else the small
    type in box.columns_small columns; what still does not fit is `rest`, and the
    box's last line says where it went. With notes_width (the Weapons table), a line
    takes as many lines as the longer of its name and its notes."""
    text_width = box.width - load_column

    def cost(entry: Entry, width: float, size: str) -> int:
        lines = lines_needed(entry.full_text, width, size)
        if notes_width and entry.weapon_notes:
            lines = max(lines, lines_needed(entry.weapon_notes, notes_width, size))
        return lines

    normal_lines = lines_in(box.height, NORMAL)
    normal_cost = [cost(e, text_width, NORMAL) for e in entries]
    if sum(normal_cost) <= normal_lines:
        return Fitted(NORMAL, [list(entries)], [normal_lines - sum(normal_cost)])
    columns = box.columns_small
    column_width = (box.width - 3 * (columns - 1)) / columns - load_column
    per_column = lines_in(box.height, SMALL)
    small_cost = [cost(e, column_width, SMALL) for e in entries]
    overflow = sum(small_cost) > per_column * columns
    return _columns(list(entries), small_cost, per_column, columns, SMALL, last_line=overflow)


def _columns(entries: list[Entry], costs: list[int], per_column: int, columns: int, size: str,
             last_line: bool = False) -> Fitted:
    filled: list[list[Entry]] = [[] for _ in range(columns)]
    used = [0] * columns
    index = 0
    for column in range(columns):
        room = per_column - (1 if last_line and column == columns - 1 else 0)
        # Balance: the first columns take about their share, the last what remains.
        share = math.ceil(sum(costs[index:]) / (columns - column)) if not last_line else room
        while index < len(entries) and used[column] + costs[index] <= room and (
                used[column] < share or column == columns - 1):
            filled[column].append(entries[index])
            used[column] += costs[index]
            index += 1
    rest = entries[index:]
    blanks = [per_column - u for u in used]
    if rest:
        blanks[-1] -= 1  # the "continued" line
    return Fitted(size, filled, [max(b, 0) for b in blanks], rest)


@dataclass
class FittedText:
    size: str
    text: str
    rest: str = ""
    blank_lines: int = 0

    @property
    def blanks(self) -> range:
        return range(self.blank_lines)


def fit_text(text: str, box: Box) -> FittedText:
    """A paragraph box (the Description): normal type, small, tiny, then the first
    part with the rest on the continuation page, cut at a word boundary."""
    text = (text or "").strip()
    for size in (NORMAL, SMALL, TINY):
        room = lines_in(box.height, size)
        used = lines_needed(text, box.width, size) if text else 0
        if used <= room:
            return FittedText(size, text, "", room - used if size == NORMAL else 0)
    room = lines_in(box.height, TINY) - 1  # one line says where the rest is
    per_line = chars_per_line(box.width, TINY)
    shown = ""
    for word in re.split(r"(\s+)", text):
        candidate = shown + word
        if lines_needed(candidate, box.width, TINY) > room or len(candidate) > room * per_line:
            break
        shown = candidate
    shown = shown.rstrip()
    return FittedText(TINY, shown, text[len(shown):].strip())


def fit_line(text: str, width: float, *, lines: int = 1) -> FittedText:
    """A one-line field (Name, Career ...): normal type, small, then tiny on two lines,
    else the start with the rest on the continuation page."""
    text = (text or "").strip()
    if lines_needed(text, width, NORMAL) <= lines:
        return FittedText(NORMAL, text)
    if lines_needed(text, width, SMALL) <= lines:
        return FittedText(SMALL, text)
    if lines_needed(text, width, TINY) <= lines + 1:
        return FittedText(TINY, text)
    room = chars_per_line(width, TINY) * (lines + 1) - 12  # " (see p. 2)"
    shown = text[:room].rsplit(" ", 1)[0] if " " in text[:room] else text[:room]
    return FittedText(TINY, shown, text[len(shown):].strip())


# -- rendering ---------------------------------------------------------------------------


def render_html(sheets: Sequence, *, paper: Paper, request=None, title: str,
                controls: dict | None = None, template: str, system=None) -> str:
    """The sheets on paper: `template` is the game system's printed sheet
    (GameSystem.templates.print), `sheets` what its `printed_sheets` made."""
    return render_to_string(template, {
        "sheets": sheets, "paper": paper, "papers": PAPERS.values(), "title": title,
        "controls": controls, "system": system,
    }, request=request)


class SheetFetcher:
    """WeasyPrint's url_fetcher: the app's static files from disk and the portraits
    named in `portraits` (URL path -> storage name) from the default storage. Nothing
    else, and never the network."""

    def __init__(self, portraits: dict[str, str] | None = None):
        from django.conf import settings

        self.static_prefix = "/" + settings.STATIC_URL.lstrip("/")
        self.portraits = portraits or {}

    @functools.cached_property
    def fetcher(self):
        from weasyprint.urls import URLFetcher

        outer = self

        class Fetcher(URLFetcher):
            def fetch(self, url, headers=None):
                return outer.fetch(url)

        return Fetcher()

    def fetch(self, url: str):
        from weasyprint.urls import URLFetcherResponse

        return URLFetcherResponse(url, *self.read(url))

    def read(self, url: str) -> tuple[bytes, dict]:
        """The bytes `url` names and their headers (without WeasyPrint: pdf_key reads
        them too)."""
        parts = urlsplit(url)
        if parts.scheme == "data":
            from urllib.request import urlopen

            with urlopen(url) as response:  # noqa: S310 -- data: URLs only
                return response.read(), {"Content-Type": response.headers.get_content_type()}
        path = unquote(parts.path)
        if path.startswith(self.static_prefix):
            name = path[len(self.static_prefix):]
            found = finders.find(name)
            if found:
                with open(found, "rb") as handle:
                    return handle.read(), _headers(found)
            # In production {% static %} names the collected, hashed copy.
            if staticfiles_storage.exists(name):
                with staticfiles_storage.open(name) as handle:
                    return handle.read(), _headers(name)
            raise ValueError(f"No static file {path}")
        if path in self.portraits:
            name = self.portraits[path]
            with default_storage.open(name, "rb") as handle:
                return handle.read(), _headers(name)
        raise ValueError(f"The printed sheet loads nothing from {url}")


def _headers(name: str) -> dict:
    from .portraits import content_type_for

    if name.endswith(".css"):
        return {"Content-Type": "text/css; charset=utf-8"}
    return {"Content-Type": content_type_for(name)}


BASE_URL = "https://sheet.invalid/"  # resolves /static/... for the fetcher; never fetched


def render_pdf(html: str, *, portraits: dict[str, str] | None = None) -> bytes:
    from weasyprint import HTML

    fetcher = SheetFetcher(portraits)
    return HTML(string=html, base_url=BASE_URL, url_fetcher=fetcher.fetcher).write_pdf()


def pdf_response(pdf: bytes, filename: str):
    from django.http import HttpResponse

    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = content_disposition_header(True, filename)  # a download
    return response



# -- the PDF cache and the render turns --------------------------------------------------
class PdfBusy(Exception):
    """Every render turn stayed taken for PDF_WAIT_SECONDS."""


_NONCE = re.compile(r'nonce="[^"]*"')
_LOADED = re.compile(r'(?:src|href)="(/[^"]+)"')


@functools.cache
def _weasyprint_version() -> str:
    """Read without importing WeasyPrint (0.4 s of CPU), which only the renderer needs."""
    return importlib.metadata.version("weasyprint")


def pdf_key(html: str, portraits: dict[str, str] | None = None) -> str:
    """What the PDF shows, hashed: the printed HTML (without the request's CSP nonce),
    every file it loads (stylesheets, images, portraits: their bytes, through the same
    fetcher WeasyPrint uses) and WeasyPrint's version. Any change to the character that
    shows on the sheet changes the HTML, so it is never served a PDF drawn before it."""
    digest = hashlib.sha256(_weasyprint_version().encode())
    shown = _NONCE.sub('nonce=""', html)
    digest.update(shown.encode())
    fetcher = SheetFetcher(portraits)
    for url in sorted(set(_LOADED.findall(shown))):
        try:
            digest.update(url.encode() + fetcher.read(url)[0])
        except ValueError:  # nothing WeasyPrint could load either
            digest.update(url.encode())
    return "pdf:" + digest.hexdigest()


@contextmanager
def render_turn() -> Iterator[None]:
    """One of PDF_RENDERS turns to render, for the whole server (every process and
    thread: a lock file each, held with flock and freed when its holder ends, even if it
    dies). Waits up to PDF_WAIT_SECONDS for one, then raises PdfBusy."""
    folder = Path(settings.PDF_LOCK_DIR)
    folder.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + settings.PDF_WAIT_SECONDS
    while True:
        for turn in range(max(1, settings.PDF_RENDERS)):
            with open(folder / f"render-{turn}.lock", "a+b") as handle:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    continue
                try:
                    yield
                finally:
                    fcntl.flock(handle, fcntl.LOCK_UN)
                return
        if time.monotonic() >= deadline:
            raise PdfBusy
        time.sleep(0.05)


_renderer: ProcessPoolExecutor | None = None
_renderer_lock = threading.Lock()


def _set_up_renderer() -> None:
    import django

    django.setup()  # the same settings as the server (the environment is inherited)
    # A lower CPU priority than the server's threads: on a busy machine the scheduler
    # serves the polls and previews first and the PDF takes what CPU is left.
    if settings.PDF_RENDER_NICE:
        os.nice(settings.PDF_RENDER_NICE)


def _render_in_renderer(html: str, portraits: dict[str, str] | None) -> bytes:
    return render_pdf(html, portraits=portraits)  # the renderer process's own render_pdf


def _render_elsewhere(html: str, portraits: dict[str, str] | None) -> bytes:
    """render_pdf in this server process's own renderer process (started on the first
    PDF, then kept), so WeasyPrint's Python never holds the threads' interpreter: the
    request's thread only waits, and the process's other threads go on serving."""
    global _renderer
    with _renderer_lock:
        if _renderer is None:
            _renderer = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                initializer=_set_up_renderer)
        renderer = _renderer
    try:
        return renderer.submit(_render_in_renderer, html, portraits).result()
    except BrokenProcessPool:  # the renderer died (killed, out of memory): a new one next
        with _renderer_lock:
            if _renderer is renderer:
                _renderer = None
        raise


def cached_pdf(html: str, *, portraits: dict[str, str] | None = None) -> bytes:
    """The PDF of `html`: from the shared cache of rendered PDFs (CACHES["pdfs"]) when
    the same sheet was rendered before, else rendered in a render turn (in a renderer
    process when PDF_RENDER_PROCESS) and kept."""
    key = pdf_key(html, portraits)
    pdfs = caches["pdfs"]
    pdf = pdfs.get(key)
    if pdf is None:
        with render_turn():
            pdf = pdfs.get(key)  # rendered by another request while this one waited?
            if pdf is None:
                if settings.PDF_RENDER_PROCESS:
                    pdf = _render_elsewhere(html, portraits)
                else:
                    pdf = render_pdf(html, portraits=portraits)
                pdfs.set(key, pdf)
    return pdf


_in_process: threading.BoundedSemaphore | None = None


def _pdf_place() -> threading.BoundedSemaphore:
    """PDF_REQUESTS_PER_PROCESS places for PDF requests in this server process: the
    ones waiting for their render turn hold a server thread each, and the others must
    always find one free."""
    global _in_process
    with _renderer_lock:
        if _in_process is None:
            _in_process = threading.BoundedSemaphore(max(1, settings.PDF_REQUESTS_PER_PROCESS))
        return _in_process


def pdf_download(html: str, *, portraits: dict[str, str] | None, filename: str):
    """The PDF as a download, or 503 "busy, try again" when this process already has
    PDF_REQUESTS_PER_PROCESS PDFs under way or no render turn came in time."""
    from django.http import HttpResponse

    place = _pdf_place()
    try:
        if not place.acquire(blocking=False):
            raise PdfBusy
        try:
            pdf = cached_pdf(html, portraits=portraits)
        finally:
            place.release()
    except PdfBusy:
        response = HttpResponse("Many sheets are being printed right now: try again in a "
                                "few seconds.", status=503, content_type="text/plain")
        response["Retry-After"] = "10"
        return response
    return pdf_response(pdf, filename)
