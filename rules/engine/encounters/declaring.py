"""Encounter rules (seed 004): a combatant's declared round, as Initiative slots.

A declaration is an ordered list of items (H3, H4, H8, H9, H18):
- `major`: an action that matters (strike, cast, pick a lock); it may name the kind of
  skill it uses (physical or mental) and the rating of that skill;
- `defend`: a declared defence (Defense when maneuvering, Defiance when concentrating),
  used when the combatant is attacked; it holds its place in the order like a major;
- `haste`: spends an action for +2 Initiative on everything this round;
- movement: `stand` (from prone), `run` (yards on foot), `mount` (or dismount), `ride`
  (yards at the mount's pace), `leap`; a run or a ride is as many movement actions as
  it takes pace-lengths (H8);
- `minor`: an incidental action, no skill and no Initiative by itself.

Arithmetic (our own statement of the rules; readings in docs/RULES.md):
- Initiative of an item = the round's Initiative (roll + the Guide's bonus + 2 per haste)
  - 2 for every major, defence and movement action before it (H3, H9, AMB-H6); haste and
  minors take no place in that sequence (AMB-H4).
- Skill penalty for the round = -2 x (counted actions - 1), counted actions being the
  majors, the hastes and the defences (each, or all as one: AMB-H11); movement actions
  are not counted (AMB-H2, AMB-H3).
- Refused: more than 4 movement actions (H8); a skill of the kind the round's mode does
  not allow (H2: no round uses both kinds).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from .calculators import encumbered_pace, movement_actions, ride_actions
from .combatants import (
    EACH_DEFENCE,
    MENTAL,
    PHYSICAL,
    SKILL_OF_MODE,
    Combatant,
    EncounterError,
    Settings,
    whole,
)

MAJOR, DEFEND, HASTE, MINOR = "major", "defend", "haste", "minor"
STAND, RUN, MOUNT, RIDE, LEAP = "stand", "run", "mount", "ride", "leap"
MOVES = (STAND, RUN, MOUNT, RIDE, LEAP)
KINDS = (MAJOR, DEFEND, HASTE, MINOR, *MOVES)
MOVE = "move"  # the slot kind of every movement action
MOVE_LABELS = {STAND: "stand up", MOUNT: "mount or dismount", LEAP: "leap"}

# H8: at most four movement actions in a round.
MAX_MOVES = 4
# H3, H9, H18: every later action is 2 lower; every haste 2 higher; the penalty step.
STEP = 2
HASTE_BONUS = 2
PENALTY_STEP = 2
# Bounds of our own so a hostile form cannot build an absurd round.
MAX_MAJORS = 8
MAX_HASTE = 6
MAX_MINORS = 8
MAX_ROUNDS = 100
MAX_LABEL = 60
MAX_ITEMS = 30

PENDING, DONE, LOST, ABORTED, LAPSED = "pending", "done", "lost", "aborted", "lapsed"


@dataclass(frozen=True)
class Item:
    kind: str
    label: str = ""
    skill: str = ""  # physical, mental or "" (a major that rolls no skill)
    yards: int = 0  # run, ride
    mount_pace: int = 0  # ride: 20-40 yards per movement action
    rounds: int = 1  # a major taking several rounds (H6)
    rating: int | None = None  # the skill's rating, to show it with the penalty
    engrossing: bool = False  # no defence while it lasts (H5)


@dataclass(frozen=True)
class Slot:
    """One place in a combatant's sequence: a major, a defence or a movement action."""

    index: int
    kind: str  # major, defend, move, minor (a round of minor actions only)
    label: str
    offset: int  # Initiative relative to the round's Initiative (0, -2, -4, ...)
    skill: str = ""
    rounds: int = 1
    rating: int | None = None
    engrossing: bool = False
    yards: int | Fraction = 0  # yards this movement action covers (charge momentum)
    status: str = PENDING
    out_of_turn: bool = False  # a defence taken when attacked

    @property
    def counted(self) -> bool:
        """Still counts toward the skill penalty (taken or still to take)."""
        return self.kind in (MAJOR, DEFEND) and self.status in (PENDING, DONE)


@dataclass(frozen=True)
class Declared:
    slots: tuple[Slot, ...]
    haste: int
    minors: tuple[str, ...]


def item_from(data: Mapping | Item) -> Item:
    """An Item from a stored or posted mapping, every field checked."""
    if isinstance(data, Item):
        data = data.__dict__
    if not isinstance(data, Mapping):
        raise EncounterError("Each action must be a mapping.", "items")
    kind = data.get("kind")
    if kind not in KINDS:
        raise EncounterError(f"Unknown kind of action {kind!r}.", "items")
    label = data.get("label", "") or ""
    if not isinstance(label, str) or len(label.strip()) > MAX_LABEL:
        raise EncounterError(f"A label of at most {MAX_LABEL} characters.", "items")
    skill = data.get("skill", "") or ""
    if skill not in ("", PHYSICAL, MENTAL):
        raise EncounterError("A skill is physical or mental.", "items")
    rating = data.get("rating")
    engrossing = data.get("engrossing", False)
    if not isinstance(engrossing, bool):
        raise EncounterError("Engrossing is yes or no.", "items")
    return Item(
        kind=kind, label=label.strip(), skill=skill,
        yards=whole(_or(data.get("yards"), 0), "yards", low=0, high=100_000),
        mount_pace=whole(_or(data.get("mount_pace"), 0), "mount_pace", low=0, high=40),
        rounds=whole(_or(data.get("rounds"), 1), "rounds", low=1, high=MAX_ROUNDS),
        rating=None if rating in (None, "") else whole(rating, "rating"),
        engrossing=engrossing,
    )


def _or(value, default):
    """A blank form field (None or "") is the default; anything else is checked."""
    return default if value is None or value == "" else value


def declare(combatant: Combatant, mode: str, items: Iterable[Mapping | Item],
            settings: Settings, *, defences_only: bool = False) -> Declared:
    """The slots of a declared round, or EncounterError naming what the rules refuse.
    `defences_only`: a bystander of round zero may only declare defences (H17)."""
    items = list(items)
    if len(items) > MAX_ITEMS:
        raise EncounterError(f"At most {MAX_ITEMS} entries in a declaration.", "items")
    items = [item_from(i) for i in items]
    allowed = SKILL_OF_MODE[mode]
    slots: list[Slot] = []
    minors: list[str] = []
    haste = moves = majors = 0
    offset = 0
    for item in items:
        if defences_only and item.kind != DEFEND:
            raise EncounterError("Only the one who starts the fight acts in round zero: "
                                 "the others can only defend.", "items")
        if item.kind == HASTE:
            haste += 1
            continue
        if item.kind == MINOR:
            minors.append(item.label or "minor action")
            continue
        if item.kind in (MAJOR, DEFEND):
            skill = allowed if item.kind == DEFEND else item.skill
            if skill and skill != allowed:
                raise EncounterError(
                    f"This round is a {mode} round: {allowed} skills only. A {skill} "
                    "skill would use both kinds in one round.", "items")
            if item.rounds > 1 and item.kind != MAJOR:
                raise EncounterError("Only a major action can take several rounds.",
                                     "items")
            majors += 1
            label = item.label or ("defence" if item.kind == DEFEND else "major action")
            slots.append(Slot(len(slots), item.kind, label, offset, skill=skill,
                              rounds=item.rounds, rating=item.rating,
                              engrossing=item.engrossing))
            offset -= STEP
            continue
        count, yards_each, label = _movement(combatant, item, settings)
        if moves + count > MAX_MOVES:
            raise EncounterError(f"At most {MAX_MOVES} movement actions in a round; this "
                                 f"declares {moves + count}.", "items")
        for n in range(count):
            part = f" ({n + 1} of {count})" if count > 1 else ""
            slots.append(Slot(len(slots), MOVE, f"{label}{part}", offset,
                              yards=yards_each[n]))
            offset -= STEP
        moves += count
    if majors > MAX_MAJORS:
        raise EncounterError(f"At most {MAX_MAJORS} majors and defences in a round.", "items")
    if haste > MAX_HASTE:
        raise EncounterError(f"At most {MAX_HASTE} hastes in a round.", "items")
    if len(minors) > MAX_MINORS:
        raise EncounterError(f"At most {MAX_MINORS} minor actions in a round.", "items")
    if haste and not slots:
        raise EncounterError("Haste hurries an action: declare the action it hurries.",
                             "items")
    if minors and not slots:  # a round of minor actions only still takes its turn
        slots.append(Slot(0, MINOR, ", ".join(minors), 0))
        minors = []
    return Declared(tuple(slots), haste, tuple(minors))


def _movement(combatant: Combatant, item: Item, settings: Settings):
    """(movement actions, yards each covers, label) of one movement item."""
    if item.kind in (STAND, MOUNT, LEAP):
        return 1, [0], item.label or MOVE_LABELS[item.kind]
    if item.kind == RUN:
        pace = encumbered_pace(combatant.load, settings.pace_formula).value
        count = movement_actions(item.yards, pace).value
        label = item.label or f"run {item.yards} yd"
    else:
        if not item.mount_pace:
            raise EncounterError("Give the mount's pace (20 to 40 yards).", "mount_pace")
        pace = item.mount_pace
        count = ride_actions(item.yards, item.mount_pace).value
        label = item.label or f"ride {item.yards} yd"
    yards, left = [], item.yards
    for _ in range(count):
        step = min(left, pace)
        yards.append(int(step) if step == int(step) else step)
        left -= step
    return count, yards, label


def counted_actions(slots: Iterable[Slot], haste: int, settings: Settings) -> int:
    """Majors + hastes + defences (each, or all as one: AMB-H11) still counting."""
    slots = [s for s in slots if s.counted]
    defences = sum(1 for s in slots if s.kind == DEFEND)
    if settings.defence_counting != EACH_DEFENCE:
        defences = min(defences, 1)
    return sum(1 for s in slots if s.kind == MAJOR) + defences + haste


def skill_penalty(counted: int) -> int:
    """AMB-H2: -2 for each counted action past the first (0 for one or none)."""
    return -PENALTY_STEP * max(0, counted - 1)
