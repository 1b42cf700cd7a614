"""Learning a Trade (DT §Trades): the levels with their cost per attempt and the
successes each needs, the bonus from extra expenditure, and the exact odds of 2D6 +
bonus against the table (10+ success; 7-9 the next attempt succeeds; 2-6 nothing).
next-games.md E22."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import product


@dataclass(frozen=True)
class TradeLevel:
    key: str
    name: str
    cost: int  # pennies per training attempt
    successes: int  # successful attempts to be certified
    crafting_bonus: int  # to crafting rolls once certified


# DT §Trades: "Training to become an apprentice costs 2,000p per training attempt ...
# requires one successful training attempt"; journeyman 4,000 p, two; master 8,000 p,
# three. (A legendary artisan is made by quests, not by training attempts.)
LEVELS = (
    TradeLevel("apprentice", "Apprentice", 2_000, 1, 0),
    TradeLevel("journeyman", "Journeyman", 4_000, 2, 1),
    TradeLevel("master", "Master", 8_000, 3, 2),
)
LEVEL_KEYS = tuple(level.key for level in LEVELS)
BY_KEY = {level.key: level for level in LEVELS}
BONUS_MAX = 3  # "to a maximum of +3"
SUCCESS_AT, NEXT_AT = 10, 7  # 10+: success; 7-9: the next attempt is an automatic success
SUCCESS, NEXT_AUTOMATIC, NO_PROGRESS = "success", "next_automatic", "no_progress"
OUTCOME_LABELS = {SUCCESS: "Training attempt is successful",
                  NEXT_AUTOMATIC: "The next training attempt is an automatic success",
                  NO_PROGRESS: "No progress is made"}


def next_level(certified: str | None) -> TradeLevel | None:
    """The level trained for next: apprentice from a layman (None), then journeyman, then
    master; None past master."""
    if certified is None:
        return LEVELS[0]
    index = LEVEL_KEYS.index(certified)
    return LEVELS[index + 1] if index + 1 < len(LEVELS) else None


def expenditure_bonus(cost: int, extra: int) -> int:
    """"each extra 25% of the learning cost adds +1": whole quarters only."""
    if extra < 0:
        raise ValueError("extra expenditure is never negative")
    return extra // (cost // 4)


def bonus(cost: int, extra: int, situational: int) -> int:
    """The roll's bonus: extra expenditure and situational bonuses, at most +3 together."""
    if situational < 0:
        raise ValueError("a situational bonus is never negative")
    return min(expenditure_bonus(cost, extra) + situational, BONUS_MAX)


def outcome(total: int) -> str:
    if total >= SUCCESS_AT:
        return SUCCESS
    if total >= NEXT_AT:
        return NEXT_AUTOMATIC
    return NO_PROGRESS


def odds(bonus_: int) -> dict[str, Fraction]:
    """The exact chance of each outcome of 2D6 + bonus (out of 36)."""
    counts = dict.fromkeys((SUCCESS, NEXT_AUTOMATIC, NO_PROGRESS), 0)
    for a, b in product(range(1, 7), repeat=2):
        counts[outcome(a + b + bonus_)] += 1
    return {key: Fraction(n, 36) for key, n in counts.items()}
