"""The inventory page: gear grouped by container, the purse and its ledger, adding from
the catalog (search as you type) or free-form, the SRD's starting gear, and the
derived numbers that follow every change.

Owner only (others get 404). Every action is a plain POST that redirects back, and
works the same from htmx: then the answer is the region the action changed (the
inventory, the ledger, a form with its errors) plus, out of band, the derived stats
and whatever else changed with it; the page never reloads. A refused action
re-renders its form with the message beside the field and what was typed kept.

What the page shows (the rows, the catalog search, the ledgers) is read by
selectors.py here; the writes are inventory.py's (giving gear to the party:
campaigns/systems/eldritch_gambit/transfer_views.py). Its URLs are urls.py's (GameSystem.urls).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import reswap, retarget

from characters.inventory_views import LineActions, first_error, refuse
from characters.models import Character, InventoryItem
from rules.engine.eldritch_gambit.gear import price_cp
from rules.models import GearItem

from . import inventory as services
from . import selectors
from .builds import sheet_for
from .inventory import InventoryError
from .inventory_forms import (
    CatalogAddForm,
    ChargesForm,
    CoinsForm,
    CoverageForm,
    FreeItemForm,
    MoveForm,
    QuantityForm,
    SellForm,
    StartingGearForm,
    SwitchForm,
)
from .models import EldritchGambitCharacter
from .selectors import Failure

TEMPLATE = "characters/inventory.html"
# Both add forms have a quantity and a container: prefixes keep their ids apart.
ADD_PREFIX, FREE_PREFIX = "add", "free"
CATEGORY_CHOICES = [("", "All kinds"), *GearItem.Category.choices]


# -- reading ----------------------------------------------------------------------------


def _character(request: HttpRequest, pk: int) -> EldritchGambitCharacter:
    return get_object_or_404(
        EldritchGambitCharacter.objects.editable_by(request.user).with_progress(), pk=pk)


def _errors(form) -> dict[str, list[str]]:
    errors = {}
    for name, messages_ in form.errors.items():
        errors["action" if name == "__all__" else name] = list(messages_)
    return errors


def _context(request: HttpRequest, character: Character, **extra) -> dict:
    """Everything the page (or any of its regions) shows, read fresh."""
    character = _character(request, character.pk)
    items = list(character.items.select_related("catalog_item"))
    sheet = sheet_for(character, items)
    q = (extra.pop("q", None) or "").strip()[:100]
    category = extra.pop("category", None) or ""
    ledger, ledger_total = selectors.purse_rows(character)
    handed, handed_total = selectors.transfer_rows(character)
    containers = [item for item in items if services.is_container(item)]
    context = {
        "character": character,
        "sheet": sheet,
        "groups": selectors.inventory_rows(items, sheet, extra.pop("failure", None)),
        "item_count": len(items),
        "containers": containers,
        "ledger": ledger,
        "ledger_total": ledger_total,
        "give_targets": selectors.give_targets(character),
        "transfers": handed,
        "transfers_total": handed_total,
        "q": q,
        "category": category,
        "category_choices": CATEGORY_CHOICES,
        "results": selectors.catalog_results(request.user, q, category),
        "searched": bool(q or category),
        "catalog_limit": selectors.CATALOG_LIMIT,
        "quality_choices": InventoryItem.Quality.choices,
        "coverage_choices": InventoryItem.Coverage.choices,
        "add_form": CatalogAddForm(initial={"quality": "standard", "quantity": 1},
                                   user=request.user, prefix=ADD_PREFIX),
        "free_form": FreeItemForm(initial={"kind": "item", "load": 0, "quantity": 1},
                                  prefix=FREE_PREFIX),
        "coins_form": CoinsForm(),
        "starting": services.starting_gear(character, items),
        "starting_form": StartingGearForm(user=request.user, worn_armor=next(
            (i for i in items if i.kind == InventoryItem.Kind.ARMOR and i.equipped), None)),
        "request_key": uuid.uuid4().hex,
        "regions": (),
        "oob": (),
        "status": "",
        "status_error": False,
        "inventory_error": "",
        "ledger_error": "",
    }
    context.update(extra)
    context["results_truncated"] = len(context["results"]) > selectors.CATALOG_LIMIT
    context["results"] = context["results"][:selectors.CATALOG_LIMIT]
    return context


# -- answering --------------------------------------------------------------------------


def _page_url(character: Character, anchor: str = "", q: str = "", category: str = "") -> str:
    url = reverse("characters:inventory", args=[character.pk])
    query = {k: v for k, v in (("q", q), ("category", category)) if v}
    if query:
        url += "?" + urlencode(query)
    return url + (f"#{anchor}" if anchor else "")


def _done(request: HttpRequest, character: Character, message: str, *, main: str,
          oob: Iterable[str] = ("inventory-stats",), anchor: str = "", q: str = "",
          **extra) -> HttpResponse:
    """A change was made: redirect back (plain POST) or answer with the changed regions."""
    if not request.htmx:
        messages.success(request, message)
        return redirect(_page_url(character, anchor or main, q, extra.get("category", "")))
    return _regions(request, character, main=main, oob=oob, status=message, q=q, **extra)


def _refused(request: HttpRequest, character: Character, message: str, *, main: str,
             **extra) -> HttpResponse:
    """Nothing was changed: show the region again with the messages and what was typed."""
    if not request.htmx:
        messages.error(request, f"Nothing was changed: {message}")
        return render(request, TEMPLATE, _context(request, character, **extra))
    return _regions(request, character, main=main, oob=(), status=message, status_error=True,
                    **extra)


def _regions(request: HttpRequest, character: Character, *, main: str, oob: Iterable[str],
             **extra) -> HttpResponse:
    oob = (*oob, "inventory-status")
    context = _context(request, character, regions=(main, *oob), oob=oob, **extra)
    response = render(request, f"{TEMPLATE}#htmx-response", context)
    reswap(response, "outerHTML")
    return retarget(response, f"#{main}")


# -- the page and the catalog search -----------------------------------------------------


@login_required
@require_GET
def inventory_detail(request: HttpRequest, pk: int) -> HttpResponse:
    character = _character(request, pk)
    return render(request, TEMPLATE, _context(
        request, character, q=request.GET.get("q"), category=request.GET.get("category"),
    ))


@login_required
@require_GET
def inventory_catalog(request: HttpRequest, pk: int) -> HttpResponse:
    """Catalog rows matching what is typed; the same search works as a plain GET of the
    page (this URL then redirects there)."""
    character = _character(request, pk)
    q, category = request.GET.get("q", ""), request.GET.get("category", "")
    if not request.htmx:
        query = urlencode({k: v for k, v in (("q", q), ("category", category)) if v})
        url = reverse("characters:inventory", args=[character.pk])
        return redirect(f"{url}?{query}#catalog-add" if query else f"{url}#catalog-add")
    return render(request, f"{TEMPLATE}#catalog-results",
                  _context(request, character, q=q, category=category))


# -- adding -------------------------------------------------------------------------------


@login_required
@require_POST
def inventory_add(request: HttpRequest, pk: int) -> HttpResponse:
    character = _character(request, pk)
    form = CatalogAddForm(request.POST, user=request.user, prefix=ADD_PREFIX)
    q, category = request.POST.get("q", ""), request.POST.get("category", "")
    if form.is_valid():
        data = form.cleaned_data
        try:
            item = services.item_add(
                character=character, by=request.user, catalog_item=form.catalog_item,
                quantity=data["quantity"], quality=data["quality"],
                container=data["container"], buy=form.buy,
                request_key=data["request_key"] or None,
            )
        except InventoryError as error:
            refuse(form, error)
        else:
            oob = ["inventory-stats", "catalog-add"]
            if form.buy:
                oob.append("coin-ledger")
            if item is not None and services.is_container(item):
                oob.append("free-item")
            what = services.describe(form.catalog_item.name, data["quantity"], data["quality"])
            if item is None:
                message = f"{what} was bought already."
            elif form.buy:
                paid = (price_cp(form.catalog_item.cost_cp, data["quality"]) or 0) * data[
                    "quantity"]
                message = f"Bought {what} for {paid} cp."
            else:
                message = f"Added {what}."
            kept = CatalogAddForm(initial={
                "quality": data["quality"], "quantity": data["quantity"],
                "container": data["container"] or "",
            }, user=request.user, prefix=ADD_PREFIX)
            return _done(request, character, message, main="inventory", oob=oob,
                         anchor=f"item-{item.pk}" if item else "inventory", q=q,
                         category=category, add_form=kept)
    return _refused(request, character, first_error(form), main="catalog-add",
                    add_form=form, q=q, category=category)


@login_required
@require_POST
def inventory_add_free(request: HttpRequest, pk: int) -> HttpResponse:
    character = _character(request, pk)
    form = FreeItemForm(request.POST, prefix=FREE_PREFIX)
    if form.is_valid():
        data = form.cleaned_data
        try:
            item = services.item_add(
                character=character, by=request.user, name=data["name"], load=data["load"],
                kind=data["kind"], quantity=data["quantity"], container=data["container"],
            )
        except InventoryError as error:
            refuse(form, error)
        else:
            message = f"Added {services.describe(item.name, item.quantity)}."
            return _done(request, character, message, main="inventory",
                         oob=("inventory-stats", "free-item"), anchor=f"item-{item.pk}")
    return _refused(request, character, first_error(form), main="free-item", free_form=form)


@login_required
@require_POST
def inventory_starting_gear(request: HttpRequest, pk: int) -> HttpResponse:
    character = _character(request, pk)
    form = StartingGearForm(request.POST, user=request.user, worn_armor=character.items.filter(
        kind=InventoryItem.Kind.ARMOR, equipped=True).first())
    if form.is_valid():
        data = form.cleaned_data
        try:
            package = services.starting_package(
                character=character, by=request.user, weapon=data["weapon"],
                armor=data["armor"], career_tool=data["career_tool"], memento=data["memento"],
                career_tool_load=data["career_tool_load"] or 0,
                memento_load=data["memento_load"] or 0, coins=data["coins"],
            )
        except InventoryError as error:
            refuse(form, error)
        else:
            message = "Starting gear added: " + ", ".join(i.name for i in package.items) + "."
            if package.kept:
                message += " Not added twice: " + ", ".join(package.kept) + "."
            if package.roll is not None:
                dice = " + ".join(str(d) for d in package.roll.dice)
                message += f" Rolled 2d4 x 100: ({dice}) x 100 = {package.roll.total} cp."
            if data["coins"] != services.COINS_KEEP:
                message += f" The purse holds {package.purse_cp} cp."
            return _done(request, character, message, main="inventory",
                         oob=("inventory-stats", "coin-ledger", "starting-gear", "catalog-add"),
                         roll=package.roll)
    return _refused(request, character, first_error(form), main="starting-gear",
                    starting_form=form)


# -- the purse ----------------------------------------------------------------------------


@login_required
@require_POST
def inventory_coins(request: HttpRequest, pk: int) -> HttpResponse:
    character = _character(request, pk)
    form = CoinsForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        amount = data["amount_cp"] if data["direction"] == "in" else -data["amount_cp"]
        try:
            entry = services.coins_adjust(character=character, amount_cp=amount,
                                          note=data["note"], by=request.user,
                                          request_key=data["request_key"] or None)
        except InventoryError as error:
            refuse(form, error)
        else:
            message = (f"{amount:+d} cp: {data['note']}." if entry is not None
                       else "That change was recorded already.")
            return _done(request, character, message, main="coin-ledger", oob=("coins-form",))
    return _refused(request, character, first_error(form), main="coins-form", coins_form=form)


@login_required
@require_POST
def inventory_coin_reverse(request: HttpRequest, pk: int, entry_pk: int) -> HttpResponse:
    character = _character(request, pk)
    try:
        reversal = services.coin_entry_reverse(character=character, entry=entry_pk,
                                               by=request.user)
    except InventoryError as error:
        return _refused(request, character, error.message, main="coin-ledger",
                        ledger_error=error.message)
    return _done(request, character, f"{reversal.note} ({reversal.amount_cp:+d} cp).",
                 main="coin-ledger", oob=())


# -- one line -----------------------------------------------------------------------------


def _line_done(request, character, item_pk, message, *,
               oob: Iterable[str] = ("inventory-stats",), names=None) -> HttpResponse:
    return _done(request, character, message, main="inventory", oob=oob,
                 anchor=f"item-{item_pk}")


def _line_failed(request, character, item_pk, error: InventoryError, form):
    if error.code == "no_such_item":
        return _refused(request, character, error.message, main="inventory",
                        inventory_error=error.message)
    if form is None:
        return _refused(request, character, error.message, main="inventory",
                        failure=Failure(item_pk, {"action": [error.message]}, {}))
    return None


def _line_invalid(request, character, item_pk, form, *, oob=(),
                  names: dict[str, str] | None = None) -> HttpResponse:
    """`names` renames fields in what the row gets back on a refusal, where two forms of
    a line share a field name (Give's "quantity" is not the Qty form's)."""
    names = names or {}
    typed = {names.get(name, name): form.data.get(name, "") for name in form.fields}
    errors = {names.get(name, name): found for name, found in _errors(form).items()}
    return _refused(request, character, first_error(form), main="inventory",
                    failure=Failure(item_pk, errors, typed))


# The per-line actions (characters/inventory_views.py): answered with the inventory and,
# out of band, the regions `oob` names.
_item_action = LineActions(character=_character, done=_line_done, failed=_line_failed,
                           invalid=_line_invalid, services=services)


@_item_action.view(QuantityForm)
def item_quantity(request, character, item_pk, data):
    item = services.item_set_quantity(character=character, item=item_pk,
                                      quantity=data["quantity"])
    if item.kind == InventoryItem.Kind.MATERIA and item.attuned:
        return f"{item.name}: quantity {item.quantity}, all attuned ({item.quantity} WP held)."
    return f"{item.name}: quantity {item.quantity}."


@_item_action.view(SwitchForm)
def item_equip(request, character, item_pk, data):
    item = services.item_equip(character=character, item=item_pk, equipped=data["on"])
    armor = item.kind == InventoryItem.Kind.ARMOR
    if item.equipped:
        return f"{item.name} is {'worn' if armor else 'ready'}."
    return f"{item.name} is {'taken off' if armor else 'put away'}."


@_item_action.view(CoverageForm)
def item_coverage(request, character, item_pk, data):
    item = services.item_set_coverage(character=character, item=item_pk,
                                      coverage=data["coverage"])
    return f"{item.name}: {item.get_coverage_display().lower()}."


@_item_action.view()
def item_drop(request, character, item_pk, data):
    item = services.item_drop(character=character, item=item_pk)
    if services.is_container(item) and item.contents.exists():
        return f"{item.name} dropped, with everything in it."
    return f"{item.name} dropped."


item_pick_up = _item_action.pick_up()


@_item_action.view(MoveForm)
def item_move(request, character, item_pk, data):
    item = services.item_move(character=character, item=item_pk, container=data["container"])
    if item.container_id is None:
        return f"{item.name} is carried loose."
    return f"{item.name} moved into {item.container.name}."


@_item_action.view(SellForm, oob=("inventory-stats", "coin-ledger"))
def item_sell(request, character, item_pk, data):
    entry = services.item_sell(character=character, item=item_pk, by=request.user,
                               price_cp=data["price_cp"],
                               request_key=data["request_key"] or None)
    if entry is None:
        return "That sale was recorded already."
    return f"{entry.note} for {entry.amount_cp} cp."


item_remove = _item_action.remove()


@_item_action.view(ChargesForm)
def item_charges(request, character, item_pk, data):
    item = services.charges_set(character=character, item=item_pk, charges=data["charges"])
    return f"{item.name}: {item.charges} charge{'s' if item.charges != 1 else ''} left."


@_item_action.view(SwitchForm)
def item_attune(request, character, item_pk, data):
    item = services.materia_attune(character=character, item=item_pk, attuned=data["on"])
    return f"{item.name} is attuned: {item.quantity} WP spent, held until it is discarded or given."
