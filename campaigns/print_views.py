"""The party's printed sheets, for the Imp and the co-Imps: every character of the
campaign, one page each, to print from the browser or as one PDF. The sheets are the
characters' own (characters/selectors.py, characters/printing.py)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_GET

from characters import printing
from characters.models import Character, as_built
from characters.print_views import pdf_filename, with_items

from .models import IMP_ROLES, Campaign, Membership


def _party(request: HttpRequest, pk: int) -> tuple[Campaign, list[Character]]:
    """The campaign and its characters, for the Imp and the co-Imps (404 for
    non-members, 403 for players, as the campaign's pages do)."""
    membership = Membership.objects.of_or_404(request.user, pk)
    if membership.role not in IMP_ROLES:
        raise PermissionDenied("Only the Imp or a co-Imp may print the party.")
    campaign = membership.campaign
    return campaign, with_items([as_built(character) for character in (
        Character.objects.filter(campaign=campaign).with_progress().with_builds())])


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
    system = campaign.game_system
    sheets, _ = system.printed_sheets(characters)
    html = printing.render_html(sheets, paper=printing.paper_for(request), request=request,
                                template=system.templates.print, system=system,
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
    system = campaign.game_system
    sheets, portraits = system.printed_sheets(characters)
    html = printing.render_html(sheets, paper=printing.paper_for(request), request=request,
                                template=system.templates.print, system=system,
                                title=f"{campaign.name}: the party")
    return printing.pdf_download(html, portraits=portraits,
                                 filename=pdf_filename(campaign.name, "party"))
