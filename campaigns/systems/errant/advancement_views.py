"""An Errant's advancement at the table, on the campaign's character page (the ritual's
"character" slot, campaigns/errant/character_advancement.html): the Renown raises (the
Guide records the Company's Attribute, the player their different second one), the Fame
roll and the Ancestry's once-per-session ability. Each POST redirects back to that page;
a refused one re-renders it with the message beside the field (status 200)."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns.forms import add_service_error
from campaigns.models import IMP_ROLES
from campaigns.services import CampaignError
from campaigns.views import character_page, latest_session
from characters.systems.errant.models import ErrantCharacter
from rules.engine.errant import wounds as wo
from rules.engine.errant.company import p_fame
from rules.engine.errant.data import ATTRIBUTE_NAMES

from . import advancement, lasting, roster
from .access import errant_or_404, membership_or_404
from .advancement_models import ErrantAncestryUse, ErrantFameRoll, ErrantRenownPick
from .company_forms import AncestryUseForm, RenownPickForm, WoundHealForm

FAME_SHOWN = 5


def character_context(character, membership, **forms) -> dict:
    """The ritual's character_context: what the advancement card shows."""
    errant = ErrantCharacter.objects.get(pk=character.pk)
    renown = advancement.renown_of(errant)
    runs = membership.role in IMP_ROLES
    rows = advancement.raise_rows(errant, errant.renown_raises, renown,
                                  advancement.standing_picks(errant))
    session = latest_session(membership.campaign)
    use = None
    if session is not None:
        use = ErrantAncestryUse.objects.filter(session=session, character=errant,
                                               undone_at__isnull=True).first()
    name, ability = advancement.ancestry_ability(errant)
    return {
        "errant_renown": renown, "errant_raise_rows": rows,
        "errant_pending": sum(1 for row in rows if not row["done"]),
        "attribute_names": ATTRIBUTE_NAMES,
        "renown_form": forms.get("renown_form") or RenownPickForm(),
        "fame_rolls": list(ErrantFameRoll.objects.filter(character=errant)[:FAME_SHOWN]),
        "fame_chance": p_fame(renown),
        "ancestry_name": name, "ancestry_ability": ability, "ancestry_use": use,
        "ancestry_session": session,
        "ancestry_form": forms.get("ancestry_form") or AncestryUseForm(),
        "errant_runs": runs,
        # ER §Adjutants: the Errant's adjutant, or whose adjutant it is (roster.py).
        "errant_adjutant_link": roster.link_of(errant),
        # IT §Death & Dying: the lasting wounds and their effects (lasting.py).
        "errant_wounds": lasting.carried(errant),
        "heal_form": forms.get("heal_form") or WoundHealForm(),
        "heal_wound": forms.get("heal_wound"),
        "heal_physician": wo.PHYSICIAN,
        "heal_key": uuid.uuid4().hex,  # each wound's form: heal_key-<wound pk>
    }


def _back(pk: int, character_pk: int, anchor: str) -> HttpResponse:
    return redirect(reverse("campaigns:character", args=[pk, character_pk]) + f"#{anchor}")


@login_required
@require_POST
def renown_pick(request: HttpRequest, pk: int, character_pk: int) -> HttpResponse:
    """The Guide posts the Company's Attribute, the player their own (who = company or
    player)."""
    membership = membership_or_404(request.user, pk)
    errant = errant_or_404(membership, character_pk)
    form = RenownPickForm(request.POST)
    by_company = request.POST.get("who") == "company"
    if form.is_valid():
        try:
            pick = advancement.renown_pick(character=errant,
                                           attribute=form.cleaned_data["attribute"],
                                           by=request.user, by_company=by_company)
        except CampaignError as error:
            add_service_error(form, error)
        else:
            who = "The Company" if by_company else errant.display_name
            messages.success(request, f"{who} raised {ATTRIBUTE_NAMES[pick.attribute]} "
                                      f"({pick.attribute}) for Renown {pick.renown}.")
            return _back(pk, character_pk, "renown")
    return character_page(request, membership, errant, renown_form=form)


@login_required
@require_POST
def renown_undo(request: HttpRequest, pk: int, pick_pk: int) -> HttpResponse:
    membership = membership_or_404(request.user, pk)
    pick = ErrantRenownPick.objects.filter(pk=pick_pk,
                                           character__campaign_id=membership.campaign_id).first()
    if pick is None:
        raise Http404("No such choice.")
    errant = errant_or_404(membership, pick.character_id)
    try:
        advancement.renown_pick_undo(pick=pick, by=request.user)
    except CampaignError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, f"Renown {pick.renown}'s {pick.attribute} is undone.")
    return _back(pk, errant.pk, "renown")


@login_required
@require_POST
def fame_roll(request: HttpRequest, pk: int, character_pk: int) -> HttpResponse:
    membership = membership_or_404(request.user, pk)
    errant = errant_or_404(membership, character_pk)
    try:
        roll = advancement.fame_roll(character=errant, by=request.user,
                                     session=latest_session(membership.campaign))
    except CampaignError as error:
        messages.error(request, error.message)
    else:
        outcome = "their reputation precedes them" if roll.known else "not known here"
        messages.success(request, f"Fame roll: d10 = {roll.die} against Renown {roll.renown}: "
                                  f"{outcome}.")
    return _back(pk, character_pk, "fame")


@login_required
@require_POST
def ancestry_use(request: HttpRequest, pk: int, character_pk: int) -> HttpResponse:
    membership = membership_or_404(request.user, pk)
    errant = errant_or_404(membership, character_pk)
    form = AncestryUseForm(request.POST)
    if form.is_valid():
        try:
            advancement.ancestry_use(character=errant, by=request.user,
                                     session=latest_session(membership.campaign),
                                     note=form.cleaned_data["note"])
        except CampaignError as error:
            add_service_error(form, error)
        else:
            messages.success(request, f"{errant.display_name} used the Ancestry ability.")
            return _back(pk, character_pk, "ancestry")
    return character_page(request, membership, errant, ancestry_form=form)


@login_required
@require_POST
def ancestry_undo(request: HttpRequest, pk: int, use_pk: int) -> HttpResponse:
    membership = membership_or_404(request.user, pk)
    use = ErrantAncestryUse.objects.filter(pk=use_pk,
                                           session__campaign_id=membership.campaign_id).first()
    if use is None:
        raise Http404("No such use.")
    errant = errant_or_404(membership, use.character_id)
    try:
        advancement.ancestry_use_undo(use=use, by=request.user)
    except CampaignError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, "The Ancestry ability is available again this session.")
    return _back(pk, errant.pk, "ancestry")
