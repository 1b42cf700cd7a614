"""Errant: the rules of the Errants, Core Rules and Core Procedures chapters as functions.

Entry points: compute_sheet(ErrantBuild(...)) -> ErrantSheet; checks.p_success(attribute,
dv) -> Fraction. Pure Python: no Django, no other game's engine.

Modules: data (the SRD tables, CC BY-SA 4.0: a separate package with its ATTRIBUTION.md),
attributes (4D4 in order with one swap, or set by the Guide; Ancestry, languages,
Alignment, lifespan), slots (Item Slots, Encumbrance in quarter slots, SPD, movement),
checks (exact odds, DV modifiers, opposed Checks), advancement (Renown, adjutants,
training), gear (damage dice, Quality, Supply, money), archetypes (the four Archetypes'
resources and kits), sheet. docs/RULES.md, "# Errant", records every reading.
"""

from .attributes import Attributes, Issue, Method
from .checks import p_success
from .sheet import (
    DERIVED_NAMES,
    ErrantBuild,
    ErrantSheet,
    Item,
    Stat,
    Term,
    compute_sheet,
    items_from_kit,
)

__all__ = [
    "DERIVED_NAMES",
    "Attributes",
    "ErrantBuild",
    "ErrantSheet",
    "Issue",
    "Item",
    "Method",
    "Stat",
    "Term",
    "compute_sheet",
    "items_from_kit",
    "p_success",
]

# Turn procedures, part 1 (issue #15): Event Die, Travel, weather, Exploration.
from . import event_die, exploration, travel, weather  # noqa: E402

__all__ += ["event_die", "exploration", "travel", "weather"]

# Initiative Turns, wounds and death, Chases, Reactions and Negotiations, Downtime Turns
# (issue #15, part 2): modules initiative, wounds, chases, reactions, downtime.
from . import chases, downtime, initiative, reactions, wounds  # noqa: E402

__all__ += ["chases", "downtime", "initiative", "reactions", "wounds"]
