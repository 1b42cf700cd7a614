"""The printed sheet: the print view, its PDF, and the portrait (upload,
remove, and the picture itself, served only to those who may see the character: its owner
and the Imp and co-Imps of its campaign, the rule of Character.objects.visible_to). The
sheets themselves are the character's system's (GameSystem.printed_sheets; a system's
blank sheet is its own page); the Imp's party pack is campaigns/print_views.py."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch, prefetch_related_objects
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods

from . import printing
from .models import Character, InventoryItem
from .portraits import PortraitForm, character_portrait_set, content_type_for
from .selectors import built_or_404, portrait_url, versioned


def with_items(characters: list[Character]) -> list[Character]:
    """The characters (as their systems' models) with their inventories: one query."""
    prefetch_related_objects(characters, Prefetch(
        "items", queryset=InventoryItem.objects.select_related("catalog_item")))
    return characters


def _printable_character(request: HttpRequest, pk: int) -> Character:
    """The character to print, if the user may see it, as its system's model, with its
    items and ledger sums."""
    character = built_or_404(pk, lambda characters: characters.visible_to(request.user)
                             .with_progress())
    return with_items([character])[0]


def pdf_filename(name: str, suffix: str) -> str:
    return f"{slugify(name) or 'character'}-{suffix}.pdf"


@login_required
@require_GET
def character_print(request: HttpRequest, pk: int) -> HttpResponse:
    """The sheet as a page to print from the browser (one landscape page)."""
    character = _printable_character(request, pk)
    system = character.game_system
    sheets, _ = system.printed_sheets([character])
    paper = printing.paper_for(request)
    html = printing.render_html(sheets, paper=paper, request=request,
                                template=system.templates.print, system=system,
                                title=f"{character.display_name}: printed sheet", controls={
                                    "heading": f"Print {character.display_name}",
                                    "pdf_url": reverse("characters:sheet_pdf", args=[pk]),
                                    "back_url": character.get_absolute_url(),
                                    "back_label": "Back to the character",
                                    "portrait_url": reverse("characters:portrait", args=[pk])
                                    if character.owner_id == request.user.pk else "",
                                })
    return HttpResponse(html)


@login_required
@require_GET
def character_sheet_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    """The same page as a PDF, rendered by WeasyPrint."""
    character = _printable_character(request, pk)
    system = character.game_system
    sheets, portraits = system.printed_sheets([character])
    paper = printing.paper_for(request)
    html = printing.render_html(sheets, paper=paper, request=request,
                                template=system.templates.print, system=system,
                                title=character.display_name)
    return printing.pdf_download(html, portraits=portraits,
                                 filename=pdf_filename(character.display_name, "sheet"))


@login_required
@require_http_methods(["GET", "POST"])
def character_portrait(request: HttpRequest, pk: int) -> HttpResponse:
    """Upload, replace or remove the portrait (the owner only)."""
    character = get_object_or_404(Character.objects.editable_by(request.user), pk=pk)
    form = PortraitForm()
    if request.method == "POST":
        if request.POST.get("action") == "remove":
            character_portrait_set(character=character, content=None)
            messages.success(request, "The portrait was removed.")
            return redirect("characters:portrait", pk=pk)
        form = PortraitForm(request.POST, request.FILES)
        if form.is_valid():
            character_portrait_set(character=character, content=form.cleaned_data["portrait"])
            messages.success(request, "The portrait was saved; it prints in the Picture box.")
            return redirect("characters:portrait", pk=pk)
    return render(request, "characters/character_portrait.html", {
        "character": character, "form": form,
        "portrait_url": versioned(portrait_url(character), character),
    })


@login_required
@require_GET
def portrait_image(request: HttpRequest, pk: int) -> FileResponse:
    """The portrait itself, checked like the character's page; never public media."""
    character = get_object_or_404(Character.objects.visible_to(request.user), pk=pk)
    if not character.portrait:
        raise Http404("No portrait.")
    try:
        handle = character.portrait.open("rb")
    except FileNotFoundError:
        raise Http404("No portrait.") from None
    response = FileResponse(handle, content_type=content_type_for(character.portrait.name))
    response["Cache-Control"] = "private, max-age=300"
    response["X-Content-Type-Options"] = "nosniff"
    return response
