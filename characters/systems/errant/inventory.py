"""An Errant's gear as lines of the generic inventory (characters.InventoryItem) with
their ErrantItem (size in quarter slots, place, Depletion, Quality, Blocks, magic), so
that the app's one transfer mechanism (campaigns/transfers.py: to another character of
the campaign or into the Company's store, the campaign stash) and duplicating work for
Errants as for every system. The builder, the engine's feed and the exchange read the
lines as the dicts they always read (`gear_of`); `write_gear` writes the builder's
rows back, one line each, in order.

Also what the generic code asks of the system about those lines: the stash's slots
(`stash_loads`), a duplicate's ErrantItems (`duplicated`) and lines that changed hands
(`lines_handed`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction

from django.db.models import Max

from characters.models import InventoryItem
from rules.systems import LineLoad

from .models import ErrantItem

QUARTERS_PER_SLOT = 4
ITEM_KEYS = ("name", "quarters", "quantity", "location", "kind", "uses", "uses_max",
             "quality", "blocks", "magic")
SIDE_KEYS = ("quarters", "location", "kind", "uses", "uses_max", "quality", "blocks", "magic")
# The generic line's kind for an Errant kind (the stash page and other systems' readers
# see a weapon, a shield or armour as such); everything else is an "item".
GENERIC_KIND = {"weapon": InventoryItem.Kind.WEAPON, "shield": InventoryItem.Kind.SHIELD,
                "armour": InventoryItem.Kind.ARMOR}
NAME_LENGTH = 120
QUANTITY_MAX = 9_999


def line_dict(item: InventoryItem) -> dict:
    """One inventory line as the gear dict (a line without an ErrantItem, e.g. added by
    generic code, is a size-0 item in the backpack)."""
    side = getattr(item, "errant_item", None) if _has_side(item) else None
    return {
        "name": item.name, "quarters": side.quarters if side else 0,
        "quantity": item.quantity, "location": side.location if side else "backpack",
        "kind": side.kind if side else "", "uses": side.uses if side else None,
        "uses_max": side.uses_max if side else None, "quality": side.quality if side else None,
        "blocks": side.blocks if side else None, "magic": side.magic if side else 0,
    }


def _has_side(item: InventoryItem) -> bool:
    try:
        item.errant_item  # noqa: B018 (a reverse one-to-one raises when absent)
    except ErrantItem.DoesNotExist:
        return False
    return True


def carried_lines(character) -> list[InventoryItem]:
    """The Errant's lines in order (what it dropped is not carried), their ErrantItem
    loaded; lines loaded by builds.for_sheets (`sheet_lines`) or a prefetched `items`
    cost no query."""
    if character is None or character.pk is None:
        return []
    cache = getattr(character, "_prefetched_objects_cache", {})
    if getattr(character, "sheet_lines", None) is not None:  # builds.for_sheets
        lines = list(character.sheet_lines)
    elif "items" in cache:
        lines = list(cache["items"])
    else:
        lines = list(InventoryItem.objects.filter(character_id=character.pk)
                     .select_related("errant_item"))
    lines.sort(key=lambda line: (line.position, line.pk))
    return [line for line in lines if not line.dropped]


def gear_of(character) -> list[dict]:
    return [line_dict(line) for line in carried_lines(character)]


def _side_values(gear: Mapping) -> dict:
    return {
        "quarters": int(gear.get("quarters") or 0),
        "location": gear.get("location") or "backpack",
        "kind": gear.get("kind") or "",
        "uses": gear.get("uses"), "uses_max": gear.get("uses_max"),
        "quality": gear.get("quality"), "blocks": gear.get("blocks"),
        "magic": int(gear.get("magic") or 0),
    }


def new_line(character, gear: Mapping, *, position: int | None = None) -> InventoryItem:
    """A new line of the Errant's gear, with its ErrantItem, last in its order unless a
    position is given."""
    if position is None:
        position = (InventoryItem.objects.filter(character_id=character.pk)
                    .aggregate(p=Max("position"))["p"] or 0) + 1
    item = InventoryItem.objects.create(
        character_id=character.pk, name=str(gear["name"])[:NAME_LENGTH],
        kind=GENERIC_KIND.get(gear.get("kind") or "", InventoryItem.Kind.ITEM),
        quantity=max(int(gear.get("quantity") or 1), 1), position=position)
    ErrantItem.objects.create(item=item, **_side_values(gear))
    return item


def write_gear(character, gear: Iterable[Mapping]) -> None:
    """The builder's rows as the Errant's lines, in order: the n-th carried line takes the
    n-th row (a line whose row is unchanged is not written), rows beyond the lines are
    added, lines beyond the rows are removed. Called inside the builder's transaction,
    the character's row locked."""
    gear = list(gear)
    lines = carried_lines(character)
    for position, (row, line) in enumerate(zip(gear, lines, strict=False), start=1):
        if line_dict(line) == {key: row.get(key) for key in ITEM_KEYS} and \
                line.position == position:
            continue
        line.name = str(row["name"])[:NAME_LENGTH]
        line.quantity = max(int(row.get("quantity") or 1), 1)
        line.kind = GENERIC_KIND.get(row.get("kind") or "", InventoryItem.Kind.ITEM)
        line.position = position
        line.save(update_fields=["name", "quantity", "kind", "position"])
        ErrantItem.objects.update_or_create(item=line, defaults=_side_values(row))
    for position, row in enumerate(gear[len(lines):], start=len(lines) + 1):
        new_line(character, row, position=position)
    extra = [line.pk for line in lines[len(gear):]]
    if extra:
        InventoryItem.objects.filter(pk__in=extra).delete()


def line_at(character, index: int, name: str) -> InventoryItem | None:
    """The carried line at `index` in the sheet's order, if it is still `name`."""
    lines = carried_lines(character)
    if 0 <= index < len(lines) and lines[index].name == name:
        return lines[index]
    return None


# -- what the generic code asks of the system ----------------------------------------------


def line_slots(item: InventoryItem) -> Fraction:
    """The slots a line fills, all its units (PR §Item Slots)."""
    return Fraction(line_dict(item)["quarters"] * item.quantity, QUARTERS_PER_SLOT)


def stash_loads(items: list[InventoryItem]) -> tuple[dict[int, LineLoad], Fraction]:
    """The Company's store (the campaign stash) in Item Slots: each line's and the
    whole store's (GameSystem.stash_loads)."""
    loads = {item.pk: LineLoad(load=line_slots(item)) for item in items}
    return loads, sum((load.load for load in loads.values()), Fraction(0))


def duplicated(source, copy, mapping: dict[int, InventoryItem]) -> None:
    """A duplicate's lines get their ErrantItem (GameSystem.duplicated)."""
    sides = ErrantItem.objects.filter(item_id__in=list(mapping))
    ErrantItem.objects.bulk_create([
        ErrantItem(item=mapping[side.item_id], **{key: getattr(side, key) for key in SIDE_KEYS})
        for side in sides])


def lines_handed(lines: list[InventoryItem], *, split_from: InventoryItem | None,
                 to_character) -> None:
    """Lines that changed hands (GameSystem.lines_handed): a part split off a stack gets
    a copy of its line's ErrantItem; an item handed to an Errant lands in its backpack
    (where it goes from there is that Errant's action, PR §Hand, Handy & Worn; docs/
    RULES.md AMB-E-GEAR-2), and an item in the Company's store keeps none of the giver's
    hand, handy or worn places."""
    if not lines:
        return
    if split_from is not None and lines:
        side = ErrantItem.objects.filter(item_id=split_from.pk).first()
        if side is not None:
            ErrantItem.objects.update_or_create(
                item=lines[0], defaults={key: getattr(side, key) for key in SIDE_KEYS})
    ErrantItem.objects.filter(item_id=lines[0].pk).exclude(location="backpack").update(
        location="backpack")
