"""Item Slots, Encumbrance, SPD and movement, all counted exactly in quarter slots.

Errant SRD: PR §Item Slots, §Hand, Handy & Worn, §Containers, §Exhaustion, §Encumbrance;
IT §Speed & Movement (and QR §Items, §Movement); ER §The Deviant (Fleet-footed).
Every size is a Fraction (1/4, 1/2, 1, 2 ...): nothing is rounded until a rule says so.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from math import floor

from .data import (
    FEET_PER_STEP,
    FLEET_FOOTED_MAX_ENCUMBRANCE,
    MOVEMENT_DICE_TABLE,
    SPD_PER_MOVEMENT_DIE,
)

QUARTER = Fraction(1, 4)  # PR §Encumbrance: thresholds "counted with 1/4 Item Slots"
HAND_SLOTS = 2  # PR §Hand, Handy & Worn: "2 Item Slots are marked for hands"
HANDY_SLOTS_MAX = 4  # "Up to 4 Item Slots may be marked as handy"
COINS_PER_SLOT = 100  # PR §Item Slots: "100 coins can fit in an Item Slot"
ENCUMBRANCE_STEPS_TO_FULL = 4  # "1 Encumbrance for every 25% of their Item Slots"
ENCUMBRANCE_INCAPABLE = 8  # "An Encumbrance of 8 or greater is incapable of doing anything"

# Where an item is (PR §Hand, Handy & Worn, §Containers).
HAND, HANDY, WORN, BACKPACK, CONTAINER = "hand", "handy", "worn", "backpack", "container"
LOCATIONS = (HAND, HANDY, WORN, BACKPACK, CONTAINER)
ON_BODY = (HAND, HANDY, WORN)  # what counts "backpack off" (PR §Encumbrance)


def quarters(slots: Fraction | int) -> int:
    """A size in quarter slots, which every size in Errant is a whole number of."""
    value = Fraction(slots) / QUARTER
    if value.denominator != 1:
        raise ValueError(f"{slots} is not a whole number of quarter slots")
    return int(value)


def coin_slots(coins: int) -> Fraction:
    """100 coins fill a slot; counted in quarters, rounded down (CR §Rounding: "always round
    down"), so 24 coins fill nothing and 25 fill a quarter (docs/RULES.md AMB-E31)."""
    if coins < 0:
        raise ValueError("a number of coins is never negative")
    return Fraction(coins * 4 // COINS_PER_SLOT, 4)


@dataclass(frozen=True)
class Carried:
    """One line of the inventory as the slot rules see it."""

    name: str
    slots: Fraction  # one unit's size
    quantity: int = 1
    location: str = BACKPACK

    @property
    def total(self) -> Fraction:
        return Fraction(self.slots) * self.quantity


def filled_slots(items: Iterable[Carried], exhaustion: int = 0, coins: Fraction = Fraction(0),
                 *, backpack_on: bool = True) -> Fraction:
    """Slots filled: items (all of them with the backpack on; only worn, hand and handy slots
    with it off) + 1 per Exhaustion (PR §Exhaustion, which stays) + the coins given."""
    total = Fraction(exhaustion) + coins
    for item in items:
        if backpack_on or item.location in ON_BODY:
            total += item.total
    return total


def encumbrance(filled: Fraction | int, phys: int) -> int:
    """PR §Encumbrance: +1 per quarter of phys filled (reached, not passed: AMB-E4), 4 when
    all slots are filled; beyond that +1 per whole extra slot (AMB-E3: 12 phys, 13 1/2
    filled -> 5). With phys 13: 1 at 3 1/4, 2 at 6 1/2, 3 at 9 3/4, 4 at 13."""
    filled = Fraction(filled)
    if phys < 1:
        raise ValueError("phys is at least 1 for Item Slots to be counted")
    if filled < 0:
        raise ValueError("filled slots are never negative")
    if filled <= phys:
        return floor(ENCUMBRANCE_STEPS_TO_FULL * filled / phys)
    return ENCUMBRANCE_STEPS_TO_FULL + floor(filled - phys)


def encumbrance_thresholds(phys: int) -> tuple[Fraction, ...]:
    """The filled slots at which Encumbrance reaches 1, 2, 3 and 4: phys x 1/4 ... phys."""
    return tuple(Fraction(phys * step, ENCUMBRANCE_STEPS_TO_FULL)
                 for step in range(1, ENCUMBRANCE_STEPS_TO_FULL + 1))


def incapable(enc: int) -> bool:
    """Encumbrance 8 or more: the Errant can do nothing."""
    return enc >= ENCUMBRANCE_INCAPABLE


def dead_of_exhaustion(exhaustion: int, phys: int) -> bool:
    """PR §Exhaustion: "Exhaustion equal to their phys, they die immediately"."""
    return exhaustion >= phys


def spd(skill: int, enc: int, *, fleet_footed: bool = False) -> int:
    """IT §Speed & Movement: SPD = skill - Encumbrance. A Deviant's Fleet-footed mastery:
    Encumbrance no greater than 4 does not reduce SPD (ER §The Deviant); above 4 it does,
    in full (docs/RULES.md AMB-E32)."""
    if fleet_footed and enc <= FLEET_FOOTED_MAX_ENCUMBRANCE:
        return skill
    return skill - enc


def movement_dice(speed: int) -> int:
    """One D4 per 4 SPD: the IT table 0-3 0 ... 20 5, then on by 4s (AMB-E5); never below 0."""
    for low, high, dice in MOVEMENT_DICE_TABLE:
        if low <= speed <= high:
            return dice
    return max(0, speed // SPD_PER_MOVEMENT_DIE)


def shift_distance(dice: int) -> int | None:
    """A shift moves dice x 10 (feet or yards); with no movement dice there is no shift
    (and an action moves 10 instead): None."""
    return dice * FEET_PER_STEP if dice > 0 else None


def movement_range(dice: int) -> tuple[int, int]:
    """The least and most a movement roll covers: 10 x (dice ... 4 x dice); with no dice an
    action moves 10."""
    if dice <= 0:
        return FEET_PER_STEP, FEET_PER_STEP
    return dice * FEET_PER_STEP, dice * 4 * FEET_PER_STEP


def physical_dv_penalty(enc: int) -> int:
    """PR §Encumbrance: +1 DV per point on Checks for physical activities (climbing,
    sneaking, swimming) and stabilise Checks."""
    return enc


def location_totals(items: Iterable[Carried]) -> dict[str, Fraction]:
    totals = {location: Fraction(0) for location in LOCATIONS}
    for item in items:
        totals[item.location if item.location in totals else BACKPACK] += item.total
    return totals


RETRIEVE_DIE = 4  # PR §Hand, Handy & Worn: "a 1-in-4 chance ... 2-in-4 ..."


def retrieve_is_free(location: str, *, pack_rat: bool = False) -> bool:
    """PR §Hand, Handy & Worn: hand and handy slots are accessed "instantaneously as a free
    action"; a Deviant with Pack Rat (ER §The Deviant, Sleight of hand mastery) "can
    retrieve any item in any Item Slot as if it were a handy slot"."""
    return pack_rat or location in (HAND, HANDY)


def p_retrieve(attempt: int, *, from_body: bool = False, pack_rat: bool = False) -> Fraction:
    """Retrieving an item from outside the hand and handy slots in an Initiative Turn: an
    action, 1-in-4 on the first attempt, +1 each attempt, certain by the fourth; from hand
    or handy slots (or with a Deviant's Pack Rat, any slot) it is certain."""
    if attempt < 1:
        raise ValueError("attempts are counted from 1")
    if from_body or pack_rat:
        return Fraction(1)
    return Fraction(min(attempt, RETRIEVE_DIE), RETRIEVE_DIE)
