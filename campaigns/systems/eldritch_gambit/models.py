"""Eldritch Gambit's campaign models, registered with the campaigns app: campaigns/models.py
imports this module through campaigns.systems.import_each."""

from .rolls import Roll  # noqa: F401
