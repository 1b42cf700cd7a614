"""The printed character sheet: what goes in which box, the paper, and the PDF.

One template (templates/characters/character_print.html) serves the browser's print
view and WeasyPrint, so both show the same content. Every number comes from the rules
engine's CharacterSheet (characters/builds.py:sheet_for) and the ledgers; this module
only places them: which line goes in which box, in which type size, and what goes on
the continuation page when a box is full.

Nothing can measure text on the server, so each box has a budget of lines and an
estimate of the characters that fit on a line (CHAR_WIDTH_EM, on the generous side).
A box first tries the normal type, then the small type in two columns; what still
does not fit moves to a continuation page, announced on the first page ("continued on
page 2"), so no text is ever cut off. The line budgets are the ones of print.css.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.files.storage import default_storage
from django.template.loader import render_to_string
from django.utils.http import content_disposition_header

from rules.engine.eldritch_gambit import ATTRIBUTES, CharacterSheet, GearPiece, Kind, Quality
from rules.engine.eldritch_gambit.gear import effective_armor, unit_load
from rules.engine.eldritch_gambit.sheet import carried_pieces
from rules.engine.eldritch_gambit.statuses import STATUS_BY_KEY

from .models import InventoryItem
from .systems.eldritch_gambit.models import EldritchGambitCharacter

TEMPLATE = "characters/character_print.html"

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


# -- the boxes of the sheet (mm; keep in step with static/css/print.css) ---------------------

# The widths are those of US Letter, the narrower page; on A4 the boxes are wider.
DESCRIPTION = Box(width=79, height=29)
CONCEPT_VALUE_WIDTH = 86
PRONOUNS_WIDTH = 22
TEMPLATE_VALUE_WIDTH = 44
WEAPONS = Box(width=46, height=29)  # the name column
WEAPON_NOTES_WIDTH = 50
SKILLS = Box(width=66, height=58, columns_small=2)
NOTES = Box(width=66, height=38, columns_small=2)
RESOURCES = Box(width=66, height=74, columns_small=2)
LOAD_COLUMN = 7  # the Load column of each list line


NO_LOAD = "—"  # a natural attack's Load column


def dash(value: int) -> str:
    """A Load as the sheet writes it: "-" for nothing."""
    return str(value) if value else "-"


@dataclass
class PrintedSheet:
    character: EldritchGambitCharacter | None
    sheet: CharacterSheet | None
    quest: str = ""
    invested: int | None = None
    concept: dict = field(default_factory=dict)
    description: FittedText | None = None
    weapons: Fitted | None = None
    armor: list[dict] = field(default_factory=list)
    resources: Fitted | None = None
    resources_more: Fitted | None = None  # the Notes box, used to continue Resources
    skills: Fitted | None = None
    statuses: dict = field(default_factory=dict)
    portrait_url: str = ""
    continued: list[dict] = field(default_factory=list)
    blank_attributes: tuple = tuple((abbr, name) for _, abbr, name in ATTRIBUTES)

    @property
    def pages(self) -> int:
        return 2 if self.continued else 1


def _weapon_notes(line) -> str:
    parts = list(line.tags)
    if line.range:
        parts.append(f"Range {line.range}")
    if line.reload:
        parts.append(f"Reload {line.reload}")
    if line.quality != Quality.STANDARD:
        parts.append(line.quality.capitalize())
    return ", ".join(parts)


def _nested(items: Sequence[InventoryItem], shown: set[int]) -> Iterable[tuple[int, InventoryItem]]:
    """Items in inventory order, each container followed by what it holds (indented)."""
    by_parent: dict[int | None, list[InventoryItem]] = {}
    keys = {item.pk for item in items}
    for item in items:
        parent = item.container_id if item.container_id in keys else None
        by_parent.setdefault(parent, []).append(item)

    seen: set[int] = set()

    def walk(parent, depth):
        for item in by_parent.get(parent, ()):
            if item.pk in seen:
                continue
            seen.add(item.pk)
            if item.pk not in shown:
                yield depth, item
            yield from walk(item.pk, depth + 1)

    yield from walk(None, 0)
    for item in items:  # anything in a loop of containers
        if item.pk not in seen and item.pk not in shown:
            yield 0, item


def printed_sheet(character: EldritchGambitCharacter, items: Sequence[InventoryItem],
                  sheet: CharacterSheet,
                  *, quest: str | None = None, invested: int | None = None,
                  portrait_url: str = "") -> PrintedSheet:
    """Everything the template places, for one character."""
    printed = PrintedSheet(character=character, sheet=sheet, quest=quest or character.quest,
                           invested=invested, portrait_url=portrait_url)
    build = sheet.build
    carried = carried_pieces(build.gear)
    carried_keys = {piece.key for piece in carried}
    pieces = {piece.key: piece for piece in build.gear}
    items = list(items)

    # Concept (Characters > Concept).
    traits = ", ".join(
        t["name"] + (f" ({t['value']})" if t.get("value") else "")
        for t in character.template_traits or () if isinstance(t, dict) and t.get("name"))
    concept = (
        ("name", "Name", character.name, CONCEPT_VALUE_WIDTH, 1),
        ("career", "Career", character.career, CONCEPT_VALUE_WIDTH, 1),
        ("quest", "Quest", printed.quest, CONCEPT_VALUE_WIDTH, 1),
        ("origin", "Origin", character.origin, CONCEPT_VALUE_WIDTH, 1),
        ("template", "Template", character.template_name, TEMPLATE_VALUE_WIDTH, 1),
        ("traits", "Traits", traits, TEMPLATE_VALUE_WIDTH, 2),
    )
    for key, label, text, width, lines in concept:
        if key == "name":  # the pronouns share the Name line
            width -= PRONOUNS_WIDTH if character.pronouns else 0
        printed.concept[key] = fit_line(text, width, lines=lines)
        if printed.concept[key].rest:
            printed.continued.append({"title": label, "text": text})

    printed.description = fit_text(character.description, DESCRIPTION)
    if printed.description.rest:
        printed.continued.append({"title": "Description", "text": character.description})

    # Weapons (Resources > Weapons): the engine's lines, in the order of the carried
    # pieces it made them from; the Load is the piece's own.
    weapon_pieces = [piece for piece in carried if piece.weapon is not None]
    weapon_entries = []
    listed: set[int] = set()
    for piece, line in zip(weapon_pieces, sheet.weapons, strict=True):
        label = line.name + (f" x{piece.quantity}" if piece.quantity > 1 else "")
        weapon_entries.append(Entry(label, dash(unit_load(piece) * piece.quantity),
                                    weapon_notes=_weapon_notes(line), hit=f"{line.hit:+d}",
                                    damage=line.damage))
        if piece.key is not None:
            listed.add(piece.key)
    # Then the Attack Traits (Bestiary > Templates): no piece, so no Load of their own
    # (the Trait's Load is counted with the Traits); an area kind has no Hit.
    for line in sheet.natural_attacks:
        weapon_entries.append(Entry(line.name, NO_LOAD, weapon_notes=_weapon_notes(line),
                                    hit=line.hit_display, damage=line.damage_display))
    printed.weapons = fit_entries(weapon_entries, WEAPONS, notes_width=WEAPON_NOTES_WIDTH)

    # Armor (Resources > Armor): the suit the engine counts, and a ready shield.
    worn = [p for p in carried if p.equipped and p.armor is not None
            and Kind(p.kind) is Kind.ARMOR]
    worn_piece = max(worn, key=lambda p: effective_armor(p).ap) if worn else None
    rally = sheet.stats["rally"]
    armor_row = {
        "name": sheet.armor_source if sheet.armor.rank or worn_piece else "",
        "ap": sheet.stats["armor_ap"].value if sheet.armor.rank else "",
        "rally": rally.terms[0].value if rally.terms and (sheet.armor.rank or worn_piece)
        else "",
        "load": "",
        "notes": "",
    }
    if worn_piece is not None:
        armor_row["load"] = dash(unit_load(worn_piece))
        item = next((i for i in items if i.pk == worn_piece.key), None)
        armor_row["notes"] = item.notes if item else ""
        if worn_piece.quality != Quality.STANDARD:
            armor_row["notes"] = ", ".join(
                p for p in (worn_piece.quality.capitalize(), armor_row["notes"]) if p)
        listed.add(worn_piece.key)
    printed.armor = [armor_row]
    shield = sheet.shield
    if shield is not None:
        printed.armor.append({
            "name": shield.name, "shield": f"AF +{shield.shield.af}, Block +{shield.shield.block}",
            "load": dash(unit_load(shield) * shield.quantity),
        })
        listed.add(shield.key)

    # Resources: everything else, containers followed by what they hold; the purse.
    entries = []
    for depth, item in _nested(items, listed):
        piece: GearPiece | None = pieces.get(item.pk)
        if piece is None:
            continue
        label = item.name + (f" x{item.quantity}" if item.quantity > 1 else "")
        notes = []
        if piece.key not in carried_keys:
            notes.append("dropped")
        elif piece.equipped and Kind(piece.kind) is Kind.ARMOR:
            notes.append("worn")
        if piece.quality != Quality.STANDARD:
            notes.append(piece.quality)
        if piece.charges is not None:
            notes.append(f"{piece.charges} charges")
        if piece.attuned:
            notes.append("attuned")
        if item.notes:
            notes.append(item.notes)
        load = dash(unit_load(piece) * piece.quantity) if piece.key in carried_keys else "-"
        entries.append(Entry(label, load, f"({', '.join(notes)})" if notes else "", depth,
                             muted=piece.key not in carried_keys))
    entries.append(Entry(f"{character.coins_cp} cp", "-"))
    printed.resources = fit_entries(entries, RESOURCES, load_column=LOAD_COLUMN)
    if printed.resources.rest:
        # The Notes box continues the list before anything goes to a second page.
        printed.resources_more = fit_entries(printed.resources.rest, NOTES,
                                             load_column=LOAD_COLUMN)
        printed.resources.rest = []
        if printed.resources_more.rest:
            printed.continued.append({"title": "Resources", "entries":
                                      printed.resources_more.rest})

    skills = [Entry(skill) for skill in character.skills or () if str(skill).strip()]
    printed.skills = fit_entries(skills, SKILLS)
    if printed.skills.rest:
        printed.continued.append({"title": "Skills", "entries": printed.skills.rest})
    if printed.weapons.rest:
        printed.continued.append({"title": "Weapons", "entries": printed.weapons.rest,
                                  "weapons": True})

    # Status (Characters > Defenses > Status): the two the sheet has boxes for, and
    # the others by name.
    printed.statuses = {
        "staggered": "staggered" in sheet.statuses,
        "fallen": "fallen" in sheet.statuses,
        "other": [STATUS_BY_KEY[key].name + (
                      f" (Buildup {sheet.stats['poison_buildup'].value})"
                      if key == "poisoned" else "")
                  for key in sheet.statuses
                  if key not in ("staggered", "fallen") and key in STATUS_BY_KEY],
    }
    return printed


def blank_sheet() -> PrintedSheet:
    """The sheet with nothing written on it, for pencil only."""
    return PrintedSheet(
        character=None, sheet=None,
        description=FittedText(NORMAL, "", "", lines_in(DESCRIPTION.height, NORMAL)),
        weapons=Fitted(NORMAL, [[]], [lines_in(WEAPONS.height, NORMAL)]),
        resources=Fitted(NORMAL, [[]], [lines_in(RESOURCES.height, NORMAL)]),
        skills=Fitted(NORMAL, [[]], [lines_in(SKILLS.height, NORMAL)]),
        armor=[{"name": "", "ap": "", "rally": "", "load": "", "notes": ""}],
        statuses={"staggered": False, "fallen": False, "other": []},
    )


# -- rendering ---------------------------------------------------------------------------


def render_html(sheets: Sequence, *, paper: Paper, request=None, title: str,
                controls: dict | None = None, template: str = TEMPLATE, system=None) -> str:
    """The sheets on paper: `template` is the game system's printed sheet (Eldritch
    Gambit's by default: the blank sheet and the bench)."""
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
        from weasyprint.urls import URLFetcher

        self.static_prefix = "/" + settings.STATIC_URL.lstrip("/")
        self.portraits = portraits or {}

        outer = self

        class Fetcher(URLFetcher):
            def fetch(self, url, headers=None):
                return outer.fetch(url)

        self.fetcher = Fetcher()

    def fetch(self, url: str):
        from weasyprint.urls import URLFetcherResponse

        parts = urlsplit(url)
        if parts.scheme == "data":
            from urllib.request import urlopen

            with urlopen(url) as response:  # noqa: S310 -- data: URLs only
                return URLFetcherResponse(url, response.read(),
                                          {"Content-Type": response.headers.get_content_type()})
        path = unquote(parts.path)
        if path.startswith(self.static_prefix):
            name = path[len(self.static_prefix):]
            found = finders.find(name)
            if found:
                with open(found, "rb") as handle:
                    return URLFetcherResponse(url, handle.read(), _headers(found))
            # In production {% static %} names the collected, hashed copy.
            if staticfiles_storage.exists(name):
                with staticfiles_storage.open(name) as handle:
                    return URLFetcherResponse(url, handle.read(), _headers(name))
            raise ValueError(f"No static file {path}")
        if path in self.portraits:
            name = self.portraits[path]
            with default_storage.open(name, "rb") as handle:
                return URLFetcherResponse(url, handle.read(), _headers(name))
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

