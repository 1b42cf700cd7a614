"""METTLE Core's campaign pages. The generic URLconfs read these lists from every
registered system's campaign package (campaigns.systems.campaign_urlpatterns); URL names
are global across systems, so METTLE's are prefixed `mettle_`. campaign_links and
session_links are the links the generic campaign and session pages show to them."""

from django.urls import path, reverse

from . import roll_views

# Under /campaigns/, in the "campaigns" namespace (campaigns/urls.py).
campaign_urlpatterns: list = []

# Under /characters/, in the "characters" namespace (campaigns/character_urls.py).
character_urlpatterns: list = []

# --- Checks at the table (roll_views.py): the Play page, its odds, Twists, Split Actions,
# and the session's roll log, polled live by the table.
campaign_urlpatterns += [
    path("<id:pk>/sessions/<id:number>/mettle-log/", roll_views.session_log,
         name="mettle_session_log"),
]
character_urlpatterns += [
    path("<id:pk>/mettle/play/", roll_views.play, name="mettle_play"),
    path("<id:pk>/mettle/play/odds/", roll_views.check_odds_view, name="mettle_check_odds"),
    path("<id:pk>/mettle/play/action/", roll_views.check_action, name="mettle_check_action"),
    path("<id:pk>/mettle/play/check/", roll_views.check_roll, name="mettle_check"),
    path("<id:pk>/mettle/play/check/<id:roll_pk>/twist/", roll_views.twist,
         name="mettle_twist"),
    path("<id:pk>/mettle/play/split/", roll_views.split_view, name="mettle_split"),
    path("<id:pk>/mettle/play/split/roll/", roll_views.split_roll, name="mettle_split_roll"),
]


def session_links(session) -> list[tuple[str, str]]:
    """The session page's link to its METTLE roll log."""
    return [("Roll log", reverse("campaigns:mettle_session_log",
                                 args=[session.campaign_id, session.number]))]
