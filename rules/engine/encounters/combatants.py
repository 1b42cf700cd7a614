"""Encounter rules (seed 004): who fights and how the campaign plays them.

The chapter (seed 004, "HE" in next-games.md §3) has no character chapter beside it, so a
combatant is the handful of numbers the Guide enters: Quickness and Command (the two
skills Initiative rolls), Strength and Willpower (what Pushing Power raises), and the
Stamina, Health and Sanity tracks (their formulas live in chapters we do not have). The
campaign settings cover what the chapter leaves to the table or leaves out (AMB-H1,
AMB-H9, AMB-H11, H12). The text has no open licence: everything here is our own wording.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .. import rolling

# The two modes of the Initiative phase (HE §Initiative, H2): a physical round rolls
# Quickness, a mental one Command.
MANEUVER, CONCENTRATE = "maneuver", "concentrate"
MODES = (MANEUVER, CONCENTRATE)
# The kind of skill each mode allows (H2: no round mixes both kinds).
PHYSICAL, MENTAL = "physical", "mental"
SKILL_OF_MODE = {MANEUVER: PHYSICAL, CONCENTRATE: MENTAL}
MODE_OF_SKILL = {PHYSICAL: MANEUVER, MENTAL: CONCENTRATE}
INITIATIVE_SKILL = {MANEUVER: "Quickness", CONCENTRATE: "Command"}

# Defence counting (H5, AMB-H11): the Guide's choice.
EACH_DEFENCE, ONE_FOR_ALL = "each", "one_for_all"
DEFENCE_COUNTINGS = (EACH_DEFENCE, ONE_FOR_ALL)

# Encumbered pace (H10, AMB-H9): our linear reading, or no slowing at all.
PACE_LINEAR, PACE_IGNORED = "linear", "ignored"
PACE_FORMULAS = (PACE_LINEAR, PACE_IGNORED)

# AMB-H1: the chapter never says what dice a skill roll uses. Our default, named as ours
# and not the chapter's: two six-sided dice plus the skill. "skill" stands for the number.
OUR_SKILL_ROLL = "2d6+skill"
SKILL_TOKEN = "skill"

TRACKS = ("stamina", "health", "sanity")
# Sane bounds for numbers typed at the table (hostile input never reaches arithmetic).
MAX_SCORE = 1000
MAX_NAME = 60
MAX_SIDE = 30
_WHOLE = re.compile(r"[+-]?[0-9]{1,12}")


class EncounterError(ValueError):
    """A step or a number the rules (or sanity) refuse; `field` names the input."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


def whole(value, field: str, *, low: int = -MAX_SCORE, high: int = MAX_SCORE) -> int:
    """`value` as a whole number within [low, high], or EncounterError on `field`."""
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, str) and _WHOLE.fullmatch(value.strip()):
            value = int(value.strip())
        else:
            raise EncounterError(f"{field.replace('_', ' ').capitalize()} must be a whole "
                                 "number.", field)
    if not low <= value <= high:
        raise EncounterError(f"{field.replace('_', ' ').capitalize()} must be between "
                             f"{low} and {high}.", field)
    return value


@dataclass(frozen=True)
class Settings:
    """A campaign's choices for these rules."""

    skill_roll: str = OUR_SKILL_ROLL
    defence_counting: str = EACH_DEFENCE  # AMB-H11: each defence a major action
    charge_momentum: bool = False  # H12 is an optional rule
    pace_formula: str = PACE_LINEAR  # AMB-H9

    def __post_init__(self):
        if self.defence_counting not in DEFENCE_COUNTINGS:
            raise EncounterError("Defence counting must be one of "
                                 f"{', '.join(DEFENCE_COUNTINGS)}.", "defence_counting")
        if self.pace_formula not in PACE_FORMULAS:
            raise EncounterError(f"Pace formula must be one of {', '.join(PACE_FORMULAS)}.",
                                 "pace_formula")
        if not isinstance(self.charge_momentum, bool):
            raise EncounterError("Charge momentum is on or off.", "charge_momentum")
        check_skill_roll(self.skill_roll)


def check_skill_roll(formula: str) -> str:
    """The formula stripped, or EncounterError: dice notation where `skill` may stand
    once for the skill's number ("2d6+skill", "1d10+skill", "3d6")."""
    text = (formula or "").strip() if isinstance(formula, str) else ""
    if text.lower().count(SKILL_TOKEN) > 1:
        raise EncounterError("Name the skill at most once in the roll.", "skill_roll")
    try:
        rolling.validate(_with_skill(text, 0))
    except rolling.RollError as error:
        raise EncounterError(str(error), "skill_roll") from None
    return text


def _with_skill(formula: str, skill: int) -> str:
    lowered = formula.lower()
    at = lowered.find(SKILL_TOKEN)
    if at < 0:
        return formula
    return f"{formula[:at]}({skill}){formula[at + len(SKILL_TOKEN):]}"


def roll_skill(formula: str, skill: int, rng=None) -> rolling.Rolled:
    """Roll the campaign's skill formula for a skill of `skill` (rules.engine.rolling)."""
    check_skill_roll(formula)
    try:
        return rolling.roll(_with_skill(formula.strip(), skill), rng)
    except rolling.RollError as error:
        raise EncounterError(str(error), "skill_roll") from None


@dataclass(frozen=True)
class Combatant:
    """What the tracker knows of one combatant. Current track values may fall to 0 (or
    below, for Health and Sanity, as the Guide records); maxima are at least 1."""

    key: str
    name: str
    side: str
    quickness: int = 0
    command: int = 0
    strength: int = 0
    willpower: int = 0
    stamina: int = 1
    stamina_max: int = 1
    health: int = 1
    health_max: int = 1
    sanity: int = 1
    sanity_max: int = 1
    load: int = 0  # percent of the maximum lift carried (H10)

    def skill_for(self, mode: str) -> int:
        return self.quickness if mode == MANEUVER else self.command

    def ok_on(self, track: str) -> bool:
        """Our reading of "OK" on a track (the wound chapter is out of reach): it has
        taken no harm, the current value is at its maximum (docs/RULES.md, ENC-3)."""
        return getattr(self, track) >= getattr(self, f"{track}_max")

    @property
    def ok(self) -> bool:
        """OK on Health as well as on Sanity (H20)."""
        return self.ok_on("health") and self.ok_on("sanity")


def combatant(key: str, name: str, side: str, **numbers) -> Combatant:
    """A validated Combatant: every number a whole number within bounds, each current
    track at most its maximum (a missing current value starts at the maximum)."""
    if not isinstance(key, str) or not key.strip() or len(key) > MAX_NAME:
        raise EncounterError("A combatant needs a key.", "key")
    name = name.strip() if isinstance(name, str) else ""
    if not name or len(name) > MAX_NAME:
        raise EncounterError(f"A name of 1 to {MAX_NAME} characters.", "name")
    side = side.strip() if isinstance(side, str) else ""
    if not side or len(side) > MAX_SIDE:
        raise EncounterError(f"A side of 1 to {MAX_SIDE} characters.", "side")
    unknown = set(numbers) - {f for f in Combatant.__dataclass_fields__
                              if f not in ("key", "name", "side")}
    if unknown:
        raise EncounterError(f"Unknown number {sorted(unknown)[0]!r}.", sorted(unknown)[0])
    values: dict[str, int] = {}
    for field_name in ("quickness", "command", "strength", "willpower"):
        values[field_name] = whole(numbers.get(field_name, 0), field_name)
    for track in TRACKS:
        top = whole(numbers.get(f"{track}_max", 1), f"{track}_max", low=1)
        now = whole(numbers.get(track, top), track)
        if now > top:
            raise EncounterError(f"{track.capitalize()} {now} is over its maximum of "
                                 f"{top}.", track)
        if track == "stamina" and now < 0:
            raise EncounterError("Stamina cannot be below 0.", track)
        values[track], values[f"{track}_max"] = now, top
    values["load"] = whole(numbers.get("load", 0), "load", low=0, high=100)
    return Combatant(key=key, name=name, side=side, **values)
