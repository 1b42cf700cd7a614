"""Encounter rules (seed 004): the pure engine of the encounter tracker.

The seed-004 "Encounters" chapter has no open licence: its mechanics are implemented and
described here in our own words, and none of its sentences, examples or tables ship.
next-games.md §3 reads it as H1-H22 with ambiguities AMB-H1...H11; docs/RULES.md,
"Encounter rules (seed 004)", records the readings this engine uses.

- combatants.py: a combatant's numbers, the campaign settings, the skill-roll formula;
- declaring.py: a declared round -> Initiative slots and the skill penalty;
- tracker.py: the round's phases, the Action queue, waiting, defences out of turn,
  recovery, as events folded into a state;
- calculators.py: Pushing Power, charge momentum, range challenge, encumbered pace,
  jumps and chases.
"""

from .calculators import (
    SENSE_INCREMENTS,
    WEAPON_INCREMENTS,
    Worked,
    charge_momentum,
    chase_gain,
    encumbered_pace,
    jump_distance,
    movement_actions,
    pushing_power,
    range_challenge,
    ride_actions,
)
from .combatants import (
    CONCENTRATE,
    EACH_DEFENCE,
    MANEUVER,
    ONE_FOR_ALL,
    OUR_SKILL_ROLL,
    Combatant,
    EncounterError,
    Settings,
    combatant,
)
from .declaring import Item, Slot, skill_penalty
from .tracker import (
    EVENTS,
    Encounter,
    Entry,
    FighterView,
    SlotView,
    apply,
    fold,
    new_encounter,
    roll_initiative,
)

__all__ = [
    "CONCENTRATE",
    "EACH_DEFENCE",
    "EVENTS",
    "MANEUVER",
    "ONE_FOR_ALL",
    "OUR_SKILL_ROLL",
    "SENSE_INCREMENTS",
    "WEAPON_INCREMENTS",
    "Combatant",
    "Encounter",
    "EncounterError",
    "Entry",
    "FighterView",
    "Item",
    "Settings",
    "Slot",
    "SlotView",
    "Worked",
    "apply",
    "charge_momentum",
    "chase_gain",
    "combatant",
    "encumbered_pace",
    "fold",
    "jump_distance",
    "movement_actions",
    "new_encounter",
    "pushing_power",
    "range_challenge",
    "ride_actions",
    "roll_initiative",
    "skill_penalty",
]
