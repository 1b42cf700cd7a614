"""Templates, Traits and Size as they change the numbers.

Eldritch Gambit SRD, Bestiary > Templates > Size (the SIZES table) and the
TEMPLATES trait table.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ..dice import Dice, step_die
from .gear import ARMOR_TYPES, ArmorType


class Size(StrEnum):
    TINY = "Tiny"
    SMALL = "Small"
    MEDIUM = "Medium"
    LARGE = "Large"
    HUGE = "Huge"
    GIANT = "Giant"
    TITANIC = "Titanic"


@dataclass(frozen=True)
class SizeRule:
    dice_count: int  # Rolls column: "2d" for Large ...
    die_steps: int  # "1 smaller" for Small, "2 smaller" for Tiny
    hp_multiplier: int  # HP column, "also applies to AP"
    load_factor: tuple[int, int]  # human Load x numerator / denominator


# SIZES table. Load "is scaled to human size ... use the Rolls column to scale
# Load for other Sizes. A Tiny creature would count 1 Load as 3, a Large one
# would count 2 Load as 1".
SIZES = {
    Size.TINY: SizeRule(1, -2, 1, (3, 1)),
    Size.SMALL: SizeRule(1, -1, 1, (2, 1)),
    Size.MEDIUM: SizeRule(1, 0, 1, (1, 1)),
    Size.LARGE: SizeRule(2, 0, 2, (1, 2)),
    Size.HUGE: SizeRule(3, 0, 3, (1, 3)),
    Size.GIANT: SizeRule(4, 0, 4, (1, 4)),
    Size.TITANIC: SizeRule(5, 0, 5, (1, 5)),
}

# "Armored ... four levels (light, medium, heavy, ultra), matching the types of
# armor available as gear. This includes the usual Rally die type increase."
ARMORED_LEVELS = {"light": 1, "medium": 2, "heavy": 3, "ultra": 4}


@dataclass(frozen=True)
class TraitChoice:
    name: str  # "Size", "Armored", "Flight", ...
    value: str = ""  # "Large", "heavy", an Element ...
    load: int = 0  # advantages add Load, drawbacks relieve it


def size_of(traits: tuple[TraitChoice, ...]) -> Size:
    for trait in traits:
        if trait.name.strip().lower() == "size" and trait.value:
            try:
                return Size(trait.value.strip().capitalize())
            except ValueError:
                continue
    return Size.MEDIUM


def has_trait(traits: tuple[TraitChoice, ...], name: str) -> bool:
    """Whether a Trait of this name (any case) is among the character's."""
    wanted = name.strip().lower()
    return any(trait.name.strip().lower() == wanted for trait in traits)


def armored_trait(traits: tuple[TraitChoice, ...]) -> ArmorType | None:
    best = None
    for trait in traits:
        if trait.name.strip().lower() == "armored":
            rank = ARMORED_LEVELS.get(trait.value.strip().lower())
            if rank and (best is None or rank > best.rank):
                best = ARMOR_TYPES[rank]
    return best


def sized_dice(dice: Dice, size: Size) -> Dice:
    """Damage and Rally dice for a Size, before adding STR or END."""
    rule = SIZES[size]
    sides = step_die(dice.sides, rule.die_steps) if rule.die_steps else dice.sides
    count = dice.count * rule.dice_count
    return Dice(count, sides, dice.modifier)


def scale_load(load: int, size: Size) -> int:
    """Carried Load as it weighs on a creature of this Size. Larger creatures
    divide and round down ("may not even count for a giant"), smaller multiply."""
    numerator, denominator = SIZES[size].load_factor
    return (load * numerator) // denominator
