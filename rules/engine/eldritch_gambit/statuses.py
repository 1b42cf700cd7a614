"""Statuses and what they do to the numbers.

Eldritch Gambit SRD, Characters > Defenses > Hit Points ("HP Status Effects")
and Characters > Defenses > Status.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class StatusRule:
    key: str
    name: str
    effect: str
    derived: bool = False  # set by the engine (from Load), not chosen


STATUSES = (
    StatusRule("staggered", "Staggered", "No Free Move until Recovery; all Checks on a d12."),
    StatusRule("fallen", "Fallen", "No Action; AF drops to 0."),
    StatusRule("dead", "Dead", "Time to make a new character."),
    StatusRule(
        "blinded", "Blinded",
        "-4 to Checks partly reliant on sight; foes count as behind Soft Cover (-4).",
    ),
    StatusRule("burning", "Burning", "1d6 fire damage at the top of each Round; cannot Rally."),
    StatusRule("confused", "Confused", "Checks turning up an odd raw number fail."),
    StatusRule("deafened", "Deafened", "Cannot hear or do tasks reliant on hearing."),
    StatusRule("diseased", "Diseased", "Better or worse with later Recovery Checks."),
    StatusRule(
        "encumbered", "Encumbered", "Load over STR + END: two Moves to cross a Zone.",
        derived=True,
    ),
    StatusRule("grappled", "Grappled", "Loses their Action until the attacker loses hold."),
    StatusRule(
        "incapacitated", "Incapacitated",
        "Loses their Action; AF drops to 0. From a Spell, Affliction, or Load over twice "
        "STR + END.",
    ),
    StatusRule(
        "poisoned", "Poisoned",
        "Record the Buildup; if the total exceeds Base HP, the poison takes effect.",
    ),
    StatusRule(
        "surprised", "Surprised", "Loses their Action for the first Initiative Round; AF halved.",
    ),
)
STATUS_BY_KEY = {rule.key: rule for rule in STATUSES}
CHOOSABLE_STATUSES = tuple(rule for rule in STATUSES if not rule.derived)

BLINDED_PENALTY = -4  # "Checks partly reliant on sight face a -4 penalty"


def normalize_status(name: str) -> str | None:
    """Status key for a name in any case ("Staggered", "staggered"), else None."""
    key = (name or "").strip().lower()
    return key if key in STATUS_BY_KEY else None
