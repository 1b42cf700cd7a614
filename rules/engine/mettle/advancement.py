"""Experience: the Highlights ritual and raising Attributes with XP.

METTLE Core SRD, Characters > Experience (Getting XP, Spending XP) and Guidance >
Characters ("make-up" XP for each missing session).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .attributes import Attributes, highest
from .data import ATTRIBUTE_KEYS, ATTRIBUTE_NAMES

HIGHEST_RAISE_MULTIPLIER = 2  # "Raise highest: XP = highest Attribute x 2"
XP_PER_HIGHLIGHT = 1  # "a memorable event or Highlight from the last game, netting them an XP"
MAKE_UP_XP_PER_MISSED_SESSION = 1  # GD: "a bonus 'make-up' XP for each missing session"


class SessionLength(StrEnum):
    SHORT = "short"
    MEDIUM = "medium"
    LONG = "long"


# "two rounds ... for a medium-length game session, and three for a long one ... typical XP
# awards are from one to three": a short session is one round (docs/RULES.md).
HIGHLIGHT_ROUNDS = {SessionLength.SHORT: 1, SessionLength.MEDIUM: 2, SessionLength.LONG: 3}


def highlight_rounds(length: SessionLength | str) -> int:
    return HIGHLIGHT_ROUNDS[SessionLength(length)]


def make_up_xp(missed_sessions: int, per_session: int = MAKE_UP_XP_PER_MISSED_SESSION) -> int:
    """Bonus XP for a returning player (AMB-M10: one per missed session, configurable)."""
    return max(missed_sessions, 0) * per_session


def counts_as_highest(attrs: Attributes, key: str) -> bool:
    """"If two or more of the highest Attributes are equal, the one you are raising counts
    as the highest." Unmodified pools only (CH §Step 3)."""
    return attrs[key] == highest(attrs)


def raise_cost(attrs: Attributes, key: str) -> int:
    """XP to raise `key` by one: twice its level if it is the highest, else the highest."""
    if key not in ATTRIBUTE_KEYS:
        raise KeyError(key)
    if counts_as_highest(attrs, key):
        return HIGHEST_RAISE_MULTIPLIER * attrs[key]
    return highest(attrs)


def raise_cost_terms(attrs: Attributes, key: str) -> tuple[tuple[str, int], ...]:
    """What raise_cost multiplies, for the explanation."""
    if counts_as_highest(attrs, key):
        return ((f"{HIGHEST_RAISE_MULTIPLIER} x {ATTRIBUTE_NAMES[key]} (the highest)",
                 attrs[key]),)
    return (("the highest", highest(attrs)),)


@dataclass(frozen=True)
class Raise:
    key: str
    before: int
    cost: int


def apply_raises(
    attrs: Attributes, raises: tuple[str, ...]
) -> tuple[Attributes, tuple[Raise, ...]]:
    """The pools after each raise in order, and what each cost at the time it was bought."""
    bought = []
    for key in raises:
        cost = raise_cost(attrs, key)
        bought.append(Raise(key, attrs[key], cost))
        attrs = attrs.raised(key)
    return attrs, tuple(bought)
