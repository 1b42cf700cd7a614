"""Errant's own character page actions: moving an item between hand, handy, worn and the
containers (one action: a select and a button, keyboard and screen-reader friendly), and
using an item with Depletion or restoring it with Supply. With htmx the slots and the
numbers are swapped in place; without it the page reloads."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from characters.selectors import built_or_404
from config.parsing import parse_id
from rules.engine.errant.checks import check_dv, p_success, successes

from . import services
from .apps import KEY
from .builds import sheet_for
from .forms import MAX_ITEMS, CheckOddsForm


def _errant(request: HttpRequest, pk: int, *, edit: bool):
    def narrow(characters):
        mine = characters.editable_by(request.user) if edit else (
            characters.visible_to(request.user))
        return mine.with_progress()
    character = built_or_404(pk, narrow)
    if character.system != KEY:
        raise Http404("Not an Errant.")
    return character


def slots_context(character, *, message: str = "", done: str = "") -> dict:
    return {"character": character, "sheet": sheet_for(character), "can_edit": True,
            "move_message": message, "done": done}


def _answer(request, character, message: str, done: str) -> HttpResponse:
    if request.htmx:
        # A refusal is said in the swapped part (htmx swaps only 2xx answers).
        return render(request, "characters/errant/detail.html#slots",
                      slots_context(character, message=message, done=done))
    if message:
        messages.error(request, message)
    else:
        messages.success(request, done)
    return redirect(character)


@login_required
@require_POST
def item_move(request: HttpRequest, pk: int) -> HttpResponse:
    character = _errant(request, pk, edit=True)
    index = parse_id(request.POST.get("index"), high=MAX_ITEMS)
    name = request.POST.get("name", "")[:200]
    location = request.POST.get("location", "")[:20]
    message = ""
    try:
        if index is None:
            raise services.MoveRefused("Choose an item of this sheet.")
        character = services.item_move(character=character, index=index, name=name,
                                       location=location)
    except services.MoveRefused as refused:
        message = str(refused)
        character = _errant(request, pk, edit=True)
    return _answer(request, character, message, f"{name} moved; the numbers follow.")


@login_required
@require_POST
def item_use(request: HttpRequest, pk: int) -> HttpResponse:
    """Use an item once (Depletion or Burn -1), or restore a depleted one with Supply."""
    character = _errant(request, pk, edit=True)
    index = parse_id(request.POST.get("index"), high=MAX_ITEMS)
    name = request.POST.get("name", "")[:200]
    message = done = ""
    try:
        if index is None:
            raise services.MoveRefused("Choose an item of this sheet.")
        character, done = services.item_use(
            character=character, index=index, name=name,
            action=request.POST.get("action", "")[:20],
            seen=parse_id(request.POST.get("seen"), high=999))
    except services.MoveRefused as refused:
        message = str(refused)
        character = _errant(request, pk, edit=True)
    return _answer(request, character, message, done)


@login_required
@require_GET
def check_odds(request: HttpRequest, pk: int) -> HttpResponse:
    """The exact odds of a Check from the sheet (CR §Checks: above the DV and at most the
    Attribute; below DV 0, automatic), the DV with what the sheet adds (Encumbrance on
    physical Checks, expertise, Jettons). Read-only: whoever may read the sheet may ask."""
    character = _errant(request, pk, edit=False)
    sheet = sheet_for(character)
    form = CheckOddsForm(request.GET, sheet=sheet)
    odds = None
    if form.is_valid():
        data = form.cleaned_data
        enc = sheet.value("encumbrance_no_backpack" if data["backpack_off"] else "encumbrance")
        dv = check_dv(data["dv"], encumbrance=enc, physical=data["physical"],
                      expertise=data["expertise"], jettons=data["jettons"] or 0,
                      saving_throw=data["saving_throw"])
        attribute = sheet.value(data["attribute"])
        chance = p_success(attribute, dv.value)
        odds = {"dv": dv, "attribute": attribute, "key": data["attribute"],
                "chance": chance, "faces": successes(attribute, dv.value),
                "automatic": dv.value < 0,
                "low": max(dv.value, 0) + 1, "high": min(attribute, 20)}
    return render(request, "characters/errant/detail.html#check-odds",
                  {"character": character, "check_form": form, "odds": odds})
