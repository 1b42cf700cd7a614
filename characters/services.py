"""Writes that matter, each in one transaction, for characters of every system: duplicate,
and the ledger entries behind Level, XP and coins. A system's builder save is its own
(Eldritch Gambit's: characters/systems/eldritch_gambit/services.py)."""

from __future__ import annotations

import re

from django.db import transaction

from .models import Character, CoinEntry, XpEntry, progress_of


def ledger_to(character: Character, *, level: int, xp: int, coins_cp: int, by,
               xp_kind=XpEntry.Kind.ADJUSTMENT, coin_kind=CoinEntry.Kind.ADJUSTMENT,
               note: str = "") -> None:
    """Write the entries that bring Level, XP and coins to what the player set."""
    totals = progress_of(character.pk)
    level_change = level - totals["level_total"]
    xp_change = xp - totals["xp_total"]
    if level_change or xp_change:
        XpEntry.objects.create(character=character, kind=xp_kind, level_change=level_change,
                               xp_change=xp_change, created_by=by, note=note)
    coin_change = coins_cp - totals["coins_total"]
    if coin_change:
        CoinEntry.objects.create(character=character, kind=coin_kind, amount_cp=coin_change,
                                 created_by=by, note=note)


# The XP entries only a campaign writes (campaigns/services.py): a character with one of
# them has a campaign history, and the ledger alone sets its Level and XP from then on.
CAMPAIGN_XP_KINDS = (
    XpEntry.Kind.JOINED, XpEntry.Kind.LEFT, XpEntry.Kind.HIGHLIGHT,
    XpEntry.Kind.QUEST_INVESTMENT, XpEntry.Kind.QUEST_PAYOUT, XpEntry.Kind.LEVEL_SPEND,
    XpEntry.Kind.IMP_ADJUSTMENT, XpEntry.Kind.REVERSAL, XpEntry.Kind.WASTE,
)


def campaign_history(character: Character) -> bool:
    """Whether the character ever played in a campaign (joined one, or earned or spent
    XP in one). Read once per instance: a queryset may annotate it as `had_campaign`
    (the live preview does, since it asks on every keystroke)."""
    if character.campaign_id is not None:
        return True
    known = getattr(character, "had_campaign", None)
    if known is None:
        known = character.pk is not None and XpEntry.objects.filter(
            character_id=character.pk, kind__in=CAMPAIGN_XP_KINDS).exists()
        character.had_campaign = known
    return known


def ledger_rules_progress(character: Character) -> bool:
    """In a campaign the XP ledger rules Level and XP (Highlights, Quest XP, the Imp's
    adjustments, Level-ups: campaigns/services.py), so the builder does not set them;
    nor after the character left a campaign, so that leaving, retyping Level and XP
    and coming back cannot rewrite the ledger (docs/RULES.md, "Level and XP after a
    campaign")."""
    return campaign_history(character)


NAME_LENGTH = Character._meta.get_field("name").max_length
_COPY_SUFFIX = re.compile(r" \(copy(?: (\d+))?\)$")


def copy_name(name: str, *, owner) -> str:
    """The name of a copy, told apart from the original and the owner's other copies:
    "Asphodel (copy)", then "Asphodel (copy 2)", ...; a copy of a copy counts on from
    the original's name. The original's name is shortened, never the suffix, to fit the
    name field."""
    base = _COPY_SUFFIX.sub("", (name or "").strip()) or "Unnamed"
    taken = set(Character.objects.filter(owner=owner, name__startswith=base[:NAME_LENGTH - 20])
                .values_list("name", flat=True))
    number = 1
    while True:
        suffix = " (copy)" if number == 1 else f" (copy {number})"
        candidate = base[:NAME_LENGTH - len(suffix)].rstrip() + suffix
        if candidate not in taken:
            return candidate
        number += 1


@transaction.atomic
def character_duplicate(*, character: Character, by) -> Character:
    """A copy with the same choices and gear, its ledgers opened at the
    original's totals, to compare two builds side by side."""
    source = Character.objects.with_progress().get(pk=character.pk)
    # The copy is of the character's system's model (its build's own table too): a new
    # row of each table (Django's "Copying model instances", multi-table inheritance).
    copy = source.game_system.character_model.objects.get(pk=character.pk)
    copy.pk = None
    copy.id = None
    copy._state.adding = True
    copy.owner = by
    copy.campaign = None  # a copy joins no campaign by itself
    copy.name = copy_name(source.name, owner=by)
    copy.save()
    mapping = {}
    items = list(source.items.order_by("pk"))
    for item in items:
        old_pk = item.pk
        item.pk = None
        item.character = copy
        item.container = None
        item.save()
        mapping[old_pk] = item
    for original in source.items.exclude(container=None):
        clone = mapping[original.pk]
        clone.container = mapping.get(original.container_id)
        clone.save(update_fields=["container"])
    if source.game_system.duplicated is not None:
        source.game_system.duplicated(source, copy, mapping)
    note = f"Duplicated from #{source.pk}"
    copy_xp = source.game_system.copy_xp
    XpEntry.objects.create(character=copy, kind=XpEntry.Kind.CREATION,
                           level_change=source.level_total,
                           xp_change=copy_xp(source) if copy_xp else source.xp_total,
                           created_by=by, note=note)
    if source.coins_total:
        CoinEntry.objects.create(character=copy, kind=CoinEntry.Kind.STARTING,
                                 amount_cp=source.coins_total, created_by=by, note=note)
    return copy
