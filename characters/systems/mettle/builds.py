"""From a stored character (or the builder's cleaned data) to the engine's CharacterBuild,
and the sheet: the one place the app turns METTLE choices into numbers
(rules/engine/mettle/sheet.py computes them)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import OuterRef, Prefetch, Subquery, Sum, Value
from django.db.models.functions import Coalesce

from rules.engine.mettle import Attributes, CharacterBuild, CharacterSheet, Item, compute_sheet
from rules.engine.mettle.data import (
    ARMOR,
    ATTRIBUTE_KEYS,
    COMMON_LOADS,
    MEDICINE,
    MOUNTS,
    STANDARD_KITS,
    VEHICLES,
    WEAPON_BY_NAME,
    WEAPONS,
)

ARMOR_BY_NAME = {armor.name: armor for armor in ARMOR}
# The Resources tables a gear line may name: the name -> its Load. Vehicles and mounts are
# not carried (Load 0: they carry you).
TABLE_LOADS: dict[str, int] = {
    **dict(COMMON_LOADS),
    **{gear.name: gear.load for gear in (*MEDICINE, *STANDARD_KITS)},
    **{vehicle.name: 0 for vehicle in VEHICLES},
    **{mount.name: 0 for mount in MOUNTS},
}
TABLE_NAMES_FOLDED = {name.casefold(): name for name in TABLE_LOADS}
WEAPON_NAMES = tuple(weapon.name for weapon in WEAPONS)


def table_name(name: str) -> str | None:
    """The table's own spelling of a gear line's name, if it names a table item."""
    return TABLE_NAMES_FOLDED.get(name.strip().casefold())


def build_items(*, armor: str, weapons: list[Mapping], gear: list[Mapping]) -> tuple[Item, ...]:
    items = []
    if armor:
        items.append(Item(name=armor, armor=ARMOR_BY_NAME[armor], worn=True))
    for line in weapons:
        table = WEAPON_BY_NAME[line["weapon"]]
        items.append(Item(name=line.get("name") or table.name, weapon=table,
                          concept_applies=bool(line.get("concept"))))
    for line in gear:
        load = line.get("load")
        if load is None:
            load = TABLE_LOADS.get(table_name(line["name"]) or "", 0)
        items.append(Item(name=line["name"], load=load, quantity=line.get("quantity") or 1))
    return tuple(items)


def build_from(values: Mapping[str, Any], *, xp_earned: int = 0) -> CharacterBuild:
    """The engine's build from the builder's values (the form's cleaned data, or a stored
    character's columns read by `values_of`)."""
    return CharacterBuild(
        attributes=Attributes(**{key: values[key] for key in ATTRIBUTE_KEYS}),
        method=values["method"],
        budget=values["budget"],
        descriptors=tuple((key, values.get(f"{key}_descriptor") or "")
                          for key in ATTRIBUTE_KEYS),
        raises=tuple(values.get("raises") or ()),
        xp_earned=xp_earned,
        backstories=tuple(values.get("backstories") or ()),
        contacts=tuple(values.get("contacts") or ()),
        credit=values["credit"],
        credit_lost=values.get("credit_lost") or 0,
        items=values["items"] if "items" in values else build_items(
            armor=values.get("armor") or "", weapons=values.get("weapons") or [],
            gear=values.get("gear") or []),
        mettle_current=values.get("mettle_current"),
        mettle_max_lost=values.get("mettle_max_lost") or 0,
        statuses=frozenset(values.get("statuses") or ()),
    )


BUILD_COLUMNS = (
    "method", "budget", *ATTRIBUTE_KEYS, *(f"{key}_descriptor" for key in ATTRIBUTE_KEYS),
    "raises", "backstories", "contacts", "credit", "credit_lost", "mettle_current",
    "mettle_max_lost", "statuses",
)


def values_of(character, lines=None) -> dict[str, Any]:
    """A stored character's build values: its columns, the Credit ledger's sum, and its
    gear lines (the generic inventory's, read by inventory.py) as the engine's items and
    in the builder's shape (armor, weapons, gear)."""
    from .inventory import engine_items, legacy_gear, lines_of

    lines = lines_of(character) if lines is None else lines
    values = {column: getattr(character, column) for column in BUILD_COLUMNS}
    values.update(legacy_gear(lines))
    values["items"] = engine_items(lines)
    return values


def for_sheets(queryset, *, xp: bool = False):
    """The characters of `queryset` with what their sheets read beside their own row,
    so that a page of many sheets stays flat in queries: `raises_spent` (what the raises
    bought in play cost, ledgers.AttributeRaise, for xp_earned), `credit_lost_total` (the
    Credit ledger's sum) and `sheet_lines` (the gear lines with their weapon rows, for
    inventory.lines_of); with `xp`, also `xp_total` (the XP ledger's sum, which
    Character.xp reads), for a queryset not read `with_progress` (whose Level and coins
    a sheet does not read)."""
    from characters.models import InventoryItem, XpEntry

    from .ledgers import AttributeRaise
    from .models import CreditEntry

    def total(model, column, **live):
        rows = (model.objects.filter(character=OuterRef("pk"), **live).order_by()
                .values("character").annotate(total=Sum(column)).values("total"))
        return Coalesce(Subquery(rows), Value(0))

    sums = {"raises_spent": total(AttributeRaise, "cost", undone_at__isnull=True),
            "credit_lost_total": total(CreditEntry, "change")}
    if xp:
        sums["xp_total"] = total(XpEntry, "xp_change")
    return queryset.annotate(**sums).prefetch_related(
        Prefetch("items", to_attr="sheet_lines",
                 queryset=InventoryItem.objects.select_related("mettle_weapon")))


def raises_spent_of(character) -> int:
    """What the raises bought in play cost (ledgers.AttributeRaise, those not undone):
    its `raises_spent` annotation (for_sheets), else the ledger's sum."""
    from .ledgers import AttributeRaise

    spent = getattr(character, "raises_spent", None)
    if spent is None:
        spent = AttributeRaise.objects.filter(character_id=character.pk, undone_at__isnull=True
                                              ).aggregate(spent=Sum("cost"))["spent"] or 0
    return spent


def xp_earned(character) -> int:
    """The XP the character earned: its XP ledger's sum (Highlights, make-up XP and the
    Guide's awards, written by the campaign side) before what the raises bought in play
    took from it (their entries, ledgers.AttributeRaise); the engine takes every raise of
    `raises` off it again, each at its cost then. A character loaded `for_sheets`
    costs no query here."""
    if character.pk is None:
        return 0
    return character.xp + raises_spent_of(character)


def keep_sheet_reads(character):
    """Read what `sheet_for` reads beside the character's own row (its gear lines with
    their weapons, the raises' and the Credit ledgers' sums, its XP ledger's sum: the
    same queries as one sheet) and keep them on `character`, as for_sheets and
    with_progress annotate them: for a view that shows the sheet again after a write
    that changes none of them (a Check spends Mettle, a column of the row, which
    refresh_from_db reads again and leaves these be). Returns `character`."""
    from .inventory import lines_of
    from .models import credit_lost_of

    if character.pk is not None:
        character.sheet_lines = lines_of(character)
        character.raises_spent = raises_spent_of(character)
        character.credit_lost_total = credit_lost_of(character)
        character.xp_total = character.xp
    return character


def sheet_for(character, items=None) -> CharacterSheet:
    """The character's sheet: the same function for the page, the print and the
    export. `items`: the character's inventory lines if already read (with their
    `mettle_weapon` rows), else they are read here (or were, by for_sheets)."""
    lines = getattr(character, "sheet_lines", None)  # read by for_sheets
    if lines is None and items is not None:
        lines = list(items)
    return compute_sheet(build_from(values_of(character, lines),
                                    xp_earned=xp_earned(character)))
