"""The printed sheet: the print view, its PDF, the blank sheet, the Imp's party pack,
and the portrait (upload, remove, and the picture itself, served only to those who may
see the character: its owner and the Imp and co-Imps of its campaign, the rule of
Character.objects.visible_to). The sheets themselves are read by characters/selectors.py."""

from __future__ import annotations

import functools

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods

from campaigns.models import IMP_ROLES, Campaign, Membership

from . import printing
from .models import Character, InventoryItem
from .portraits import PortraitForm, character_portrait_set, content_type_for
from .selectors import portrait_url, printed_sheets, versioned
from .systems.eldritch_gambit.models import EldritchGambitCharacter


def _with_items(queryset):
    return queryset.prefetch_related(
        Prefetch("items", queryset=InventoryItem.objects.select_related("catalog_item")))


def _printable_character(request: HttpRequest, pk: int) -> EldritchGambitCharacter:
    """The character to print, if the user may see it, with its items and ledger sums."""
    return get_object_or_404(
        _with_items(EldritchGambitCharacter.objects.visible_to(request.user).with_progress()),
        pk=pk)


def _filename(name: str, suffix: str) -> str:
    return f"{slugify(name) or 'character'}-{suffix}.pdf"


@login_required
@require_GET
def character_print(request: HttpRequest, pk: int) -> HttpResponse:
    """The sheet as a page to print from the browser (one landscape page)."""
    character = _printable_character(request, pk)
    sheets, _ = printed_sheets([character])
    paper = printing.paper_for(request)
    html = printing.render_html(sheets, paper=paper, request=request,
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
    sheets, portraits = printed_sheets([character])
    paper = printing.paper_for(request)
    html = printing.render_html(sheets, paper=paper, request=request,
                                title=character.display_name)
    return printing.pdf_response(printing.render_pdf(html, portraits=portraits),
                                 _filename(character.display_name, "sheet"))


@functools.lru_cache(maxsize=len(printing.PAPERS))
def _blank_pdf(paper_key: str) -> bytes:
    html = printing.render_html([printing.blank_sheet()], paper=printing.PAPERS[paper_key],
                                title="Blank character sheet")
    return printing.render_pdf(html)


@require_GET
def blank_sheet_pdf(request: HttpRequest) -> HttpResponse:
    """A sheet with nothing written on it. Open to anyone (it holds no one's data),
    rendered once per paper size and kept."""
    paper = printing.paper_for(request)
    return printing.pdf_response(_blank_pdf(paper.key), f"eldritch-gambit-blank-sheet-"
                                                        f"{paper.key}.pdf")


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


def _party(request: HttpRequest, pk: int) -> tuple[Campaign, list[EldritchGambitCharacter]]:
    """The campaign and its characters, for the Imp and the co-Imps (404 for
    non-members, 403 for players, as the campaign's pages do)."""
    membership = Membership.objects.of_or_404(request.user, pk)
    if membership.role not in IMP_ROLES:
        raise PermissionDenied("Only the Imp or a co-Imp may print the party.")
    campaign = membership.campaign
    return campaign, list(_with_items(
        EldritchGambitCharacter.objects.filter(campaign=campaign).with_progress()))


def _nothing_to_print(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    messages.info(request, "No character plays in this campaign yet: nothing to print.")
    return redirect(campaign)


@login_required
@require_GET
def party_print(request: HttpRequest, pk: int) -> HttpResponse:
    """Every character of the campaign, one page each, to print from the browser."""
    campaign, characters = _party(request, pk)
    if not characters:
        return _nothing_to_print(request, campaign)
    sheets, _ = printed_sheets(characters)
    html = printing.render_html(sheets, paper=printing.paper_for(request), request=request,
                                title=f"{campaign.name}: the party", controls={
                                    "heading": f"Print the party of {campaign.name}",
                                    "pdf_url": reverse("campaigns:party_pdf", args=[pk]),
                                    "back_url": campaign.get_absolute_url(),
                                    "back_label": "Back to the campaign",
                                    "portrait_url": "",
                                })
    return HttpResponse(html)


@login_required
@require_GET
def party_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    """The same pages in one PDF, rendered by WeasyPrint."""
    campaign, characters = _party(request, pk)
    if not characters:
        return _nothing_to_print(request, campaign)
    sheets, portraits = printed_sheets(characters)
    html = printing.render_html(sheets, paper=printing.paper_for(request), request=request,
                                title=f"{campaign.name}: the party")
    return printing.pdf_response(printing.render_pdf(html, portraits=portraits),
                                 _filename(campaign.name, "party"))
