"""Reaction Rolls, dispositions and Negotiations.

Errant SRD: PR §Reaction Rolls, §Negotiations; CR §Position & Impact; DT §Alignment;
QR §Reaction Rolls, §Negotiations; ER §The Deviant (Speechcraft mastery: 3D6);
next-games.md AMB-E9, AMB-E14; AMB-E-SPEECH. The 2D6 bands for the
five dispositions are NOT in the text: DispositionBands is the Guide's setting, defaulting
to our reading and labelled so (DISPOSITION_BANDS_LABEL).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import product

from .data.downtime_tables import (
    DEFAULT_DISPOSITION_BANDS,
    DISPOSITION_BANDS_LABEL,
    DISPOSITION_DV,
    DISPOSITIONS,
    EXCHANGE_KINDS,
)

REACTION_DICE = 2  # PR §Reaction Rolls: "rolling 2D6"
# ER §The Deviant, Speechcraft mastery: "all Reaction Rolls for NPCs interacting with you
# are rolled with 3D6" (all three summed: AMB-E-SPEECH).
SPEECHCRAFT_DICE = 3
MODIFIER_CAP = 3  # PR §Reaction Rolls: modifiers "should generally not exceed -3 or +3"
OVERTIME_DROP = 2  # PR §Negotiations: "their disposition will lower by 2 each exchange"
END_DISPOSITION = 2  # "until it reaches 2 and they end the Negotiation"
POSITIONS = ("shaky", "risky", "dire")
IMPACTS = ("weak", "fair", "strong")
BANDS_LABEL = DISPOSITION_BANDS_LABEL
# IT §NPC Attributes: "aligned with the forces of Law or Chaos, or ... Neutral".
NPC_SIDES = {"l": "L", "lawful": "L", "c": "C", "chaotic": "C", "n": "N", "neutral": "N"}


class SocialError(ValueError):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


# -- Alignment -------------------------------------------------------------------------------


def _points(alignment: str) -> tuple[str, int]:
    if alignment == "N":
        return "N", 0
    if len(alignment) == 2 and alignment[0] in "LC" and alignment[1] in "123":
        return alignment[0], int(alignment[1])
    raise SocialError("bad_alignment", f"{alignment!r} is not an Alignment (L3 ... N ... C3).")


def alignment_modifier(company: Iterable[str], npc_alignment: str) -> int:
    """DT §Alignment: each point of Chaos raises a Chaotic character's Reaction Roll and
    lowers a Lawful one's (and the reverse for Law). Only the most extreme Company member
    counts; on a tie, the one that hurts the roll most. Neutral NPCs: 0."""
    npc_side = NPC_SIDES.get(npc_alignment.strip().lower())
    if npc_side is None:
        raise SocialError("bad_alignment", "An NPC is Lawful, Chaotic or Neutral.")
    members = [_points(a) for a in company]
    if not members:
        return 0
    most = max(p for _, p in members)
    effects = []
    for side, points in members:
        if points != most:
            continue
        if npc_side == "N" or side == "N":
            effects.append(0)
        else:
            effects.append(points if side == npc_side else -points)
    return min(effects)


# -- the Reaction Roll and dispositions ------------------------------------------------------


@dataclass(frozen=True)
class DispositionBands:
    """The Guide's 2D6 bands: (disposition, highest total) in order; anything below the
    first top is the first, above the last is the last."""

    tops: tuple[tuple[str, int], ...] = DEFAULT_DISPOSITION_BANDS
    label: str = BANDS_LABEL

    def __post_init__(self):
        names = tuple(n for n, _ in self.tops)
        if names != DISPOSITIONS:
            raise SocialError("bad_bands", "Give one band per disposition, Hostile to Friendly.")
        values = [t for _, t in self.tops]
        if any(b <= a for a, b in zip(values, values[1:], strict=False)):
            raise SocialError("bad_bands", "Each band must end above the one before it.")

    def disposition(self, value: int) -> str:
        for name, top in self.tops:
            if value <= top:
                return name
        return self.tops[-1][0]


@dataclass(frozen=True)
class Reaction:
    dice: tuple[int, ...]  # two D6, or three for a Speechcraft master
    modifier: int  # situational, capped at +/-3
    alignment: int

    @property
    def value(self) -> int:
        """The disposition number (QR: "Reaction Roll result = disposition")."""
        return sum(self.dice) + self.modifier + self.alignment


def reaction_roll(dice: Sequence[int], modifiers: Iterable[int] = (),
                  alignment: int = 0) -> Reaction:
    """2D6 (3D6 with a Speechcraft master, all summed: AMB-E-SPEECH) + the Guide's
    modifiers (capped at +/-3 in total) + the Alignment modifier, which the text gives
    apart from the Guide's modifiers and so is not capped (AMB-E82)."""
    d = tuple(dice)
    if len(d) not in (REACTION_DICE, SPEECHCRAFT_DICE) or any(
            isinstance(x, bool) or not isinstance(x, int) or not 1 <= x <= 6 for x in d):
        raise SocialError("bad_dice", "A Reaction Roll is two D6 (three for a Speechcraft "
                                      "master), each 1 to 6.")
    capped = max(-MODIFIER_CAP, min(MODIFIER_CAP, sum(modifiers)))
    return Reaction(d, capped, alignment)


def social_dv(disposition: str) -> int:
    """PR §Reaction Rolls: Hostile +8, Unfriendly +4, Unsure 0, Amicable -2, Friendly -4."""
    return DISPOSITION_DV[disposition]


def disposition_odds(modifier: int = 0, bands: DispositionBands | None = None,
                     dice: int = REACTION_DICE) -> dict[str, Fraction]:
    """Exact chance of each disposition over the 36 rolls of 2D6 (the 216 of 3D6 for a
    Speechcraft master)."""
    if dice not in (REACTION_DICE, SPEECHCRAFT_DICE):
        raise SocialError("bad_dice", "A Reaction Roll is two D6 or three.")
    bands = bands or DispositionBands()
    faces = list(product(range(1, 7), repeat=dice))
    c = Counter(bands.disposition(sum(f) + modifier) for f in faces)
    return {name: Fraction(c[name], len(faces)) for name in DISPOSITIONS}


# -- Negotiations ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Negotiation:
    """PR §Negotiations: the starting disposition is how many exchanges the NPC tolerates
    (later changes do not move that number); beyond it, -2 a exchange until 2, when the NPC
    ends it."""

    disposition: int
    tolerance: int
    exchanges: int = 0
    ended: bool = False
    log: tuple[tuple[str, str, int], ...] = ()  # (kind, outcome, disposition change)


def start_negotiation(reaction_value: int) -> Negotiation:
    return Negotiation(reaction_value, max(0, reaction_value))


def _outcome(kind: str, success: bool | None, position: str, impact: str) -> tuple[str, int]:
    if kind == "banal":
        return "banal", 0
    if success is None:
        raise SocialError("no_check", f"A {kind} exchange needs a Check's result.")
    if kind == "giving":
        if not success or impact == "weak":
            return "unimpressed", 0
        return ("touched", 3) if impact == "strong" else ("enjoys", 1)
    # taking and convincing share their shape (AMB-E9: compromise on failure at shaky)
    if success:
        if impact == "weak":
            return "compromise", 0
        return ("more_than_asked", 0) if impact == "strong" else ("agrees", 0)
    if position == "dire":
        return "upset", -3
    if position == "shaky":
        return "compromise", 0
    return "refuses", -1


def exchange(n: Negotiation, kind: str, *, success: bool | None = None,
             position: str = "risky", impact: str = "fair", bribe_change: int = 0
             ) -> Negotiation:
    """One exchange. Banal needs no Check; giving, taking and convincing need `success`;
    a bribe's effect is the Guide's (`bribe_change`). Taking and convincing outcomes:
    "agrees"/"more_than_asked" read as "receptive"/"accepts" for convincing."""
    if n.ended:
        raise SocialError("ended", "The NPC has ended the Negotiation.")
    if kind not in EXCHANGE_KINDS:
        raise SocialError("bad_kind", f"Choose one of: {', '.join(EXCHANGE_KINDS)}.")
    if position not in POSITIONS or impact not in IMPACTS:
        raise SocialError("bad_stakes", "Position is shaky/risky/dire; Impact weak/fair/strong.")
    if kind == "bribe":
        outcome, change = "bribe", bribe_change
    else:
        outcome, change = _outcome(kind, success, position, impact)
    if kind == "convincing":
        outcome = {"agrees": "receptive", "more_than_asked": "accepts",
                   "compromise": "unconvinced", "refuses": "insulted",
                   "upset": "offended"}[outcome]
    count = n.exchanges + 1
    disposition = n.disposition + change
    ended = False
    if count > n.tolerance:
        if disposition > END_DISPOSITION:  # lowers "until it reaches 2", never raises it
            disposition = max(END_DISPOSITION, disposition - OVERTIME_DROP)
        ended = disposition <= END_DISPOSITION
    return replace(n, disposition=disposition, exchanges=count, ended=ended,
                   log=(*n.log, (kind, outcome, disposition - n.disposition)))
