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
from characters.inventory_forms import GiveForm
from characters.systems.eldritch_gambit.inventory_views import _item_action


@login_required
@require_POST
def item_give(request: HttpRequest, pk: int, item_pk: int) -> HttpResponse:
    """Hand a line (a container with everything in it), or part of a stack, to another
    character of the campaign or to the party stash (campaigns/transfers.py)."""
    def act(character, data):
        return transfers.give_as_posted(character=character, item=item_pk, data=data,
                                        by=request.user)
    return _item_action(request, pk, item_pk, GiveForm, act,
                        oob=("inventory-stats", "transfer-history"),
                        names={"quantity": "give_quantity"})
