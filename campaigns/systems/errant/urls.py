"""Errant's campaign pages. The generic URLconfs read these lists from every registered
system's campaign package (campaigns.systems.campaign_urlpatterns); URL names are global
across systems, so Errant's are prefixed `errant_`; its views answer 404 for a campaign
of another system. campaign_links are the links the generic campaign page shows. Each
part of the table adds its routes in its own block."""

from django.urls import path, reverse

from . import advancement_views, company_views, roll_urls

# Under /campaigns/, in the "campaigns" namespace (campaigns/urls.py).
campaign_urlpatterns: list = []
# Under /characters/, in the "characters" namespace (campaigns/character_urls.py).
character_urlpatterns: list = []

# --- The Company (company_views.py): roles, marching order, debt, Factions, XP from money
# wasted.
_CO = "<id:pk>/company/"
campaign_urlpatterns += [
    path(_CO, company_views.company_page, name="errant_company"),
    path(_CO + "roles/", company_views.roles_set, name="errant_roles"),
    path(_CO + "march/", company_views.march_move, name="errant_march"),
    path(_CO + "debt/", company_views.debt_change, name="errant_debt"),
    path(_CO + "debt/<id:entry_pk>/undo/", company_views.debt_undo, name="errant_debt_undo"),
    path(_CO + "factions/", company_views.faction_add, name="errant_faction_add"),
    path(_CO + "factions/<id:faction_pk>/reputation/", company_views.reputation_change,
         name="errant_reputation"),
    path(_CO + "reputation/<id:entry_pk>/undo/", company_views.reputation_undo,
         name="errant_reputation_undo"),
    path(_CO + "waste/", company_views.waste_grant, name="errant_waste"),
]

# --- Advancement (advancement_views.py): the Renown raises, the Fame roll, the Ancestry
# ability, shown on the campaign's character page.
campaign_urlpatterns += [
    path(_CO + "errants/<id:character_pk>/renown/", advancement_views.renown_pick,
         name="errant_renown_pick"),
    path(_CO + "renown/<id:pick_pk>/undo/", advancement_views.renown_undo,
         name="errant_renown_undo"),
    path(_CO + "errants/<id:character_pk>/fame/", advancement_views.fame_roll,
         name="errant_fame"),
    path(_CO + "errants/<id:character_pk>/ancestry/", advancement_views.ancestry_use,
         name="errant_ancestry_use"),
    path(_CO + "ancestry/<id:use_pk>/undo/", advancement_views.ancestry_undo,
         name="errant_ancestry_undo"),
]

# --- Checks at the table (roll_urls.py): the Play page and the session's roll log.
campaign_urlpatterns += roll_urls.campaign_urlpatterns
character_urlpatterns += roll_urls.character_urlpatterns
session_links = roll_urls.session_links


def campaign_links(campaign, *, runs: bool = False) -> list[tuple[str, str]]:
    """The campaign page's links to the Company page and the Turn log (everyone reads them;
    the Guide edits)."""
    return [("The Company", reverse("campaigns:errant_company", args=[campaign.pk])),
            ("The Turn log", reverse("campaigns:errant_turns", args=[campaign.pk]))]

# --- The Turn log and Travel Turns (turn_views.py; issue 15): the log (live for every
# member), a Travel Turn run with its Event Die's odds shown first, another Turn zoomed
# in, the newest Turn undone.
from . import turn_views  # noqa: E402

campaign_urlpatterns += [
    path(_CO + "turns/", turn_views.turns_page, name="errant_turns"),
    path(_CO + "turns/log/", turn_views.turns_log, name="errant_turn_log"),
    path(_CO + "turns/other/", turn_views.turn_other, name="errant_turn_other"),
    path(_CO + "turns/<id:turn_pk>/undo/", turn_views.turn_undo, name="errant_turn_undo"),
    path(_CO + "turns/travel/", turn_views.travel_run, name="errant_travel_run"),
    path(_CO + "turns/travel/odds/", turn_views.travel_odds, name="errant_travel_odds"),
]
