"""Damage dice and their steps, Quality, Blocks, Depletion and Supply, money and prices.

Errant SRD: IT §Attack Rolls (enhance and impair along 1 - D4 - D6 - D8 - D10 - D12 - D20);
PR §Weapons, §Armour, §Magic Weapons & Armour, §Quality & Breakage, §Depletion, §Burn,
§Supply, §Currency, §Rarity; next-games.md E25-E29.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import floor

from .data import (
    DAMAGE_STEPS,
    PENNIES_PER_GUILDER,
    PENNIES_PER_SHILLING,
    QUALITY,
    QUALITY_PRICE,
    QUALITY_RARITY,
    RARITY_AVAILABILITY,
    RARITY_RESALE,
)
from .slots import quarters

SUPPLY_PER_QUARTER = 1  # PR §Supply: "Supply equal to how many 1/4 of an Item Slot"
SUPPLY_PRICE = 1  # "Each point of Supply costs one copper penny"
DESTROYED_QUALITY = 0  # "When an item reaches 0 Quality, it is destroyed"
# PR §Weapons: heavy +1 damage, light -1 (minimum 1), medium neither.
WEAPON_DAMAGE_BONUS = {"heavy": 1, "medium": 0, "light": -1}
WEAPON_SLOTS = {"heavy": Fraction(2), "medium": Fraction(1), "light": Fraction(1, 2)}
# PR §Weapons, missile ranges (normal / extended, feet or yards).
MISSILE_RANGES = {"thrown": (20, 40), "light": (30, 60), "medium": (80, 160),
                  "heavy": (150, 300)}


# -- damage dice -----------------------------------------------------------------------------


def die_label(sides: int) -> str:
    """"1" for the flat 1 at the bottom of the scale, "D8" otherwise."""
    return "1" if sides == 1 else f"D{sides}"


def step_damage_die(sides: int, enhance: int = 0, impair: int = 0) -> int:
    """IT §Attack Rolls: enhance and impair "cancel each other out on a one-to-one basis"
    and add up. The scale stops at its ends: below 1 stays 1, above D20 stays D20
    (docs/RULES.md AMB-E33)."""
    if sides not in DAMAGE_STEPS:
        raise ValueError(f"{sides} is not on the scale {DAMAGE_STEPS}")
    index = DAMAGE_STEPS.index(sides) + enhance - impair
    return DAMAGE_STEPS[max(0, min(index, len(DAMAGE_STEPS) - 1))]


def impaired_to_one(sides: int) -> bool:
    """A die impaired to 1 counts as a 1 (weapon Quality, the target acts) and as maximum
    damage (armour Quality)."""
    return sides == 1


def weapon_damage_bonus(size: str, *, dual_wielding: bool = False) -> int:
    """Heavy +1, light -1 (not when dual wielding: PR §Weapons), medium 0."""
    bonus = WEAPON_DAMAGE_BONUS[size]
    return 0 if dual_wielding and size == "light" else bonus


def damage_total(roll: int, bonus: int) -> int:
    """Damage rolled plus the weapon's bonus; a light weapon's -1 never goes below 1."""
    return max(1, roll + bonus) if bonus < 0 else roll + bonus


# -- Quality, Blocks, magic ------------------------------------------------------------------


def quality_value(grade: str) -> int:
    """Shoddy 1, average 2, masterwork 3 (PR §Quality & Breakage)."""
    return QUALITY[grade]


def is_destroyed(quality: int) -> bool:
    return quality <= DESTROYED_QUALITY


def lose_quality(quality: int, ones_rolled: int = 1) -> int:
    """A weapon loses 1 Quality per 1 rolled on its damage dice (an armour piece per maximum
    rolled against it); it cannot go below 0, where it is destroyed."""
    return max(DESTROYED_QUALITY, quality - ones_rolled)


def quality_price(price: int, grade: str) -> int:
    """Half price for shoddy, double for masterwork (rounded down: CR §Rounding)."""
    return floor(price * QUALITY_PRICE[grade])


def quality_rarity(rarity: int, grade: str) -> int:
    """Shoddy items have 1 fewer Rarity, masterwork 1 more."""
    return rarity + QUALITY_RARITY[grade]


def block(blocks: int, used: int) -> tuple[int, int]:
    """(steps the damage is impaired, Blocks left): each Block used impairs 1 step."""
    if not 0 <= used <= blocks:
        raise ValueError(f"{used} Blocks cannot be used from {blocks}")
    return used, blocks - used


# -- Depletion, Burn, Supply -----------------------------------------------------------------


def supply_to_restore(slots: Fraction) -> int:
    """PR §Supply: 1 Supply per quarter slot the item fills (1/4 -> 1, 1/2 -> 2, 1 -> 4)."""
    return quarters(slots) * SUPPLY_PER_QUARTER


@dataclass(frozen=True)
class Restore:
    restored: bool  # Depletion back to its maximum
    removed: bool  # not enough Supply: "that item is used up and removed"
    supply_left: int
    supply_spent: int


def restore(slots: Fraction, supply: int) -> Restore:
    """An item at Depletion 0 is restored with Supply, or removed if there is not enough."""
    cost = supply_to_restore(slots)
    if supply >= cost:
        return Restore(True, False, supply - cost, cost)
    return Restore(False, True, supply, 0)


def deplete(depletion: int, by: int = 1) -> int:
    """Use or the Event Die lowers Depletion (or Burn) by 1; never below 0."""
    return max(0, depletion - by)


# -- money and prices ------------------------------------------------------------------------


def money(pennies: int) -> tuple[int, int, int]:
    """Pennies as (guilders, shillings, pennies): 10 p = 1 s, 10 s = 1 g (PR §Currency)."""
    if pennies < 0:
        raise ValueError("an amount of money is never negative")
    guilders, rest = divmod(pennies, PENNIES_PER_GUILDER)
    shillings, pence = divmod(rest, PENNIES_PER_SHILLING)
    return guilders, shillings, pence


def money_label(pennies: int) -> str:
    """"1 g 2 s 5 p" for 125; "0 p" for nothing."""
    parts = [f"{n} {unit}" for n, unit in zip(money(pennies), ("g", "s", "p"), strict=True)
             if n]
    return " ".join(parts) or "0 p"


def parse_price(text: str) -> int | None:
    """A GS price cell in pennies ("1,000" -> 1000); None for prices that are not a plain
    number ("x4", "1/night", "50 per 1,000 handled")."""
    cleaned = text.replace(",", "").strip()
    return int(cleaned) if cleaned.isdigit() else None


def parse_slots(text: str) -> Fraction | None:
    """A GS slots cell ("1/2" printed as a vulgar fraction) as a Fraction; None if blank."""
    cleaned = text.strip()
    vulgar = {"¼": Fraction(1, 4), "½": Fraction(1, 2), "¾": Fraction(3, 4)}
    if cleaned in vulgar:
        return vulgar[cleaned]
    if cleaned.isdigit():
        return Fraction(int(cleaned))
    return None


def resale_value(price: int, rarity: int) -> int:
    """PR §Rarity: used mundane goods resell at 10% (Rarity 1) ... 50% (Rarity 5) of their
    price (AMB-E16: 20/30/40% between), rounded down."""
    return price * RARITY_RESALE[_rarity(rarity)] // 100


def p_available(rarity: int) -> Fraction:
    """PR §Rarity: the D100 availability test, 90% at Rarity 1 ... 50% at 5 (AMB-E16)."""
    return Fraction(RARITY_AVAILABILITY[_rarity(rarity)], 100)


def freely_traded(rarity: int, settlement_tier: int) -> bool:
    """Items of a Rarity are freely bought and sold in that Settlement tier and larger."""
    return rarity <= settlement_tier


def _rarity(rarity: int) -> int:
    return max(1, min(rarity, 5))
