"""From a stored Errant (or the builder's cleaned data) to the engine's ErrantBuild, and
the sheet: the one place the app turns Errant choices into numbers
(rules/engine/errant/sheet.py computes them)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from rules.engine.errant import Attributes, ErrantBuild, ErrantSheet, Item, compute_sheet
from rules.engine.errant.archetypes import starting_kit
from rules.engine.errant.attributes import Method
from rules.engine.errant.data import ARCHETYPE_KITS, ATTRIBUTE_KEYS
from rules.engine.errant.gear import money
from rules.engine.errant.sheet import current_alignment, items_from_kit

QUARTERS_PER_SLOT = 4


def item_from_line(line: Mapping) -> Item:
    """A stored gear line (sizes in quarter slots) as the engine's Item."""
    return Item(
        name=line.get("name") or "",
        slots=Fraction(int(line.get("quarters") or 0), QUARTERS_PER_SLOT),
        quantity=int(line.get("quantity") or 1),
        location=line.get("location") or "backpack",
        kind=line.get("kind") or "",
        depletion=line.get("uses"),
        depletion_max=line.get("uses_max"),
        quality=line.get("quality"),
        blocks=line.get("blocks"),
        magic_bonus=int(line.get("magic") or 0),
    )


def line_from_item(item: Item) -> dict:
    """The engine's Item as a stored gear line."""
    return {"name": item.name, "quarters": int(Fraction(item.slots) * QUARTERS_PER_SLOT),
            "quantity": item.quantity, "location": item.location, "kind": item.kind,
            "uses": item.depletion, "uses_max": item.depletion_max, "quality": item.quality,
            "blocks": item.blocks, "magic": item.magic_bonus}


def kit_lines(archetype: str, choice: str) -> list[dict]:
    """ER §Select Starting Equipment in one step: the common kit (with its 4 Supply), the
    Archetype's kit choice, each where it starts (the engine's items_from_kit)."""
    return [line_from_item(item) for item in items_from_kit(starting_kit(archetype, choice))]


def kit_choices(archetype: str) -> tuple[str, ...]:
    return tuple(ARCHETYPE_KITS.get(archetype, {}))


def build_from(values: Mapping[str, Any], *, xp: int = 0, coins: int = 0) -> ErrantBuild:
    """The engine's build from the builder's values (the form's cleaned data, or a stored
    Errant's columns read by `values_of`)."""
    method = values.get("method") or Method.ROLLED.value
    guide = None
    if method == Method.GUIDE.value:
        guide = Attributes(*(values.get(f"guide_{key}") or 0 for key in ATTRIBUTE_KEYS))
    swap = (values["swap_first"], values["swap_second"]) if values.get("swap_first") else None
    return ErrantBuild(
        method=method,
        dice=tuple(tuple(faces) for faces in values.get("dice") or ()),
        swap=swap,
        guide_attributes=guide,
        guide_note=values.get("guide_note") or "",
        renown_raises=tuple(tuple(pair) for pair in values.get("renown_raises") or ()),
        trained=tuple(values.get("trained") or ()),
        wounds=tuple(tuple(pair) for pair in values.get("wounds") or ()),
        xp=xp,
        ancestry=values.get("ancestry") or "adaptable",
        age=values.get("age"),
        minimum_age=values.get("minimum_age"),
        archetype=values.get("archetype") or "violent",
        covenant_alignment=values.get("covenant_alignment") or "",
        alignment=values.get("alignment") or None,
        extra_languages=tuple(values.get("extra_languages") or ()),
        proficiencies=tuple((key, int(points)) for key, points in
                            values.get("proficiencies") or ()),
        favour_deeds=values.get("favour_deeds") or 0,
        items=tuple(item_from_line(line) for line in values.get("gear") or ()),
        coins=max(coins, 0),
        exhaustion=values.get("exhaustion") or 0,
        hp_current=values.get("hp_current"),
        times_at_zero_hp=values.get("times_at_zero_hp") or 0,
        keepsake=values.get("keepsake") or "",
        failed_profession=values.get("failed_profession") or "",
    )


BUILD_COLUMNS = (
    "method", "dice", "swap_first", "swap_second", *(f"guide_{key}" for key in ATTRIBUTE_KEYS),
    "guide_note", "renown_raises", "ancestry", "minimum_age", "age", "keepsake",
    "failed_profession", "archetype", "kit_choice", "proficiencies", "covenant_alignment",
    "favour_deeds", "extra_languages", "alignment", "hp_current", "exhaustion",
    "times_at_zero_hp", "gear",
)


def for_sheets(queryset):
    """The Errants of `queryset` with their gear lines and their ErrantItem rows loaded
    (`sheet_lines`, read by inventory.carried_lines), so that a page of many sheets (the
    Guide's party dashboard) costs no query per Errant or per line; and the Attributes
    its trainers raised (`sheet_trained`, read by roster_models.trained_raises) and the
    lasting wounds (`sheet_wounds`, read by wound_models.carried_wounds). XP and
    money come from the queryset's `with_progress` sums, as the generic pages load them."""
    from django.db.models import Prefetch

    from characters.models import InventoryItem

    from .roster_models import ErrantTraining
    from .wound_models import ErrantWound, ErrantWoundHeal

    return queryset.prefetch_related(
        Prefetch("errant_wounds", to_attr="sheet_wounds",
                 queryset=ErrantWound.objects.filter(undone_at__isnull=True).order_by("pk")
                 .prefetch_related(Prefetch("heals", to_attr="live_heals",
                                            queryset=ErrantWoundHeal.objects.filter(
                                                undone_at__isnull=True)))),
        Prefetch("items", to_attr="sheet_lines",
                 queryset=InventoryItem.objects.select_related("errant_item")),
        Prefetch("errant_trainings", to_attr="sheet_trained",
                 queryset=ErrantTraining.objects.filter(raised=True, undone_at__isnull=True)
                 .order_by("pk")))


def values_of(character) -> dict[str, Any]:
    """The stored Errant's build columns, and the Attributes its trainers raised (DT
    §Improving Attributes: roster_models.ErrantTraining, written by the campaign side)."""
    from .roster_models import trained_raises
    from .wound_models import carried_wounds

    return {**{column: getattr(character, column) for column in BUILD_COLUMNS},
            "trained": trained_raises(character), "wounds": carried_wounds(character)}


def xp_of(character) -> int:
    """The XP the Errant earned: its XP ledger's sum (ER §Renown: money wasted, entered
    with its reason, by the campaign side); Renown is derived from it."""
    return character.xp if character is not None and character.pk is not None else 0


def coin_count(pennies: int) -> int:
    """The coins a purse of `pennies` is carried in: the fewest (guilders, then
    shillings, then pennies), each coin counted (PR §Item Slots: "100 coins can fit in
    an Item Slot"; docs/RULES.md AMB-E-GEAR-1)."""
    return sum(money(max(pennies, 0)))


def coins_of(character) -> int:
    """The coins carried, in pennies (GS §Money): the generic coin ledger's sum."""
    if character is None or character.pk is None:
        return 0
    return character.coins_cp


ALIGNMENT_COLUMNS = ("archetype", "covenant_alignment", "alignment")


def alignment_for(character) -> str:
    """The Errant's Alignment as its sheet shows it (`sheet_for(...).stats["alignment"]`),
    from the same columns through the same engine function, without the rest of the
    sheet (the Company page shows no other number of it)."""
    return current_alignment(build_from({column: getattr(character, column)
                                         for column in ALIGNMENT_COLUMNS}))


def sheet_for(character, items: Sequence | None = None) -> ErrantSheet:
    """The Errant's sheet: the same function for the page, the builder, the print and the
    export. `items` are ignored: the Errant's gear lines are read by `values_of`
    (inventory.gear_of)."""
    # The engine counts coins (100 to a slot); the ledger holds pennies, carried in the
    # fewest coins (docs/RULES.md AMB-E-GEAR-1).
    return compute_sheet(build_from(values_of(character), xp=xp_of(character),
                                    coins=coin_count(coins_of(character))))
