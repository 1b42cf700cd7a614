"""Volleyball Initiative as Eldritch Gambit plays it: the shared state machine
(rules/engine/volleyball.py) with this game's tie-break for who triggers, its statuses (the
ones the Imp may set, by name) and a foe's AF in the fight. The tracker
(campaigns/systems/eldritch_gambit/initiative.py) reads the whole API from here.

Eldritch Gambit SRD, Scenes > Staging > Initiative; Characters > Defenses (Status).
docs/RULES.md, "Volleyball Initiative", records every reading.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

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
