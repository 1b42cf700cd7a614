"""METTLE Core's campaign models, registered with the campaigns app (app label
"campaigns"): campaigns/models.py imports this module through campaigns.systems.import_each.
Each part of the METTLE table keeps its models in its own module and imports them here."""

# The Initiative tracker (encounters.py).
from .encounters import MettleCombatant, MettleEncounter, MettleInitiativeStep  # noqa: F401

# The Guide's screen: NPC pools and the Faction triangle (guide_models.py).
from .guide_models import (  # noqa: F401
    MettleFaction,
    MettleFactionCheck,
    MettleNpc,
    MettleRelation,
    MettleResourcesEntry,
    MettleTriangle,
)

# The Guide's hazards: falls, fire, area damage, afflictions (hazard_models.py).
from .hazard_models import MettleHazard  # noqa: F401

# The Play page's Checks and Twists, the session log (rolls.py).
from .rolls import MettleRoll  # noqa: F401
