"""Check dice and modifiers.

Eldritch Gambit SRD, Basics > Checks and Basics > Rolls > Modifiers;
Characters > Defenses (Staggered: "all Checks are made on a d12").
"""

from __future__ import annotations

from collections.abc import Iterable

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
