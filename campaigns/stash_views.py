"""The party stash of a campaign (/campaigns/<id>/stash/): the gear the party keeps in
common, with its Load and what each container holds, "Take into" a character, and the
stash's history. Gear goes in from a character's inventory ("Give to" the party stash).

Members only: anyone else gets 404. A player takes into their own characters of the
campaign, the Imp or a co-Imp into anyone's; the service (campaigns/transfers.py)
checks it again. Taking is a plain POST that redirects back, and from htmx the answer
is the stash's list with its history and status out of band.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, replace
from urllib.parse import parse_qs, urlsplit

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import reswap, retarget

from characters.inventory import InventoryError, describe
from characters.inventory_forms import TakeForm
from characters.models import Character, GearTransfer, InventoryItem
from characters.selectors import acted_for, describe_transfer
from rules.systems import GameSystem, LineLoad

from . import paging, transfers
from .models import IMP_ROLES, Membership

TEMPLATE = "characters/stash_detail.html"
HISTORY_LIMIT = 100


@dataclass
class StashRow:
    item: InventoryItem
    depth: int
    # Its Load as the campaign's game system counts it (GameSystem.stash_loads); None
    # for a system whose gear has no Load.
    weight: LineLoad | None = None
    opens: bool = False
    closes: int = 0
    error: str = ""  # a refused "Take into" on this line, and what was chosen
    typed: str = ""
    error_field: str = ""  # "quantity" when the refusal is about how many, else "to"
    typed_quantity: str = ""

    @property
    def closers(self) -> range:
        return range(self.closes)

    @property
    def over(self) -> bool:
        return self.weight is not None and self.weight.over

    @property
    def to_error(self) -> str:
        return self.error if self.error_field != "quantity" else ""

    @property
    def quantity_error(self) -> str:
        return self.error if self.error_field == "quantity" else ""


def _rows(items: list[InventoryItem], failure: dict | None,
          system: GameSystem) -> tuple[list[StashRow], int | None]:
    """The stash's lines, each container followed by its contents (nested), and the
    Load of the whole stash as the campaign's game system counts it (None: its gear has
    no Load)."""
    loads, total_load = system.stash_loads(items) if system.stash_loads else ({}, None)
    by_pk = {item.pk: item for item in items}
    children: dict[int | None, list[InventoryItem]] = {}
    for item in items:
        parent = item.container_id if item.container_id in by_pk else None
        children.setdefault(parent, []).append(item)
    rows: list[StashRow] = []
    visited: set[int] = set()

    def walk(item: InventoryItem, depth: int) -> None:
        visited.add(item.pk)
        row = StashRow(item=item, depth=depth, weight=loads.get(item.pk))
        if failure is not None and failure["item"] == item.pk:
            row.error, row.typed = failure["message"], failure["typed"]
            row.error_field = failure.get("field") or "to"
            row.typed_quantity = failure.get("typed_quantity", "")
        rows.append(row)
        kids = [kid for kid in children.get(item.pk, ()) if kid.pk not in visited]
        if kids:
            row.opens = True
            for kid in kids:
                walk(kid, depth + 1)
            rows[-1].closes += 1

    for item in children.get(None, ()):
        walk(item, 0)
    for item in items:  # a loop in the data: shown loose, never lost
        if item.pk not in visited:
            walk(item, 0)
    return rows, total_load


def _lines(request: HttpRequest) -> str | None:
    """?lines= of the page, or of the page an htmx Take was sent from (a stash shown whole
    stays whole after a Take)."""
    if "lines" in request.GET or not getattr(request, "htmx", False):
        return request.GET.get("lines")
    current = urlsplit(request.htmx.current_url or "")
    return parse_qs(current.query).get("lines", [None])[0]


def _closed(rows: list[StashRow]) -> list[StashRow]:
    """`rows` cut short: the last one closes every container still open above it."""
    last = rows[-1]
    rows[-1] = replace(last, closes=last.depth + (1 if last.opens else 0))
    return rows


def _history(campaign) -> tuple[list[dict], int]:
    entries = list(transfers.stash_transfers(campaign)
                   .select_related("created_by", "from_character", "to_character")
                   [:HISTORY_LIMIT])
    total = (transfers.stash_transfers(campaign).count() if len(entries) == HISTORY_LIMIT
             else len(entries))
    return [{
        "entry": entry,
        "text": describe_transfer(entry),
        "by": entry.created_by.get_username() if acted_for(entry) else "",
    } for entry in entries], total


def _context(request: HttpRequest, membership: Membership, **extra) -> dict:
    campaign = membership.campaign
    runs = membership.role in IMP_ROLES
    items = list(InventoryItem.objects.filter(stash=campaign).select_related("catalog_item"))
    failure = extra.pop("failure", None)
    rows, total_load = _rows(items, failure, campaign.game_system)
    # A long stash folds at paging.FOLD_AT lines (?lines=all shows them all; so does a
    # refused Take, whose message sits beside its line).
    shown, folded = paging.fold(rows, "all" if failure else _lines(request))
    if folded:
        rows = _closed(list(shown))
    party = Character.objects.filter(campaign=campaign).select_related("owner")
    if not runs:
        party = party.filter(owner=request.user)
    history, history_total = _history(campaign)
    context = {
        "campaign": campaign,
        "membership": membership,
        "runs": runs,
        "rows": rows,
        "item_count": len(items),
        "folded": folded,
        "total_load": total_load,
        "take_targets": [(str(c.pk), c.display_name if c.owner_id == request.user.pk
                          else f"{c.display_name} ({c.owner.get_username()})") for c in party],
        # The player's own characters with their system's inventory page, if it has one.
        "my_characters": [(c, reverse(c.game_system.inventory_url, args=[c.pk]))
                          for c in party if c.owner_id == request.user.pk
                          and c.game_system.inventory_url],
        "history": history,
        "history_total": history_total,
        "request_key": uuid.uuid4().hex,
        "stash_error": "",
        "status": "",
        "status_error": False,
        "oob": (),
        "regions": (),
    }
    context.update(extra)
    return context


@login_required
@require_GET
def stash_detail(request: HttpRequest, pk: int) -> HttpResponse:
    membership = Membership.objects.of_or_404(request.user, pk)
    return render(request, TEMPLATE, _context(request, membership))


@login_required
@require_POST
def stash_take(request: HttpRequest, pk: int, item_pk: int) -> HttpResponse:
    """Take a line (a container with everything in it), or part of a stack, into a
    character."""
    membership = Membership.objects.of_or_404(request.user, pk)
    campaign = membership.campaign
    form = TakeForm(request.POST)
    error = None
    if form.is_valid():
        key = form.cleaned_data["request_key"] or None
        seen = bool(key) and GearTransfer.objects.filter(request_key=key).exists()
        try:
            transfer = transfers.item_take_from_stash(
                item=item_pk, to_character=form.cleaned_data["to"], by=request.user,
                campaign=campaign, request_key=key, quantity=form.cleaned_data["quantity"])
        except InventoryError as refusal:
            error = refusal
        else:
            what = describe(transfer.item_name, transfer.quantity, transfer.quality)
            if transfer.lines > 1:
                what += ", with everything in it,"
            message = ("That was taken already." if seen
                       else f"{what} went to {transfer.to_label}.")
            if not request.htmx:
                messages.success(request, message)
                return redirect(reverse("campaigns:stash", args=[campaign.pk]))
            return _regions(request, membership, status=message)
    if error is not None:
        message, field = error.message, error.field
    else:
        field, found = next(iter(form.errors.items()))
        message = found[0]
    if error is not None and error.code == "no_such_item":
        extra = {"stash_error": message}
    else:
        extra = {"failure": {"item": item_pk, "message": message,
                             "field": "quantity" if field == "quantity" else "to",
                             "typed": form.data.get("to", ""),
                             "typed_quantity": form.data.get("quantity", "")}}
    if not request.htmx:
        messages.error(request, f"Nothing was changed: {message}")
        return render(request, TEMPLATE, _context(request, membership, **extra))
    return _regions(request, membership, status=message, status_error=True, **extra)


def _regions(request: HttpRequest, membership: Membership, **extra) -> HttpResponse:
    oob = ("stash-history", "stash-status")
    context = _context(request, membership, regions=("stash-items", *oob), oob=oob, **extra)
    response = render(request, f"{TEMPLATE}#htmx-response", context)
    reswap(response, "outerHTML")
    return retarget(response, "#stash-items")

