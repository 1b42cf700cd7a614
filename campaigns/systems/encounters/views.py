"""The encounter tracker's pages (seed 004's Encounters chapter, in our own words).

The Guide (and co-Guides) create an encounter, add foes, start it (round zero and
surprise, or round 1) and walk each round's phases with forms that post one step each;
every step goes through tracker.py (one locked transaction, checked against the page's
version and by the rules) and redirects back; a refusal re-renders the page with the
message beside the field and what was typed kept. Players of the campaign get a read-only
view (the order, and their own combatants' numbers) that htmx refreshes every 2 s,
answered 304 while nothing changed (campaigns.polling). Non-members and other systems'
campaigns get 404; a player gets 403 for every write."""

from __future__ import annotations

from functools import cache

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns import paging
from campaigns.models import IMP_ROLES
from campaigns.polling import conditional_poll, member_row, members_of, unchanged_since
from campaigns.services import CampaignError
from campaigns.views import _require_runs
from characters.systems.encounters.apps import KEY
from characters.systems.encounters.models import EncounterCharacter
from config.parsing import parse_id
from rules.engine.encounters import (
    EncounterError,
    charge_momentum,
    encumbered_pace,
    pushing_power,
    range_challenge,
    roll_initiative,
)
from rules.engine.encounters.calculators import SENSE_INCREMENTS, WEAPON_INCREMENTS
from rules.engine.encounters.combatants import MODES, TRACKS
from rules.engine.encounters.sheet import LABELS
from rules.engine.encounters.tracker import ACTION, ENDED, INITIATIVE, RECOVERY, SETUP

from . import tracker
from .access import membership_or_404
from .declaring_text import items_from_text
from .models import SeedEncounter

TRACKER = "campaigns/encounters/tracker.html"
LIST = "campaigns/encounters/list.html"
NAME_MAX = 120
FOE_NUMBERS = ("quickness", "command", "strength", "willpower", "stamina_max",
               "health_max", "sanity_max", "load")
# The steps a form posts, and the fields each reads.
KEYED = {"take", "wait", "step_in", "hold", "knock_out", "revive"}
PLAIN = {"begin_actions", "end_actions", "recover", "end"}
CALCULATORS = ("pace", "push", "range", "charge")
# The steps posted by a form of their own, whose refusal shows beside it.
FORM_KINDS = frozenset({"add", "add_party", "start", "initiative", "rolled", "declare",
                        "defend", "damage", "heal", "push", "take", "wait", "step_in", "hold",
                        "knock_out", "revive", "remove"})


def _encounter(membership, encounter_pk: int) -> SeedEncounter:
    return get_object_or_404(SeedEncounter, pk=encounter_pk, campaign=membership.campaign)


def _version(request: HttpRequest) -> int | None:
    try:
        return int(request.POST.get("version", ""))
    except ValueError:
        return None


@login_required
@require_http_methods(["GET", "POST"])
def encounter_list(request: HttpRequest, pk: int) -> HttpResponse:
    membership = membership_or_404(request.user, pk)
    campaign = membership.campaign
    error = ""
    name = ""
    if request.method == "POST":
        _require_runs(membership)
        name = (request.POST.get("name") or "").replace("\x00", "").strip()
        if not name or len(name) > NAME_MAX:
            error = f"Name the encounter (1 to {NAME_MAX} characters)."
        else:
            encounter = tracker.encounter_create(campaign=campaign, by=request.user,
                                                 name=name)
            messages.success(request, f"{encounter.name}: add the foes, then start.")
            return redirect(encounter)
    return render(request, LIST, {
        "campaign": campaign, "membership": membership,
        "runs": membership.role in IMP_ROLES, "encounters": campaign.seed_encounters.all(),
        "name_error": error, "name": name,
    }, status=400 if error else 200)


# The newest steps the Guide's ledger shows; "Older" (?before=<seq>) pages back.
LEDGER_SHOWN = paging.FOLD_AT


def _ledger(encounter, before=None) -> dict:
    page = paging.page_before(encounter.steps.select_related("by", "undone_by"), before,
                              size=LEDGER_SHOWN, key="seq")
    return {"steps": page.rows, "ledger": page}


def _context(membership, encounter, **extra) -> dict:
    state = tracker.state_of(encounter)
    runs = membership.role in IMP_ROLES
    names = {f.key: f.name for f in state.fighters}
    views = [state.view(f.key) for f in state.fighters]
    queue = state.queue()
    head = {(e.actor, e.slot) for e in state.head()}
    runs_party = None
    if runs:  # the Guide's page lists the party's characters: its own ones are among them
        runs_party = list(EncounterCharacter.objects.filter(campaign=membership.campaign)
                          .order_by("name", "pk"))
        own_pks = [c.pk for c in runs_party if c.owner_id == membership.user_id]
    else:
        own_pks = EncounterCharacter.objects.filter(
            owner_id=membership.user_id, campaign=membership.campaign
        ).values_list("pk", flat=True)
    own = {tracker.character_key(pk) for pk in own_pks}
    context = {
        "campaign": membership.campaign, "membership": membership, "encounter": encounter,
        "runs": runs, "state": state, "phase": state.phase, "views": views,
        # Each combatant's view with the dice of its Initiative roll, when rolled here.
        "rows": [(v, f.turn.dice) for v, f in zip(views, state.fighters, strict=True)],
        "queue": [{"entry": e, "name": names[e.actor], "head": (e.actor, e.slot) in head}
                  for e in queue],
        "waiters": [{"fighter": f, "may_step_in": state.may_step_in(f.key),
                     "points": [names[e.actor] + f" ({e.label}, {e.initiative})"
                                for e in state.step_in_points(f.key)]}
                    for f in state.waiters],
        "recovering": [f.name for f in state.fighters if state.recovers(f.key)]
        if state.phase == RECOVERY else [],
        "log": list(reversed(state.log)), "own": own,
        "own_views": [v for v in views if v.key in own],
        "sides": sorted({f.combatant.side for f in state.fighters}),
        "modes": MODES, "tracks": TRACKS, "foe_numbers": FOE_NUMBERS,
        "SETUP": SETUP, "INITIATIVE": INITIATIVE, "ACTION": ACTION, "RECOVERY": RECOVERY,
        "ENDED": ENDED, "calculators": CALCULATORS,
        "weapon_increments": WEAPON_INCREMENTS, "sense_increments": SENSE_INCREMENTS,
        "step_error": None, "typed": {}, "form_kinds": FORM_KINDS,
    }
    if runs:
        context.update(_ledger(encounter))
        present = {f.key for f in state.fighters}
        context["party_missing"] = [c for c in runs_party
                                    if tracker.character_key(c.pk) not in present]
    context.update(extra)
    typed = context["typed"] if (context["step_error"] or {}).get("kind") == "add" else {}
    context["foe_fields"] = [(name, LABELS[name], typed.get(name, ""))
                             for name in FOE_NUMBERS]
    return context


@cache
def _live_rows():
    """The poll's query (campaigns.polling.members_of): the member's role, the encounter
    and its version."""
    return members_of(SeedEncounter.objects.all(), system=KEY).values_list(
        "poll_role", "pk", "version")


@login_required
@require_GET
@conditional_poll
def encounter_detail(request: HttpRequest, pk: int, encounter_pk: int) -> HttpResponse:
    """The Guide's tracker; the players' live view (polled: 304 while nothing changed)."""
    if request.htmx:  # the poll: the user's role and the encounter's version, one query
        row = member_row(_live_rows(), request.user, pk=encounter_pk, campaign_id=pk)
        if row is not None and (
                row[0] not in IMP_ROLES or request.GET.get("view") == "player"):
            unchanged_since(request, "encounters", row[1], row[2], row[0])
    membership = membership_or_404(request.user, pk)
    encounter = _encounter(membership, encounter_pk)
    player_view = membership.role not in IMP_ROLES or request.GET.get("view") == "player"
    context = _context(membership, encounter)
    if context["runs"] and request.GET.get("before"):
        context.update(_ledger(encounter, request.GET.get("before")))
    if player_view:
        context["runs"] = False
        if request.htmx:
            return render(request, f"{TRACKER}#live", context)
    return render(request, TRACKER, context)


def _write(request, pk, encounter_pk):
    membership = membership_or_404(request.user, pk)
    _require_runs(membership)
    return membership, _encounter(membership, encounter_pk)


def _payload(request, encounter, kind: str) -> tuple[str, dict]:
    """The engine event a posted form asks for, every value as typed (the engine checks
    them); EncounterError for what cannot even be read."""
    post = _without_nul(request.POST)
    key = post.get("key", "")
    if kind in PLAIN:
        return kind, {}
    if kind in KEYED:
        return kind, {"key": key}
    if kind == "add":
        name = (post.get("name") or "").strip()
        return kind, {"key": tracker.foe_key(encounter), "name": name,
                      "side": (post.get("side") or "").strip() or tracker.FOES,
                      **{n: post.get(n, "") or 0 for n in FOE_NUMBERS}}
    if kind == "add_party":
        character = EncounterCharacter.objects.filter(
            pk=parse_id(post.get("character")), campaign=encounter.campaign).first()
        if character is None:
            raise EncounterError("Choose a character of this campaign.", "character")
        return "add", tracker.combatant_payload(character)
    if kind == "remove":
        return kind, {"key": key}
    if kind == "start":
        return kind, {"round_zero": post.get("round_zero") == "on",
                      "initiators": post.getlist("initiators"),
                      "surprised": post.getlist("surprised")}
    if kind in ("initiative", "rolled"):
        mode = post.get("mode", "")
        bonus = post.get("bonus", "") or 0
        if kind == "rolled":
            payload = roll_initiative(tracker.state_of(encounter), key, mode)
            return "initiative", {**payload, "bonus": bonus}
        return kind, {"key": key, "mode": mode, "roll": post.get("roll", "") or None,
                      "bonus": bonus}
    if kind == "declare":
        return kind, {"key": key, "items": items_from_text(post.get("items", ""))}
    if kind == "defend":
        return kind, {"key": key, "skill": post.get("skill", "")}
    if kind in ("damage", "heal"):
        return kind, {"key": key, "track": post.get("track", ""),
                      "amount": post.get("amount", "")}
    if kind == "push":
        return kind, {"key": key, "hits": post.get("hits", "")}
    raise EncounterError("Unknown step.", "kind")


def _without_nul(data):
    """The posted values with every NUL byte taken out: no database column stores one
    (PostgreSQL refuses it even inside JSON), and nothing typed at the table needs it."""
    cleaned = data.copy()
    for name, values in data.lists():
        cleaned.setlist(name, [value.replace("\x00", "") for value in values])
    return cleaned


@login_required
@require_POST
def step(request: HttpRequest, pk: int, encounter_pk: int) -> HttpResponse:
    membership, encounter = _write(request, pk, encounter_pk)
    kind = request.POST.get("kind", "")
    key = request.POST.get("key", "")
    try:
        try:
            event, payload = _payload(request, encounter, kind)
        except EncounterError as error:
            raise CampaignError(error.message, "rules", field=error.field) from None
        done = tracker.step(encounter_id=encounter.pk, version=_version(request),
                            kind=event, payload=payload, by=request.user)
    except CampaignError as error:
        if error.code == "stale":
            messages.warning(request, error.message)
            return redirect(encounter)
        typed = {name: value[:200] for name, value in request.POST.items()
                 if name != "csrfmiddlewaretoken"}
        context = _context(membership, encounter, typed=typed, step_error={
            "message": error.message, "field": error.field or "kind", "kind": kind,
            "key": key})
        return render(request, TRACKER, context, status=400)
    if done.step.text:
        messages.success(request, done.step.text)
    return redirect(encounter.get_absolute_url() + "#board")


@login_required
@require_POST
def undo(request: HttpRequest, pk: int, encounter_pk: int) -> HttpResponse:
    membership, encounter = _write(request, pk, encounter_pk)
    try:
        last = tracker.undo(encounter_id=encounter.pk, version=_version(request),
                            by=request.user)
    except CampaignError as error:
        messages.warning(request, error.message)
        return redirect(encounter)
    messages.success(request, f"Undone: {last.text or last.kind}")
    return redirect(encounter.get_absolute_url() + "#ledger")


def _calculate(state, get) -> dict:
    which = get.get("calc", "")
    try:
        if which == "pace":
            worked = encumbered_pace(get.get("load", ""), state.settings.pace_formula)
        elif which == "push":
            worked = pushing_power(strength=get.get("strength", ""),
                                   willpower=get.get("willpower", ""),
                                   stamina=get.get("stamina", ""), hits=get.get("hits", ""))
        elif which == "range":
            # A sorcery's increment (ENC-12) is typed; it wins over the named ones.
            increment = get.get("increment_yards") or get.get("increment", "")
            named = {**WEAPON_INCREMENTS, **SENSE_INCREMENTS}
            worked = range_challenge(get.get("distance", ""),
                                     named.get(increment, increment),
                                     get.get("defence") or None)
        elif which == "charge":
            worked = charge_momentum(get.get("yards", ""),
                                     enabled=state.settings.charge_momentum)
        else:
            return {"calc": which, "error": "Choose a calculator.", "field": "calc"}
    except EncounterError as error:
        return {"calc": which, "error": error.message, "field": error.field}
    return {"calc": which, "text": worked.text}


@login_required
@require_GET
def calculator(request: HttpRequest, pk: int, encounter_pk: int) -> HttpResponse:
    """The small calculators (pace, Pushing Power, range, charge), each showing its
    arithmetic; the page's forms ask for the result partial with htmx."""
    membership = membership_or_404(request.user, pk)
    encounter = _encounter(membership, encounter_pk)
    context = _context(membership, encounter,
                       result=_calculate(tracker.state_of(encounter), request.GET),
                       typed={k: v[:40] for k, v in request.GET.items()})
    if request.htmx:
        return render(request, f"{TRACKER}#calc-result", context)
    return render(request, TRACKER, context)
