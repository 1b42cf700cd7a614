"""METTLE Core's gear changing hands and Credit coming back, on the campaign side (the
character package may not import campaigns):

- giving a line of the inventory (a container with everything in it, or part of a
  stack) to another character of the campaign or to the party stash: the generic
  hand-over (campaigns/transfers.py), answered like the inventory page's other actions
  (characters/systems/mettle/inventory_views.py, which answers 404 for another
  system's character or another user's);
- the Guide restoring a character's lost Credit (CH §Credit: "Lost Credit recovers
  between campaigns"; joining or leaving a campaign restores it by itself:
  characters/systems/mettle/inventory.py, campaign_changed).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from campaigns import transfers
from campaigns.models import IMP_ROLES, Membership
from characters.inventory_forms import GiveForm
from characters.systems.mettle import inventory
from characters.systems.mettle.inventory_views import item_action
from characters.systems.mettle.models import CreditEntry, MettleCharacter


@login_required
@require_POST
def item_give(request: HttpRequest, pk: int, item_pk: int) -> HttpResponse:
    def act(character, data):
        return transfers.give_as_posted(character=character, item=item_pk, data=data,
                                        by=request.user)
    return item_action(request, pk, item_pk, GiveForm, act)


@login_required
@require_POST
def credit_restore(request: HttpRequest, pk: int) -> HttpResponse:
    """The Guide (or a co-Guide) of the character's campaign gives back all the Credit
    it lost; anyone else gets 404."""
    character = get_object_or_404(MettleCharacter, pk=pk)
    if (character.campaign_id is None
            or Membership.objects.role_of(request.user, character.campaign_id)
            not in IMP_ROLES):
        raise Http404("No such character.")
    entry = inventory.credit_restore(character=character, by=request.user,
                                     kind=CreditEntry.Kind.GUIDE)
    if entry is None:
        messages.info(request, f"{character.display_name} has lost no Credit.")
    else:
        messages.success(request, f"{character.display_name}: {entry.note}.")
    return redirect(character.get_absolute_url())
