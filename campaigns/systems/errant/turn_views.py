"""The Turn log page (issue 15): every member reads the Company's Turns, newest first,
polled live (campaigns/polling.py: 304 when nothing is new); the Guide's view adds the
secrets (the navigation DV, the secret rolls) and the forms that run a Travel Turn
(travel.run), declare another Turn zoomed in (travel.run_other) and undo the newest Turn
(turns.undo_latest). The Event Die's exact odds follow the Travel form as it changes
(travel_odds), before anything is rolled.

Players' POSTs: 403; non-members and other systems' campaigns: 404. A refused or bad POST
re-renders the page with the message beside its field and what was typed kept."""

from __future__ import annotations

import uuid
from functools import cache

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from campaigns import paging
from campaigns.forms import add_service_error
from campaigns.models import IMP_ROLES, Campaign
from campaigns.polling import conditional_poll, member_row, members_of, unchanged_since
from campaigns.services import CampaignError
from characters.systems.errant.apps import KEY

from . import travel, turns
from .access import membership_or_404
from .company import company_of, members
from .roll_views import show
from .turn_forms import OTHER_INITIAL, TRAVEL_INITIAL, OtherTurnForm, TravelForm

PAGE = "campaigns/errant/turns.html"
# The newest Turns the log shows; "Older" (?before=<Turn number>) pages back, unpolled.
LOG_SIZE = paging.LOG_PAGE_SIZE


def turns_url(pk: int, anchor: str = "") -> str:
    return reverse("campaigns:errant_turns", args=[pk]) + (f"#{anchor}" if anchor else "")


def _runs(membership) -> bool:
    return membership.role in IMP_ROLES


def _require_runs(membership) -> None:
    if not _runs(membership):
        raise PermissionDenied("Only the Guide may run the Company's Turns.")


def _key() -> str:
    return uuid.uuid4().hex


def _travel_form(company, errants, seen) -> TravelForm:
    """The next Travel Turn's form, with the land, maps and pathfinder of the last one."""
    return TravelForm(initial={**TRAVEL_INITIAL, **travel.last_choices(company),
                               "seen": seen, "request_key": _key()}, errants=errants)


def odds_of(campaign, form: TravelForm, errants) -> dict:
    """What the Travel form shows before the roll: the next Turn's day and Turn, the
    weather, Pace, the secret DV and the chance to get lost, the Event Die's sources and
    each result's exact chance. `error` when a field is wrong."""
    if not form.is_bound:
        form = TravelForm({**form.initial, "request_key": ""}, errants=errants)
    if not form.is_valid():
        return {"error": "Correct the fields marked above to see the odds."}
    try:
        p = travel.preview(campaign, form.plan(), errants=errants)
    except CampaignError as error:
        return {"error": error.message, "field": error.field}
    return {"p": p, "odds": [(key, name, show(chance)) for key, name, chance in p.odds],
            "p_lost": show(p.p_lost) if p.p_lost is not None else None,
            "weather": travel.weather_dict(p.weather)}


def _context(request, membership, **extra) -> dict:
    campaign = membership.campaign
    company = company_of(campaign)
    runs = _runs(membership)
    log = turns.log_page(company, guide=runs, before=request.GET.get("before"), size=LOG_SIZE)
    rows = log.rows
    context = {"campaign": campaign, "membership": membership, "runs": runs,
               "rows": rows, "log": log, "page_url": turns_url(campaign.pk),
               "weather": travel.current_weather(company),
               "newest": turns.latest(company)}
    if runs:
        errants = members(campaign)
        seen = turns.log_length(company)
        form = extra.pop("travel_form", None) or _travel_form(company, errants, seen)
        other = extra.pop("other_form", None) or OtherTurnForm(
            initial={**OTHER_INITIAL, "seen": seen, "request_key": _key()},
            parents=([t for t in rows if not t.undone][:12] if log.newest else list(
                company.turns.filter(undone_at__isnull=True).order_by("-number")[:12])),
            lights=travel.light_lines(errants))
        if not other.is_bound:
            other.initial["lit"] = [line.pk for _, line in travel.light_lines(errants)
                                    if travel.lit_by_default(line)]
        context.update(travel_form=form, other_form=other, errants=errants,
                       odds=odds_of(campaign, form, errants))
    context.update(extra)
    return context


@login_required
@require_GET
def turns_page(request: HttpRequest, pk: int) -> HttpResponse:
    membership = membership_or_404(request.user, pk)
    return render(request, PAGE, _context(request, membership))


@cache
def _log_rows():
    """The Turn log's poll (campaigns.polling.members_of): the member's role in the
    Errant campaign and the log's version."""
    return members_of(Campaign.objects.annotate(**turns.log_version_of("pk")), "",
                      system=KEY).values_list("poll_role", *turns.LOG_VERSION)


def log_poll(request: HttpRequest, pk: int) -> None:
    """The Turn log's poll (this page's and the Downtime page's): in one query, the
    user's role in Errant campaign `pk` and the log's version; a member's poll that finds
    nothing new is answered 304 (Unchanged). Anyone else goes on to membership_or_404."""
    if not request.htmx:
        return
    row = member_row(_log_rows(), request.user, pk=pk)
    if row is not None:
        unchanged_since(request, *row[1:], row[0] in IMP_ROLES)


@login_required
@require_GET
@conditional_poll
def turns_log(request: HttpRequest, pk: int) -> HttpResponse:
    """The log alone, for the page's poll: 304 when no Turn or change is new."""
    log_poll(request, pk)
    membership = membership_or_404(request.user, pk)
    company = company_of(membership.campaign)
    runs = _runs(membership)
    log = turns.log_page(company, guide=runs, size=LOG_SIZE)
    return render(request, f"{PAGE}#log", {
        "campaign": membership.campaign, "runs": runs, "rows": log.rows, "log": log,
        "page_url": turns_url(membership.campaign.pk),
        "weather": travel.current_weather(company), "newest": turns.latest(company)})


@login_required
@require_POST
def travel_odds(request: HttpRequest, pk: int) -> HttpResponse:
    """The odds of the Travel Turn as the form stands: nothing is rolled or saved."""
    membership = membership_or_404(request.user, pk)
    _require_runs(membership)
    errants = members(membership.campaign)
    form = TravelForm(request.POST, errants=errants)
    return render(request, f"{PAGE}#odds", {
        "campaign": membership.campaign, "odds": odds_of(membership.campaign, form, errants),
        "travel_form": form, "oob_errors": True})


def _refused(request, membership, form, error: CampaignError, name: str) -> HttpResponse:
    if error.code == "stale":
        messages.error(request, error.message)
        return redirect(turns_url(membership.campaign_id, "log"))
    add_service_error(form, error)
    return render(request, PAGE, _context(request, membership, **{name: form}))


@login_required
@require_POST
def travel_run(request: HttpRequest, pk: int) -> HttpResponse:
    membership = membership_or_404(request.user, pk)
    _require_runs(membership)
    errants = members(membership.campaign)
    form = TravelForm(request.POST, errants=errants)
    if form.is_valid():
        try:
            turn = travel.run(campaign=membership.campaign, plan=form.plan(), by=request.user,
                              seen=form.cleaned_data["seen"],
                              request_key=form.cleaned_data["request_key"] or None)
        except CampaignError as error:
            return _refused(request, membership, form, error, "travel_form")
        messages.success(request, f"{turn}: day {turn.day}, Turn {turn.turn_of_day}; the "
                                  f"Event Die says {turn.event_meaning}")
        return redirect(turns_url(pk, f"turn-{turn.number}"))
    return render(request, PAGE, _context(request, membership, travel_form=form))


@login_required
@require_POST
def turn_other(request: HttpRequest, pk: int) -> HttpResponse:
    membership = membership_or_404(request.user, pk)
    _require_runs(membership)
    campaign = membership.campaign
    errants = members(campaign)
    company = company_of(campaign)
    form = OtherTurnForm(request.POST, lights=travel.light_lines(errants),
                         parents=list(company.turns.filter(undone_at__isnull=True)
                                      .order_by("-number")[:12]))
    if form.is_valid():
        try:
            turn = travel.run_other(campaign=campaign, plan=form.plan(), by=request.user,
                                    seen=form.cleaned_data["seen"],
                                    request_key=form.cleaned_data["request_key"] or None)
        except CampaignError as error:
            return _refused(request, membership, form, error, "other_form")
        messages.success(request, f"{turn} declared"
                         + (f"; the Event Die says {turn.event_meaning}"
                            if turn.event_meaning else "") + ".")
        return redirect(turns_url(pk, f"turn-{turn.number}"))
    return render(request, PAGE, _context(request, membership, other_form=form))


@login_required
@require_POST
def turn_undo(request: HttpRequest, pk: int, turn_pk: int) -> HttpResponse:
    membership = membership_or_404(request.user, pk)
    _require_runs(membership)
    try:
        turn = turns.undo_from_log(campaign=membership.campaign, by=request.user,
                                   turn_pk=turn_pk)
    except CampaignError as error:
        messages.error(request, error.message)
        return redirect(turns_url(pk, "log"))
    messages.success(request, f"{turn} is undone: every change put back.")
    return redirect(turns_url(pk, "log"))
