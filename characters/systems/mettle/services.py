"""The builder's writes of a METTLE Core character, each in one transaction: create and
update from the form's cleaned data (the generic builder calls them through the
registry). The XP raises and the Credit lost are the campaign's to write: the builder
keeps them as they are."""

from __future__ import annotations

from django.db import transaction

from rules.engine.mettle.data import ATTRIBUTE_KEYS

from .inventory import gear_set
from .models import CreditEntry, MettleCharacter

# The columns the builder writes (everything the player chooses there).
BUILDER_COLUMNS = (
    "name", "appearance", "background", "method", "budget", *ATTRIBUTE_KEYS,
    *(f"{key}_descriptor" for key in ATTRIBUTE_KEYS), "backstories", "contacts", "credit",
    "mettle_current", "statuses",
)
# The builder's gear (the worn armour, the weapons, the rest), written as inventory lines.
GEAR_KEYS = ("armor", "weapons", "gear")


def _columns(data: dict) -> dict:
    values = {column: data[column] for column in BUILDER_COLUMNS if column in data}
    for text in ("name", "appearance", "background",
                 *(f"{key}_descriptor" for key in ATTRIBUTE_KEYS)):
        values[text] = (values.get(text) or "").strip()
    return values


def _gear(character: MettleCharacter, data: dict) -> None:
    if any(key in data for key in GEAR_KEYS):
        gear_set(character=character, armor=(data.get("armor") or "").strip(),
                 weapons=data.get("weapons") or [], gear=data.get("gear") or [])


@transaction.atomic
def character_create(*, owner, data: dict, raises=(), credit_lost: int = 0,
                     mettle_max_lost: int = 0, by=None) -> MettleCharacter:
    """A new character with its gear as inventory lines; `credit_lost` (an import's)
    is its Credit ledger's first entry; `mettle_max_lost` (an import's) what Afflictions
    have taken from its maximum (AMB-M-AFF-5)."""
    from .apps import KEY

    character = MettleCharacter.objects.create(owner=owner, system=KEY, raises=list(raises),
                                               mettle_max_lost=mettle_max_lost,
                                               **_columns(data))
    _gear(character, data)
    if credit_lost:
        CreditEntry.objects.create(character=character, kind=CreditEntry.Kind.IMPORT,
                                   change=credit_lost, created_by=by or owner,
                                   note="Credit lost, as imported")
    return character


@transaction.atomic
def character_update(*, character, data: dict, by) -> MettleCharacter:
    character = MettleCharacter.objects.select_for_update().get(pk=character.pk)
    for column, value in _columns(data).items():
        setattr(character, column, value)
    character.save()
    _gear(character, data)
    return character
