"""A METTLE Core character's inventory page: its gear lines (worn, carried, packed,
dropped), buying from the Resources tables with Credit, free-form items, the Credit
ledger with its undo, and the numbers that follow (Load, Encumbered, Soak, POISE).

Owner only (others get 404), as Eldritch Gambit's inventory. Every action is a plain
POST that redirects back, and works the same from htmx: then the answer is the page's
`inventory-page` region (the page never reloads). A refused action says why beside its
field and keeps what was typed. The writes are inventory.py's; giving a line to the
party is campaigns/systems/mettle/transfer_views.py's (the generic hand-over).
"""

from __future__ import annotations

import uuid

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from characters.inventory import InventoryError
from characters.inventory_forms import GiveForm
from characters.inventory_views import LineActions, first_error, refuse
from characters.models import Character
from config.parsing import RequestKeyField, parse_id

from . import inventory as services
from .builds import sheet_for
from .models import CreditEntry, MettleCharacter

TEMPLATE = "characters/mettle/inventory.html"
SECTIONS = ("Weapons", "Armour", "Common loads", "Medicine", "Standard kits", "Vehicles",
            "Mounts")


def _container_field() -> forms.CharField:
    return forms.CharField(label="Into", required=False)


def _clean_container(value: str):
    value = (value or "").strip()
    if not value:
        return None
    number = parse_id(value)
    if number is None:
        raise ValidationError("Choose a container of this character's gear.", code="invalid")
    return number


class BuyForm(forms.Form):
    key = forms.CharField(label="Item", error_messages={"required": "Choose an item to buy."})
    container = _container_field()
    request_key = RequestKeyField()

    def clean_container(self):
        return _clean_container(self.cleaned_data["container"])


class FreeForm(forms.Form):
    name = forms.CharField(label="Name", max_length=services.NAME_LENGTH, error_messages={
        "required": "Give the item a name.",
        "max_length": f"Keep the name to {services.NAME_LENGTH} characters."})
    load = forms.IntegerField(label="Load", min_value=0, max_value=services.MAX_ITEM_LOAD,
                              error_messages={"invalid": "Load is a whole number.",
                                              "required": "Give its Load (0 for small things).",
                                              "min_value": "Load is 0 or more.",
                                              "max_value": f"Load is at most "
                                                           f"{services.MAX_ITEM_LOAD}."})
    quantity = forms.IntegerField(label="How many", min_value=1, max_value=10_000,
                                  error_messages={"invalid": "Say how many as a whole number.",
                                                  "required": "Say how many.",
                                                  "min_value": "At least 1.",
                                                  "max_value": "At most 10000."})
    container = _container_field()

    def clean_container(self):
        return _clean_container(self.cleaned_data["container"])


class MoveForm(forms.Form):
    container = _container_field()

    def clean_container(self):
        return _clean_container(self.cleaned_data["container"])


class WearForm(forms.Form):
    on = forms.BooleanField(required=False)


def _character(request: HttpRequest, pk: int) -> MettleCharacter:
    return get_object_or_404(MettleCharacter.objects.editable_by(request.user), pk=pk)


def _rows(lines, sheet) -> dict:
    down = services.on_the_ground(lines)
    by_pk = {line.pk: line for line in lines}
    rows = []
    for line in lines:
        weapon = services.weapon_of(line) if line.kind == services.Kind.WEAPON else None
        rows.append({
            "line": line, "load": services.unit_load(line) * line.quantity,
            "weapon": weapon, "container": by_pk.get(line.container_id),
            "is_container": services.is_container(line), "down": line.pk in down,
            "wearable": line.kind == services.Kind.ARMOR and line.name in services.ARMOR_BY_NAME,
        })
    return {
        "worn": [r for r in rows if r["line"].equipped and not r["down"]],
        "carried": [r for r in rows if not r["line"].equipped and not r["down"]],
        "dropped": [r for r in rows if r["down"]],
    }


def _table(character) -> list[dict]:
    sections = []
    for section in SECTIONS:
        rows = []
        for row in services.TABLE:
            if row.section != section:
                continue
            verdict = services.verdict_for(character, row)
            rows.append({"row": row, "verdict": verdict.value if verdict else "free"})
        sections.append({"name": section, "rows": rows})
    return sections


def _context(request: HttpRequest, character: MettleCharacter, **extra) -> dict:
    character = _character(request, character.pk)
    lines = services.lines_of(character)
    sheet = sheet_for(character, lines)
    context = {
        "character": character,
        "sheet": sheet,
        "groups": _rows(lines, sheet),
        "item_count": len(lines),
        "containers": [line for line in lines if services.is_container(line)],
        "table": _table(character),
        "credit_now": services.current_credit(character),
        "credit_lost": services.credit_lost_of(character),
        "ledger": CreditEntry.objects.filter(character=character).select_related(
            "created_by").order_by("-created_at", "-pk"),
        "reversed": set(CreditEntry.objects.filter(character=character,
                                                   reverses__isnull=False)
                        .values_list("reverses_id", flat=True)),
        "give_targets": list(Character.objects.filter(campaign_id=character.campaign_id)
                             .exclude(pk=character.pk).order_by("name"))
        if character.campaign_id else [],
        "buy_form": BuyForm(),
        "free_form": FreeForm(initial={"load": 0, "quantity": 1}),
        "request_key": uuid.uuid4().hex,
        "failure": None,
        "status": "",
        "status_error": False,
    }
    context.update(extra)
    return context


def _answer(request, character, message: str, *, error: bool = False, **extra):
    if request.htmx:
        return render(request, f"{TEMPLATE}#inventory-page", _context(
            request, character, status=message, status_error=error, **extra))
    if not error:
        messages.success(request, message)
        return redirect(reverse("characters:mettle_inventory", args=[character.pk]))
    messages.error(request, f"Nothing was changed: {message}")
    return render(request, TEMPLATE, _context(request, character, **extra))


@login_required
@require_GET
def inventory_detail(request: HttpRequest, pk: int) -> HttpResponse:
    character = _character(request, pk)
    return render(request, TEMPLATE, _context(request, character))


@login_required
@require_POST
def inventory_buy(request: HttpRequest, pk: int) -> HttpResponse:
    character = _character(request, pk)
    form = BuyForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            bought = services.item_buy(character=character, by=request.user, key=data["key"],
                                       container=data["container"],
                                       request_key=data["request_key"] or None)
        except InventoryError as error:
            refuse(form, error)
        else:
            if bought.item is None:
                return _answer(request, character, "That purchase was recorded already.")
            name = bought.item.name
            if bought.entry is not None and bought.entry.change:
                message = (f"Bought {name}: one digit over Credit, so a point of Credit is "
                           "lost until the next campaign.")
            elif bought.entry is not None:
                message = f"Bought {name}, within Credit."
            else:
                message = f"Added {name} (no Cost in the table)."
            return _answer(request, character, message)
    return _answer(request, character, first_error(form), error=True, buy_form=form)


@login_required
@require_POST
def inventory_add_free(request: HttpRequest, pk: int) -> HttpResponse:
    character = _character(request, pk)
    form = FreeForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            line = services.item_add_free(character=character, name=data["name"],
                                          load=data["load"], quantity=data["quantity"],
                                          container=data["container"])
        except InventoryError as error:
            refuse(form, error)
        else:
            return _answer(request, character,
                           f"Added {services.describe(line.name, line.quantity)}.")
    return _answer(request, character, first_error(form), error=True, free_form=form)


def _line_failed(request, character, item_pk, error: InventoryError, form):
    if form is not None:
        return None
    return _answer(request, character, error.message, error=True,
                   failure={"item": item_pk, "message": error.message})


def _line_invalid(request, character, item_pk, form):
    message = first_error(form)
    return _answer(request, character, message, error=True,
                   failure={"item": item_pk, "message": message,
                            "typed": {name: form.data.get(name, "") for name in form.fields}})


# The per-line actions (characters/inventory_views.py): the whole page region answers.
item_action = LineActions(
    character=_character,
    done=lambda request, character, item_pk, message: _answer(request, character, message),
    failed=_line_failed, invalid=_line_invalid, services=services)


@item_action.view()
def item_drop(request, character, item_pk, data):
    line = services.item_drop(character=character, item=item_pk)
    return f"{line.name} dropped."


item_pick_up = item_action.pick_up()


@item_action.view(MoveForm)
def item_move(request, character, item_pk, data):
    line = services.item_move(character=character, item=item_pk, container=data["container"])
    if line.container_id is None:
        return f"{line.name} is carried loose."
    return f"{line.name} packed in {line.container.name}."


@item_action.view(WearForm)
def item_wear(request, character, item_pk, data):
    line = services.item_wear(character=character, item=item_pk, worn=data["on"])
    return f"{line.name} is {'worn' if line.equipped else 'taken off'}."


item_remove = item_action.remove()


@login_required
@require_POST
def credit_reverse(request: HttpRequest, pk: int, entry_pk: int) -> HttpResponse:
    character = _character(request, pk)
    try:
        reversal = services.credit_entry_reverse(character=character, entry=entry_pk,
                                                 by=request.user)
    except InventoryError as error:
        return _answer(request, character, error.message, error=True)
    return _answer(request, character, f"{reversal.note}.")


__all__ = ["GiveForm", "item_action"]
