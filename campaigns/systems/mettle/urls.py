"""METTLE Core's campaign pages: none of its own yet (its ritual runs on the generic
session page). The generic URLconfs read these lists from every registered system's
campaign package (campaigns.systems.campaign_urlpatterns)."""

# Under /campaigns/, in the "campaigns" namespace (campaigns/urls.py).
campaign_urlpatterns: list = []

# Under /characters/, in the "characters" namespace (campaigns/character_urls.py).
character_urlpatterns: list = []
