"""Gear changing hands inside a campaign: an item, or a container with everything in it,
given to another character of the party or put into the party's shared stash, and taken
out of the stash again (Characters > Gear > Encumbrance: "If a character trades or drops
the container, the player can pass the card to easily transfer the lot").

Each call is one transaction. It locks the rows that hold the gear in one order, the
campaign (the stash's holder) first and then the characters by pk, so two hand-overs
in opposite directions cannot deadlock, and it re-reads who holds the item under those
locks. Both sides' Load follow from the rows (nothing is stored); one GearTransfer row
records the hand-over and shows on both sides. A refusal raises InventoryError with a
stable code and the form field it belongs to ("to": the receiver); nothing is written
then. A `request_key` makes a call idempotent: the same submission twice moves the gear
once and returns the first transfer.

Part of a stack: with a `quantity` below the line's, a line that is not a container
holding things is split. The giver's row keeps the rest; a new row with the part goes to
the receiver (same catalog item, name, kind, quality, Load, coverage, notes and charges;
neither worn, attuned, dropped nor packed; last in the receiver's order). An Ephemera's
charges count the uses of one item (a stack of potions added at 1 charge is potions of
1 charge each), so the part keeps the line's charges. The quantity is read again under
the locks: two hand-overs at once never give more than the line holds.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Max, Q

from characters.inventory import MAX_QUANTITY, MIN_QUANTITY, InventoryError, describe
from characters.inventory import pk_of as _pk
from characters.inventory_forms import GiveForm
from characters.models import Character, GearTransfer, InventoryItem
from characters.selectors import STASH_LABEL

from .models import IMP_ROLES, Campaign, Membership

CONTENTS_LISTED = 100  # the names kept in a transfer's `contents`
NOTE_LENGTH = 300


# -- reading --------------------------------------------------------------------------------


def stash_transfers(campaign: Campaign):
    """What went into the campaign's stash and came out of it, newest first."""
    kinds = (GearTransfer.Kind.TO_STASH, GearTransfer.Kind.FROM_STASH)
    return (GearTransfer.objects.filter(campaign=campaign, kind__in=kinds)
            .order_by("-created_at", "-pk"))


def may_give(character: Character, user) -> bool:
    """The character's player, or the Imp or a co-Imp of its campaign."""
    if user is not None and character.owner_id == user.pk:
        return True
    return Membership.objects.role_of(user, character.campaign_id) in IMP_ROLES


def may_take_into(campaign: Campaign, character: Character, user) -> bool:
    """A member into their own character of the campaign; the Imp or a co-Imp into any."""
    if character.campaign_id != campaign.pk:
        return False
    role = Membership.objects.role_of(user, campaign.pk)
    if role is None:
        return False
    return role in IMP_ROLES or character.owner_id == user.pk


# -- helpers --------------------------------------------------------------------------------


@dataclass
class _Lot:
    """The line handed over and everything inside it, nested (in inventory order)."""

    item: InventoryItem
    inside: list[InventoryItem]
    split_from: InventoryItem | None = None  # the line a part of a stack came from

    @property
    def lines(self) -> list[InventoryItem]:
        return [self.item, *self.inside]


def _lot(held: list[InventoryItem], item: InventoryItem) -> _Lot:
    children: dict[int, list[InventoryItem]] = {}
    for line in held:
        if line.container_id is not None:
            children.setdefault(line.container_id, []).append(line)
    inside, seen, stack = [], {item.pk}, [item.pk]
    while stack:
        for child in children.get(stack.pop(), ()):
            if child.pk not in seen:  # a loop in the data (A in B in A) ends here
                seen.add(child.pk)
                inside.append(child)
                stack.append(child.pk)
    inside.sort(key=lambda line: (line.position, line.pk))
    return _Lot(item, inside)


def _lock_characters(*characters: Character | int) -> dict[int, Character]:
    """Lock the characters' rows one by one in pk order (every transfer uses this order,
    after the campaign's row, so none waits for another in a circle)."""
    locked = {}
    for pk in sorted({_pk(c) for c in characters}):
        character = Character.objects.select_for_update().filter(pk=pk).first()
        if character is not None:  # deleted meanwhile: the caller refuses
            locked[pk] = character
    return locked


def _lock_campaign(campaign: Campaign | int) -> Campaign | None:
    """Lock the campaign's row, before any character's. FOR NO KEY UPDATE: two transfers
    in one campaign wait for each other (as they do for campaigns.services, which locks
    it FOR UPDATE), yet rows that merely point at the campaign (this transfer's own row,
    a character joining it) are not blocked by it, so none of them can close a circle
    of waits with our character locks."""
    return Campaign.objects.select_for_update(no_key=True).filter(pk=_pk(campaign)).first()


def _earlier(request_key: str | None) -> GearTransfer | None:
    if not request_key:
        return None
    return GearTransfer.objects.filter(request_key=request_key).first()


def _check_note(note: str) -> str:
    note = (note or "").strip()
    if len(note) > NOTE_LENGTH:
        raise InventoryError(f"Keep the note to {NOTE_LENGTH} characters.", "note_too_long",
                             field="note")
    return note


def _receiver(to_character: Character | None, campaign: Campaign) -> Character:
    """A receiving character of the same campaign (already locked by the caller)."""
    if to_character is None:
        raise InventoryError("Choose a character of the party.", "no_such_character",
                             field="to")
    if to_character.campaign_id != campaign.pk:
        raise InventoryError(
            f"{to_character.display_name} is not in {campaign.name}: gear goes only to "
            "characters of the same campaign.", "not_in_campaign", field="to",
        )
    return to_character


def _check_part(quantity, verb: str) -> int | None:
    """How many of the line to hand over, as asked (None: the whole line); the line's
    own quantity is checked under the locks (_part)."""
    if quantity is None:
        return None
    if isinstance(quantity, bool) or not isinstance(quantity, int):
        raise InventoryError(f"Say how many to {verb} as a whole number.", "quantity_invalid",
                             field="quantity")
    if quantity < MIN_QUANTITY:
        raise InventoryError(f"{verb.capitalize()} at least 1 (leave it empty to {verb} the "
                             "whole line).", "quantity_too_small", field="quantity")
    if quantity > MAX_QUANTITY:
        raise InventoryError(f"No line holds more than {MAX_QUANTITY}: {verb} at most what "
                             "the line holds.", "quantity_too_large", field="quantity")
    return quantity


def _part(lot: _Lot, quantity: int | None, *, holder: str, verb: str) -> int | None:
    """The part of the line to split off (None: the whole line moves), checked against
    the line as read under the locks."""
    line = lot.item
    if quantity is None or quantity == line.quantity:
        return None
    what = describe(line.name, 1, line.quality)
    if quantity > line.quantity:
        raise InventoryError(f"{holder} holds only {line.quantity} of {what}: {verb} at most "
                             f"{line.quantity}.", "quantity_more_than_held", field="quantity")
    if lot.inside:
        raise InventoryError(f"{what} has things in it: a container goes whole, with "
                             f"everything in it ({verb} all {line.quantity}, or empty it "
                             "first).", "container_not_split", field="quantity")
    return quantity


def _split(lot: _Lot, quantity: int) -> _Lot:
    """The part to hand over as a new row of the same holder (_move then hands it over);
    the line keeps the rest, where it is and as it is."""
    line = lot.item
    part = InventoryItem.objects.create(
        character=line.character, stash=line.stash, catalog_item=line.catalog_item,
        name=line.name, kind=line.kind, quantity=quantity, quality=line.quality,
        coverage=line.coverage, load=line.load, charges=line.charges, notes=line.notes,
        position=line.position,
    )
    line.quantity -= quantity
    line.save(update_fields=["quantity"])
    return _Lot(part, [], split_from=line)


def _move(lot: _Lot, *, to_character: Character | None, to_stash: Campaign | None) -> None:
    """The lot changes hands: the line leaves any container it was in and lands loose,
    neither worn nor dropped; what is inside keeps its place in it. Nothing stays
    attuned: the WP the giver spent on it is no longer held ("until they discard the
    item or someone else spends a WP to wield it", Magic > Materia; docs/RULES.md,
    Materia) and the receiver attunes it anew."""
    holder = Q(character=to_character) if to_character is not None else Q(stash=to_stash)
    start = (InventoryItem.objects.filter(holder).aggregate(p=Max("position"))["p"] or 0) + 1
    for offset, line in enumerate(lot.lines):
        line.character = to_character
        line.stash = to_stash
        line.equipped = False
        line.attuned = False
        line.position = start + offset
    lot.item.container = None
    lot.item.dropped = False
    InventoryItem.objects.bulk_update(
        lot.lines, ["character", "stash", "equipped", "attuned", "position", "container",
                    "dropped"])
    # What the game system keeps beside the lines follows them (GameSystem.lines_handed).
    holder = to_character if to_character is not None else to_stash
    handed = holder.game_system.lines_handed if holder is not None else None
    if handed is not None:
        handed(lot.lines, split_from=getattr(lot, "split_from", None),
               to_character=to_character)


def _record(lot: _Lot, *, kind: str, campaign: Campaign, by, note: str,
            request_key: str | None, from_character: Character | None = None,
            to_character: Character | None = None) -> GearTransfer:
    """The ledger row, written before the gear moves: if the same request_key won a
    race meanwhile, its transfer is returned and nothing moves."""
    item = lot.item
    fields = {
        "kind": kind, "campaign": campaign, "item": item, "item_name": item.name,
        "quantity": item.quantity, "quality": item.quality, "lines": len(lot.lines),
        "contents": [describe(line.name, line.quantity, line.quality)
                     for line in lot.inside[:CONTENTS_LISTED]],
        "from_character": from_character, "to_character": to_character,
        "from_label": from_character.display_name[:120] if from_character else STASH_LABEL,
        "to_label": to_character.display_name[:120] if to_character else STASH_LABEL,
        "note": note, "created_by": by, "request_key": request_key or None,
    }
    try:
        with transaction.atomic():
            return GearTransfer.objects.create(**fields)
    except IntegrityError as error:
        earlier = _earlier(request_key)
        if earlier is None:
            raise
        raise _AlreadyDone(earlier) from error


class _AlreadyDone(Exception):
    def __init__(self, transfer: GearTransfer):
        super().__init__("already recorded")
        self.transfer = transfer


# -- giving ---------------------------------------------------------------------------------


def item_give(
    *,
    item: InventoryItem | int,
    by,
    to_character: Character | int | None = None,
    to_stash: Campaign | int | None = None,
    from_character: Character | int | None = None,
    note: str = "",
    request_key: str | None = None,
    quantity: int | None = None,
) -> GearTransfer:
    """Give a line of a character's gear (a container with everything in it) to another
    character of the same campaign, or put it into the campaign's stash; `quantity`
    below the line's gives part of a stack (None: the whole line).

    Only the giver's player, or the Imp or a co-Imp of the campaign, may give.
    `from_character` is the character the caller saw it with (a stale page is refused
    rather than moving the item from wherever it went since).
    """
    try:
        return _give(item=item, by=by, to_character=to_character, to_stash=to_stash,
                     from_character=from_character, note=note, request_key=request_key,
                     quantity=quantity)
    except _AlreadyDone as done:
        return done.transfer
    except InventoryError:
        # The same click arriving twice may find the gear gone already: a request
        # recorded meanwhile is answered with its transfer, never refused.
        earlier = _earlier(request_key)
        if earlier is None:
            raise
        return earlier


def give_as_posted(*, character: Character, item: int, data: dict, by) -> str:
    """The inventory pages' Give (characters.inventory_forms.GiveForm's cleaned `data`):
    hand the line over (item_give) and say what went where; a request key already used
    gives nothing twice."""
    key = data["request_key"] or None
    if key and GearTransfer.objects.filter(request_key=key).exists():
        return "That was handed over already."
    to = data["to"]
    transfer = item_give(
        item=item, from_character=character, by=by, request_key=key,
        to_stash=character.campaign_id if to == GiveForm.STASH else None,
        to_character=None if to == GiveForm.STASH else to, quantity=data["quantity"],
    )
    what = describe(transfer.item_name, transfer.quantity, transfer.quality)
    if transfer.lines > 1:
        what += ", with everything in it,"
    if transfer.kind == GearTransfer.Kind.TO_STASH:
        return f"{what} went into the party stash."
    return f"{what} went to {transfer.to_label}."


@transaction.atomic
def _give(*, item, by, to_character, to_stash, from_character, note, request_key, quantity):
    earlier = _earlier(request_key)
    if earlier is not None:
        return earlier
    note = _check_note(note)
    quantity = _check_part(quantity, "give")
    if (to_character is None) == (to_stash is None):
        raise InventoryError("Choose who receives it: a character or the party stash.",
                             "no_receiver", field="to")
    missing = InventoryError(
        "That item is not in this inventory (it may have been given or removed already).",
        "no_such_item",
    )
    found = InventoryItem.objects.filter(pk=_pk(item)).values("character_id").first()
    if found is None or found["character_id"] is None:
        raise missing
    giver_pk = found["character_id"]
    if from_character is not None and _pk(from_character) != giver_pk:
        raise missing
    # The campaign first (the stash's, or the giver's), then both characters by pk.
    campaign = None
    if to_stash is not None:
        campaign = _lock_campaign(to_stash)
        if campaign is None:
            raise InventoryError("That campaign has no stash here.", "no_such_stash",
                                 field="to")
    else:
        giver_campaign = (Character.objects.filter(pk=giver_pk)
                          .values_list("campaign_id", flat=True).first())
        if giver_campaign is not None:
            campaign = _lock_campaign(giver_campaign)
    locked = _lock_characters(giver_pk, *([to_character] if to_character is not None else []))
    earlier = _earlier(request_key)  # the same request, finished while we waited
    if earlier is not None:
        return earlier
    giver = locked.get(giver_pk)
    held = list(InventoryItem.objects.filter(character=giver)) if giver is not None else []
    line = next((line for line in held if line.pk == _pk(item)), None)
    if line is None:  # given or removed while we waited for the locks
        raise missing
    if not may_give(giver, by):
        raise InventoryError(
            f"Only {giver.display_name}'s player or the campaign's Imp may give "
            f"{giver.display_name}'s gear.", "not_your_character",
        )
    if giver.campaign_id is None:
        raise InventoryError(
            f"{giver.display_name} is in no campaign: gear goes only to the party of a "
            "campaign.", "not_in_campaign", field="to",
        )
    if to_stash is not None and campaign.pk != giver.campaign_id:
        raise InventoryError(f"{giver.display_name} can only use the stash of their own "
                             "campaign.", "other_campaign", field="to")
    if campaign is None or campaign.pk != giver.campaign_id:  # joined or left meanwhile
        raise InventoryError(f"{giver.display_name} just changed campaigns: try again.",
                             "campaign_changed", field="to")
    receiver = None
    if to_character is not None:
        receiver = locked.get(_pk(to_character))
        if receiver is not None and receiver.pk == giver.pk:
            raise InventoryError(f"{giver.display_name} has it already: choose someone else.",
                                 "same_character", field="to")
        receiver = _receiver(receiver, campaign)
    lot = _lot(held, line)
    part = _part(lot, quantity, holder=giver.display_name, verb="give")
    if part is not None:
        lot = _split(lot, part)
    kind = GearTransfer.Kind.GIVE if receiver is not None else GearTransfer.Kind.TO_STASH
    transfer = _record(lot, kind=kind, campaign=campaign, by=by, note=note,
                       request_key=request_key, from_character=giver, to_character=receiver)
    _move(lot, to_character=receiver, to_stash=None if receiver is not None else campaign)
    return transfer


# -- the stash ------------------------------------------------------------------------------


def item_take_from_stash(
    *,
    item: InventoryItem | int,
    to_character: Character | int,
    by,
    campaign: Campaign | int | None = None,
    note: str = "",
    request_key: str | None = None,
    quantity: int | None = None,
) -> GearTransfer:
    """Take a line out of the campaign's stash (a container with everything in it) into
    a character of the campaign: any member into their own character, the Imp or a
    co-Imp into anyone's. `campaign` is the stash the caller saw it in; `quantity`
    below the line's takes part of a stack (None: the whole line)."""
    try:
        return _take(item=item, to_character=to_character, by=by, campaign=campaign,
                     note=note, request_key=request_key, quantity=quantity)
    except _AlreadyDone as done:
        return done.transfer
    except InventoryError:
        # The same click arriving twice may find the gear gone already: a request
        # recorded meanwhile is answered with its transfer, never refused.
        earlier = _earlier(request_key)
        if earlier is None:
            raise
        return earlier


@transaction.atomic
def _take(*, item, to_character, by, campaign, note, request_key, quantity):
    earlier = _earlier(request_key)
    if earlier is not None:
        return earlier
    note = _check_note(note)
    quantity = _check_part(quantity, "take")
    missing = InventoryError(
        "That item is not in this stash (it may have been taken already).", "no_such_item")
    found = InventoryItem.objects.filter(pk=_pk(item)).values("stash_id").first()
    if found is None or found["stash_id"] is None:
        raise missing
    if campaign is not None and _pk(campaign) != found["stash_id"]:
        raise missing
    if to_character is None:
        raise InventoryError("Choose a character of the party.", "no_such_character",
                             field="to")
    campaign = _lock_campaign(found["stash_id"])
    if campaign is None:
        raise missing
    receiver = _lock_characters(to_character).get(_pk(to_character))
    earlier = _earlier(request_key)
    if earlier is not None:
        return earlier
    held = list(InventoryItem.objects.filter(stash=campaign))
    line = next((line for line in held if line.pk == _pk(item)), None)
    if line is None:
        raise missing
    role = Membership.objects.role_of(by, campaign.pk)
    if role is None:
        raise InventoryError(f"Only the members of {campaign.name} may take from its stash.",
                             "not_member")
    receiver = _receiver(receiver, campaign)
    if role not in IMP_ROLES and receiver.owner_id != by.pk:
        raise InventoryError(
            "Take it into your own character: only the Imp or a co-Imp may hand stash gear "
            "to someone else's.", "not_your_character", field="to",
        )
    lot = _lot(held, line)
    part = _part(lot, quantity, holder=STASH_LABEL, verb="take")
    if part is not None:
        lot = _split(lot, part)
    transfer = _record(lot, kind=GearTransfer.Kind.FROM_STASH, campaign=campaign, by=by,
                       note=note, request_key=request_key, to_character=receiver)
    _move(lot, to_character=receiver, to_stash=None)
    return transfer
