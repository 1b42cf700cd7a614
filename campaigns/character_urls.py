"""The campaign-level character pages, at /characters/... beside the builder's:
config/urls.py serves them with characters/urls.py under one "characters" namespace, so
their paths and names are the ones they always had."""

from django.urls import path

from . import character_views, roll_views, transfer_views

urlpatterns = [
    # A new character, perhaps built for a campaign (campaigns/character_views.py).
    path("new/", character_views.character_create, name="create"),
    path("preview/", character_views.character_preview, name="preview"),

    # Handing gear to the party (campaigns/transfer_views.py, campaigns/transfers.py).
    path("<id:pk>/inventory/<id:item_pk>/give/", transfer_views.item_give, name="item_give"),

    # Checks and Rolls from the sheet (campaigns/roll_views.py): odds, Gambits, Rerolls, the log.
    path("<id:pk>/play/", roll_views.play, name="play"),
    path("<id:pk>/play/odds/", roll_views.check_odds_view, name="check_odds"),
    path("<id:pk>/play/action/", roll_views.check_action, name="check_action"),
    path("<id:pk>/play/check/", roll_views.check_roll, name="check"),
    path("<id:pk>/play/check/<id:roll_pk>/gambit/", roll_views.gambit, name="gambit"),
    path("<id:pk>/play/roll/", roll_views.roll_view, name="roll"),
    path("<id:pk>/play/roll/<id:roll_pk>/reroll/", roll_views.reroll_view, name="reroll"),
    path("<id:pk>/play/log/", roll_views.character_log, name="roll_log"),
]
