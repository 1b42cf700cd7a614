"""METTLE Core's campaign models, registered with the campaigns app (app label
"campaigns"): campaigns/models.py imports this module through campaigns.systems.import_each.
Each part of the METTLE table keeps its models in its own module and imports them here."""

# The Play page's Checks and Twists, the session log (rolls.py).
from .rolls import MettleRoll  # noqa: F401
