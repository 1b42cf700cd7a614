"""The campaign-level character pages, at /characters/... beside the builder's:
config/urls.py serves them with characters/urls.py under one "characters" namespace, so
their paths and names are the ones they always had."""

from django.urls import path

from . import character_views
from .systems import campaign_urlpatterns

urlpatterns = [
    # A new character, perhaps built for a campaign (campaigns/character_views.py).
    path("new/", character_views.character_create, name="create"),
    path("preview/", character_views.character_preview, name="preview"),
]

# The character pages of a game system's campaign side, if it has any (Eldritch Gambit:
# Checks and Rolls from the sheet, giving gear from its inventory page):
# GameSystem.campaign_package (rules/systems.py).
urlpatterns += campaign_urlpatterns("character_urlpatterns")
