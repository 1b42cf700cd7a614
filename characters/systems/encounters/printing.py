"""The printed sheet of an encounter combatant: our own one-page design for the table,
the numbers with their arithmetic, pencil boxes for the three tracks, and the round's
reminders in our own words. Every number comes from the engine's sheet (builds.sheet_for);
the paper, the browser view and the PDF are the generic characters/printing.py's."""

from __future__ import annotations

from rules.engine.encounters.sheet import SKILLS

from .builds import sheet_for

TEMPLATE = "characters/encounters/print.html"
BOXES_MAX = 40  # track boxes printed; a bigger track prints its number only


def printed_sheet(character) -> dict:
    sheet = sheet_for(character)
    return {
        "character": character,
        "sheet": sheet,
        "skills": [(name.capitalize(), getattr(character, name)) for name in SKILLS],
        "tracks": [(track.capitalize(), top, range(min(top, BOXES_MAX)), top > BOXES_MAX)
                   for track, top in (("stamina", character.stamina_max),
                                      ("health", character.health_max),
                                      ("sanity", character.sanity_max))],
    }


def printed_sheets(characters) -> tuple[list[dict], dict]:
    """What the print template places for each combatant; no portraits on this sheet."""
    return [printed_sheet(character) for character in characters], {}
