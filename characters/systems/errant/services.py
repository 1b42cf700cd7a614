"""The writes of an Errant, each in one transaction: create and update from the builder
form's cleaned data (the generic builder calls them through the registry), and moving one
item between hand, handy, worn and the containers (the sheet's one action). The Renown
times at 0 HP are kept as they are by the builder's update."""

from __future__ import annotations

from django.db import transaction

from rules.engine.errant.data import ATTRIBUTE_KEYS

from .forms import LOCATION_CHOICES
from .models import ErrantCharacter

# The columns the builder writes (everything the player chooses there).
BUILDER_COLUMNS = (
    "name", "method", "dice", "swap_first", "swap_second",
    *(f"guide_{key}" for key in ATTRIBUTE_KEYS), "guide_note", "renown_raises", "ancestry",
    "minimum_age", "age", "keepsake", "failed_profession", "archetype", "kit_choice",
    "covenant_alignment", "favour_deeds", "extra_languages", "alignment", "hp_current",
    "exhaustion", "gear", "proficiencies",
)
LOCATIONS = dict(LOCATION_CHOICES)


class MoveRefused(Exception):
    """A move that cannot be made; the message says why."""


def _columns(data: dict) -> dict:
    values = {column: data[column] for column in BUILDER_COLUMNS if column in data}
    for text in ("name", "guide_note", "keepsake", "failed_profession", "kit_choice",
                 "swap_first", "swap_second", "alignment", "covenant_alignment"):
        values[text] = (values.get(text) or "").strip()
    if values.get("method") != "guide":
        for key in ATTRIBUTE_KEYS:  # the Guide's scores belong to the Guide's mode only
            values[f"guide_{key}"] = None
    return values


@transaction.atomic
def character_create(*, owner, data: dict, times_at_zero_hp: int = 0) -> ErrantCharacter:
    from .apps import KEY

    return ErrantCharacter.objects.create(owner=owner, system=KEY,
                                          times_at_zero_hp=times_at_zero_hp,
                                          **_columns(data))


@transaction.atomic
def character_update(*, character, data: dict, by) -> ErrantCharacter:
    character = ErrantCharacter.objects.select_for_update().get(pk=character.pk)
    for column, value in _columns(data).items():
        setattr(character, column, value)
    character.save()
    return character


@transaction.atomic
def item_move(*, character, index: int, name: str, location: str) -> ErrantCharacter:
    """Move the item at `index` (which must still be `name`: the page it was chosen on may
    be stale) to `location`: one action (PR §Hand, Handy & Worn). The row is locked, so
    two clicks land one after the other; moving an item where it is changes nothing."""
    if location not in LOCATIONS:
        raise MoveRefused("Choose hand, handy, worn, the backpack or another container.")
    character = ErrantCharacter.objects.select_for_update().get(pk=character.pk)
    gear = list(character.gear)
    if not 0 <= index < len(gear) or gear[index].get("name") != name:
        raise MoveRefused("That item is no longer on this sheet: the page was out of date, "
                          "here it is again.")
    if gear[index].get("location") != location:
        gear[index] = {**gear[index], "location": location}
        character.gear = gear
        character.save(update_fields=["gear", "updated_at"])
    return character
