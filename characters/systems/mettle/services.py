"""The builder's writes of a METTLE Core character, each in one transaction: create and
update from the form's cleaned data (the generic builder calls them through the
registry). The XP raises and the Credit lost are the campaign's to write: the builder
keeps them as they are."""

from __future__ import annotations

from django.db import transaction

from rules.engine.mettle.data import ATTRIBUTE_KEYS

from .models import MettleCharacter

# The columns the builder writes (everything the player chooses there).
BUILDER_COLUMNS = (
    "name", "appearance", "background", "method", "budget", *ATTRIBUTE_KEYS,
    *(f"{key}_descriptor" for key in ATTRIBUTE_KEYS), "backstories", "contacts", "credit",
    "mettle_current", "armor", "weapons", "gear",
)


def _columns(data: dict) -> dict:
    values = {column: data[column] for column in BUILDER_COLUMNS if column in data}
    for text in ("name", "appearance", "background", "armor",
                 *(f"{key}_descriptor" for key in ATTRIBUTE_KEYS)):
        values[text] = (values.get(text) or "").strip()
    return values


@transaction.atomic
def character_create(*, owner, data: dict, raises=(), credit_lost: int = 0) -> MettleCharacter:
    from .apps import KEY

    return MettleCharacter.objects.create(owner=owner, system=KEY, raises=list(raises),
                                          credit_lost=credit_lost, **_columns(data))


@transaction.atomic
def character_update(*, character, data: dict, by) -> MettleCharacter:
    character = MettleCharacter.objects.select_for_update().get(pk=character.pk)
    for column, value in _columns(data).items():
        setattr(character, column, value)
    character.save()
    return character
