"""A METTLE Core character's gear as lines of the generic inventory (characters.
InventoryItem): bought with Credit or added free-form, worn, packed in a container,
dropped and picked up, removed; giving a line to another character or to the party
stash is the generic campaigns/transfers.py's.

What a line is in METTLE's tables is read from its name (the Resources and Characters
tables of rules/engine/mettle/data.py): a worn ARMOR line names its armour; a WEAPON line
has its MettleWeapon row (the table's weapon and martial CONCEPT, the name is the
character's own); any other line naming a table item takes its Load when its `load` is
None; a free-form line carries its own Load. Derived numbers (Load, Soak, the POISE
burden, the attack pools) are the engine's, from these lines (builds.py).

Every write is one transaction that first locks the character's row, so two clicks at
once apply one after the other; a refusal raises InventoryError (a message, a stable
code, the form field) and writes nothing. Credit purchases write a CreditEntry (the
ledger of Credit lost): a request key makes the same submission buy once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Max

from characters.inventory import MAX_QUANTITY, MIN_QUANTITY, InventoryError, describe
from characters.inventory import pk_of as _pk
from characters.models import InventoryItem
from rules.engine.mettle import Item
from rules.engine.mettle.data import (
    ARMOR,
    COMMON_LOADS,
    MEDICINE,
    MOUNTS,
    STANDARD_KITS,
    VEHICLES,
    WEAPON_BY_NAME,
    WEAPONS,
)
from rules.engine.mettle.sheet import Purchase, purchase

from .models import CreditEntry, MettleCharacter, MettleWeapon, credit_lost_of

Kind = InventoryItem.Kind

NAME_LENGTH = 120
MAX_ITEM_LOAD = 99  # a free-form line's Load: sanity, not a rule (a Large body is 8)
NOTE_LENGTH = 300

# The containers (AMB-M-GEAR-1): the COMMON LOADS packs and chest, and the Explorer's
# pack (a small backpack with its kit, RS §Standard Kits). They hold any Load; what is
# packed in one counts its own Load on top of the container's.
CONTAINERS = frozenset({
    "Backpack, small & filled with gear",
    "Backpack, large & filled with gear",
    "Footlocker or chest",
    "Explorer's pack",
})


@dataclass(frozen=True)
class TableItem:
    """A row of a METTLE table one can buy or add: its section, Load and Cost (Credit
    digits; None where the table has "-", bought without Credit)."""

    name: str
    section: str
    kind: str
    load: int
    cost: int | None
    note: str = ""

    @property
    def key(self) -> str:
        return f"{self.section}:{self.name}"


def _table() -> tuple[TableItem, ...]:
    rows = [TableItem(w.name, "Weapons", Kind.WEAPON, w.load, w.cost,
                      f"+{w.hit}D, DM {w.dm_text}" + (f", {', '.join(w.specials)}"
                                                      if w.specials else ""))
            for w in WEAPONS]
    rows += [TableItem(a.name, "Armour", Kind.ARMOR, a.load, a.cost, f"Soak +{a.soak}")
             for a in ARMOR]
    # COMMON LOADS have no Cost column: added, never bought (CH §Encumbrance).
    rows += [TableItem(name, "Common loads", Kind.LOAD, load, None) for name, load in COMMON_LOADS]
    rows += [TableItem(g.name, "Medicine", Kind.ITEM, g.load, g.cost, g.effect) for g in MEDICINE]
    rows += [TableItem(g.name, "Standard kits", Kind.ITEM, g.load, g.cost, g.effect)
             for g in STANDARD_KITS]
    # Vehicles and mounts carry you: Load 0.
    rows += [TableItem(v.name, "Vehicles", Kind.ITEM, 0, v.cost, f"Speed {v.speed}")
             for v in VEHICLES]
    rows += [TableItem(m.name, "Mounts", Kind.ITEM, 0, None, f"Speed {m.speed}") for m in MOUNTS]
    return tuple(rows)


TABLE = _table()
TABLE_BY_KEY = {row.key: row for row in TABLE}
ARMOR_BY_NAME = {armor.name: armor for armor in ARMOR}
# A gear line's table Load by name, case-folded (weapons and armour are their own kinds).
GEAR_BY_NAME = {row.name.casefold(): row for row in TABLE
                if row.kind not in (Kind.WEAPON, Kind.ARMOR)}


def table_row(name: str) -> TableItem | None:
    """The table's item a gear line names, if it names one."""
    return GEAR_BY_NAME.get(name.strip().casefold())


def is_container(item: InventoryItem) -> bool:
    return item.kind in (Kind.ITEM, Kind.LOAD) and item.name in CONTAINERS


def unit_load(item: InventoryItem) -> int:
    """The Load of one unit of a line, from the tables by name when `load` is None."""
    if item.load is not None:
        return item.load
    if item.kind == Kind.ARMOR:
        armor = ARMOR_BY_NAME.get(item.name)
        return armor.load if armor else 0
    if item.kind == Kind.WEAPON:
        detail = weapon_of(item)
        return WEAPON_BY_NAME[detail.weapon].load if detail else 0
    row = table_row(item.name)
    return row.load if row else 0


def weapon_of(item: InventoryItem) -> MettleWeapon | None:
    try:
        return item.mettle_weapon
    except MettleWeapon.DoesNotExist:
        return None


def lines_of(character) -> list[InventoryItem]:
    """A character's lines, in order, with their weapon rows (those builds.for_sheets
    read with its character, if it did)."""
    if character.pk is None:
        return []
    prefetched = getattr(character, "sheet_lines", None)
    if prefetched is not None:
        return sorted(prefetched, key=lambda line: (line.position, line.pk))
    return list(InventoryItem.objects.filter(character_id=character.pk)
                .select_related("mettle_weapon"))


def on_the_ground(lines: Iterable[InventoryItem]) -> set[int]:
    """The lines set down: dropped, or inside a container that is (at any depth)."""
    by_pk = {line.pk: line for line in lines}
    down = set()
    for line in by_pk.values():
        seen, current = set(), line
        while current is not None and current.pk not in seen:
            if current.dropped:
                down.add(line.pk)
                break
            seen.add(current.pk)
            current = by_pk.get(current.container_id)
    return down


def engine_items(lines: list[InventoryItem]) -> tuple[Item, ...]:
    """The engine's items from a character's lines (builds.py)."""
    down = on_the_ground(lines)
    items = []
    for line in lines:
        dropped = line.pk in down
        if line.kind == Kind.ARMOR and line.name in ARMOR_BY_NAME:
            items.append(Item(name=line.name, load=line.load, armor=ARMOR_BY_NAME[line.name],
                              worn=line.equipped, quantity=line.quantity, dropped=dropped))
            continue
        detail = weapon_of(line) if line.kind == Kind.WEAPON else None
        if detail is not None:
            items.append(Item(name=line.name, load=line.load,
                              weapon=WEAPON_BY_NAME[detail.weapon],
                              concept_applies=detail.concept, quantity=line.quantity,
                              dropped=dropped))
            continue
        items.append(Item(name=line.name, load=unit_load(line), quantity=line.quantity,
                          dropped=dropped))
    return tuple(items)


# -- the builder's gear as lines ---------------------------------------------------------


def legacy_gear(lines: list[InventoryItem]) -> dict:
    """The lines in the builder's (and exchange v1's) shape: the worn armour's name, the
    weapons [{name, weapon, concept}], the rest [{name, load, quantity}]."""
    armor = next((line.name for line in lines if line.kind == Kind.ARMOR and line.equipped
                  and line.name in ARMOR_BY_NAME), "")
    weapons, gear = [], []
    for line in lines:
        detail = weapon_of(line) if line.kind == Kind.WEAPON else None
        if detail is not None:
            weapons.append({"name": line.name, "weapon": detail.weapon,
                            "concept": detail.concept})
        elif not (line.kind == Kind.ARMOR and line.equipped):
            gear.append({"name": line.name, "load": line.load, "quantity": line.quantity})
    return {"armor": armor, "weapons": weapons, "gear": gear}


MAX_LINES = 200  # a character's lines: a sanity bound (the builder's GEAR_LINES too)


def _refuse_too_many(character, *, field: str) -> None:
    if InventoryItem.objects.filter(character_id=character.pk).count() >= MAX_LINES:
        raise InventoryError(f"{MAX_LINES} lines of gear are enough for anyone: remove or "
                             "give some first.", "too_many_lines", field=field)


def _next_position(character) -> int:
    top = InventoryItem.objects.filter(character=character).aggregate(p=Max("position"))["p"]
    return (top or 0) + 1


def _new_line(character, *, name: str, kind: str, load: int | None = None, quantity: int = 1,
              equipped: bool = False, container: InventoryItem | None = None,
              weapon: str = "", concept: bool = False, notes: str = "") -> InventoryItem:
    line = InventoryItem.objects.create(
        character=character, name=name, kind=kind, load=load, quantity=quantity,
        equipped=equipped, container=container, notes=notes[:NOTE_LENGTH],
        position=_next_position(character))
    if weapon:
        MettleWeapon.objects.create(item=line, weapon=weapon, concept=concept)
    return line


def _discard(lines: list[InventoryItem], item: InventoryItem) -> None:
    """Delete a line; what it held falls out loose (on the ground if it was)."""
    for inner in lines:
        if inner.container_id == item.pk:
            inner.container = None
            inner.dropped = inner.dropped or item.dropped
            inner.save(update_fields=["container", "dropped"])
    item.delete()


def _copy(line: InventoryItem) -> InventoryItem:
    """A line's values in a new instance (its related rows not shared)."""
    return InventoryItem(**{field.attname: getattr(line, field.attname)
                            for field in InventoryItem._meta.concrete_fields})


@dataclass
class GearPlan:
    """What the builder's gear does to the lines: `after`, the lines as they will be (the
    kept ones as copies with the builder's changes, new ones unsaved), in order; `gone`,
    the lines it no longer lists (what they held falls out loose, in `after`)."""

    after: list[InventoryItem]
    gone: list[InventoryItem]


def gear_plan(lines: list[InventoryItem], *, armor: str, weapons: list[Mapping],
              gear: list[Mapping]) -> GearPlan:
    """Match the builder's armour, weapons and gear with the lines: a line the builder
    still lists (same kind and name) stays as it is (packed, dropped, its place) with
    the builder's Load, quantity and CONCEPT; one it no longer lists goes; a new one is
    added, carried loose. Nothing is written (the builder's preview uses it as is)."""
    keep: dict[int, InventoryItem] = {}
    after: list[InventoryItem] = []

    def match(test) -> InventoryItem | None:
        found = next((line for line in lines if line.pk not in keep and test(line)), None)
        if found is not None:
            keep[found.pk] = _copy(found)
            after.append(keep[found.pk])
            return keep[found.pk]
        return None

    def new(**fields) -> InventoryItem:
        line = InventoryItem(**fields)
        after.append(line)
        return line

    if armor and match(lambda line: line.kind == Kind.ARMOR and line.name == armor
                       and line.equipped) is None:
        new(name=armor, kind=Kind.ARMOR, equipped=True)
    for entry in weapons:
        name, concept = entry.get("name") or entry["weapon"], bool(entry.get("concept"))
        found = match(lambda line, name=name, entry=entry: line.kind == Kind.WEAPON
                      and line.name == name and weapon_of(line) is not None
                      and weapon_of(line).weapon == entry["weapon"])
        if found is None:
            found = new(name=name, kind=Kind.WEAPON)
            found.mettle_weapon = MettleWeapon(weapon=entry["weapon"], concept=concept)
        else:
            found.mettle_weapon = MettleWeapon(item_id=found.pk, weapon=entry["weapon"],
                                               concept=concept)
    for entry in gear:
        found = match(lambda line, entry=entry: line.kind != Kind.WEAPON
                      and not (line.kind == Kind.ARMOR and line.equipped)
                      and line.name == entry["name"])
        if found is None:
            row = table_row(entry["name"])
            kind = Kind.ARMOR if entry["name"] in ARMOR_BY_NAME else (
                row.kind if row else Kind.ITEM)
            found = new(name=entry["name"], kind=kind)
        found.load, found.quantity = entry.get("load"), entry.get("quantity") or 1
    gone = [line for line in lines if line.pk not in keep]
    by_pk = {line.pk: line for line in lines}
    for line in after:
        parent = by_pk.get(line.container_id)
        while parent is not None and parent.pk not in keep:  # falls out where it lay
            line.dropped = line.dropped or parent.dropped
            parent = by_pk.get(parent.container_id)
            line.container_id = parent.pk if parent is not None else None
    return GearPlan(after, gone)


def gear_set(*, character: MettleCharacter, armor: str, weapons: list[Mapping],
             gear: list[Mapping]) -> None:
    """Write the builder's gear as gear_plan says. Called inside the builder's
    transaction, the character locked."""
    plan = gear_plan(lines_of(character), armor=armor, weapons=weapons, gear=gear)
    position = _next_position(character)
    for line in plan.after:
        if line.pk is None:
            line.character, line.position = character, position
            position += 1
            line.save()
        else:
            line.save(update_fields=["load", "quantity", "container", "dropped"])
        if line.kind == Kind.WEAPON:
            detail = line.mettle_weapon
            detail.item = line
            detail.save()
    InventoryItem.objects.filter(pk__in=[line.pk for line in plan.gone]).delete()


def preview_items(character, *, armor: str, weapons: list[Mapping],
                  gear: list[Mapping]) -> tuple[Item, ...]:
    """The engine's items the builder's gear would make of a stored character's lines
    (what is packed or dropped stays so): the live preview's, the same as the save's."""
    return engine_items(gear_plan(lines_of(character), armor=armor, weapons=weapons,
                                  gear=gear).after)


# -- the inventory page's writes ----------------------------------------------------------


def _lock(character) -> MettleCharacter:
    return MettleCharacter.objects.select_for_update().get(pk=_pk(character))


def _get(character, item, *, field: str | None = None) -> InventoryItem:
    found = (InventoryItem.objects.filter(character_id=character.pk, pk=_pk(item))
             .select_related("mettle_weapon").first())
    if found is None:
        raise InventoryError(
            "That item is not in this inventory (it may have been given or removed).",
            "no_such_item", field=field)
    return found


def _container(character, value) -> InventoryItem | None:
    if value is None:
        return None
    found = InventoryItem.objects.filter(character_id=character.pk, pk=_pk(value)).first()
    if found is None:
        raise InventoryError("Choose a container from this character's gear.",
                             "no_such_container", field="container")
    if not is_container(found):
        raise InventoryError(f"{found.name} is not a container.", "not_a_container",
                             field="container")
    return found


def current_credit(character: MettleCharacter) -> int:
    """Credit now: as assigned, less what purchases took until it is restored."""
    return character.credit - credit_lost_of(character)


@dataclass(frozen=True)
class Bought:
    item: InventoryItem | None  # None: the same purchase was recorded already
    entry: CreditEntry | None
    verdict: Purchase | None  # None: no Cost in the table, nothing to pay with


def verdict_for(character: MettleCharacter, row: TableItem) -> Purchase | None:
    """What buying the row does to the character's Credit now (CH §Credit; AMB-M14)."""
    if row.cost is None:
        return None
    return purchase(current_credit(character), row.cost)


@transaction.atomic
def item_buy(*, character, by, key: str, container=None,
             request_key: str | None = None) -> Bought:
    """Buy one item of a METTLE table with Credit (CH §Credit): a Cost (in digits) up to
    the current Credit is affordable; one digit over costs a point of Credit until it is
    restored between campaigns; more than one digit over is refused (AMB-M14). A row
    with no Cost is added without Credit. Each purchase is a CreditEntry (0 or +1 lost)."""
    character = _lock(character)
    if request_key:
        earlier = CreditEntry.objects.filter(request_key=request_key).first()
        if earlier is not None and earlier.character_id != character.pk:
            raise InventoryError("That form was used for another character: reload the page.",
                                 "request_key_reused", field="key")
        if earlier is not None:
            return Bought(None, earlier, None)
    row = TABLE_BY_KEY.get(key)
    if row is None:
        raise InventoryError("Choose an item of the METTLE tables.", "no_such_gear",
                             field="key")
    target = _container(character, container)
    _refuse_too_many(character, field="key")
    verdict = verdict_for(character, row)
    credit = current_credit(character)
    if verdict is Purchase.REFUSED:
        raise InventoryError(
            f"{row.name} costs {row.cost} Credit digits: with Credit {credit} it is out of "
            "reach (one digit over costs a point of Credit; more is not for sale without the "
            "Guide).", "over_credit", field="key")
    line = _new_line(character, name=row.name, kind=row.kind, container=target,
                     weapon=row.name if row.kind == Kind.WEAPON else "")
    entry = None
    if verdict is not None:
        lost = 1 if verdict is Purchase.COSTS_CREDIT else 0
        note = f"Bought {row.name} (Cost {row.cost}, Credit {credit})"
        if lost:
            note += ": one digit over, a point of Credit lost until the next campaign"
        try:
            with transaction.atomic():
                entry = CreditEntry.objects.create(
                    character=character, kind=CreditEntry.Kind.PURCHASE, change=lost,
                    item=line, note=note[:NOTE_LENGTH], created_by=by,
                    request_key=request_key or None)
        except IntegrityError as error:  # the same key, at the same time
            raise InventoryError("That purchase was recorded already.", "already_bought",
                                 field="key") from error
    return Bought(line, entry, verdict)


@transaction.atomic
def item_add_free(*, character, name: str, load: int | None, quantity: int = 1,
                  container=None) -> InventoryItem:
    """A free-form line with its own Load (0 for the small things: CH §Encumbrance)."""
    character = _lock(character)
    name = (name or "").strip()
    if not name:
        raise InventoryError("Give the item a name.", "name_required", field="name")
    if len(name) > NAME_LENGTH:
        raise InventoryError(f"Keep the name to {NAME_LENGTH} characters.", "name_too_long",
                             field="name")
    if load is None or not 0 <= load <= MAX_ITEM_LOAD:
        raise InventoryError(f"Load must be a whole number from 0 to {MAX_ITEM_LOAD}.",
                             "load_out_of_range", field="load")
    if not MIN_QUANTITY <= quantity <= MAX_QUANTITY:
        raise InventoryError(f"Quantity must be a whole number from {MIN_QUANTITY} to "
                             f"{MAX_QUANTITY}.", "quantity_out_of_range", field="quantity")
    target = _container(character, container)
    _refuse_too_many(character, field="name")
    return _new_line(character, name=name, kind=Kind.ITEM, load=load, quantity=quantity,
                     container=target)


@transaction.atomic
def item_drop(*, character, item) -> InventoryItem:
    """Set it down (free, CH §Encumbrance): out of its container, no longer worn; a
    container goes down with everything in it."""
    character = _lock(character)
    line = _get(character, item)
    line.dropped, line.container, line.equipped = True, None, False
    line.save(update_fields=["dropped", "container", "equipped"])
    return line


@transaction.atomic
def item_pick_up(*, character, item) -> InventoryItem:
    """Carry it again, loose (a Use Action at the table, CH §Encumbrance)."""
    character = _lock(character)
    line = _get(character, item)
    line.dropped = False
    line.save(update_fields=["dropped"])
    return line


@transaction.atomic
def item_move(*, character, item, container) -> InventoryItem:
    """Into a container of the same character, or out to carried loose (None). Packed
    armour is not worn; a container never goes inside itself."""
    character = _lock(character)
    line = _get(character, item)
    target = _container(character, container)
    if target is not None:
        by_pk = {other.pk: other for other in InventoryItem.objects.filter(
            character_id=character.pk)}
        current, seen = target, set()
        while current is not None and current.pk not in seen:
            if current.pk == line.pk:
                raise InventoryError(
                    f"{line.name} cannot go inside itself or inside what it holds.",
                    "container_cycle", field="container")
            seen.add(current.pk)
            current = by_pk.get(current.container_id)
    line.container = target
    line.dropped = False
    if target is not None:
        line.equipped = False
    line.save(update_fields=["container", "dropped", "equipped"])
    return line


@transaction.atomic
def item_wear(*, character, item, worn: bool = True) -> InventoryItem:
    """Wear a suit of armour (or take it off): one suit at a time (RS §Armor); wearing
    takes it out of its container and off the ground."""
    character = _lock(character)
    line = _get(character, item, field="equipped")
    if line.kind != Kind.ARMOR or line.name not in ARMOR_BY_NAME:
        raise InventoryError(f"{line.name} is not armour of the table: it cannot be worn.",
                             "not_wearable", field="equipped")
    if worn:
        InventoryItem.objects.filter(character_id=character.pk, kind=Kind.ARMOR,
                                     equipped=True).exclude(pk=line.pk).update(equipped=False)
        line.container, line.dropped = None, False
    line.equipped = worn
    line.save(update_fields=["equipped", "container", "dropped"])
    return line


@transaction.atomic
def item_remove(*, character, item) -> str:
    """Remove a line (lost, used up); what it held falls out loose. Returns its name."""
    character = _lock(character)
    line = _get(character, item)
    name = describe(line.name, line.quantity)
    _discard(list(InventoryItem.objects.filter(character_id=character.pk)), line)
    return name


# -- Credit lost and restored -----------------------------------------------------------


@transaction.atomic
def credit_restore(*, character, by, kind: str = CreditEntry.Kind.GUIDE,
                   note: str = "") -> CreditEntry | None:
    """All the Credit lost comes back (CH §Credit: "Lost Credit recovers between
    campaigns"): one entry of minus what was lost; None when nothing was lost."""
    character = _lock(character)
    lost = credit_lost_of(character)
    if lost <= 0:
        return None
    label = note or ("Restored between campaigns" if kind == CreditEntry.Kind.RESTORED
                     else "Restored by the Guide")
    return CreditEntry.objects.create(character=character, kind=kind, change=-lost,
                                      note=f"{label}: {lost} Credit back"[:NOTE_LENGTH],
                                      created_by=by)


@transaction.atomic
def credit_entry_reverse(*, character, entry, by) -> CreditEntry:
    """Undo a Credit entry with a REVERSAL pointing at it; undoing a purchase also takes
    back the line it added, if the character still has it. A reversal is never
    reversed, an entry only once, and Credit lost never goes below 0 nor above Credit."""
    character = _lock(character)
    original = CreditEntry.objects.filter(character_id=character.pk, pk=_pk(entry)).first()
    if original is None:
        raise InventoryError("That entry is not in this character's Credit ledger.",
                             "no_such_entry")
    if original.kind == CreditEntry.Kind.REVERSAL:
        raise InventoryError("A reversal cannot be reversed.", "reversal_of_reversal")
    if CreditEntry.objects.filter(reverses=original).exists():
        raise InventoryError("That entry was reversed already.", "already_reversed")
    after = credit_lost_of(character) - original.change
    if not 0 <= after <= character.credit:
        raise InventoryError(
            f"Undoing it would leave {after} Credit lost, with Credit {character.credit}.",
            "credit_out_of_range")
    if original.kind == CreditEntry.Kind.PURCHASE and original.item_id is not None:
        line = InventoryItem.objects.filter(pk=original.item_id,
                                            character_id=character.pk).first()
        if line is not None:
            _discard(list(InventoryItem.objects.filter(character_id=character.pk)), line)
    try:
        with transaction.atomic():
            return CreditEntry.objects.create(
                character=character, kind=CreditEntry.Kind.REVERSAL, change=-original.change,
                note=f"Undone: {original.note or original.get_kind_display()}"[:NOTE_LENGTH],
                created_by=by, reverses=original)
    except IntegrityError as error:
        raise InventoryError("That entry was reversed already.", "already_reversed") from error


# -- the registry's hooks (apps.py) --------------------------------------------------------


def duplicated(source, copy, items: Mapping[int, InventoryItem]) -> None:
    """A duplicate's weapon lines keep their table row, and it starts with the Credit the
    original has lost (as the generic copy opens its ledgers at the original's sums)."""
    for detail in MettleWeapon.objects.filter(item_id__in=list(items)):
        MettleWeapon.objects.create(item=items[detail.item_id], weapon=detail.weapon,
                                    concept=detail.concept)
    lost = credit_lost_of(source)
    if lost:
        CreditEntry.objects.create(character_id=copy.pk, kind=CreditEntry.Kind.IMPORT,
                                   change=lost, note=f"Duplicated from #{source.pk}",
                                   created_by=copy.owner)


def campaign_changed(character, *, campaign, joined: bool, by) -> None:
    """Joining or leaving a campaign is "between campaigns": the Credit lost comes back
    (CH §Credit; AMB-M-GEAR-2)."""
    verb = "Joined" if joined else "Left"
    credit_restore(character=character, by=by, kind=CreditEntry.Kind.RESTORED,
                   note=f"{verb} {campaign.name}")


def stash_loads(items) -> tuple[dict, int]:
    """The party stash's lines as METTLE weighs them (GameSystem.stash_loads): each
    line's Load, its units counted; a container's contents (it holds any Load)."""
    from rules.systems import LineLoad

    items = list(items)
    loads = {item.pk: unit_load(item) * item.quantity for item in items}
    each = {}
    for item in items:
        inside = None
        if is_container(item):
            inside = sum(loads[other.pk] for other in items if other.container_id == item.pk)
        each[item.pk] = LineLoad(load=loads[item.pk], inside=inside)
    return each, sum(loads.values())
