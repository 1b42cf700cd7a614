"""Errant's campaign pages (minimal: the lead merges errcamp's urls.py here). The Checks at
the table come from roll_urls.py."""

from . import roll_urls

campaign_urlpatterns: list = [*roll_urls.campaign_urlpatterns]
character_urlpatterns: list = [*roll_urls.character_urlpatterns]
session_links = roll_urls.session_links
