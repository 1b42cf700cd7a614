"""Giving gear (/characters/<id>/inventory/<item>/give/): a line of a character's
inventory, a container with everything in it, or part of a stack, to another character
of its campaign or to the party stash. A form of Eldritch Gambit's inventory page,
answered like its other item actions (characters/systems/eldritch_gambit/
inventory_views.py, which answers 404 for a character of another system); the hand-over
and its form are generic (campaigns/transfers.py, characters/inventory_forms.py).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_POST

from campaigns import transfers
from characters.inventory import describe
from characters.inventory_forms import GiveForm
from characters.models import GearTransfer
from characters.systems.eldritch_gambit.inventory_views import _item_action


@login_required
@require_POST
def item_give(request: HttpRequest, pk: int, item_pk: int) -> HttpResponse:
    """Hand a line (a container with everything in it), or part of a stack, to another
    character of the campaign or to the party stash (campaigns/transfers.py)."""
    def act(character, data):
        key = data["request_key"] or None
        if key and GearTransfer.objects.filter(request_key=key).exists():
            return "That was handed over already."
        to = data["to"]
        transfer = transfers.item_give(
            item=item_pk, from_character=character, by=request.user, request_key=key,
            to_stash=character.campaign_id if to == GiveForm.STASH else None,
            to_character=None if to == GiveForm.STASH else to, quantity=data["quantity"],
        )
        what = describe(transfer.item_name, transfer.quantity, transfer.quality)
        if transfer.lines > 1:
            what += ", with everything in it,"
        if transfer.kind == GearTransfer.Kind.TO_STASH:
            return f"{what} went into the party stash."
        return f"{what} went to {transfer.to_label}."
    return _item_action(request, pk, item_pk, GiveForm, act,
                        oob=("inventory-stats", "transfer-history"),
                        names={"quantity": "give_quantity"})
