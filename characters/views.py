"""Character pages: list, builder (create/edit) with live preview, detail,
duplicate, compare, delete. Function views; querysets start from the user."""

from __future__ import annotations

import random

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Exists, OuterRef
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns import services as campaign_services
from campaigns.models import Membership
from config.parsing import parse_id
from rules.engine.eldritch_gambit import ATTRIBUTE_KEYS, compute_sheet
from rules.engine.eldritch_gambit.attributes import ABBREVIATIONS, roll_attributes
from rules.engine.eldritch_gambit.seeds import roll_name_initial, roll_quirk, roll_starting_coins

from . import exchange, services
from .builds import build_from_form, sheet_for
from .forms import NEW_CHARACTER_INITIAL, CharacterForm, initial_from_character
from .models import Character, XpEntry
from .portraits import portrait_file_forget
from .systems.eldritch_gambit.models import EldritchGambitCharacter

ROLL_ACTIONS = ("roll_name", "roll_quirk", "roll_attributes", "roll_coins", "roll_all")
LOCKS = ("lock_name", "lock_description", "lock_attributes", "lock_coins")


def _character_for(request: HttpRequest, pk: int, *,
                   edit: bool = False) -> EldritchGambitCharacter:
    queryset = EldritchGambitCharacter.objects.editable_by(request.user) if edit else (
        EldritchGambitCharacter.objects.visible_to(request.user)
    )
    return get_object_or_404(queryset.with_progress(), pk=pk)


def _rng(request: HttpRequest) -> random.Random:
    """A proper random source; a test may seed it with a `seed` field."""
    seed = parse_id(request.POST.get("seed") or request.GET.get("seed"))
    if seed is not None:
        return random.Random(seed)
    return random.Random()


def _apply_roll(request: HttpRequest, action: str, data) -> list[dict]:
    """Apply a random helper to the form data in place; return the dice shown."""
    rng = _rng(request)
    rolls: list[dict] = []
    everything = action == "roll_all"
    locked = {lock for lock in LOCKS if data.get(lock)} if everything else set()

    if action == "roll_name" or (everything and "lock_name" not in locked):
        roll = roll_name_initial(rng)
        examples = [e.strip() for e in roll.examples.split(",")]
        data["name"] = rng.choice(examples)
        rolls.append({"label": "Name initial (5d6)", "dice": roll.dice, "total": roll.total,
                      "result": f"{roll.result}: {roll.examples}…"})
    if action == "roll_quirk" or (everything and "lock_description" not in locked):
        roll = roll_quirk(rng)
        line = f"Quirk: {roll.result} ({roll.examples}…)"
        kept = [ln for ln in data.get("description", "").splitlines()
                if not ln.startswith("Quirk: ")]
        data["description"] = "\n".join([*kept, line]).strip()
        rolls.append({"label": "Distinctive quirk (d20)", "dice": roll.dice,
                      "total": roll.total, "result": f"{roll.result} ({roll.examples}…)"})
    if action == "roll_attributes" or (everything and "lock_attributes" not in locked):
        try:
            level = int(data.get("level", ""))
        except ValueError:
            level = 0
        if not 1 <= level <= 100:
            rolls.append({"label": "Attributes", "dice": (), "total": None,
                          "result": "Set a Level from 1 to 100 first: the roll uses one d6 "
                                    "per Level.", "error": True})
        else:
            roll = roll_attributes(level, rng)
            for key in ATTRIBUTE_KEYS:
                data[key] = str(roll.attributes[key])
            flipped = f"; {len(roll.flipped)} flipped to the opposite face" if roll.flipped else ""
            rolls.append({
                "label": f"Attributes ({level}d6)", "dice": roll.dice, "total": None,
                "flipped": roll.flipped,
                "result": ", ".join(f"{ABBREVIATIONS[k]} {roll.attributes[k]}"
                                    for k in ATTRIBUTE_KEYS) + flipped,
            })
    if action == "roll_coins" or (everything and "lock_coins" not in locked):
        roll = roll_starting_coins(rng)
        data["coins_cp"] = str(roll.total)
        rolls.append({"label": "Starting coins (2d4 x 100)", "dice": roll.dice,
                      "total": roll.total, "result": roll.result})
    return rolls


def _render_builder(request, form, character=None, rolls=(), status=200):
    context = {
        "form": form,
        "character": character,
        "joining": form.joining,
        "sheet": form.preview_sheet() if form.is_bound else None,
        "rolls": rolls,
        "locks": {lock: bool(request.POST.get(lock)) for lock in LOCKS},
    }
    if context["sheet"] is None and not form.cannot_compute:
        if character is not None:
            context["sheet"] = sheet_for(character, form.items)
        else:
            context["sheet"] = compute_sheet(build_from_form(form.initial))
    template = "characters/character_form.html"
    if request.htmx and request.htmx.target == "builder":
        template += "#builder"
    return render(request, template, context, status=status)


def _joining(request: HttpRequest):
    """The campaign a new character is built for (`?campaign=` on the join page's
    "Build" link, then a hidden field): one the user plays in, else 404."""
    raw = request.POST.get("campaign") or request.GET.get("campaign") or ""
    if not raw:
        return None
    campaign_id = parse_id(raw)
    if campaign_id is None:
        raise Http404("No such campaign.")
    return Membership.objects.of_or_404(request.user, campaign_id).campaign


def _builder(request: HttpRequest, character: EldritchGambitCharacter | None) -> HttpResponse:
    items = list(character.items.select_related("catalog_item")) if character else []
    initial = initial_from_character(character, items) if character else dict(
        NEW_CHARACTER_INITIAL
    )
    campaign = _joining(request) if character is None else None
    kwargs = {"initial": initial, "user": request.user, "character": character, "items": items,
              "joining": campaign}
    if request.method == "GET":
        form = CharacterForm(**kwargs)
        return _render_builder(request, form, character)

    action = request.POST.get("action", "save")
    if action in ROLL_ACTIONS:
        data = request.POST.copy()
        # A disabled Level is not posted: the attribute roll uses the one the form shows.
        if campaign is not None:
            data["level"] = str(campaign.starting_level)
        elif character is not None and services.ledger_rules_progress(character):
            data["level"] = str(character.level)
        rolls = _apply_roll(request, action, data)
        form = CharacterForm(data, **kwargs)
        form.is_valid()
        return _render_builder(request, form, character, rolls)

    form = CharacterForm(request.POST, **kwargs)
    if form.is_valid():
        if character is None and campaign is not None:
            with transaction.atomic():
                character = services.character_create(owner=request.user,
                                                      data=form.cleaned_data)
                campaign_services.character_join(campaign=campaign, character=character,
                                                 by=request.user)
            messages.success(request, f"{character.display_name} was created and joined "
                                      f"{campaign.name}.")
            if not request.htmx:
                return redirect(campaign)
            response = HttpResponse(status=204)
            response["HX-Redirect"] = campaign.get_absolute_url()
            return response
        if character is None:
            character = services.character_create(owner=request.user, data=form.cleaned_data)
            messages.success(request, f"{character.display_name} was created.")
        else:
            character = services.character_update(
                character=character, data=form.cleaned_data, by=request.user
            )
            messages.success(request, f"{character.display_name} was saved.")
        if request.htmx:
            response = HttpResponse(status=204)
            response["HX-Redirect"] = character.get_absolute_url()
            return response
        return redirect(character)
    messages.error(request, "Nothing was saved: please correct the marked fields.")
    return _render_builder(request, form, character)


@login_required
def character_list(request: HttpRequest) -> HttpResponse:
    characters = (
        EldritchGambitCharacter.objects.visible_to(request.user)
        .with_progress()
        .annotate(item_count=Count("items"))
    )
    return render(request, "characters/character_list.html", {"characters": characters})


@login_required
@require_http_methods(["GET", "POST"])
def character_create(request: HttpRequest) -> HttpResponse:
    return _builder(request, None)


@login_required
@require_http_methods(["GET", "POST"])
def character_edit(request: HttpRequest, pk: int) -> HttpResponse:
    return _builder(request, _character_for(request, pk, edit=True))


def _character_with_items(request: HttpRequest, pk: int):
    """The character the user may edit, then its inventory with the catalog rows: two
    queries however much it carries. No ledger sums unless the ledger sets Level and
    XP: otherwise they come from what is typed (see the lazy initial)."""
    character = get_object_or_404(
        EldritchGambitCharacter.objects.editable_by(request.user).annotate(had_campaign=Exists(
            XpEntry.objects.filter(character_id=OuterRef("pk"),
                                   kind__in=services.CAMPAIGN_XP_KINDS))),
        pk=pk,
    )
    if services.ledger_rules_progress(character):
        # In a campaign the form shows the ledger's Level and XP (read-only fields take
        # their initial values): both sums in one query, not one query per field.
        totals = Character.objects.with_progress().values("level_total", "xp_total").get(pk=pk)
        character.level_total, character.xp_total = totals["level_total"], totals["xp_total"]
    return character, list(character.items.select_related("catalog_item"))


@login_required
@require_POST
def character_preview(request: HttpRequest, pk: int | None = None) -> HttpResponse:
    """The live preview: recompute the derived stats from what is typed, save nothing.

    Answers with the stats panel and, out of band, each field's error slot; it
    never replaces the inputs being typed in.
    """
    character, items = _character_with_items(request, pk) if pk else (None, [])
    initial = initial_from_character(character, items) if character else dict(
        NEW_CHARACTER_INITIAL
    )
    form = CharacterForm(request.POST, initial=initial, user=request.user, character=character,
                         items=items, joining=None if pk else _joining(request))
    form.is_valid()
    return render(request, "characters/character_form.html#live-preview", {
        "form": form, "character": character, "sheet": form.preview_sheet(),
    })


@login_required
def character_detail(request: HttpRequest, pk: int) -> HttpResponse:
    character = _character_for(request, pk)
    items = list(character.items.select_related("catalog_item"))
    return render(request, "characters/character_detail.html", {
        "character": character, "items": items, "sheet": sheet_for(character, items),
        "can_edit": character.owner_id == request.user.pk,
        "campaign_history": services.campaign_history(character),
    })


@login_required
@require_POST
def character_duplicate(request: HttpRequest, pk: int) -> HttpResponse:
    character = _character_for(request, pk)
    copy = services.character_duplicate(character=character, by=request.user)
    messages.success(request, f"Duplicated as {copy.display_name}. Compare the two below.")
    return redirect(f"{reverse('characters:compare')}?a={character.pk}&b={copy.pk}")


@login_required
def character_compare(request: HttpRequest) -> HttpResponse:
    visible = EldritchGambitCharacter.objects.visible_to(request.user).with_progress()
    mine = list(visible)
    chosen = []
    for key in ("a", "b"):
        value = request.GET.get(key, "")
        if value:
            if (character_pk := parse_id(value)) is None:
                raise Http404("No such character.")
            chosen.append(get_object_or_404(visible, pk=character_pk))
    columns = []
    for character in chosen:
        items = list(character.items.select_related("catalog_item"))
        columns.append({"character": character, "sheet": sheet_for(character, items)})
    return render(request, "characters/character_compare.html", {
        "columns": columns, "mine": mine,
        "a": request.GET.get("a", ""), "b": request.GET.get("b", ""),
    })


@login_required
@require_http_methods(["GET", "POST"])
def character_delete(request: HttpRequest, pk: int) -> HttpResponse:
    character = _character_for(request, pk, edit=True)
    if request.method == "POST":
        name, portrait = character.display_name, character.portrait.name
        character.delete()
        portrait_file_forget(portrait)
        messages.success(request, f"{name} was deleted.")
        return redirect("characters:list")
    return render(request, "characters/character_confirm_delete.html", {"character": character})


@login_required
@require_GET
def character_export(request: HttpRequest, pk: int) -> HttpResponse:
    """The character as a JSON file to download (README.md, "Exchange format")."""
    character = _character_for(request, pk)
    response = HttpResponse(exchange.export_json(character), content_type="application/json")
    response["Content-Disposition"] = content_disposition_header(
        True, exchange.export_filename(character)
    )
    return response


@login_required
@require_http_methods(["GET", "POST"])
def character_import(request: HttpRequest) -> HttpResponse:
    """A new character for the user from an uploaded or pasted export."""
    if request.method == "GET":
        form = exchange.CharacterImportForm()
    else:
        form = exchange.CharacterImportForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            character = exchange.character_import(owner=request.user,
                                                  data=form.cleaned_data["data"])
        except ValidationError as error:
            form.add_error(form.source, error)
        else:
            messages.success(request, f"{character.display_name} was imported.")
            return redirect(character)
    return render(request, "characters/character_import.html", {"form": form})


def _character_import_too_big(request: HttpRequest) -> HttpResponse | None:
    """The import form again when the pasted text is over Django's upload limit
    (DATA_UPLOAD_MAX_MEMORY_SIZE): Django stops reading the body, so nothing sent is
    left to keep, but the message stands beside the field instead of a bare 400 page."""
    if not request.user.is_authenticated:
        return None
    form = exchange.CharacterImportForm(data={})
    form.source = "text"
    form.full_clean()
    form.errors.clear()
    form.add_error("text", ValidationError(
        "The pasted text is over %(limit)s MB, and a character file is at most %(max)s MB: "
        "paste a character's export, or upload the file instead.", code="too_large",
        params={"limit": f"{settings.DATA_UPLOAD_MAX_MEMORY_SIZE / 1024 / 1024:g}",
                "max": exchange.MAX_BYTES // 1024 // 1024}))
    return render(request, "characters/character_import.html", {"form": form}, status=413)


character_import.on_request_too_big = _character_import_too_big
