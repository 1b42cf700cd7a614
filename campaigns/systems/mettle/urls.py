"""METTLE Core's campaign pages (its ritual runs on the generic session page). The
generic URLconfs read these lists from every registered system's campaign package
(campaigns.systems.campaign_urlpatterns)."""

from django.urls import path

from . import transfer_views

# Under /campaigns/, in the "campaigns" namespace (campaigns/urls.py).
campaign_urlpatterns: list = []

# Under /characters/, in the "characters" namespace (campaigns/character_urls.py).
character_urlpatterns: list = [
    # Giving gear from the inventory page; the Guide restoring lost Credit
    # (transfer_views.py).
    path("<id:pk>/mettle-inventory/<id:item_pk>/give/", transfer_views.item_give,
         name="mettle_item_give"),
    path("<id:pk>/mettle-credit/restore/", transfer_views.credit_restore,
         name="mettle_credit_restore"),
]
