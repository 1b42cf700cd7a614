"""Initiative Turns: set-up (combat distance, surprise, the odd-or-even call) and the Turn's
four phases as a pure state machine that refuses what the rules forbid.

Errant SRD: IT §Combat Distance, §Surprise, §Determining Initiative Turn Order,
§Initiative Turn Actions, §Speed & Movement, §Initiative Turn Procedure; QR §Initiative;
next-games.md E30-E31. docs/RULES.md records the readings (AMB-E70 ...).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from itertools import product

from .data.initiative_tables import (
    SURPRISE_COMPANY,
    SURPRISE_NONE,
    SURPRISE_NPCS,
    SURPRISE_TABLE,
)

D6 = 6
MOVEMENT_DIE = 4  # IT §Speed & Movement: "1 movement die, which is a D4"
DISTANCE_MULTIPLIER = 10  # IT §Combat Distance: "roll a D6 and multiply by 10"
COMPANY, NPCS = "company", "npcs"
SIDES = (COMPANY, NPCS)
ODD, EVEN = "odd", "even"
QUICK, SLOW = "quick", "slow"
# IT §Initiative Turn Actions: "Acting quickly allows ... one action, whereas acting slowly
# allows ... up to two actions."
ACTIONS_PER_PACE = {QUICK: 1, SLOW: 2}
# "a character may only either exclusively make an Attack Roll, cast a Sorcery, or cast a
# Miracle once per Initiative Turn."
EXCLUSIVE_ACTIONS = ("attack", "sorcery", "miracle")
ACTION_KINDS = (*EXCLUSIVE_ACTIONS, "move", "item", "ready", "other")
# Free actions: "a character can generally do only one or two of these" (AMB-E72: at most 2).
MAX_FREE_ACTIONS = 2
# IT §Determining Initiative Turn Order: the four phases in order.
PHASES = (("winners", QUICK), ("losers", QUICK), ("winners", SLOW), ("losers", SLOW))


class InitiativeError(ValueError):
    """A move the rules forbid, with a stable code for the form's field."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


def _check_die(value: int, sides: int = D6, name: str = "die") -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= sides:
        raise InitiativeError("bad_die", f"The {name} must be a whole number from 1 to {sides}.")


# -- set-up ----------------------------------------------------------------------------------


def combat_distance(d6: int) -> int:
    """IT §Combat Distance: D6 x 10 feet (indoors) or yards (outdoors)."""
    _check_die(d6, name="distance die")
    return d6 * DISTANCE_MULTIPLIER


def surprise(d6: int, *, npc_faces: int = 2) -> str:
    """IT §Surprise: 1-2 the NPCs surprise, 5-6 the Company does, else nobody. `npc_faces`
    widens the NPCs' range for a creature that says so (gelatinous cube: "surprises on a roll
    of 1-4"); the Company keeps 5-6 unless the NPC range reaches them (AMB-E71)."""
    _check_die(d6, name="surprise die")
    if not 0 <= npc_faces <= D6:
        raise InitiativeError("bad_faces", "The NPCs' surprise range must be 0 to 6 faces.")
    if d6 <= npc_faces:
        return SURPRISE_NPCS
    return SURPRISE_TABLE[d6] if d6 >= 5 else SURPRISE_NONE


def surprise_odds(*, npc_faces: int = 2) -> dict[str, Fraction]:
    """The chance of each surprise outcome, counted over the six faces."""
    counts = {SURPRISE_NPCS: 0, SURPRISE_NONE: 0, SURPRISE_COMPANY: 0}
    for face in range(1, D6 + 1):
        counts[surprise(face, npc_faces=npc_faces)] += 1
    return {k: Fraction(v, D6) for k, v in counts.items()}


@dataclass(frozen=True)
class OrderRoll:
    """IT §Determining Initiative Turn Order: an Errant calls odd or even, the player and the
    Guide each roll a D6 and add them; a right call lets the Company act first."""

    call: str
    errant_die: int
    guide_die: int

    @property
    def total(self) -> int:
        return self.errant_die + self.guide_die

    @property
    def parity(self) -> str:
        return EVEN if self.total % 2 == 0 else ODD

    @property
    def winner(self) -> str:
        return COMPANY if self.parity == self.call else NPCS


def order_roll(call: str, errant_die: int, guide_die: int) -> OrderRoll:
    if call not in (ODD, EVEN):
        raise InitiativeError("bad_call", "Call either odd or even.")
    _check_die(errant_die, name="Errant's die")
    _check_die(guide_die, name="Guide's die")
    return OrderRoll(call, errant_die, guide_die)


def p_call_wins(call: str) -> Fraction:
    """The chance a call wins, over the 36 pairs of dice (1/2 for either call)."""
    wins = sum(order_roll(call, a, b).winner == COMPANY
               for a, b in product(range(1, D6 + 1), repeat=2))
    return Fraction(wins, D6 * D6)


# -- the Turn as a state machine -------------------------------------------------------------


@dataclass(frozen=True)
class Combatant:
    key: str
    side: str
    pace: str = ""  # quick or slow, chosen before the Turn's phases
    out_of_action: bool = False
    alert: bool = False  # ER §The Deviant, mastery Alert: may act while surprised


@dataclass(frozen=True)
class Effect:
    """An ongoing effect. By default it expires at the end of the Initiative Turn (IT
    §Determining Initiative Turn Order: "Any ongoing effects expire at the end of an
    Initiative Turn"); a Status with a stated duration (IT §Statuses: "for a duration
    specified by the effect", e.g. paralysed for 2D4 Initiative Turns) lasts `turns` Turns,
    this one included (AMB-E87)."""

    label: str
    source: str = ""
    turns: int = 1


@dataclass(frozen=True)
class InitiativeTurn:
    number: int
    winner: str
    combatants: tuple[Combatant, ...]
    surprised: str = ""  # the side that cannot act in this (free) Turn, or ""
    phase: int = 0  # index into PHASES; len(PHASES) once the Turn is over
    actions: tuple[tuple[str, str], ...] = ()  # (combatant, kind) in the order taken
    free_actions: tuple[str, ...] = ()  # combatant keys, one per free action
    granted: tuple[tuple[str, str], ...] = ()  # immediate actions taken out of turn
    shifts: tuple[str, ...] = ()
    effects: tuple[Effect, ...] = field(default_factory=tuple)

    @property
    def loser(self) -> str:
        return NPCS if self.winner == COMPANY else COMPANY

    @property
    def over(self) -> bool:
        return self.phase >= len(PHASES)

    def combatant(self, key: str) -> Combatant:
        for c in self.combatants:
            if c.key == key:
                return c
        raise InitiativeError("unknown_combatant", f"{key} is not in this combat.")

    @property
    def acting(self) -> tuple[str, str] | None:
        """(side, pace) of the current phase, or None once the Turn is over."""
        if self.over:
            return None
        who, pace = PHASES[self.phase]
        return (self.winner if who == "winners" else self.loser), pace

    def actions_of(self, key: str) -> tuple[str, ...]:
        return tuple(kind for k, kind in self.actions if k == key)

    def all_actions_of(self, key: str) -> tuple[str, ...]:
        """Phase actions and immediate ones: what the once-per-Turn rule looks at."""
        return self.actions_of(key) + tuple(kind for k, kind in self.granted if k == key)

    def actions_left(self, key: str) -> int:
        c = self.combatant(key)
        if not c.pace:
            return 0
        return ACTIONS_PER_PACE[c.pace] - len(self.actions_of(key))


def start_turn(number: int, roll: OrderRoll | None, combatants: dict[str, str], *,
               surprised: str = "", effects: tuple[Effect, ...] = (),
               alert: tuple[str, ...] = ()) -> InitiativeTurn:
    """Open Initiative Turn `number`. `combatants` maps each key to its side. A surprise
    Turn (IT §Surprise: "a free Initiative Turn in which the other side is unable to act")
    needs no order roll: the surprising side wins it and the surprised side cannot act."""
    if not isinstance(number, int) or number < 1:
        raise InitiativeError("bad_number", "Initiative Turns are numbered from 1.")
    for key, side in combatants.items():
        if side not in SIDES:
            raise InitiativeError("bad_side", f"{key}: the side must be company or npcs.")
    if surprised:
        if surprised not in SIDES:
            raise InitiativeError("bad_side", "The surprised side must be company or npcs.")
        winner = COMPANY if surprised == NPCS else NPCS
    elif roll is None:
        raise InitiativeError("no_order", "Roll odd or even before the Turn starts.")
    else:
        winner = roll.winner
    return InitiativeTurn(number, winner,
                          tuple(Combatant(k, s, alert=k in alert)
                                for k, s in combatants.items()),
                          surprised=surprised, effects=tuple(effects))


def choose_pace(turn: InitiativeTurn, key: str, pace: str) -> InitiativeTurn:
    """Each combatant chooses to act quickly or slowly before acting; the choice is fixed
    once they have acted."""
    if pace not in ACTIONS_PER_PACE:
        raise InitiativeError("bad_pace", "Act either quickly or slowly.")
    c = turn.combatant(key)
    if turn.actions_of(key):
        raise InitiativeError("pace_fixed", f"{key} has already acted this Turn.")
    if PHASES.index(_phase_of(turn, c.side, pace)) < turn.phase:
        raise InitiativeError("phase_passed", f"The {pace} phase of {key}'s side is over.")
    return replace(turn, combatants=tuple(replace(x, pace=pace) if x.key == key else x
                                          for x in turn.combatants))


def _phase_of(turn: InitiativeTurn, side: str, pace: str) -> tuple[str, str]:
    return ("winners" if side == turn.winner else "losers", pace)


def act(turn: InitiativeTurn, key: str, kind: str) -> InitiativeTurn:
    """Take one action in the current phase; refuses an action out of phase, beyond the
    pace's allowance, a second Attack Roll/Sorcery/Miracle, or by the surprised side."""
    if kind not in ACTION_KINDS:
        raise InitiativeError("bad_action", f"Unknown action {kind!r}.")
    if turn.over:
        raise InitiativeError("turn_over", "This Initiative Turn is over.")
    c = turn.combatant(key)
    if c.side == turn.surprised and not c.alert:
        raise InitiativeError("surprised", f"{key}'s side is surprised and cannot act.")
    if c.out_of_action:
        raise InitiativeError("out_of_action", f"{key} is out of action.")
    if not c.pace:
        raise InitiativeError("no_pace", f"{key} must choose to act quickly or slowly.")
    if (c.side, c.pace) != turn.acting:
        raise InitiativeError("not_their_phase",
                              f"It is not {key}'s phase ({turn.acting[0]} act "
                              f"{turn.acting[1]}ly now).")
    if turn.actions_left(key) <= 0:
        raise InitiativeError("no_actions_left", f"{key} has no actions left this Turn.")
    _check_exclusive(turn, key, kind)
    return replace(turn, actions=(*turn.actions, (key, kind)))


def _check_exclusive(turn: InitiativeTurn, key: str, kind: str) -> None:
    if kind in EXCLUSIVE_ACTIONS and any(k in EXCLUSIVE_ACTIONS
                                         for k in turn.all_actions_of(key)):
        raise InitiativeError("one_attack_or_magic",
                              "Only one Attack Roll, Sorcery or Miracle per Initiative Turn.")
    if kind == "move" and key in turn.shifts:
        raise InitiativeError("shifted", "No movement roll in a Turn with a shift.")


def immediate_action(turn: InitiativeTurn, key: str, kind: str) -> InitiativeTurn:
    """An action out of turn, granted by a 1 on an Attack Roll against `key` (IT §Attacking)
    or a successful Save against a gambit not at dire Position (IT §Gambits). It does not
    use the pace's actions and needs no phase, but the surprised and the out of action
    cannot take it and the once-per-Turn Attack Roll/Sorcery/Miracle still holds (AMB-E91);
    an Attack Roll so made is a single Attack Roll."""
    if kind not in ACTION_KINDS:
        raise InitiativeError("bad_action", f"Unknown action {kind!r}.")
    if turn.over:
        raise InitiativeError("turn_over", "This Initiative Turn is over.")
    c = turn.combatant(key)
    if c.side == turn.surprised and not c.alert:
        raise InitiativeError("surprised", f"{key}'s side is surprised and cannot act.")
    if c.out_of_action:
        raise InitiativeError("out_of_action", f"{key} is out of action.")
    _check_exclusive(turn, key, kind)
    return replace(turn, granted=(*turn.granted, (key, kind)))


def shift(turn: InitiativeTurn, key: str, movement_dice: int) -> InitiativeTurn:
    """IT §Speed & Movement: a shift takes no action, once per Turn, never in a Turn with a
    movement roll, and not with 0 movement dice."""
    c = turn.combatant(key)
    if (c.side == turn.surprised and not c.alert) or c.out_of_action:
        raise InitiativeError("cannot_act", f"{key} cannot act this Turn.")
    if movement_dice < 1:
        raise InitiativeError("no_movement_dice", "A character with no movement dice cannot shift.")
    if key in turn.shifts:
        raise InitiativeError("shifted", "Only one shift per Initiative Turn.")
    if "move" in turn.all_actions_of(key):
        raise InitiativeError("moved", "No shift in a Turn with a movement roll.")
    return replace(turn, shifts=(*turn.shifts, key))


def free_action(turn: InitiativeTurn, key: str) -> InitiativeTurn:
    """Talking, picking up or dropping something: no action, at most two a Turn (AMB-E72)."""
    turn.combatant(key)
    if turn.free_actions.count(key) >= MAX_FREE_ACTIONS:
        raise InitiativeError("too_many_free_actions",
                              f"At most {MAX_FREE_ACTIONS} free actions in an Initiative Turn.")
    return replace(turn, free_actions=(*turn.free_actions, key))


def add_effect(turn: InitiativeTurn, label: str, source: str = "", turns: int = 1
               ) -> InitiativeTurn:
    if not label.strip():
        raise InitiativeError("bad_effect", "Name the effect.")
    if not isinstance(turns, int) or turns < 1:
        raise InitiativeError("bad_duration", "An effect lasts at least this Turn.")
    return replace(turn, effects=(*turn.effects, Effect(label.strip(), source, turns)))


def set_out_of_action(turn: InitiativeTurn, key: str, out: bool = True) -> InitiativeTurn:
    turn.combatant(key)
    return replace(turn, combatants=tuple(replace(x, out_of_action=out) if x.key == key else x
                                          for x in turn.combatants))


def next_phase(turn: InitiativeTurn) -> InitiativeTurn:
    """Close the current phase (unused actions are lost) and open the next."""
    if turn.over:
        raise InitiativeError("turn_over", "This Initiative Turn is over.")
    return replace(turn, phase=turn.phase + 1)


def end_turn(turn: InitiativeTurn) -> tuple[InitiativeTurn, tuple[Effect, ...]]:
    """Step 8: effects and conditions expire. Returns the closed Turn, holding only the
    effects that carry into the next Turn (one Turn fewer), and those that expired. Pass
    `closed.effects` to the next `start_turn`."""
    expired = tuple(e for e in turn.effects if e.turns <= 1)
    carried = tuple(replace(e, turns=e.turns - 1) for e in turn.effects if e.turns > 1)
    return replace(turn, phase=len(PHASES), effects=carried), expired


def movement_distance(faces: tuple[int, ...] | list[int], terrain: int = 0) -> int:
    """IT §Speed & Movement: the movement dice x 10 feet or yards, less 10 per point of
    difficult terrain's rating (not below 0). No dice: an action moves 10."""
    for f in faces:
        if not isinstance(f, int) or isinstance(f, bool) or not 1 <= f <= MOVEMENT_DIE:
            raise InitiativeError("bad_die", "Movement dice are D4s: 1 to 4.")
    if terrain < 0:
        raise InitiativeError("bad_terrain", "A terrain rating is never negative.")
    base = sum(faces) * DISTANCE_MULTIPLIER if faces else DISTANCE_MULTIPLIER
    return max(0, base - terrain * DISTANCE_MULTIPLIER)


# -- duels -----------------------------------------------------------------------------------

KING, QUEEN, JACK = "king", "queen", "jack"
DUEL_CARDS = (KING, QUEEN, JACK)
# IT §Duels: what the card revealed gives the participant who acts.
DUEL_EFFECTS = {KING: "next Attack Roll enhanced 1 step",
                QUEEN: "next Attack Roll against them impaired 1 step",
                JACK: "DV of their next gambit +2"}
DUEL_ATTACK_ROLLS = 1  # "only one Attack Roll may be made" in a duel


@dataclass(frozen=True)
class Duel:
    """IT §Duels: each participant lays a King, a Queen and a Jack face down; the guesser
    names the opponent's next card. Right: the guesser acts; wrong: the opponent acts; then
    whoever acted guesses. The Turn ends once all three of either line are revealed."""

    lines: dict[str, tuple[str, ...]]
    guesser: str
    revealed: dict[str, int]
    acted: tuple[tuple[str, str], ...] = ()  # (who acts, the card's effect)

    @property
    def over(self) -> bool:
        return any(n == len(DUEL_CARDS) for n in self.revealed.values())

    def opponent(self, who: str) -> str:
        return next(k for k in self.lines if k != who)


def start_duel_turn(lines: dict[str, tuple[str, ...] | list[str]], first_guesser: str) -> Duel:
    """The challenger guesses first in the first Turn; later, the participant with fewer
    cards revealed in the previous Turn (`next_duel_guesser`)."""
    if len(lines) != 2:
        raise InitiativeError("bad_duel", "A duel has two participants.")
    for who, line in lines.items():
        if sorted(line) != sorted(DUEL_CARDS):
            raise InitiativeError("bad_line", f"{who} lays one King, one Queen and one Jack.")
    if first_guesser not in lines:
        raise InitiativeError("bad_duel", "The first guesser must be a participant.")
    return Duel({k: tuple(v) for k, v in lines.items()}, first_guesser, dict.fromkeys(lines, 0))


def duel_guess(duel: Duel, card: str) -> Duel:
    """The guesser names the opponent's next face-down card; it is revealed."""
    if duel.over:
        raise InitiativeError("turn_over", "All of one line is revealed: lay the cards again.")
    if card not in DUEL_CARDS:
        raise InitiativeError("bad_card", "Guess the King, the Queen or the Jack.")
    target = duel.opponent(duel.guesser)
    shown = duel.lines[target][duel.revealed[target]]
    actor = duel.guesser if card == shown else target
    revealed = {**duel.revealed, target: duel.revealed[target] + 1}
    return replace(duel, guesser=actor, revealed=revealed,
                   acted=(*duel.acted, (actor, DUEL_EFFECTS[shown])))


def next_duel_guesser(finished: Duel, challenger: str) -> str:
    """Who guesses first next Turn: fewer cards revealed; on equal counts, the challenger
    (AMB-E92)."""
    a, b = finished.lines
    if finished.revealed[a] == finished.revealed[b]:
        return challenger
    return a if finished.revealed[a] < finished.revealed[b] else b


def p_duel_guess(unrevealed: int) -> Fraction:
    """The chance a guess is right knowing only which cards are still face down."""
    if not 1 <= unrevealed <= len(DUEL_CARDS):
        raise InitiativeError("bad_count", "One to three cards can be face down.")
    return Fraction(1, unrevealed)
