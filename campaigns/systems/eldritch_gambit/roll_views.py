"""Checks and Rolls from a character's page, and the session's roll log.

Who may roll for a character: its player, and the Imp and co-Imps of its campaign (the
characters they may see, Character.objects.visible_to); anyone else gets 404. The session
log is for the campaign's members (404 for others). Every form also works without
JavaScript (the whole page comes back); with htmx only the panel it belongs to is swapped,
and the odds follow the inputs without rolling.
"""

from __future__ import annotations

import uuid
from fractions import Fraction
from functools import cache

from django.contrib.auth.decorators import login_required
from django.db.models import OuterRef, Q, Subquery
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from campaigns.models import IMP_ROLES
from campaigns.polling import (
    conditional_poll,
    members_of,
    rows_of,
    session_of_log,
    unchanged_since,
)
from characters.models import Character, XpEntry
from characters.systems.eldritch_gambit.builds import sheet_for
from characters.systems.eldritch_gambit.models import EldritchGambitCharacter
from config.parsing import parse_id, request_key
from rules.engine.eldritch_gambit.checks import check_odds, percent
from rules.engine.rolling import RollError
from rules.systems import ELDRITCH_GAMBIT

from . import roll_services
from .access import membership_or_404
from .roll_forms import (
    ACTION_BY_SLUG,
    ATTACK_MELEE,
    ATTACK_RANGED,
    CheckForm,
    FallForm,
    weapon_fill,
)
from .roll_kinds import (
    FORM_KINDS,
    clash_refusal,
    damage_lines,
    final_outcome,
    rally_allies,
    roll_kind,
)
from .roll_services import RollRefused
from .rolls import Roll

PLAY = "campaigns/eldritch_gambit/play.html"
LOG = "campaigns/eldritch_gambit/session_log.html"
RECENT = 20
LOG_SIZE = 100


def _character(request: HttpRequest, pk: int) -> EldritchGambitCharacter:
    return get_object_or_404(
        EldritchGambitCharacter.objects.visible_to(request.user).with_progress()
        .select_related("campaign"), pk=pk)


def _key() -> str:
    return uuid.uuid4().hex


def _odds_rows(spec) -> dict:
    odds = check_odds(spec)

    def show(chance: Fraction) -> dict:
        return {"percent": percent(chance), "fraction": f"{chance.numerator} in "
                f"{chance.denominator}" if chance not in (0, 1) else str(chance)}

    return {
        "spec": spec,
        "success": show(odds.p_success),
        "failure": show(odds.p_failure),
        "critical": show(odds.p_critical),
        "lost": show(odds.p_fail_after_success_gambit),
        "saved": show(odds.p_saved_by_gambit),
        "botch": show(odds.p_botch),
    }


def _check_initial(sheet, action=None) -> dict:
    attribute = "dex"
    if action and action.attributes:
        attribute = action.attributes[0].lower()
    return {"action": action.slug if action else "", "attribute": attribute,
            "ocs": bool(action and action.always_d20), "bonus": 0, "penalty": 0,
            "difficulty": "10", "request_key": _key()}


TYPED_FIELDS = ("action", "attribute", "ocs", "bonus", "penalty", "difficulty", "df_other",
                "weapon")


def _typed_key(character) -> str:
    return f"rolls:check-typed:{character.pk}"


def _keep_typed(request, character, form: CheckForm) -> None:
    """What the player typed in the Check form, kept in their session so that it survives
    every Roll of the page and a Gambit without JavaScript (each posts the whole page
    back, and only the Check form carries these fields). Valid input only; the session
    is written only when that changed (a player rolls the same Check again and again)."""
    if request is None or not form.is_valid():
        return
    typed = {name: form.data.get(name, "") for name in TYPED_FIELDS if name != "ocs"}
    typed["ocs"] = bool(form.cleaned_data["ocs"])
    if request.session.get(_typed_key(character)) != typed:
        request.session[_typed_key(character)] = typed


def _check_form(character, sheet, data=None, request=None) -> CheckForm:
    url = reverse("characters:check_action", args=[character.pk])
    if data is None:
        initial = _check_initial(sheet)
        if request is not None:
            typed = request.session.get(_typed_key(character)) or {}
            initial.update({k: v for k, v in typed.items() if k in TYPED_FIELDS})
        return CheckForm(initial=initial, sheet=sheet, action_url=url,
                         weapons=damage_lines(sheet))
    return CheckForm(data, sheet=sheet, action_url=url, weapons=damage_lines(sheet))


def _forms(character, sheet, typed=None, request=None, **bound) -> dict:
    """Every form of the page. A Roll's request carries what is typed in the other small
    forms too (hx-include ".keep-typed"): they come back as typed, without errors."""
    forms = {"check_form": _check_form(character, sheet, request=request)}
    armed = sheet.weapons or sheet.natural_attacks
    defaults = {"rolloff_form": {"attacker": armed[0].damage if armed else "1d4",
                                 "defender": "1d6"}}
    for kind in FORM_KINDS:
        name, form_class, prefix = kind.form_name, kind.form_class, kind.prefix
        initial = dict(defaults.get(name, {}))
        if typed is not None:
            for field in form_class.base_fields:
                key = f"{prefix}-{field}"
                if key in typed:
                    initial[field] = typed.get(key)
            if initial and form_class is FallForm:
                initial["plummet"] = f"{prefix}-plummet" in typed
        forms[name] = form_class(prefix=prefix, initial=initial)
    forms.update(bound)
    return forms


def _odds_for(form: CheckForm):
    if not form.is_bound:
        form = CheckForm({**form.initial, "request_key": ""}, sheet=form.sheet,
                         weapons=form.weapons.items())
    if not form.is_valid():
        return None
    # Whether the DF is the one typed in "Other DF" (the odds say so, as the list does).
    return {**_odds_rows(form.spec()), "typed_df": form.cleaned_data["df_other"] is not None}


def _context(request, character, sheet, **extra) -> dict:
    """What the Check and Rolls panels show; the whole page adds _page_context."""
    context = {
        "character": character, "sheet": sheet,
        "request_key": _key(),
        "damage_lines": damage_lines(sheet),
    }
    bound = {k: v for k, v in extra.items() if k.endswith("_form")}
    typed = extra.pop("typed", None)
    # The Rally's allies (their CHA), read only when the Rolls panel is rendered.
    context["rally_allies"] = lambda: rally_allies(character)
    # Fallen or Dead: WP on allies' Rolls (Characters > Defenses > Willpower).
    context["pays_for_allies"] = (character.campaign_id is not None
                                  and roll_services.may_pay_for_allies(sheet))
    context["ally_rolls"] = lambda: _ally_rolls(character)
    context["rally_ally"] = (typed.get("ally", "") if typed is not None
                             and typed.get("what") == "rally" else "")
    context.update(_forms(character, sheet, typed, request, **bound))
    context.update({k: v for k, v in extra.items() if k not in bound})
    context.setdefault("odds", _odds_for(context["check_form"]))
    check = context.get("check")
    if check is not None:
        p = roll_services.spec_of(check).p_success
        context["gambit_chance"] = percent(p)  # Critical after a success, Success after not
        context["gambit_risk"] = percent(1 - p)  # Failure after a success, Botch after not
        gambit = getattr(check, "gambit", None)
        final = final_outcome(check)
        context["final_outcome"] = final
        context["final_outcome_name"] = Roll.Outcome(final).label
        if gambit is not None:
            # The Gambit's die on its own: did it meet the DF? (Basics > Checks > Gambits)
            context["gambit_die_succeeds"] = roll_services.spec_of(check).succeeds(
                gambit.dice[0])
        else:
            context["gambit_key"] = _key()  # the same on a double click of its button
        # The Action's suggested outcome (Scenes > Actions), e.g. a Failure's clash.
        context["outcome_text"] = check.detail.get(f"{final}_text", "")
        context["check_weapon"] = _check_weapon(sheet, check)
        # A Failure offers the clash's damage only after a melee Attack (clash_refusal).
        context["clash"] = final == Roll.Outcome.FAILURE and not clash_refusal(check)
    context["action"] = context["check_form"].chosen_action if context["check_form"].is_bound \
        else None
    return context


ALLY_ROLLS = 10


def _ally_rolls(character) -> list[Roll]:
    """The allies' recent Rolls a Fallen or Dead character may pay a Reroll of: the
    damage and Rally Rolls of the campaign's other characters (those a Reroll is for),
    not yet Rerolled, newest first."""
    if character.campaign_id is None:
        return []
    rolls = (Roll.objects.filter(character__campaign_id=character.campaign_id,
                                 kind__in=(Roll.Kind.DAMAGE, Roll.Kind.RALLY),
                                 reroll__isnull=True)
             .exclude(character_id=character.pk).select_related("character")[:ALLY_ROLLS])
    return [roll for roll in rolls if roll.detail.get("rerollable")]


def _page_context(character) -> dict:
    """What only the whole page shows beside the panels: the session its rolls are
    logged in and the roll log (which an htmx answer's panels leave alone: the log
    polls for itself when the panel's answer says "rolls-changed")."""
    return {"session": roll_services.current_session(character),
            "recent": _recent(character)}


def _recent(character: Character):
    return list(Roll.objects.filter(character=character)
                .select_related("character", "rolled_by", "reroll", "gambit",
                                "session")[:RECENT])


def _render(request, context, partial: str, status: int = 200) -> HttpResponse:
    if request.htmx:
        template = f"{PLAY}#{partial}"
    else:
        template = PLAY
        context.update(_page_context(context["character"]))
    response = render(request, template, context, status=status)
    if request.htmx and status == 200 and context.get("logged"):
        response["HX-Trigger"] = "rolls-changed"
    return response


@login_required
@require_GET
def play(request: HttpRequest, pk: int) -> HttpResponse:
    character = _character(request, pk)
    sheet = sheet_for(character)
    context = _context(request, character, sheet)
    return render(request, PLAY, {**context, **_page_context(character)})


@login_required
@require_POST
def check_odds_view(request: HttpRequest, pk: int) -> HttpResponse:
    """The odds of the Check as typed: nothing is rolled or saved."""
    character = _character(request, pk)
    sheet = sheet_for(character)
    form = _check_form(character, sheet, request.POST)
    return render(request, f"{PLAY}#odds-body", {
        "character": character, "odds": _odds_for(form), "check_form": form,
        "action": form.chosen_action if form.is_valid() else None})


def _check_weapon(sheet, check):
    """The weapon a Check was rolled with, as (value, line) for its damage Roll; None if
    none, or if the character's weapons have changed since (the value names another)."""
    value = check.detail.get("weapon_value")
    line = dict(damage_lines(sheet)).get(value) if isinstance(value, str) else None
    if line is None or line.title != check.detail.get("weapon"):
        return None
    return value, line


@login_required
@require_POST
def check_action(request: HttpRequest, pk: int) -> HttpResponse:
    """A new Action chosen: its usual Attribute and d20 (Attack, Grapple, Dodge), the
    rest as typed. Or a weapon chosen "With" (its select, or the "Use its Hit" button
    without JavaScript): an Attack with DEX, the Bonus filled from its Hit."""
    character = _character(request, pk)
    sheet = sheet_for(character)
    data = request.POST.copy()
    chose_weapon = ("use_weapon" in data
                    or request.htmx.trigger_name == "weapon")
    weapon = dict(damage_lines(sheet)).get(data.get("weapon", "")) if chose_weapon else None
    if weapon is not None and weapon.has_attack_check:
        for name, value in weapon_fill(sheet, weapon, data.get("action", "")).items():
            data[name] = value  # QueryDict.update would append
    elif not chose_weapon:
        action = ACTION_BY_SLUG.get(data.get("action", ""))
        defaults = _check_initial(sheet, action)
        data["attribute"] = defaults["attribute"]
        if defaults["ocs"]:
            data["ocs"] = "on"
        if data.get("action") not in (ATTACK_MELEE, ATTACK_RANGED):
            data["weapon"] = ""  # no weapon to name in an Insight or a Sneak
    form = _check_form(character, sheet, data)
    _keep_typed(request, character, form)
    context = _context(request, character, sheet, check_form=form)
    return _render(request, context, "check-panel")


@login_required
@require_POST
def check_roll(request: HttpRequest, pk: int) -> HttpResponse:
    character = _character(request, pk)
    sheet = sheet_for(character)
    form = _check_form(character, sheet, request.POST)
    if not form.is_valid():
        context = _context(request, character, sheet, check_form=form)
        return _render(request, context, "check-panel", status=422 if not request.htmx else 200)
    _keep_typed(request, character, form)
    try:
        check = roll_services.make_check(
            character=character, by=request.user, spec=form.spec(), label=form.label(),
            action=form.chosen_action, detail=form.detail(),
            request_key=form.cleaned_data.get("request_key") or None)
    except RollRefused as error:
        form.add_error(None, error.message)
        return _render(request, _context(request, character, sheet, check_form=form),
                       "check-panel")
    # A fresh form key for the next Check; what was typed stays.
    data = request.POST.copy()
    data["request_key"] = _key()
    next_form = _check_form(character, sheet, data)
    next_form.is_valid()
    context = _context(request, character, sheet, check_form=next_form, check=check,
                       logged=True)
    return _render(request, context, "check-panel")


@login_required
@require_POST
def gambit(request: HttpRequest, pk: int, roll_pk: int) -> HttpResponse:
    character = _character(request, pk)
    sheet = sheet_for(character)
    check = get_object_or_404(Roll, pk=roll_pk, character=character, kind=Roll.Kind.CHECK)
    error = None
    try:
        roll_services.call_gambit(check=check, by=request.user,
                                  request_key=request_key(request.POST, "gambit_key"))
    except RollRefused as refused:
        error = refused.message
    check.refresh_from_db()
    # The Gambit button submits the Check form (form="check-form"), with or without
    # JavaScript: what is typed there comes back as typed.
    data = request.POST.copy()
    form = _check_form(character, sheet, data) if data.get("attribute") else None
    extra = {}
    if form is not None:  # shown as typed, even if it has become invalid since the roll
        _keep_typed(request, character, form)
        extra["check_form"] = form
    context = _context(request, character, sheet, check=check, gambit_error=error,
                       logged=error is None, **extra)
    return _render(request, context, "check-panel")


@login_required
@require_POST
def roll_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Damage (normal, Critical or a clash's) for a listed weapon, Rally, a fall, fire,
    Buildup, a Roll-off. `what` names the Roll's kind (roll_kinds.py; 404 for any other);
    the small forms carry their own fields. A refused Roll (RollRefused: a Rally while
    Burning, a clash after anything but a failed melee Attack) comes back with its
    message and nothing rolled."""
    character = _character(request, pk)
    items = list(character.items.select_related("catalog_item"))
    sheet = sheet_for(character, items)
    key = request_key(request.POST)  # a forged key is a 400 before anything else
    kind = roll_kind(request.POST.get("what", ""))
    form = kind.bind(request.POST)
    bound = {kind.form_name: form} if form is not None else {}
    if form is None or form.is_valid():
        try:
            result = kind.make(character=character, by=request.user, sheet=sheet,
                               data=form.cleaned_data if form is not None else request.POST,
                               request_key=key)
        except RollRefused as refused:  # a Rally while Burning, a clash with no Failure
            context = _context(request, character, sheet, typed=request.POST,
                               roll_error=refused.message, roll_error_what=kind.what, **bound)
            return _render(request, context, "rolls-panel",
                           status=200 if request.htmx else 409)
        except RollError as error:
            if form is None or kind.refused_field is None:
                raise
            form.add_error(kind.refused_field, str(error))
        else:
            if kind.logs == Roll.Kind.BUILDUP:  # the one Roll that writes the character
                character.refresh_from_db(fields=["poison_buildup", "statuses"])
                sheet = sheet_for(character, items)
            context = _context(request, character, sheet, result=result,
                               logged=True, typed=request.POST, **bound)
            return _render(request, context, "rolls-panel")
    context = _context(request, character, sheet, typed=request.POST, **bound)
    return _render(request, context, "rolls-panel", status=200 if request.htmx else 422)


@login_required
@require_POST
def reroll_view(request: HttpRequest, pk: int, roll_pk: int) -> HttpResponse:
    character = _character(request, pk)
    original = get_object_or_404(Roll, pk=roll_pk, character=character)
    error = None
    result = None
    try:
        result = roll_services.reroll(roll=original, by=request.user,
                                      request_key=request_key(request.POST))
    except RollRefused as refused:
        error = refused.message
    character.refresh_from_db()
    sheet = sheet_for(character)
    context = _context(request, character, sheet, result=result or original,
                       reroll_error=error, logged=error is None, typed=request.POST)
    return _render(request, context, "rolls-panel", status=200 if error is None or
                   request.htmx else 409)


@login_required
@require_POST
def ally_reroll_view(request: HttpRequest, pk: int, roll_pk: int) -> HttpResponse:
    """A Reroll of an ally's Roll paid with this character's WP, from its own Play page
    (the page its player can open: the ally's is not theirs to see). The character must
    be Fallen or Dead (Characters > Defenses > Willpower); roll_services.reroll refuses
    otherwise, and a Roll outside the character's campaign is 404."""
    payer = _character(request, pk)
    if payer.campaign_id is None:
        raise Http404("No ally outside a campaign.")
    original = get_object_or_404(
        Roll.objects.exclude(character_id=payer.pk), pk=roll_pk,
        character__campaign_id=payer.campaign_id)
    error = None
    result = None
    try:
        result = roll_services.reroll(roll=original, by=request.user, payer=payer,
                                      request_key=request_key(request.POST))
    except RollRefused as refused:
        error = refused.message
    payer.refresh_from_db()
    sheet = sheet_for(payer)
    context = _context(request, payer, sheet, result=result, ally_reroll_error=error,
                       ally_reroll_of=original.pk, logged=error is None, typed=request.POST)
    return _render(request, context, "rolls-panel", status=200 if error is None or
                   request.htmx else 409)


def _newest(model) -> Subquery:
    """The character's newest row: rolls and XP entries are only ever added (a Gambit, a
    Reroll, a reversal are new rows; only deleting the character deletes them), so the
    newest one says whether any came."""
    return Subquery(model.objects.filter(character=OuterRef("pk")).order_by("-pk")
                    .values("pk")[:1])


@cache
def _log_rows():
    """The character's roll log's version (its whole row: WP may be written without
    touching updated_at; its newest roll and XP entry) beside each member of its campaign
    (campaigns.polling.members_of): rows_of's columns, built once."""
    columns = [field.attname for field in EldritchGambitCharacter._meta.concrete_fields]
    return members_of(EldritchGambitCharacter.objects.annotate(
        last_roll=_newest(Roll), last_xp=_newest(XpEntry))).values_list(
        *columns, "last_roll", "last_xp")


@login_required
@require_GET
@conditional_poll
def character_log(request: HttpRequest, pk: int) -> HttpResponse:
    """The character's recent rolls (polled by its page), and its WP out of band; 304
    when none of them changed (campaigns.polling)."""
    # Its owner's or its campaign's Imps' poll reads the version with who asks in one
    # query built once (_log_rows); anyone else's (a character outside any campaign)
    # asks visible_to, as the page does.
    user = request.user
    version = list(_log_rows().filter(Q(owner_id=user.pk) | Q(poll_role__in=IMP_ROLES),
                                      poll_member=user.pk, pk=pk)[:1])
    if not version:
        version = rows_of(EldritchGambitCharacter.objects.visible_to(user).filter(pk=pk)
                          .annotate(last_roll=_newest(Roll), last_xp=_newest(XpEntry)),
                          "last_roll", "last_xp")
    if not version:
        raise Http404("No such character.")
    unchanged_since(request, version)
    character = _character(request, pk)
    return render(request, f"{PLAY}#roll-log", {
        "character": character, "recent": _recent(character), "sheet": sheet_for(character),
        "request_key": _key(), "oob": True})


@login_required
@require_GET
@conditional_poll
def session_log(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The session's rolls; 304 to a poll when none came, went or changed their
    character (campaigns.polling)."""
    session = session_of_log(request, pk, number, "rolls", system=ELDRITCH_GAMBIT)
    membership = membership_or_404(request.user, pk)
    # A page of LOG_SIZE rolls, newest first; ?before=<roll> pages back through older ones
    # (that page does not poll: nothing new ever lands on it).
    before = parse_id(request.GET.get("before"))
    rolls = session.rolls.select_related("character", "rolled_by", "gambit", "reroll")
    if before is not None:
        rolls = rolls.filter(pk__lt=before)
    entries = list(rolls[:LOG_SIZE + 1])
    older = entries[LOG_SIZE - 1].pk if len(entries) > LOG_SIZE else None
    context = {"campaign": membership.campaign, "session": session,
               "entries": entries[:LOG_SIZE], "older": older, "paged": before is not None,
               "page_size": LOG_SIZE,
               "is_current": session.latest_pk == session.pk}
    template = f"{LOG}#log" if request.htmx else LOG
    return render(request, template, context)
