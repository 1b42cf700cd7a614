"""The Roster page of an Errant campaign (issue 14; ER §Adjutants, §Rosters; DT §Improving
Attributes): which of their Errants each player plays (one swap a session), the adjutant
links, and training Attributes with the odds shown before the roll.

A player sees and acts for their own Errants; the Guide (and co-Guides) for everyone's.
Non-members and campaigns of another system: 404. A POST redirects back to the page with
a message; a refused or bad one re-renders the page with the message next to the field
and what was typed kept (status 200)."""

from __future__ import annotations

import uuid

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from campaigns.forms import add_service_error
from campaigns.models import IMP_ROLES
from campaigns.services import CampaignError
from campaigns.views import latest_session
from characters.systems.errant.campaign_settings import (
    TIER_CHOICES,
    settlement_tier,
)
from characters.systems.errant.models import ErrantAdjutant, ErrantTraining
from config.parsing import IdField, RequestKeyField
from rules.engine.errant import trades
from rules.engine.errant.data import ATTRIBUTE_KEYS, ATTRIBUTE_NAMES

from . import company, roster
from .access import errant_or_404, membership_or_404

PAGE = "campaigns/errant/roster.html"
TRAININGS_SHOWN = 10
ATTRIBUTE_CHOICES = [(key, f"{key} ({ATTRIBUTE_NAMES[key]})") for key in ATTRIBUTE_KEYS]


class SwapForm(forms.Form):
    character = IdField(error_messages={"required": "Choose the Errant to play."})
    request_key = RequestKeyField()


class AdjutantForm(forms.Form):
    master = IdField(error_messages={"required": "Choose the Errant who attracts an adjutant."})
    adjutant = IdField(label="Adjutant", error_messages={"required": "Choose the adjutant."})


class TrainingForm(forms.Form):
    character = IdField(error_messages={"required": "Choose the Errant who trains."})
    attribute = forms.ChoiceField(label="Attribute", choices=ATTRIBUTE_CHOICES,
                                  error_messages={
                                      "required": "Choose the Attribute to train.",
                                      "invalid_choice": "Choose one of phys, skill, mind "
                                                        "and pres."})
    trainer = forms.IntegerField(
        label="The trainer's Attribute (optional)", required=False,
        min_value=roster.TRAINER_MIN, max_value=roster.TRAINER_MAX,
        help_text="An Attribute is never trained higher than the trainer's.",
        error_messages=dict.fromkeys(
            ("invalid", "min_value", "max_value"),
            f"The trainer's Attribute is a whole number from {roster.TRAINER_MIN} to "
            f"{roster.TRAINER_MAX} (or leave it blank)."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    request_key = RequestKeyField()


class TradeForm(forms.Form):
    character = IdField(error_messages={"required": "Choose the Errant who trains."})
    trade = forms.CharField(label="Trade", max_length=roster.TRADE_LENGTH, error_messages={
        "required": "Name the Trade (smithing, fletching, cooking...).",
        "max_length": f"At most {roster.TRADE_LENGTH} characters."})
    extra = forms.IntegerField(
        label="Extra expenditure (pennies)", required=False, min_value=0,
        max_value=roster.MAX_PENNIES,
        help_text="Each extra 25% of the cost is +1.",
        error_messages=dict.fromkeys(("invalid", "min_value", "max_value"),
                                     f"Extra expenditure is 0 to {roster.MAX_PENNIES:,} "
                                     "pennies."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    situational = forms.IntegerField(
        label="Situational bonus", required=False, min_value=0, max_value=trades.BONUS_MAX,
        help_text=f"The Guide's; with the extra, at most +{trades.BONUS_MAX}.",
        error_messages=dict.fromkeys(("invalid", "min_value", "max_value"),
                                     f"A situational bonus is 0 to +{trades.BONUS_MAX}."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    request_key = RequestKeyField()


def roster_url(pk: int, anchor: str = "") -> str:
    return reverse("campaigns:errant_roster", args=[pk]) + (f"#{anchor}" if anchor else "")


def _runs(membership) -> bool:
    return membership.role in IMP_ROLES


def _trade_odds() -> list[dict]:
    """The exact odds of a Trade attempt for each bonus, before the roll (DT §Trades)."""
    rows = []
    for plus in range(trades.BONUS_MAX + 1):
        odds = trades.odds(plus)
        rows.append({"bonus": plus, "success": odds[trades.SUCCESS],
                     "next": odds[trades.NEXT_AUTOMATIC],
                     "success_percent": f"{float(odds[trades.SUCCESS]) * 100:.1f}%",
                     "next_percent": f"{float(odds[trades.NEXT_AUTOMATIC]) * 100:.1f}%"})
    return rows


def _errant_rows(membership, errants, *, training_form=None, adjutant_form=None,
                 trade_form=None) -> list[dict]:
    runs = _runs(membership)
    rows = []
    for errant in errants:
        if not runs and errant.owner_id != membership.user_id:
            continue
        renown = roster.renown_of(errant)
        link = roster.link_of(errant)
        ever = ErrantAdjutant.objects.filter(master_id=errant.pk).first()
        attempt, cost = roster.next_attempt(errant)
        mine = (training_form is not None and training_form.is_bound
                and training_form.data.get("character") == str(errant.pk))
        trade_mine = (trade_form is not None and trade_form.is_bound
                      and trade_form.data.get("character") == str(errant.pk))
        adjutant_mine = (adjutant_form is not None and adjutant_form.is_bound
                         and adjutant_form.data.get("master") == str(errant.pk))
        candidates = []
        if ever is None and renown >= roster.ADJUTANT_MIN_RENOWN and link is None:
            candidates = roster.adjutant_candidates(errant, errants)
        rows.append({
            "errant": errant, "renown": renown, "link": link, "ever": ever,
            "candidates": candidates,
            "can_attract": ever is None and link is None
            and renown >= roster.ADJUTANT_MIN_RENOWN,
            "odds": roster.training_odds(errant), "attempt": attempt, "cost": cost,
            "purse": errant.coins_cp,
            "trainings": list(ErrantTraining.objects.filter(character_id=errant.pk)
                              [:TRAININGS_SHOWN]),
            "latest_training": roster.standing_trainings(errant).order_by("-pk").first(),
            "training_form": training_form if mine else TrainingForm(
                initial={"character": errant.pk, "request_key": uuid.uuid4().hex}),
            "adjutant_form": adjutant_form if adjutant_mine else None,
            "trades": roster.trade_standings(errant),
            "trade_attempts": list(roster.ErrantTradeTraining.objects.filter(
                character_id=errant.pk)[:TRAININGS_SHOWN]),
            "latest_trade": roster.standing_trade_trainings(errant).order_by("-pk").first(),
            "trade_form": trade_form if trade_mine else TradeForm(
                initial={"character": errant.pk, "request_key": uuid.uuid4().hex}),
        })
    return rows


def _player_rows(membership, errants, session) -> list[dict]:
    runs = _runs(membership)
    players = {}
    for errant in errants:
        if runs or errant.owner_id == membership.user_id:
            players.setdefault(errant.owner_id, (errant.owner, []))[1].append(errant)
    rows = []
    for player, mine in players.values():
        active = roster.active_of(membership.campaign, player, mine)
        swapped = roster.swap_this_session(membership.campaign, player, session)
        # ER §Rosters: one swap per game session; after it only a new session offers
        # another (with nobody played, e.g. the Errant left, a first choice is open).
        rows.append({"player": player, "errants": mine, "active": active,
                     "swapped": swapped, "wait": swapped is not None and active is not None})
    return rows


def _page(request, membership, *, swap_error: str = "", swap_player: int | None = None,
          training_form=None, adjutant_form=None, trade_form=None,
          settlement_error: str = "",
          settlement_typed: str = "") -> HttpResponse:
    campaign = membership.campaign
    errants = company.members(campaign)
    session = latest_session(campaign)
    context = {
        "campaign": campaign, "membership": membership, "runs": _runs(membership),
        "session": session,
        "players": _player_rows(membership, errants, session),
        "rows": _errant_rows(membership, errants, training_form=training_form,
                             adjutant_form=adjutant_form, trade_form=trade_form),
        "trade_odds": _trade_odds(), "trade_levels": trades.LEVELS,
        "swap_error": swap_error, "swap_player": swap_player,
        "swap_key": uuid.uuid4().hex,
        "attribute_choices": ATTRIBUTE_CHOICES,
        "adjutant_min_renown": roster.ADJUTANT_MIN_RENOWN,
        "tier": settlement_tier(campaign), "tier_choices": TIER_CHOICES,
        "settlement_error": settlement_error, "settlement_typed": settlement_typed,
    }
    return render(request, PAGE, context)


def _done(request, pk: int, message: str, anchor: str) -> HttpResponse:
    messages.success(request, message)
    return redirect(roster_url(pk, anchor))


@login_required
@require_GET
def roster_page(request: HttpRequest, pk: int) -> HttpResponse:
    return _page(request, membership_or_404(request.user, pk))


@login_required
@require_POST
def roster_swap(request: HttpRequest, pk: int) -> HttpResponse:
    membership = membership_or_404(request.user, pk)
    form = SwapForm(request.POST)
    if not form.is_valid():
        return _page(request, membership, swap_error=" ".join(
            e for errors in form.errors.values() for e in errors))
    errant_or_404(membership, form.cleaned_data["character"])  # another player's: 404
    try:
        choice = roster.roster_choose(campaign=membership.campaign,
                                      character=form.cleaned_data["character"],
                                      by=request.user,
                                      request_key=form.cleaned_data["request_key"] or None)
    except CampaignError as error:
        owner = errant_or_404(membership, form.cleaned_data["character"]).owner_id
        return _page(request, membership, swap_error=error.message, swap_player=owner)
    who = choice.player.username
    if choice.is_swap:
        message = (f"{who} now plays {choice.to_character.display_name} instead of "
                   f"{choice.from_character.display_name if choice.from_character else '?'}"
                   f" (the swap of session {choice.session.number}).")
    else:
        message = f"{who} plays {choice.to_character.display_name}."
    return _done(request, pk, message, "roster")


@login_required
@require_POST
def adjutant_attach(request: HttpRequest, pk: int) -> HttpResponse:
    membership = membership_or_404(request.user, pk)
    form = AdjutantForm(request.POST)
    if form.is_valid():
        errant_or_404(membership, form.cleaned_data["master"])  # another player's: 404
        try:
            link = roster.adjutant_attach(campaign=membership.campaign,
                                          master=form.cleaned_data["master"],
                                          adjutant=form.cleaned_data["adjutant"],
                                          by=request.user)
        except CampaignError as error:
            add_service_error(form, error)
        else:
            return _done(request, pk, f"{link.adjutant.display_name} is now "
                                      f"{link.master.display_name}'s adjutant: they divide "
                                      "their XP, ¾ and ¼.", "adjutants")
    return _page(request, membership, adjutant_form=form)


@login_required
@require_POST
def adjutant_undo(request: HttpRequest, pk: int, link_pk: int) -> HttpResponse:
    membership = membership_or_404(request.user, pk)
    try:
        roster.adjutant_undo(campaign=membership.campaign, link_pk=link_pk, by=request.user)
    except CampaignError as error:
        messages.error(request, error.message)
        return redirect(roster_url(pk, "adjutants"))
    return _done(request, pk, "The adjutant link is undone.", "adjutants")


@login_required
@require_POST
def training(request: HttpRequest, pk: int) -> HttpResponse:
    membership = membership_or_404(request.user, pk)
    form = TrainingForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        errant_or_404(membership, data["character"])  # another player's: 404
        try:
            attempt = roster.train(campaign=membership.campaign, character=data["character"],
                                   attribute=data["attribute"], trainer=data["trainer"],
                                   by=request.user, request_key=data["request_key"] or None)
        except CampaignError as error:
            add_service_error(form, error)
        else:
            dice = ", ".join(str(d) for d in attempt.dice)
            outcome = (f"{attempt.attribute} rises to {attempt.before + 1}" if attempt.raised
                       else f"{attempt.attribute} stays {attempt.before}")
            return _done(request, pk, f"{attempt.character.display_name} trained "
                                      f"{attempt.attribute} (attempt {attempt.attempt}, "
                                      f"{attempt.cost:,} p): 5D4 {dice}, the lowest dropped: "
                                      f"{attempt.total} against {attempt.before}: {outcome}.",
                         f"training-{attempt.character_id}")
    return _page(request, membership, training_form=form)


@login_required
@require_POST
def training_undo(request: HttpRequest, pk: int, training_pk: int) -> HttpResponse:
    membership = membership_or_404(request.user, pk)
    try:
        attempt = roster.training_undo(campaign=membership.campaign, training_pk=training_pk,
                                       by=request.user)
    except CampaignError as error:
        messages.error(request, error.message)
        return redirect(roster_url(pk, "training"))
    return _done(request, pk, f"Training attempt {attempt.attempt} ({attempt.attribute}) is "
                              f"undone: {attempt.cost:,} p back in the purse.",
                 f"training-{attempt.character_id}")


@login_required
@require_POST
def settlement(request: HttpRequest, pk: int) -> HttpResponse:
    """The Guide says where the Company is (the tier of the Settlement): the campaign
    setting the Errants' market starts from. A player: 403."""
    membership = membership_or_404(request.user, pk)
    if not _runs(membership):
        raise PermissionDenied("Only the Guide says where the Company is.")
    typed = request.POST.get("settlement_tier", "")[:20]
    try:
        tier = roster.settlement_set(campaign=membership.campaign, tier=typed, by=request.user)
    except CampaignError as error:
        return _page(request, membership, settlement_error=error.message,
                     settlement_typed=typed)
    label = dict(TIER_CHOICES)[tier]
    return _done(request, pk, f"The Company is now in a tier {label}: the market starts "
                              "there.", "settlement")


@login_required
@require_POST
def trade(request: HttpRequest, pk: int) -> HttpResponse:
    membership = membership_or_404(request.user, pk)
    form = TradeForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        errant_or_404(membership, data["character"])  # another player's: 404
        try:
            attempt = roster.learn_trade(
                campaign=membership.campaign, character=data["character"],
                trade=data["trade"], extra=data["extra"] or 0,
                situational=data["situational"] or 0, by=request.user,
                request_key=data["request_key"] or None)
        except CampaignError as error:
            add_service_error(form, error)
        else:
            rolled = ("an automatic success (a 7-9 before)" if attempt.automatic else
                      f"2D6 {attempt.dice[0]}, {attempt.dice[1]} + {attempt.bonus} = "
                      f"{sum(attempt.dice) + attempt.bonus}")
            return _done(request, pk, f"{attempt.character.display_name}, {attempt.trade} "
                                      f"({attempt.level}, {attempt.cost + attempt.extra:,} p):"
                                      f" {rolled}: {attempt.get_outcome_display()}.",
                         f"training-{attempt.character_id}")
    return _page(request, membership, trade_form=form)


@login_required
@require_POST
def trade_undo(request: HttpRequest, pk: int, attempt_pk: int) -> HttpResponse:
    membership = membership_or_404(request.user, pk)
    try:
        attempt = roster.trade_undo(campaign=membership.campaign, attempt_pk=attempt_pk,
                                    by=request.user)
    except CampaignError as error:
        messages.error(request, error.message)
        return redirect(roster_url(pk, "training"))
    return _done(request, pk, f"The {attempt.trade} attempt is undone: "
                              f"{attempt.cost + attempt.extra:,} p back in the purse.",
                 f"training-{attempt.character_id}")
