"""The Company page (issue 15, "The Company"): for every member of an Errant campaign to
read (members, roles, marching order, debt, reputation, the most extreme Alignment, each
Errant's XP and Renown) and for the Guide to change, including XP from money wasted.

A POST redirects back to the page with a message; a bad one re-renders the page with the
message beside the field and what was typed kept (status 200). Players' POSTs: 403."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from campaigns.forms import add_service_error
from campaigns.models import IMP_ROLES
from campaigns.services import CampaignError
from campaigns.views import latest_session
from rules.engine.errant.advancement import renown_for_xp, xp_next

from . import advancement, company, roster
from .access import membership_or_404
from .company_forms import (
    DebtForm,
    FactionForm,
    MarchForm,
    ReputationForm,
    RolesForm,
    WasteForm,
)

PAGE = "campaigns/errant/company.html"


def company_url(pk: int, anchor: str = "") -> str:
    return reverse("campaigns:errant_company", args=[pk]) + (f"#{anchor}" if anchor else "")


def _runs(membership) -> bool:
    return membership.role in IMP_ROLES


def _require_runs(membership) -> None:
    if not _runs(membership):
        raise PermissionDenied("Only the Guide may change the Company.")


def _page(request, membership, *, status: int = 200, **forms) -> HttpResponse:
    campaign = membership.campaign
    view = company.company_view(campaign)
    errants = view["errants"]
    rows = []
    for errant in errants:
        xp = max(errant.xp, 0)
        rows.append({"errant": errant, "xp": xp, "renown": renown_for_xp(xp),
                     "xp_next": xp_next(xp), "raises": len(errant.renown_raises),
                     "pending": renown_for_xp(xp) - 1 - len(errant.renown_raises)})
    initial_roles = {key: pk for key, _, pk in view["roles"]}
    # ER §Adjutants: the XP of an Errant with an adjutant is divided; the form says so.
    links = roster.links_of(errants)
    adjutant_pairs = list({links[e.pk].pk: links[e.pk] for e in errants
                           if e.pk in links}.values())
    context = {
        **view, "campaign": campaign, "membership": membership, "runs": _runs(membership),
        "adjutant_pairs": adjutant_pairs,
        "rows": rows, "session": latest_session(campaign),
        "role_rows": [(label, next((e.display_name for e in errants if e.pk == role_pk),
                                   "Nobody")) for _, label, role_pk in view["roles"]],
        "roles_form": forms.get("roles_form") or RolesForm(initial=initial_roles,
                                                           errants=errants),
        "debt_form": forms.get("debt_form") or DebtForm(
            initial={"request_key": uuid.uuid4().hex}),
        "faction_form": forms.get("faction_form") or FactionForm(),
        "reputation_form": forms.get("reputation_form") or ReputationForm(),
        "reputation_faction": forms.get("reputation_faction"),
        "waste_form": forms.get("waste_form") or WasteForm(
            errants=errants, initial={"request_key": uuid.uuid4().hex}),
        "march_form": MarchForm(),
    }
    return render(request, PAGE, context, status=status)


@login_required
@require_GET
def company_page(request: HttpRequest, pk: int) -> HttpResponse:
    return _page(request, membership_or_404(request.user, pk))


def _done(request, pk, message, anchor) -> HttpResponse:
    messages.success(request, message)
    return redirect(company_url(pk, anchor))


@login_required
@require_POST
def roles_set(request: HttpRequest, pk: int) -> HttpResponse:
    membership = membership_or_404(request.user, pk)
    _require_runs(membership)
    form = RolesForm(request.POST, errants=company.members(membership.campaign))
    if form.is_valid():
        try:
            company.roles_set(campaign=membership.campaign, roles=form.cleaned_data,
                              by=request.user)
        except CampaignError as error:
            add_service_error(form, error)
        else:
            return _done(request, pk, "The table roles are set.", "roles")
    return _page(request, membership, roles_form=form)


@login_required
@require_POST
def march_move(request: HttpRequest, pk: int) -> HttpResponse:
    membership = membership_or_404(request.user, pk)
    _require_runs(membership)
    form = MarchForm(request.POST)
    if not form.is_valid() or form.cleaned_data["character"] is None:
        messages.error(request, "Choose an Errant and forward or back.")
        return redirect(company_url(pk, "marching"))
    try:
        company.march_move(campaign=membership.campaign,
                           character_pk=form.cleaned_data["character"],
                           direction=form.cleaned_data["direction"], by=request.user)
    except CampaignError as error:
        messages.error(request, error.message)
        return redirect(company_url(pk, "marching"))
    return _done(request, pk, "The marching order is changed.", "marching")


@login_required
@require_POST
def debt_change(request: HttpRequest, pk: int) -> HttpResponse:
    membership = membership_or_404(request.user, pk)
    _require_runs(membership)
    form = DebtForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            entry = company.debt_change(campaign=membership.campaign, kind=data["kind"],
                                        amount=data["amount"] or 0, note=data["note"],
                                        by=request.user, request_key=data["request_key"] or None)
        except CampaignError as error:
            add_service_error(form, error)
        else:
            return _done(request, pk, f"Debt {entry.amount:+,} p ({entry.get_kind_display()}).",
                         "debt")
    return _page(request, membership, debt_form=form)


@login_required
@require_POST
def debt_undo(request: HttpRequest, pk: int, entry_pk: int) -> HttpResponse:
    membership = membership_or_404(request.user, pk)
    _require_runs(membership)
    try:
        company.debt_undo(campaign=membership.campaign, entry_pk=entry_pk, by=request.user)
    except CampaignError as error:
        messages.error(request, error.message)
        return redirect(company_url(pk, "debt"))
    return _done(request, pk, "The debt entry is undone.", "debt")


@login_required
@require_POST
def faction_add(request: HttpRequest, pk: int) -> HttpResponse:
    membership = membership_or_404(request.user, pk)
    _require_runs(membership)
    form = FactionForm(request.POST)
    if form.is_valid():
        try:
            faction = company.faction_add(campaign=membership.campaign,
                                          name=form.cleaned_data["name"],
                                          score=form.cleaned_data["score"], by=request.user)
        except CampaignError as error:
            add_service_error(form, error)
        else:
            return _done(request, pk, f"{faction.name} added.", "factions")
    return _page(request, membership, faction_form=form)


@login_required
@require_POST
def reputation_change(request: HttpRequest, pk: int, faction_pk: int) -> HttpResponse:
    membership = membership_or_404(request.user, pk)
    _require_runs(membership)
    form = ReputationForm(request.POST)
    if form.is_valid():
        try:
            company.reputation_change(campaign=membership.campaign, faction_pk=faction_pk,
                                      change=form.cleaned_data["change"],
                                      note=form.cleaned_data["note"], by=request.user)
        except CampaignError as error:
            if error.code == "no_such_faction":
                raise Http404(error.message) from error
            add_service_error(form, error)
        else:
            return _done(request, pk, "The reputation is changed.", "factions")
    return _page(request, membership, reputation_form=form, reputation_faction=faction_pk)


@login_required
@require_POST
def reputation_undo(request: HttpRequest, pk: int, entry_pk: int) -> HttpResponse:
    membership = membership_or_404(request.user, pk)
    _require_runs(membership)
    try:
        company.reputation_undo(campaign=membership.campaign, entry_pk=entry_pk,
                                by=request.user)
    except CampaignError as error:
        messages.error(request, error.message)
        return redirect(company_url(pk, "factions"))
    return _done(request, pk, "The reputation change is undone.", "factions")


@login_required
@require_POST
def waste_grant(request: HttpRequest, pk: int) -> HttpResponse:
    membership = membership_or_404(request.user, pk)
    _require_runs(membership)
    errants = company.members(membership.campaign)
    form = WasteForm(request.POST, errants=errants)
    if form.is_valid():
        data = form.cleaned_data
        chosen = [e for e in errants if e.pk in set(data["characters"])]
        try:
            entries = advancement.waste_grant(
                campaign=membership.campaign, characters=chosen, source=data["source"],
                pennies=data["pennies"], consumption=data["consumption"],
                from_purse=data["from_purse"], note=data["note"], by=request.user,
                session=latest_session(membership.campaign),
                request_key=data["request_key"] or None)
        except CampaignError as error:
            add_service_error(form, error)
        else:
            names = ", ".join(e.display_name for e in chosen)
            shares = [(entry, roster.partner_entry(entry)) for entry in entries]
            if not any(share for _, share in shares):
                return _done(request, pk, f"{names}: +{entries[0].xp_change:,} XP each "
                                          f"({entries[0].note}).", "members")
            # ER §Adjutants: the XP divided, each part named.
            parts = []
            for entry, share in shares:
                part = f"{entry.character.display_name} +{entry.xp_change:,} XP"
                if share is not None:
                    part += f" and {share.character.display_name} +{share.xp_change:,} XP"
                parts.append(part)
            return _done(request, pk, f"{'; '.join(parts)} (divided ¾ to the Errant, ¼ to the "
                                      f"adjutant; {entries[0].note.split(' (')[0]}).",
                         "members")
    return _page(request, membership, waste_form=form)
