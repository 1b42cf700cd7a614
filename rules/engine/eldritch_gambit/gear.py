"""Gear as the engine sees it: armor, shields, weapons, items, containers, Materia.

Eldritch Gambit SRD, Resources (Armor, Weapons, Shields, Miscellaneous) and
Characters > Gear > Encumbrance. The catalog itself lives in the database; the
adapter turns each carried row into a GearPiece.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Kind(StrEnum):
    ARMOR = "armor"
    SHIELD = "shield"
    WEAPON = "weapon"
    ITEM = "item"
    LOAD = "load"
    MATERIA = "materia"
    EPHEMERA = "ephemera"


class Quality(StrEnum):
    STANDARD = "standard"
    SUPERIOR = "superior"
    INFERIOR = "inferior"


class Coverage(StrEnum):
    """How much of a suit is worn (Resources > Armor)."""

    FULL = "full"
    PARTIAL = "partial"  # drops the effective armor type by one
    MINIMAL = "minimal"  # drops it by two


COVERAGE_STEPS = {Coverage.FULL: 0, Coverage.PARTIAL: 1, Coverage.MINIMAL: 2}


@dataclass(frozen=True)
class ArmorType:
    rank: int
    name: str
    ap: int
    rally_die: int
    load: int
    cost_cp: int | None


# STANDARD ARMORS (Resources > Armor). Rank 0 is "None or clothed".
ARMOR_TYPES = (
    ArmorType(0, "None", 0, 4, 0, None),
    ArmorType(1, "Leather", 5, 6, 1, 100),
    ArmorType(2, "Chain mail", 10, 8, 2, 300),
    ArmorType(3, "Scale mail", 15, 10, 3, 600),
    ArmorType(4, "Plate mail", 20, 12, 4, 1000),
)
UNARMORED = ARMOR_TYPES[0]

# Superior armor is "one Load less", Inferior "one Load more"; Superior weapons
# "raise to hit and damage by one", Inferior lower both by one; Superior
# miscellaneous items grant +2 to Checks using them, Inferior -2. Superior costs
# ten times as much, Inferior half (Resources > Armor, Weapons, Miscellaneous).
ARMOR_LOAD_BY_QUALITY = {Quality.STANDARD: 0, Quality.SUPERIOR: -1, Quality.INFERIOR: 1}
WEAPON_BONUS_BY_QUALITY = {Quality.STANDARD: 0, Quality.SUPERIOR: 1, Quality.INFERIOR: -1}
ITEM_CHECK_BY_QUALITY = {Quality.STANDARD: 0, Quality.SUPERIOR: 2, Quality.INFERIOR: -2}


def price_cp(cost_cp: int | None, quality: Quality | str) -> int | None:
    """Price of one unit at a quality: x10 Superior, half (rounded up) Inferior."""
    if cost_cp is None:
        return None
    quality = Quality(quality)
    if quality is Quality.SUPERIOR:
        return cost_cp * 10
    if quality is Quality.INFERIOR:
        return -(-cost_cp // 2)
    return cost_cp


@dataclass(frozen=True)
class ArmorStats:
    ap: int
    rally_die: int
    rank: int | None = None  # position among ARMOR_TYPES; None for odd homebrew


@dataclass(frozen=True)
class ShieldStats:
    af: int
    block: int = 0


@dataclass(frozen=True)
class WeaponStats:
    hit: int
    damage: str  # dice as printed: "1d8", "1d4+1"
    range: int | None = None
    reload: int | None = None
    tags: tuple[str, ...] = ()


@dataclass(frozen=True)
class GearPiece:
    name: str
    kind: Kind | str = Kind.ITEM
    load: int = 0  # one unit at standard quality, human Size
    quantity: int = 1
    quality: Quality | str = Quality.STANDARD
    equipped: bool = False  # worn armor, carried shield
    key: object = None  # stable id, for containers
    container: object = None  # key of the container it sits in
    capacity: int | None = None  # a container's maximum Load
    dropped: bool = False
    attuned: bool = False  # Materia only
    charges: int | None = None  # Ephemera only
    coverage: Coverage | str = Coverage.FULL
    armor: ArmorStats | None = None
    shield: ShieldStats | None = None
    weapon: WeaponStats | None = None
    cost_cp: int | None = None
    extras: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def is_container(self) -> bool:
        return self.capacity is not None


def effective_armor(piece: GearPiece) -> ArmorType:
    """What a worn suit counts as: its own numbers, or, for a partial or minimal
    set, the standard type one or two ranks lower ("a chain mail shirt by itself
    counts as Leather"), Load included."""
    assert piece.armor is not None
    steps = COVERAGE_STEPS[Coverage(piece.coverage)]
    if steps == 0 or piece.armor.rank is None:
        if steps and piece.armor.rank is None:
            return UNARMORED
        return ArmorType(
            piece.armor.rank or 0, piece.name, piece.armor.ap, piece.armor.rally_die,
            piece.load, piece.cost_cp,
        )
    rank = max(piece.armor.rank - steps, 0)
    return ARMOR_TYPES[min(rank, len(ARMOR_TYPES) - 1)]


def unit_load(piece: GearPiece) -> int:
    """Load of one unit, after coverage and quality (armor only changes Load)."""
    if piece.armor is not None and Kind(piece.kind) is Kind.ARMOR:
        base = effective_armor(piece).load
        return max(base + ARMOR_LOAD_BY_QUALITY[Quality(piece.quality)], 0)
    return piece.load
