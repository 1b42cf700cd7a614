"""The inventory a player manages: gear in and out, worn, packed, dropped, bought and
sold, and the purse beside it (Characters > Gear, Resources, Magic > Materia/Ephemera).

Every function is one transaction that first locks the Character row, so two clicks
at once apply one after the other. A refusal raises InventoryError with a stable code
(and the form field it belongs to); nothing is written then. Derived numbers (Load,
encumbrance, AF, HP, Rally, WP) are never stored: they follow from the rows.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Sum

# The generic parts (characters/inventory.py), named here as they always were.
from characters.inventory import (  # noqa: F401
    MAX_QUANTITY,
    MIN_QUANTITY,
    InventoryError,
    describe,
)
from characters.inventory import pk_of as _pk
from characters.models import Character, CoinEntry, InventoryItem
from rules.engine.eldritch_gambit.gear import GearPiece, price_cp
from rules.engine.eldritch_gambit.rolls import can_spend_wp
from rules.engine.eldritch_gambit.seeds import STARTING_COINS_CP, SeedRoll, roll_starting_coins
from rules.engine.eldritch_gambit.sheet import container_contents_load
from rules.models import GearItem

from .builds import gear_piece, sheet_for
from .models import EldritchGambitCharacter

Kind = InventoryItem.Kind
Quality = InventoryItem.Quality
Coverage = InventoryItem.Coverage

MAX_ITEM_LOAD = 99  # a free-form item's Load: sanity, not a rule (a Large body is 8)
MAX_CHARGES = 99
# Magic > Materia: "Casters must spend a single WP to attune their minds with a Materia".
MATERIA_WP_COST = 1
MAX_COINS_CP = 100_000_000
NOTE_LENGTH = 300
NAME_LENGTH = 120

# Kinds a free-form line may take: armor, shields and weapons need the catalog's numbers.
FREE_KINDS = (Kind.ITEM, Kind.LOAD, Kind.MATERIA, Kind.EPHEMERA)
WEARABLE = (Kind.ARMOR, Kind.SHIELD)

# Starting Gear (Characters > Gear). The filled backpack is the COMMON LOADS row
# "Backpack, small & filled with gear" (Load 1); the list of what is in it goes into
# its notes (docs/RULES.md, "Starting gear").
STARTING_BACKPACK_SLUG = "backpack-small-filled-with-gear"
STARTING_CLOTHES_SLUG = "clothing-traveling"
STARTING_DAGGER_SLUG = "dagger"
STARTING_BACKPACK_CONTENTS = (
    "Bedroll, small cup, 10m rope, flint & steel, chalk, snacks (one ration), a torch, "
    "large sack, water skin"
)
COINS_KEEP, COINS_SET, COINS_ROLL = "keep", "set", "roll"


STARTING_GEAR_NOTE = "Starting gear: "  # how the coin ledger's record of it begins


@dataclass(frozen=True)
class StartingPackage:
    items: tuple[InventoryItem, ...]
    roll: SeedRoll | None
    purse_cp: int
    # What the package would have doubled, kept as it was ("Chain mail (already worn)").
    kept: tuple[str, ...] = ()


@dataclass(frozen=True)
class StartingGear:
    """What the starting-gear form shows: whether the package was taken (and the coin
    ledger's record of when and what, if any), and what is already worn and carried."""

    taken: bool
    record: CoinEntry | None
    worn_armor: InventoryItem | None
    carried: tuple[str, ...]

    @property
    def what(self) -> str:
        return self.record.note.removeprefix(STARTING_GEAR_NOTE) if self.record else ""


def starting_gear(character: Character, items) -> StartingGear:
    """The starting-gear state of a character whose `items` (with their catalog rows)
    are loaded: one query, for the coin ledger's record."""
    taken = any(_is_starting_backpack(item) for item in items)
    record = None
    if taken:
        record = (CoinEntry.objects.filter(character=character, kind=CoinEntry.Kind.STARTING,
                                           note__startswith=STARTING_GEAR_NOTE)
                  .order_by("-created_at", "-pk").first())
    worn = next((item for item in items if item.kind == Kind.ARMOR and item.equipped), None)
    carried = tuple(dict.fromkeys(
        item.name for item in items
        if item.character_id is not None and item.kind == Kind.WEAPON and not item.dropped))
    return StartingGear(taken, record, worn, carried)


def _is_starting_backpack(item: InventoryItem) -> bool:
    return (item.catalog_item is not None and item.catalog_item.slug == STARTING_BACKPACK_SLUG
            and item.catalog_item.source_id is not None)


# -- helpers ----------------------------------------------------------------------------


def _lock(character: Character) -> Character:
    return Character.objects.select_for_update().get(pk=character.pk)


def purse_cp(character: Character) -> int:
    """The purse: the sum of the coin ledger, read now (not a cached annotation)."""
    total = CoinEntry.objects.filter(character=character).aggregate(t=Sum("amount_cp"))["t"]
    return total or 0


def _check_quantity(quantity: int, *, field: str = "quantity") -> None:
    if quantity == 0:
        raise InventoryError(
            "A quantity of 0 would remove the item: use Remove for that.",
            "quantity_zero", field=field,
        )
    if not MIN_QUANTITY <= quantity <= MAX_QUANTITY:
        raise InventoryError(
            f"Quantity must be a whole number from {MIN_QUANTITY} to {MAX_QUANTITY}.",
            "quantity_out_of_range", field=field,
        )


def _check_quality(quality: str) -> None:
    if quality not in Quality.values:
        raise InventoryError("Choose Standard, Superior or Inferior.", "invalid_quality",
                             field="quality")


class _Inventory:
    """A character's items, loaded once inside the transaction."""

    def __init__(self, character: Character):
        self.character = character
        self.items = list(
            InventoryItem.objects.filter(character=character).select_related("catalog_item")
        )
        self.by_pk = {item.pk: item for item in self.items}

    def get(self, item: InventoryItem | int, *, field: str | None = None) -> InventoryItem:
        found = self.by_pk.get(_pk(item))
        if found is None:
            raise InventoryError(
                "That item is not in this inventory (it may have been removed already).",
                "no_such_item", field=field,
            )
        return found

    def container(self, value: InventoryItem | int | None) -> InventoryItem | None:
        """A target container of this character, or None for "carried loose"."""
        if value is None:
            return None
        found = self.by_pk.get(_pk(value))
        if found is None:
            raise InventoryError("Choose a container from this character's gear.",
                                 "no_such_container", field="container")
        if not is_container(found):
            raise InventoryError(f"{found.name} is not a container: it has no maximum Load.",
                                 "not_a_container", field="container")
        return found

    def gear(self, extra: InventoryItem | None = None) -> tuple[GearPiece, ...]:
        pieces = [gear_piece(item) for item in self.items]
        if extra is not None:
            # A new line has no pk yet: give it a key of its own, never None (None is
            # what every loose piece has as its container).
            pieces.append(dataclasses.replace(gear_piece(extra), key="new"))
        return tuple(pieces)

    def ancestors(self, item: InventoryItem) -> list[InventoryItem]:
        """The containers around an item, innermost first."""
        chain, seen = [], {item.pk}
        parent = self.by_pk.get(item.container_id)
        while parent is not None and parent.pk not in seen:
            chain.append(parent)
            seen.add(parent.pk)
            parent = self.by_pk.get(parent.container_id)
        return chain

    def contents(self, container: InventoryItem) -> list[InventoryItem]:
        return [item for item in self.items if item.container_id == container.pk]

    def next_position(self) -> int:
        return max((item.position for item in self.items), default=0) + 1


def is_container(item: InventoryItem) -> bool:
    return item.catalog_item is not None and item.catalog_item.capacity is not None


def _contents_loads(gear: tuple[GearPiece, ...]) -> dict[object, int]:
    return {piece.key: container_contents_load(gear, piece) for piece in gear
            if piece.is_container}


def _refuse_overfull(before: tuple[GearPiece, ...], after: tuple[GearPiece, ...],
                     what: str, *, field: str = "container") -> None:
    """Refuse a change that takes a container over its maximum Load (or further over
    it), nested contents included (Resources > Miscellaneous: "-/4" is empty/maximum)."""
    loads_before = _contents_loads(before)
    for piece in after:
        if not piece.is_container:
            continue
        inside = container_contents_load(after, piece)
        if inside > piece.capacity and inside > loads_before.get(piece.key, 0):
            raise InventoryError(
                f"{piece.name} holds at most Load {piece.capacity}: with {what} it would "
                f"hold {inside}.",
                "container_full", field=field,
            )


def _coin_entry(character: Character, *, kind: str, amount_cp: int, note: str, by,
                request_key: str | None = None, reverses: CoinEntry | None = None) -> CoinEntry:
    return CoinEntry.objects.create(
        character=character, kind=kind, amount_cp=amount_cp, note=note[:NOTE_LENGTH],
        created_by=by, request_key=request_key or None, reverses=reverses,
    )


def _seen(request_key: str | None) -> bool:
    """An idempotency key already used: the same submission arriving twice."""
    return bool(request_key) and CoinEntry.objects.filter(request_key=request_key).exists()


def _item_price(catalog: GearItem | None, quality: str) -> int | None:
    return price_cp(catalog.cost_cp, quality) if catalog is not None else None


def sale_price_cp(item: InventoryItem) -> int:
    """The default offer: half the catalog price at the item's quality, for the whole
    line, rounded down (Resources > Money: "the real price for anything is whatever the
    seller thinks they can get away with"; Magic > Ephemera: "half price at best")."""
    unit = _item_price(item.catalog_item, item.quality)
    return (unit or 0) * item.quantity // 2


def _kind_for(catalog: GearItem) -> str:
    if catalog.slug == "ephemera" and catalog.source_id is not None:
        return Kind.EPHEMERA
    return catalog.category


# -- adding -------------------------------------------------------------------------------


@transaction.atomic
def item_add(
    *,
    character: Character,
    by,
    catalog_item: GearItem | int | None = None,
    name: str = "",
    load: int | None = None,
    kind: str = Kind.ITEM,
    quantity: int = 1,
    quality: str = Quality.STANDARD,
    container: InventoryItem | int | None = None,
    buy: bool = False,
    notes: str = "",
    request_key: str | None = None,
) -> InventoryItem | None:
    """Add a line from the catalog visible to `by`, or a free-form one with its own Load.

    With buy=True the price (price_cp(cost, quality) x quantity) leaves the purse as a
    PURCHASE entry; a purse that cannot pay refuses. Returns None when `request_key`
    was already used (the same purchase submitted twice).
    """
    character = _lock(character)
    if _seen(request_key):
        return None
    _check_quantity(quantity)
    _check_quality(quality)
    catalog = None
    if _pk(catalog_item) is not None:
        catalog = GearItem.objects.visible_to(by).filter(pk=_pk(catalog_item)).first()
        if catalog is None:
            raise InventoryError("Choose an item from the catalog you can use.",
                                 "no_such_gear", field="catalog_item")
        name, kind, load = catalog.name, _kind_for(catalog), None
    else:
        name = (name or "").strip()
        if not name:
            raise InventoryError("Give the item a name.", "name_required", field="name")
        if len(name) > NAME_LENGTH:
            raise InventoryError(f"Keep the name to {NAME_LENGTH} characters.", "name_too_long",
                                 field="name")
        if kind not in FREE_KINDS:
            raise InventoryError("Armor, shields and weapons come from the catalog.",
                                 "kind_needs_catalog", field="kind")
        if load is None or not 0 <= load <= MAX_ITEM_LOAD:
            raise InventoryError(f"Load must be a whole number from 0 to {MAX_ITEM_LOAD}.",
                                 "load_out_of_range", field="load")
        if buy:
            raise InventoryError("Only catalog items have a price to pay.", "no_price",
                                 field="catalog_item")

    inventory = _Inventory(character)
    target = inventory.container(container)
    item = InventoryItem(
        character=character, catalog_item=catalog, name=name, kind=kind, quantity=quantity,
        quality=quality, load=load, container=target, notes=(notes or "")[:NOTE_LENGTH],
        charges=1 if kind == Kind.EPHEMERA else None, position=inventory.next_position(),
    )
    what = describe(name, quantity, quality)
    if target is not None:
        _refuse_overfull(inventory.gear(), inventory.gear(extra=item), what)

    if buy:
        unit = _item_price(catalog, quality)
        if unit is None:
            raise InventoryError(f"{name} has no price in the catalog: add it without buying.",
                                 "no_price", field="catalog_item")
        price = unit * quantity
        purse = purse_cp(character)
        if price > purse:
            verb = "costs" if quantity == 1 else "cost"
            raise InventoryError(f"{what} {verb} {price} cp; the purse holds {purse} cp.",
                                 "insufficient_coins", field="catalog_item")
        item.save()
        if price:
            _coin_entry(character, kind=CoinEntry.Kind.PURCHASE, amount_cp=-price, note=what,
                        by=by, request_key=request_key)
    else:
        item.save()
    return item


@transaction.atomic
def starting_package(
    *,
    character: Character,
    by,
    weapon: GearItem | int,
    armor: GearItem | int | None,
    career_tool: str = "",
    memento: str = "",
    career_tool_load: int = 0,
    memento_load: int = 0,
    coins: str = COINS_KEEP,
    rng: random.Random | None = None,
) -> StartingPackage:
    """The SRD's Starting Gear in one step (Characters > Gear): the chosen normal weapon
    and normal armor (worn), a Career tool, an Origin memento, traveling clothes, the
    filled small backpack (Load 1) and a dagger. The gear costs nothing; `coins` may also
    set the purse to 500 cp ("set") or to 2d4 x 100 cp ("roll")."""
    character = _lock(character)
    inventory = _Inventory(character)
    if any(_is_starting_backpack(item) for item in inventory.items):
        raise InventoryError(
            f"{character.display_name} already has the starting backpack: add anything else "
            "from the catalog.", "starting_gear_present",
        )
    visible = GearItem.objects.visible_to(by)
    chosen_weapon = visible.filter(pk=_pk(weapon), category=GearItem.Category.WEAPON).first()
    if chosen_weapon is None:
        raise InventoryError("Choose a weapon from the list.", "no_such_weapon", field="weapon")
    chosen_armor = None
    if _pk(armor) is not None:
        chosen_armor = visible.filter(pk=_pk(armor), category=GearItem.Category.ARMOR).first()
        if chosen_armor is None:
            raise InventoryError("Choose an armor from the list.", "no_such_armor",
                                 field="armor")
    for text, load, field in ((career_tool, career_tool_load, "career_tool_load"),
                              (memento, memento_load, "memento_load")):
        if len(text or "") > NAME_LENGTH:
            raise InventoryError(f"Keep it to {NAME_LENGTH} characters.", "name_too_long",
                                 field=field.removesuffix("_load"))
        if not 0 <= load <= MAX_ITEM_LOAD:
            raise InventoryError(f"Load must be a whole number from 0 to {MAX_ITEM_LOAD}.",
                                 "load_out_of_range", field=field)
    if coins not in (COINS_KEEP, COINS_SET, COINS_ROLL):
        raise InventoryError("Choose what to do with the purse.", "invalid_coins",
                             field="coins")
    srd = {item.slug: item for item in GearItem.objects.srd().filter(
        slug__in=(STARTING_BACKPACK_SLUG, STARTING_CLOTHES_SLUG, STARTING_DAGGER_SLUG))}
    if len(srd) < 3:
        raise InventoryError("The SRD catalog is not loaded: run manage.py load_rules.",
                             "catalog_missing")

    # Never a second one of what the character already has (the builder's worn armor,
    # a weapon bought earlier): it is kept and named, not added again.
    kept = []
    held = {item.catalog_item_id for item in inventory.items if item.catalog_item_id}
    worn_armor = [item for item in inventory.items if item.kind == Kind.ARMOR and item.equipped]
    if chosen_armor is not None and any(item.catalog_item_id == chosen_armor.pk
                                        for item in worn_armor):
        kept.append(f"{chosen_armor.name} (already worn)")
        chosen_armor = None
    elif chosen_armor is not None:
        for worn in worn_armor:
            worn.equipped = False
            worn.save(update_fields=["equipped"])
            kept.append(f"{worn.name} (taken off, carried)")
        carried = next((item for item in inventory.items
                        if item.catalog_item_id == chosen_armor.pk), None)
        if carried is not None:  # wear the one carried, not a second one (as item_equip)
            carried.equipped, carried.container, carried.dropped = True, None, False
            carried.save(update_fields=["equipped", "container", "dropped"])
            kept.append(f"{chosen_armor.name} (already carried, now worn)")
    for gear in (chosen_weapon, srd[STARTING_CLOTHES_SLUG], srd[STARTING_DAGGER_SLUG]):
        if gear.pk in held:
            kept.append(f"{gear.name} (already carried)")
    lines = [
        (chosen_weapon, {}),
        (chosen_armor, {"equipped": True}),
        (career_tool.strip(), {"load": career_tool_load, "notes": "Career tool"}),
        (memento.strip(), {"load": memento_load, "notes": "Origin memento"}),
        (srd[STARTING_CLOTHES_SLUG], {}),
        (srd[STARTING_BACKPACK_SLUG], {"notes": STARTING_BACKPACK_CONTENTS}),
        (srd[STARTING_DAGGER_SLUG], {}),
    ]
    created = []
    position = inventory.next_position()
    for what, extra in lines:
        if not what or (isinstance(what, GearItem) and what.pk in held):
            continue
        if isinstance(what, GearItem):
            fields = {"catalog_item": what, "name": what.name, "kind": _kind_for(what)}
        else:
            fields = {"name": what, "kind": Kind.ITEM}
        created.append(InventoryItem.objects.create(
            character=character, position=position, **fields, **extra))
        position += 1

    roll = None
    purse = purse_cp(character)
    target = None
    if coins == COINS_SET:
        target, note = STARTING_COINS_CP, f"Starting coins: {STARTING_COINS_CP} cp"
    elif coins == COINS_ROLL:
        roll = roll_starting_coins(rng)
        target = roll.total
        note = f"Starting coins: 2d4 x 100 = ({' + '.join(map(str, roll.dice))}) x 100"
    # The coin ledger records the package (when, and what), with the purse's change if
    # it was set or rolled (0 otherwise).
    record = STARTING_GEAR_NOTE + ", ".join(item.name for item in created)
    if kept:
        record += "; kept: " + ", ".join(kept)
    change = 0
    if target is not None and target != purse:
        change = target - purse
        purse = target
    if target is not None:
        record += f". {note}"
    _coin_entry(character, kind=CoinEntry.Kind.STARTING, amount_cp=change,
                note=_fit(record, NOTE_LENGTH), by=by)
    return StartingPackage(tuple(created), roll, purse, tuple(kept))


def _fit(text: str, length: int) -> str:
    return text if len(text) <= length else text[:length - 1] + "…"


# -- one line -----------------------------------------------------------------------------


@transaction.atomic
def item_set_quantity(*, character: Character, item: InventoryItem | int,
                      quantity: int) -> InventoryItem:
    """A line's quantity. On an attuned Materia line every unit is attuned (1 WP held a
    unit, Magic > Materia): raising it attunes the units added, spending 1 WP a unit as
    Attune does, never below the WP floor (refused next to the quantity, with a pointer
    to adding them as a line of their own, unattuned); lowering it discards the units
    taken off, so their held WP is lifted (the engine counts attuned units), regained the
    usual ways, not refilled (docs/RULES.md, Materia)."""
    # Locked as materia_attune locks it (the character and its build, as a Reroll does).
    character = EldritchGambitCharacter.objects.select_for_update().get(pk=character.pk)
    _check_quantity(quantity)
    inventory = _Inventory(character)
    item = inventory.get(item)
    cost = 0
    added = quantity - item.quantity
    if item.kind == Kind.MATERIA and item.attuned and added > 0:
        sheet = sheet_for(character, inventory.items)
        current, floor = sheet["wp_current"].value, sheet["wp_floor"].value
        cost = added * MATERIA_WP_COST
        if not can_spend_wp(current, floor, cost):
            raise InventoryError(
                f"{item.name} is attuned: {added} more attune{'s' if added == 1 else ''} "
                f"for {cost} WP, and current WP {current} cannot drop below the floor of "
                f"{floor}. Add {'it' if added == 1 else 'them'} as a line of "
                f"{'its' if added == 1 else 'their'} own to carry "
                f"{'it' if added == 1 else 'them'} unattuned.", "wp_floor",
                field="quantity")
    before = inventory.gear()
    item.quantity = quantity
    _refuse_overfull(before, inventory.gear(), describe(item.name, quantity, item.quality),
                     field="quantity")
    item.save(update_fields=["quantity"])
    if cost:
        character.wp_current = current - cost
        character.save(update_fields=["wp_current", "updated_at"])
    return item


@transaction.atomic
def item_equip(*, character: Character, item: InventoryItem | int,
               equipped: bool = True) -> InventoryItem:
    """Wear armor or ready a shield (or take it off). At most one suit is worn and one
    shield carried ready: equipping one takes the other off. What is worn is carried,
    not packed: it leaves its container and is picked up."""
    character = _lock(character)
    inventory = _Inventory(character)
    item = inventory.get(item)
    if item.kind not in WEARABLE:
        raise InventoryError(f"{item.name} is not armor or a shield: it cannot be worn.",
                             "not_wearable", field="equipped")
    if equipped:
        for other in inventory.items:
            if other.pk != item.pk and other.kind == item.kind and other.equipped:
                other.equipped = False
                other.save(update_fields=["equipped"])
        item.container = None
        item.dropped = False
    item.equipped = equipped
    item.save(update_fields=["equipped", "container", "dropped"])
    return item


@transaction.atomic
def item_set_coverage(*, character: Character, item: InventoryItem | int,
                      coverage: str) -> InventoryItem:
    """Full, partial (one type lower) or minimal (two lower) set (Resources > Armor)."""
    character = _lock(character)
    inventory = _Inventory(character)
    item = inventory.get(item)
    if item.kind != Kind.ARMOR:
        raise InventoryError(f"{item.name} is not armor.", "not_armor", field="coverage")
    if coverage not in Coverage.values:
        raise InventoryError("Choose a full, partial or minimal set.", "invalid_coverage",
                             field="coverage")
    before = inventory.gear()
    item.coverage = coverage
    _refuse_overfull(before, inventory.gear(), item.name, field="coverage")
    item.save(update_fields=["coverage"])
    return item


@transaction.atomic
def item_drop(*, character: Character, item: InventoryItem | int) -> InventoryItem:
    """Set it down (Characters > Gear > Encumbrance: "ditch bulky items"). A dropped
    container takes its whole contents with it; an item dropped from inside a
    container leaves it; dropped armor or a shield is no longer worn."""
    character = _lock(character)
    item = _Inventory(character).get(item)
    item.dropped = True
    item.container = None
    item.equipped = False
    item.save(update_fields=["dropped", "container", "equipped"])
    return item


@transaction.atomic
def item_pick_up(*, character: Character, item: InventoryItem | int) -> InventoryItem:
    """Carry it again, loose; a container comes back with everything in it."""
    character = _lock(character)
    inventory = _Inventory(character)
    item = inventory.get(item)
    before = inventory.gear()
    item.dropped = False
    _refuse_overfull(before, inventory.gear(), item.name)
    item.save(update_fields=["dropped"])
    return item


@transaction.atomic
def item_move(*, character: Character, item: InventoryItem | int,
              container: InventoryItem | int | None) -> InventoryItem:
    """Into a container of the same character, or out to "carried loose" (None).

    Refused when the container (or one around it) would go over its maximum Load,
    when it would put a container inside itself, or when the target holds nothing.
    Moving picks a dropped item up; packed armor or a shield is no longer worn.
    """
    character = _lock(character)
    inventory = _Inventory(character)
    item = inventory.get(item)
    target = inventory.container(container)
    if target is not None and (target.pk == item.pk
                               or item in inventory.ancestors(target)):
        raise InventoryError(f"{item.name} cannot go inside itself or inside what it holds.",
                             "container_cycle", field="container")
    before = inventory.gear()
    item.container = target
    item.dropped = False
    if target is not None:
        item.equipped = False
    _refuse_overfull(before, inventory.gear(), describe(item.name, item.quantity, item.quality))
    item.save(update_fields=["container", "dropped", "equipped"])
    return item


def _discard(inventory: _Inventory, item: InventoryItem) -> None:
    """Delete a line; whatever it held falls out loose (where the container was: a
    dropped container's contents stay on the ground)."""
    for inner in inventory.contents(item):
        inner.container = None
        inner.dropped = inner.dropped or item.dropped
        inner.save(update_fields=["container", "dropped"])
    item.delete()


@transaction.atomic
def item_remove(*, character: Character, item: InventoryItem | int) -> str:
    """Remove a line (lost, used up, given away). Returns how it was named."""
    character = _lock(character)
    inventory = _Inventory(character)
    item = inventory.get(item)
    name = describe(item.name, item.quantity, item.quality)
    _discard(inventory, item)
    return name


@transaction.atomic
def item_sell(*, character: Character, item: InventoryItem | int, by,
              price_cp: int | None = None, request_key: str | None = None) -> CoinEntry | None:
    """Sell the whole line for the price the player confirms (default: half the
    catalog price at its quality); the coins come in as a SALE entry."""
    character = _lock(character)
    if _seen(request_key):
        return None
    inventory = _Inventory(character)
    item = inventory.get(item)
    price = sale_price_cp(item) if price_cp is None else price_cp
    if not 0 <= price <= MAX_COINS_CP:
        raise InventoryError(f"The price must be a whole number of cp from 0 to {MAX_COINS_CP}.",
                             "price_out_of_range", field="price_cp")
    what = describe(item.name, item.quantity, item.quality)
    _discard(inventory, item)
    return _coin_entry(character, kind=CoinEntry.Kind.SALE, amount_cp=price,
                       note=f"Sold {what}", by=by, request_key=request_key)


@transaction.atomic
def charges_set(*, character: Character, item: InventoryItem | int,
                charges: int) -> InventoryItem:
    """Charges left on an Ephemera (Magic > Ephemera: one Spell, "one or more times")."""
    character = _lock(character)
    item = _Inventory(character).get(item)
    if item.kind != Kind.EPHEMERA:
        raise InventoryError(f"{item.name} is not an Ephemera: it has no charges.",
                             "not_ephemera", field="charges")
    if not 0 <= charges <= MAX_CHARGES:
        raise InventoryError(f"Charges must be a whole number from 0 to {MAX_CHARGES}.",
                             "charges_out_of_range", field="charges")
    item.charges = charges
    item.save(update_fields=["charges"])
    return item


@transaction.atomic
def materia_attune(*, character: Character, item: InventoryItem | int,
                   attuned: bool | None = None) -> InventoryItem:
    """Attune a Materia: "Casters must spend a single WP to attune ... This WP does not
    come back until they discard the item or someone else spends a WP to wield it"
    (Magic > Materia; Characters > Willpower: "cannot be regained until the item is
    discarded"). Attuning spends a WP a unit from current WP, never below the WP floor,
    and writes the current WP that is left; the engine lowers WP itself by the attuned
    Materia. Stopping is refused: the WP stays held until the line is removed, sold or
    handed to another character. Already so (a double click): nothing changes, nothing
    is spent again. None: the other state (so only ever an attunement)."""
    # The character and its build locked together, as a Reroll locks them before it
    # spends WP (campaigns' roll_services.reroll): one after the other, never crossed.
    character = EldritchGambitCharacter.objects.select_for_update().get(pk=character.pk)
    inventory = _Inventory(character)
    item = inventory.get(item, field="attuned")
    if item.kind != Kind.MATERIA:
        raise InventoryError(f"{item.name} is not a Materia.", "not_materia", field="attuned")
    wanted = not item.attuned if attuned is None else attuned
    if wanted == item.attuned:
        return item
    if not wanted:
        raise InventoryError(
            f"{item.name} stays attuned: the WP spent on it is held until it is discarded "
            "(Remove or Sell) or handed to another character.", "attunement_held",
            field="attuned")
    sheet = sheet_for(character, inventory.items)
    current, floor = sheet["wp_current"].value, sheet["wp_floor"].value
    cost = item.quantity * MATERIA_WP_COST
    if not can_spend_wp(current, floor, cost):
        raise InventoryError(
            f"Attuning {describe(item.name, item.quantity, item.quality)} spends {cost} WP: "
            f"current WP {current} cannot drop below the floor of {floor}.", "wp_floor",
            field="attuned")
    item.attuned = True
    item.save(update_fields=["attuned"])
    # Written even from "at maximum" (blank): discarding the item later lifts WP again,
    # but the WP spent is regained as any other, not refilled by itself (docs/RULES.md).
    character.wp_current = current - cost
    character.save(update_fields=["wp_current", "updated_at"])
    return item


# -- the purse ----------------------------------------------------------------------------


@transaction.atomic
def coins_adjust(*, character: Character, amount_cp: int, note: str, by,
                 request_key: str | None = None) -> CoinEntry | None:
    """Coins in (positive) or out (negative), with a note; the purse never goes below 0."""
    character = _lock(character)
    if _seen(request_key):
        return None
    note = (note or "").strip()
    if not note:
        raise InventoryError("Say where the coins come from or go to.", "note_required",
                             field="note")
    if amount_cp == 0 or abs(amount_cp) > MAX_COINS_CP:
        raise InventoryError(f"The amount must be a whole number of cp from 1 to {MAX_COINS_CP}.",
                             "amount_out_of_range", field="amount_cp")
    purse = purse_cp(character)
    if purse + amount_cp < 0:
        raise InventoryError(
            f"The purse holds {purse} cp: {-amount_cp} cp cannot come out of it.",
            "insufficient_coins", field="amount_cp",
        )
    return _coin_entry(character, kind=CoinEntry.Kind.ADJUSTMENT, amount_cp=amount_cp,
                       note=note, by=by, request_key=request_key)


@transaction.atomic
def coin_entry_reverse(*, character: Character, entry: CoinEntry | int, by) -> CoinEntry:
    """Undo an entry with a REVERSAL pointing at it. A reversal is never reversed, an
    entry only once, and never into a negative purse."""
    character = _lock(character)
    original = CoinEntry.objects.filter(character=character, pk=_pk(entry)).first()
    if original is None:
        raise InventoryError("That entry is not in this purse's ledger.", "no_such_entry")
    if original.kind == CoinEntry.Kind.REVERSAL:
        raise InventoryError("A reversal cannot be reversed: record a new entry instead.",
                             "reversal_of_reversal")
    if CoinEntry.objects.filter(reverses=original).exists():
        raise InventoryError("That entry was reversed already.", "already_reversed")
    purse = purse_cp(character)
    if purse - original.amount_cp < 0:
        raise InventoryError(
            f"Reversing {original.amount_cp:+d} cp would leave the purse at "
            f"{purse - original.amount_cp} cp.", "insufficient_coins",
        )
    label = original.note or original.get_kind_display()
    try:
        with transaction.atomic():
            return _coin_entry(character, kind=CoinEntry.Kind.REVERSAL,
                               amount_cp=-original.amount_cp, note=f"Reversed: {label}", by=by,
                               reverses=original)
    except IntegrityError as error:  # a concurrent reversal won the one-to-one
        raise InventoryError("That entry was reversed already.", "already_reversed") from error
