"""Errant's own character pages, under characters/ in the "characters" namespace
(GameSystem.urls); URL names are global across systems, so each starts with `errant_`."""

from django.urls import path

from . import views

urlpatterns = [
    path("<id:pk>/errant/move/", views.item_move, name="errant_item_move"),
    path("<id:pk>/errant/use/", views.item_use, name="errant_item_use"),
    path("<id:pk>/errant/check/", views.check_odds, name="errant_check_odds"),
]
