"""Character pages: list, builder (create/edit) with live preview, detail,
duplicate, compare, delete. Function views; querysets start from the user. A new
character's builder and preview are served by campaigns/character_views.py, which may
build it for a campaign the user plays in."""

from __future__ import annotations

import random
from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db import transaction
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from config.parsing import parse_id
from rules import systems

from . import exchange, services
from .models import Character, as_built, with_totals
from .portraits import portrait_file_forget
from .selectors import built_or_404


def _character_for(request: HttpRequest, pk: int, *, edit: bool = False,
                   related: tuple[str, ...] = ()) -> Character:
    """The character as its game system's model (its system's name, then its row joined
    with `related`: get_built), with its ledger sums (two aggregate queries:
    progress_of)."""
    def narrow(characters):
        mine = characters.editable_by(request.user) if edit else (
            characters.visible_to(request.user))
        return mine.select_related(*related)
    return with_totals(built_or_404(pk, narrow))


def _rng(request: HttpRequest) -> random.Random:
    """A proper random source; a test may seed it with a `seed` field."""
    seed = parse_id(request.POST.get("seed") or request.GET.get("seed"))
    if seed is not None:
        return random.Random(seed)
    return random.Random()


def _render_builder(request, system, form, character=None, rolls=(), status=200):
    context = {
        "system": system,
        "form": form,
        "character": character,
        "joining": form.joining,
        "sheet": form.preview_sheet(),
        "rolls": rolls,
    }
    template = system.templates.builder
    if request.htmx and request.htmx.target == "builder":
        template += "#builder"
    return render(request, template, context, status=status)


class _NoSystem(Exception):
    """No game system chosen for a new character (several are registered), or a key
    that names none: the system choice page answers instead of the builder."""

    def __init__(self, message: str = "", status: int = 200):
        super().__init__(message)
        self.message, self.status = message, status


def _new_character_system(request: HttpRequest, campaign) -> systems.GameSystem:
    """The system of a new character: its campaign's when it is built for one, else the
    `system` asked for (the choice page's links, then a hidden field), else the one
    system there is."""
    if campaign is not None:
        return campaign.game_system
    raw = request.POST.get("system") or request.GET.get("system")
    if raw:
        system = systems.find(raw)
        if system is None:
            raise _NoSystem(f"There is no game system {raw[:40]!r} here: choose one of "
                            "these.", status=400)
        return system
    registered = list(systems.all_systems())
    if len(registered) == 1:
        return registered[0]
    raise _NoSystem("Choose a game system first." if request.method == "POST" else "",
                    status=400 if request.method == "POST" else 200)


def _system_choice(request: HttpRequest, refusal: _NoSystem) -> HttpResponse:
    """"New character" with several game systems: each one's name and licence line,
    and a link to its builder."""
    return render(request, "characters/system_choice.html", {
        "systems": list(systems.all_systems()), "message": refusal.message,
    }, status=refusal.status)


def _form(system, data, *, request, character, items, campaign):
    initial = (system.initial_from_character(character, items) if character is not None
               else dict(system.new_character_initial))
    return system.form_class(data, initial=initial, user=request.user, character=character,
                             items=items, joining=campaign)


def builder(request: HttpRequest, character: Character | None, *, joining=None,
            join: Callable[[Character], object] | None = None) -> HttpResponse:
    """The builder's page: a new character (of the system chosen, or of `joining`'s), or
    `character` to edit. `joining` is the campaign a new character is built for
    (campaigns/character_views.py): it starts at the campaign's Level, and
    `join(character)` runs in the transaction that creates it."""
    campaign = joining if character is None else None
    if character is not None:
        system = character.game_system
    else:
        try:
            system = _new_character_system(request, campaign)
        except _NoSystem as refusal:
            return _system_choice(request, refusal)
    items = lines_for_sheet(character) if character else []
    kwargs = {"request": request, "character": character, "items": items,
              "campaign": campaign}
    if request.method == "GET":
        form = _form(system, None, **kwargs)
        return _render_builder(request, system, form, character)

    action = request.POST.get("action", "save")
    if action in system.builder_roll_actions:
        data = request.POST.copy()
        rolls = system.builder_roll(action, data, rng=_rng(request), character=character,
                                    joining=campaign)
        form = _form(system, data, **kwargs)
        form.is_valid()
        return _render_builder(request, system, form, character, rolls)

    form = _form(system, request.POST, **kwargs)
    if form.is_valid():
        if character is None and campaign is not None:
            with transaction.atomic():
                character = system.create(owner=request.user, data=form.cleaned_data)
                join(character)
            messages.success(request, f"{character.display_name} was created and joined "
                                      f"{campaign.name}.")
            if not request.htmx:
                return redirect(campaign)
            response = HttpResponse(status=204)
            response["HX-Redirect"] = campaign.get_absolute_url()
            return response
        if character is None:
            character = system.create(owner=request.user, data=form.cleaned_data)
            messages.success(request, f"{character.display_name} was created.")
        else:
            character = system.update(character=character, data=form.cleaned_data,
                                      by=request.user)
            messages.success(request, f"{character.display_name} was saved.")
        if request.htmx:
            response = HttpResponse(status=204)
            response["HX-Redirect"] = character.get_absolute_url()
            return response
        return redirect(character)
    messages.error(request, "Nothing was saved: please correct the marked fields.")
    return _render_builder(request, system, form, character)


@login_required
def character_list(request: HttpRequest) -> HttpResponse:
    characters = [
        as_built(character) for character in
        Character.objects.visible_to(request.user).with_progress().with_builds()
        .annotate(item_count=Count("items"))
    ]
    rows = [{"character": character, "system": character.game_system,
             "summary": character.game_system.summary(character)} for character in characters]
    return render(request, "characters/character_list.html", {
        "characters": characters, "rows": rows,
        "several_systems": len({row["system"].key for row in rows}) > 1,
    })


@login_required
@require_http_methods(["GET", "POST"])
def character_edit(request: HttpRequest, pk: int) -> HttpResponse:
    return builder(request, _character_for(request, pk, edit=True))


def _character_with_items(request: HttpRequest, pk: int):
    """The character the user may edit, as its system's model, then its inventory with
    what its game reads beside each line (lines_for_sheet, which the game's sheet reads
    too; Eldritch Gambit's catalog rows...): two queries however much it carries (get_built's row,
    its system named by the builder's address; three without it). No ledger sums here:
    each game's form reads those it shows (Eldritch Gambit's Level and XP, read-only once
    the ledger rules them, are read in one query by its form; the other games' builders
    never ask whether a character played in a campaign, which cost their previews a
    query on every keystroke)."""
    character = built_or_404(pk, lambda characters: characters.editable_by(request.user),
                             system=request.GET.get("system"))
    return character, lines_for_sheet(character)


def lines_for_sheet(character: Character) -> list:
    """The character's inventory lines, in order, with the rows its game reads beside
    each (GameSystem.line_related: Eldritch Gambit's catalog items...), in one query;
    kept as `character.sheet_lines`, which the game's sheet and templates read instead
    of querying per line.

    In the model's order (InventoryItem.Meta.ordering: position, then id), sorted here:
    to write ORDER BY, Django matches each ordering term against every selected column
    (forty and more with the joined rows), which cost about as much as building the rest
    of the query; sorting a character's lines costs next to nothing."""
    lines = character.items.order_by()
    if related := character.game_system.line_related:
        # (select_related() with no path would join every foreign key.)
        lines = lines.select_related(*related)
    character.sheet_lines = sorted(lines, key=lambda line: (line.position, line.pk))
    return character.sheet_lines


@login_required
@require_POST
def character_preview(request: HttpRequest, pk: int) -> HttpResponse:
    """The live preview of a character being edited (a new character's is
    campaigns/character_views.py's)."""
    return preview(request, pk)


def preview(request: HttpRequest, pk: int | None = None, *, joining=None) -> HttpResponse:
    """The live preview: recompute the derived stats from what is typed, save nothing.
    `joining`: the campaign a new character is built for, as in `builder`.

    Answers with the stats panel and, out of band, each field's error slot; it
    never replaces the inputs being typed in.
    """
    if pk:
        character, items = _character_with_items(request, pk)
        campaign, system = None, character.game_system
    else:
        character, items, campaign = None, [], joining
        try:
            system = _new_character_system(request, campaign)
        except _NoSystem as refusal:
            return HttpResponse(refusal.message or "Choose a game system first.",
                                status=400, content_type="text/plain; charset=utf-8")
    form = _form(system, request.POST, request=request, character=character, items=items,
                 campaign=campaign)
    form.is_valid()
    return render(request, f"{system.templates.builder}#live-preview", {
        "system": system, "form": form, "character": character, "sheet": form.preview_sheet(),
    })


# The character page's gear list: GEAR_PER_PAGE lines a page, then `?gear=N` (the same
# size as campaigns.paging.FOLD_AT, which this app's layer cannot import).
GEAR_PER_PAGE = 50


@login_required
def character_detail(request: HttpRequest, pk: int) -> HttpResponse:
    # The campaign's name and address are in the page's campaign note.
    character = _character_for(request, pk, related=("campaign",))
    system = character.game_system
    items = lines_for_sheet(character)
    # A long inventory pages: the page lists GEAR_PER_PAGE lines and the pager
    # (templates/includes/pager.html) links the rest as ?gear=N; the sheet counts them all.
    # Any junk page number gives a page (Paginator.get_page).
    gear = Paginator(items, GEAR_PER_PAGE).get_page(request.GET.get("gear"))
    return render(request, system.templates.detail, {
        "system": system, "character": character, "items": items,
        "gear": gear, "items_shown": gear.object_list,
        "sheet": system.sheet(character, items),
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
    visible = Character.objects.visible_to(request.user).with_progress()
    mine = list(visible)
    chosen = []
    for key in ("a", "b"):
        value = request.GET.get(key, "")
        if value:
            if (character_pk := parse_id(value)) is None:
                raise Http404("No such character.")
            chosen.append(built_or_404(character_pk, lambda characters: characters
                                        .visible_to(request.user).with_progress()))
    columns = []
    for character in chosen:
        items = lines_for_sheet(character)
        columns.append({"character": character, "system": character.game_system,
                        "sheet": character.game_system.sheet(character, items)})
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
