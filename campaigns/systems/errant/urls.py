"""Errant's campaign pages. The generic URLconfs read these lists from every registered
system's campaign package (campaigns.systems.campaign_urlpatterns); URL names are global
across systems, so Errant's are prefixed `errant_`; its views answer 404 for a campaign
of another system. campaign_links are the links the generic campaign page shows. Each
part of the table adds its routes in its own block."""

from django.urls import path, reverse

from . import (
    advancement_views,
    company_views,
    downtime_views,
    fight_views,
    roll_urls,
    roster_views,
    screen_views,
    turn_views,
    wound_views,
)

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

# --- Lasting wounds (wound_views.py; IT §Death & Dying), on the campaign's character page:
# the Guide marks one healed, or undoes that.
campaign_urlpatterns += [
    path(_CO + "wounds/<id:wound_pk>/heal/", wound_views.wound_heal, name="errant_wound_heal"),
    path(_CO + "heals/<id:heal_pk>/undo/", wound_views.wound_heal_undo,
         name="errant_wound_heal_undo"),
]

# --- Checks at the table (roll_urls.py): the Play page and the session's roll log.
campaign_urlpatterns += roll_urls.campaign_urlpatterns
character_urlpatterns += roll_urls.character_urlpatterns
session_links = roll_urls.session_links


# --- The Guide's screen (screen_views.py; issue #15): Exploration Turns, Reactions and
# Negotiations, Chases, recorded in the Turn log. Guide-only.
campaign_urlpatterns += [
    path(_CO + "screen/", screen_views.screen_page, name="errant_screen"),
    *(path(_CO + f"screen/{op}/", view, name=f"errant_screen_{op}")
      for op, view in screen_views.ACTIONS.items()),
]

# --- The Downtime Turn walked step by step (downtime_views.py; issue 15, "Downtime Turns").
campaign_urlpatterns += [
    path(_CO + "downtime/", downtime_views.downtime_page, name="errant_downtime"),
    path(_CO + "downtime/log/", downtime_views.downtime_log, name="errant_downtime_log"),
    path(_CO + "downtime/start/", downtime_views.downtime_start,
         name="errant_downtime_start"),
    path(_CO + "downtime/step/", downtime_views.downtime_step, name="errant_downtime_step"),
    path(_CO + "downtime/undo/", downtime_views.downtime_undo, name="errant_downtime_undo"),
    path(_CO + "downtime/scourges/", downtime_views.downtime_scourge,
         name="errant_downtime_scourge"),
]

# --- Adjutants, rosters and training (roster_views.py; issue 14): one page, the Roster.
_RO = "<id:pk>/company/roster/"
campaign_urlpatterns += [
    path(_RO, roster_views.roster_page, name="errant_roster"),
    path(_RO + "swap/", roster_views.roster_swap, name="errant_roster_swap"),
    path(_RO + "adjutant/", roster_views.adjutant_attach, name="errant_adjutant"),
    path(_RO + "adjutant/<id:link_pk>/undo/", roster_views.adjutant_undo,
         name="errant_adjutant_undo"),
    path(_RO + "training/", roster_views.training, name="errant_training"),
    path(_RO + "training/<id:training_pk>/undo/", roster_views.training_undo,
         name="errant_training_undo"),
    path(_RO + "settlement/", roster_views.settlement, name="errant_roster_settlement"),
    path(_RO + "trade/", roster_views.trade, name="errant_training_trade"),
    path(_RO + "trade/<id:attempt_pk>/undo/", roster_views.trade_undo,
         name="errant_training_trade_undo"),
]

# --- Initiative Turns at the table (fight_views.py): the Guide's fight page and the
# players' live view (issue 15, "Initiative Turns").
_FI = _CO + "fight/"
campaign_urlpatterns += [
    path(_FI, fight_views.fight_page, name="errant_fight"),
    path(_FI + "start/", fight_views.fight_start, name="errant_fight_start"),
    path(_FI + "live/", fight_views.fight_live, name="errant_fight_live"),
    path(_FI + "<id:fight_pk>/undo/", fight_views.fight_undo, name="errant_fight_undo"),
    path(_FI + "<id:fight_pk>/<slug:kind>/", fight_views.fight_step, name="errant_fight_step"),
]

# --- The Turn log and Travel Turns (turn_views.py; issue 15): the log (live for every
# member), a Travel Turn run with its Event Die's odds shown first, another Turn zoomed
# in, the newest Turn undone.
campaign_urlpatterns += [
    path(_CO + "turns/", turn_views.turns_page, name="errant_turns"),
    path(_CO + "turns/log/", turn_views.turns_log, name="errant_turn_log"),
    path(_CO + "turns/other/", turn_views.turn_other, name="errant_turn_other"),
    path(_CO + "turns/<id:turn_pk>/undo/", turn_views.turn_undo, name="errant_turn_undo"),
    path(_CO + "turns/travel/", turn_views.travel_run, name="errant_travel_run"),
    path(_CO + "turns/travel/odds/", turn_views.travel_odds, name="errant_travel_odds"),
]


def campaign_links(campaign, *, runs: bool = False) -> list[tuple[str, str]]:
    """The campaign page's links to Errant's pages: the Company, its Turn log, Roster and
    training and Downtime for everyone (the Guide runs them); the Guide's screen and fight
    page for those who run the table, the fight's live view for the players while one is
    under way."""
    from .fight import current_of

    links = [("The Company", reverse("campaigns:errant_company", args=[campaign.pk])),
             ("The Turn log", reverse("campaigns:errant_turns", args=[campaign.pk])),
             ("Roster and training", reverse("campaigns:errant_roster", args=[campaign.pk])),
             ("Downtime", reverse("campaigns:errant_downtime", args=[campaign.pk]))]
    if runs:
        links += [("Guide's screen", reverse("campaigns:errant_screen", args=[campaign.pk])),
                  ("Fight (Initiative Turns)",
                   reverse("campaigns:errant_fight", args=[campaign.pk]))]
    elif current_of(campaign) is not None:
        links.append(("The fight (live)",
                      reverse("campaigns:errant_fight_live", args=[campaign.pk])))
    return links
