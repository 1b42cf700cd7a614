"""The tiny campaign side's pages (the protocol of a system's campaign package's urls.py,
README "Adding a game system"), with the route and name Eldritch Gambit's do not use."""

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import path, reverse

from campaigns.models import Campaign

from ..system import KEY


def brawl(request, pk: int) -> HttpResponse:
    campaign = get_object_or_404(Campaign, pk=pk)
    if campaign.system != KEY:
        raise Http404("Another system's campaign.")
    return HttpResponse(f"The brawl of {campaign.name}")


campaign_urlpatterns = [path("<id:pk>/brawl/", brawl, name="tiny_brawl")]


def campaign_links(campaign, *, runs: bool = False) -> list[tuple[str, str]]:
    return [("Brawl", reverse("campaigns:tiny_brawl", args=[campaign.pk]))]
