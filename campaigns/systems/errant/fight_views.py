"""The fight pages (issue 15, "Initiative Turns"): the Guide's page that runs a fight of
Initiative Turns, and the players' live view, polled (campaigns/polling.py).

The Guide's page: start a fight (distance and surprise rolled), add NPCs, the odd-or-even
call, each combatant's pace, actions and Attack Rolls, Saves, wounds, Morale, effects, the
phases, the Turn's end, the fight's end, undo. A POST redirects back with a message; a
refused one re-renders the page with the message beside the form's field and what was
typed kept (status 200). Non-members and campaigns of other systems: 404; players' POSTs:
403; a player asking for the Guide's page is sent to the live view, which shows the
NPCs by name only (their numbers are the Guide's secrets).
"""

from __future__ import annotations

import re
import uuid
from functools import cache

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from campaigns.models import IMP_ROLES, Campaign
from campaigns.polling import conditional_poll, member_row, members_of, unchanged_since
from campaigns.services import CampaignError
from characters.systems.errant.apps import KEY
from rules.engine.errant import initiative as ini
from rules.engine.errant import wounds as wo
from rules.engine.errant.checks import p_success
from rules.engine.errant.data.initiative_tables import WOUND_COLUMNS
from rules.engine.errant.gear import DAMAGE_STEPS, die_label

from . import fight
from .access import membership_or_404
from .company import members
from .fight_models import ErrantFight
from .fight_state import ATTRIBUTES, ERRANT, MAX_DICE, NPC, clock_text, side_label

PAGE = "campaigns/errant/fight.html"
LIVE = "campaigns/errant/fight_live.html"
PANEL = "campaigns/errant/fight_live_panel.html"
INT_FIELDS = {"threat", "hp", "morale", "damage_sides", "warband", "enhance", "impair",
              "blocks", "bonus", "reduction", "dice", "turns", "npc_faces", "douse", "feet"}
STEP_FIELDS = {
    "npc": ("name", "threat", "hp", "att", "mv", "morale", "alignment", "damage_sides",
            "warband", "armour"),
    "turn": ("call", "caller", "surprised"),
    "pace": ("key", "pace"),
    "act": ("key", "kind", "note", "immediate"),
    "attack": ("key", "target", "enhance", "impair", "blocks", "bonus", "dice", "reduction",
               "gambit", "gambit_attribute", "immediate", "sneak"),
    "save": ("key",), "wound": ("key", "column"), "stabilise": ("key",),
    "morale": ("key",), "effect": ("label", "turns", "source"),
    "hazard": ("key", "hazard", "turns", "douse", "feet"),
    "fire": ("key", "do", "actor"),
    "next_phase": (), "end_turn": (), "end": (),
}
ACT_KINDS = ("move", "item", "ready", "other", "sorcery", "miracle")  # the Attack form's apart
DEFAULTS = {"enhance": 0, "impair": 0, "blocks": 0, "bonus": 0, "dice": 1, "reduction": 0,
            "warband": 0, "turns": 1, "douse": 0, "feet": 0}


def fight_url(pk: int) -> str:
    return reverse("campaigns:errant_fight", args=[pk])


def _runs(membership) -> bool:
    return membership.role in IMP_ROLES


def _chance(value) -> dict | None:
    if value is None:
        return None
    return {"fraction": f"{value.numerator}/{value.denominator}",
            "percent": f"{float(value) * 100:.0f}%"}


def _rows(state, *, guide: bool, own: set[int]) -> list[dict]:
    turn = state.turn if state.in_turn else None
    paces = {c.key: c.pace for c in turn.combatants} if turn else {}
    rows = []
    for f in state.fighters.values():
        row = {"f": f, "side": side_label(f.side), "pace": paces.get(f.key, ""),
               "actions": list(turn.all_actions_of(f.key)) if turn else [],
               "left": turn.actions_left(f.key) if turn and f.key in paces else 0,
               "clock": clock_text(f), "mine": f.character_pk in own,
               "status": ("dead" if f.dead else "fled" if f.fled else
                          "out of action" if f.out else
                          f"knocked out ({f.knocked_out} Turn{'s' if f.knocked_out > 1 else ''})"
                          if f.knocked_out else "stunned" if f.stunned else ""),
               "limits": f.limits.labels if f.active else (),
               "fire": (f"on fire: next Turn {f.fire_dice}D6" if f.on_fire else "")}
        if guide or f.kind == ERRANT:
            row["save_chance"] = _chance(p_success(f.attributes.get("phys", 0),
                                                   f.pending_save)) \
                if f.pending_save is not None else None
        if guide and f.kind == NPC:
            row["morale_chance"] = _chance(f.p_morale_breaks)
            row["save_on"] = f.threat + 8
        rows.append(row)
    return rows


def _phases(state) -> list[dict]:
    if state.turn is None:
        return []
    out = []
    for i, (who, pace) in enumerate(ini.PHASES):
        side = state.turn.winner if who == "winners" else state.turn.loser
        out.append({"n": i + 1, "label": f"{side_label(side)} ({who}) act {pace}ly",
                    "current": state.in_turn and i == state.turn.phase,
                    "done": i < state.turn.phase or not state.in_turn})
    return out


def _page(request, membership, *, status: int = 200, error: CampaignError | None = None,
          failed: str = "", posted=None) -> HttpResponse:
    campaign = membership.campaign
    current = fight.current_of(campaign)
    context = {"campaign": campaign, "membership": membership, "fight": current,
               "error": error, "failed": failed, "posted": posted or {},
               "request_key": uuid.uuid4().hex, "errants": members(campaign),
               "past": list(ErrantFight.objects.filter(company__campaign=campaign,
                                                       ended_at__isnull=False)[:10]),
               "p_call": _chance(ini.p_call_wins(ini.ODD)),
               "columns": list(WOUND_COLUMNS.items()), "kinds": ACT_KINDS,
               "attributes": ATTRIBUTES, "alignments": wo.NPC_ALIGNMENTS,
               "armours": list(wo.WARBAND_ARMOUR_HP),
               "dice": [(s, die_label(s)) for s in DAMAGE_STEPS], "max_dice": MAX_DICE,
               "surprise_odds": [(k, _chance(v)) for k, v in ini.surprise_odds().items()]}
    if current is None:
        context["last_ended"] = fight.latest_fight(campaign)
    else:
        state = fight.state_of(current)
        context.update(_fight_context(current, state, guide=True, own=set()))
        context["steps"] = list(current.steps.order_by("-seq"))
    return render(request, PAGE, context, status=status)


def _fight_context(current, state, *, guide: bool, own: set[int]) -> dict:
    rows = _rows(state, guide=guide, own=own)
    surprised = {"npcs": "company", "company": "npcs"}.get(state.surprise, "")
    return {"state": state, "rows": rows, "phases": _phases(state),
            "acting": [f.name for f in state.acting_now()],
            "active": [r for r in rows if r["f"].active],
            "npcs": [r for r in rows if r["f"].kind == NPC and r["f"].active],
            "effects": state.turn.effects if state.turn is not None and state.in_turn
            else state.carried,
            "surprise_turn": surprised if state.turn_number == 0 and surprised else "",
            "company_side": ini.COMPANY}


@login_required
@require_GET
def fight_page(request: HttpRequest, pk: int) -> HttpResponse:
    membership = membership_or_404(request.user, pk)
    if not _runs(membership):
        return redirect("campaigns:errant_fight_live", pk)
    return _page(request, membership)


def _guide(request, pk):
    membership = membership_or_404(request.user, pk)
    if not _runs(membership):
        raise PermissionDenied("Only the Guide runs a fight.")
    return membership


NUMBER = re.compile(r"-?[0-9]{1,7}")


def _int_or_none(value: str):
    value = (value or "").strip()
    if NUMBER.fullmatch(value):
        return int(value)
    return value if value else None


def payload_of(kind: str, data) -> dict:
    """The step's payload from the form: numbers as ints (what is not a number stays
    text, for the fold to refuse beside its field), checkboxes as booleans."""
    payload = {}
    for name in STEP_FIELDS[kind]:
        if name in ("immediate", "sneak"):
            payload[name] = data.get(name) == "on"
            continue
        raw = data.get(name, "")
        if name in INT_FIELDS:
            value = _int_or_none(raw)
            payload[name] = DEFAULTS.get(name) if value is None else value
        else:
            payload[name] = raw.replace("\x00", "")[:200]
    return payload


@login_required
@require_POST
def fight_start(request: HttpRequest, pk: int) -> HttpResponse:
    membership = _guide(request, pk)
    pks = list(dict.fromkeys(int(v) for v in request.POST.getlist("characters")
                             if re.fullmatch(r"[0-9]{1,9}", v)))
    faces = _int_or_none(request.POST.get("npc_faces", "2"))
    try:
        if not isinstance(faces, int) or not 0 <= faces <= 6:
            raise CampaignError("The NPCs' surprise range is 0 to 6 faces.", "bad_faces",
                                field="npc_faces")
        fight.start(campaign=membership.campaign, by=request.user,
                    name=request.POST.get("name", "").replace("\x00", ""),
                    character_pks=pks, npc_faces=faces, request_key=_key(request.POST))
    except CampaignError as error:
        return _page(request, membership, error=error, failed="start", posted=request.POST)
    messages.success(request, "The fight begins: combat distance and surprise rolled.")
    return redirect(fight_url(pk))


def _key(data) -> str | None:
    """The form's request key, if it is one (hex and dashes, as the page writes)."""
    value = data.get("request_key", "")
    return value if re.fullmatch(r"[0-9a-zA-Z-]{1,64}", value) else None


def _version(data):
    value = data.get("version", "")
    return int(value) if re.fullmatch(r"[0-9]{1,9}", value) else -1


@login_required
@require_POST
def fight_step(request: HttpRequest, pk: int, fight_pk: int, kind: str) -> HttpResponse:
    membership = _guide(request, pk)
    if kind not in STEP_FIELDS:
        raise Http404("No such step.")
    try:
        done = fight.step(campaign=membership.campaign, by=request.user, fight_pk=fight_pk,
                          version=_version(request.POST), kind=kind,
                          payload=payload_of(kind, request.POST),
                          request_key=_key(request.POST))
    except CampaignError as error:
        if error.code == "no_fight":
            raise Http404("No such fight.") from None
        return _page(request, membership, error=error, failed=kind, posted=request.POST)
    messages.success(request, done.step.guide_text or "Done.")
    return redirect(fight_url(pk) + "#turn")


@login_required
@require_POST
def fight_undo(request: HttpRequest, pk: int, fight_pk: int) -> HttpResponse:
    membership = _guide(request, pk)
    try:
        last = fight.undo(campaign=membership.campaign, by=request.user, fight_pk=fight_pk,
                          version=_version(request.POST))
    except CampaignError as error:
        if error.code == "no_fight":
            raise Http404("No such fight.") from None
        return _page(request, membership, error=error, failed="undo")
    messages.success(request, f"Undone: {last.guide_text or last.kind}")
    return redirect(fight_url(pk) + "#turn")


@cache
def _live_rows():
    """The live view's poll (campaigns.polling.members_of): the member's role in the
    Errant campaign and its newest fight's version."""
    return members_of(Campaign.objects.annotate(**fight.version_of("pk")), "",
                      system=KEY).values_list("poll_role", *fight.VERSION)


@login_required
@require_GET
@conditional_poll
def fight_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The players' view of the Company's latest fight: order, phase, who acts, their own
    Errant's HP and wounds, the NPCs by name; polled, 304 when nothing changed."""
    if request.htmx:  # the poll: the user's role and the newest fight's version, one query
        row = member_row(_live_rows(), request.user, pk=pk)
        if row is not None:  # a member: else membership_or_404
            unchanged_since(request, *row[1:], row[0])
    membership = membership_or_404(request.user, pk)
    campaign = membership.campaign
    latest = fight.latest_fight(campaign)
    guide = _runs(membership)
    context = {"campaign": campaign, "fight": latest, "guide": guide}
    if latest is not None:
        state = fight.state_of(latest)
        own = {e.pk for e in members(campaign)
               if guide or e.owner_id == request.user.pk}
        context.update(_fight_context(latest, state, guide=False, own=own))
        context["steps"] = list(latest.steps.filter(undone_at__isnull=True)
                                .order_by("-seq")[:30])
    return render(request, PANEL if request.htmx else LIVE, context)
