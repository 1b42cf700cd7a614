"""Errant's printed sheet: our own one-page layout (no art, nothing of the book's own sheet),
laid out for pencil: the four Attributes with the dice rolled, HP and Exhaustion boxes,
the slot grid (one row per Item Slot, four quarter boxes each, shaded as far as the items,
Exhaustion and coins fill them), the items by place, Encumbrance, SPD and movement with
the backpack on and off, the Archetype's values, and the attribution line CC BY-SA 4.0
asks for. Every number comes from the engine's ErrantSheet (builds.sheet_for); the paper,
the browser view and the PDF are the generic characters/printing.py's."""

from __future__ import annotations

from fractions import Fraction

from rules.engine.errant.data import ATTRIBUTE_KEYS
from rules.engine.errant.sheet import archetype_names

from .builds import sheet_for
from .forms import LOCATION_CHOICES

TEMPLATE = "characters/errant/print.html"
GRID_ROWS_MAX = 24  # slot rows printed (phys 24 is far beyond any rolled Errant)
BOXES_MAX = 30  # HP and Exhaustion boxes
ITEM_LINES = 16  # the items box's lines: the items, then blanks for pencil


def slot_grid(item_slots: int, filled: Fraction, exhaustion: int) -> list[list[str]]:
    """One row per Item Slot, four quarter cells each: "x" for Exhaustion (a whole slot
    each, first), "f" for what items and coins fill, "" empty; rows beyond phys only when
    more is filled (over-encumbered)."""
    quarters_filled = int(Fraction(filled) * 4)
    exhaustion_quarters = exhaustion * 4
    rows = min(max(item_slots, -(-quarters_filled // 4)), GRID_ROWS_MAX)
    grid = []
    for row in range(rows):
        cells = []
        for cell in range(4):
            quarter = row * 4 + cell
            cells.append("x" if quarter < exhaustion_quarters else
                         "f" if quarter < quarters_filled else "")
        grid.append(cells)
    return grid


def printed_sheet(character) -> dict:
    sheet = sheet_for(character)
    lines = list(sheet.item_lines)
    places = dict(LOCATION_CHOICES)
    items = [(places.get(line.item.location, line.item.location), line) for line in lines]
    phys = sheet.value("item_slots") or 0
    return {
        "character": character,
        "sheet": sheet,
        "attributes": [(key, sheet[key], (character.dice[index] if character.method == "rolled"
                                          and len(character.dice) == 4 else None))
                       for index, key in enumerate(ATTRIBUTE_KEYS)],
        "archetype_stats": [sheet[name] for name in archetype_names(sheet.build)],
        "hp_boxes": range(min(sheet.value("hp_max") or 0, BOXES_MAX)),
        "exhaustion_boxes": range(min(phys, BOXES_MAX)),
        "grid": slot_grid(phys, sheet.value("slots_filled") or 0, sheet.value("exhaustion")),
        "items": items,
        "item_blanks": range(max(ITEM_LINES - len(items), 0)),
        # A long list takes two columns of smaller type, to stay on the one page.
        "two_columns": len(items) > ITEM_LINES + 4,
    }


def printed_sheets(characters) -> tuple[list[dict], dict]:
    """What the print template places for each Errant; no portraits on this sheet."""
    return [printed_sheet(character) for character in characters], {}
