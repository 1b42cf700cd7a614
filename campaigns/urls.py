from django.urls import path

from characters import print_views, stash_views

from . import initiative_views, roll_views, views

app_name = "campaigns"

urlpatterns = [
    path("", views.campaign_list, name="list"),
    path("new/", views.campaign_create, name="create"),
    path("join/<str:code>/", views.campaign_join, name="join"),
    path("<int:pk>/", views.campaign_detail, name="detail"),
    path("<int:pk>/invitations/", views.invitation_create, name="invitation_create"),
    path("<int:pk>/invitations/<int:invitation_pk>/revoke/", views.invitation_revoke,
         name="invitation_revoke"),
    path("<int:pk>/bring/", views.character_bring, name="bring"),
    path("<int:pk>/bring/duplicate/", views.character_duplicate_join, name="duplicate_join"),
    path("<int:pk>/sessions/", views.session_list, name="sessions"),
    path("<int:pk>/sessions/<int:number>/", views.session_detail, name="session_detail"),

    # The ritual at the start of a session (Characters > Advancement).
    path("<int:pk>/sessions/<int:number>/turn/", views.highlight_turn, name="turn"),
    path("<int:pk>/sessions/<int:number>/absence/", views.absence_set, name="absence"),
    path("<int:pk>/sessions/<int:number>/invest/", views.quest_invest, name="invest"),
    path("<int:pk>/sessions/<int:number>/quests/<int:quest_pk>/complete/",
         views.quest_complete, name="quest_complete"),
    path("<int:pk>/sessions/<int:number>/xp/<int:entry_pk>/reverse/", views.xp_entry_reverse,
         name="xp_reverse"),

    # The table: members, co-Imps, handing over, leaving.
    path("<int:pk>/members/", views.campaign_members, name="members"),
    path("<int:pk>/members/<int:user_pk>/co-imp/", views.co_imp_add, name="co_imp_add"),
    path("<int:pk>/members/<int:user_pk>/player/", views.co_imp_remove, name="co_imp_remove"),
    path("<int:pk>/members/<int:user_pk>/leave/", views.membership_leave,
         name="membership_leave"),
    path("<int:pk>/handover/", views.imp_handover, name="handover"),

    # One character at the table: its Quests, Highlights and XP ledger; the Highlights log.
    path("<int:pk>/characters/<int:character_pk>/", views.character_detail, name="character"),
    path("<int:pk>/characters/<int:character_pk>/quest/", views.quest_change,
         name="quest_change"),
    path("<int:pk>/characters/<int:character_pk>/quest/abandon/", views.quest_abandon,
         name="quest_abandon"),
    path("<int:pk>/characters/<int:character_pk>/xp/", views.xp_adjust, name="xp_adjust"),
    path("<int:pk>/characters/<int:character_pk>/xp/<int:entry_pk>/reverse/",
         views.character_xp_reverse, name="character_xp_reverse"),
    path("<int:pk>/characters/<int:character_pk>/leave/", views.character_leave,
         name="character_leave"),
    path("<int:pk>/highlights/", views.highlight_log, name="highlights"),

    # The party stash (characters/stash_views.py): gear the party keeps in common.
    path("<int:pk>/stash/", stash_views.stash_detail, name="stash"),
    path("<int:pk>/stash/<int:item_pk>/take/", stash_views.stash_take, name="stash_take"),

    # Volleyball Initiative (campaigns/initiative_views.py): the Imp's tracker, the live view.
    path("<int:pk>/initiative/", initiative_views.encounter_list, name="initiative_list"),
    path("<int:pk>/initiative/<int:encounter_pk>/", initiative_views.encounter_detail,
         name="initiative"),
    path("<int:pk>/initiative/<int:encounter_pk>/party/", initiative_views.party_add,
         name="initiative_party"),
    path("<int:pk>/initiative/<int:encounter_pk>/foes/", initiative_views.foe_add,
         name="initiative_foe"),
    path("<int:pk>/initiative/<int:encounter_pk>/combatants/<int:combatant_pk>/remove/",
         initiative_views.combatant_remove, name="initiative_remove"),
    path("<int:pk>/initiative/<int:encounter_pk>/combatants/<int:combatant_pk>/hp/",
         initiative_views.combatant_hp, name="initiative_hp"),
    path("<int:pk>/initiative/<int:encounter_pk>/combatants/<int:combatant_pk>/statuses/",
         initiative_views.combatant_statuses, name="initiative_statuses"),
    path("<int:pk>/initiative/<int:encounter_pk>/step/", initiative_views.step,
         name="initiative_step"),
    path("<int:pk>/initiative/<int:encounter_pk>/undo/", initiative_views.undo,
         name="initiative_undo"),

    # The party's printed sheets, to print or as one PDF (characters/print_views.py).
    path("<int:pk>/party/print/", print_views.party_print, name="party_print"),
    path("<int:pk>/party.pdf", print_views.party_pdf, name="party_pdf"),

    # The session's roll log (campaigns/roll_views.py), polled live by the table.
    path("<int:pk>/sessions/<int:number>/log/", roll_views.session_log, name="session_log"),
]
