"""Errant's Play page (Checks, Saving Throws and opposed Checks with exact odds) and the
session's Errant roll log.

Who may roll for an Errant: its player, and the Guide and co-Guides of its campaign (the
characters they may see, Character.objects.visible_to); anyone else gets 404, anonymous
users the login page. The session log is for the campaign's members (the other players
see the table's rolls there, not the Play page). Every form works without JavaScript (the
whole page comes back); with htmx only its panel is swapped and the odds follow the
inputs without rolling.
"""

from __future__ import annotations

import uuid
from fractions import Fraction

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET, require_POST

from campaigns import paging
from campaigns.polling import conditional_poll, session_of_log
from characters.systems.errant.apps import KEY
from characters.systems.errant.builds import sheet_for
from characters.systems.errant.models import ErrantCharacter

from . import roll_services
from .access import membership_or_404
from .roll_forms import RollForm
from .roll_services import RollRefused
from .rolls import ErrantRoll

PLAY = "campaigns/errant/roll_play.html"
LOG = "campaigns/errant/roll_log.html"
RECENT = 20
LOG_SIZE = 100
INITIAL = {"kind": ErrantRoll.Kind.CHECK, "attribute": "phys", "dv": 0,
           "position": "risky", "impact": "fair", "jettons": 0, "save_against": "",
           "label": "", "opponent": "", "opponent_attribute": "", "opponent_threat": "",
           "opponent_dv": ""}


def _key() -> str:
    return uuid.uuid4().hex


def _character(request: HttpRequest, pk: int) -> ErrantCharacter:
    return get_object_or_404(
        ErrantCharacter.objects.visible_to(request.user).select_related("campaign"), pk=pk)


def show(chance: Fraction) -> dict:
    """A chance as a percent and an exact fraction ("3/10")."""
    return {"percent": f"{float(chance) * 100:.2f}".rstrip("0").rstrip(".") + "%",
            "fraction": f"{chance.numerator}/{chance.denominator}", "value": chance}


def _form(sheet, data=None) -> RollForm:
    if data is None:
        return RollForm(initial={**INITIAL, "request_key": _key()}, sheet=sheet)
    return RollForm(data, sheet=sheet)


def odds_of(form: RollForm) -> dict | None:
    """What the Play page shows before the roll: the DV with its terms, the exact chance
    (and for an opposed Check the four outcomes), the stakes. None while a field is wrong."""
    if not form.is_bound:
        form = RollForm({**form.initial, "request_key": ""}, sheet=form.sheet)
    if not form.is_valid() or form.planned is None:
        return None
    planned = form.planned
    odds = {"plan": planned, "kind": planned.request.kind, "success": show(planned.chance),
            "faces": planned.faces, "automatic": planned.dv.value < 0,
            "low": max(planned.dv.value, 0) + 1, "high": min(planned.attribute_value, 20),
            "stakes": planned.stakes,
            "if_success": planned.stakes.meaning(True),
            "if_failure": planned.stakes.meaning(False)}
    if planned.opposed is not None:
        odds.update(win=show(planned.opposed.first_wins), lose=show(planned.opposed.second_wins),
                    tie=show(planned.opposed.tie), both_fail=show(planned.opposed.both_fail),
                    opponent_attribute=planned.request.opponent_attribute,
                    opponent_dv=planned.request.opponent_dv)
    return odds


def _recent(character) -> list[ErrantRoll]:
    return list(ErrantRoll.objects.filter(character=character)
                .select_related("rolled_by", "session")[:RECENT])


def _context(character, sheet, **extra) -> dict:
    context = {"character": character, "sheet": sheet, "recent": _recent(character)}
    context.update(extra)
    context.setdefault("form", _form(sheet))
    context.setdefault("odds", odds_of(context["form"]))
    return context


def _page(request, context, status: int = 200) -> HttpResponse:
    """The whole Play page: the panels and, above them, where the rolls go (the current
    session, which only the page's heading shows)."""
    context["session"] = roll_services.current_session(context["character"])
    return render(request, PLAY, context, status=status)


def _render(request, context, partial: str, status: int = 200) -> HttpResponse:
    if request.htmx:
        return render(request, f"{PLAY}#{partial}", context, status=status)
    return _page(request, context, status=status)


@login_required
@require_GET
def play(request: HttpRequest, pk: int) -> HttpResponse:
    character = _character(request, pk)
    return _page(request, _context(character, sheet_for(character)))


@login_required
@require_POST
def roll_odds(request: HttpRequest, pk: int) -> HttpResponse:
    """The odds of the roll as typed: nothing is rolled or saved."""
    character = _character(request, pk)
    form = _form(sheet_for(character), request.POST)
    return render(request, f"{PLAY}#odds-body", {"odds": odds_of(form), "form": form,
                                                 "character": character, "oob_errors": True})


@login_required
@require_POST
def roll_panel(request: HttpRequest, pk: int) -> HttpResponse:
    """Another kind of roll chosen: the panel with its fields, the rest as typed (shown,
    not yet judged: the new kind's fields are still empty)."""
    character = _character(request, pk)
    sheet = sheet_for(character)
    typed = {name: value for name, value in request.POST.items() if name in RollForm.base_fields}
    form = RollForm(initial={**INITIAL, "request_key": _key(), **typed}, sheet=sheet)
    return _render(request, _context(character, sheet, form=form), "roll-panel")


@login_required
@require_POST
def roll(request: HttpRequest, pk: int) -> HttpResponse:
    character = _character(request, pk)
    sheet = sheet_for(character)
    form = _form(sheet, request.POST)
    if not form.is_valid():
        context = _context(character, sheet, form=form)
        return _render(request, context, "roll-panel", status=200 if request.htmx else 422)
    try:
        rolled = roll_services.make_roll(
            character=character, by=request.user, request=form.request(),
            request_key=form.cleaned_data.get("request_key") or None, sheet=sheet)
    except RollRefused as error:
        form.add_error(error.field, error.message)
        context = _context(character, sheet, form=form)
        return _render(request, context, "roll-panel", status=200 if request.htmx else 409)
    data = request.POST.copy()
    data["request_key"] = _key()  # a fresh key for the next roll; what was typed stays
    data["jettons"] = "0"  # Jettons are spent: asked for again, each time
    context = _context(character, sheet, form=_form(sheet, data), rolled=rolled)
    return _render(request, context, "roll-panel")


@login_required
@require_GET
@conditional_poll
def session_log(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The session's Errant rolls; 304 to a poll when none came (campaigns.polling)."""
    session = session_of_log(request, pk, number, "errant_rolls", system=KEY)
    membership = membership_or_404(request.user, pk)
    # A page of LOG_SIZE rolls, newest first; ?before=<roll> pages back (that page does
    # not poll: nothing new lands on it).
    log = paging.page_before(session.errant_rolls.select_related("character", "rolled_by"),
                             request.GET.get("before"), size=LOG_SIZE)
    context = {"campaign": membership.campaign, "session": session, "entries": log.rows,
               "log": log,
               "is_current": session.latest_pk == session.pk}
    return render(request, f"{LOG}#log" if request.htmx else LOG, context)
