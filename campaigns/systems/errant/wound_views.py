"""An Errant's lasting wounds on the campaign's character page (the ritual's "character"
slot, campaigns/errant/character_wounds.html; lasting.py): the Guide marks one healed (a
physician in the Downtime Turn, or a beneficence) and may undo it. Each POST redirects back
to that page; a refused one re-renders it with the message beside the field (status 200).
Players' POSTs: 403 (their own Errant's; another's is 404)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns.forms import add_service_error
from campaigns.models import IMP_ROLES
from campaigns.services import CampaignError
from campaigns.views import character_page
from characters.systems.errant.wound_models import ErrantWound, ErrantWoundHeal

from . import lasting
from .access import errant_or_404, membership_or_404
from .company_forms import WoundHealForm


def _guide(membership) -> None:
    if membership.role not in IMP_ROLES:
        raise PermissionDenied("Only the Guide may mark a wound healed or undo it.")


def _back(pk: int, character_pk: int) -> HttpResponse:
    return redirect(reverse("campaigns:character", args=[pk, character_pk]) + "#wounds")


@login_required
@require_POST
def wound_heal(request: HttpRequest, pk: int, wound_pk: int) -> HttpResponse:
    membership = membership_or_404(request.user, pk)
    wound = ErrantWound.objects.filter(pk=wound_pk, campaign_id=membership.campaign_id,
                                       undone_at__isnull=True).first()
    if wound is None:
        raise Http404("No such wound.")
    errant = errant_or_404(membership, wound.character_id)
    _guide(membership)
    form = WoundHealForm(request.POST)
    if form.is_valid():
        try:
            lasting.heal(campaign=membership.campaign, by=request.user, wound_pk=wound.pk,
                         **form.cleaned_data)
        except CampaignError as error:
            add_service_error(form, error)
        else:
            messages.success(request, f"{errant.display_name}'s wound \"{wound.text}\" is "
                                      "healed.")
            return _back(pk, errant.pk)
    return character_page(request, membership, errant, heal_form=form, heal_wound=wound.pk)


@login_required
@require_POST
def wound_heal_undo(request: HttpRequest, pk: int, heal_pk: int) -> HttpResponse:
    membership = membership_or_404(request.user, pk)
    done = ErrantWoundHeal.objects.filter(
        pk=heal_pk, wound__campaign_id=membership.campaign_id).select_related("wound").first()
    if done is None:
        raise Http404("No such healing.")
    errant = errant_or_404(membership, done.wound.character_id)
    _guide(membership)
    try:
        lasting.undo_heal(campaign=membership.campaign, by=request.user, heal_pk=done.pk)
    except CampaignError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, f"The healing of \"{done.wound.text}\" is undone: "
                                  f"{errant.display_name} carries the wound again.")
    return _back(pk, errant.pk)
