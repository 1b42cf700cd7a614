"""METTLE Core's campaign pages. The generic URLconfs read these lists from every
registered system's campaign package (campaigns.systems.campaign_urlpatterns); URL names
are global across systems, so METTLE's begin with `mettle_`. campaign_links are the
links the generic campaign page shows to them."""

from django.urls import path, reverse

from . import initiative_views as ini

_ENC = "<id:pk>/mettle-initiative/<id:encounter_pk>/"
_ONE = _ENC + "combatants/<id:combatant_pk>/"

# Under /campaigns/, in the "campaigns" namespace (campaigns/urls.py).
campaign_urlpatterns: list = [
    # Volleyball Initiative, METTLE's version (initiative_views.py): the Guide's tracker
    # and the players' live view.
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

# Under /characters/, in the "characters" namespace (campaigns/character_urls.py).
character_urlpatterns: list = []


def campaign_links(campaign) -> list[tuple[str, str]]:
    """The campaign page's link to the Initiative tracker."""
    return [("Initiative", reverse("campaigns:mettle_initiative_list", args=[campaign.pk]))]
