"""METTLE Core's Initiative tracker pages (the Scenes chapter, seed 001 > Initiative).

As Eldritch Gambit's (its initiative_views.py): the Guide and co-Guides create a fight, add
the party and NPC pools, trigger Initiative and drive it with buttons that offer only the
legal next steps; every POST goes through initiative.py (one locked transaction, checked
against the page's version) and redirects back. Players of the campaign get a read-only
page that htmx refreshes every 2 s, answered 304 while nothing changed
(campaigns.polling). Non-members and other systems' campaigns get 404; a player gets 403
for every write.
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
from characters.systems.mettle.models import MettleCharacter
from config.parsing import parse_id
from rules.engine.mettle import initiative as engine
from rules.engine.volleyball import ACT, ENDED, FOES, SETUP, SIDES

from . import initiative as tracker_service
from .access import membership_or_404
from .encounters import SIDES as SIDE_CHOICES
from .encounters import MettleCombatant, MettleEncounter
from .initiative_forms import (
    DamageForm,
    EncounterForm,
    MettleForm,
    NpcForm,
    StatusForm,
    ZoneForm,
    clean_text,
)

BASE = "campaigns/mettle/initiative/"
TRACKER = BASE + "tracker.html"
LIVE = BASE + "live.html"
HP_EVENTS = ("damage", "set_hp")


def _encounter(membership, encounter_pk: int) -> MettleEncounter:
    return get_object_or_404(MettleEncounter, pk=encounter_pk, campaign=membership.campaign)


def _version(request: HttpRequest) -> int | None:
    try:
        return int(request.POST.get("version", ""))
    except ValueError:
        return None


def _back(encounter: MettleEncounter, anchor: str = "") -> HttpResponse:
    return redirect(encounter.get_absolute_url() + (f"#{anchor}" if anchor else ""))


@login_required
@require_http_methods(["GET", "POST"])
def encounter_list(request: HttpRequest, pk: int) -> HttpResponse:
    membership = membership_or_404(request.user, pk)
    campaign = membership.campaign
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
    encounters = (campaign.mettle_encounters.select_related("holder", "session")
                  .order_by("-created_at", "-pk"))
    return render(request, BASE + "list.html", {
        "campaign": campaign, "membership": membership, "runs": membership.role in IMP_ROLES,
        "form": form, "encounters": encounters,
    }, status=400 if form.errors else 200)


def _context(request, membership, encounter, **extra) -> dict:
    tracker = tracker_service.load(encounter)
    scene, state = tracker.scene, tracker.state
    holder = tracker.holder
    context = {
        "campaign": membership.campaign, "membership": membership, "encounter": encounter,
        "tracker": tracker, "scene": scene, "state": state,
        "runs": membership.role in IMP_ROLES, "rows": tracker.rows, "holder": holder,
        "passes": [tracker.row(k) for k in engine.legal_passes(scene)],
        "bound": [tracker.row(k) for k in state.bound_targets],
        "deciding": [tracker.row(f.key) for f in state.deciding],
        "waiters": [tracker.row(f.key) for f in state.waiters],
        "with_action": [tracker.row(f.key) for f in state.with_action],
        "log": list(reversed(state.log)),
        "steps": encounter.steps.count(),
        "sides": SIDE_CHOICES,
    }
    if state.phase == ACT and holder:
        context["targets"] = [row for row in tracker.rows if row.key != state.holder]
        context["parts_left"] = scene.parts_left(state.holder)
    if state.running:
        # Defend: right after an Attack, before Initiative passes on (SC §Defend): the
        # attacked themselves, or an ally of theirs stepping in.
        attacked = [tracker.row(k) for k in state.attacked]
        context["defenses"] = [
            (row, target) for target in attacked for row in tracker.rows
            if row.fighter.side == target.fighter.side and not row.fighter.fallen
            and (row.fighter.has_action or row.fighter.waiting.casefold() == "defend")
            and (row.key == target.key or not (row.zone and target.zone
                                               and row.zone != target.zone))]
        if state.phase == ACT and holder:
            context["reachers"] = [row for row in tracker.rows
                                   if row.fighter.side != holder.fighter.side
                                   and row.fighter.has_action]
    if state.phase == SETUP:
        context["claimants"] = [row for row in tracker.rows if row.fighter.has_action]
    if state.phase != ENDED:
        context["npc_form"] = extra.pop("npc_form", None) or NpcForm()
        present = {row.combatant.character_id for row in tracker.rows}
        context["party_missing"] = [c for c in MettleCharacter.objects.filter(
            campaign=membership.campaign).order_by("name", "pk") if c.pk not in present]
    forms_for = extra.pop("row_forms", {})
    for row in tracker.rows:
        pk = row.combatant.pk
        given = forms_for.get(pk, {})
        row.damage_form = given.get("damage") or DamageForm(prefix=f"d{pk}",
                                                            mob=row.fighter.mob)
        row.mettle_form = given.get("mettle") or MettleForm(prefix=f"m{pk}")
        row.status_form = given.get("statuses") or StatusForm(
            prefix=f"s{pk}", initial={"statuses": sorted(row.fighter.statuses)})
        row.zone_form = given.get("zone") or ZoneForm(prefix=f"z{pk}",
                                                      initial={"zone": row.zone})
        row.open = pk in forms_for
    context.update(extra)
    return context


@login_required
@require_http_methods(["GET"])
@conditional_poll
def encounter_detail(request: HttpRequest, pk: int, encounter_pk: int) -> HttpResponse:
    """The Guide's tracker; the players' live view (htmx asks for its partial every 2 s:
    304 while the fight's version stays the same)."""
    membership = membership_or_404(request.user, pk)
    encounter = _encounter(membership, encounter_pk)
    if membership.role not in IMP_ROLES or request.GET.get("view") == "player":
        unchanged_since(request, "mettle", encounter.pk, encounter.version, membership.role)
    context = _context(request, membership, encounter)
    if context["runs"] and request.GET.get("view") == "player":
        context.update(runs=False, preview=True)
    if not context["runs"]:
        # The players see a foe's Mettle only as Fallen (or a Mob's members): the log
        # lines with a foe's numbers stay with the Guide.
        foes = {row.key for row in context["rows"] if row.fighter.side == FOES}
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
    characters = MettleCharacter.objects.filter(campaign=membership.campaign)
    chosen = request.POST.getlist("character")
    if chosen:
        characters = characters.filter(pk__in=[n for c in chosen
                                               if (n := parse_id(c)) is not None])
    try:
        added = tracker_service.add_characters(encounter_id=encounter.pk,
                                               version=_version(request),
                                               characters=list(characters), by=request.user)
    except CampaignError as error:
        return _refused(request, membership, encounter, error)
    messages.success(request, "Joined the party side: "
                     + ", ".join(c.name for c in added) + ".")
    return _back(encounter, "combatants")


@login_required
@require_POST
def npc_add(request: HttpRequest, pk: int, encounter_pk: int) -> HttpResponse:
    membership, encounter = _write(request, pk, encounter_pk)
    form = NpcForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            combatant = tracker_service.add_npc(
                encounter_id=encounter.pk, version=_version(request), name=data["name"],
                pool=data["pool"], higher=data["higher"], armor_soak=data["armor_soak"],
                is_mob=data["is_mob"], members=data["members"] or 1, side=data["side"],
                zone=data["zone"], by=request.user)
        except CampaignError as error:
            if error.code == "stale":
                return _refused(request, membership, encounter, error)
            add_service_error(form, error)
        else:
            messages.success(request, f"{combatant.name} joined the fight.")
            return _back(encounter, "add-npc")
    context = _context(request, membership, encounter, npc_form=form)
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


def _number(post, name: str, low: int, high: int) -> int:
    value = parse_id(post.get(name, "").strip(), high=high)
    if value is None or value < low:
        raise CampaignError(f"A whole number from {low} to {high}.", "number", field=name)
    return value


def _step_payload(post, kind: str, one: str) -> dict:
    """The engine step's payload from the posted form (numbers checked here, the rules
    by the engine); raises CampaignError with the field, Http404 for no such step."""
    if kind in ("act", "act_part", "interrupt"):
        return {"actor": one, "targets": _keys(post.getlist("targets")),
                "action": clean_text(post.get("action", ""))}
    if kind == "split":
        return {"actor": one, "dice": _number(post, "dice", 1, tracker_service.MAX_POOL),
                "parts": _number(post, "parts", 2, tracker_service.MAX_POOL),
                "targets": _keys(post.getlist("targets")),
                "action": clean_text(post.get("action", ""))}
    if kind == "wait":
        return {"actor": one, "action": clean_text(post.get("action", ""))}
    if kind == "pass":
        return {"to": post.get("to", "")}
    if kind == "move":
        return {"actor": one, "zone": clean_text(post.get("zone", "")),
                "hindered": post.get("hindered") == "on"}
    if kind == "defend":
        # "<defender>-<the attacked>": the attacked themselves, or an ally stepping in.
        defender, _, attacked = post.get("defense", "").partition("-")
        if parse_id(defender) is None or parse_id(attacked) is None:
            raise CampaignError("Choose who Defends whom.", "defense")
        return {"key": defender, "ally": attacked if attacked != defender else None}
    if kind == "reach":
        return {"key": one, "attacker_has_reach": post.get("attacker_has_reach") == "on"}
    if kind == "surprise":
        side = post.get("side", "")
        if side not in SIDES:
            raise CampaignError("Choose the surprised side.", "side", field="side")
        return {"side": side}
    if kind in ("keep_waiting", "rejoin", "stumble", "free_move"):
        return {"key": one}
    if kind in ("imp_decides", "next_round", "end"):
        return {}
    raise Http404("No such step.")


@login_required
@require_POST
def step(request: HttpRequest, pk: int, encounter_pk: int) -> HttpResponse:
    """A step of the fight: trigger (the PCs win an argument), act, split and its parts,
    move, wait, interrupt, Defend, Reach, pass, keep waiting, rejoin, Surprise, next
    Round, end."""
    membership, encounter = _write(request, pk, encounter_pk)
    post = request.POST
    kind = post.get("kind", "")
    one = post.get("key", "")
    typed = {name: post.get(name, "") for name in ("action", "dice", "parts", "zone")}
    try:
        if kind == "trigger":
            state = tracker_service.load(encounter).state
            try:
                key = engine.who_triggers(state, _keys(post.getlist("claimants")),
                                          post.get("choice") or None)
            except engine.TieError as tie:
                return _refused(request, membership, encounter,
                                CampaignError(tie.message, "tie", field="claimants"),
                                tied=[tracker_service.load(encounter).row(k)
                                      for k in tie.tied],
                                chosen=post.getlist("claimants"))
            except engine.InitiativeError as error:
                raise CampaignError(error.message, "trigger", field="claimants") from None
            payload = {"key": key}
        else:
            payload = _step_payload(post, kind, one)
        tracker_service.step(encounter_id=encounter.pk, version=_version(request), kind=kind,
                             payload=payload, by=request.user)
    except CampaignError as error:
        return _refused(request, membership, encounter, error,
                        step_error={"message": error.message, "field": error.field,
                                    "kind": kind, "key": one, **typed})
    return _back(encounter, "next")


def _combatant_step(request, membership, encounter, combatant: MettleCombatant, form, *,
                    name: str, step) -> HttpResponse:
    """A valid `form` becomes the tracker step `step(cleaned_data)` returns, as (kind,
    payload); a refused step's message goes beside its field, the form kept as typed."""
    if form.is_valid():
        kind, payload = step(form.cleaned_data)
        try:
            tracker_service.step(encounter_id=encounter.pk, version=_version(request),
                                 kind=kind, payload=payload, by=request.user)
        except CampaignError as error:
            if error.code == "stale":
                return _refused(request, membership, encounter, error)
            form.add_error(error.field if error.field in form.fields else None, error.message)
        else:
            return _back(encounter, f"edit-{combatant.pk}")
    context = _context(request, membership, encounter, row_forms={combatant.pk: {name: form}})
    return render(request, TRACKER, context, status=400)


def _combatant(encounter, combatant_pk: int) -> MettleCombatant:
    return get_object_or_404(encounter.combatants, pk=combatant_pk)


@login_required
@require_POST
def combatant_damage(request: HttpRequest, pk: int, encounter_pk: int,
                     combatant_pk: int) -> HttpResponse:
    """A hit through Soak: Felling blow, Staggered or Fallen (EN §Taking Damage)."""
    membership, encounter = _write(request, pk, encounter_pk)
    combatant = _combatant(encounter, combatant_pk)
    form = DamageForm(request.POST, prefix=f"d{combatant.pk}", mob=combatant.is_mob)

    def payload(data):
        return "damage", {"key": combatant.key, "amount": data["amount"],
                          "soak_bonus": data.get("soak_bonus") or 0,
                          "soft": data["soft"], "stun_attack": data["stun_attack"],
                          "stun_weapon": data["stun_weapon"],
                          "area": bool(data.get("area")), "stagger": bool(data.get("stagger"))}
    return _combatant_step(request, membership, encounter, combatant, form, name="damage",
                           step=payload)


@login_required
@require_POST
def combatant_mettle(request: HttpRequest, pk: int, encounter_pk: int,
                     combatant_pk: int) -> HttpResponse:
    membership, encounter = _write(request, pk, encounter_pk)
    combatant = _combatant(encounter, combatant_pk)
    form = MettleForm(request.POST, prefix=f"m{combatant.pk}")
    return _combatant_step(request, membership, encounter, combatant, form, name="mettle",
                           step=lambda data: ("set_mettle", {"key": combatant.key,
                                                             "mettle": data["mettle"]}))


@login_required
@require_POST
def combatant_statuses(request: HttpRequest, pk: int, encounter_pk: int,
                       combatant_pk: int) -> HttpResponse:
    membership, encounter = _write(request, pk, encounter_pk)
    combatant = _combatant(encounter, combatant_pk)
    form = StatusForm(request.POST, prefix=f"s{combatant.pk}")
    return _combatant_step(request, membership, encounter, combatant, form, name="statuses",
                           step=lambda data: ("statuses", {"key": combatant.key,
                                                           "statuses": data["statuses"]}))


@login_required
@require_POST
def combatant_zone(request: HttpRequest, pk: int, encounter_pk: int,
                   combatant_pk: int) -> HttpResponse:
    """Where a combatant starts (before the trigger; later they Move)."""
    membership, encounter = _write(request, pk, encounter_pk)
    combatant = _combatant(encounter, combatant_pk)
    form = ZoneForm(request.POST, prefix=f"z{combatant.pk}")
    if form.is_valid():
        try:
            tracker_service.set_zone(encounter_id=encounter.pk, version=_version(request),
                                     combatant_id=combatant.pk, zone=form.cleaned_data["zone"])
        except CampaignError as error:
            if error.code in ("stale", "not_setup", "combatant"):  # no zone form to show
                return _refused(request, membership, encounter, error)
            add_service_error(form, error)
        else:
            return _back(encounter, f"edit-{combatant.pk}")
    context = _context(request, membership, encounter, row_forms={combatant.pk: {"zone": form}})
    return render(request, TRACKER, context, status=400)


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

