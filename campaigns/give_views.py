"""Handing a line of gear to another character of the campaign or into its stash, for a
game system whose own pages list its gear (GameSystem.inventory_url) and whose campaign
side has no hand-over view of its own (Errant): the generic hand-over
(campaigns/transfers.py), answered on the system's gear page with what was done or why
not. Its URL name carries the system's prefix (errant_); the view is generic."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from characters.inventory import InventoryError
from characters.inventory_forms import GiveForm
from characters.models import Character

from . import transfers


@login_required
@require_POST
def item_give(request: HttpRequest, pk: int, item_pk: int) -> HttpResponse:
    character = get_object_or_404(Character.objects.visible_to(request.user), pk=pk)
    page = character.game_system.inventory_url
    if not page:
        raise Http404("This game system lists no gear.")
    back = reverse(page, args=[character.pk])
    form = GiveForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Nothing was handed over: " + " ".join(
            error for errors in form.errors.values() for error in errors))
        return redirect(back)
    try:
        said = transfers.give_as_posted(character=character, item=item_pk,
                                        data=form.cleaned_data, by=request.user)
    except InventoryError as refused:
        messages.error(request, f"Nothing was handed over: {refused}")
        return redirect(back)
    messages.success(request, said)
    return redirect(back)
