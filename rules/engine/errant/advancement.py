"""Renown from XP, the next threshold, the adjutant's share and training Attributes.

Errant SRD: ER §Renown (the XP table, +1 to two different Attributes), §Adjutants; DT
§Improving Attributes (5D4 drop the lowest, 1,000 x 2^(n-1) pennies per attempt);
next-games.md E18-E22.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import product

from .data import RENOWN_MAX, RENOWN_MIN, RENOWN_XP

ADJUTANT_MIN_RENOWN = 2  # ER §Adjutants: "When an Errant reaches Renown 2"
MASTER_SHARE = Fraction(3, 4)  # "the Errant receiving 3/4 of the XP"
TRAINING_BASE_COST = 1_000  # DT: the first attempt costs 1,000 p, each later one doubles
TRAINING_DICE, TRAINING_SIDES = 5, 4  # "5D4, drop the lowest"


def renown_for_xp(xp: int) -> int:
    """The highest Renown whose XP is reached: 1,999 -> 1, 2,000 -> 2, 510,000 -> 9."""
    if xp < 0:
        raise ValueError("XP is never negative")
    renown = RENOWN_MIN
    for level, needed in RENOWN_XP:
        if xp >= needed:
            renown = level
    return renown


def xp_for_renown(renown: int) -> int:
    return dict(RENOWN_XP)[renown]


def xp_next(xp: int) -> int | None:
    """The XP of the next Renown; None at Renown 9, where the table stops."""
    renown = renown_for_xp(xp)
    if renown >= RENOWN_MAX:
        return None
    return xp_for_renown(renown + 1)


def adjutant_split(xp: int) -> tuple[int, int]:
    """(master, adjutant): the master floor(3/4), the adjutant the rest (AMB-E21: none lost)."""
    if xp < 0:
        raise ValueError("XP is never negative")
    master = int(xp * MASTER_SHARE)  # a non-negative Fraction truncates as it floors
    return master, xp - master


def training_cost(attempt: int) -> int:
    """The n-th training attempt (counted across all Attributes) costs 1,000 x 2^(n-1)."""
    if attempt < 1:
        raise ValueError("attempts are counted from 1")
    return TRAINING_BASE_COST * 2 ** (attempt - 1)


@cache
def _training_totals() -> dict[int, int]:
    counts: dict[int, int] = {}
    for dice in product(range(1, TRAINING_SIDES + 1), repeat=TRAINING_DICE):
        total = sum(dice) - min(dice)
        counts[total] = counts.get(total, 0) + 1
    return counts


def p_training(current: int, trainer: int | None = None) -> Fraction:
    """P(5D4 drop the lowest > current), exactly: 15 -> 1/64, 16 -> 0 (E22). "An Attribute
    cannot be trained higher than the trainer's Attribute": 0 once it is reached."""
    if trainer is not None and current >= trainer:
        return Fraction(0)
    counts = _training_totals()
    return Fraction(sum(n for total, n in counts.items() if total > current),
                    TRAINING_SIDES ** TRAINING_DICE)
