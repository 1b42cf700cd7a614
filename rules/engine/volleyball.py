"""Volleyball Initiative: who goes when in an Action Scene, as a state machine. Shared by
the game systems that play it (Eldritch Gambit; METTLE Core's M26-M28 are the same
mechanics): each system's own module adds its tie-break for who triggers, its statuses
(which a Fighter may carry, and their names) and its numbers (rules/engine/eldritch_gambit/
initiative.py). This module imports no system.

Eldritch Gambit SRD, Scenes > Staging > Initiative (and its diagram), Scenes > Actions
(Free Move, Attack "Area and Split attacks", Dodge's Stumble, Grapple, Move's Stumble,
Rally, Sneak's Surprise Attack), Scenes > Scenery > Mobs, Characters > Defenses (Fallen,
Staggered, Status). docs/RULES.md, "Volleyball Initiative", records every reading.
The statuses below are keys the mechanics read; a system checks which ones it allows.

The state is immutable: every step is a function taking a state and returning a new one,
or raising InitiativeError (with a message for the table) when the rules forbid it.
`apply_step(state, kind, **payload)` dispatches by name, so a stored ledger of steps can
be replayed into the same state.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

PARTY, FOES = "party", "foes"
SIDES = (PARTY, FOES)
SETUP, ACT, PASS, ENDED = "setup", "act", "pass", "ended"

# Statuses that take the Action away while they last (Characters > Defenses > Status):
# "Grappled characters lose their Action", "Incapacitated: They lose their Action",
# "Surprised: unaware combatants lose their Action for the first Initiative Round".
ACTION_BLOCKING = ("grappled", "incapacitated", "surprised")
# "Fallen combatants ... get no Action"; Dead is past Fallen.
FALLEN_STATUSES = ("fallen", "dead")
# Scenes > Actions > Rally: "One cannot Rally while taking ongoing damage, such as from
# the Burning Status." Initiative ends: "Refill HP back to maximum unless the character
# is Fallen or otherwise cannot Rally."
NO_RALLY_STATUSES = ("burning",)
# Sneak: Surprised "lasts until next Round"; Status: "This ends next Round".
ENDS_AT_NEW_ROUND = ("surprised",)
MAX_ACTION_LABEL = 60
DODGE = "dodge"


class InitiativeError(ValueError):
    """A step the rules do not allow; `field` names the input it belongs to, if any."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


class TieError(InitiativeError):
    """Several claimants share the highest current WP: the Imp decides."""

    def __init__(self, message: str, tied: tuple[str, ...]):
        super().__init__(message, "claimants")
        self.tied = tied


@dataclass(frozen=True)
class Fighter:
    key: str
    name: str
    side: str = PARTY
    hp: int = 1
    hp_max: int = 1
    wp: int = 0  # current WP, to settle who triggers
    mob: bool = False
    members: int = 1  # a Mob's members still standing
    statuses: frozenset[str] = frozenset()
    spent: bool = False  # this Round's Action is used (or lost)
    lost: str = ""  # why this Round's Action went unused ("stumble")
    waiting: str = ""  # the declared Action type of a Wait
    deciding: bool = False  # a waiter who must choose: keep waiting or rejoin
    lose_next: int = 0  # Actions still to lose (Stumble)
    free_move_lost: bool = False
    # The system lets a Staggered combatant stay up at 0 HP or below (METTLE Core, EN
    # §Taking Damage: "choosing the Staggered Status ... lets the brave fool stay up").
    # False for Eldritch Gambit, whose Staggered negates a hit and never stands below 1.
    stands_staggered: bool = False

    @property
    def fallen(self) -> bool:
        if any(s in self.statuses for s in FALLEN_STATUSES):
            return True
        if self.mob:
            return self.members <= 0
        if self.stands_staggered and "staggered" in self.statuses:
            return False
        return self.hp <= 0

    @property
    def blocked_by(self) -> str:
        """The status that takes the Action away, or ""."""
        for key in ACTION_BLOCKING:
            if key in self.statuses:
                return key
        return ""

    @property
    def has_action(self) -> bool:
        """Still has this Round's Action to take in turn (a waiter holds theirs apart)."""
        return not (self.fallen or self.spent or self.waiting or self.blocked_by)

    @property
    def can_interrupt(self) -> bool:
        return bool(self.waiting) and not self.fallen and not self.blocked_by

    @property
    def has_free_move(self) -> bool:
        """Scenes > Actions: the Free Move comes before the Action and is lost with it;
        Staggered combatants "lose their Free Move until Recovery"."""
        return self.has_action and not self.free_move_lost and "staggered" not in self.statuses

    @property
    def can_rally(self) -> bool:
        return not self.fallen and not any(s in self.statuses for s in NO_RALLY_STATUSES)

    @property
    def action_state(self) -> str:
        """A short description of where this Fighter's Action is, for the table."""
        if self.fallen:
            return "Dead" if "dead" in self.statuses else "Fallen: no Action"
        if self.waiting:
            return f"Waiting: {self.waiting}" + (" (keep waiting or rejoin?)"
                                                 if self.deciding else "")
        if self.blocked_by:
            return f"{self.blocked_by.capitalize()}: no Action"
        if self.lost:
            return "Stumbled: Action lost"
        if self.spent:
            return "Acted"
        return "Has an Action"


@dataclass(frozen=True)
class Event:
    round: int
    kind: str
    text: str
    actor: str = ""
    targets: tuple[str, ...] = ()


@dataclass(frozen=True)
class InitiativeState:
    fighters: tuple[Fighter, ...] = ()
    phase: str = SETUP
    round: int = 0
    holder: str = ""
    last_targets: tuple[str, ...] = ()  # whom the holder's Action targeted
    round_start: bool = False  # the pass that opens a Round
    imp_decides: bool = False  # "let the Imp decide" which foe
    passed_by: str = ""  # who chose the holder (Rally: "chosen ... by another")
    passed_targeted: bool = False  # ... after targeting them with an Action
    attacked: tuple[str, ...] = ()  # the latest Action's targets (who may Dodge it)
    log: tuple[Event, ...] = field(default=())

    # --- reading the state -------------------------------------------------------------
    def fighter(self, key: str) -> Fighter:
        for fighter in self.fighters:
            if fighter.key == key:
                return fighter
        raise InitiativeError(f"No combatant {key!r} in this scene.")

    def name(self, key: str) -> str:
        return self.fighter(key).name

    @property
    def running(self) -> bool:
        return self.phase in (ACT, PASS)

    @property
    def with_action(self) -> tuple[Fighter, ...]:
        return tuple(f for f in self.fighters if f.has_action)

    @property
    def waiters(self) -> tuple[Fighter, ...]:
        return tuple(f for f in self.fighters if f.waiting)

    @property
    def deciding(self) -> tuple[Fighter, ...]:
        return tuple(f for f in self.fighters if f.deciding)

    @property
    def bound_targets(self) -> tuple[str, ...]:
        """Targets that still have an Action: one of them must go next."""
        if self.phase != PASS or self.round_start:
            return ()
        return tuple(k for k in self.last_targets if self.fighter(k).has_action)

    def legal_passes(self) -> tuple[str, ...]:
        """Who the holder may hand Initiative to now (empty unless passing)."""
        if self.phase != PASS or self.deciding:
            return ()
        bound = self.bound_targets
        if bound:
            return bound
        holder = self.fighter(self.holder)
        others = [f.key for f in self.fighters if f.has_action and f.key != holder.key]
        # "They may even pass to themselves if they did not target anyone"; and when
        # nobody else has an Action, to themselves all the same (else the fight stalls).
        may_keep = self.round_start and (not self.last_targets or not others)
        keys = [f.key for f in self.fighters
                if f.has_action and (f.key != holder.key or may_keep)]
        if self.imp_decides:
            keys = [k for k in keys if self.fighter(k).side != holder.side]
        return tuple(keys)

    def may_let_imp_decide(self) -> bool:
        if self.phase != PASS or self.imp_decides or self.deciding or self.bound_targets:
            return False
        side = self.fighter(self.holder).side
        return any(self.fighter(k).side != side for k in self.legal_passes())

    @property
    def may_rally(self) -> bool:
        """Scenes > Actions > Rally: "One can only Rally if *chosen* to receive Initiative
        by another. They are too distracted to Rally if a friend or foe *targeted* them
        with an Action before passing on the Initiative." Not while Burning."""
        if self.phase != ACT or not self.passed_by or self.passed_by == self.holder:
            return False
        return not self.passed_targeted and self.fighter(self.holder).can_rally

    @property
    def rally_ally(self) -> str:
        """Whose CHA the Rallying holder may use instead of their own END, or "".
        Scenes > Actions > Rally: "the rallier may use the CHA of the *ally* that passed
        Initiative to them": a foe who passed it lends nothing (same side only)."""
        if not self.may_rally:
            return ""
        passer = self.fighter(self.passed_by)
        return passer.key if passer.side == self.fighter(self.holder).side else ""

    def may_dodge(self, key: str) -> bool:
        """Dodge "immediately after being Attacked": a target of the latest Action, with
        an Action to spend (this Round's, or a waited Dodge)."""
        if not self.running or key not in self.attacked:
            return False
        me = self.fighter(key)
        if me.waiting:
            return me.can_interrupt and me.waiting.casefold() == DODGE
        return me.has_action

    @property
    def dodgers(self) -> tuple[str, ...]:
        return tuple(k for k in self.attacked if self.may_dodge(k))

    @property
    def stuck(self) -> bool:
        """Passing, nobody to pass to and no Round can start: nobody can act."""
        return self.phase == PASS and not self.deciding and not self.legal_passes()

    def acted_this_round(self) -> dict[str, int]:
        """How many Actions each Fighter took this Round (a Wait is spent by its interrupt)."""
        counts: dict[str, int] = {}
        for event in self.log:
            if event.round == self.round and event.kind in ("act", "interrupt", "dodge"):
                counts[event.actor] = counts.get(event.actor, 0) + 1
        return counts


# --- building -----------------------------------------------------------------------------
def fighter(key: str, name: str, *, side: str = PARTY, hp_max: int, hp: int | None = None,
            wp: int = 0, mob: bool = False, members: int = 1,
            statuses: Iterable[str] = (), stands_staggered: bool = False) -> Fighter:
    """A validated Fighter (a Mob's HP pool is one member's HP: Scenery > Mobs);
    `stands_staggered`: see Fighter (METTLE's Staggered at 0 or below)."""
    if side not in SIDES:
        raise InitiativeError(f"Side must be one of {', '.join(SIDES)}.", "side")
    if hp_max < 1:
        raise InitiativeError("Maximum HP must be at least 1.", "hp_max")
    if hp is None:
        hp = hp_max
    if hp > hp_max:
        raise InitiativeError(f"HP {hp} is over the maximum of {hp_max}.", "hp")
    if mob and members < 1:
        raise InitiativeError("A Mob needs at least one member.", "members")
    if not mob:
        members = 1
    return Fighter(key=key, name=name, side=side, hp=hp, hp_max=hp_max, wp=wp, mob=mob,
                   members=members, statuses=_statuses(statuses),
                   stands_staggered=stands_staggered and not mob)


def new_scene(fighters: Iterable[Fighter]) -> InitiativeState:
    fighters = tuple(fighters)
    keys = [f.key for f in fighters]
    if len(set(keys)) != len(keys):
        raise InitiativeError("Two combatants share a key.")
    return InitiativeState(fighters=fighters)


def _statuses(statuses: Iterable[str]) -> frozenset[str]:
    """The status keys as given: the system's module checks which it allows."""
    return frozenset(statuses)


def _put(state: InitiativeState, new: Fighter) -> InitiativeState:
    return replace(state, fighters=tuple(new if f.key == new.key else f
                                         for f in state.fighters))


def _log(state: InitiativeState, kind: str, text: str, actor: str = "",
         targets: tuple[str, ...] = ()) -> InitiativeState:
    return replace(state, log=state.log + (Event(state.round, kind, text, actor, targets),))


def _require_running(state: InitiativeState) -> None:
    if state.phase == SETUP:
        raise InitiativeError("Initiative has not been triggered yet.")
    if state.phase == ENDED:
        raise InitiativeError("Initiative has ended.")


def _label(action: str) -> str:
    action = " ".join((action or "").split())
    if len(action) > MAX_ACTION_LABEL:
        raise InitiativeError(f"Keep the Action to {MAX_ACTION_LABEL} characters.", "action")
    return action


def join(state: InitiativeState, newcomer: Fighter) -> InitiativeState:
    """Reinforcements arrive during Initiative: they join with their Action for this
    Round (the Imp may mark them Surprised, or Stumble them, if they arrive spent)."""
    _require_running(state)
    if any(f.key == newcomer.key for f in state.fighters):
        raise InitiativeError(f"{newcomer.name} is already in the fight.")
    state = replace(state, fighters=state.fighters + (newcomer,))
    return settle(_log(state, "join", f"{newcomer.name} joins the fight.", newcomer.key))


# --- triggering ---------------------------------------------------------------------------
def trigger(state: InitiativeState, key: str) -> InitiativeState:
    """Round 1 begins; `key` holds Initiative and takes the first Action."""
    if state.phase != SETUP:
        raise InitiativeError("Initiative is already running." if state.running
                              else "Initiative has ended.")
    sides = {f.side for f in state.fighters if not f.fallen}
    if sides != set(SIDES):
        raise InitiativeError("An Action Scene needs standing combatants on both sides.")
    first = state.fighter(key)
    if not first.has_action:
        raise InitiativeError(f"{first.name} has no Action ({first.action_state}) and "
                              "cannot take the first one.", "claimants")
    state = replace(state, phase=ACT, round=1, holder=key, passed_by="")
    state = _log(state, "trigger", f"{first.name} triggers Initiative and holds it. Round 1.",
                 key)
    surprised = [f.name for f in state.fighters if "surprised" in f.statuses]
    if surprised:
        state = _log(state, "note", f"Surprised, no Action this Round: {', '.join(surprised)}.")
    return settle(state)


# --- the holder's turn --------------------------------------------------------------------
def act(state: InitiativeState, actor: str, targets: Iterable[str] = (),
        action: str = "", *, keep_action: bool = False,
        text: str = "") -> InitiativeState:
    """The holder takes their Action, aimed at `targets` (none, one, or several for Area
    and Split attacks). Who goes next is decided when the holder passes (legal_passes),
    after the Action's outcome (a Felling blow, a Grapple) has been recorded.
    `keep_action`: the holder keeps their Action after it (METTLE Core's Split Actions:
    the splitter keeps it until every part is used); `text`: the log line's opening words
    instead of "<name> acts"."""
    _require_running(state)
    if state.phase != ACT or actor != state.holder:
        raise InitiativeError(f"Only {state.name(state.holder)}, who holds Initiative, may act "
                              "now (a waiter may interrupt).")
    me = state.fighter(actor)
    if not me.has_action:
        raise InitiativeError(f"{me.name} has no Action left.")
    targets = tuple(dict.fromkeys(targets))
    if actor in targets:
        raise InitiativeError("An Action passes Initiative on: do not list the actor among "
                              "its targets.", "targets")
    for key in targets:
        state.fighter(key)
    action = _label(action)
    state = _put(state, replace(me, spent=not keep_action))
    state = replace(state, phase=PASS, last_targets=targets, round_start=False,
                    imp_decides=False, attacked=targets)
    text = (text or f"{me.name} acts") + (f" ({action})" if action else "")
    if targets:
        text += " targeting " + ", ".join(state.name(k) for k in targets)
    return settle(_log(state, "act", text + ".", actor, targets))


def wait(state: InitiativeState, actor: str, action: str) -> InitiativeState:
    """Staging > Initiative: "One may Wait by selecting a specific Action ... They cannot
    change the type of Action." The holder keeps that Action apart and passes on."""
    _require_running(state)
    if state.phase != ACT or actor != state.holder:
        raise InitiativeError("Only the holder of Initiative may choose to Wait.")
    me = state.fighter(actor)
    if not me.has_action:
        raise InitiativeError(f"{me.name} has no Action left to hold.")
    action = _label(action)
    if not action:
        raise InitiativeError("Name the Action to wait with, e.g. “ranged Attack”.", "action")
    state = _put(state, replace(me, waiting=action))
    state = replace(state, phase=PASS, last_targets=(), round_start=False, imp_decides=False)
    return settle(_log(state, "wait", f"{me.name} waits with: {action}.", actor))


def interrupt(state: InitiativeState, waiter: str, action: str,
              targets: Iterable[str] = ()) -> InitiativeState:
    """"They may take that Action any time later, even if it interrupts someone else's."
    Only the declared Action; Initiative stays where it was."""
    _require_running(state)
    me = state.fighter(waiter)
    if not me.waiting:
        raise InitiativeError(f"{me.name} is not waiting.")
    if not me.can_interrupt:
        raise InitiativeError(f"{me.name} can no longer act ({me.action_state}).")
    action = _label(action)
    if action.casefold() != me.waiting.casefold():
        raise InitiativeError(f"{me.name} waited with “{me.waiting}” and cannot change the "
                              "type of Action.", "action")
    targets = tuple(dict.fromkeys(targets))
    for key in targets:
        state.fighter(key)
    state = _put(state, replace(me, waiting="", deciding=False, spent=True))
    state = replace(state, attacked=targets)
    text = f"{me.name} interrupts with {me.waiting}"
    if targets:
        text += " targeting " + ", ".join(state.name(k) for k in targets)
    return settle(_log(state, "interrupt", text + ".", waiter, targets))


def keep_waiting(state: InitiativeState, key: str) -> InitiativeState:
    me = _deciding(state, key)
    state = _put(state, replace(me, deciding=False))
    return settle(_log(state, "keep_waiting", f"{me.name} keeps waiting ({me.waiting}).", key))


def rejoin(state: InitiativeState, key: str) -> InitiativeState:
    me = _deciding(state, key)
    state = _put(state, replace(me, deciding=False, waiting=""))
    return settle(_log(state, "rejoin", f"{me.name} stops waiting and rejoins Initiative.", key))


def _deciding(state: InitiativeState, key: str) -> Fighter:
    _require_running(state)
    me = state.fighter(key)
    if not me.deciding:
        raise InitiativeError(f"{me.name} has no waiting to decide about now: that choice "
                              "comes at the start of a Round.")
    return me


def let_imp_decide(state: InitiativeState) -> InitiativeState:
    """"If they choose a foe, they can specify or let the Imp decide which one.\""""
    _require_running(state)
    if not state.may_let_imp_decide():
        raise InitiativeError("There is no foe to hand Initiative to now.")
    holder = state.fighter(state.holder)
    state = replace(state, imp_decides=True)
    return _log(state, "imp_decides", f"{holder.name} passes to a foe; the Imp picks which.",
                holder.key)


def pass_to(state: InitiativeState, to: str) -> InitiativeState:
    """Hand Initiative on: to a target that still has an Action (a must), else anyone
    with an Action; at a Round's start the last holder passes freely, to themselves
    only if their last Action targeted nobody."""
    _require_running(state)
    if state.phase != PASS:
        raise InitiativeError(f"{state.name(state.holder)} must act or wait before passing.")
    if state.deciding:
        names = ", ".join(f.name for f in state.deciding)
        raise InitiativeError(f"New Round: {names} must first choose to keep waiting or "
                              "rejoin.")
    legal = state.legal_passes()
    if to not in legal:
        target = state.fighter(to)
        holder = state.fighter(state.holder)
        bound = state.bound_targets
        if bound:
            why = ("their target still has an Action and must go next: "
                   + ", ".join(state.name(k) for k in bound))
        elif to == holder.key:
            why = ("only at the start of a Round, after an Action that targeted nobody, may "
                   "the holder pass to themselves")
        elif state.imp_decides and target.side == holder.side:
            why = "the Imp is choosing among the foes"
        else:
            why = f"{target.name} has no Action ({target.action_state})"
        raise InitiativeError(f"Cannot pass to {target.name}: {why}.", "to")
    passer = state.fighter(state.holder)
    state = replace(state, phase=ACT, holder=to, last_targets=(), round_start=False,
                    imp_decides=False, passed_by=passer.key,
                    passed_targeted=to in state.last_targets, attacked=())
    return settle(_log(state, "pass", f"{passer.name} passes Initiative to {state.name(to)}.",
                       passer.key, (to,)))


def settle(state: InitiativeState) -> InitiativeState:
    """What follows by itself: a holder who can no longer act must pass; when nobody
    has an Action left, a new Round begins (diagram: "New Round, Refresh all
    Actions!")."""
    if not state.running:
        return state
    holder = state.fighter(state.holder)
    if state.phase == ACT and not holder.has_action:
        state = replace(state, phase=PASS, last_targets=(), round_start=False,
                        imp_decides=False)
        state = _log(state, "note", f"{holder.name} can no longer act ({holder.action_state}) "
                     "and must hand Initiative on.", holder.key)
    if state.phase == PASS and state.imp_decides and not state.legal_passes():
        state = replace(state, imp_decides=False)
    if (state.phase == PASS and not state.deciding and not state.with_action
            and not state.round_start and _round_possible(state)):
        state = new_round(state)
    return state


def _round_possible(state: InitiativeState) -> bool:
    """A new Round makes sense only if someone standing is free to act or wait in it."""
    return any(not f.fallen and not (f.blocked_by and f.blocked_by not in ENDS_AT_NEW_ROUND)
               for f in state.fighters)


def new_round(state: InitiativeState) -> InitiativeState:
    """"When everyone has spent their Action, a new Round begins. Everyone gets their
    Action back, and the last holder can now pass Initiative normally." Surprised ends;
    a pending Stumble takes this Round's Action; waiters decide to keep waiting or
    rejoin."""
    number = state.round + 1
    fighters = []
    notes = []
    for f in state.fighters:
        statuses = f.statuses - frozenset(ENDS_AT_NEW_ROUND)
        f = replace(f, statuses=statuses, spent=False, lost="", free_move_lost=False,
                    deciding=bool(f.waiting) and not f.fallen)
        if f.lose_next and not f.waiting and not f.fallen and not f.blocked_by:
            f = replace(f, spent=True, lost="stumble", lose_next=f.lose_next - 1)
            notes.append(f"{f.name} loses this Action getting up (Stumble).")
        if "burning" in f.statuses and not f.fallen:
            notes.append(f"{f.name} is Burning: 1d6 fire damage now.")
        fighters.append(f)
    # The last Action's targets could Dodge it only with that Round's Action: once it
    # is over, only a waited Dodge still can.
    attacked = tuple(k for k in state.attacked
                     if state.fighter(k).waiting.casefold() == DODGE)
    state = replace(state, fighters=tuple(fighters), round=number, phase=PASS,
                    round_start=True, imp_decides=False, attacked=attacked)
    state = _log(state, "round", f"Round {number} begins: everyone gets their Action back; "
                 f"{state.name(state.holder)} passes Initiative.", state.holder)
    for note in notes:
        state = _log(state, "note", note)
    return state


def next_round(state: InitiativeState) -> InitiativeState:
    """When nobody can take an Action (all still waiting, or stumbling) the Imp starts
    the next Round by hand."""
    _require_running(state)
    if not state.stuck:
        raise InitiativeError("Someone can still take an Action this Round.")
    if not _round_possible(state):
        raise InitiativeError("Nobody standing can act in a new Round: end Initiative.")
    return new_round(state)


def dodge(state: InitiativeState, key: str) -> InitiativeState:
    """Scenes > Actions > Dodge: "Dodges can be made immediately after being Attacked".
    Dodge is an Action: it spends the dodger's Action for this Round (or their waited
    Dodge), so a dodging target no longer goes next. Without an Action left, no Dodge."""
    _require_running(state)
    me = state.fighter(key)
    if key not in state.attacked:
        raise InitiativeError(f"{me.name} can only Dodge right after being Attacked.")
    if me.waiting and me.waiting.casefold() != DODGE:
        raise InitiativeError(f"{me.name} waits with “{me.waiting}” and cannot change the type "
                              "of Action to Dodge.")
    if not state.may_dodge(key):
        raise InitiativeError(f"{me.name} has no Action left to Dodge with "
                              f"({me.action_state}).")
    state = _put(state, replace(me, waiting="", deciding=False, spent=True))
    return settle(_log(state, "dodge", f"{me.name} Dodges (their Action this Round).", key))


# --- what happens to a combatant --------------------------------------------------------
def damage(state: InitiativeState, key: str, amount: int, *, area: bool = False,
           stagger: bool = False) -> InitiativeState:
    """Damage lowers HP; at 0 or below the combatant is Fallen (a Felling blow).
    Stagger (Characters > Defenses > Hit Points): a hit that is not a Felling blow may be
    negated for the Staggered Status, once until it clears. A Mob (Scenery > Mobs): a
    Felling blow removes one member *instead of* damage; an area Felling blow fells all."""
    _require_not_ended(state)
    if amount < 1:
        raise InitiativeError("Damage must be at least 1.", "amount")
    me = state.fighter(key)
    if me.fallen and (me.mob or "dead" in me.statuses):
        raise InitiativeError(f"{me.name} has already fallen.", "amount")
    # A Fallen character can be hurt further: negative HP sets the Recovery DF (Scenes >
    # Montages > Recovery: "negative HP of the patient").
    felling = me.hp - amount <= 0 and not me.fallen
    if stagger and me.fallen:
        raise InitiativeError(f"{me.name} has fallen and cannot Stagger.", "stagger")
    if stagger:
        if me.mob:
            raise InitiativeError("A Mob cannot Stagger.", "stagger")
        if felling:
            raise InitiativeError("A Felling blow cannot be Staggered.", "stagger")
        if "staggered" in me.statuses:
            raise InitiativeError(f"{me.name} is already Staggered and cannot Stagger again.",
                                  "stagger")
        state = _put(state, replace(me, statuses=me.statuses | {"staggered"}))
        return settle(_log(state, "stagger", f"{me.name} Staggers instead of taking "
                           f"{amount} damage.", key))
    if me.mob and felling:
        left = 0 if area else me.members - 1
        state = _put(state, replace(me, members=left))
        text = (f"Area Felling blow: the whole Mob {me.name} falls." if area and left == 0
                else f"Felling blow: {me.name} loses a member ({left} left).")
        return settle(_log(state, "damage", text, key))
    state = _put(state, replace(me, hp=me.hp - amount))
    text = f"{me.name} takes {amount} damage ({me.hp - amount}/{me.hp_max} HP)"
    if felling:
        text += ": a Felling blow, Fallen"
    return settle(_log(state, "damage", text + ".", key))


def heal(state: InitiativeState, key: str, amount: int) -> InitiativeState:
    """Recover HP (a Rally, a potion), up to the maximum."""
    _require_not_ended(state)
    if amount < 1:
        raise InitiativeError("Healing must be at least 1.", "amount")
    me = state.fighter(key)
    if "dead" in me.statuses:
        raise InitiativeError(f"{me.name} is Dead.", "amount")
    hp = min(me.hp_max, me.hp + amount)
    state = _put(state, replace(me, hp=hp))
    return settle(_log(state, "heal", f"{me.name} recovers to {hp}/{me.hp_max} HP.", key))


def set_hp(state: InitiativeState, key: str, hp: int, members: int | None = None
           ) -> InitiativeState:
    """The Imp corrects HP (and a Mob's members) directly."""
    _require_not_ended(state)
    me = state.fighter(key)
    if hp > me.hp_max:
        raise InitiativeError(f"HP {hp} is over the maximum of {me.hp_max}.", "hp")
    if members is not None and not me.mob:
        members = None
    if members is not None and members < 0:
        raise InitiativeError("Members cannot be negative.", "members")
    new = replace(me, hp=hp, members=me.members if members is None else members)
    state = _put(state, new)
    text = f"{me.name}'s HP set to {hp}/{me.hp_max}"
    if members is not None:
        text += f", {members} member{'s' if members != 1 else ''}"
    return settle(_log(state, "set_hp", text + ".", key))


def set_statuses(state: InitiativeState, key: str, statuses: Iterable[str],
                 names: Mapping[str, str] | None = None) -> InitiativeState:
    """The combatant's statuses, all at once; `names` (key -> name, in the order the log
    lists them) is the system's, else the keys capitalized."""
    _require_not_ended(state)
    me = state.fighter(key)
    new = _statuses(statuses)
    state = _put(state, replace(me, statuses=new))
    if names is None:
        names = {status: status.capitalize() for status in sorted(new)}
    names = ", ".join(name for status, name in names.items() if status in new) or "none"
    return settle(_log(state, "statuses", f"{me.name}'s statuses: {names}.", key))


def stumble(state: InitiativeState, key: str) -> InitiativeState:
    """A Stumble Botch (Dodge, Move): "lose next Action" and the Free Move with it. The
    Action still held this Round, else the next Round's."""
    _require_running(state)
    me = state.fighter(key)
    if me.fallen:
        raise InitiativeError(f"{me.name} has fallen and has no Action to lose.")
    if me.waiting:
        new = replace(me, waiting="", deciding=False, spent=True, lost="stumble")
    elif me.has_action:
        new = replace(me, spent=True, lost="stumble")
    else:
        new = replace(me, lose_next=me.lose_next + 1)
    state = _put(state, new)
    when = "this Round" if new.lost and not me.lost else "next Round"
    return settle(_log(state, "stumble", f"{me.name} Stumbles and loses their Action {when}.",
                       key))


def lose_free_move(state: InitiativeState, key: str) -> InitiativeState:
    """Grapple's Seize or Push/Pull/Carry: "The loser keeps their Action ... only losing
    their Free Move."""
    _require_running(state)
    me = state.fighter(key)
    if not me.has_free_move:
        raise InitiativeError(f"{me.name} has no Free Move left this Round.")
    state = _put(state, replace(me, free_move_lost=True))
    return _log(state, "free_move", f"{me.name} loses their Free Move this Round.", key)


def _require_not_ended(state: InitiativeState) -> None:
    if state.phase == ENDED:
        raise InitiativeError("Initiative has ended.")


def end(state: InitiativeState) -> InitiativeState:
    """"Initiative ends when the conflict is over ... Refill HP back to maximum unless
    the character is Fallen or otherwise cannot Rally." Waits lapse."""
    _require_running(state)
    fighters = []
    kept = []
    for f in state.fighters:
        f = replace(f, waiting="", deciding=False)
        if f.can_rally:
            f = replace(f, hp=f.hp_max)
        else:
            kept.append(f"{f.name} ({'Fallen' if f.fallen else 'cannot Rally'})")
        fighters.append(f)
    state = replace(state, fighters=tuple(fighters), phase=ENDED, last_targets=(),
                    round_start=False, imp_decides=False)
    text = "Initiative ends: HP refills to maximum"
    text += f" except for {', '.join(kept)}." if kept else " for everyone."
    return _log(state, "end", text)


STEPS = {
    "trigger": lambda s, p: trigger(s, p["key"]),
    "act": lambda s, p: act(s, p["actor"], p.get("targets", ()), p.get("action", "")),
    "wait": lambda s, p: wait(s, p["actor"], p["action"]),
    "interrupt": lambda s, p: interrupt(s, p["actor"], p["action"], p.get("targets", ())),
    "dodge": lambda s, p: dodge(s, p["key"]),
    "keep_waiting": lambda s, p: keep_waiting(s, p["key"]),
    "rejoin": lambda s, p: rejoin(s, p["key"]),
    "imp_decides": lambda s, p: let_imp_decide(s),
    "pass": lambda s, p: pass_to(s, p["to"]),
    "damage": lambda s, p: damage(s, p["key"], p["amount"], area=p.get("area", False),
                                  stagger=p.get("stagger", False)),
    "heal": lambda s, p: heal(s, p["key"], p["amount"]),
    "set_hp": lambda s, p: set_hp(s, p["key"], p["hp"], p.get("members")),
    "statuses": lambda s, p: set_statuses(s, p["key"], p.get("statuses", ())),
    "stumble": lambda s, p: stumble(s, p["key"]),
    "free_move": lambda s, p: lose_free_move(s, p["key"]),
    "next_round": lambda s, p: next_round(s),
    "end": lambda s, p: end(s),
}


def apply_step(state: InitiativeState, kind: str, payload: Mapping | None = None, *,
               steps: Mapping = STEPS) -> InitiativeState:
    """One step by name (a stored ledger line), validated like the functions above;
    `steps` is the system's table (STEPS with its own steps)."""
    try:
        step = steps[kind]
    except KeyError:
        raise InitiativeError(f"Unknown step {kind!r}.") from None
    try:
        return step(state, dict(payload or {}))
    except KeyError as missing:
        raise InitiativeError(f"The step {kind!r} needs {missing}.") from None


def replay(state: InitiativeState, steps: Iterable[tuple[str, Mapping]], *,
           table: Mapping = STEPS) -> InitiativeState:
    for kind, payload in steps:
        state = apply_step(state, kind, payload, steps=table)
    return state
