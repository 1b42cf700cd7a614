"""What every game system's inventory shares: the mechanics of moving things between
owners (a character, the party stash) need a refusal, a line's name as the ledgers and
messages say it, and the bounds of a line's quantity. A system's own inventory rules
(Eldritch Gambit's Load, containers' capacity, starting gear) are its package's and
import these; campaigns/transfers.py, the hand-over itself, uses them too.
"""

from __future__ import annotations

from django.db import models

from .models import InventoryItem
from .refusals import Refusal

Quality = InventoryItem.Quality

# A line's quantity: a sanity bound, not a rule of any game.
MIN_QUANTITY = 1
MAX_QUANTITY = 10_000


class InventoryError(Refusal):
    """A refused inventory change: a message for the player, a stable code, and the
    form field it belongs to (None: the action as a whole)."""


def pk_of(value: models.Model | int | None) -> int | None:
    """The pk of a row or of a pk (services take either)."""
    return value if value is None or isinstance(value, int) else value.pk


def describe(name: str, quantity: int = 1, quality: str = Quality.STANDARD) -> str:
    """"Sword (superior)", "Torches (3) x2": a line as the ledger and messages name it."""
    text = name
    if quality != Quality.STANDARD:
        text += f" ({Quality(quality).label.lower()})"
    if quantity != 1:
        text += f" x{quantity}"
    return text
