"""Eldritch Gambit's own character pages: the Template page, the inventory and the blank
sheet. Served under characters/ in the "characters" namespace with the generic pages
(GameSystem.urls, included by config/urls.py), so their paths and names are
`characters:template`, `characters:inventory`, ... as before."""

from django.urls import path

from . import inventory_views, print_views, template_views

urlpatterns = [
    path("<id:pk>/template/", template_views.character_template, name="template"),
    path("<id:pk>/template/preview/", template_views.character_template_preview,
         name="template_preview"),

    # The inventory (inventory_views.py).
    path("<id:pk>/inventory/", inventory_views.inventory_detail, name="inventory"),
    path("<id:pk>/inventory/catalog/", inventory_views.inventory_catalog,
         name="inventory_catalog"),
    path("<id:pk>/inventory/add/", inventory_views.inventory_add, name="inventory_add"),
    path("<id:pk>/inventory/add-free/", inventory_views.inventory_add_free,
         name="inventory_add_free"),
    path("<id:pk>/inventory/starting-gear/", inventory_views.inventory_starting_gear,
         name="inventory_starting_gear"),
    path("<id:pk>/inventory/coins/", inventory_views.inventory_coins, name="inventory_coins"),
    path("<id:pk>/inventory/coins/<id:entry_pk>/reverse/",
         inventory_views.inventory_coin_reverse, name="coin_reverse"),
    path("<id:pk>/inventory/<id:item_pk>/quantity/", inventory_views.item_quantity,
         name="item_quantity"),
    path("<id:pk>/inventory/<id:item_pk>/equip/", inventory_views.item_equip,
         name="item_equip"),
    path("<id:pk>/inventory/<id:item_pk>/coverage/", inventory_views.item_coverage,
         name="item_coverage"),
    path("<id:pk>/inventory/<id:item_pk>/drop/", inventory_views.item_drop, name="item_drop"),
    path("<id:pk>/inventory/<id:item_pk>/pick-up/", inventory_views.item_pick_up,
         name="item_pick_up"),
    path("<id:pk>/inventory/<id:item_pk>/move/", inventory_views.item_move, name="item_move"),
    path("<id:pk>/inventory/<id:item_pk>/sell/", inventory_views.item_sell, name="item_sell"),
    path("<id:pk>/inventory/<id:item_pk>/remove/", inventory_views.item_remove,
         name="item_remove"),
    path("<id:pk>/inventory/<id:item_pk>/charges/", inventory_views.item_charges,
         name="item_charges"),
    path("<id:pk>/inventory/<id:item_pk>/attune/", inventory_views.item_attune,
         name="item_attune"),

    path("blank-sheet.pdf", print_views.blank_sheet_pdf, name="blank_sheet_pdf"),
]
