"""The one adapter from stored choices (or a form's data) to the rules engine.

The live preview, the saved sheet, the printed sheet and the export all call
these functions, so all four show the same numbers by construction.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from characters.models import InventoryItem
from rules.engine.eldritch_gambit import (
    ArmorStats,
    Attributes,
    CharacterBuild,
    CharacterSheet,
    GearPiece,
    ShieldStats,
    TraitChoice,
    WeaponStats,
    compute_sheet,
)

from .models import ATTRIBUTE_FIELDS, EldritchGambitCharacter


def gear_piece(item: InventoryItem) -> GearPiece:
    """An inventory line as the engine sees it: the catalog's numbers, the
    player's quantity, quality, coverage and state."""
    return _gear_piece(
        item.catalog_item,
        name=item.name,
        kind=item.kind,
        load=item.load,
        quantity=item.quantity,
        quality=item.quality,
        equipped=item.equipped,
        key=item.pk,
        container=item.container_id,
        dropped=item.dropped,
        attuned=item.attuned and item.kind == InventoryItem.Kind.MATERIA,
        charges=item.charges,
        coverage=item.coverage,
    )


def _gear_piece(catalog, *, name, kind, load, quantity, quality, equipped, key, container,
                dropped, attuned, charges, coverage) -> GearPiece:
    armor = shield = weapon = None
    capacity = None
    cost = None
    if catalog is not None:
        if load is None:
            load = catalog.load
        capacity = catalog.capacity
        cost = catalog.cost_cp
        if catalog.armor_ap is not None:
            armor = ArmorStats(catalog.armor_ap, catalog.armor_rally_die or 4, catalog.armor_rank)
        if catalog.shield_af is not None:
            shield = ShieldStats(catalog.shield_af, catalog.shield_block or 0)
        if catalog.weapon_damage:
            weapon = WeaponStats(
                hit=catalog.weapon_hit or 0,
                damage=catalog.weapon_damage,
                range=catalog.weapon_range,
                reload=catalog.weapon_reload,
                tags=tuple(catalog.weapon_tags or ()),
            )
    return GearPiece(
        name=name,
        kind=kind,
        load=load or 0,
        quantity=quantity,
        quality=quality,
        equipped=equipped,
        key=key,
        container=container,
        capacity=capacity,
        dropped=dropped,
        attuned=attuned,
        charges=charges,
        coverage=coverage,
        armor=armor,
        shield=shield,
        weapon=weapon,
        cost_cp=cost,
    )


def trait_choices(traits: Iterable[Mapping]) -> tuple[TraitChoice, ...]:
    result = []
    for trait in traits or ():
        if not isinstance(trait, Mapping) or not trait.get("name"):
            continue
        try:
            load = int(trait.get("load") or 0)
        except (TypeError, ValueError):
            load = 0
        result.append(TraitChoice(str(trait["name"]), str(trait.get("value") or ""), load))
    return tuple(result)


def build_from_character(
    character: EldritchGambitCharacter, items: Iterable[InventoryItem] | None = None
) -> CharacterBuild:
    if items is None:
        items = character.items.select_related("catalog_item")
    return CharacterBuild(
        level=character.level,
        xp=character.xp,
        attributes=Attributes.from_mapping(character.attribute_values),
        skills=tuple(character.skills or ()),
        gear=tuple(gear_piece(item) for item in items),
        traits=trait_choices(character.template_traits),
        statuses=frozenset(character.statuses or ()),
        poison_buildup=character.poison_buildup,
        hp_current=character.hp_current,
        wp_current=character.wp_current,
        has_career=bool(character.career),
        has_origin=bool(character.origin),
    )


def build_from_form(data: Mapping, items: Iterable[InventoryItem] = ()) -> CharacterBuild:
    """A build from the builder form's cleaned data: the worn armor and shield
    chosen in the form replace the equipped ones in the stored inventory."""
    gear = [gear_piece(item) for item in items if not _worn_armor_or_shield(item)]
    for field, kind in (("armor", InventoryItem.Kind.ARMOR), ("shield", InventoryItem.Kind.SHIELD)):
        catalog = data.get(field)
        if catalog is not None:
            # As gear_piece would see a new InventoryItem of the catalog row, worn, with
            # the model's defaults (without building one: this runs on every keystroke).
            gear.append(_gear_piece(
                catalog, name=catalog.name, kind=kind, load=None, quantity=1,
                quality=InventoryItem.Quality.STANDARD, equipped=True, key=None,
                container=None, dropped=False, attuned=False, charges=None,
                coverage=data.get("armor_coverage") or InventoryItem.Coverage.FULL
                if field == "armor" else InventoryItem.Coverage.FULL,
            ))
    return CharacterBuild(
        level=data.get("level") or 1,
        xp=data.get("xp") or 0,
        attributes=Attributes.from_mapping({k: data.get(k) or 0 for k in ATTRIBUTE_FIELDS}),
        skills=tuple(data.get("skills") or ()),
        gear=tuple(gear),
        traits=trait_choices(data.get("template_traits") or ()),
        statuses=frozenset(data.get("statuses") or ()),
        poison_buildup=data.get("poison_buildup") or 0,
        hp_current=data.get("hp_current"),
        wp_current=data.get("wp_current"),
        has_career=bool(data.get("career")),
        has_origin=bool(data.get("origin")),
    )


def _worn_armor_or_shield(item: InventoryItem) -> bool:
    """Replaced in the preview by the armor and shield chosen in the form."""
    return item.equipped and item.kind in (InventoryItem.Kind.ARMOR, InventoryItem.Kind.SHIELD)


def sheet_for(character: EldritchGambitCharacter,
              items: Iterable[InventoryItem] | None = None) -> CharacterSheet:
    return compute_sheet(build_from_character(character, items))
