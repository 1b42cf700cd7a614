"""METTLE Core's printed sheet: our own one-page layout (not the SRD's example sheet),
laid out for pencil: the five pools with a box for the modified value, the Mettle track
and large boxes for current Mettle, Credit lost and XP, Soak, Load, the weapons, and
Backstories, Contacts and gear on ruled lines that run to the bottom of their boxes.
Every number comes from the engine's CharacterSheet (builds.sheet_for); the paper, the
browser view and the PDF are the generic characters/printing.py's.

The sheet takes the whole printable area of A4 or Letter (static/css/mettle-print.css
places its boxes in shares of it). What is written in a list box gets the largest type
that fits it (the generic print pipeline's estimate of a line), so that the page stays
one page; what still does not fit ends in a line saying how many more the character's
page holds.
"""

from __future__ import annotations

from dataclasses import dataclass

from characters.printing import NORMAL, SMALL, TINY, lines_needed
from rules.engine.mettle.data import ATTRIBUTE_KEYS
from rules.engine.mettle.statuses import LASTING_STATUSES, STATUS_SHORT, status_label

from .builds import sheet_for
from .inventory import legacy_gear, lines_of

TEMPLATE = "characters/mettle/print.html"
WEAPON_ROWS = 6  # the weapons table's rows: the weapons, then blanks for pencil
METTLE_BOXES_MAX = 30  # the track's boxes (Mettle 30 is beyond any starting character)

# The ruled lines' pitch (mm) in each type size: .m-lines, .m-small and .m-tiny in
# static/css/mettle-print.css.
PITCH_MM = {NORMAL: 5.2, SMALL: 4.2, TINY: 3.4}
COLUMN_GAP_MM = 5


@dataclass(frozen=True)
class ListBox:
    """A box of ruled lines: its writing area in mm on the smaller of the two papers in
    each direction (the width on Letter, the height on A4), and its columns."""

    width: float
    height: float
    columns: int = 1

    @property
    def column_width(self) -> float:
        return (self.width - COLUMN_GAP_MM * (self.columns - 1)) / self.columns

    def lines_per_column(self, size: str) -> int:
        return int(self.height // PITCH_MM[size])


BACKSTORIES = ListBox(124.5, 41.5)
CONTACTS = ListBox(73, 39.5)
GEAR = ListBox(177.5, 39.5, 3)
# The Descriptor's cell of the Attributes table: its width and the lines each type size
# may take in the row's height.
DESCRIPTOR_WIDTH_MM = 44
DESCRIPTOR_LINES = {NORMAL: 2, SMALL: 3, TINY: 4}


@dataclass(frozen=True)
class FittedList:
    size: str  # the type size: "normal", "small" or "tiny"
    columns: list[list[str]]  # the entries of each column, top to bottom
    more: int = 0  # entries left out, said on the last column's last line

    @property
    def css(self) -> str:
        return "" if self.size == NORMAL else f"m-{self.size}"

    @property
    def lines(self) -> list[str]:
        return [text for column in self.columns for text in column]


def _pack(texts: list[str], box: ListBox, size: str, *, reserve: int = 0):
    """The entries in column order, each column holding as many whole entries as its
    lines take (the last `reserve` lines of the last column kept free); the entries
    that did not fit."""
    per_column = box.lines_per_column(size)
    columns: list[list[str]] = [[] for _ in range(box.columns)]
    column, used = 0, 0
    for position, text in enumerate(texts):
        cost = lines_needed(text, box.column_width, size)
        while column < box.columns:
            room = per_column - (reserve if column == box.columns - 1 else 0)
            if used + cost <= room:
                break
            column, used = column + 1, 0
        if column == box.columns:
            return columns, texts[position:]
        columns[column].append(text)
        used += cost
    return columns, []


def fit_list(texts: list[str], box: ListBox) -> FittedList:
    """The largest type that holds every entry; else the tiny type, the entries that fit
    and a last line for the count of the others."""
    for size in (NORMAL, SMALL, TINY):
        columns, rest = _pack(texts, box, size)
        if not rest:
            return FittedList(size, columns)
    columns, rest = _pack(texts, box, TINY, reserve=1)
    return FittedList(TINY, columns, len(rest))


def descriptor_size(text: str) -> str:
    for size in (NORMAL, SMALL):
        if lines_needed(text, DESCRIPTOR_WIDTH_MM, size) <= DESCRIPTOR_LINES[size]:
            return size
    return TINY


# The status boxes every printed sheet has (EN §Taking Damage, §Status Effects); another
# status the character has gets a ticked box after them.
STATUS_BOXES = ("staggered", "fallen", "rattled", "encumbered")


def printed_sheet(character) -> dict:
    items = lines_of(character)
    sheet = sheet_for(character, items)
    gear = [f"{g['quantity']} x {g['name']}" if g["quantity"] != 1 else g["name"]
            for g in legacy_gear(items)["gear"]]
    attributes = []
    for key in ATTRIBUTE_KEYS:
        descriptor = getattr(character, f"{key}_descriptor") or ""
        attributes.append((key, sheet[key], descriptor, sheet[f"raise_cost_{key}"],
                           descriptor_size(descriptor)))
    return {
        "character": character,
        "sheet": sheet,
        "attributes": attributes,
        "mettle_boxes": range(min(sheet.value("mettle_max") or 0, METTLE_BOXES_MAX)),
        "backstories": fit_list(list(character.backstories), BACKSTORIES),
        "contacts": fit_list(list(character.contacts), CONTACTS),
        "gear": fit_list(gear, GEAR),
        "weapon_blanks": range(max(WEAPON_ROWS - len(sheet.weapons), 1)),
        "status_boxes": (*STATUS_BOXES,
                         *(key for key in sheet.statuses if key not in STATUS_BOXES)),
        # What the lasting statuses held do (the sheet keeps them beyond the Scene).
        "status_notes": [(key, status_label(key), STATUS_SHORT[key])
                         for key in sheet.statuses if key in LASTING_STATUSES],
    }


def printed_sheets(characters) -> tuple[list[dict], dict]:
    """What the print template places for each character; no portraits on this sheet."""
    return [printed_sheet(character) for character in characters], {}
