"""The Company's numbers: XP from money wasted, the setback's split, the Fame roll, the
most extreme Alignment, reputation bands and the debt's doubling.

Errant SRD: ER §Renown ("1 XP per penny they waste"; the Fame roll "D10 ... equal or
under their Renown"); DT §Setbacks, §Funerals, §Debts, §Alignment, §Reputation.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .data import ALIGNMENTS
from .data.company import REPUTATION_BANDS, REPUTATION_MAX, REPUTATION_MIN, WASTE_SOURCES

XP_PER_PENNY = 1  # ER §Renown: "1 XP per penny they waste"; DT §Funerals: 1p -> 1 XP
FAME_DIE = 10  # ER §Renown: "roll a D10 and attempt to roll equal or under their Renown"
WASTE_SOURCE_KEYS = tuple(key for key, _, _ in WASTE_SOURCES)
SPLIT_SOURCES = ("setback",)  # DT §Setbacks: "they divide the XP equally amongst themselves"
SPENT_SOURCES = ("conspicuous", "waste", "funeral")  # money that leaves the purse


def xp_for_waste(pennies: int, source: str, invested: int = 1) -> int:
    """The XP each Errant gains from `pennies` of `source`: 1 XP per penny (ER §Renown; DT
    §Funerals). A setback's base investment cost is divided equally among the `invested`
    Errants (DT §Setbacks), each share rounded down (AMB-E-C1: XP comes in whole points,
    and no Errant gains more than an equal share)."""
    if source not in WASTE_SOURCE_KEYS:
        raise ValueError(f"unknown source {source!r}")
    if pennies < 0:
        raise ValueError("money wasted is never negative")
    if invested < 1:
        raise ValueError("at least one Errant gains it")
    xp = pennies * XP_PER_PENNY
    return xp // invested if source in SPLIT_SOURCES else xp


@dataclass(frozen=True)
class FameRoll:
    die: int
    renown: int

    @property
    def known(self) -> bool:
        """ER §Renown: "equal or under their Renown": their reputation precedes them."""
        return self.die <= self.renown


def p_fame(renown: int) -> Fraction:
    """P(d10 <= Renown), exactly (Renown 9: 9/10; the table stops at 9)."""
    return Fraction(max(0, min(renown, FAME_DIE)), FAME_DIE)


def alignment_points(alignment: str) -> tuple[str, int]:
    """("L", 2) for L2, ("N", 0) for N."""
    if alignment not in ALIGNMENTS:
        raise ValueError(f"{alignment!r} is not on the track")
    return (alignment[0], int(alignment[1])) if alignment != "N" else ("N", 0)


def most_extreme_alignment(alignments) -> tuple[str, ...]:
    """DT §Alignment: "modify the Reaction Roll by the Alignment of the most extremely
    aligned character". The most extreme Alignment(s) of the members: one, or two on a
    tie between Law and Chaos (L2 and C2), where "the Alignment that would Impact the
    Reaction Roll most negatively" depends on the NPC's own Alignment (AMB-E-C2: both are
    shown; against a Lawful NPC the Chaotic one counts, against a Chaotic NPC the Lawful
    one). No members: ()."""
    ranked = [alignment_points(a) for a in alignments]
    if not ranked:
        return ()
    top = max(points for _, points in ranked)
    return tuple(sorted({f"{side}{points}" if side != "N" else "N"
                         for side, points in ranked if points == top}))


def reaction_modifier(alignments, npc_side: str) -> int:
    """The Company's Alignment modifier to an NPC's Reaction Roll (DT §Alignment): a
    Chaotic NPC's roll rises 1 per Chaotic point and falls 1 per Lawful point, a Lawful
    NPC's the reverse; a tie takes the lowest (most negative) modifier; "N": 0."""
    extremes = most_extreme_alignment(alignments)
    if npc_side not in ("L", "C") or not extremes:
        return 0
    mods = []
    for alignment in extremes:
        side, points = alignment_points(alignment)
        if side == "N":
            mods.append(0)
        else:
            mods.append(points if side == npc_side else -points)
    return min(mods)


def reputation_band(score: int) -> tuple[str, str]:
    """(name, what the Faction does) of a reputation score (DT §Reputation, 2-12)."""
    if not REPUTATION_MIN <= score <= REPUTATION_MAX:
        raise ValueError(f"reputation runs {REPUTATION_MIN}-{REPUTATION_MAX}")
    name, does = "", ""
    for low, band, text in REPUTATION_BANDS:
        if score >= low:
            name, does = band, text
    return name, does


def debt_doubled(debt: int) -> int:
    """DT §Debts: "At the start of every Downtime Turn, the remaining amount owed by the
    Company doubles": the increase to record (the debt itself again)."""
    if debt < 0:
        raise ValueError("a debt is never negative")
    return debt
