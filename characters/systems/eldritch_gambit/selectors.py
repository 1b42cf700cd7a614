"""Reads that build Eldritch Gambit's character pages: pure reads, no writes.

The inventory page's rows (each line's numbers and move targets, the container tree,
Worn and ready / Carried / Dropped), its catalog search, the purse's ledger, the gear
handed over and to whom it may go; the printed sheets of one character or a party;
the weapons' Hit and damage on the Template page.
The views call these and keep one readable flow; writes stay in the services
(inventory.py here; gear changing hands: campaigns/transfers.py). The reads every
system shares (the hand-overs' history, the portrait's URL) are characters/selectors.py.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from django.db.models import Q, Sum

from characters.models import Character, CoinEntry, GearTransfer, InventoryItem
from characters.selectors import (
    STASH_LABEL,
    acted_for,
    describe_transfer,
    portrait_url,
    transfers_of,
    versioned,
)
from config.parsing import search_text
from rules.engine.eldritch_gambit import Stat
from rules.engine.eldritch_gambit.gear import GearPiece, unit_load
from rules.engine.eldritch_gambit.sheet import (
    CharacterSheet,
    WeaponLine,
    carried_pieces,
    container_contents_load,
    gear_load,
)
from rules.models import GearItem
from rules.systems import LineLoad

from . import inventory, printing
from .builds import gear_piece, sheet_for
from .inventory_forms import GiveForm
from .models import EldritchGambitCharacter

CATALOG_LIMIT = 80
LEDGER_LIMIT = 100
# The ledger's own words for the entries the inventory page writes ("Set in the builder"
# is the builder's; there an adjustment is one the player typed).
KIND_LABELS = {CoinEntry.Kind.ADJUSTMENT: "Adjustment"}


# -- the inventory's rows -------------------------------------------------------------------


@dataclass
class Row:
    """One line of the inventory as the page shows it."""

    item: InventoryItem
    piece: GearPiece
    depth: int
    load: int  # the line: unit Load (quality, coverage) x quantity
    unit_price: int | None
    sale_price: int
    weapon: WeaponLine | None = None
    inside: int | None = None  # a container: Load of its contents
    opens: bool = False  # a container whose contents follow, nested
    closes: int = 0  # containers that end after this line
    targets: list[tuple[str, str]] = field(default_factory=list)
    errors: dict[str, list[str]] = field(default_factory=dict)
    typed: dict[str, str] = field(default_factory=dict)

    @property
    def capacity(self) -> int | None:
        return self.piece.capacity

    @property
    def closers(self) -> range:
        return range(self.closes)

    @property
    def over(self) -> bool:
        return self.inside is not None and self.inside > self.piece.capacity


@dataclass
class Failure:
    """A refused per-item action: which line, the messages by field, what was typed."""

    item: int
    errors: dict[str, list[str]]
    typed: dict[str, str]


def weapon_lines(sheet: CharacterSheet) -> dict[object, WeaponLine]:
    """The engine's weapon lines by item: sheet.weapons follows the carried pieces
    that have weapon stats, in order."""
    armed = [p.key for p in carried_pieces(sheet.build.gear) if p.weapon is not None]
    return dict(zip(armed, sheet.weapons, strict=False))


def container_labels(containers: list[InventoryItem]) -> dict[int, str]:
    """Each container's name, numbered where two share one ("Backpack 1", "Backpack 2")."""
    names = Counter(c.name for c in containers)
    seen: Counter = Counter()
    labels = {}
    for container in containers:
        seen[container.name] += 1
        suffix = f" {seen[container.name]}" if names[container.name] > 1 else ""
        labels[container.pk] = container.name + suffix
    return labels


def inventory_rows(items: list[InventoryItem], sheet: CharacterSheet,
                   failure: Failure | None = None) -> dict[str, list[Row]]:
    """Lines grouped as Worn and ready, Carried and Dropped, each container followed by
    its contents (nested, depth-first), with the move targets each line may take. The
    line a refused action names (`failure`) carries its messages and what was typed."""
    gear = sheet.build.gear
    pieces = {piece.key: piece for piece in gear}
    by_pk = {item.pk: item for item in items}
    children: dict[int | None, list[InventoryItem]] = {}
    for item in items:
        parent = item.container_id if item.container_id in by_pk else None
        children.setdefault(parent, []).append(item)
    weapons = weapon_lines(sheet)
    containers = [item for item in items if inventory.is_container(item)]
    labels = container_labels(containers)
    inside = {c.pk: container_contents_load(gear, pieces[c.pk]) for c in containers}

    def descendants(item: InventoryItem) -> set[int]:
        found, stack = set(), [item.pk]
        while stack:
            for child in children.get(stack.pop(), ()):
                if child.pk not in found:
                    found.add(child.pk)
                    stack.append(child.pk)
        return found

    def targets(item: InventoryItem) -> list[tuple[str, str]]:
        inner = descendants(item) if inventory.is_container(item) else set()
        options = [("", "Carried loose")]
        for container in containers:
            if container.pk == item.pk or container.pk in inner:
                continue
            cap = pieces[container.pk].capacity
            state = ", dropped" if container.dropped else ""
            options.append((str(container.pk),
                            f"{labels[container.pk]} ({inside[container.pk]} / {cap}{state})"))
        return options

    visited: set[int] = set()

    def walk(item: InventoryItem, depth: int, out: list[Row]) -> None:
        visited.add(item.pk)
        piece = pieces[item.pk]
        unit = inventory._item_price(item.catalog_item, item.quality)
        row = Row(item=item, piece=piece, depth=depth,
                  load=unit_load(piece) * item.quantity, unit_price=unit,
                  sale_price=inventory.sale_price_cp(item), weapon=weapons.get(item.pk),
                  inside=inside.get(item.pk), targets=targets(item))
        if failure is not None and failure.item == item.pk:
            row.errors, row.typed = failure.errors, failure.typed
        out.append(row)
        kids = [kid for kid in children.get(item.pk, ()) if kid.pk not in visited]
        if kids:
            row.opens = True
            for kid in kids:
                walk(kid, depth + 1, out)
            out[-1].closes += 1

    groups: dict[str, list[Row]] = {"worn": [], "carried": [], "dropped": []}
    for item in children.get(None, ()):
        if item.dropped:
            group = "dropped"
        elif item.equipped and item.kind in inventory.WEARABLE:
            group = "worn"
        else:
            group = "carried"
        walk(item, 0, groups[group])
    for item in items:  # a loop in the data (A in B in A): shown loose, never lost
        if item.pk not in visited:
            walk(item, 0, groups["dropped" if item.dropped else "carried"])
    return groups


# -- the catalog, the purse, the gear handed over ------------------------------------------


def catalog_results(user, q: str, category: str) -> list[dict]:
    """The catalog rows `user` may add that match `q` (name or notes) and `category`,
    each with its stats in one line; up to one more than CATALOG_LIMIT, so the page can
    say there are more. Nothing when nothing is searched."""
    if not q and not category:
        return []
    rows = GearItem.objects.visible_to(user)
    q = search_text(q)
    if q:
        rows = rows.filter(Q(name__icontains=q) | Q(notes__icontains=q))
    if category in GearItem.Category.values:
        rows = rows.filter(category=category)
    results = []
    for gear in rows.order_by("category", "name")[:CATALOG_LIMIT + 1]:
        stats = []
        if gear.armor_ap is not None:
            stats.append(f"AP {gear.armor_ap}, Rally d{gear.armor_rally_die}")
        if gear.shield_af is not None:
            stats.append(f"AF +{gear.shield_af}, Block +{gear.shield_block}")
        if gear.weapon_damage:
            stats.append(f"Hit {gear.weapon_hit:+d}, {gear.weapon_damage}")
        if gear.capacity is not None:
            stats.append(f"holds Load {gear.capacity}")
        if gear.notes and not gear.shield_af:
            stats.append(gear.notes)
        results.append({"gear": gear, "stats": "; ".join(stats), "homebrew": gear.owner_id})
    return results


def purse_rows(character: Character) -> tuple[list[dict], int]:
    """The purse's newest LEDGER_LIMIT entries, each with its label and whether it may
    be reversed, and how many entries there are in all."""
    entries = list(
        character.coin_entries.select_related("reversed_by").order_by("-created_at", "-pk")
        [:LEDGER_LIMIT]
    )
    total = character.coin_entries.count() if len(entries) == LEDGER_LIMIT else len(entries)
    rows = []
    for entry in entries:
        reversed_by = getattr(entry, "reversed_by", None)
        rows.append({
            "entry": entry,
            "label": KIND_LABELS.get(entry.kind, entry.get_kind_display()),
            "reversed": reversed_by is not None,
            "reversible": reversed_by is None and entry.kind != CoinEntry.Kind.REVERSAL
            and entry.amount_cp != 0,  # the starting gear's record when no coin moved
        })
    return rows, total


# -- the gear handed over (the writes: campaigns/transfers.py) -----------------------------

def stash_loads(items: list[InventoryItem]) -> tuple[dict[int, LineLoad], int]:
    """The party stash's Load, line by line and in all, at human Size
    (GameSystem.stash_loads): each line's units, a container's capacity and what is in
    it (nested), as the inventory page counts them."""
    gear = tuple(gear_piece(item) for item in items)
    loads = {piece.key: LineLoad(
        load=unit_load(piece) * piece.quantity, capacity=piece.capacity,
        inside=container_contents_load(gear, piece) if piece.is_container else None,
    ) for piece in gear}
    return loads, gear_load(gear)


def give_targets(character: Character) -> list[tuple[str, str]]:
    """Who may receive this character's gear: the rest of its campaign's party and the
    party stash; nobody outside a campaign."""
    if character.campaign_id is None:
        return []
    party = (Character.objects.filter(campaign_id=character.campaign_id)
             .exclude(pk=character.pk).only("pk", "name"))
    return [(str(other.pk), other.display_name) for other in party] + [
        (GiveForm.STASH, STASH_LABEL)]


def transfer_rows(character: Character) -> tuple[list[dict], int]:
    """The newest LEDGER_LIMIT hand-overs to or from the character, each as the page says
    it (and who acted for whom), and how many there are in all."""
    entries = list(transfers_of(character)
                   .select_related("created_by", "from_character", "to_character")
                   [:LEDGER_LIMIT])
    total = (GearTransfer.objects.filter(Q(from_character=character) | Q(to_character=character))
             .count() if len(entries) == LEDGER_LIMIT else len(entries))
    return [{
        "entry": entry,
        "text": describe_transfer(entry, character=character),
        "by": entry.created_by.get_username() if acted_for(entry) else "",
    } for entry in entries], total


# -- the printed sheets ----------------------------------------------------------------------


def printed_sheets(characters: list[EldritchGambitCharacter],
                   ) -> tuple[list[printing.PrintedSheet], dict]:
    """The printed sheets of these characters (items prefetched), with their active
    Quests and the XP invested in them, in one query for all; and the portraits the
    PDF renderer may load (URL path -> storage name)."""
    # Through the characters' Quests (campaigns' related name; one "active" at most, a
    # constraint of campaigns.Quest): campaigns is the higher app, not imported here.
    quests = {
        row["pk"]: row
        for row in Character.objects.filter(pk__in=[c.pk for c in characters],
                                            quests__status="active")
        .values("pk", "quests__text")
        .annotate(invested_sum=Sum("quests__investments__xp_entry__xp_change")).order_by()
    }
    sheets, portraits = [], {}
    for character in characters:
        items = list(character.items.all())
        quest = quests.get(character.pk)
        # The box next to XP: the XP invested in the active Quest (Characters >
        # Advancement > Quest XP); left empty for pencil outside a campaign.
        invested = -(quest["invested_sum"] or 0) if quest else (0 if character.campaign_id
                                                             else None)
        url = portrait_url(character)
        if url:
            portraits[url] = character.portrait.name
        sheets.append(printing.printed_sheet(
            character, items, sheet_for(character, items),
            quest=quest["quests__text"] if quest else character.quest, invested=invested,
            portrait_url=versioned(url, character),
        ))
    return sheets, portraits


# -- the Template page's weapons ---------------------------------------------------------------


def weapon_stats(sheet) -> list[dict]:
    """Each carried weapon's Hit and damage as explainable stats for `{% stat %}`, then
    each Attack Trait's (Bestiary > Templates), which the Traits being chosen change."""
    rows = [_weapon_stat_row(line, f"weapon{index}-", "Resources > Weapons")
            for index, line in enumerate(sheet.weapons, start=1)]
    rows += [_weapon_stat_row(line, f"attack{index}-", "Bestiary > Templates")
             for index, line in enumerate(sheet.natural_attacks, start=1)]
    return rows


def _weapon_stat_row(line, prefix: str, source: str) -> dict:
    hit_notes = () if line.has_attack_check else ("no Attack Check: all in the Zone are hit",)
    damage_notes = (f"Critical +{line.critical_bonus}",) if line.has_attack_check else ()
    if line.element:
        damage_notes += (line.element,)
    return {
        "line": line,
        "prefix": prefix,
        "hit": Stat("weapon_hit", f"{line.name} Hit", line.hit_display, line.terms_hit,
                    hit_notes, abbr="Hit", source=source),
        "damage": Stat("weapon_damage", f"{line.name} damage", line.damage,
                       line.terms_damage, notes=damage_notes, abbr="Damage",
                       source=f"{source}; Bestiary > Size"),
    }
