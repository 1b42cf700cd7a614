"""The rules reference (the SRD catalog) and a player's homebrew gear and Traits.

Homebrew rows belong to their author: every homebrew queryset here starts from
`owner=request.user`, so another player's row is a 404, never a page. A row shared with a
campaign is seen and used by its members (`visible_to`), but only its author edits it.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from .catalog import sources_of
from .forms import GearItemForm, TraitForm
from .models import GearCategory, GearItem, Trait


def rules_index(request: HttpRequest) -> HttpResponse:
    """The SRD's gear tables and its Traits, with their source credited."""
    gear = list(GearItem.objects.srd().select_related("source").order_by("category", "name"))
    by_category = {category: [] for category in GearCategory.values}
    for item in gear:
        by_category[item.category].append(item)
    traits = list(Trait.objects.srd().order_by("group", "load", "name"))
    return render(request, "rules/index.html", {
        "armor": sorted(by_category[GearCategory.ARMOR], key=lambda i: i.armor_rank or 0),
        "shields": sorted(by_category[GearCategory.SHIELD], key=lambda i: i.shield_af or 0),
        "weapons": by_category[GearCategory.WEAPON],
        "items": by_category[GearCategory.ITEM],
        "loads": sorted(by_category[GearCategory.LOAD], key=lambda i: (i.load, i.name)),
        "traits": traits,
        "sources": sources_of([*gear, *traits]),
    })


@login_required
def homebrew_list(request: HttpRequest) -> HttpResponse:
    return render(request, "rules/homebrew_list.html", {
        "gear": GearItem.objects.filter(owner=request.user).order_by("category", "name"),
        "traits": Trait.objects.filter(owner=request.user).order_by("group", "name"),
    })


KINDS = {
    "gear": (GearItem, GearItemForm, "rules/gearitem_form.html", "gear item"),
    "trait": (Trait, TraitForm, "rules/trait_form.html", "Trait"),
}


def _homebrew_form(request: HttpRequest, kind: str, pk: int | None) -> HttpResponse:
    model, form_class, template, noun = KINDS[kind]
    instance = get_object_or_404(model, owner=request.user, pk=pk) if pk else None
    form = form_class(request.POST or None, instance=instance, owner=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                row = form.save()
        except IntegrityError:
            # Only a race can get here (the form checks every constraint first):
            # the same name saved twice at once.
            form.add_error("name", "You already have one called that.")
        else:
            verb = "saved" if instance else "created"
            messages.success(request, f"{row.name} was {verb}.")
            return redirect("rules:homebrew")
    elif request.method == "POST":
        messages.error(request, "Nothing was saved: please correct the marked fields.")
    return render(request, template, {"form": form, "object": instance, "noun": noun})


@login_required
@require_http_methods(["GET", "POST"])
def gear_create(request: HttpRequest) -> HttpResponse:
    return _homebrew_form(request, "gear", None)


@login_required
@require_http_methods(["GET", "POST"])
def gear_edit(request: HttpRequest, pk: int) -> HttpResponse:
    return _homebrew_form(request, "gear", pk)


@login_required
@require_http_methods(["GET", "POST"])
def trait_create(request: HttpRequest) -> HttpResponse:
    return _homebrew_form(request, "trait", None)


@login_required
@require_http_methods(["GET", "POST"])
def trait_edit(request: HttpRequest, pk: int) -> HttpResponse:
    return _homebrew_form(request, "trait", pk)


def _in_inventories(item: GearItem):
    # Imported here: the rules app does not otherwise depend on characters.
    from characters.models import InventoryItem

    return InventoryItem.objects.filter(catalog_item=item)


@login_required
@require_http_methods(["GET", "POST"])
def gear_delete(request: HttpRequest, pk: int) -> HttpResponse:
    item = get_object_or_404(GearItem, owner=request.user, pk=pk)
    lines = _in_inventories(item)
    if request.method == "POST":
        with transaction.atomic():
            # Gear lines that used it become free-text items: keep their Load.
            lines.filter(load__isnull=True).update(load=item.load)
            item.delete()
        messages.success(request, f"{item.name} was deleted.")
        return redirect("rules:homebrew")
    return render(request, "rules/homebrew_confirm_delete.html", {
        "object": item, "noun": "gear item", "in_use": lines.count(),
    })


@login_required
@require_http_methods(["GET", "POST"])
def trait_delete(request: HttpRequest, pk: int) -> HttpResponse:
    trait = get_object_or_404(Trait, owner=request.user, pk=pk)
    if request.method == "POST":
        trait.delete()
        messages.success(request, f"{trait.name} was deleted.")
        return redirect("rules:homebrew")
    return render(request, "rules/homebrew_confirm_delete.html", {
        "object": trait, "noun": "Trait", "in_use": None,
    })
