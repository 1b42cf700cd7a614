"""Eldritch Gambit's campaign pages, with the paths and names they always had: the
generic URLconfs add them (campaigns.systems.campaign_urlpatterns) because the system's
registration names this package. Each view answers 404 for a campaign or character of
another system. campaign_links and session_links are the links the generic campaign and
session pages show to them."""

from django.urls import path, reverse

from . import initiative_views, quest_views, roll_views, transfer_views

# Under /campaigns/, in the "campaigns" namespace (campaigns/urls.py).
campaign_urlpatterns = [
    # The ritual's Quest step and the Quests (quest_views.py).
    path("<id:pk>/sessions/<id:number>/invest/", quest_views.quest_invest, name="invest"),
    path("<id:pk>/sessions/<id:number>/quests/<id:quest_pk>/complete/",
         quest_views.quest_complete, name="quest_complete"),
    path("<id:pk>/characters/<id:character_pk>/quest/", quest_views.quest_change,
         name="quest_change"),
    path("<id:pk>/characters/<id:character_pk>/quest/abandon/", quest_views.quest_abandon,
         name="quest_abandon"),

    # Volleyball Initiative (initiative_views.py): the Imp's tracker, the live view.
    path("<id:pk>/initiative/", initiative_views.encounter_list, name="initiative_list"),
    path("<id:pk>/initiative/<id:encounter_pk>/", initiative_views.encounter_detail,
         name="initiative"),
    path("<id:pk>/initiative/<id:encounter_pk>/party/", initiative_views.party_add,
         name="initiative_party"),
    path("<id:pk>/initiative/<id:encounter_pk>/foes/", initiative_views.foe_add,
         name="initiative_foe"),
    path("<id:pk>/initiative/<id:encounter_pk>/combatants/<id:combatant_pk>/remove/",
         initiative_views.combatant_remove, name="initiative_remove"),
    path("<id:pk>/initiative/<id:encounter_pk>/combatants/<id:combatant_pk>/hp/",
         initiative_views.combatant_hp, name="initiative_hp"),
    path("<id:pk>/initiative/<id:encounter_pk>/combatants/<id:combatant_pk>/statuses/",
         initiative_views.combatant_statuses, name="initiative_statuses"),
    path("<id:pk>/initiative/<id:encounter_pk>/step/", initiative_views.step,
         name="initiative_step"),
    path("<id:pk>/initiative/<id:encounter_pk>/undo/", initiative_views.undo,
         name="initiative_undo"),

    # The session's roll log (roll_views.py), polled live by the table.
    path("<id:pk>/sessions/<id:number>/log/", roll_views.session_log, name="session_log"),
]

# Under /characters/, in the "characters" namespace (campaigns/character_urls.py).
character_urlpatterns = [
    # Checks and Rolls from the sheet (roll_views.py): odds, Gambits, Rerolls, the log.
    path("<id:pk>/play/", roll_views.play, name="play"),
    path("<id:pk>/play/odds/", roll_views.check_odds_view, name="check_odds"),
    path("<id:pk>/play/action/", roll_views.check_action, name="check_action"),
    path("<id:pk>/play/check/", roll_views.check_roll, name="check"),
    path("<id:pk>/play/check/<id:roll_pk>/gambit/", roll_views.gambit, name="gambit"),
    path("<id:pk>/play/roll/", roll_views.roll_view, name="roll"),
    path("<id:pk>/play/roll/<id:roll_pk>/reroll/", roll_views.reroll_view, name="reroll"),
    path("<id:pk>/play/roll/<id:roll_pk>/ally-reroll/", roll_views.ally_reroll_view,
         name="ally_reroll"),
    path("<id:pk>/play/log/", roll_views.character_log, name="roll_log"),

    # Giving gear from the inventory page (transfer_views.py; the hand-over is the
    # generic campaigns/transfers.py).
    path("<id:pk>/inventory/<id:item_pk>/give/", transfer_views.item_give, name="item_give"),
]


def campaign_links(campaign, *, runs: bool = False) -> list[tuple[str, str]]:
    """The campaign page's links to the Initiative tracker and the blank printed sheet."""
    return [("Initiative", reverse("campaigns:initiative_list", args=[campaign.pk])),
            ("Blank sheet (PDF)", reverse("characters:blank_sheet_pdf"))]


def session_links(session) -> list[tuple[str, str]]:
    """The session page's link to its roll log."""
    return [("Roll log", reverse("campaigns:session_log",
                                 args=[session.campaign_id, session.number]))]
