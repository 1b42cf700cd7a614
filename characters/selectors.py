"""Reads every system's character pages share: the gear handed over between characters
(the writes: campaigns/transfers.py) and the portrait's URL. A system's own reads are its
package's (Eldritch Gambit's: characters/systems/eldritch_gambit/selectors.py); and one
character as its system's model."""

from __future__ import annotations

from django.db.models import Q
from django.http import Http404
from django.urls import reverse
from django.utils.text import slugify

from .inventory import describe
from .models import Character, GearTransfer, get_built


def built_or_404(pk: int, narrow, *, system: str | None = None) -> Character:
    """The character as its system's model (get_built, from the characters `narrow`
    leaves; `system`, its hint), or 404 when there is none or `narrow` leaves it out."""
    try:
        return get_built(pk, narrow, system=system)
    except Character.DoesNotExist:
        raise Http404("No such character.") from None


# -- the gear handed over ------------------------------------------------------------------

# How the histories name the party stash, the receiver of a deposit.
STASH_LABEL = "The party stash"


def transfers_of(character: Character):
    """A character's hand-overs, given or received, newest first."""
    return (GearTransfer.objects.filter(Q(from_character=character) | Q(to_character=character))
            .order_by("-created_at", "-pk"))


def acted_for(transfer: GearTransfer) -> bool:
    """Whether someone else than the acting character's player did it (the Imp for
    them): the giver's for a gift or a deposit, the taker's for a withdrawal. Needs
    from_character and to_character loaded."""
    actor = (transfer.to_character if transfer.kind == GearTransfer.Kind.FROM_STASH
             else transfer.from_character)
    return (transfer.created_by_id is not None and actor is not None
            and actor.owner_id != transfer.created_by_id)


def describe_transfer(transfer: GearTransfer, *, character: Character | None = None) -> str:
    """"Gave Backpack with 3 lines inside to Brom", "Brom stashed Rope (10m)":
    a transfer as `character` sees it, or as the stash sees it when `character` is None."""
    what = describe(transfer.item_name, transfer.quantity, transfer.quality)
    if transfer.lines > 1:
        inner = transfer.lines - 1
        what += f" with {inner} line{'s' if inner != 1 else ''} inside"
    kind = transfer.kind
    if character is None:
        if kind == GearTransfer.Kind.FROM_STASH:
            return f"{transfer.to_label} took {what}"
        return f"{transfer.from_label} stashed {what}"
    if kind == GearTransfer.Kind.TO_STASH:
        return f"Put {what} into the party stash"
    if kind == GearTransfer.Kind.FROM_STASH:
        return f"Took {what} from the party stash"
    if transfer.from_character_id == character.pk:
        return f"Gave {what} to {transfer.to_label}"
    return f"Received {what} from {transfer.from_label}"


# -- the printed sheets ----------------------------------------------------------------------


def portrait_url(character: Character) -> str:
    """The picture's URL (the PDF renderer loads it by its path)."""
    if not character.portrait:
        return ""
    return reverse("characters:portrait_image", args=[character.pk])


def versioned(url: str, character: Character) -> str:
    """With the stored name in the query, so a new picture is never a cached old one."""
    return f"{url}?v={slugify(character.portrait.name)}" if url else ""
