"""METTLE Core's campaign pages: the Guide's make-up XP in the session's ritual and a
character's Spend XP page (advancement_views.py; its ritual runs on the generic session
page). The generic URLconfs read these lists from every registered system's campaign
package (campaigns.systems.campaign_urlpatterns). URL names are global across systems:
METTLE's start with `mettle_`."""

from django.urls import path

from . import advancement_views

# Under /campaigns/, in the "campaigns" namespace (campaigns/urls.py).
campaign_urlpatterns: list = [
    path("<id:pk>/sessions/<id:number>/mettle/make-up/", advancement_views.make_up_award,
         name="mettle_make_up"),
]

# Under /characters/, in the "characters" namespace (campaigns/character_urls.py).
character_urlpatterns: list = [
    path("<id:pk>/mettle/xp/", advancement_views.advancement_page,
         name="mettle_advancement"),
    path("<id:pk>/mettle/xp/raise/", advancement_views.raise_buy, name="mettle_raise"),
    path("<id:pk>/mettle/xp/raise/<id:raise_pk>/undo/", advancement_views.raise_undo,
         name="mettle_raise_undo"),
    path("<id:pk>/mettle/vouchers/grant/", advancement_views.voucher_grant,
         name="mettle_voucher_grant"),
    path("<id:pk>/mettle/vouchers/spend/", advancement_views.voucher_spend,
         name="mettle_voucher_spend"),
    path("<id:pk>/mettle/vouchers/<id:entry_pk>/undo/", advancement_views.voucher_undo,
         name="mettle_voucher_undo"),
    path("<id:pk>/mettle/contacts/lost/", advancement_views.contact_lose,
         name="mettle_contact_lost"),
    path("<id:pk>/mettle/contacts/regained/", advancement_views.contact_regain,
         name="mettle_contact_regained"),
]
