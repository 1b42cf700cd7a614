"""Errant's Checks at the table (roll_views.py): the Play page, its odds, the roll, and the
session's Errant roll log, polled live by the table. The lead includes these lists from
the package's urls.py; URL names are global across systems, so each starts `errant_`."""

from django.urls import path, reverse

from . import roll_views

# Under /campaigns/, in the "campaigns" namespace (campaigns/urls.py).
campaign_urlpatterns = [
    path("<id:pk>/sessions/<id:number>/errant-log/", roll_views.session_log,
         name="errant_session_log"),
]
# Under /characters/, in the "characters" namespace (campaigns/character_urls.py).
character_urlpatterns = [
    path("<id:pk>/errant/play/", roll_views.play, name="errant_play"),
    path("<id:pk>/errant/play/odds/", roll_views.roll_odds, name="errant_roll_odds"),
    path("<id:pk>/errant/play/kind/", roll_views.roll_panel, name="errant_roll_panel"),
    path("<id:pk>/errant/play/roll/", roll_views.roll, name="errant_roll"),
]


def session_links(session) -> list[tuple[str, str]]:
    """The session page's link to its Errant roll log."""
    return [("Roll log", reverse("campaigns:errant_session_log",
                                 args=[session.campaign_id, session.number]))]
