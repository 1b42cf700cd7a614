"""The writes of an Errant, each in one transaction: create and update from the builder
form's cleaned data (the generic builder calls them through the registry), and moving one
item between hand, handy, worn and the containers (the sheet's one action). The Renown
times at 0 HP are kept as they are by the builder's update."""

from __future__ import annotations

from fractions import Fraction

from django.db import transaction

from rules.engine.errant.data import ATTRIBUTE_KEYS
from rules.engine.errant.gear import restore, supply_to_restore

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


def _locked_line(character, index: int, name: str):
    """The Errant's row, locked, its gear, and the line at `index`, which must still be
    `name` (the page it was chosen on may be stale)."""
    character = ErrantCharacter.objects.select_for_update().get(pk=character.pk)
    gear = [dict(line) for line in character.gear]
    if not 0 <= index < len(gear) or gear[index].get("name") != name:
        raise MoveRefused("That item is no longer on this sheet: the page was out of date, "
                          "here it is again.")
    return character, gear, gear[index]


USE, RESTORE = "use", "restore"


@transaction.atomic
def item_use(*, character, index: int, name: str, action: str,
             seen: int | None = None) -> tuple[ErrantCharacter, str]:
    """Use an item with Depletion (or Burn) once: -1, never below 0; or, at 0, restore it
    with Supply, 1 per quarter slot it fills, taken from the Supply lines (PR §Supply);
    without enough Supply it is used up and removed. The row is locked, and `seen` is the
    Depletion the page showed: a double click (or a stale page) finds it changed and is
    refused, never applied twice. Returns the Errant and what was done."""
    if action not in (USE, RESTORE):
        raise MoveRefused("Choose to use the item or to restore it with Supply.")
    character, gear, line = _locked_line(character, index, name)
    if line.get("uses_max") is None:
        raise MoveRefused(f"{name} has no Depletion to use or restore.")
    uses = line.get("uses") or 0
    if seen is not None and seen != uses:
        raise MoveRefused(f"{name}'s Depletion is {uses} now, not {seen}: the page was out "
                          "of date (a second click?), here it is again.")
    if action == USE:
        if uses <= 0:
            raise MoveRefused(f"{name} is depleted: restore it with Supply first.")
        line["uses"] = uses - 1
        done = f"{name} used: Depletion {uses - 1} of {line['uses_max']}."
    else:
        if uses > 0:
            raise MoveRefused(f"{name} is not depleted (Depletion {uses} of "
                              f"{line['uses_max']}): nothing to restore.")
        supply = sum(other.get("quantity") or 0 for other in gear
                     if other.get("kind") == "supply")
        result = restore(Fraction(line.get("quarters") or 0, 4), supply)
        if result.removed:
            del gear[index]
            done = (f"{name} is used up and removed: it needs "
                    f"{supply_to_restore(Fraction(line.get('quarters') or 0, 4))} Supply, "
                    f"and there is {supply}.")
        else:
            line["uses"] = line["uses_max"]
            cost = result.supply_spent
            for other in gear:
                if cost and other.get("kind") == "supply":
                    spent = min(cost, other.get("quantity") or 0)
                    other["quantity"] = (other.get("quantity") or 0) - spent
                    cost -= spent
            gear = [other for other in gear
                    if other.get("kind") != "supply" or (other.get("quantity") or 0) > 0]
            done = (f"{name} restored with {result.supply_spent} Supply "
                    f"({result.supply_left} left).")
    character.gear = gear
    character.save(update_fields=["gear", "updated_at"])
    return character, done


@transaction.atomic
def item_move(*, character, index: int, name: str, location: str) -> ErrantCharacter:
    """Move the item at `index` (which must still be `name`: the page it was chosen on may
    be stale) to `location`: one action (PR §Hand, Handy & Worn). The row is locked, so
    two clicks land one after the other; moving an item where it is changes nothing."""
    if location not in LOCATIONS:
        raise MoveRefused("Choose hand, handy, worn, the backpack or another container.")
    character, gear, line = _locked_line(character, index, name)
    if line.get("location") != location:
        line["location"] = location
        character.gear = gear
        character.save(update_fields=["gear", "updated_at"])
    return character
