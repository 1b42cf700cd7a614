"""Encounter rules (seed 004): the round tracker, an event-sourced state machine.

A third Initiative machine beside Volleyball (rules/engine/volleyball.py) and Errant's: an
ordered queue of (combatant, action, Initiative), highest first, into which waiting
combatants step (next-games.md §4). Each round walks three phases (H1):

- Initiative: each combatant picks a mode and its Initiative roll is entered (typed, or
  rolled with the campaign's formula: `roll_initiative`), with the Guide's bonus or
  penalty; declarations may already be made. Round zero (H17): the initiators act without
  rolling; the others only defend, and a completely surprised side does nothing at all.
- Action: `queue` lists every declared slot by Initiative (a combatant that has not
  declared yet shows one entry at its Initiative). The Guide takes the head (any of a tie:
  AMB-H5), or the combatant at the head waits (H15); a waiter steps in ahead of any
  slot lower than its own Initiative, even between two slots of one combatant (ENC-2);
  it may hold its action
  into the next round. A combatant attacked may defend out of turn (H5); a defence of the
  other kind aborts the rest of its turn. Knocked out or exhausted, its slots are lost
  (H7); damage ends a multi-round action (H6).
- Recovery: `recover` gives a Stamina hit to each combatant that took no action, is OK on
  Health and Sanity and took no damage (H20, AMB-H7), settles multi-round actions and
  opens the next round's Initiative phase.

State = fold(events): every change is one event `(kind, payload)` applied by `apply`;
the tracker stores the list and replays it (`fold`), so undoing is replaying all but the
last. The events, with their payloads:

    configure    {skill_roll, defence_counting, charge_momentum, pace_formula}
                                                 (any of them; before the start only)
    add          {key, name, side, quickness, command, strength, willpower, stamina,
                  stamina_max, health, health_max, sanity, sanity_max, load}
    remove       {key}                          (before the first round only)
    start        {round_zero, initiators, surprised}   (surprised: side names)
    initiative   {key, mode, roll, dice, bonus}  (roll may be null: round zero, hold-over)
    declare      {key, items}                    (items: declaring.Item fields)
    begin_actions {}
    take         {key}        wait {key}        step_in {key}        hold {key}
    defend       {key, skill}                    (skill: physical or mental)
    end_actions  {}                              (the waiting game when 2+ still wait)
    damage       {key, track, amount}            heal {key, track, amount}
    knock_out    {key}        revive {key}       push {key, hits}
    recover      {}           end {}

Every function raises EncounterError (with the input it concerns) when the rules refuse.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from .calculators import charge_momentum, pushing_power
from .combatants import (
    INITIATIVE_SKILL,
    MODE_OF_SKILL,
    MODES,
    SKILL_OF_MODE,
    TRACKS,
    Combatant,
    EncounterError,
    Settings,
    combatant,
    roll_skill,
    whole,
)
from .declaring import (
    ABORTED,
    DEFEND,
    DONE,
    EACH_DEFENCE,
    HASTE_BONUS,
    LAPSED,
    LOST,
    MINOR,
    MOVE,
    PENDING,
    STEP,
    Slot,
    counted_actions,
    skill_penalty,
)
from .declaring import (
    declare as declare_items,
)

SETUP, INITIATIVE, ACTION, RECOVERY, ENDED = (
    "setup", "initiative", "action", "recovery", "ended")
# Round-zero roles (H17).
INITIATOR, BYSTANDER, SURPRISED = "initiator", "bystander", "surprised"
# Recovery gives back this many Stamina hits (H20, AMB-H7).
RECOVERY_HITS = 1
MAX_DAMAGE = 1000
MAX_COMBATANTS = 60  # our bound for one encounter


@dataclass(frozen=True)
class Turn:
    """One combatant's round."""

    mode: str = ""
    roll: int | None = None
    dice: str = ""  # how the roll was made, when rolled with the campaign formula
    bonus: int = 0  # the Guide's bonus or penalty (H2)
    declared: bool = False
    haste: int = 0
    minors: tuple[str, ...] = ()
    slots: tuple[Slot, ...] = ()
    started: bool = False  # a slot or a defence was taken: the declaration is fixed
    waiting: bool = False
    holding: bool = False  # holds its action into the next round (H15)
    waiting_game: bool = False  # took part in a waiting game this round (H16)
    stepped_in: bool = False
    aborted: bool = False
    lost: bool = False  # down before its turn was over: the rest is lost (H7)
    damaged: bool = False
    pushed: int = 0  # Stamina hits spent on Pushing Power this round (H19)
    tier: int = 0  # 1: held over or from a waiting game: ahead of every roll (AMB-H10)
    role: str = ""  # round zero: initiator, bystander or surprised

    @property
    def base(self) -> int:
        """The round's Initiative: roll + the Guide's bonus + 2 per haste (H18). A
        combatant who needs no roll (held over, round zero) counts its roll as 0."""
        return (self.roll or 0) + self.bonus + HASTE_BONUS * self.haste

    def initiative_of(self, slot: Slot) -> int:
        return self.base + slot.offset

    def explain(self, slot: Slot | None = None) -> str:
        """The arithmetic of a slot's Initiative (of the round's, without a slot)."""
        parts = ["no roll (goes first)" if self.roll is None else f"roll {self.roll}"]
        if self.bonus:
            parts.append(f"{'+' if self.bonus > 0 else '-'} Guide {abs(self.bonus)}")
        if self.haste:
            parts.append(f"+ haste {HASTE_BONUS} x {self.haste}")
        earlier = -slot.offset // STEP if slot else 0
        if earlier:
            parts.append(f"- {STEP} x {earlier} earlier")
        total = self.base + (slot.offset if slot else 0)
        return f"{' '.join(parts)} = {total}" if len(parts) > 1 else f"{parts[0]}"

    @property
    def pending(self) -> tuple[Slot, ...]:
        return tuple(s for s in self.slots if s.status == PENDING)

    @property
    def begun(self) -> bool:
        """Took a slot in turn (a defence out of turn does not begin the turn)."""
        return any(s.status == DONE and not s.out_of_turn for s in self.slots)

    @property
    def acted(self) -> bool:
        """Took an action this round (a slot, a defence, or haste and minors with it)."""
        return self.started


@dataclass(frozen=True)
class Project:
    """A major action that takes several rounds (H6)."""

    label: str
    rounds: int
    started: int  # the round it began
    engrossing: bool = False

    @property
    def last_round(self) -> int:
        return self.started + self.rounds - 1


@dataclass(frozen=True)
class Fighter:
    combatant: Combatant
    order: int  # when it joined: the default order of ties
    turn: Turn = Turn()
    out: bool = False  # knocked out or killed (the Guide's call)
    project: Project | None = None

    @property
    def key(self) -> str:
        return self.combatant.key

    @property
    def name(self) -> str:
        return self.combatant.name

    @property
    def down(self) -> bool:
        """No actions: knocked out, killed, out of Health, or exhausted (Stamina 0)."""
        c = self.combatant
        return self.out or c.stamina <= 0 or c.health <= 0

    @property
    def strength(self) -> int:
        return self.combatant.strength + self.turn.pushed

    @property
    def willpower(self) -> int:
        return self.combatant.willpower + self.turn.pushed

    @property
    def has_turn(self) -> bool:
        """Has a turn of its own this round (not a bystander or surprised in round 0)."""
        return self.turn.role in ("", INITIATOR) and not self.down

    @property
    def rank(self) -> tuple[int, int]:
        """What a waiter compares (H15): held-over first, then the round's Initiative."""
        return (self.turn.tier, self.turn.base)


@dataclass(frozen=True)
class Entry:
    """One line of the Action queue."""

    actor: str
    slot: int | None  # None: a combatant yet to declare, at its Initiative
    label: str
    initiative: int
    tier: int
    order: int

    @property
    def sort_key(self):
        return (-self.tier, -self.initiative, self.order, -1 if self.slot is None
                else self.slot)


@dataclass(frozen=True)
class SlotView:
    label: str
    kind: str
    initiative: int
    arithmetic: str  # how its Initiative is reached
    status: str
    out_of_turn: bool


@dataclass(frozen=True)
class FighterView:
    """Everything the tracker shows of one combatant, computed from the state."""

    key: str
    name: str
    side: str
    standing: str  # a few words: where its round is
    mode: str
    initiative_skill: str  # Quickness or Command ("" before a mode)
    skill: int | None  # that skill's number
    initiative: int | None  # the round's Initiative (None before a roll)
    arithmetic: str
    penalty: int
    haste: int
    minors: tuple[str, ...]
    slots: tuple[SlotView, ...]
    stamina: tuple[int, int]
    health: tuple[int, int]
    sanity: tuple[int, int]
    ok: bool
    strength: int
    willpower: int
    pushed: int
    project: str


@dataclass(frozen=True)
class Event:
    round: int
    kind: str
    text: str
    actor: str = ""


@dataclass(frozen=True)
class Encounter:
    settings: Settings = Settings()
    fighters: tuple[Fighter, ...] = ()
    phase: str = SETUP
    round: int = 0
    log: tuple[Event, ...] = field(default=())

    # --- reading -----------------------------------------------------------------------
    def fighter(self, key) -> Fighter:
        for f in self.fighters:
            if f.key == key:
                return f
        raise EncounterError(f"No combatant {key!r} in this encounter.", "key")

    def penalty(self, key: str) -> int:
        """The skill penalty of `key`'s round as it stands (AMB-H2, AMB-H11)."""
        turn = self.fighter(key).turn
        return skill_penalty(counted_actions(turn.slots, turn.haste, self.settings))

    def queue(self) -> tuple[Entry, ...]:
        """Every slot still to take in turn, highest Initiative first (held-over and
        waiting-game combatants ahead of the rest); ties in join order until the Guide
        picks (AMB-H5). Waiters, holders and the down are not in it."""
        if self.phase != ACTION:
            return ()
        entries = []
        for f in self.fighters:
            turn = f.turn
            if not f.has_turn or turn.waiting or turn.aborted or turn.lost:
                continue
            if not turn.declared:
                if not turn.started:
                    entries.append(Entry(f.key, None, "to declare", turn.base, turn.tier,
                                         f.order))
                continue
            for slot in turn.pending:
                if slot.kind == DEFEND:  # a declared defence waits for an attack
                    continue
                entries.append(Entry(f.key, slot.index, slot.label,
                                     turn.initiative_of(slot), turn.tier, f.order))
        return tuple(sorted(entries, key=lambda e: e.sort_key))

    def head(self) -> tuple[Entry, ...]:
        """The entries that may go next: the first, and any tied with it (AMB-H5)."""
        queue = self.queue()
        if not queue:
            return ()
        first = queue[0]
        return tuple(e for e in queue
                     if (e.tier, e.initiative) == (first.tier, first.initiative))

    @property
    def waiters(self) -> tuple[Fighter, ...]:
        return tuple(f for f in self.fighters if f.turn.waiting and not f.down)

    def may_step_in(self, key: str) -> bool:
        """H15 with ENC-2: a waiter may act after (or within) the action of anyone who
        comes lower than itself: ahead of a head entry whose Initiative (held-over first)
        is lower than the waiter's round Initiative; with nobody else left in the queue,
        whenever it likes. A holder has decided."""
        if self.phase != ACTION:
            return False
        f = self.fighter(key)
        if not f.turn.waiting or f.turn.holding or f.down:
            return False
        head = self.head()
        return not head or any(_below(e, f) for e in head)

    def step_in_points(self, key: str) -> tuple[Entry, ...]:
        """Where the waiter `key` may step in (H15, ENC-2): before any queued slot lower
        than its own Initiative, for the tracker to show beside the queue."""
        f = self.fighter(key)
        if not f.turn.waiting or f.turn.holding or f.down:
            return ()
        return tuple(e for e in self.queue() if _below(e, f))

    def charge_yards(self, key: str):
        """Yards moved this round so far (for charge momentum, H12)."""
        return sum((s.yards for s in self.fighter(key).turn.slots
                    if s.kind == MOVE and s.status == DONE), 0)

    def momentum(self, key: str):
        """H12 (when the campaign uses it): the charge bonus of `key`'s run so far."""
        return charge_momentum(self.charge_yards(key),
                               enabled=self.settings.charge_momentum)

    def view(self, key: str) -> FighterView:
        """`key`'s numbers for the screen: nothing here is stored, all is derived."""
        f = self.fighter(key)
        turn, c = f.turn, f.combatant
        rolled = turn.roll is not None or turn.tier or self.round == 0
        slots = tuple(SlotView(s.label, s.kind, turn.initiative_of(s), turn.explain(s),
                               s.status, s.out_of_turn) for s in turn.slots)
        project = ""
        if f.project:
            project = (f"{f.project.label}: rounds {f.project.started}-"
                       f"{f.project.last_round}")
        return FighterView(
            key=f.key, name=f.name, side=c.side, standing=self._standing(f),
            mode=turn.mode, initiative_skill=INITIATIVE_SKILL.get(turn.mode, ""),
            skill=c.skill_for(turn.mode) if turn.mode else None,
            initiative=turn.base if turn.mode and rolled else None,
            arithmetic=turn.explain() if turn.mode and rolled else "",
            penalty=self.penalty(key), haste=turn.haste, minors=turn.minors, slots=slots,
            stamina=(c.stamina, c.stamina_max), health=(c.health, c.health_max),
            sanity=(c.sanity, c.sanity_max), ok=c.ok, strength=f.strength,
            willpower=f.willpower, pushed=turn.pushed, project=project)

    def _standing(self, f: Fighter) -> str:
        turn = f.turn
        if f.out:
            return "out"
        if f.down:
            return "down"
        if turn.role == SURPRISED:
            return "completely surprised"
        if turn.role == BYSTANDER and not turn.started:
            return "may only defend"
        if turn.lost:
            return "lost its turn"
        if turn.holding:
            return "holds its action"
        if turn.waiting:
            return "waiting"
        if turn.aborted:
            return "aborted"
        if turn.pending and any(s.kind != DEFEND for s in turn.pending):
            return "to act"
        if not turn.declared and f.has_turn and self.phase in (INITIATIVE, ACTION):
            return "to declare"
        return "done" if turn.acted else "no action"

    def recovers(self, key: str) -> bool:
        """H20 with AMB-H7 and H16: whether `key` gets a Stamina hit back at the end of
        this round: no action taken (a waiting game's participants are excused the
        defences they made), OK on Health and Sanity, no damage, Stamina below max."""
        f = self.fighter(key)
        c = f.combatant
        if f.out or c.health <= 0 or not c.ok or f.turn.damaged:
            return False
        if f.turn.acted and not f.turn.waiting_game:
            return False
        return c.stamina < c.stamina_max


# --- helpers ------------------------------------------------------------------------------
def _below(entry: Entry, waiter: Fighter) -> bool:
    """ENC-2: the entry comes strictly after the waiter's own Initiative."""
    return (entry.tier, entry.initiative) < waiter.rank


def _put(state: Encounter, new: Fighter) -> Encounter:
    return replace(state, fighters=tuple(new if f.key == new.key else f
                                         for f in state.fighters))


def _turn(state: Encounter, f: Fighter, **changes) -> Encounter:
    return _put(state, replace(f, turn=replace(f.turn, **changes)))


def _log(state: Encounter, kind: str, text: str, actor: str = "") -> Encounter:
    return replace(state, log=state.log + (Event(state.round, kind, text, actor),))


def _phase(state: Encounter, *phases: str) -> None:
    if state.phase not in phases:
        names = " or ".join(p.capitalize() for p in phases)
        raise EncounterError(f"Only in the {names} phase (now: {state.phase}).")


def _in_round(state: Encounter) -> None:
    _phase(state, INITIATIVE, ACTION)


def _with_status(slots: Iterable[Slot], old: str, new: str) -> tuple[Slot, ...]:
    return tuple(replace(s, status=new) if s.status == old else s for s in slots)


def _lose_pending(state: Encounter, f: Fighter, why: str) -> Encounter:
    """H7: knocked out (or exhausted) before its turn: what it had left is lost."""
    turn = f.turn
    lost = [s.label for s in turn.pending if s.kind != DEFEND]
    undeclared = (not turn.declared and not turn.started and not turn.aborted
                  and not turn.lost and turn.role in ("", INITIATOR))
    state = _turn(state, f, slots=_with_status(turn.slots, PENDING, LOST), waiting=False,
                  holding=False, lost=True)
    if lost or undeclared:
        what = ", ".join(lost) if lost else "its turn"
        state = _log(state, "lost", f"{f.name} is {why} and loses {what}.", f.key)
    if f.project:  # out of the fight, it cannot carry on a multi-round action (ENC-7)
        state = _put(state, replace(state.fighter(f.key), project=None))
        state = _log(state, "project_failed", f"{f.name}'s {f.project.label} fails: "
                     f"{why} before it was done.", f.key)
    return state


# --- the encounter ------------------------------------------------------------------------
def new_encounter(settings: Settings | None = None,
                  combatants: Iterable[Combatant] = ()) -> Encounter:
    state = Encounter(settings=settings or Settings())
    for c in combatants:
        state = add(state, c)
    return state


def add(state: Encounter, new: Combatant) -> Encounter:
    """A combatant joins: before the fight, or during an Initiative phase."""
    _phase(state, SETUP, INITIATIVE)
    if len(state.fighters) >= MAX_COMBATANTS:
        raise EncounterError(f"At most {MAX_COMBATANTS} combatants in an encounter.", "key")
    if any(f.key == new.key for f in state.fighters):
        raise EncounterError(f"Two combatants share the key {new.key!r}.", "key")
    order = max((f.order for f in state.fighters), default=-1) + 1
    # Joining during round zero, it was not among those who started the fight (H17).
    turn = Turn(role=BYSTANDER) if state.phase == INITIATIVE and state.round == 0 else Turn()
    state = replace(state, fighters=state.fighters + (Fighter(new, order, turn),))
    return _log(state, "add", f"{new.name} ({new.side}) joins.", new.key)


def configure(state: Encounter, **choices) -> Encounter:
    """The campaign's settings for this encounter, fixed in its ledger before it starts
    so a later change to the campaign does not change how the ledger replays."""
    _phase(state, SETUP)
    unknown = set(choices) - set(Settings.__dataclass_fields__)
    if unknown:
        raise EncounterError(f"Unknown setting {sorted(unknown)[0]!r}.")
    settings = Settings(**{**state.settings.__dict__, **choices})
    state = replace(state, settings=settings)
    return _log(state, "configure", f"Settings: skill roll {settings.skill_roll}, "
                f"defences {settings.defence_counting.replace('_', ' ')}, charge momentum "
                f"{'on' if settings.charge_momentum else 'off'}, pace "
                f"{settings.pace_formula}.")


def remove(state: Encounter, key: str) -> Encounter:
    _phase(state, SETUP)
    f = state.fighter(key)
    state = replace(state, fighters=tuple(x for x in state.fighters if x.key != key))
    return _log(state, "remove", f"{f.name} is taken out of the encounter.", key)


def start(state: Encounter, *, round_zero: bool = False, initiators: Iterable[str] = (),
          surprised: Iterable[str] = ()) -> Encounter:
    """Open round 1, or round zero (H17): the initiators act first and need no roll;
    the others may only defend, and a completely surprised side may do nothing."""
    _phase(state, SETUP)
    if not isinstance(round_zero, bool):
        raise EncounterError("Round zero is yes or no.", "round_zero")
    if not state.fighters:
        raise EncounterError("Add the combatants first.")
    initiators = tuple(dict.fromkeys(initiators))
    surprised = tuple(dict.fromkeys(surprised))
    sides = {f.combatant.side for f in state.fighters}
    if not round_zero:
        if initiators or surprised:
            raise EncounterError("Initiators and surprise belong to round zero.",
                                 "round_zero")
        state = replace(state, phase=INITIATIVE, round=1)
        return _log(state, "start", "Round 1 begins: Initiative.")
    if not initiators:
        raise EncounterError("Name who starts the fight in round zero.", "initiators")
    for key in initiators:
        state.fighter(key)
    starting_sides = {state.fighter(k).combatant.side for k in initiators}
    for side in surprised:
        if side not in sides:
            raise EncounterError(f"No side {side!r} in this encounter.", "surprised")
        if side in starting_sides:
            raise EncounterError(f"The side {side!r} starts the fight: it cannot be "
                                 "surprised.", "surprised")
    fighters = []
    for f in state.fighters:
        role = (INITIATOR if f.key in initiators
                else SURPRISED if f.combatant.side in surprised else BYSTANDER)
        fighters.append(replace(f, turn=Turn(role=role)))
    state = replace(state, fighters=tuple(fighters), phase=INITIATIVE, round=0)
    names = ", ".join(state.fighter(k).name for k in initiators)
    text = f"Round zero: {names} start{'s' if len(initiators) == 1 else ''} the fight"
    if surprised:
        text += f"; {', '.join(surprised)} completely surprised (no actions, no defence)"
    return _log(state, "start", text + ".")


def initiative(state: Encounter, key: str, mode: str, roll=None, *, dice: str = "",
               bonus=0) -> Encounter:
    """H2: the mode (maneuver rolls Quickness, concentrate Command) and the roll, with
    the Guide's bonus or penalty. A held-over combatant (H15) or round zero needs no
    roll. Changing the mode clears a declaration made for the other one."""
    _phase(state, INITIATIVE)
    f = state.fighter(key)
    if mode not in MODES:
        raise EncounterError(f"The mode is one of {', '.join(MODES)}.", "mode")
    if f.turn.role == SURPRISED:
        raise EncounterError(f"{f.name} is completely surprised: no actions this round.",
                             "mode")
    if roll is None or roll == "":
        if not (f.turn.tier or state.round == 0):
            raise EncounterError("Enter the Initiative roll.", "roll")
        roll = None
    else:
        roll = whole(roll, "roll")
    bonus = whole(bonus or 0, "bonus", low=-100, high=100)
    if not isinstance(dice, str) or len(dice) > 200:
        raise EncounterError("The dice text is too long.", "dice")
    turn = f.turn
    cleared = turn.declared and turn.mode != mode
    state = _turn(state, f, mode=mode, roll=roll, dice=dice, bonus=bonus,
                  **({"declared": False, "slots": (), "haste": 0, "minors": ()}
                     if cleared else {}))
    said = f"{f.name} will {mode} ({INITIATIVE_SKILL[mode]})"
    if roll is not None:
        said += f": rolls {roll}" + (f" [{dice}]" if dice else "")
    if bonus:
        said += f", Guide's {'bonus' if bonus > 0 else 'penalty'} {bonus:+d}"
    if state.fighter(key).turn.tier:
        said += ", ahead of every roll (held over)"
    return _log(state, "initiative", said + ".", key)


def roll_initiative(state: Encounter, key: str, mode: str, rng=None) -> dict:
    """The `initiative` payload for a roll made with the campaign's formula (AMB-H1): the
    skill the mode names (H2), the dice shown. The roll is stored, so replays agree."""
    f = state.fighter(key)
    if mode not in MODES:
        raise EncounterError(f"The mode is one of {', '.join(MODES)}.", "mode")
    rolled = roll_skill(state.settings.skill_roll, f.combatant.skill_for(mode), rng)
    return {"key": key, "mode": mode, "roll": rolled.total, "dice": rolled.text}


def declare(state: Encounter, key: str, items: Iterable) -> Encounter:
    """H4: the combatant's actions for the round (declaring.py does the arithmetic).
    Possible until its first action or defence; not for the down or surprised."""
    _in_round(state)
    f = state.fighter(key)
    turn = f.turn
    if f.down:
        raise EncounterError(f"{f.name} is down: no actions.", "items")
    if turn.role == SURPRISED:
        raise EncounterError(f"{f.name} is completely surprised: no actions this round.",
                             "items")
    if turn.lost:
        raise EncounterError(f"{f.name} lost its turn this round.", "items")
    if turn.started or turn.aborted:
        raise EncounterError(f"{f.name} has already acted: the declaration stands.",
                             "items")
    if not turn.mode:
        raise EncounterError(f"Choose {f.name}'s mode first.", "mode")
    if not isinstance(items, (list, tuple)):
        raise EncounterError("The actions must be a list.", "items")
    made = declare_items(f.combatant, turn.mode, items, state.settings,
                         defences_only=turn.role == BYSTANDER)
    state = _turn(state, f, declared=True, slots=made.slots, haste=made.haste,
                  minors=made.minors)
    f = state.fighter(key)
    parts = [f"{s.label} at {f.turn.initiative_of(s)}" for s in made.slots]
    if made.haste:
        parts.insert(0, f"{made.haste} haste (+{HASTE_BONUS * made.haste})")
    if made.minors:
        parts.append(f"minor: {', '.join(made.minors)}")
    text = f"{f.name} declares: {'; '.join(parts) or 'nothing'}"
    text += f"; skill penalty {state.penalty(key)}."
    return _log(state, "declare", text, key)


def begin_actions(state: Encounter) -> Encounter:
    """Initiative -> Action: every combatant with a turn has its mode and its roll."""
    _phase(state, INITIATIVE)
    for f in state.fighters:
        if not f.has_turn:
            continue
        if not f.turn.mode:
            raise EncounterError(f"{f.name} has no mode yet.", "mode")
        if f.turn.roll is None and not (f.turn.tier or state.round == 0):
            raise EncounterError(f"{f.name} has no Initiative roll yet.", "roll")
    state = replace(state, phase=ACTION)
    return _log(state, "begin_actions", f"Round {state.round}: the Action phase.")


def _require_head(state: Encounter, f: Fighter) -> Entry:
    mine = [e for e in state.head() if e.actor == f.key]
    if not mine:
        head = state.head()
        who = ", ".join(dict.fromkeys(state.fighter(e.actor).name for e in head))
        raise EncounterError(f"Not {f.name}'s turn: next is {who or 'nobody'}.", "key")
    return mine[0]


def take(state: Encounter, key: str) -> Encounter:
    """The Guide runs `key`'s next slot: it must head the queue (or tie with the head:
    the Guide picks among ties, AMB-H5). A combatant yet to declare declares first."""
    _phase(state, ACTION)
    f = state.fighter(key)
    entry = _require_head(state, f)
    if entry.slot is None:
        raise EncounterError(f"{f.name} must declare its actions (or wait) first.",
                             "items")
    turn = f.turn
    slot = turn.slots[entry.slot]
    first = not turn.started
    slots = tuple(replace(s, status=DONE) if s.index == slot.index else s
                  for s in turn.slots)
    state = _turn(state, f, slots=slots, started=True)
    text = f"{f.name}: {slot.label} at Initiative {entry.initiative}"
    if slot.kind in ("major", MINOR) and slot.skill:
        penalty = state.penalty(key)
        text += f", {slot.skill} skill {penalty:+d}"
        if slot.rating is not None:
            text += f" ({slot.rating} {penalty:+d} = {slot.rating + penalty})"
    if first and (turn.haste or turn.minors):
        extra = ([f"{turn.haste} haste"] if turn.haste else []) + list(turn.minors)
        text += f" (with {', '.join(extra)})"
    if slot.rounds > 1:
        project = Project(slot.label, slot.rounds, state.round, slot.engrossing)
        state = _put(state, replace(state.fighter(key), project=project))
        text += f"; it takes {slot.rounds} rounds (until the end of round " \
                f"{project.last_round}) and fails on any damage"
    return _log(state, "take", text + ".", key)


def wait(state: Encounter, key: str) -> Encounter:
    """H15: at its turn, before its first action, the combatant waits."""
    _phase(state, ACTION)
    f = state.fighter(key)
    _require_head(state, f)
    if f.turn.begun:
        raise EncounterError(f"{f.name} has begun its turn: it cannot wait now.", "key")
    state = _turn(state, f, waiting=True)
    return _log(state, "wait", f"{f.name} waits (Initiative {f.turn.base}).", key)


def step_in(state: Encounter, key: str) -> Encounter:
    """H15 with ENC-2: the waiter acts now, ahead of the next slot if that slot comes
    lower than the waiter's own Initiative (even between two slots of one combatant).
    Its slots rejoin the queue at their Initiatives, which puts them ahead of it."""
    _phase(state, ACTION)
    f = state.fighter(key)
    if not f.turn.waiting:
        raise EncounterError(f"{f.name} is not waiting.", "key")
    if f.turn.holding:
        raise EncounterError(f"{f.name} holds its action for the next round.", "key")
    head = state.head()
    if not state.may_step_in(key):
        who = ", ".join(dict.fromkeys(state.fighter(e.actor).name for e in head))
        raise EncounterError(f"{f.name} may only step in ahead of what comes lower than "
                             f"its Initiative {f.turn.base}; {who} comes at "
                             f"{head[0].initiative}.", "key")
    before = ""
    if head:
        entry = next(e for e in head if _below(e, f))
        what = "turn" if entry.slot is None else entry.label
        before = f", before {state.fighter(entry.actor).name}'s {what}"
    state = _turn(state, f, waiting=False, stepped_in=True)
    return _log(state, "step_in", f"{f.name} stops waiting and acts{before}.", key)


def hold(state: Encounter, key: str) -> Encounter:
    """H15: a waiter holds its action into the next round: there it goes ahead of every
    roll without rolling, with no extra actions."""
    _phase(state, ACTION)
    f = state.fighter(key)
    if not f.turn.waiting or f.down:
        raise EncounterError("Only a waiting combatant can hold its action.", "key")
    if f.turn.holding:
        raise EncounterError(f"{f.name} already holds its action.", "key")
    state = _turn(state, f, holding=True)
    return _log(state, "hold", f"{f.name} holds its action into the next round.", key)


def defend(state: Encounter, key: str, skill: str) -> Encounter:
    """H5: attacked, the combatant defends out of turn. A defence of its round's kind
    uses a declared defence (declaring first if it has not; AMB-H11 says how they
    count). A defence of the other kind aborts every action it has left and turns its
    round to that kind, but only before it has used anything this round: a round uses
    physical or mental skills, never both (H2), so once it took an action or defended,
    a defence of the other kind is refused. Refused too: completely surprised (H17),
    down, or engrossed (a multi-round action marked so, or a one-round one once taken:
    no defence for the rest of the round)."""
    _phase(state, ACTION)
    f = state.fighter(key)
    turn = f.turn
    if skill not in SKILL_OF_MODE.values():
        raise EncounterError("A defence is physical (Defense) or mental (Defiance).",
                             "skill")
    if turn.role == SURPRISED:
        raise EncounterError(f"{f.name} is completely surprised: not even a defence.",
                             "skill")
    if f.down or turn.lost:
        raise EncounterError(f"{f.name} is down or lost its turn: no defence this "
                             "round.", "skill")
    if f.project and f.project.engrossing:
        raise EncounterError(f"{f.name} is engrossed in {f.project.label}: no defence.",
                             "skill")
    done = [s for s in turn.slots if s.status == DONE]
    engrossed = next((s for s in done if s.engrossing), None)
    if engrossed is not None:
        raise EncounterError(f"{f.name} is engrossed in {engrossed.label}: no defence "
                             "this round.", "skill")
    own = SKILL_OF_MODE.get(turn.mode, skill)
    if done and skill != own:
        raise EncounterError(
            f"{f.name} already used {own} skills this round ({done[0].label}): a round "
            f"is physical or mental, never both, so no {skill} defence now.", "skill")
    # No turn of its own to declare: a bystander of round zero that declared nothing, or
    # a turn already aborted. Such a defence is simply recorded (and counted).
    free = turn.aborted or (turn.role == BYSTANDER and not turn.declared)
    name = "Defense" if skill == "physical" else "Defiance"
    if skill == own and not free:
        if not turn.declared:
            raise EncounterError(f"{f.name} must declare all its actions for the round "
                                 "before its defence roll.", "items")
        defences = [s for s in turn.slots if s.kind == DEFEND and s.status in
                    ((PENDING,) if state.settings.defence_counting == EACH_DEFENCE
                     else (PENDING, DONE))]
        if not defences:
            raise EncounterError(f"{f.name} declared no defence left for this round.",
                                 "skill")
        used = defences[0]
        slots = tuple(replace(s, status=DONE, out_of_turn=True)
                      if s.index == used.index else s for s in turn.slots)
        state = _turn(state, f, slots=slots, started=True)
        penalty = state.penalty(key)
        return _log(state, "defend", f"{f.name} defends out of turn: {name} "
                    f"{penalty:+d}.", key)
    aborted = [s.label for s in turn.pending if s.kind != DEFEND]
    undeclared = f.has_turn and not turn.declared and not free
    slots = _with_status(turn.slots, PENDING, ABORTED)
    slots += (Slot(len(slots), DEFEND, name.lower(), 0, skill=skill, status=DONE,
                   out_of_turn=True),)
    state = _turn(state, f, slots=slots, started=True, aborted=True, waiting=False,
                  holding=False, mode=MODE_OF_SKILL[skill], declared=True)
    penalty = state.penalty(key)
    text = f"{f.name} defends out of turn: {name} {penalty:+d}"
    if aborted or undeclared:
        text += (f", of the other kind: aborts {', '.join(aborted) or 'its turn'}")
    return _log(state, "defend", text + ".", key)


def end_actions(state: Encounter) -> Encounter:
    """Action -> Recovery, once the queue is empty. Two or more still waiting: that is
    the waiting game (H16): all of them go ahead of every roll next round (AMB-H10). A
    lone waiter that did not hold loses its action."""
    _phase(state, ACTION)
    if state.queue():
        entry = state.queue()[0]
        raise EncounterError(f"{state.fighter(entry.actor).name} still has "
                             f"{entry.label} to take.")
    waiters = state.waiters
    if len(waiters) >= 2:
        for f in waiters:
            state = _turn(state, state.fighter(f.key), waiting_game=True, holding=True)
        names = ", ".join(f.name for f in waiters)
        state = _log(state, "waiting_game", f"The waiting game: {names} stare each other "
                     "down; the round ends and they go first next round.")
    elif waiters and not waiters[0].turn.holding:
        f = waiters[0]
        state = _turn(state, f, waiting=False,
                      slots=_with_status(f.turn.slots, PENDING, LAPSED))
        state = _log(state, "lapsed", f"{f.name} waited without acting: its action "
                     "lapses.", f.key)
    state = replace(state, phase=RECOVERY)
    return _log(state, "end_actions", f"Round {state.round}: Recovery.")


def damage(state: Encounter, key: str, track: str, amount) -> Encounter:
    """Harm the Guide records: no recovery this round (H20); a multi-round action fails
    (H6); knocked to 0 Health or Stamina, the combatant loses what it had left (H7)."""
    _in_round(state)
    f = state.fighter(key)
    if track not in TRACKS:
        raise EncounterError(f"The track is one of {', '.join(TRACKS)}.", "track")
    amount = whole(amount, "amount", low=1, high=MAX_DAMAGE)
    c = f.combatant
    now = getattr(c, track) - amount
    if track == "stamina":
        now = max(0, now)
    was_down = f.down
    state = _put(state, replace(f, combatant=replace(c, **{track: now}),
                                turn=replace(f.turn, damaged=True)))
    state = _log(state, "damage", f"{f.name} takes {amount} {track.capitalize()} "
                 f"({getattr(c, track)} -> {now}).", key)
    f = state.fighter(key)
    if f.project:
        state = _put(state, replace(f, project=None))
        state = _log(state, "project_failed", f"{f.name}'s {f.project.label} fails: "
                     "hurt before it was done; it must start again.", key)
        f = state.fighter(key)
    if f.down and not was_down:
        state = _lose_pending(state, f, "down")
    return state


def heal(state: Encounter, key: str, track: str, amount) -> Encounter:
    _in_round(state)
    f = state.fighter(key)
    if track not in TRACKS:
        raise EncounterError(f"The track is one of {', '.join(TRACKS)}.", "track")
    amount = whole(amount, "amount", low=1, high=MAX_DAMAGE)
    c = f.combatant
    now = min(getattr(c, f"{track}_max"), getattr(c, track) + amount)
    state = _put(state, replace(f, combatant=replace(c, **{track: now})))
    return _log(state, "heal", f"{f.name} regains {track.capitalize()} "
                f"({getattr(c, track)} -> {now}).", key)


def knock_out(state: Encounter, key: str) -> Encounter:
    """H7: put out of the fight ahead of its turn, it forfeits what it had left."""
    _in_round(state)
    f = state.fighter(key)
    if f.out:
        raise EncounterError(f"{f.name} is already out.", "key")
    state = _put(state, replace(f, out=True))
    state = _log(state, "knock_out", f"{f.name} is knocked out.", key)
    return _lose_pending(state, state.fighter(key), "knocked out")


def revive(state: Encounter, key: str) -> Encounter:
    _in_round(state)
    f = state.fighter(key)
    if not f.out:
        raise EncounterError(f"{f.name} is not out.", "key")
    state = _put(state, replace(f, out=False))
    return _log(state, "revive", f"{f.name} is back on its feet (from next round).", key)


def push(state: Encounter, key: str, hits) -> Encounter:
    """H19: Stamina hits spent for +1 Strength and Willpower each, this round only."""
    _in_round(state)
    f = state.fighter(key)
    if f.down:
        raise EncounterError(f"{f.name} is down: it cannot push.", "hits")
    c = f.combatant
    pushed = pushing_power(strength=f.strength, willpower=f.willpower,
                           stamina=c.stamina, hits=hits)
    spent = c.stamina - pushed.stamina
    state = _put(state, replace(f, combatant=replace(c, stamina=pushed.stamina),
                                turn=replace(f.turn, pushed=f.turn.pushed + spent)))
    state = _log(state, "push", f"{f.name} pushes: {pushed.text}.", key)
    if pushed.collapsed:
        state = _lose_pending(state, state.fighter(key), "exhausted")
    return state


def recover(state: Encounter) -> Encounter:
    """The Recovery phase in one step (H20, AMB-H7, H16, H6), then the next round opens:
    held-over and waiting-game combatants go ahead of every roll (H15, AMB-H10)."""
    _phase(state, RECOVERY)
    healed = []
    for f in state.fighters:
        if f.project and f.project.last_round <= state.round:
            state = _put(state, replace(f, project=None))
            state = _log(state, "project_done", f"{f.name} completes "
                         f"{f.project.label}.", f.key)
        if state.recovers(f.key):
            c = state.fighter(f.key).combatant
            state = _put(state, replace(state.fighter(f.key), combatant=replace(
                c, stamina=min(c.stamina_max, c.stamina + RECOVERY_HITS))))
            healed.append(f.name)
    text = (f"Recovery: {', '.join(healed)} recover{'s' if len(healed) == 1 else ''} a "
            "Stamina hit." if healed else "Recovery: nobody recovers.")
    state = _log(state, "recover", text)
    fighters = tuple(replace(f, turn=Turn(tier=1 if f.turn.holding else 0))
                     for f in state.fighters)
    state = replace(state, fighters=fighters, phase=INITIATIVE, round=state.round + 1)
    return _log(state, "round", f"Round {state.round} begins: Initiative.")


def end(state: Encounter) -> Encounter:
    if state.phase in (SETUP, ENDED):
        raise EncounterError("The encounter has not begun, or has already ended.")
    state = replace(state, phase=ENDED)
    return _log(state, "end", "The encounter ends.")


# --- events ---------------------------------------------------------------------------------
def _add(s, p):
    data = dict(p)
    return add(s, combatant(data.pop("key"), data.pop("name"), data.pop("side"), **data))


EVENTS = {
    "configure": lambda s, p: configure(s, **p),
    "add": _add,
    "remove": lambda s, p: remove(s, p["key"]),
    "start": lambda s, p: start(s, round_zero=p.get("round_zero", False),
                                initiators=_keys(p.get("initiators", ()), "initiators"),
                                surprised=_keys(p.get("surprised", ()), "surprised")),
    "initiative": lambda s, p: initiative(s, p["key"], p["mode"], p.get("roll"),
                                          dice=p.get("dice", ""), bonus=p.get("bonus", 0)),
    "declare": lambda s, p: declare(s, p["key"], p["items"]),
    "begin_actions": lambda s, p: begin_actions(s),
    "take": lambda s, p: take(s, p["key"]),
    "wait": lambda s, p: wait(s, p["key"]),
    "step_in": lambda s, p: step_in(s, p["key"]),
    "hold": lambda s, p: hold(s, p["key"]),
    "defend": lambda s, p: defend(s, p["key"], p["skill"]),
    "end_actions": lambda s, p: end_actions(s),
    "damage": lambda s, p: damage(s, p["key"], p["track"], p["amount"]),
    "heal": lambda s, p: heal(s, p["key"], p["track"], p["amount"]),
    "knock_out": lambda s, p: knock_out(s, p["key"]),
    "revive": lambda s, p: revive(s, p["key"]),
    "push": lambda s, p: push(s, p["key"], p["hits"]),
    "recover": lambda s, p: recover(s),
    "end": lambda s, p: end(s),
}


def _keys(value, field_name: str) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, (list, tuple)) \
            or not all(isinstance(v, str) for v in value):
        raise EncounterError("A list of names is needed.", field_name)
    return tuple(value)


def apply(state: Encounter, kind: str, payload: Mapping | None = None) -> Encounter:
    """One event by name, validated like the functions above."""
    try:
        step = EVENTS[kind]
    except (KeyError, TypeError):
        raise EncounterError(f"Unknown event {kind!r}.") from None
    if payload is not None and not isinstance(payload, Mapping):
        raise EncounterError("An event's payload is a mapping.")
    try:
        return step(state, dict(payload or {}))
    except KeyError as missing:
        raise EncounterError(f"The event {kind!r} needs {missing}.") from None
    except TypeError:
        raise EncounterError(f"The event {kind!r} has a malformed payload.") from None


def fold(events: Iterable[tuple[str, Mapping]], settings: Settings | None = None
         ) -> Encounter:
    """The state the events lead to, from an empty encounter (undo: fold all but the
    last)."""
    state = new_encounter(settings)
    for kind, payload in events:
        state = apply(state, kind, payload)
    return state
