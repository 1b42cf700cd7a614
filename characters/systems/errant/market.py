"""Money, buying and selling for an Errant (PR §Currency, §Rarity, §Quality & Breakage;
GS's price tables, in rules/engine/errant/data/goods.json).

Money is the generic coin ledger (characters.CoinEntry), whose unit is the penny for an
Errant (PR §Currency: "The prices for all items listed below are given in pennies"; 10 p
= 1 shilling, 10 s = 1 guilder); an Errant starts with none (ER §Select Starting
Equipment lists no money; docs/RULES.md AMB-E-GEAR-3). A purchase or a sale is one
transaction: the Errant's row locked, one CoinEntry (with the submission's request key,
so a double click trades once), one ErrantTrade beside it, and the line added or
removed. The latest trade not undone can be undone (a reversal entry; the bought line
goes, a sold line comes back as it was).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from django.db import IntegrityError, transaction
from django.db.models import Sum

from characters.models import CoinEntry, InventoryItem
from rules.engine.errant.data import QUALITY, RARITY_AVAILABILITY, SETTLEMENT_TIERS, goods_tables
from rules.engine.errant.gear import (
    money,
    money_label,
    parse_price,
    parse_slots,
    quality_price,
    quality_rarity,
    resale_value,
)
from rules.engine.errant.slots import COINS_PER_SLOT

from .builds import coin_count
from .inventory import carried_lines, line_dict, new_line
from .models import ErrantCharacter, ErrantTrade

QUANTITY_MAX = 999
D100 = 100
# The GS tables whose rows are carried items (a price and a size), and the Errant kind of
# their rows; Animals, Vehicles, Services, Lodging, Buildings and Retainers are not gear.
TABLE_KINDS = {
    "Armour, head": "armour", "Armour, hand": "armour", "Armour, feet": "armour",
    "Armour, shoulder": "armour", "Armour, torso": "armour", "Armour, shields": "shield",
    "Weapons": "weapon", "Containers": "container", "Light": "light", "Supply": "supply",
    "Adventuring Gear": "", "Food & Cooking": "", "Tools & Kits": "",
    "Books & Vain Items": "",
}
# PR §Quality & Breakage: only weapons and armour come shoddy or masterwork.
GRADED_KINDS = ("weapon", "armour", "shield")


class TradeRefused(Exception):
    """A purchase, sale or undo that cannot be made; the message says why, `field` the
    form field it is about."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class Good:
    """A row of a GS price table that an Errant can carry."""

    key: str
    table: str
    name: str
    price: int  # pennies, average Quality
    quarters: int
    kind: str
    uses: int | None
    blocks: int | None
    rarity: int

    @property
    def graded(self) -> bool:
        return self.kind in GRADED_KINDS

    @property
    def label(self) -> str:
        return f"{self.name} ({money_label(self.price)}, Rarity {self.rarity})"


def _number(text: str) -> int | None:
    text = (text or "").strip()
    return int(text) if text.isdigit() else None


@cache
def goods() -> dict[str, Good]:
    """The GS rows with a plain price, a size and a Rarity, by key."""
    found = {}
    for table in goods_tables():
        kind = TABLE_KINDS.get(table["name"])
        if kind is None:
            continue
        for row in table["rows"]:
            price, rarity = parse_price(row.get("price", "")), _number(row.get("rarity", ""))
            size = row.get("slots", row.get("slots_or_capacity", ""))
            # A container's column is the Item Slots it fills: "-" for the backpack, the
            # sacks, the pouch and the basket, which fill none, and a number for the
            # barrel and the chest, which do (PR §Containers: "Backpacks, sacks, pouches,
            # and other such containers do not fill Item Slots themselves, though larger
            # containers such as barrels and treasure chests do"; AMB-E-GEAR-4).
            slots = (Fraction(0) if kind == "container" and size.strip() == "-"
                     else parse_slots(size))
            if price is None or rarity is None or slots is None:
                continue
            name = row["name"].replace("†", "").strip()
            row_kind = "ammunition" if name.startswith("Ammunition") else kind
            key = f"{table['name']}|{name}"
            found[key] = Good(key=key, table=table["name"], name=name, price=price,
                              quarters=int(slots * 4), kind=row_kind,
                              uses=_number(row.get("depletion", "")),
                              blocks=_number(row.get("blocks", "")), rarity=rarity)
    return found


# The starting kit's names (ER §Select Starting Equipment) for the GS rows they are.
KIT_NAMES = {"Medium weapon": "Weapon, medium", "Heavy weapon": "Weapon, heavy",
             "Mess kit": "Kit, mess", "Quiver of ammunition": "Ammunition and quiver",
             "Burglar's tools": "Tools, burglar's", "Alchemist's kit": "Kit, alchemist's"}


def _plain(name: str) -> str:
    return name.replace("\u2019", "'").strip().casefold()


def good_named(name: str) -> Good | None:
    """The GS row a line's name is (the kit's names too), if any."""
    wanted = _plain(KIT_NAMES.get(name, name))
    return next((good for good in goods().values() if _plain(good.name) == wanted), None)


def grade_of(quality: int | None) -> str:
    return {value: grade for grade, value in QUALITY.items()}.get(quality, "average")


# -- money ----------------------------------------------------------------------------------


def purse(pennies: int) -> dict:
    """The money as the sheet shows it: guilders, shillings, pennies (the fewest coins,
    docs/RULES.md AMB-E-GEAR-1), the coins that makes and the slots they fill."""
    guilders, shillings, pence = money(max(pennies, 0))
    coins = coin_count(pennies)
    return {"pennies": pennies, "guilders": guilders, "shillings": shillings,
            "pence": pence, "label": money_label(max(pennies, 0)), "coins": coins,
            "per_slot": COINS_PER_SLOT}


def _pennies(character) -> int:
    return (CoinEntry.objects.filter(character_id=character.pk)
            .aggregate(t=Sum("amount_cp"))["t"] or 0)


def _locked(character) -> ErrantCharacter:
    return ErrantCharacter.objects.select_for_update().get(pk=character.pk)


def _earlier(request_key: str | None) -> ErrantTrade | None:
    if not request_key:
        return None
    return ErrantTrade.objects.filter(entry__request_key=request_key).first()


def _record(character, *, kind: str, amount: int, by, request_key, note: str,
            item, line: dict, tier: int, rarity: int) -> ErrantTrade:
    entry = CoinEntry.objects.create(
        character_id=character.pk,
        kind=CoinEntry.Kind.PURCHASE if kind == ErrantTrade.Kind.PURCHASE else
        CoinEntry.Kind.SALE, amount_cp=amount, created_by=by, note=note[:300],
        request_key=request_key or None)
    return ErrantTrade.objects.create(entry=entry, kind=kind, item=item, line=line,
                                      settlement_tier=tier, rarity=rarity)


def _tier(tier) -> int:
    if tier not in SETTLEMENT_TIERS:
        raise TradeRefused("Choose the Settlement's tier (1 Hamlet to 5 Metropolis).",
                           "tier")
    return tier


def _once(function, request_key, **kwargs) -> ErrantTrade:
    """`function` in a transaction; the same request key twice trades once (a race lost
    on the key's uniqueness answers with the first trade)."""
    earlier = _earlier(request_key)
    if earlier is not None:
        return earlier
    try:
        with transaction.atomic():
            return function(request_key=request_key, **kwargs)
    except IntegrityError:
        earlier = _earlier(request_key)
        if earlier is None:
            raise
        return earlier


# -- buying ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Offer:
    good: Good
    grade: str
    quantity: int
    tier: int

    @property
    def unit_price(self) -> int:
        return quality_price(self.good.price, self.grade)

    @property
    def price(self) -> int:
        return self.unit_price * self.quantity

    @property
    def rarity(self) -> int:
        return quality_rarity(self.good.rarity, self.grade)

    @property
    def available(self) -> int:
        """PR §Rarity: the D100 chance (in %) that it is there (AMB-E16)."""
        return RARITY_AVAILABILITY[max(1, min(self.rarity, 5))]

    @property
    def freely_traded(self) -> bool:
        return self.rarity <= self.tier


def offer(key: str, *, grade: str = "average", quantity: int = 1, tier: int = 1) -> Offer:
    good = goods().get(key)
    if good is None:
        raise TradeRefused("Choose an item of the price tables.", "good")
    if grade not in QUALITY:
        raise TradeRefused("Choose shoddy, average or masterwork.", "grade")
    if grade != "average" and not good.graded:
        raise TradeRefused(f"{good.name} comes in one Quality: only weapons and armour are "
                           "shoddy or masterwork (PR §Quality & Breakage).", "grade")
    if not 1 <= quantity <= QUANTITY_MAX:
        raise TradeRefused(f"Buy 1 to {QUANTITY_MAX} at a time.", "quantity")
    return Offer(good, grade, quantity, _tier(tier))


def buy(*, character, key: str, by, grade: str = "average", quantity: int = 1,
        tier: int = 1, test_availability: bool = False, rng: random.Random | None = None,
        request_key: str | None = None) -> ErrantTrade:
    """Buy from the price tables in a Settlement of `tier`: refused when its Rarity is
    above the tier (it must be commissioned, bartered or haggled for: the Guide's), when
    the D100 availability test (if asked for) fails, or when the money is short."""
    return _once(_buy, request_key, character=character, key=key, by=by, grade=grade,
                 quantity=quantity, tier=tier, test_availability=test_availability,
                 rng=rng or random.SystemRandom())


def _buy(*, character, key, by, grade, quantity, tier, test_availability, rng, request_key):
    wanted = offer(key, grade=grade, quantity=quantity, tier=tier)
    good = wanted.good
    if not wanted.freely_traded:
        raise TradeRefused(
            f"{good.name} is Rarity {wanted.rarity}: a {SETTLEMENT_TIERS[wanted.tier]} "
            f"(tier {wanted.tier}) does not trade it freely; it would have to be "
            "commissioned, bartered or haggled for (PR §Rarity): ask the Guide.", "good")
    character = _locked(character)
    note = f"Bought {quantity} x {good.name}" if quantity != 1 else f"Bought {good.name}"
    if grade != "average":
        note += f" ({grade})"
    if test_availability:
        roll = rng.randint(1, D100)
        if roll > wanted.available:
            raise TradeRefused(
                f"Availability: rolled {roll} on the D100, above {wanted.available}: no "
                f"{good.name} to be had here; it cannot be tested again until the next "
                "Downtime Turn (PR §Rarity).", "good")
        note += f"; availability {roll} of {wanted.available}"
    have = _pennies(character)
    if wanted.price > have:
        raise TradeRefused(f"{good.name} costs {money_label(wanted.price)}; "
                           f"{character.display_name} has {money_label(max(have, 0))}.",
                           "good")
    gear = {"name": good.name, "quarters": good.quarters, "quantity": quantity,
            "location": "backpack", "kind": good.kind, "uses": good.uses,
            "uses_max": good.uses, "quality": QUALITY[grade] if good.graded else None,
            "blocks": good.blocks, "magic": 0}
    item = new_line(character, gear)
    character.save(update_fields=["updated_at"])
    return _record(character, kind=ErrantTrade.Kind.PURCHASE, amount=-wanted.price, by=by,
                   request_key=request_key, note=note, item=item, line=gear,
                   tier=wanted.tier, rarity=wanted.rarity)


# -- selling --------------------------------------------------------------------------------


def resale(gear: dict) -> tuple[Good, int, int] | None:
    """What a line sells for (PR §Rarity: Rarity 1 carries 10% of its worth ... Rarity 5
    50%, AMB-E16), with its table row and Rarity; None for a line the tables do not
    price (or a magic item: the Guide's)."""
    good = good_named(gear["name"])
    if good is None or gear.get("magic"):
        return None
    grade = grade_of(gear.get("quality")) if good.graded else "average"
    rarity = quality_rarity(good.rarity, grade)
    return good, resale_value(quality_price(good.price, grade), rarity) * gear["quantity"], rarity


def sell(*, character, item_pk: int, by, tier: int = 1,
         request_key: str | None = None) -> ErrantTrade:
    """Sell a whole line of the Errant's gear at its resale value, in a Settlement that
    trades its Rarity."""
    return _once(_sell, request_key, character=character, item_pk=item_pk, by=by, tier=tier)


def _sell(*, character, item_pk, by, tier, request_key):
    tier = _tier(tier)
    character = _locked(character)
    line = next((line for line in carried_lines(character) if line.pk == item_pk), None)
    if line is None:
        raise TradeRefused("That item is no longer on this sheet (sold, given or removed): "
                           "here it is again.", "item")
    gear = line_dict(line)
    priced = resale(gear)
    if priced is None:
        raise TradeRefused(f"{line.name} has no price in the tables (or is magic): its sale "
                           "is the Guide's to settle.", "item")
    good, amount, rarity = priced
    if rarity > tier:
        raise TradeRefused(f"{line.name} is Rarity {rarity}: a {SETTLEMENT_TIERS[tier]} "
                           f"(tier {tier}) does not buy it freely (PR §Rarity).", "item")
    line.delete()
    character.save(update_fields=["updated_at"])
    note = f"Sold {gear['quantity']} x {line.name}" if gear["quantity"] != 1 else \
        f"Sold {line.name}"
    return _record(character, kind=ErrantTrade.Kind.SALE, amount=amount, by=by,
                   request_key=request_key, note=note, item=None, line=gear, tier=tier,
                   rarity=rarity)


# -- undo -----------------------------------------------------------------------------------


def latest_trade(character) -> ErrantTrade | None:
    """The Errant's latest trade not undone (the one Undo reverses)."""
    return (ErrantTrade.objects.filter(entry__character_id=character.pk,
                                       entry__reversed_by__isnull=True)
            .select_related("entry").order_by("-entry__created_at", "-entry__pk").first())


@transaction.atomic
def undo(*, character, trade_pk: int, by) -> CoinEntry:
    """Undo the latest trade: a reversal entry; the bought line goes (it must still be
    the Errant's, as bought), a sold line comes back. Only the latest, once."""
    character = _locked(character)
    trade = latest_trade(character)
    if trade is None or trade.pk != trade_pk:
        raise TradeRefused("Only the latest purchase or sale not undone can be undone: the "
                           "page was out of date, here it is again.", "trade")
    entry = trade.entry
    if trade.kind == ErrantTrade.Kind.PURCHASE:
        line = InventoryItem.objects.filter(pk=trade.item_id, character_id=character.pk,
                                            dropped=False).first()
        if line is None or line.quantity != trade.line.get("quantity"):
            raise TradeRefused(f"{trade.line.get('name')} is no longer all here (given, "
                               "sold or used): the purchase cannot be undone.", "trade")
        line.delete()
    else:
        if _pennies(character) < entry.amount_cp:
            raise TradeRefused("The money from that sale is spent: it cannot be undone.",
                               "trade")
        new_line(character, trade.line)
    character.save(update_fields=["updated_at"])
    return CoinEntry.objects.create(character_id=character.pk, kind=CoinEntry.Kind.REVERSAL,
                                    amount_cp=-entry.amount_cp, reverses=entry,
                                    created_by=by, note=f"Undone: {entry.note}"[:300])



# -- money gained and spent outside the market ------------------------------------------

MONEY_MAX = 10_000_000  # pennies in one entry (a hoard of 100,000 guilders)


def record_money(*, character, pennies: int, note: str, by,
                 request_key: str | None = None) -> CoinEntry:
    """Money found, paid or awarded (treasure, wages, a fine): one coin-ledger entry of
    `pennies` (negative: spent) with its reason; never more spent than the purse holds.
    The same request key twice records once."""
    note = (note or "").strip()
    if not note:
        raise TradeRefused("Say where the money came from or went.", "note")
    if len(note) > 300:
        raise TradeRefused("Keep the reason to 300 characters.", "note")
    if not pennies or abs(pennies) > MONEY_MAX:
        raise TradeRefused(f"Enter an amount from 1 p to {money_label(MONEY_MAX)}.", "amount")
    if request_key:
        earlier = CoinEntry.objects.filter(request_key=request_key).first()
        if earlier is not None:
            return earlier
    try:
        with transaction.atomic():
            locked = _locked(character)
            have = _pennies(locked)
            if have + pennies < 0:
                raise TradeRefused(f"{locked.display_name} has {money_label(max(have, 0))}: "
                                   f"{money_label(-pennies)} cannot be spent.", "amount")
            return CoinEntry.objects.create(character_id=locked.pk,
                                            kind=CoinEntry.Kind.ADJUSTMENT, amount_cp=pennies,
                                            created_by=by, note=note,
                                            request_key=request_key or None)
    except IntegrityError:
        earlier = CoinEntry.objects.filter(request_key=request_key).first() \
            if request_key else None
        if earlier is None:
            raise
        return earlier


def latest_money(character) -> CoinEntry | None:
    """The latest money entry recorded (not a trade) not undone."""
    return (CoinEntry.objects.filter(character_id=character.pk,
                                     kind=CoinEntry.Kind.ADJUSTMENT,
                                     reversed_by__isnull=True)
            .order_by("-created_at", "-pk").first())


@transaction.atomic
def undo_money(*, character, entry_pk: int, by) -> CoinEntry:
    """Undo the latest money entry: a reversal, refused if the money is spent since."""
    character = _locked(character)
    entry = latest_money(character)
    if entry is None or entry.pk != entry_pk:
        raise TradeRefused("Only the latest money entry not undone can be undone: the page "
                           "was out of date, here it is again.", "entry")
    if _pennies(character) - entry.amount_cp < 0:
        raise TradeRefused("That money is spent: it cannot be undone.", "entry")
    return CoinEntry.objects.create(character_id=character.pk, kind=CoinEntry.Kind.REVERSAL,
                                    amount_cp=-entry.amount_cp, reverses=entry,
                                    created_by=by, note=f"Undone: {entry.note}"[:300])
