"""The statuses a METTLE character keeps on its sheet, what each does, and when it ends.

EN §Taking Damage (Fallen, Staggered, Dead), EN §Status Effects (Afflicted, Blinded,
Deafened, Encumbered, Incapacitated, Rattled, Surprised) and Scenery > Fire (Burning, seed
001). Reading AMB-M-STAT-1 (docs/RULES.md): a status that lasts "for the Scene" or ends
"next Scene" ends with the Scene (the end of Initiative, AMB-M-INI-1); the others stay on
the sheet until the player takes them off (cured, extinguished), except Staggered, which
is about negative Mettle and ends when Mettle is above zero again.
"""

from __future__ import annotations

from collections.abc import Iterable

from .attributes import Issue

STAGGERED = "staggered"

# What each status does, in short (the rules reference has the texts).
STATUS_EFFECTS: dict[str, str] = {
    "afflicted": "Max Mettle drops slowly over time until the affliction runs out or is "
                 "cured (EN §Status Effects); no Rally while max Mettle it took is not "
                 "recovered (Scenery > Affliction; a Tranquilizer also raises Check "
                 "Difficulties).",
    "blinded": "Cannot do what needs sight; other Checks +3 Difficulty; others may Sneak "
               "as if in Cover (EN §Status Effects).",
    "burning": "Cannot Rally; takes the fire's damage each Round until extinguished "
               "(Scenery > Fire).",
    "dead": "Out of the story: time for a new character (EN §Taking Damage).",
    "deafened": "Cannot do what needs hearing; others may Sneak as if in Cover "
                "(EN §Status Effects).",
    "encumbered": "Load over FRAME: every Zone crossed takes two Moves (EN §Status "
                  "Effects).",
    "fallen": "No Action and 0 POISE for the Scene; may or may not be dead (EN §Taking "
              "Damage).",
    "incapacitated": "Unconscious or paralysed: POISE 0 and no Action (EN §Status "
                     "Effects).",
    "rattled": "Rallies are harder: the Rattle raises their Difficulty (EN §Status "
               "Effects).",
    "staggered": "No Free Move, a Check vs. Difficulty 0 to Move, no Rally, and -1D to "
                 "Checks per point of negative Mettle (EN §Taking Damage).",
    "surprised": "No Action in the first Round of Initiative (EN §Status Effects; "
                 "AMB-M11b).",
}

# The same in a few words, for the printed sheet (EN §Taking Damage's own summary lines).
STATUS_SHORT: dict[str, str] = {
    "afflicted": "max Mettle falls until cured; no Rally once it has",
    "blinded": "+3 Difficulty without sight",
    "burning": "no Rally, the fire's damage each Round",
    "dead": "a new character",
    "deafened": "no hearing tasks",
    "encumbered": "two Moves a Zone",
    "fallen": "no Action, 0 POISE",
    "incapacitated": "no Action, 0 POISE",
    "rattled": "harder Rallies",
    "staggered": "no Free Move or Rally, -1D per negative Mettle",
    "surprised": "no Action the first Round",
}

# The statuses the sheet keeps between Scenes and the player sets (AMB-M-STAT-1). Fallen
# and Encumbered are not chosen: the sheet derives them (Mettle 0 or below without
# Staggered; Load over FRAME). Incapacitated, Rattled and Surprised end with the Scene.
LASTING_STATUSES = ("afflicted", "blinded", "burning", "deafened", STAGGERED, "dead")


# The statuses that forbid a Rally: Scenery > Fire, Burning: "they cannot Rally";
# EN §Taking Damage, Staggered: "They also cannot Rally".
NO_RALLY = ("burning", STAGGERED)


def rally_refusal(statuses: Iterable[str], mettle_max_lost: int = 0) -> str:
    """Why a character with these statuses cannot Rally, or "" when it may.

    `mettle_max_lost` is the maximum Mettle Afflictions have taken and not yet given back
    (the sheet's `mettle_max_lost`): Scenery > Affliction's summary, "lose Rally if any
    damage", refuses a Rally from the first point an affliction takes until the maximum
    has recovered (AMB-M-AFF-8), whatever the Afflicted box says."""
    held = set(statuses)
    for key in NO_RALLY:
        if key in held:
            where = "Scenery > Fire" if key == "burning" else "EN §Taking Damage"
            return f"{status_label(key)} characters cannot Rally ({where})."
    if mettle_max_lost and mettle_max_lost > 0:
        return (f"An Affliction has lowered max Mettle by {mettle_max_lost}: no Rally "
                "until it recovers (Scenery > Affliction: “lose Rally if any damage”).")
    return ""


def status_label(key: str) -> str:
    return key.capitalize()


def staggered_allowed(mettle_current: int | None) -> bool:
    """Staggered is chosen on a Felling blow and lasts while Mettle is 0 or below
    (EN §Taking Damage); None is full Mettle."""
    return mettle_current is not None and mettle_current <= 0


def statuses_after_scene(statuses: Iterable[str], mettle_current: int | None
                         ) -> tuple[str, ...]:
    """What a character keeps on its sheet when a Scene ends (AMB-M-STAT-1): the lasting
    statuses, Staggered only while Mettle is 0 or below; in LASTING_STATUSES' order."""
    held = set(statuses)
    return tuple(key for key in LASTING_STATUSES if key in held
                 and (key != STAGGERED or staggered_allowed(mettle_current)))


def status_issues(statuses: Iterable[str], mettle_current: int | None) -> tuple[Issue, ...]:
    """The problems of a character's chosen statuses, on the field `statuses` (which
    statuses may be chosen at all is the form's choice list)."""
    issues = []
    if STAGGERED in statuses and not staggered_allowed(mettle_current):
        issues.append(Issue("staggered_above_zero",
                            "Staggered lasts only while Mettle is 0 or below (a Felling "
                            "blow): untick it, or set Current Mettle to 0 or below.",
                            "statuses"))
    return tuple(issues)
