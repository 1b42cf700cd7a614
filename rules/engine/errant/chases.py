"""Chases: each side's slowest member rolls movement dice; two 4s end it, other doubles let
that side act, faces matching across sides allow ranged attacks; sprinting; the lowest
roller's D10 development.

Errant SRD: IT §Chases, §Chase Developments, §Speed & Movement; QR §Chases; next-games.md
E37, AMB-E23. docs/RULES.md: AMB-E23, AMB-E83 ...
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import product

from .checks import p_success
from .data.initiative_tables import CHASE_DEVELOPMENTS

MOVEMENT_DIE = 4  # IT §Speed & Movement: each movement die is a D4
ESCAPE_FACE, ESCAPE_COUNT = 4, 2  # "If the fugitives roll two 4's, then they escape"
SPRINT_FACTOR = 2  # "rolling double their normal amount of movement dice"
DEVELOPMENT_DIE = 10


class ChaseError(ValueError):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Runner:
    key: str
    speed: int  # SPD for Errants (of the mount or vehicle if riding), MV for NPCs
    movement_dice: int


def slowest(side: Sequence[Runner]) -> Runner:
    """The member with the lowest SPD or MV rolls for the side (the first listed on a tie)."""
    if not side:
        raise ChaseError("empty_side", "A side needs at least one member.")
    return min(side, key=lambda r: r.speed)


def sprint_dice(movement_dice: int) -> int:
    return movement_dice * SPRINT_FACTOR


def p_sprint(phys: int, encumbrance: int) -> Fraction:
    """The phys Check to sprint, DV = Encumbrance (not added a second time, AMB-E83)."""
    return p_success(phys, encumbrance)


def _check(faces: Sequence[int]) -> tuple[int, ...]:
    for f in faces:
        if not isinstance(f, int) or isinstance(f, bool) or not 1 <= f <= MOVEMENT_DIE:
            raise ChaseError("bad_die", "Movement dice are D4s: 1 to 4.")
    return tuple(faces)


def two_fours(faces: Sequence[int]) -> bool:
    """At least two dice showing 4 (one die can never do it, AMB-E23)."""
    return list(faces).count(ESCAPE_FACE) >= ESCAPE_COUNT


def doubles(faces: Sequence[int]) -> bool:
    """Two or more dice on the same face other than 4."""
    c = Counter(faces)
    return any(n >= 2 for face, n in c.items() if face != ESCAPE_FACE)


@dataclass(frozen=True)
class ChaseRound:
    fugitives: tuple[int, ...]  # () when the side could not roll (a failed sprint)
    pursuers: tuple[int, ...]

    @property
    def escaped(self) -> bool:
        return two_fours(self.fugitives) and not two_fours(self.pursuers)

    @property
    def caught(self) -> bool:
        return two_fours(self.pursuers) and not two_fours(self.fugitives)

    @property
    def tiebreak(self) -> bool:
        """Both sides rolled two 4s: both roll again."""
        return two_fours(self.fugitives) and two_fours(self.pursuers)

    @property
    def ended(self) -> bool:
        return self.escaped or self.caught

    @property
    def fugitives_act(self) -> bool:
        return doubles(self.fugitives)

    @property
    def pursuers_act(self) -> bool:
        return doubles(self.pursuers)

    @property
    def ranged(self) -> bool:
        """Any face on one side matching any face on the other."""
        return bool(set(self.fugitives) & set(self.pursuers))

    @property
    def development_side(self) -> str | None:
        """The side with the lower total rolls the D10 development, if the Chase goes on. A
        side that could not roll counts 0. Equal totals: neither rolled lowest (AMB-E84)."""
        if self.ended or self.tiebreak:
            return None
        f, p = sum(self.fugitives), sum(self.pursuers)
        if f == p:
            return None
        return "fugitives" if f < p else "pursuers"


def chase_round(fugitives: Sequence[int], pursuers: Sequence[int]) -> ChaseRound:
    if not fugitives and not pursuers:
        raise ChaseError("no_rolls", "At least one side must roll.")
    return ChaseRound(_check(fugitives), _check(pursuers))


def development(d10: int) -> tuple[str, str]:
    if not isinstance(d10, int) or not 1 <= d10 <= DEVELOPMENT_DIE:
        raise ChaseError("bad_die", "The development die is a D10: 1 to 10.")
    return CHASE_DEVELOPMENTS[d10 - 1]


def p_two_fours(dice: int) -> Fraction:
    """Exact chance that `dice` D4s show at least two 4s (0 with one die)."""
    if dice < 0:
        raise ChaseError("bad_dice", "Dice are never negative.")
    wins = sum(1 for r in product(range(1, 5), repeat=dice) if two_fours(r))
    return Fraction(wins, MOVEMENT_DIE ** dice)
