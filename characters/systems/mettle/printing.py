"""METTLE Core's printed sheet: our own one-page layout (not the SRD's example sheet),
laid out for pencil: the five pools with room for the modified value, the Mettle track,
Soak, Load, the weapons, Backstories and Contacts with their open lines, the gear.
Every number comes from the engine's CharacterSheet (builds.sheet_for); the paper, the
browser view and the PDF are the generic characters/printing.py's."""

from __future__ import annotations

from rules.engine.mettle.data import ATTRIBUTE_KEYS

from .builds import sheet_for
from .inventory import legacy_gear, lines_of

TEMPLATE = "characters/mettle/print.html"
GEAR_LINES = 15  # the gear box's lines (three columns): the gear, then blanks for pencil
METTLE_BOXES_MAX = 30


def printed_sheet(character) -> dict:
    items = lines_of(character)
    sheet = sheet_for(character, items)
    backstory_slots = max(sheet.value("backstories_max") or 0, len(character.backstories))
    contact_slots = max(sheet.value("contacts_max") or 0, len(character.contacts))
    gear = [(g["quantity"], g["name"]) for g in legacy_gear(items)["gear"]]
    return {
        "character": character,
        "sheet": sheet,
        "attributes": [(key, sheet[key], getattr(character, f"{key}_descriptor"))
                       for key in ATTRIBUTE_KEYS],
        "mettle_boxes": range(min(sheet.value("mettle_max") or 0, METTLE_BOXES_MAX)),
        "backstories": character.backstories,
        "backstory_blanks": range(max(backstory_slots - len(character.backstories), 0)),
        "contacts": character.contacts,
        "contact_blanks": range(max(contact_slots - len(character.contacts), 0)),
        "gear": gear,
        "gear_blanks": range(max(GEAR_LINES - len(gear), 0)),
    }


def printed_sheets(characters) -> tuple[list[dict], dict]:
    """What the print template places for each character; no portraits on this sheet."""
    return [printed_sheet(character) for character in characters], {}
