"""Checks: d20 above the DV and at most the Attribute, exact odds as Fractions, the DV's
modifiers, Saving Throws, opposed Checks, NPC Checks, wagers and the Fame roll.

Errant SRD: CR §Checks, §Opposed Checks, §Saving Throws, §Setting a Difficulty Value,
§Check Procedure; PR §Encumbrance (+1 DV on physical and stabilise Checks); ER §The Deviant
(expertise, Jettons, wagers); IT §NPC Attributes (Threat + 8); ER §Renown (Fame roll).
Odds are closed-form counts over the 20 faces (next-games.md E12), never simulated.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .data import (
    DEFAULT_IMPACT,
    DEFAULT_POSITION,
    EXPERTISE_DV,
    IMPACTS,
    MASTERY_IMPACT,
    MASTERY_POSITION,
    POSITIONS,
)

D20 = 20
NPC_ATTRIBUTE_BONUS = 8  # IT §NPC Attributes: an NPC rolls at most Threat + 8
WAGER_DIE = 10  # ER §The Deviant: "Roll a D10 ... the number of Jettons you spent"
FAME_DIE = 10  # ER §Renown: "roll a D10 and attempt to roll equal or under their Renown"


def automatic(dv: int) -> bool:
    """CR §Setting a Difficulty Value: "If a DV would be reduced below 0, the Check
    automatically succeeds". DV 0 itself is rolled (AMB-E2)."""
    return dv < 0


def succeeds(roll: int, attribute: int, dv: int) -> bool:
    """CR §Checks: "roll lower or equal to a relevant Attribute and above a difficulty
    value" (AMB-E1: at most the Attribute, over QR's "<")."""
    if not 1 <= roll <= D20:
        raise ValueError(f"{roll} is not a face of a d20")
    return automatic(dv) or dv < roll <= attribute


def successes(attribute: int, dv: int) -> int:
    """How many of the 20 faces succeed: min(A, 20) - max(DV, 0), at least 0; all 20 when
    the DV is below 0."""
    if automatic(dv):
        return D20
    return max(0, min(attribute, D20) - dv)


def p_success(attribute: int, dv: int) -> Fraction:
    """The exact chance of a Check (E12): Attribute 10 vs DV 4 -> 3/10."""
    return Fraction(successes(attribute, dv), D20)


@dataclass(frozen=True)
class DvTerm:
    label: str
    value: int


@dataclass(frozen=True)
class CheckDv:
    """A Check's DV as the Guide set it and what the sheet adds or takes away."""

    base: int
    terms: tuple[DvTerm, ...]

    @property
    def value(self) -> int:
        return self.base + sum(t.value for t in self.terms)

    @property
    def explanation(self) -> str:
        text = f"DV {self.value} = base {self.base}"
        for term in self.terms:
            text += f" {'+' if term.value >= 0 else '-'} {abs(term.value)} {term.label}"
        return text


def check_dv(base: int, *, encumbrance: int = 0, physical: bool = False,
             stabilise: bool = False, expertise: bool = False, jettons: int = 0,
             saving_throw: bool = False) -> CheckDv:
    """The DV after the sheet's modifiers:
    - Encumbrance: +1 per point on physical and stabilise Checks (PR §Encumbrance);
    - expertise: -2 on Checks of the Proficiency, "but not Saving Throws" (ER §The Deviant);
    - Jettons: -1 each on related Checks, "including Saving Throws" (ER §The Deviant)."""
    if jettons < 0:
        raise ValueError("Jettons spent are never negative")
    terms = []
    if encumbrance and (physical or stabilise):
        terms.append(DvTerm("Encumbrance", encumbrance))
    if expertise and not saving_throw:
        terms.append(DvTerm("expertise", EXPERTISE_DV))
    if jettons:
        terms.append(DvTerm("Jettons", -jettons))
    return CheckDv(base, tuple(terms))


def saving_throw_dv(renown_or_threat: int) -> int:
    """CR §Saving Throws: the base DV is the Renown or Threat of whoever caused the effect."""
    return renown_or_threat


def npc_attribute(threat: int) -> int:
    """IT §NPC Attributes: an NPC's Check succeeds on at most Threat + 8."""
    return threat + NPC_ATTRIBUTE_BONUS


@dataclass(frozen=True)
class OpposedOdds:
    """CR §Opposed Checks: "whoever rolls higher while still succeeding ... wins. If both
    parties fail ... worse for both. If the roll is tied, the Guide may declare a draw, or
    ask for another opposed Check". The four outcomes sum to 1."""

    first_wins: Fraction
    second_wins: Fraction
    tie: Fraction  # both succeed on the same face
    both_fail: Fraction


def _success_faces(attribute: int, dv: int) -> list[int]:
    return [roll for roll in range(1, D20 + 1) if automatic(dv) or dv < roll <= attribute]


def opposed_odds(first: tuple[int, int], second: tuple[int, int]) -> OpposedOdds:
    """Exact odds of an opposed Check; each side is (Attribute, DV). Counted over the 400
    pairs of faces. An automatic success still compares its face."""
    a = set(_success_faces(*first))
    b = set(_success_faces(*second))
    first_wins = second_wins = tie = both_fail = 0
    for x in range(1, D20 + 1):
        for y in range(1, D20 + 1):
            if x in a and y in b:
                if x > y:
                    first_wins += 1
                elif y > x:
                    second_wins += 1
                else:
                    tie += 1
            elif x in a:
                first_wins += 1
            elif y in b:
                second_wins += 1
            else:
                both_fail += 1
    total = D20 * D20
    return OpposedOdds(Fraction(first_wins, total), Fraction(second_wins, total),
                       Fraction(tie, total), Fraction(both_fail, total))


def p_wager(jettons_spent: int) -> Fraction:
    """ER §The Deviant, wager: a D10 at most the Jettons spent (5 Jettons -> 1/2)."""
    if jettons_spent < 0:
        raise ValueError("Jettons spent are never negative")
    return Fraction(min(jettons_spent, WAGER_DIE), WAGER_DIE)


def p_fame(renown: int) -> Fraction:
    """ER §Renown: the reputation precedes the Errant on a D10 at most their Renown."""
    return Fraction(max(0, min(renown, FAME_DIE)), FAME_DIE)


# -- a Check rolled: its outcome, its stakes, opposed results ------------------------------


@dataclass(frozen=True)
class Stakes:
    """CR §Position & Impact: Position sets what a failure means, Impact what a success
    means; neither changes the odds."""

    position: str
    impact: str

    def meaning(self, success: bool) -> str:
        """"Fair Impact: you got what you wanted." and the like."""
        if success:
            name, text = IMPACTS[self.impact]
            return f"{name} Impact: {text}."
        name, text = POSITIONS[self.position]
        return f"{name} Position: {text}."


def stakes(position: str = DEFAULT_POSITION, impact: str = DEFAULT_IMPACT, *,
           mastery: bool = False) -> Stakes:
    """The Check's Position and Impact as the Guide set them; a mastered Proficiency's
    Checks are shaky and strong (ER §The Deviant, mastery: "changes the Position of all
    Checks relating to that Proficiency to shaky, and the Impact ... to strong")."""
    if position not in POSITIONS:
        raise ValueError(f"{position!r} is not a Position")
    if impact not in IMPACTS:
        raise ValueError(f"{impact!r} is not an Impact")
    if mastery:
        return Stakes(MASTERY_POSITION, MASTERY_IMPACT)
    return Stakes(position, impact)


def roll_d20(rng) -> int:
    return rng.randint(1, D20)


FIRST, SECOND, TIE, BOTH_FAIL = "first", "second", "tie", "both_fail"


def opposed_result(first: tuple[int, bool], second: tuple[int, bool]) -> str:
    """CR §Opposed Checks, each side (face, succeeded): the higher roll that still succeeds
    wins (a lone success wins); both failing is BOTH_FAIL; both succeeding on one face is a
    TIE (the Guide declares a draw or asks for another opposed Check). Counted the same
    way as opposed_odds."""
    (x, x_ok), (y, y_ok) = first, second
    if x_ok and y_ok:
        return FIRST if x > y else SECOND if y > x else TIE
    if x_ok:
        return FIRST
    if y_ok:
        return SECOND
    return BOTH_FAIL
