"""Errant's own character pages, under characters/ in the "characters" namespace
(GameSystem.urls); URL names are global across systems, so each starts with `errant_`."""

from django.urls import path

from . import market_views, views

urlpatterns = [
    path("<id:pk>/errant/move/", views.item_move, name="errant_item_move"),
    path("<id:pk>/errant/use/", views.item_use, name="errant_item_use"),
    path("<id:pk>/errant/check/", views.check_odds, name="errant_check_odds"),
    # Money, buying and selling (market_views.py); the stash links here.
    path("<id:pk>/errant/gear/", market_views.gear_page, name="errant_gear"),
    path("<id:pk>/errant/gear/buy/", market_views.buy, name="errant_buy"),
    path("<id:pk>/errant/gear/<id:item_pk>/sell/", market_views.sell, name="errant_sell"),
    path("<id:pk>/errant/gear/undo/", market_views.undo, name="errant_trade_undo"),
    path("<id:pk>/errant/gear/money/", market_views.money, name="errant_money"),
    path("<id:pk>/errant/gear/money/undo/", market_views.money_undo,
         name="errant_money_undo"),
]
