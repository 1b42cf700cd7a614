from django.urls import path

from . import give_views, print_views, stash_views, views
from .systems import campaign_urlpatterns

app_name = "campaigns"

urlpatterns = [
    path("", views.campaign_list, name="list"),
    path("new/", views.campaign_create, name="create"),
    # A join code is secrets.token_urlsafe: a slug; anything else (a NUL byte) is a 404.
    path("join/<slug:code>/", views.campaign_join, name="join"),
    path("<id:pk>/", views.campaign_detail, name="detail"),
    path("<id:pk>/edit/", views.campaign_edit, name="edit"),
    path("<id:pk>/invitations/", views.invitation_create, name="invitation_create"),
    path("<id:pk>/invitations/<id:invitation_pk>/revoke/", views.invitation_revoke,
         name="invitation_revoke"),
    path("<id:pk>/bring/", views.character_bring, name="bring"),
    path("<id:pk>/bring/duplicate/", views.character_duplicate_join, name="duplicate_join"),
    path("<id:pk>/sessions/", views.session_list, name="sessions"),
    path("<id:pk>/sessions/<id:number>/", views.session_detail, name="session_detail"),

    # The ritual at the start of a session (Characters > Advancement); what the game
    # system adds to it (Eldritch Gambit's Quest XP) is in its campaign package's URLs.
    path("<id:pk>/sessions/<id:number>/turn/", views.highlight_turn, name="turn"),
    path("<id:pk>/sessions/<id:number>/absence/", views.absence_set, name="absence"),
    path("<id:pk>/sessions/<id:number>/close/", views.ritual_close, name="ritual_close"),
    path("<id:pk>/sessions/<id:number>/xp/<id:entry_pk>/reverse/", views.xp_entry_reverse,
         name="xp_reverse"),

    # The table: members, co-Imps, handing over, leaving.
    path("<id:pk>/members/", views.campaign_members, name="members"),
    path("<id:pk>/members/<id:user_pk>/co-imp/", views.co_imp_add, name="co_imp_add"),
    path("<id:pk>/members/<id:user_pk>/player/", views.co_imp_remove, name="co_imp_remove"),
    path("<id:pk>/members/<id:user_pk>/leave/", views.membership_leave,
         name="membership_leave"),
    path("<id:pk>/handover/", views.imp_handover, name="handover"),

    # One character at the table: its Highlights and XP ledger (and its system's part:
    # Eldritch Gambit's Quests); the Highlights log.
    path("<id:pk>/characters/<id:character_pk>/", views.character_detail, name="character"),
    path("<id:pk>/characters/<id:character_pk>/xp/", views.xp_adjust, name="xp_adjust"),
    path("<id:pk>/characters/<id:character_pk>/xp/<id:entry_pk>/reverse/",
         views.xp_entry_reverse, name="character_xp_reverse"),
    path("<id:pk>/characters/<id:character_pk>/leave/", views.character_leave,
         name="character_leave"),
    path("<id:pk>/highlights/", views.highlight_log, name="highlights"),

    # The party stash (campaigns/stash_views.py): gear the party keeps in common.
    path("<id:pk>/stash/", stash_views.stash_detail, name="stash"),
    path("<id:pk>/stash/<id:item_pk>/take/", stash_views.stash_take, name="stash_take"),
    # Giving a line for a system whose campaign side has no hand-over view (Errant).
    path("characters/<id:pk>/items/<id:item_pk>/give/", give_views.item_give,
         name="errant_item_give"),

    # The party's printed sheets, to print or as one PDF (campaigns/print_views.py).
    path("<id:pk>/party/print/", print_views.party_print, name="party_print"),
    path("<id:pk>/party.pdf", print_views.party_pdf, name="party_pdf"),
]

# The pages of the campaign's game system, if it has any (its Quests, its Initiative
# tracker, its session roll log): GameSystem.campaign_package (rules/systems.py).
urlpatterns += campaign_urlpatterns("campaign_urlpatterns")
