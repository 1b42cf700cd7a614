"""Eldritch Gambit: the rules of the Characters and Basics chapters as functions.

Entry point: compute_sheet(CharacterBuild(...)) -> CharacterSheet.
"""

from .attributes import ATTRIBUTE_KEYS, ATTRIBUTES, Attributes, roll_attributes
from .gear import ArmorStats, Coverage, GearPiece, Kind, Quality, ShieldStats, WeaponStats
from .sheet import (
    DERIVED_NAMES,
    CharacterBuild,
    CharacterSheet,
    Issue,
    Stat,
    Term,
    WeaponLine,
    compute_sheet,
)
from .templates import Size, TraitChoice

__all__ = [
    "ATTRIBUTES",
    "ATTRIBUTE_KEYS",
    "ArmorStats",
    "Attributes",
    "CharacterBuild",
    "CharacterSheet",
    "Coverage",
    "DERIVED_NAMES",
    "GearPiece",
    "Issue",
    "Kind",
    "Quality",
    "ShieldStats",
    "Size",
    "Stat",
    "Term",
    "TraitChoice",
    "WeaponLine",
    "WeaponStats",
    "compute_sheet",
    "roll_attributes",
]
