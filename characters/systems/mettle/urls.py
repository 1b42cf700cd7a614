"""METTLE Core's own character pages: the inventory (inventory_views.py). Served under
characters/ in the "characters" namespace (GameSystem.urls); URL names are global across
systems, so each is prefixed `mettle_`. Giving a line to the party is the campaign
side's (campaigns/systems/mettle/urls.py)."""

from django.urls import path

from . import inventory_views as views

urlpatterns = [
    path("<id:pk>/mettle-inventory/", views.inventory_detail, name="mettle_inventory"),
    path("<id:pk>/mettle-inventory/buy/", views.inventory_buy, name="mettle_inventory_buy"),
    path("<id:pk>/mettle-inventory/add-free/", views.inventory_add_free,
         name="mettle_inventory_add_free"),
    path("<id:pk>/mettle-inventory/<id:item_pk>/drop/", views.item_drop,
         name="mettle_item_drop"),
    path("<id:pk>/mettle-inventory/<id:item_pk>/pick-up/", views.item_pick_up,
         name="mettle_item_pick_up"),
    path("<id:pk>/mettle-inventory/<id:item_pk>/move/", views.item_move,
         name="mettle_item_move"),
    path("<id:pk>/mettle-inventory/<id:item_pk>/wear/", views.item_wear,
         name="mettle_item_wear"),
    path("<id:pk>/mettle-inventory/<id:item_pk>/remove/", views.item_remove,
         name="mettle_item_remove"),
    path("<id:pk>/mettle-inventory/credit/<id:entry_pk>/undo/", views.credit_reverse,
         name="mettle_credit_reverse"),
]
