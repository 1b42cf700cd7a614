"""The builder's writes of an encounter combatant, each in one transaction."""

from __future__ import annotations

from django.db import transaction

from rules.engine.encounters.sheet import NUMBERS

from .models import EncounterCharacter


def _columns(data: dict) -> dict:
    values = {name: data[name] for name in NUMBERS if name in data}
    values["name"] = (data.get("name") or "").strip()
    return values


@transaction.atomic
def character_create(*, owner, data: dict) -> EncounterCharacter:
    from .apps import KEY

    return EncounterCharacter.objects.create(owner=owner, system=KEY, **_columns(data))


@transaction.atomic
def character_update(*, character, data: dict, by) -> EncounterCharacter:
    character = EncounterCharacter.objects.select_for_update().get(pk=character.pk)
    for column, value in _columns(data).items():
        setattr(character, column, value)
    character.save()
    return character
