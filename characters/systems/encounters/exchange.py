"""The body of an encounter combatant's file (characters/exchange.py is the envelope):
`"format": "encounters-character"`, version 1 (README.md, "Exchange format").

Export writes the name, the eight numbers, the XP the ledger holds and `derived`: the
sheet's numbers keyed by their `data-stat` names. Import reads the numbers only (the
derived ones are recomputed, never trusted), checks each against the engine's bounds,
and writes everything in one transaction or nothing."""

from __future__ import annotations

from django.db import transaction

from characters.exchange import Problems, what
from characters.models import XpEntry
from rules.engine.encounters.sheet import BOUNDS, NUMBERS

from . import services
from .builds import sheet_for
from .forms import NAME_LENGTH, NEW_CHARACTER_INITIAL

FORMAT = "encounters-character"
IMPORT_NOTE = "Imported from a file"
XP_MAX = 10_000_000
TOP_KEYS = frozenset({"name", *NUMBERS, "xp", "derived"})


def export_body(character) -> dict:
    return {
        "name": character.name,
        **{name: getattr(character, name) for name in NUMBERS},
        "xp": character.xp,
        "derived": sheet_for(character).derived(),
    }


def read_body(data: dict) -> tuple[dict, int, Problems]:
    """The builder's values from a body, the XP, and every problem found."""
    problems = Problems()
    problems.unknown_keys(data, TOP_KEYS, "")
    values = {"name": problems.text(data, "name", "name", NAME_LENGTH)}
    for name in NUMBERS:
        low, high = BOUNDS[name]
        values[name] = problems.integer(data, name, name, low, high,
                                        default=NEW_CHARACTER_INITIAL[name])
    xp = problems.integer(data, "xp", "xp", 0, XP_MAX, default=0)
    derived = data.get("derived", {})
    if derived is not None and not isinstance(derived, dict):
        problems.add("derived", f"expected an object, got {what(derived)}.")
    return values, xp, problems


class Exchange:
    format = FORMAT
    version = 1

    def export_body(self, character) -> dict:
        return export_body(character)

    @transaction.atomic
    def import_body(self, *, owner, data: dict, version: int):
        values, xp, problems = read_body(data)
        if problems:
            raise problems.error()
        character = services.character_create(owner=owner, data=values)
        if xp:
            XpEntry.objects.create(character=character, kind=XpEntry.Kind.IMPORT,
                                   xp_change=xp, created_by=owner, note=IMPORT_NOTE)
        return character


EXCHANGE = Exchange()
