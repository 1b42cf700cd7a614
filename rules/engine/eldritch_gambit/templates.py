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


# ---------------------------------------------------------------------------
# Attack Traits (Bestiary > Templates > LIST OF TRAITS, "Attack: claws, teeth, horns,
# breath weapons ... Size applies to the damage dice used, and Elements can be chosen
# just as with Spells"; the TEMPLATES table gives each kind its numbers).


@dataclass(frozen=True)
class AttackRule:
    kind: str  # "melee", "ranged area" ...
    hit: int | None  # "+1 to hit"; None: the area kinds list none (no Attack Check)
    die: int  # "d8 +STR dmg", before Size
    range: int | None  # "Range 2"
    tags: tuple[str, ...]  # "Grapple", "Reach", whom an area attack strikes


# TEMPLATES table: Attack (area) "d6 +STR dmg to all in current Zone"; (close) "+1 to
# hit, d6 +STR dmg, Grapple"; (melee) "+1 to hit, d8 +STR dmg"; (ranged area) "d6 +STR
# dmg to all in target Zone, Range 2"; (ranged) "+1 to hit, d8 +STR dmg, Range 2";
# (reach) "+1 to hit, d6 +STR dmg, Reach".
ATTACKS = {
    rule.kind: rule for rule in (
        AttackRule("area", None, 6, None, ("Area: all in current Zone",)),
        AttackRule("close", 1, 6, None, ("Grapple",)),
        AttackRule("melee", 1, 8, None, ()),
        AttackRule("ranged area", None, 6, 2, ("Area: all in target Zone",)),
        AttackRule("ranged", 1, 8, 2, ()),
        AttackRule("reach", 1, 6, None, ("Reach",)),
    )
}
# Longest first, so "ranged area" is not read as "ranged" with an Element "area".
_ATTACK_KINDS = sorted(ATTACKS, key=lambda kind: -len(kind.split()))


@dataclass(frozen=True)
class NaturalAttack:
    rule: AttackRule
    element: str = ""  # "Fire", as written for the Trait


def attack_of(trait: TraitChoice) -> NaturalAttack | None:
    """The Attack a Trait gives, if it is one, any case: as the Template page stores it
    (name "Attack", value "melee"), as the SRD writes it ("Attack (melee)", the young
    Dragon's "Attack (ranged area, Fire)") or a custom "Attack (close)" whose value is
    an Element. Whatever is written besides the kind is the Element. None when the
    name is not Attack or no kind is given (nothing to compute from)."""
    name = " ".join(trait.name.split())
    if name[:6].casefold() != "attack" or name[6:7].isalnum():
        return None
    text = f"{name[6:]},{trait.value}"
    for mark in "():;":
        text = text.replace(mark, ",")
    kind = None
    extras = []
    for part in text.split(","):
        words = part.replace("-", " ").split()
        if not words:
            continue
        if kind is None:
            folded = [word.casefold() for word in words]
            for candidate in _ATTACK_KINDS:
                length = len(candidate.split())
                if folded[:length] == candidate.split():
                    kind, words = candidate, words[length:]
                    break
        if words:
            extra = " ".join(words)
            extras.append(extra[:1].upper() + extra[1:])
    if kind is None:
        return None
    return NaturalAttack(ATTACKS[kind], ", ".join(extras))


def attack_traits(traits: tuple[TraitChoice, ...]) -> tuple[NaturalAttack, ...]:
    """The character's Attack Traits, in the order chosen."""
    return tuple(attack for attack in map(attack_of, traits) if attack is not None)
