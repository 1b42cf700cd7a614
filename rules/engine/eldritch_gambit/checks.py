"""Check dice and modifiers.

Eldritch Gambit SRD, Basics > Checks and Basics > Rolls > Modifiers;
Characters > Defenses (Staggered: "all Checks are made on a d12").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

CHECK_DIE_WITH_OCS = 20  # a relevant Origin, Career or Skill (or Attack, Grapple)
CHECK_DIE_WITHOUT_OCS = 12

# DIFFICULTIES table (Basics > Checks).
DIFFICULTIES = (
    (5, "Routine"),
    (10, "Challenging"),
    (15, "Daunting"),
    (20, "Formidable"),
    (25, "Nigh impossible"),
)


def check_die(*, has_ocs: bool, staggered: bool = False) -> int:
    if staggered:
        return CHECK_DIE_WITHOUT_OCS
    return CHECK_DIE_WITH_OCS if has_ocs else CHECK_DIE_WITHOUT_OCS


def modifier(attribute: int, bonuses: Iterable[int] = (), penalties: Iterable[int] = ()) -> int:
    """Modifier = Attribute + the largest Bonus + the largest Penalty.

    Bonuses do not stack with bonuses, nor penalties with penalties: only the
    largest of each counts. Penalties may be given as negative or positive
    magnitudes; both mean a penalty.
    """
    bonus = max((b for b in bonuses if b > 0), default=0)
    penalty = max((abs(p) for p in penalties if p), default=0)
    return attribute + bonus - penalty


def difficulty_name(df: int) -> str:
    name = DIFFICULTIES[0][1]
    for threshold, label in DIFFICULTIES:
        if df >= threshold:
            name = label
    return name


# -- Outcomes and exact odds ---------------------------------------------------------------
# Basics > Checks: "If the total result is at or above the action's Difficulty Factor ...
# it is a success"; "A natural ... one ... always fails. A natural twenty always succeeds
# ... A d12 Check always succeeds on a 12 instead". Basics > Checks > Gambits: "After
# success, succeeding again results in a triumphant Critical, while failing means they have
# now merely failed. After Failure, succeeding on the Gambit turns it into a Success while
# failing again reveals a ruinous Botch ... The same Modifiers and dice apply to the Gambit
# as the original Check, and one can only Gambit once per Check."
# Characters > Defenses > Status, Confused: "Checks turning up an odd (raw) number on the
# dice fail".

CRITICAL = "critical"
SUCCESS = "success"
FAILURE = "failure"
BOTCH = "botch"
OUTCOMES = (CRITICAL, SUCCESS, FAILURE, BOTCH)
OUTCOME_NAMES = {CRITICAL: "Critical", SUCCESS: "Success", FAILURE: "Failure", BOTCH: "Botch"}

# The Gambit policies whose outcome distributions are shown before a roll.
NO_GAMBIT = "none"
GAMBIT_AFTER_SUCCESS = "after_success"
GAMBIT_AFTER_FAILURE = "after_failure"
GAMBIT_ALWAYS = "always"
POLICIES = (NO_GAMBIT, GAMBIT_AFTER_SUCCESS, GAMBIT_AFTER_FAILURE, GAMBIT_ALWAYS)

# The bounds the app accepts for a Check (only to keep input sane: the rules set none).
DF_MIN, DF_MAX = 0, 100  # DF 0: a Fallen or Incapacitated target's AF
BONUS_MAX = 50


@dataclass(frozen=True)
class CheckSpec:
    """One Check: its die (20 or 12), its whole Modifier and its DF."""

    die: int
    modifier: int
    df: int
    confused: bool = False

    def __post_init__(self) -> None:
        if self.die not in (CHECK_DIE_WITH_OCS, CHECK_DIE_WITHOUT_OCS):
            raise ValueError(f"a Check is made on a d20 or a d12, not a d{self.die}")

    def total(self, natural: int) -> int:
        """The natural result plus the Modifier, never below 0: a Modifier "can reduce
        the result to zero but not into the negatives", and "Modifiers apply to Checks
        just as they do for Rolls" (Basics > Rolls > Modifiers; Basics > Checks)."""
        return max(natural + self.modifier, 0)

    def succeeds(self, natural: int) -> bool:
        """Whether a natural (raw) die result succeeds."""
        if not 1 <= natural <= self.die:
            raise ValueError(f"{natural} is not a face of a d{self.die}")
        if natural == 1:
            return False  # "A natural ... one ... always fails."
        if self.confused and natural % 2:
            return False  # Confused: an odd raw number fails.
        if natural == self.die:
            return True  # a natural 20 (d20) or 12 (d12) always succeeds
        return self.total(natural) >= self.df

    @property
    def success_faces(self) -> tuple[int, ...]:
        return tuple(n for n in range(1, self.die + 1) if self.succeeds(n))

    @property
    def p_success(self) -> Fraction:
        return Fraction(len(self.success_faces), self.die)

    def outcome(self, first: int, gambit: int | None = None) -> str:
        """The outcome of a Check rolled `first`, and of the Gambit rolled `gambit`."""
        success = self.succeeds(first)
        if gambit is None:
            return SUCCESS if success else FAILURE
        again = self.succeeds(gambit)
        if success:
            return CRITICAL if again else FAILURE
        return SUCCESS if again else BOTCH


@dataclass(frozen=True)
class CheckOdds:
    """The exact chances of one Check, before it is rolled.

    `p_success` is the chance the roll succeeds. `distributions[policy]` maps every
    outcome to its chance when the player calls a Gambit as the policy says (never,
    only after a success, only after a failure, always); each sums to 1.
    """

    spec: CheckSpec
    p_success: Fraction
    distributions: dict[str, dict[str, Fraction]]

    @property
    def p_failure(self) -> Fraction:
        return 1 - self.p_success

    @property
    def p_critical(self) -> Fraction:
        """P(success, then success on the Gambit)."""
        return self.p_success * self.p_success

    @property
    def p_botch(self) -> Fraction:
        """P(failure, then failure on the Gambit)."""
        return self.p_failure * self.p_failure

    @property
    def p_fail_after_success_gambit(self) -> Fraction:
        """P(success, then failure on the Gambit): the success is lost."""
        return self.p_success * self.p_failure

    @property
    def p_saved_by_gambit(self) -> Fraction:
        """P(failure, then success on the Gambit): the failure becomes a Success."""
        return self.p_failure * self.p_success


def check_odds(spec: CheckSpec) -> CheckOdds:
    """Exact odds, with Fractions: nothing is simulated."""
    p = spec.p_success
    q = 1 - p
    zero = Fraction(0)
    distributions = {
        NO_GAMBIT: {CRITICAL: zero, SUCCESS: p, FAILURE: q, BOTCH: zero},
        GAMBIT_AFTER_SUCCESS: {CRITICAL: p * p, SUCCESS: zero, FAILURE: p * q + q, BOTCH: zero},
        GAMBIT_AFTER_FAILURE: {CRITICAL: zero, SUCCESS: p + q * p, FAILURE: zero, BOTCH: q * q},
        GAMBIT_ALWAYS: {CRITICAL: p * p, SUCCESS: q * p, FAILURE: p * q, BOTCH: q * q},
    }
    return CheckOdds(spec=spec, p_success=p, distributions=distributions)


def percent(chance: Fraction) -> str:
    """A chance as a percentage with up to two decimals: 0.3025 -> "30.25%"."""
    value = chance * 100
    text = f"{float(value):.2f}".rstrip("0").rstrip(".")
    if value not in (0, 100) and text in ("0", "100"):
        text = "<0.01" if text == "0" else ">99.99"
    return f"{text}%"
