"""METTLE Core's campaign pages. The generic URLconfs read these lists from every
registered system's campaign package (campaigns.systems.campaign_urlpatterns); URL names
are global across systems, so METTLE's are prefixed `mettle_`; its views answer 404 for a
campaign of another system. campaign_links and session_links are the links the generic
campaign and session pages show to them. Each part of the table adds its routes in its
own block."""

from django.urls import path, reverse

from . import advancement_views, guide_views, roll_views, transfer_views
from . import initiative_views as ini

# Under /campaigns/, in the "campaigns" namespace (campaigns/urls.py).
campaign_urlpatterns: list = []
# Under /characters/, in the "characters" namespace (campaigns/character_urls.py).
character_urlpatterns: list = []

# --- The Guide's screen (guide_views.py): tables, party, NPC pools, the Faction triangle.
campaign_urlpatterns += [
    path("<id:pk>/guide/", guide_views.guide_screen, name="mettle_guide"),
    path("<id:pk>/guide/npcs/", guide_views.npc_add, name="mettle_npc_add"),
    path("<id:pk>/guide/npcs/<id:npc_pk>/", guide_views.npc_edit, name="mettle_npc_edit"),
    path("<id:pk>/guide/npcs/<id:npc_pk>/delete/", guide_views.npc_delete,
         name="mettle_npc_delete"),
    path("<id:pk>/guide/factions/roll/", guide_views.factions_roll,
         name="mettle_factions_roll"),
    path("<id:pk>/guide/factions/name/", guide_views.faction_name, name="mettle_faction_name"),
    path("<id:pk>/guide/factions/resources/", guide_views.resources_change,
         name="mettle_resources_change"),
    path("<id:pk>/guide/factions/resources/<id:entry_pk>/undo/", guide_views.resources_undo,
         name="mettle_resources_undo"),
    path("<id:pk>/guide/factions/check/", guide_views.faction_check,
         name="mettle_faction_check"),
    path("<id:pk>/guide/factions/check/<id:check_pk>/twist/", guide_views.faction_twist,
         name="mettle_faction_twist"),
    path("<id:pk>/guide/factions/turn/", guide_views.faction_turn, name="mettle_faction_turn"),
    path("<id:pk>/guide/hazards/", guide_views.hazard_apply, name="mettle_hazard_apply"),
    path("<id:pk>/guide/hazards/<id:hazard_pk>/undo/", guide_views.hazard_undo,
         name="mettle_hazard_undo"),
    path("<id:pk>/guide/hazards/<id:hazard_pk>/tick/", guide_views.affliction_tick,
         name="mettle_affliction_tick"),
]

# --- Volleyball Initiative, METTLE's version (initiative_views.py): the Guide's tracker and
# the players' live view.
_ENC = "<id:pk>/mettle-initiative/<id:encounter_pk>/"
_ONE = _ENC + "combatants/<id:combatant_pk>/"
campaign_urlpatterns += [
    path("<id:pk>/mettle-initiative/", ini.encounter_list, name="mettle_initiative_list"),
    path(_ENC, ini.encounter_detail, name="mettle_initiative"),
    path(_ENC + "party/", ini.party_add, name="mettle_initiative_party"),
    path(_ENC + "npcs/", ini.npc_add, name="mettle_initiative_npc"),
    path(_ENC + "step/", ini.step, name="mettle_initiative_step"),
    path(_ENC + "undo/", ini.undo, name="mettle_initiative_undo"),
    path(_ONE + "remove/", ini.combatant_remove, name="mettle_initiative_remove"),
    path(_ONE + "damage/", ini.combatant_damage, name="mettle_initiative_damage"),
    path(_ONE + "mettle/", ini.combatant_mettle, name="mettle_initiative_mettle"),
    path(_ONE + "statuses/", ini.combatant_statuses, name="mettle_initiative_statuses"),
    path(_ONE + "zone/", ini.combatant_zone, name="mettle_initiative_zone"),
]

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

# --- Advancement (advancement_views.py): the Guide's make-up XP in the session's ritual, a
# character's Spend XP page, Downtime Vouchers, Contacts lost and regained.
campaign_urlpatterns += [
    path("<id:pk>/sessions/<id:number>/mettle/make-up/", advancement_views.make_up_award,
         name="mettle_make_up"),
]
character_urlpatterns += [
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

# --- Gear and Credit (transfer_views.py): giving gear from the inventory page; the Guide
# restoring lost Credit.
character_urlpatterns += [
    path("<id:pk>/mettle-inventory/<id:item_pk>/give/", transfer_views.item_give,
         name="mettle_item_give"),
    path("<id:pk>/mettle-credit/restore/", transfer_views.credit_restore,
         name="mettle_credit_restore"),
]


def campaign_links(campaign, *, runs: bool = False) -> list[tuple[str, str]]:
    """The campaign page's links: the Initiative tracker (the Guide's, and the players'
    live view) for everyone, the Guide's screen only for those who run the campaign."""
    links = [("Initiative", reverse("campaigns:mettle_initiative_list", args=[campaign.pk]))]
    if runs:
        links.append(("Guide's screen", reverse("campaigns:mettle_guide", args=[campaign.pk])))
    return links


def session_links(session) -> list[tuple[str, str]]:
    """The session page's link to its METTLE roll log."""
    return [("Roll log", reverse("campaigns:mettle_session_log",
                                 args=[session.campaign_id, session.number]))]
