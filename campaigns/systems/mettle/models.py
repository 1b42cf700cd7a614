"""METTLE Core's campaign models, registered with the campaigns app (app label
"campaigns"): campaigns/models.py imports this module through
campaigns.systems.import_each. The Initiative tracker's live in encounters.py."""

from .encounters import MettleCombatant, MettleEncounter, MettleInitiativeStep  # noqa: F401
