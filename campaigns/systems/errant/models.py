"""Errant's campaign models, registered with the campaigns app (minimal: the lead merges
errcamp's models here)."""

# The Play page's Checks, Saving Throws and opposed Checks, the session log (rolls.py).
from .rolls import ErrantRoll  # noqa: F401
