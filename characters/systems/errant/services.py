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
from .inventory import _has_side, carried_lines, line_at, write_gear
from .models import ErrantCharacter, ErrantItem

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

    columns = _columns(data)
    gear = columns.pop("gear", None) or []
    character = ErrantCharacter.objects.create(owner=owner, system=KEY,
                                               times_at_zero_hp=times_at_zero_hp, **columns)
    write_gear(character, gear)
    return character


@transaction.atomic
def character_update(*, character, data: dict, by) -> ErrantCharacter:
    character = ErrantCharacter.objects.select_for_update().get(pk=character.pk)
    columns = _columns(data)
    gear = columns.pop("gear", None)
    if character.campaign_id:
        # In a campaign the Renown raises are the campaign page's (the Company's pick,
        # then the player's): the builder keeps the row's, read under its lock.
        columns.pop("renown_raises", None)
    for column, value in columns.items():
        setattr(character, column, value)
    character.save()
    if gear is not None:
        write_gear(character, gear)
    return character


def _locked_line(character, index: int, name: str):
    """The Errant's row, locked, and its line at `index` in the sheet's order, which must
    still be `name` (the page it was chosen on may be stale)."""
    character = ErrantCharacter.objects.select_for_update().get(pk=character.pk)
    line = line_at(character, index, name)
    if line is None:
        raise MoveRefused("That item is no longer on this sheet: the page was out of date, "
                          "here it is again.")
    side, _ = ErrantItem.objects.get_or_create(item=line)
    return character, line, side


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
    character, line, side = _locked_line(character, index, name)
    if side.uses_max is None:
        raise MoveRefused(f"{name} has no Depletion to use or restore.")
    uses = side.uses or 0
    if seen is not None and seen != uses:
        raise MoveRefused(f"{name}'s Depletion is {uses} now, not {seen}: the page was out "
                          "of date (a second click?), here it is again.")
    if action == USE:
        if uses <= 0:
            raise MoveRefused(f"{name} is depleted: restore it with Supply first.")
        side.uses = uses - 1
        side.save(update_fields=["uses"])
        done = f"{name} used: Depletion {uses - 1} of {side.uses_max}."
    else:
        if uses > 0:
            raise MoveRefused(f"{name} is not depleted (Depletion {uses} of "
                              f"{side.uses_max}): nothing to restore.")
        supplies = [other for other in carried_lines(character)
                    if _has_side(other) and other.errant_item.kind == "supply"]
        supply = sum(other.quantity for other in supplies)
        size = Fraction(side.quarters or 0, 4)
        result = restore(size, supply)
        if result.removed:
            line.delete()
            done = (f"{name} is used up and removed: it needs {supply_to_restore(size)} "
                    f"Supply, and there is {supply}.")
        else:
            side.uses = side.uses_max
            side.save(update_fields=["uses"])
            cost = result.supply_spent
            for other in supplies:
                if not cost:
                    break
                spent = min(cost, other.quantity)
                cost -= spent
                if spent == other.quantity:
                    other.delete()
                else:
                    other.quantity -= spent
                    other.save(update_fields=["quantity"])
            done = (f"{name} restored with {result.supply_spent} Supply "
                    f"({result.supply_left} left).")
    character.save(update_fields=["updated_at"])
    return character, done


@transaction.atomic
def item_move(*, character, index: int, name: str, location: str) -> ErrantCharacter:
    """Move the item at `index` (which must still be `name`: the page it was chosen on may
    be stale) to `location`: one action (PR §Hand, Handy & Worn), one row updated. The
    Errant's row is locked, so two clicks land one after the other; moving an item where
    it is changes nothing."""
    if location not in LOCATIONS:
        raise MoveRefused("Choose hand, handy, worn, the backpack or another container.")
    character, line, side = _locked_line(character, index, name)
    if side.location != location:
        side.location = location
        side.save(update_fields=["location"])
        character.save(update_fields=["updated_at"])
    return character
