"""The Downtime page (issue 15, "Downtime Turns"): every member reads the walk and its log
(polled live, campaigns.polling); the Guide starts a Downtime Turn and does each step in
DT's order (downtime.py). A POST redirects back with a message; a refused one re-renders
the page with the message beside its field and what was typed kept (status 200).
Players' POSTs: 403; non-members and other systems: 404."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from campaigns.models import IMP_ROLES
from campaigns.polling import conditional_poll
from campaigns.services import CampaignError
from characters.systems.errant.builds import sheet_for
from rules.engine.errant import downtime as engine
from rules.engine.errant.data.downtime_tables import (
    CONSUMPTION_DICE,
    CONSUMPTION_KINDS,
    SETTLEMENTS,
    TRACKER_RUBRIC,
)

from . import company, downtime, turn_views, turns
from .access import membership_or_404
from .roll_views import show

PAGE = "campaigns/errant/downtime.html"
POSTED_FIELDS = ("settlement", "last", "extra_positive", "extra_negative", "scourge",
                 "rumour", "secret", "character", "advertising", "pay_increase", "pennies",
                 "note", "retainer_type", "tracker", "size", "modifier", "assists", "partial_as",
                 "clear_setback", "kind", "institution_tier", "penalty", "doubled",
                 "faction", "assets", "opposing", "reputation")


def page_url(pk: int, anchor: str = "") -> str:
    return reverse("campaigns:errant_downtime", args=[pk]) + (f"#{anchor}" if anchor else "")


def _runs(membership) -> bool:
    return membership.role in IMP_ROLES


def _require_runs(membership) -> None:
    if not _runs(membership):
        raise PermissionDenied("Only the Guide may run a Downtime Turn.")


def _log(company_obj, guide: bool) -> list:
    return [t for t in turns.log_rows(company_obj, guide=guide)
            if t.kind == downtime.KIND][:10]


def _odds_rows(odds: dict) -> list[dict]:
    return [{"label": label, **show(chance)} for label, chance in odds.items()]


def _context(membership, *, errors=None, posted=None, action="") -> dict:
    campaign = membership.campaign
    co = company.company_of(campaign)
    turn = downtime.open_turn(co)
    errants = company.members(campaign)
    runs = _runs(membership)
    step = downtime.next_step(turn) if turn else None
    settlement = turn.state["settlement"] if turn else "town"
    checklist = []
    if turn:
        done = turn.state.get("done", [])
        checklist = [{"key": key, "title": downtime.STEP_TITLES[key],
                      "text": downtime.STEP_NAMES[key], "done": key in done,
                      "current": key == step} for key in downtime.steps_of(turn)]
    die, multiplier = CONSUMPTION_DICE[settlement]
    posted = posted or {}
    assets, opposing = _small(posted.get("assets"), 50), _small(posted.get("opposing"), 50)
    extra_pos = _small(posted.get("extra_positive"))
    extra_neg = _small(posted.get("extra_negative"))
    carried = downtime.carried(co)
    trackers = turn.state.get("trackers", []) if turn else carried["trackers"]
    return {
        "campaign": campaign, "membership": membership, "runs": runs, "company": co,
        "turn": turn, "step": step, "checklist": checklist, "errants": [
            {"errant": e, "coins": e.coins_cp, "hp_max": sheet_for(e).value("hp_max"),
             "acted": turn is not None and e.pk in turn.state.get("acted", []),
             "consumed": turn is not None and e.pk in turn.state.get("consumed", [])}
            for e in errants],
        "seen": downtime.version(turn), "log_length": turns.log_length(co),
        "request_key": uuid.uuid4().hex, "errors": errors or {}, "posted": posted,
        "action": action, "settlements": [(s, downtime.settlement_tier(s)) for s in
                                          SETTLEMENTS],
        "settlement": settlement, "tier": downtime.settlement_tier(settlement),
        "debt": company.debt(co), "factions": list(co.factions.all()),
        "event_odds": [{"label": name, **show(chance)} for _, name, chance in
                       downtime.event_odds(extra_pos, extra_neg)],
        "face_odds": _odds_rows(downtime.event_face_odds(extra_pos, extra_neg)),
        "complication_odds": _odds_rows(engine.complication_odds()),
        "trend_odds": _odds_rows(engine.trend_odds()),
        "action_odds": [{"modifier": m, **{k: show(v) for k, v in
                                           engine.action_odds(m).items()}}
                        for m in range(-engine.ACTION_MODIFIER_CAP,
                                       engine.ACTION_MODIFIER_CAP + 1)],
        "faction_odds": [{"label": k, **show(v)} for k, v in
                         downtime.faction_odds(assets, opposing).items()],
        "debt_risk": [{"name": e.display_name, "coins": e.coins_cp,
                       **show(downtime.consumption_debt_odds(settlement,
                                                             max(e.coins_cp, 0)))}
                      for e in errants] if step == "consumption" else [],
        "consumption_die": die, "consumption_multiplier": multiplier,
        "consumption_odds": _odds_rows(engine.consumption_odds(settlement)),
        "consumption_kinds": [(k, v[0], v[1]) for k, v in CONSUMPTION_KINDS.items()],
        "retainers": engine.retainer_dice(settlement),
        "morale_rows": [{"name": e.display_name, "pres": sheet_for(e).value("pres"),
                         "odds": _odds_rows(downtime.morale_odds(sheet_for(e).value("pres")))}
                        for e in errants] if step == "free_actions" else [],
        "tracker_sizes": TRACKER_RUBRIC, "trackers": trackers,
        "scourges": turn.state.get("scourges", []) if turn else carried["scourges"],
        "months": turn.state.get("months", 0) if turn else carried["months"],
        "log": _log(co, runs),
        "undoable": _undoable(co),
        "event_table": turn.state.get("event_table") if turn else None,
    }


def _undoable(co):
    """The newest Turn, when it is a Downtime Turn (only the newest can be undone)."""
    latest = turns.latest(co)
    return latest if latest is not None and latest.kind == downtime.KIND else None


def _small(raw, top: int = downtime.MAX_EXTRA_DICE) -> int:
    try:
        value = int(raw)
    except (TypeError, ValueError):
        return 0
    return value if 0 <= value <= top else 0


def _render(request, membership, status=200, **extra) -> HttpResponse:
    return render(request, PAGE, _context(membership, **extra), status=status)


@login_required
@require_GET
def downtime_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The page; the Event Die's dice in the query (the odds' live refresh) show their
    odds."""
    dice = {key: request.GET.get(key, "") for key in ("extra_positive", "extra_negative",
                                                       "assets", "opposing")}
    return _render(request, membership_or_404(request.user, pk), posted=dice)


@login_required
@require_GET
@conditional_poll
def downtime_log(request: HttpRequest, pk: int) -> HttpResponse:
    """The Downtime log alone, for the page's poll: 304 when nothing changed."""
    turn_views.log_poll(request, pk)
    membership = membership_or_404(request.user, pk)
    co = company.company_of(membership.campaign)
    return render(request, f"{PAGE}#log", {"log": _log(co, _runs(membership)),
                                           "campaign": membership.campaign,
                                           "runs": _runs(membership)})


def _posted(request) -> dict:
    data = {key: request.POST.get(key, "") for key in POSTED_FIELDS}
    data["accountants"] = request.POST.getlist("accountants")
    return data


def _seen(request) -> int | None:
    try:
        return int(request.POST.get("seen", ""))
    except ValueError:
        return None


def _refused(request, membership, error: CampaignError, posted: dict, action: str
             ) -> HttpResponse:
    if error.code == "stale":
        messages.error(request, str(error))
        return redirect(page_url(membership.campaign_id, "walk"))
    field = getattr(error, "field", None) or "general"
    return _render(request, membership, errors={field: str(error)}, posted=posted,
                   action=action)


@login_required
@require_POST
def downtime_start(request: HttpRequest, pk: int) -> HttpResponse:
    membership = membership_or_404(request.user, pk)
    _require_runs(membership)
    posted = _posted(request)
    try:
        turn = downtime.start(campaign=membership.campaign, by=request.user,
                              settlement=posted["settlement"], last=bool(posted["last"]),
                              seen=_seen(request),
                              request_key=request.POST.get("request_key") or None)
    except CampaignError as error:
        return _refused(request, membership, error, posted, "start")
    messages.success(request, f"Downtime Turn {turn.kind_number} begins.")
    return redirect(page_url(pk, "walk"))


@login_required
@require_POST
def downtime_step(request: HttpRequest, pk: int) -> HttpResponse:
    membership = membership_or_404(request.user, pk)
    _require_runs(membership)
    posted = _posted(request)
    step, action = request.POST.get("step", ""), request.POST.get("action", "finish")
    try:
        turn_pk = int(request.POST.get("turn", ""))
    except ValueError:
        turn_pk = 0
    try:
        turn = downtime.act(campaign=membership.campaign, by=request.user, turn_pk=turn_pk,
                            step=step, action=action, data=posted, seen=_seen(request),
                            request_key=request.POST.get("request_key") or None)
    except CampaignError as error:
        return _refused(request, membership, error, posted, action)
    except engine.DowntimeError as error:
        return _refused(request, membership, CampaignError(str(error), error.code),
                        posted, action)
    title = downtime.STEP_TITLES.get(step, step)
    messages.success(request, f"{title}: done." if downtime.next_step(turn) != step
                     else f"{title}: recorded.")
    return redirect(page_url(pk, "walk"))


@login_required
@require_POST
def downtime_undo(request: HttpRequest, pk: int) -> HttpResponse:
    membership = membership_or_404(request.user, pk)
    _require_runs(membership)
    try:
        turn_pk = int(request.POST.get("turn", ""))
    except ValueError:
        turn_pk = 0
    try:
        turn = downtime.undo(campaign=membership.campaign, by=request.user, turn_pk=turn_pk)
    except CampaignError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"{turn} undone: everything it changed is put back.")
    return redirect(page_url(pk, "log"))


@login_required
@require_POST
def downtime_scourge(request: HttpRequest, pk: int) -> HttpResponse:
    membership = membership_or_404(request.user, pk)
    _require_runs(membership)
    posted = _posted(request)
    action = request.POST.get("action", "")
    try:
        turn_pk = int(request.POST.get("turn", ""))
    except ValueError:
        turn_pk = 0
    try:
        downtime.scourge(campaign=membership.campaign, by=request.user, turn_pk=turn_pk,
                         action=action, name=posted["scourge"], seen=_seen(request),
                         request_key=request.POST.get("request_key") or None)
    except CampaignError as error:
        return _refused(request, membership, error, posted, "scourge")
    messages.success(request, "The Scourges are updated.")
    return redirect(page_url(pk, "scourges"))
