"""METTLE Core's campaign pages. The generic URLconfs read these lists from every
registered system's campaign package (campaigns.systems.campaign_urlpatterns); its views
answer 404 for a campaign of another system. campaign_links and session_links are the
links the generic campaign and session pages show to them."""

from django.urls import path, reverse

from . import guide_views

# Under /campaigns/, in the "campaigns" namespace (campaigns/urls.py).
campaign_urlpatterns: list = [
    # The Guide's screen (guide_views.py): tables, party, NPC pools, the Faction triangle.
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
]

# Under /characters/, in the "characters" namespace (campaigns/character_urls.py).
character_urlpatterns: list = []


def campaign_links(campaign) -> list[tuple[str, str]]:
    """The campaign page's links (the Guide's screen answers only its Guide)."""
    return [("Guide's screen", reverse("campaigns:mettle_guide", args=[campaign.pk]))]


def session_links(session) -> list[tuple[str, str]]:
    """No page of a session of its own yet."""
    return []
