"""An Errant's gear and money page: the purse (guilders, shillings, pennies, from the coin
ledger) and the slots its coins fill, buying from the GS price tables in a Settlement of
a tier (Rarity, the availability test, the money), selling a line at its resale value,
undoing the latest trade (market.py). Its player reads and trades; whoever may read the
sheet may read the page. With htmx the page part is swapped; without it the page
reloads. A refusal is said beside its field, with what was typed kept."""

from __future__ import annotations

import uuid

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from characters.models import Character, CoinEntry
from config.parsing import RequestKeyField, parse_id
from rules.engine.errant.data import QUALITY, SETTLEMENT_TIERS
from rules.engine.errant.gear import money_label

from . import market
from .builds import sheet_for
from .campaign_settings import DEFAULT_TIER, settlement_tier
from .inventory import carried_lines, line_dict
from .views import _errant

TIER_CHOICES = [(str(tier), f"{tier} {name}") for tier, name in SETTLEMENT_TIERS.items()]
GRADE_CHOICES = [(grade, f"{grade.capitalize()} (Quality {value})")
                 for grade, value in sorted(QUALITY.items(), key=lambda pair: -pair[1])]
TRADES_LISTED = 20


def _good_choices():
    groups: dict[str, list] = {}
    for good in market.goods().values():
        groups.setdefault(good.table, []).append((good.key, good.label))
    return [("", "Choose an item"), *groups.items()]


class BuyForm(forms.Form):
    tier = forms.TypedChoiceField(label="Settlement", choices=TIER_CHOICES, coerce=int,
                                  initial="1", error_messages={
                                      "required": "Choose the Settlement's tier.",
                                      "invalid_choice": "Choose a tier from 1 to 5."})
    good = forms.ChoiceField(label="Item", error_messages={
        "required": "Choose an item of the price tables.",
        "invalid_choice": "Choose an item of the price tables."})
    grade = forms.ChoiceField(label="Quality", choices=GRADE_CHOICES, initial="average",
                              help_text="Weapons and armour only: shoddy ½ price, Rarity -1; "
                                        "masterwork x2, Rarity +1.",
                              error_messages={"invalid_choice": "Choose shoddy, average or "
                                                                "masterwork."})
    quantity = forms.IntegerField(label="How many", min_value=1,
                                  max_value=market.QUANTITY_MAX, initial=1, error_messages={
                                      "invalid": "Say how many as a whole number.",
                                      "required": "Say how many.",
                                      "min_value": "Buy at least 1.",
                                      "max_value": f"Buy at most {market.QUANTITY_MAX} at "
                                                   "a time."},
                                  widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    test_availability = forms.BooleanField(
        label="The Guide asks for an availability test (D100)", required=False)
    request_key = RequestKeyField()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["good"].choices = _good_choices()
        for name in ("tier", "good", "grade"):
            self.fields[name].widget.attrs["class"] = "form-select form-select-sm"
        self.fields["quantity"].widget.attrs["class"] = "form-control form-control-sm"
        self.fields["test_availability"].widget.attrs["class"] = "form-check-input"


class SellForm(forms.Form):
    tier = forms.TypedChoiceField(label="Settlement", choices=TIER_CHOICES, coerce=int,
                                  error_messages={
                                      "required": "Choose the Settlement's tier.",
                                      "invalid_choice": "Choose a tier from 1 to 5."})
    request_key = RequestKeyField()


COIN_MAX = 99_999


def _coins(label: str) -> forms.IntegerField:
    return forms.IntegerField(label=label, min_value=0, max_value=COIN_MAX, required=False,
                              error_messages={"invalid": "A whole number of coins.",
                                              "min_value": "At least 0 coins.",
                                              "max_value": f"At most {COIN_MAX:,} coins."},
                              widget=forms.NumberInput(attrs={
                                  "inputmode": "numeric",
                                  "class": "form-control form-control-sm"}))


class MoneyForm(forms.Form):
    """Money found, paid or awarded: guilders, shillings and pennies (PR §Currency), gained
    or spent, and why."""

    direction = forms.ChoiceField(label="Gained or spent",
                                  choices=[("gained", "Gained"), ("spent", "Spent")],
                                  error_messages={"required": "Say gained or spent.",
                                                  "invalid_choice": "Say gained or spent."},
                                  widget=forms.Select(attrs={
                                      "class": "form-select form-select-sm"}))
    guilders = _coins("Guilders")
    shillings = _coins("Shillings")
    pennies = _coins("Pennies")
    note = forms.CharField(label="Why", max_length=300, error_messages={
        "required": "Say where the money came from or went.",
        "max_length": "Keep the reason to 300 characters."},
        widget=forms.TextInput(attrs={"class": "form-control form-control-sm"}))
    request_key = RequestKeyField()

    def pennies_total(self) -> int:
        data = self.cleaned_data
        total = ((data.get("guilders") or 0) * 100 + (data.get("shillings") or 0) * 10
                 + (data.get("pennies") or 0))
        return -total if data.get("direction") == "spent" else total


def _context(character, *, can_edit: bool, buy_form=None, sell_failure=None,
             money_form=None, status: str = "", error: bool = False) -> dict:
    sheet = sheet_for(character)
    pennies = character.coins_cp
    lines = []
    for line in carried_lines(character):
        gear = line_dict(line)
        priced = market.resale(gear)
        lines.append({"line": line, "gear": gear,
                      "resale": money_label(priced[1]) if priced else "",
                      "rarity": priced[2] if priced else None})
    entries = list(CoinEntry.objects.filter(character_id=character.pk)
                   .order_by("-created_at", "-pk")[:TRADES_LISTED])
    # In a campaign the market starts at the Settlement where the Company is (the Guide's
    # campaign setting); outside one, at a Hamlet, and the player chooses.
    campaign_tier = settlement_tier(character.campaign) if character.campaign_id else None
    tier = campaign_tier or DEFAULT_TIER
    return {
        "character": character, "sheet": sheet, "can_edit": can_edit,
        "purse": market.purse(pennies), "lines": lines, "entries": entries,
        "latest": market.latest_trade(character),
        "latest_money": market.latest_money(character),
        "money_form": money_form or MoneyForm(initial={"request_key": uuid.uuid4().hex}),
        "buy_form": buy_form or BuyForm(initial={"request_key": uuid.uuid4().hex,
                                                 "tier": str(tier)}),
        "tier_choices": TIER_CHOICES, "tier": str(tier), "campaign_tier": campaign_tier,
        "sell_failure": sell_failure or {},
        "request_key": uuid.uuid4().hex, "status": status, "status_error": error,
        # Whom a line may be handed to (the campaign side's hand-over, GameSystem's
        # generic campaigns/transfers.py): the other characters of the campaign.
        "give_targets": list(Character.objects.filter(campaign_id=character.campaign_id)
                             .exclude(pk=character.pk).order_by("name", "pk"))
        if character.campaign_id else [],
    }


def _answer(request, character, context: dict) -> HttpResponse:
    if request.htmx:
        return render(request, "characters/errant/gear.html#gear-page", context)
    if context["status"]:
        (messages.error if context["status_error"] else messages.success)(
            request, context["status"])
    if context["status_error"]:
        return render(request, "characters/errant/gear.html", context)
    return redirect("characters:errant_gear", character.pk)


@login_required
@require_GET
def gear_page(request: HttpRequest, pk: int) -> HttpResponse:
    character = _errant(request, pk, edit=False)
    can_edit = character.owner_id == request.user.pk
    return render(request, "characters/errant/gear.html",
                  _context(character, can_edit=can_edit))


@login_required
@require_POST
def buy(request: HttpRequest, pk: int) -> HttpResponse:
    character = _errant(request, pk, edit=True)
    form = BuyForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            trade = market.buy(character=character, key=data["good"], by=request.user,
                               grade=data["grade"], quantity=data["quantity"],
                               tier=data["tier"],
                               test_availability=data["test_availability"],
                               request_key=data["request_key"] or None)
        except market.TradeRefused as refused:
            form.add_error(refused.field if refused.field in form.fields else None,
                           str(refused))
        else:
            character = _errant(request, pk, edit=True)
            return _answer(request, character, _context(
                character, can_edit=True,
                status=f"{trade.entry.note}: {money_label(-trade.entry.amount_cp)}."))
    character = _errant(request, pk, edit=True)
    return _answer(request, character, _context(
        character, can_edit=True, buy_form=form, error=True,
        status="Nothing was bought: see the form."))


@login_required
@require_POST
def sell(request: HttpRequest, pk: int, item_pk: int) -> HttpResponse:
    character = _errant(request, pk, edit=True)
    form = SellForm(request.POST)
    message = ""
    if form.is_valid():
        try:
            trade = market.sell(character=character, item_pk=item_pk, by=request.user,
                                tier=form.cleaned_data["tier"],
                                request_key=form.cleaned_data["request_key"] or None)
        except market.TradeRefused as refused:
            message = str(refused)
        else:
            character = _errant(request, pk, edit=True)
            return _answer(request, character, _context(
                character, can_edit=True,
                status=f"{trade.entry.note}: {money_label(trade.entry.amount_cp)}."))
    else:
        message = " ".join(error for errors in form.errors.values() for error in errors)
    character = _errant(request, pk, edit=True)
    failure = {"item": item_pk, "message": message, "tier": request.POST.get("tier", "")[:2]}
    return _answer(request, character, _context(character, can_edit=True,
                                                sell_failure=failure, status=message,
                                                error=True))


def _undo_latest(request: HttpRequest, pk: int, posted: str, choose: str, take_back
                 ) -> HttpResponse:
    """Undo the ledger row named by the POST field `posted` with `take_back(character=,
    pk=, by=)` (a trade, a money entry), answered with the gear page and what happened."""
    character = _errant(request, pk, edit=True)
    row_pk = parse_id(request.POST.get(posted))
    try:
        if row_pk is None:
            raise market.TradeRefused(choose)
        entry = take_back(character=character, pk=row_pk, by=request.user)
    except market.TradeRefused as refused:
        status, error = str(refused), True
    else:
        status, error = f"{entry.note}.", False
    character = _errant(request, pk, edit=True)
    return _answer(request, character, _context(character, can_edit=True, status=status,
                                                error=error))


@login_required
@require_POST
def undo(request: HttpRequest, pk: int) -> HttpResponse:
    return _undo_latest(
        request, pk, "trade", "Choose the trade to undo.",
        lambda *, character, pk, by: market.undo(character=character, trade_pk=pk, by=by))


@login_required
@require_POST
def money(request: HttpRequest, pk: int) -> HttpResponse:
    """Record money gained or spent, with its reason (a coin-ledger entry)."""
    character = _errant(request, pk, edit=True)
    form = MoneyForm(request.POST)
    if form.is_valid():
        try:
            entry = market.record_money(character=character, pennies=form.pennies_total(),
                                        note=form.cleaned_data["note"], by=request.user,
                                        request_key=form.cleaned_data["request_key"] or None)
        except market.TradeRefused as refused:
            form.add_error(refused.field if refused.field in form.fields else "guilders",
                           str(refused))
        else:
            character = _errant(request, pk, edit=True)
            return _answer(request, character, _context(
                character, can_edit=True,
                status=f"{entry.note}: {entry.amount_cp:+d} p recorded."))
    character = _errant(request, pk, edit=True)
    return _answer(request, character, _context(
        character, can_edit=True, money_form=form, error=True,
        status="No money was recorded: see the form."))


@login_required
@require_POST
def money_undo(request: HttpRequest, pk: int) -> HttpResponse:
    return _undo_latest(
        request, pk, "entry", "Choose the entry to undo.",
        lambda *, character, pk, by: market.undo_money(character=character, entry_pk=pk,
                                                       by=by))
