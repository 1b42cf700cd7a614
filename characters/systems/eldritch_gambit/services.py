"""Eldritch Gambit's writes for the builder, each in one transaction: a new character and
an edited one, from the builder form's cleaned_data (the system's `create` and `update`).
The ledgers behind Level, XP and coins are the generic characters/services.py's."""

from __future__ import annotations

from django.db import transaction

from characters.models import Character, CoinEntry, InventoryItem, XpEntry, progress_of
from characters.services import ledger_rules_progress, ledger_to

from .models import ATTRIBUTE_FIELDS, EldritchGambitCharacter

CONCEPT_FIELDS = ("name", "pronouns", "career", "quest", "origin", "description", "template_name")
TRACKER_FIELDS = ("hp_current", "wp_current", "poison_buildup")


def _apply_choices(character: EldritchGambitCharacter, data: dict) -> None:
    for field in CONCEPT_FIELDS:
        setattr(character, field, data.get(field) or ("Human" if field == "template_name" else ""))
    for key, field in ATTRIBUTE_FIELDS.items():
        setattr(character, field, data[key])
    character.skills = list(data.get("skills") or [])
    character.statuses = list(data.get("statuses") or [])
    character.hp_current = data.get("hp_current")
    character.wp_current = data.get("wp_current")
    character.poison_buildup = data.get("poison_buildup") or 0


def _set_worn(character: Character, kind: str, catalog, coverage: str = "full") -> None:
    """The builder's "worn armor" / "carried shield": the chosen catalog item
    becomes the one equipped item of that kind; the one it replaces goes."""
    current = list(character.items.filter(kind=kind, equipped=True))
    keep = None
    for item in current:
        if catalog is not None and item.catalog_item_id == catalog.pk and keep is None:
            keep = item
        else:
            item.delete()
    if catalog is None:
        return
    if keep is None:
        InventoryItem.objects.create(
            character=character, catalog_item=catalog, name=catalog.name, kind=kind,
            equipped=True, coverage=coverage,
        )
    elif keep.coverage != coverage:
        keep.coverage = coverage
        keep.save(update_fields=["coverage"])


@transaction.atomic
def character_create(*, owner, data: dict) -> EldritchGambitCharacter:
    character = EldritchGambitCharacter(owner=owner)
    _apply_choices(character, data)
    character.save()
    _set_worn(character, InventoryItem.Kind.ARMOR, data.get("armor"),
              data.get("armor_coverage") or "full")
    _set_worn(character, InventoryItem.Kind.SHIELD, data.get("shield"))
    ledger_to(character, level=data["level"], xp=data["xp"], coins_cp=data["coins_cp"],
               by=owner, xp_kind=XpEntry.Kind.CREATION, coin_kind=CoinEntry.Kind.STARTING,
               note="Character created")
    return character


@transaction.atomic
def character_update(*, character: Character, data: dict, by) -> EldritchGambitCharacter:
    """Save the builder's choices. For a character in a campaign the Level and XP it
    posts are ignored: they stay what the ledger says (ledger_rules_progress)."""
    # Lock the row so two saves of the same character apply one after the other.
    character = EldritchGambitCharacter.objects.select_for_update().get(pk=character.pk)
    if ledger_rules_progress(character):
        totals = progress_of(character.pk, coins=False)
        data = {**data, "level": totals["level_total"], "xp": totals["xp_total"]}
    _apply_choices(character, data)
    character.save()
    _set_worn(character, InventoryItem.Kind.ARMOR, data.get("armor"),
              data.get("armor_coverage") or "full")
    _set_worn(character, InventoryItem.Kind.SHIELD, data.get("shield"))
    ledger_to(character, level=data["level"], xp=data["xp"], coins_cp=data["coins_cp"], by=by)
    return character
