"""Checks: reading the dice, exact odds, Twists, Raises, die modifiers and Split Actions.

METTLE Core SRD, Engine > Checks (Success & Failure, Check Modifiers, Twists, Raises,
Teamwork) and the Scenes chapter (seed 001) > Split Actions. Every chance is an exact
Fraction, counted over every roll of the dice (an integer dynamic programme for the Score
of the dice showing 1-3, binomial counts for the Edge); nothing is simulated.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from math import comb
from random import Random

from .data import DIFFICULTY, EDGE

SCORE_FACES = (1, 2, 3)  # "Add up the face numbers of all the dice showing 1-3"
EDGE_FACES = (4, 5, 6)  # "Count the number of dice showing 4-6"
RAISE_FACE = 6  # EN §Raises: "set one or more of the dice in your pool to six"
POOL_MAX = 60  # only to keep input sane: the rules set no largest pool


def read_dice(faces: Iterable[int]) -> tuple[int, int]:
    """(Score, Edge) of rolled faces: [4, 1, 3, 5, 2, 2] -> (8, 2) (EN §Success & Failure)."""
    score = edge = 0
    for face in faces:
        if face not in (*SCORE_FACES, *EDGE_FACES):
            raise ValueError(f"{face} is not a face of a d6")
        if face in SCORE_FACES:
            score += face
        else:
            edge += 1
    return score, edge


def succeeds(score: int, difficulty: int) -> bool:
    """"Your Check succeeds if the Score *beats* the Difficulty": strictly greater."""
    return score > difficulty


def edge_quality(edge: int) -> str:
    """EDGE table: 0 OK, 1 Good, 2 Great, 3 Excellent, 4 Amazing, 5+ Legendary."""
    if edge < 0:
        raise ValueError("Edge is a count of dice, never negative")
    return EDGE[min(edge, len(EDGE) - 1)]


def difficulty_rank(difficulty: int) -> str | None:
    """The DIFFICULTY rung at or below `difficulty` (10-14 Formidable); None below 1."""
    rank = None
    for threshold, name in DIFFICULTY:
        if difficulty >= threshold:
            rank = name
    return rank


# -- the (Score, Edge) distribution --------------------------------------------------------
# One die is Edge with chance 1/2 (faces 4-6) or adds 1, 2 or 3 to the Score, 1/6 each. Of
# the 6**n ordered rolls of n dice, those with e Edge dice and Score s number
# C(n, e) * 3**e * T(n - e, s), where T(m, s) counts the ways m dice showing 1-3 sum to s
# (next-games.md M20). Everything is counted in integers; a chance is a count over 6**n.


@cache
def _score_ways(dice: int) -> tuple[int, ...]:
    """T(dice, s) for s = 0 ... 3 * dice: the ways `dice` dice showing 1-3 sum to s."""
    if dice == 0:
        return (1,)
    previous = _score_ways(dice - 1)
    ways = [0] * (3 * dice + 1)
    for total, count in enumerate(previous):
        if count:
            for face in SCORE_FACES:
                ways[total + face] += count
    return tuple(ways)


@cache
def _roll_counts(dice: int) -> dict[tuple[int, int], int]:
    """(Score, Edge) -> how many of the 6**dice ordered rolls give it."""
    if dice < 0:
        raise ValueError("a pool cannot have fewer than zero dice")
    if dice > POOL_MAX:
        raise ValueError(f"a pool of more than {POOL_MAX} dice is not a Check this app rolls")
    counts = {}
    for edge in range(dice + 1):
        edge_ways = comb(dice, edge) * len(EDGE_FACES) ** edge
        for score, ways in enumerate(_score_ways(dice - edge)):
            if ways:
                counts[score, edge] = edge_ways * ways
    return counts


@lru_cache(maxsize=4096)  # the threshold comes from the table's input: keep it bounded
def _rolls_above(dice: int, threshold: int) -> int:
    """How many of the 6**dice ordered rolls have a Score above `threshold`."""
    return sum(n for (score, _edge), n in _roll_counts(dice).items() if score > threshold)


def distribution(dice: int) -> dict[tuple[int, int], Fraction]:
    """P(Score, Edge) for `dice` d6, exactly; zero dice score (0, 0) for certain."""
    total = 6 ** dice
    return {key: Fraction(n, total) for key, n in _roll_counts(dice).items()}


def p_score_above(dice: int, threshold: int) -> Fraction:
    """P(Score of `dice` d6 > threshold)."""
    return Fraction(_rolls_above(dice, threshold), 6 ** dice)


@dataclass(frozen=True)
class CheckOdds:
    """The exact chances of one Check before it is rolled.

    `p_success` is the chance the Score beats the Difficulty; `p_success_with_twist`
    the chance of success when the player calls a Twist on every failure that has Edge
    (EN §Twists: reroll all Edge dice once, the Score dice kept). `edge_on_success[e]`
    is P(success with exactly e Edge), without a Twist.
    """

    dice: int
    difficulty: int
    raises: int
    p_success: Fraction
    p_success_with_twist: Fraction
    p_twist_allowed: Fraction  # P(failure with Edge >= 1): a Twist may be called
    edge_on_success: dict[int, Fraction]

    @property
    def p_failure(self) -> Fraction:
        return 1 - self.p_success

    @property
    def p_saved_by_twist(self) -> Fraction:
        return self.p_success_with_twist - self.p_success


def check_odds(dice: int, difficulty: int, raises: int = 0) -> CheckOdds:
    """Odds of a Check of `dice` d6 against `difficulty`, `raises` of them set to six.

    EN §Raises: raised dice "go straight to Edge" and are not rolled, so the Score comes
    from the other dice; "you can still use raised dice for a Twist if they backfire", so
    a Twist rerolls them with the rolled Edge dice, as ordinary dice.
    """
    dice = max(dice, 0)
    if not 0 <= raises <= dice:
        raise ValueError(f"{raises} Raises cannot be set aside from a pool of {dice}")
    rolled = dice - raises
    # Counts over 6**rolled first rolls; a Twist's reroll of m dice is counted over
    # 6**dice by scaling its 6**m rolls by 6**(dice - m), so one denominator serves all.
    wins = allowed = saved = 0
    edge_wins: dict[int, int] = {}
    for (score, edge), n in _roll_counts(rolled).items():
        edge += raises
        if succeeds(score, difficulty):
            wins += n
            edge_wins[edge] = edge_wins.get(edge, 0) + n
        elif edge:
            allowed += n
            saved += n * _rolls_above(edge, difficulty - score) * 6 ** (dice - edge)
    total = 6 ** rolled
    p_success = Fraction(wins, total)
    return CheckOdds(
        dice=dice, difficulty=difficulty, raises=raises, p_success=p_success,
        p_success_with_twist=p_success + Fraction(saved, total * 6 ** dice),
        p_twist_allowed=Fraction(allowed, total),
        edge_on_success={edge: Fraction(n, total) for edge, n in sorted(edge_wins.items())},
    )


# -- a rolled Check ------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckRoll:
    """A rolled Check: the faces (raised dice as sixes), and the Twist's new faces."""

    faces: tuple[int, ...]
    difficulty: int
    twist_faces: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        read_dice(self.faces)
        if self.twist_faces is not None:
            if not self.may_twist:
                raise ValueError("a Twist may be called only after a failure with Edge")
            if len(self.twist_faces) != self.first_edge:
                raise ValueError(f"a Twist rerolls the {self.first_edge} Edge dice, "
                                 f"not {len(self.twist_faces)}")
            read_dice(self.twist_faces)

    @property
    def first_score(self) -> int:
        return read_dice(self.faces)[0]

    @property
    def first_edge(self) -> int:
        return read_dice(self.faces)[1]

    @property
    def may_twist(self) -> bool:
        """EN §Twists: "If you fail a Check but have Edge, you may call for a Twist";
        one Twist per Check (docs/RULES.md, AMB-M9)."""
        return not succeeds(self.first_score, self.difficulty) and self.first_edge > 0

    @property
    def final_faces(self) -> tuple[int, ...]:
        """The Score dice kept and the rerolled Edge dice: the example's [1, 4, 4, 5, 6]
        then [1, 3, 5, 5] is [1, 1, 3, 5, 5]."""
        if self.twist_faces is None:
            return self.faces
        kept = tuple(face for face in self.faces if face in SCORE_FACES)
        return kept + self.twist_faces

    @property
    def score(self) -> int:
        return read_dice(self.final_faces)[0]

    @property
    def edge(self) -> int:
        return read_dice(self.final_faces)[1]

    @property
    def success(self) -> bool:
        return succeeds(self.score, self.difficulty)

    @property
    def quality(self) -> str | None:
        """The EDGE grade of a success; None for a failure."""
        return edge_quality(self.edge) if self.success else None


def roll_check(dice: int, difficulty: int, raises: int, rng: Random) -> CheckRoll:
    """Roll a Check: `raises` dice set to six before the roll (EN §Raises: "Do not Check
    these, they go straight to Edge"), the others rolled with `rng` (a d6 each)."""
    if not 0 <= raises <= dice:
        raise ValueError(f"{raises} Raises cannot be set aside from a pool of {dice}")
    if dice > POOL_MAX:
        raise ValueError(f"a pool of more than {POOL_MAX} dice is not a Check this app rolls")
    rolled = tuple(rng.randint(1, 6) for _ in range(dice - raises))
    return CheckRoll(faces=rolled + (RAISE_FACE,) * raises, difficulty=difficulty)


def roll_twist(check: CheckRoll, rng: Random) -> CheckRoll:
    """Call the Twist of a failed Check with Edge: every Edge die (raised ones too) is
    rolled again, the Score dice kept (EN §Twists). Refused (ValueError) when no Twist
    may be called."""
    if check.twist_faces is not None:
        raise ValueError("one Twist per Check")
    if not check.may_twist:
        raise ValueError("a Twist may be called only after a failure with Edge")
    again = tuple(rng.randint(1, 6) for _ in range(check.first_edge))
    return CheckRoll(faces=check.faces, difficulty=check.difficulty, twist_faces=again)


# -- die modifiers, Teamwork, Split Actions --------------------------------------------------


def check_pool(
    pool: int,
    bonuses: Iterable[int] = (),
    penalties: Iterable[int] = (),
    *,
    largest_only: bool = False,
) -> int:
    """The dice rolled: the pool plus every +XD, less every -XD, never below zero.

    EN §Check Modifiers: +XD and -XD change the pool; "consider only the largest bonus
    and penalty" is the table's option when modifiers pile up (`largest_only`).
    Penalties may be given as negative or positive magnitudes.
    """
    ups = [b for b in bonuses if b > 0]
    downs = [abs(p) for p in penalties if p]
    if largest_only:
        ups, downs = ups and [max(ups)], downs and [max(downs)]
    return max(pool + sum(ups) - sum(downs), 0)


TEAMWORK_BONUS = 1  # EN §Teamwork: "+1D to anyone whose relevant pool is lower than the highest"


def teamwork_bonus(pool: int, best_in_group: int | None) -> int:
    """The Teamwork die of one member: +1D when their pool is lower than the highest of
    the group (`best_in_group`, None when nobody helps)."""
    if best_in_group is None:
        return 0
    return teamwork_pools((pool, best_in_group))[0] - pool


def teamwork_pools(pools: Sequence[int]) -> tuple[int, ...]:
    """Each member's pool with Teamwork: +1D to every pool lower than the highest."""
    top = max(pools, default=0)
    return tuple(p + TEAMWORK_BONUS if p < top else p for p in pools)


def split_pool(dice: int, parts: int, caps: Sequence[int | None] | None = None) -> tuple[int, ...]:
    """Split a pool into `parts` Actions as evenly as possible (Scenes > Split Actions:
    "5D ... split into 3D and 2D"), each part at least 1 die (AMB-M8) and no part above its
    cap, the pool of a smaller Attribute that part uses (AMB-M7: the most even division
    that respects the caps; NATURE 6 with a POISE 1 Move splits 5 and 1).

    Raises ValueError when the dice cannot make that many parts, or the caps leave dice
    that no part may take.
    """
    if parts < 1:
        raise ValueError("a split needs at least one Action")
    if dice < parts:
        raise ValueError(f"{dice}D cannot split into {parts} Actions of at least 1 die each")
    limits = [None] * parts if caps is None else list(caps)
    if len(limits) != parts:
        raise ValueError("one cap per part")
    if any(cap is not None and cap < 1 for cap in limits):
        raise ValueError("a part's cap must allow at least 1 die")
    # Water-filling: hand the dice out one at a time to the smallest part not at its cap;
    # ties go to the earlier part, so 5 in 3 is (2, 2, 1).
    shares = [1] * parts
    for _ in range(dice - parts):
        open_parts = [i for i in range(parts) if limits[i] is None or shares[i] < limits[i]]
        if not open_parts:
            raise ValueError(f"{dice}D cannot be split: every part is at its cap")
        smallest = min(open_parts, key=lambda i: (shares[i], i))
        shares[smallest] += 1
    return tuple(shares)


def split_check_pools(
    dice: int,
    parts: int,
    modifiers: Sequence[int] = (),
    caps: Sequence[int | None] | None = None,
) -> tuple[int, ...]:
    """The dice each part of a Split Action rolls: the split first, then each part's own
    die modifiers ("Die modifiers are applied after the split, to each Action
    separately": a Sword's +2D on the Attack part only), never below zero."""
    shares = split_pool(dice, parts, caps)
    if len(modifiers) > parts:
        raise ValueError("one modifier per part at most")
    extra = list(modifiers) + [0] * (parts - len(modifiers))
    return tuple(max(share + mod, 0) for share, mod in zip(shares, extra, strict=True))
