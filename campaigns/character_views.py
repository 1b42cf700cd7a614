"""A new character, perhaps built for a campaign: the builder of characters/views.py at
/characters/new/ and its live preview. With `?campaign=` (the join page's "Build" link,
then a hidden field) the character starts at the campaign's Level and joins the campaign
when it is saved; without, it is the plain builder."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_http_methods, require_POST

from characters import views as character_views
from config.parsing import parse_id

from . import services
from .models import Membership


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


@login_required
@require_http_methods(["GET", "POST"])
def character_create(request: HttpRequest) -> HttpResponse:
    campaign = _joining(request)
    if campaign is None:
        return character_views.builder(request, None)

    def join(character):
        services.character_join(campaign=campaign, character=character, by=request.user)

    return character_views.builder(request, None, joining=campaign, join=join)


@login_required
@require_POST
def character_preview(request: HttpRequest) -> HttpResponse:
    return character_views.preview(request, joining=_joining(request))
