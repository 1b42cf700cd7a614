"""Volleyball Initiative as Eldritch Gambit plays it: the shared state machine
(rules/engine/volleyball.py) with this game's tie-break for who triggers, its statuses (the
ones the Imp may set, by name) and a foe's AF in the fight. The tracker
(campaigns/systems/eldritch_gambit/initiative.py) reads the whole API from here.

Eldritch Gambit SRD, Scenes > Staging > Initiative; Characters > Defenses (Status).
docs/RULES.md, "Volleyball Initiative", records every reading.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from .. import volleyball
from ..volleyball import (
    ACT,
    ACTION_BLOCKING,
    DODGE,
    ENDED,
    ENDS_AT_NEW_ROUND,
    FALLEN_STATUSES,
    FOES,
    MAX_ACTION_LABEL,
    NO_RALLY_STATUSES,
    PARTY,
    PASS,
    SETUP,
    SIDES,
    Event,
    Fighter,
    InitiativeError,
    InitiativeState,
    TieError,
    act,
    damage,
    dodge,
    end,
    heal,
    interrupt,
    join,
    keep_waiting,
    let_imp_decide,
    lose_free_move,
    new_round,
    new_scene,
    next_round,
    pass_to,
    rejoin,
    set_hp,
    settle,
    stumble,
    trigger,
    wait,
)
from .sheet import half_round_up
from .statuses import STATUS_BY_KEY

__all__ = [
    "ACT",
    "ACTION_BLOCKING",
    "DODGE",
    "ENDED",
    "ENDS_AT_NEW_ROUND",
    "Event",
    "FALLEN_STATUSES",
    "FOES",
    "Fighter",
    "InitiativeError",
    "InitiativeState",
    "MAX_ACTION_LABEL",
    "NO_RALLY_STATUSES",
    "PARTY",
    "PASS",
    "SETUP",
    "SETTABLE_STATUSES",
    "SIDES",
    "STEPS",
    "TieError",
    "act",
    "apply_step",
    "combat_af",
    "damage",
    "dodge",
    "end",
    "follow_hp_maxima",
    "fighter",
    "heal",
    "interrupt",
    "join",
    "keep_waiting",
    "let_imp_decide",
    "lose_free_move",
    "new_round",
    "new_scene",
    "next_round",
    "pass_to",
    "rejoin",
    "replay",
    "set_hp",
    "set_statuses",
    "settle",
    "stumble",
    "trigger",
    "wait",
    "who_triggers",
]

# Statuses the tracker lets the Imp set (Encumbered is derived from Load by the sheet).
SETTABLE_STATUSES = tuple(key for key, rule in STATUS_BY_KEY.items() if not rule.derived)
STATUS_NAMES = {key: STATUS_BY_KEY[key].name for key in SETTABLE_STATUSES}


def _checked(statuses: Iterable[str]) -> tuple[str, ...]:
    statuses = tuple(statuses)
    for key in statuses:
        if key not in SETTABLE_STATUSES:
            raise InitiativeError(f"Unknown status {key!r}.", "statuses")
    return statuses


def fighter(key: str, name: str, *, side: str = PARTY, hp_max: int, hp: int | None = None,
            wp: int = 0, mob: bool = False, members: int = 1,
            statuses: Iterable[str] = ()) -> Fighter:
    """A validated Fighter with Eldritch Gambit's statuses (volleyball.fighter)."""
    return volleyball.fighter(key, name, side=side, hp_max=hp_max, hp=hp, wp=wp, mob=mob,
                              members=members, statuses=_checked(statuses))


def set_statuses(state: InitiativeState, key: str, statuses: Iterable[str]
                 ) -> InitiativeState:
    return volleyball.set_statuses(state, key, _checked(statuses), STATUS_NAMES)


def who_triggers(state: InitiativeState, claimants: Iterable[str],
                 imp_choice: str | None = None) -> str:
    """Staging > Initiative: "The one proposing the first hostile Action both holds and
    triggers Initiative. If there is an argument, let the Imp decide or just check who
    has the highest current WP." One claimant: them. Several: the Imp's choice among
    them, else the highest current WP; a tie there raises TieError (the Imp decides)."""
    keys = list(dict.fromkeys(claimants))
    if not keys:
        raise InitiativeError("Choose who proposes the first hostile Action.", "claimants")
    fighters = [state.fighter(k) for k in keys]
    if imp_choice:
        if imp_choice not in keys:
            raise InitiativeError("The Imp must choose one of the claimants.", "imp_choice")
        return imp_choice
    best = max(f.wp for f in fighters)
    top = tuple(f.key for f in fighters if f.wp == best)
    if len(top) > 1:
        names = " and ".join(state.name(k) for k in top)
        raise TieError(f"{names} tie on current WP {best}: the Imp decides.", top)
    return top[0]


def combat_af(af: int, fighter: Fighter) -> int:
    """A foe's AF in the fight (Characters > Defenses > Status): Fallen or
    Incapacitated drop it to 0; Surprised halves it (rounded up, as the sheet does)."""
    if fighter.fallen or "incapacitated" in fighter.statuses:
        return 0
    if "surprised" in fighter.statuses:
        return half_round_up(af)
    return af


def follow_hp_maxima(state: InitiativeState, maxima: Mapping[str, object]
                     ) -> InitiativeState:
    """The combatants' maximum HP as their sheets give it now (`maxima`: key -> Armored
    HP; keys not in the fight are skipped). Resources > Armor: "AP adds directly to
    maximum HP ... armor only raises max HP, not current. If one somehow dons armor
    mid-combat, they still need to Rally up to their new max HP": a new maximum counts
    from now on, current HP stays where it is, and above a lowered maximum (the armour
    taken off) it comes down to it, as the sheet allows no more. Each change is logged.
    docs/RULES.md, Volleyball Initiative, "Armour changed mid-fight"."""
    present = {f.key for f in state.fighters}
    for key, hp_max in maxima.items():
        if key not in present:
            continue
        if isinstance(hp_max, bool) or not isinstance(hp_max, int) or hp_max < 1:
            raise InitiativeError(f"A recorded maximum HP of {hp_max!r} is not a number "
                                  "of at least 1.", "hp_max")
        me = state.fighter(key)
        if me.hp_max == hp_max:
            continue
        hp = min(me.hp, hp_max)
        state = replace(state, fighters=tuple(
            replace(f, hp_max=hp_max, hp=hp) if f.key == key else f for f in state.fighters))
        text = (f"{me.name}'s maximum HP is now {hp_max} (armour changed): "
                f"{hp}/{hp_max} HP.")
        state = replace(state, log=state.log + (Event(state.round, "hp_max", text, key),))
    return state


STEPS = {
    **volleyball.STEPS,
    "statuses": lambda s, p: set_statuses(s, p["key"], p.get("statuses", ())),
}


def apply_step(state: InitiativeState, kind: str, payload: Mapping | None = None
               ) -> InitiativeState:
    """One step by name (a stored ledger line), with Eldritch Gambit's statuses."""
    return volleyball.apply_step(state, kind, payload, steps=STEPS)


def replay(state: InitiativeState, steps: Iterable[tuple[str, Mapping]]) -> InitiativeState:
    return volleyball.replay(state, steps, table=STEPS)
