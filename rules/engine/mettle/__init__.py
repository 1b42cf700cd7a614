"""METTLE Core: the rules of the Characters, Engine and Resources chapters as functions.

Entry points: compute_sheet(CharacterBuild(...)) -> CharacterSheet; check_odds(dice,
difficulty, raises) -> CheckOdds. Pure Python: no Django, no other game's engine.

Modules: data (the SRD tables, CC BY 4.0), attributes (Array and Freestyle), sheet,
checks (exact odds, Twists, Raises, Split Actions), advancement (XP), damage (Mettle,
hazards, vehicles), seeds (d66 tables, random helpers), guide (NPC pools, Factions),
initiative (Volleyball Initiative as METTLE plays it). docs/RULES.md, "# METTLE Core",
records every reading.
"""

from .attributes import ARRAY, FREESTYLE_BUDGET, Attributes, Issue, Method
from .checks import CheckOdds, CheckRoll, check_odds, read_dice, split_pool
from .sheet import (
    DERIVED_NAMES,
    CharacterBuild,
    CharacterSheet,
    Item,
    Stat,
    Term,
    WeaponLine,
    compute_sheet,
)

__all__ = [
    "ARRAY",
    "DERIVED_NAMES",
    "FREESTYLE_BUDGET",
    "Attributes",
    "CharacterBuild",
    "CharacterSheet",
    "CheckOdds",
    "CheckRoll",
    "Issue",
    "Item",
    "Method",
    "Stat",
    "Term",
    "WeaponLine",
    "check_odds",
    "compute_sheet",
    "read_dice",
    "split_pool",
]
