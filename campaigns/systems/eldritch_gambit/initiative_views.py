"""The Initiative tracker's pages (Scenes > Staging > Initiative).

The Imp and co-Imps create a fight, add the party and the foes, trigger Initiative and
drive it with buttons that offer only the legal next steps; every POST goes through
initiative.py (one locked transaction, checked against the page's version)
and redirects back. Players of the campaign get a read-only page that htmx refreshes
every 2 s from the database alone. Non-members get 404; a player gets 403 for writes.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from campaigns.forms import add_service_error
from campaigns.models import IMP_ROLES
from campaigns.polling import conditional_poll, unchanged_since
from campaigns.services import CampaignError
from campaigns.views import _require_runs
from characters.models import Character
from config.parsing import parse_id
from rules.engine.eldritch_gambit import initiative as engine

from . import initiative as tracker_service
from .access import membership_or_404
from .initiative_forms import EncounterForm, FoeForm, HpForm, StatusForm, clean_action
from .models import Combatant, Encounter

TRACKER = "campaigns/eldritch_gambit/initiative/tracker.html"
LIVE = "campaigns/eldritch_gambit/initiative/live.html"
HP_EVENTS = ("damage", "heal", "set_hp")


def _encounter(membership, encounter_pk: int) -> Encounter:
    return get_object_or_404(Encounter, pk=encounter_pk, campaign=membership.campaign)


def _version(request: HttpRequest) -> int | None:
    try:
        return int(request.POST.get("version", ""))
    except ValueError:  # also a digit string too long for int()
        return None


def _back(encounter: Encounter, anchor: str = "") -> HttpResponse:
    return redirect(encounter.get_absolute_url() + (f"#{anchor}" if anchor else ""))


@login_required
@require_http_methods(["GET", "POST"])
def encounter_list(request: HttpRequest, pk: int) -> HttpResponse:
    membership = membership_or_404(request.user, pk)
    campaign = membership.campaign
    runs = membership.role in IMP_ROLES
    form = EncounterForm(campaign=campaign)
    if request.method == "POST":
        _require_runs(membership)
        form = EncounterForm(request.POST, campaign=campaign)
        if form.is_valid():
            try:
                encounter = tracker_service.create(campaign=campaign, by=request.user,
                                                   name=form.cleaned_data["name"],
                                                   session=form.cleaned_data["session"])
            except CampaignError as error:
                add_service_error(form, error)
            else:
                messages.success(request, f"{encounter.name}: add the party and the foes.")
                return redirect(encounter)
    encounters = (campaign.encounters.select_related("holder", "session")
                  .order_by("-created_at", "-pk"))
    return render(request, "campaigns/eldritch_gambit/initiative/list.html", {
        "campaign": campaign, "membership": membership, "runs": runs, "form": form,
        "encounters": encounters,
    }, status=400 if form.errors else 200)


def _context(request, membership, encounter, **extra) -> dict:
    tracker = tracker_service.load(encounter)
    state = tracker.state
    context = {
        "campaign": membership.campaign, "membership": membership, "encounter": encounter,
        "tracker": tracker, "state": state, "runs": membership.role in IMP_ROLES,
        "rows": tracker.rows, "holder": tracker.holder,
        "passes": [tracker.row(k) for k in state.legal_passes()],
        "bound": [tracker.row(k) for k in state.bound_targets],
        "deciding": [tracker.row(f.key) for f in state.deciding],
        "waiters": [tracker.row(f.key) for f in state.waiters],
        "with_action": [tracker.row(f.key) for f in state.with_action],
        "log": list(reversed(state.log)),
        "dodgers": [tracker.row(k) for k in state.dodgers],
        "passer": tracker.row(state.passed_by) if state.passed_by else None,
        "steps": encounter.steps.count(),
    }
    if state.phase == engine.ACT and tracker.holder:
        context["targets"] = [row for row in tracker.rows if row.key != state.holder]
    if state.phase == engine.SETUP:
        context["claimants"] = [row for row in tracker.rows if row.fighter.has_action]
    if state.phase != engine.ENDED:
        context["foe_form"] = extra.pop("foe_form", None) or FoeForm()
        present = {row.combatant.character_id for row in tracker.rows}
        context["party_missing"] = [c for c in Character.objects.filter(
            campaign=membership.campaign).order_by("name", "pk") if c.pk not in present]
    forms_for = extra.pop("row_forms", {})
    for row in tracker.rows:
        row.hp_form, row.status_form = forms_for.get(row.combatant.pk, (None, None))
        if row.hp_form is None:
            row.hp_form = HpForm(prefix=f"c{row.combatant.pk}", mob=row.fighter.mob,
                                 initial={"change": "damage"})
        if row.status_form is None:
            row.status_form = StatusForm(prefix=f"s{row.combatant.pk}",
                                         initial={"statuses": sorted(row.fighter.statuses)})
        row.open = row.combatant.pk in forms_for
    context.update(extra)
    return context


@login_required
@require_http_methods(["GET"])
@conditional_poll
def encounter_detail(request: HttpRequest, pk: int, encounter_pk: int) -> HttpResponse:
    """The Imp's tracker; the players' live view (htmx asks for its partial every 2 s:
    304 while the fight's version stays the same, campaigns.polling)."""
    membership = membership_or_404(request.user, pk)
    encounter = _encounter(membership, encounter_pk)
    if membership.role not in IMP_ROLES or request.GET.get("view") == "player":
        unchanged_since(request, encounter.pk, encounter.version, membership.role)
    context = _context(request, membership, encounter)
    if context["runs"] and request.GET.get("view") == "player":
        context.update(runs=False, preview=True)  # the Imp sees what the players see
    if not context["runs"]:
        # The players see the foes' HP only as Fallen (or a Mob's members): the log
        # lines with a foe's HP numbers stay with the Imp.
        foes = {row.key for row in context["rows"] if row.fighter.side == engine.FOES}
        context["log"] = [event for event in context["log"]
                          if not (event.kind in HP_EVENTS and event.actor in foes)]
        if request.htmx:
            return render(request, f"{LIVE}#live", context)
        return render(request, LIVE, context)
    return render(request, TRACKER, context)


def _refused(request, membership, encounter, error: CampaignError, **extra) -> HttpResponse:
    if error.code == "stale":
        messages.warning(request, error.message)
        return _back(encounter)
    context = _context(request, membership, encounter, **extra)
    context.setdefault("step_error", {"message": error.message, "field": error.field})
    return render(request, TRACKER, context, status=400)


def _write(request, pk, encounter_pk):
    membership = membership_or_404(request.user, pk)
    _require_runs(membership)
    return membership, _encounter(membership, encounter_pk)


@login_required
@require_POST
def party_add(request: HttpRequest, pk: int, encounter_pk: int) -> HttpResponse:
    membership, encounter = _write(request, pk, encounter_pk)
    campaign = membership.campaign
    characters = campaign.game_system.character_model.objects.filter(campaign=campaign)
    chosen = request.POST.getlist("character")
    if chosen:
        characters = characters.filter(pk__in=[pk for c in chosen
                                               if (pk := parse_id(c)) is not None])
    try:
        added = tracker_service.add_characters(encounter_id=encounter.pk,
                                               version=_version(request),
                                               characters=list(characters),
                                               by=request.user)
    except CampaignError as error:
        return _refused(request, membership, encounter, error)
    messages.success(request, "Joined the party side: "
                     + ", ".join(c.name for c in added) + ".")
    return _back(encounter, "combatants")


@login_required
@require_POST
def foe_add(request: HttpRequest, pk: int, encounter_pk: int) -> HttpResponse:
    membership, encounter = _write(request, pk, encounter_pk)
    form = FoeForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            combatant = tracker_service.add_foe(
                encounter_id=encounter.pk, version=_version(request), name=data["name"],
                hp_max=data["hp_max"], af=data["af"], wp=data["wp"], is_mob=data["is_mob"],
                members=data["members"] or 1, side=data["side"], by=request.user)
        except CampaignError as error:
            if error.code == "stale":
                return _refused(request, membership, encounter, error)
            add_service_error(form, error)
        else:
            messages.success(request, f"{combatant.name} joined the fight.")
            return _back(encounter, "add-foe")
    context = _context(request, membership, encounter, foe_form=form)
    return render(request, TRACKER, context, status=400)


@login_required
@require_POST
def combatant_remove(request: HttpRequest, pk: int, encounter_pk: int,
                     combatant_pk: int) -> HttpResponse:
    membership, encounter = _write(request, pk, encounter_pk)
    try:
        tracker_service.remove(encounter_id=encounter.pk, version=_version(request),
                               combatant_id=combatant_pk)
    except CampaignError as error:
        return _refused(request, membership, encounter, error)
    messages.success(request, "Taken out of the fight.")
    return _back(encounter, "combatants")


def _keys(values) -> list[str]:
    return [v for v in values if parse_id(v) is not None]


@login_required
@require_POST
def step(request: HttpRequest, pk: int, encounter_pk: int) -> HttpResponse:
    """A step of the fight: trigger, act, wait, interrupt, pass, keep waiting, rejoin,
    let the Imp pick a foe, stumble, lose a Free Move, next Round, end."""
    membership, encounter = _write(request, pk, encounter_pk)
    post = request.POST
    kind = post.get("kind", "")
    one = post.get("key", "")
    if kind == "trigger":
        state = tracker_service.load(encounter).state
        try:
            key = engine.who_triggers(state, _keys(post.getlist("claimants")),
                                      post.get("imp_choice") or None)
        except engine.TieError as tie:
            return _refused(request, membership, encounter,
                            CampaignError(tie.message, "tie", field="claimants"),
                            tied=[tracker_service.load(encounter).row(k) for k in tie.tied],
                            chosen=post.getlist("claimants"))
        except engine.InitiativeError as error:
            return _refused(request, membership, encounter,
                            CampaignError(error.message, "trigger", field="claimants"))
        payload = {"key": key}
    elif kind in ("act", "interrupt"):
        payload = {"actor": one, "targets": _keys(post.getlist("targets")),
                   "action": clean_action(post.get("action", ""))}
    elif kind == "wait":
        payload = {"actor": one, "action": clean_action(post.get("action", ""))}
    elif kind == "pass":
        payload = {"to": post.get("to", "")}
    elif kind in ("keep_waiting", "rejoin", "stumble", "free_move", "dodge"):
        payload = {"key": one}
    elif kind in ("imp_decides", "next_round", "end"):
        payload = {}
    else:
        raise Http404("No such step.")
    try:
        tracker_service.step(encounter_id=encounter.pk, version=_version(request), kind=kind,
                             payload=payload, by=request.user)
    except CampaignError as error:
        return _refused(request, membership, encounter, error,
                        step_error={"message": error.message, "field": error.field,
                                    "kind": kind, "key": one,
                                    "action": post.get("action", "")})
    return _back(encounter, "next")


def _hp_step(combatant: Combatant, data: dict) -> tuple[str, dict]:
    key = str(combatant.pk)
    if data["change"] == "damage":
        return "damage", {"key": key, "amount": data["amount"], "area": bool(data.get("area")),
                          "stagger": bool(data.get("stagger"))}
    if data["change"] == "heal":
        return "heal", {"key": key, "amount": data["amount"]}
    return "set_hp", {"key": key, "hp": data["amount"], "members": data.get("members")}


def _combatant_step(request: HttpRequest, membership, encounter, combatant: Combatant, form,
                    *, step, error_field: str, row_forms: tuple) -> HttpResponse:
    """A valid `form` becomes the tracker step `step(cleaned_data)` returns, as
    (kind, payload); a refused step's message goes beside its field (`error_field`
    when the form has no such field), and the tracker comes back with the row's forms
    (`row_forms`: its HP form and its Status form) as typed."""
    if form.is_valid():
        kind, payload = step(form.cleaned_data)
        try:
            tracker_service.step(encounter_id=encounter.pk, version=_version(request),
                                 kind=kind, payload=payload, by=request.user)
        except CampaignError as error:
            if error.code == "stale":
                return _refused(request, membership, encounter, error)
            form.add_error(error.field if error.field in form.fields else error_field,
                           error.message)
        else:
            return _back(encounter, f"edit-{combatant.pk}")
    context = _context(request, membership, encounter, row_forms={combatant.pk: row_forms})
    return render(request, TRACKER, context, status=400)


@login_required
@require_POST
def combatant_hp(request: HttpRequest, pk: int, encounter_pk: int,
                 combatant_pk: int) -> HttpResponse:
    """Damage, healing or a set HP for one combatant; errors next to the field."""
    membership, encounter = _write(request, pk, encounter_pk)
    combatant = get_object_or_404(encounter.combatants, pk=combatant_pk)
    form = HpForm(request.POST, prefix=f"c{combatant.pk}", mob=combatant.is_mob)
    return _combatant_step(request, membership, encounter, combatant, form,
                           step=lambda data: _hp_step(combatant, data), error_field="amount",
                           row_forms=(form, None))


@login_required
@require_POST
def combatant_statuses(request: HttpRequest, pk: int, encounter_pk: int,
                       combatant_pk: int) -> HttpResponse:
    """The Statuses of one combatant, set as ticked."""
    membership, encounter = _write(request, pk, encounter_pk)
    combatant = get_object_or_404(encounter.combatants, pk=combatant_pk)
    form = StatusForm(request.POST, prefix=f"s{combatant.pk}")
    return _combatant_step(
        request, membership, encounter, combatant, form,
        step=lambda data: ("statuses", {"key": str(combatant.pk),
                                        "statuses": data["statuses"]}),
        error_field="statuses", row_forms=(None, form))


@login_required
@require_POST
def undo(request: HttpRequest, pk: int, encounter_pk: int) -> HttpResponse:
    membership, encounter = _write(request, pk, encounter_pk)
    try:
        last = tracker_service.undo(encounter_id=encounter.pk, version=_version(request))
    except CampaignError as error:
        return _refused(request, membership, encounter, error)
    messages.success(request, f"Undone: {last.text or last.kind}")
    return _back(encounter, "log")

