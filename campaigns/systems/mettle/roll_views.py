"""METTLE Core's Play page (Checks with exact odds, Twists, Split Actions) and the
session's roll log.

Who may roll for a character: its player, and the Guide and co-Guides of its campaign (the
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
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from campaigns import paging
from campaigns.polling import conditional_poll, session_of_log
from characters.systems.mettle.apps import KEY
from characters.systems.mettle.builds import keep_sheet_reads, sheet_for
from characters.systems.mettle.models import MettleCharacter
from rules.engine.mettle.checks import check_odds, difficulty_rank
from rules.engine.mettle.data import ACTION_BY_NAME, ATTRIBUTE_NAMES, TWIST_SEEDS
from rules.engine.mettle.statuses import rally_refusal

from . import hazards, roll_services
from .access import membership_or_404
from .roll_forms import CheckForm, SplitForm, TwistForm, staggered_penalty
from .roll_services import RollRefused
from .rolls import MettleRoll

PLAY = "campaigns/mettle/play.html"
LOG = "campaigns/mettle/session_log.html"
RECENT = 20
LOG_SIZE = 100


def _key() -> str:
    return uuid.uuid4().hex


def _character(request: HttpRequest, pk: int) -> MettleCharacter:
    return get_object_or_404(
        MettleCharacter.objects.visible_to(request.user).select_related("campaign"), pk=pk)


def show(chance: Fraction) -> dict:
    """A chance as a percent and an exact fraction ("35/54")."""
    return {"percent": f"{float(chance) * 100:.1f}%".replace(".0%", "%"),
            "fraction": str(chance), "value": chance}


def odds_rows(dice: int, difficulty: int, raises: int = 0) -> dict:
    odds = check_odds(dice, difficulty, raises)
    return {"dice": dice, "difficulty": difficulty, "raises": raises,
            "rank": difficulty_rank(difficulty) or "none",
            "success": show(odds.p_success), "failure": show(odds.p_failure),
            "with_twist": show(odds.p_success_with_twist),
            "twist_allowed": show(odds.p_twist_allowed),
            "saved": show(odds.p_saved_by_twist)}


def _difficulty_raise(character) -> int:
    """What the character's tranquilizers add to its Check Difficulties (AMB-M-AFF-7),
    read once a request: kept on the character object the view loaded."""
    if not hasattr(character, "_difficulty_raise"):
        character._difficulty_raise = hazards.tranquilizer_raise(character.pk)
    return character._difficulty_raise


def _rally_refusal(character) -> str:
    """Burning, Staggered or max Mettle an Affliction took: why no Rally, or ""."""
    return rally_refusal(character.statuses or (), character.mettle_max_lost)


def _check_form(character, sheet, data=None) -> CheckForm:
    surge_max = roll_services.surge_allowed(character, sheet)
    raised = _difficulty_raise(character)
    if data is None:
        return CheckForm(initial={"action": "", "pool": "nature", "bonus": 0,
                                  "penalty": staggered_penalty(sheet), "surge": 0,
                                  "team_best": "", "raises": 0, "difficulty": "3",
                                  "target_pool": "", "request_key": _key()},
                         sheet=sheet, backstories=character.backstories, surge_max=surge_max,
                         difficulty_raise=raised,
                         rally_refusal=_rally_refusal(character))
    return CheckForm(data, sheet=sheet, backstories=character.backstories, surge_max=surge_max,
                     difficulty_raise=raised,
                     rally_refusal=_rally_refusal(character))


def _odds_for(form: CheckForm) -> dict | None:
    if not form.is_bound:
        form = CheckForm({**form.initial, "request_key": ""}, sheet=form.sheet,
                         backstories=form.backstories, surge_max=form.surge_max,
                         difficulty_raise=form.difficulty_raise,
                         rally_refusal=form.rally_refusal)
    if not form.is_valid():
        return None
    difficulty, source = form.difficulty_value()
    return {**odds_rows(form.dice(), difficulty, form.cleaned_data["raises"]),
            "from_target": source == MettleRoll.DifficultyFrom.POOL,
            "difficulty_raise": form.difficulty_raise,
            "teamwork": form.teamwork(), "surge": form.cleaned_data["surge"]}


def _split_form(character, sheet, data=None) -> SplitForm:
    url = reverse("characters:mettle_split", args=[character.pk])
    raised = _difficulty_raise(character)
    if data is None:
        return SplitForm(initial={"parts": 2, "key": _key()}, sheet=sheet, url=url,
                         difficulty_raise=raised)
    return SplitForm(data, sheet=sheet, url=url, difficulty_raise=raised)


def _split_plan(form: SplitForm, character) -> list[dict] | None:
    if not form.is_bound or not form.is_valid():
        return None
    rows = form.plan()
    key = form.cleaned_data.get("key") or ""
    done = {}
    if key:
        key = key[:60]
        for roll in MettleRoll.objects.filter(character=character, kind=MettleRoll.Kind.CHECK,
                                              request_key__startswith=f"{key}.")\
                .select_related("twist"):
            done[roll.split.get("part")] = roll
    for row in rows:
        row["odds_rows"] = odds_rows(row["dice"], row["difficulty"])
        rolled = row["rolled"] = done.get(row["part"])
        row["twist"] = getattr(rolled, "twist", None) if rolled is not None else None
        row["may_twist"] = (rolled is not None and row["twist"] is None
                            and roll_services.engine_roll(rolled).may_twist)
        row["twist_key"] = f"{key}.t{row['part']}"  # the same on a double click
    return rows


def outcome_text(roll: MettleRoll) -> str:
    """What the Action's outcome means (Scenes > Actions): its success, and what each Edge
    adds, or its failure. "" for a plain Check."""
    action = ACTION_BY_NAME.get(roll.action)
    if action is None:
        return ""
    if not roll.success:
        return f"Failure: {action.failure}."
    text = f"Success: {action.success}."
    if roll.edge:
        text += f" Edge {roll.edge}: {action.edge}."
    return text


def _recent(character) -> list[MettleRoll]:
    return list(MettleRoll.objects.filter(character=character)
                .select_related("rolled_by", "session", "twist")[:RECENT])


def _context(request, character, sheet, **extra) -> dict:
    context = {
        "character": character, "sheet": sheet,
        "session": roll_services.current_session(character),
        "recent": _recent(character),
        "surge_max": roll_services.surge_allowed(character, sheet),
        "twist_seeds": TWIST_SEEDS,
    }
    context.update(extra)
    context.setdefault("check_form", _check_form(character, sheet))
    context.setdefault("split_form", _split_form(character, sheet))
    context.setdefault("odds", _odds_for(context["check_form"]))
    form = context["check_form"]
    context["action"] = ACTION_BY_NAME.get(str(form.data.get("action", "")) if form.is_bound
                                           else "")
    if context["action"] is not None:
        context["action_pool_name"] = ATTRIBUTE_NAMES[context["action"].active]
    context.setdefault("plan", _split_plan(context["split_form"], character))
    check = context.get("check")
    if check is not None:
        # The Check just rolled is among the recent rolls, read with their Twists.
        shown = next((roll for roll in context["recent"] if roll.pk == check.pk), check)
        twist = getattr(shown, "twist", None)
        context["twist"] = twist
        context["may_twist"] = twist is None and roll_services.engine_roll(check).may_twist
        context["outcome_text"] = outcome_text(twist or check)
        context.setdefault("twist_form", TwistForm(prefix="twist",
                                                   initial={"request_key": _key()}))
    return context


def _render(request, context, partial: str, status: int = 200) -> HttpResponse:
    template = f"{PLAY}#{partial}" if request.htmx else PLAY
    return render(request, template, context, status=status)


@login_required
@require_GET
def play(request: HttpRequest, pk: int) -> HttpResponse:
    character = _character(request, pk)
    return render(request, PLAY, _context(request, character, sheet_for(character)))


@login_required
@require_POST
def check_odds_view(request: HttpRequest, pk: int) -> HttpResponse:
    """The odds of the Check as typed: nothing is rolled or saved."""
    character = _character(request, pk)
    form = _check_form(character, sheet_for(character), request.POST)
    return render(request, f"{PLAY}#odds-body", {"odds": _odds_for(form), "check_form": form})


@login_required
@require_POST
def check_action(request: HttpRequest, pk: int) -> HttpResponse:
    """A new Action chosen: its Check's pool (Attack: NATURE), the rest as typed."""
    character = _character(request, pk)
    sheet = sheet_for(character)
    data = request.POST.copy()
    action = ACTION_BY_NAME.get(data.get("action", ""))
    if action is not None:
        data["pool"] = action.active
    form = _check_form(character, sheet, data)
    return _render(request, _context(request, character, sheet, check_form=form), "check-panel")


@login_required
@require_POST
def check_roll(request: HttpRequest, pk: int) -> HttpResponse:
    # The sheet is shown again after the Check, which writes none of what the sheet reads
    # beside the character's row: those are read once (keep_sheet_reads).
    character = keep_sheet_reads(_character(request, pk))
    sheet = sheet_for(character)
    form = _check_form(character, sheet, request.POST)
    if not form.is_valid():
        context = _context(request, character, sheet, check_form=form)
        return _render(request, context, "check-panel", status=200 if request.htmx else 422)
    try:
        check = roll_services.make_check(
            character=character, by=request.user, request=form.request(),
            request_key=form.cleaned_data.get("request_key") or None)
    except RollRefused as error:
        form.add_error(error.field, error.message)
        context = _context(request, character, sheet, check_form=form)
        return _render(request, context, "check-panel", status=200 if request.htmx else 409)
    character.refresh_from_db()  # the Mettle a Surge spent; the lines and sums kept
    sheet = sheet_for(character)
    data = request.POST.copy()
    data["request_key"] = _key()  # a fresh key for the next Check; what was typed stays
    data["surge"] = "0"  # the Mettle is spent: a Surge is asked for again, each time
    next_form = _check_form(character, sheet, data)
    context = _context(request, character, sheet, check_form=next_form, check=check)
    return _render(request, context, "check-panel")


@login_required
@require_POST
def twist(request: HttpRequest, pk: int, roll_pk: int) -> HttpResponse:
    character = _character(request, pk)
    sheet = sheet_for(character)
    check = get_object_or_404(MettleRoll, pk=roll_pk, character=character,
                              kind=MettleRoll.Kind.CHECK)
    form = TwistForm(request.POST, prefix="twist")
    error = None
    if form.is_valid():
        try:
            roll_services.call_twist(check=check, by=request.user, price=form.price_text(),
                                     request_key=form.cleaned_data.get("request_key") or None)
        except RollRefused as refused:
            error = refused.message
    check = MettleRoll.objects.select_related("twist").get(pk=check.pk)
    extra = {}
    if "pool" in request.POST:  # the Check form came along (htmx): shown as typed
        data = request.POST.copy()
        data["request_key"] = _key()
        extra["check_form"] = _check_form(character, sheet, data)
    context = _context(request, character, sheet, check=check, twist_error=error,
                       twist_form=form, **extra)
    status = 200 if request.htmx or (error is None and form.is_valid()) else 409
    return _render(request, context, "check-panel", status=status)


@login_required
@require_POST
def split_view(request: HttpRequest, pk: int) -> HttpResponse:
    """The split as declared: each part's share, cap, dice and odds (nothing rolled)."""
    character = _character(request, pk)
    sheet = sheet_for(character)
    form = _split_form(character, sheet, request.POST)
    context = _context(request, character, sheet, split_form=form)
    return _render(request, context, "split-panel",
                   status=200 if request.htmx or form.is_valid() else 422)


@login_required
@require_POST
def split_roll(request: HttpRequest, pk: int) -> HttpResponse:
    """Roll one part of the declared split (`part`), once: its key is the split's key and
    the part's number, so a second click shows the roll it made."""
    character = _character(request, pk)
    sheet = sheet_for(character)
    form = _split_form(character, sheet, request.POST)
    error = None
    if form.is_valid() and form.cleaned_data.get("key"):
        rows = {row["part"]: row for row in form.plan()}
        part = request.POST.get("part", "")
        row = rows.get(int(part)) if part.isascii() and part.isdigit() and len(part) < 3 \
            else None
        if row is None:
            error = "Choose a part of the split to roll."
        else:
            key = form.cleaned_data["key"][:60]  # room for ".<part>" in the column
            try:
                roll_services.make_check(character=character, by=request.user,
                                         request=form.request(row, key),
                                         request_key=f"{key}.{row['part']}")
            except RollRefused as refused:
                error = refused.message
    elif form.is_valid():
        error = "This split has no key: reload the page."
    context = _context(request, character, sheet, split_form=form, split_error=error)
    ok = form.is_valid() and error is None
    return _render(request, context, "split-panel", status=200 if request.htmx or ok else 422)


@login_required
@require_GET
@conditional_poll
def session_log(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The session's METTLE rolls; 304 to a poll when none came (campaigns.polling)."""
    session = session_of_log(request, pk, number, "mettle_rolls", system=KEY)
    membership = membership_or_404(request.user, pk)
    # A page of LOG_SIZE rolls, newest first; ?before=<roll> pages back (that page does
    # not poll: nothing new lands on it).
    log = paging.page_before(session.mettle_rolls.select_related("character", "rolled_by", "twist"),
                             request.GET.get("before"), size=LOG_SIZE)
    context = {"campaign": membership.campaign, "session": session, "entries": log.rows,
               "log": log,
               "is_current": session.latest_pk == session.pk}
    return render(request, f"{LOG}#log" if request.htmx else LOG, context)
