"""Exploration Turns: Pace, stealth, illumination, doors, locks, traps, harvesting and
digging (XT §Pace, §Illumination, §Doors, §Lockpicking, §Stealth, §Traps, §Harvesting
Materials, §Collapsed Structures; next-games.md E44). Exact odds as Fractions.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .checks import p_success
from .data.turns_tables import (
    CRACKED,
    EXPLORATION_PACE,
    LOCK_ACTIONS,
    LOCK_MATERIALS,
    LOCK_MODIFIERS,
    LOCK_SEQUENCES,
    NORMAL,
    SECURED,
    SPIKED,
    WEATHERED,
)
from .travel import PaceResult, pace_from

STUCK_DOOR_DV = 4  # XT §Doors: "a stuck door is DV 4 phys Check by base"
HELPER_DV = -2  # XT §Doors: "Each additional Errant assisting ... reduces the DV ... by 2"
PRYBAR_DV = -4  # XT §Doors: "Using a prybar reduces the DV by 4"
PRYBAR_HELPER_DV = -2  # "... one other Errant also using a prybar, who will reduce ... by 2"
FEET_PER_ERRANT = 5  # "one Errant per five feet"
WOODEN_DOOR_BREAK_TURNS = 2  # "A wooden door takes two Exploration Turns to break down"
KIT_COMPONENTS = 4  # XT §Harvesting: "An alchemist's kit can hold four alchemical components"
# ER §The Deviant, Anatomy mastery Chemist: "you can store six alchemical components rather
# than four".
CHEMIST_KIT_COMPONENTS = 6
DIG_BARE_HANDS, DIG_TOOLS = 1, 5  # XT §Collapsed Structures: cubic feet per Turn
INERT_SLOTS_PER_TURN = 1  # XT §Harvesting: "about 1 Item Slot's worth ... per Exploration Turn"


def exploration_pace(keys: tuple[str, ...] | list[str] = ()) -> PaceResult:
    """XT §Pace: e.g. ("quick", "explored") -> 6/1, no mapping, one negative Event Die."""
    return pace_from(EXPLORATION_PACE, keys)


# Stealth (XT §Stealth)
def stealth_dv(encumbrance: int) -> int:
    """One Errant: skill vs DV = their Encumbrance (AMB-E148: the Encumbrance is the DV, it
    is not added a second time as on physical Checks)."""
    if encumbrance < 0:
        raise ValueError("Encumbrance cannot be negative")
    return encumbrance


def group_stealth_dv(encumbrances: tuple[int, ...] | list[int]) -> int:
    """A group: one member rolls vs the total Encumbrance / 2, rounded down (AMB-E149)."""
    if not encumbrances or any(e < 0 for e in encumbrances):
        raise ValueError("a group needs members with Encumbrance 0 or more")
    return sum(encumbrances) // 2


def p_stealth(skill: int, dv: int) -> Fraction:
    return p_success(skill, dv)


# Illumination (XT §Illumination)
BRIGHT, NORMAL_LIGHT, DIM = "bright", "normal", "dim"


def illumination(total_burn: int, members: int, *, discreet_single: bool = False) -> str:
    """Burn >= members: bright (AMB-E7); Burn < members / 2: dim; between: normal. A single
    Errant with a discreet light is dim."""
    if members < 1:
        raise ValueError("a Company has at least one member")
    if total_burn < 0:
        raise ValueError("Burn cannot be negative")
    if discreet_single:
        if members != 1:
            raise ValueError("a discreet light is dim only for a single Errant")
        return DIM
    if total_burn >= members:
        return BRIGHT
    if 2 * total_burn < members:
        return DIM
    return NORMAL_LIGHT


# Doors (XT §Doors)
@dataclass(frozen=True)
class ForceDoor:
    dv: int
    terms: tuple[tuple[str, int], ...]
    helpers_counted: int
    refused: tuple[str, ...]  # why a helper did not count


def force_door(helper_phys: tuple[int, ...] | list[int] = (), *, base: int = STUCK_DOOR_DV,
               width_ft: int = 5, prybar: bool = False,
               prybar_helper_phys: int | None = None) -> ForceDoor:
    """The DV for forcing a stuck door. Helpers count -2 each if their phys is at least
    twice the door's DV (AMB-E8: "at least"; AMB-E150: the DV before reductions); the door's
    width limits the Errants to one per 5 feet, the forcer included. With a prybar: -4 and
    only one helper, who needs a prybar too, for -2."""
    if base < 0 or width_ft < FEET_PER_ERRANT:
        raise ValueError("a door has a DV of 0 or more and is at least 5 feet wide")
    terms: list[tuple[str, int]] = [("stuck door", base)]
    refused: list[str] = []
    room = width_ft // FEET_PER_ERRANT - 1  # places beside the one forcing it
    counted = 0
    if prybar:
        terms.append(("prybar", PRYBAR_DV))
        if helper_phys:
            refused.append("with a prybar only one helper with a prybar can assist")
        if prybar_helper_phys is not None:
            if room < 1:
                refused.append("the door is too narrow for a helper")
            elif prybar_helper_phys >= 2 * base:
                terms.append(("helper with a prybar", PRYBAR_HELPER_DV))
                counted = 1
            else:
                refused.append(f"helper phys {prybar_helper_phys} is under {2 * base}")
    else:
        if prybar_helper_phys is not None:
            raise ValueError("a prybar helper assists only an Errant using a prybar")
        for i, phys in enumerate(helper_phys):
            if phys < 2 * base:
                refused.append(f"helper phys {phys} is under {2 * base}")
            elif counted >= room:
                refused.append(f"helper {i + 1}: no room at a {width_ft} ft door")
            else:
                terms.append(("helper", HELPER_DV))
                counted += 1
    return ForceDoor(sum(v for _, v in terms), tuple(terms), counted, tuple(refused))


def p_force_door(phys: int, door: ForceDoor) -> Fraction:
    """Each attempt takes an Exploration Turn."""
    return p_success(phys, door.dv)


@dataclass(frozen=True)
class BreakDoor:
    turns: int | None  # None: stone or metal, "considerably longer" (the Guide sets it)
    negative_event_dice: int
    quality_loss_per_turn: int  # with inappropriate items (weapons): 1 Quality or Breakage


def break_door(material: str = "wood", *, inappropriate_tools: bool = False) -> BreakDoor:
    if material not in ("wood", "stone", "metal"):
        raise ValueError(f"unknown door material {material!r}")
    return BreakDoor(WOODEN_DOOR_BREAK_TURNS if material == "wood" else None, 1,
                     1 if inappropriate_tools else 0)


# Locks (XT §Lockpicking)
@dataclass(frozen=True)
class Lock:
    material: str
    sequence: tuple[str, str, str]
    modifier: str


def generate_lock(material_d12: int, sequence_d12: int, modifier_d12: int) -> Lock:
    for d in (material_d12, sequence_d12, modifier_d12):
        if not 1 <= d <= 12:
            raise ValueError(f"{d} is not a face of a d12")
    return Lock(LOCK_MATERIALS[material_d12], LOCK_SEQUENCES[sequence_d12],
                LOCK_MODIFIERS[modifier_d12])


@dataclass(frozen=True)
class LockState:
    """Progress (correct actions so far), stiff, jammed, open; wrong actions so far."""

    progress: int = 0
    stiff: bool = False
    jammed: bool = False
    wrongs: int = 0
    jams_ignored: int = 0

    @property
    def open(self) -> bool:
        return self.progress == 3


def jams_ignorable(lock: Lock, *, locksmith: bool = False) -> int:
    """How many times a lock may be spared jamming: one for a Weathered lock ("ignore the
    first time a lock would become jammed", XT §Lockpicking), one for a Locksmith picking
    it (ER §The Deviant, Engineering mastery: "you may ignore the first jam"). The two
    add up on a Weathered lock (AMB-E-LOCKSMITH)."""
    return (lock.modifier == WEATHERED) + bool(locksmith)


def pick(lock: Lock, state: LockState, action: str, *, locksmith: bool = False) -> LockState:
    """One Lockpicking action. A wrong action stiffens the lock (a Secured lock jams at the
    first); a wrong action while stiff jams it (a Weathered lock ignores its first jam, a
    Locksmith picker theirs: jams_ignorable). AMB-E151: a wrong action keeps the progress
    made. Cracked: the first action is always right. Spiked: a wrong action deals D4
    damage (spiked_damage)."""
    if action not in LOCK_ACTIONS:
        raise ValueError(f"{action!r} is not twist, tap or turn")
    if state.jammed or state.open:
        raise ValueError("the lock is jammed" if state.jammed else "the lock is open")
    right = lock.sequence[state.progress] == action or (
        lock.modifier == CRACKED and state.progress == 0)
    if right:
        return LockState(state.progress + 1, state.stiff, False, state.wrongs,
                         state.jams_ignored)
    wrongs = state.wrongs + 1
    jams = state.stiff or (lock.modifier == SECURED and state.wrongs == 0)
    if jams and state.jams_ignored < jams_ignorable(lock, locksmith=locksmith):
        return LockState(state.progress, True, False, wrongs, state.jams_ignored + 1)
    return LockState(state.progress, True, jams, wrongs, state.jams_ignored)


def spiked_damage(lock: Lock, wrong_actions: int) -> int:
    """The number of D4 damage rolls a picker takes (Spiked: one per wrong action)."""
    return wrong_actions if lock.modifier == SPIKED else 0


def p_pick_blind(modifier: str = NORMAL, *, locksmith: bool = False) -> Fraction:
    """The exact chance that a picker who does not know the sequence opens a lock of this
    modifier, choosing uniformly among the actions still possible (any of the 12 table
    sequences consistent with what they have learnt, each equally likely, AMB-E152); a
    Locksmith ignores the first jam."""
    sequences = tuple(LOCK_SEQUENCES.values())

    def go(candidates: tuple[tuple[str, ...], ...], state: LockState,
           lock_of: dict[tuple[str, ...], Lock]) -> Fraction:
        # candidates: sequences consistent with the picker's observations
        if state.open:
            return Fraction(1)
        if state.jammed:
            return Fraction(0)
        options = sorted({a for a in LOCK_ACTIONS if any(
            _could_be_right(lock_of[s], state.progress, a) for s in candidates)})
        total = Fraction(0)
        for a in options:
            share = Fraction(1, len(options))
            right = tuple(s for s in candidates if _could_be_right(lock_of[s], state.progress, a))
            wrong = tuple(s for s in candidates if s not in right)
            n = len(candidates)
            if right:
                total += share * Fraction(len(right), n) * go(
                    right, pick(lock_of[right[0]], state, a, locksmith=locksmith), lock_of)
            if wrong:
                total += share * Fraction(len(wrong), n) * go(
                    wrong, pick(lock_of[wrong[0]], state, a, locksmith=locksmith), lock_of)
        return total

    lock_of = {s: Lock("", s, modifier) for s in sequences}
    return go(sequences, LockState(), lock_of)


def _could_be_right(lock: Lock, progress: int, action: str) -> bool:
    return lock.sequence[progress] == action or (lock.modifier == CRACKED and progress == 0)


# Traps (XT §Traps)
def trap_dv(dungeon_level: int) -> int:
    """The Save to avoid a trap: DV = the dungeon level (the Guide sets it elsewhere)."""
    if dungeon_level < 0:
        raise ValueError("a dungeon level cannot be negative")
    return dungeon_level


def p_avoid_trap(attribute: int, dungeon_level: int) -> Fraction:
    return p_success(attribute, trap_dv(dungeon_level))


# Harvesting (XT §Harvesting Materials)
def harvest_dv(threat: int) -> int:
    """Active components from a creature: skill vs half its Threat, rounded down (AMB-E149)."""
    if threat < 0:
        raise ValueError("Threat cannot be negative")
    return threat // 2


def creature_components(threat: int) -> int:
    """A creature's component counts as half its Threat (rounded down, at least 1,
    AMB-E153) toward an alchemist's kit's four."""
    return max(1, harvest_dv(threat))


def kit_capacity(*, chemist: bool = False) -> int:
    """An alchemist's kit holds four components (XT §Harvesting), six for a Chemist (ER §The
    Deviant, Anatomy mastery)."""
    return CHEMIST_KIT_COMPONENTS if chemist else KIT_COMPONENTS


def kit_room(held: int, adding: int, *, chemist: bool = False) -> bool:
    if held < 0 or adding < 0:
        raise ValueError("components cannot be negative")
    return held + adding <= kit_capacity(chemist=chemist)


def dig_turns(cubic_feet: int, *, tools: bool) -> int:
    """Exploration Turns to dig out rubble: 1 ft³ per Turn bare-handed, 5 with tools."""
    if cubic_feet < 0:
        raise ValueError("cubic feet cannot be negative")
    rate = DIG_TOOLS if tools else DIG_BARE_HANDS
    return -(-cubic_feet // rate)


@dataclass(frozen=True)
class Burn:
    burns: tuple[int, ...]  # each lit light's Burn after the result (0: it has gone out)
    supply_each: int  # Supply each member loses when no light was lit


def burn_result(lit_burns: tuple[int, ...] | list[int]) -> Burn:
    """PR §Event Die – Exploration, Burn (3): every lit light's Burn -1; with no lit light,
    Supply -1 for every member instead (lights already at Burn 0 are not lit)."""
    if any(b < 0 for b in lit_burns):
        raise ValueError("Burn cannot be negative")
    lit = tuple(b for b in lit_burns if b > 0)
    if not lit:
        return Burn((), 1)
    return Burn(tuple(b - 1 for b in lit), 0)
