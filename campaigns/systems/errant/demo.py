"""Errant's demo for `manage.py seed_demo` (GameSystem.demo names `seed`): Wren for player2
(characters/systems/errant/demo.py), Ash for player1, then the demo Errant campaign: the
demo Imp is its Guide; player1 brings Ash and player2 brings Wren. Session 1 is started;
the Company has its table roles, a debt and a Faction; Ash wasted money carousing (XP
past Renown 2, the Company's Attribute chosen, Ash's own still pending); the Turn log has a
short day of Travel (seed_travel_day). Seeds once, each part only if missing; safe to run
again."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

from campaigns import services
from campaigns.models import Campaign
from characters.models import Character
from characters.systems.errant import services as character_services
from characters.systems.errant.apps import KEY
from characters.systems.errant.builds import kit_lines
from characters.systems.errant.demo import DEMO_PLAYER, seed_demo

from . import advancement, company
from .advancement_models import ErrantWaste

REQUEST_KEY = "demo-campaign-errant"
CAMPAIGN_NAME = "The Drowned Abbey"
GUIDE = ("imp", "imp-demo-pass", "The demo Guide of the Errant campaign")
PLAYER1 = ("player1", "player1-demo-pass", "Ash's player (Errant)")
# Ash: phys 2+3+4+1 = 10, skill 4+4+2+3 = 13, mind 3+3+4+4 = 14, pres 2+2+1+3 = 8; no
# swap; a Cunning Deviant (ER §Determine Attributes, §Choose Ancestry).
ASH = {
    "name": "Ash",
    "method": "rolled",
    "dice": [[2, 3, 4, 1], [4, 4, 2, 3], [3, 3, 4, 4], [2, 2, 1, 3]],
    "swap_first": "", "swap_second": "",
    "ancestry": "cunning", "minimum_age": 22, "age": 24,
    "keepsake": "", "failed_profession": "",
    "archetype": "deviant", "kit_choice": "",
    "covenant_alignment": "", "favour_deeds": 0, "alignment": "C1",
    "extra_languages": [], "renown_raises": [], "guide_note": "", "proficiencies": [],
    "hp_current": None, "exhaustion": 0,
}
# DT §Conspicuous Consumption in a city (D10 x 800): a 3 -> 2,400 p wasted carousing.
ASH_CAROUSING = 2_400
DEBT = 500
FACTION = ("The Lantern Guild", 9)


def _user(username: str, password: str):
    user, created = get_user_model().objects.get_or_create(username=username)
    if created or not user.check_password(password):
        user.set_password(password)
        user.save()
    return user


def ash_data() -> dict:
    from characters.systems.errant.builds import kit_choices

    choice = kit_choices("deviant")[0] if kit_choices("deviant") else ""
    return {**ASH, "kit_choice": choice, "gear": kit_lines("deviant", choice)}


@transaction.atomic
def seed_demo_campaign() -> Campaign:
    existing = Campaign.objects.filter(request_key=REQUEST_KEY).first()
    if existing is not None:
        return existing
    guide_user = _user(*GUIDE[:2])
    player1 = _user(*PLAYER1[:2])
    player2 = _user(*DEMO_PLAYER[:2])
    ash = Character.objects.filter(owner=player1, name="Ash", system=KEY).first()
    if ash is None or ash.campaign_id is not None:
        ash = character_services.character_create(owner=player1, data=ash_data())
    wren = Character.objects.filter(owner=player2, name="Wren", system=KEY,
                                    campaign=None).first()
    if wren is None:
        wren = character_services.character_create(owner=player2, data=_wren())
    campaign = services.campaign_create(
        owner=guide_user, name=CAMPAIGN_NAME, system=KEY, request_key=REQUEST_KEY,
        pitch="A Company of Errants, a flooded abbey and the Guild that wants its bell back.",
        settings={"settlement_tier": 4})  # a city, where its Downtime Turn is spent
    invitation = services.invitation_create(campaign=campaign, by=guide_user)
    for player, character in ((player1, ash), (player2, wren)):
        services.invitation_accept(code=invitation.code, user=player)
        services.character_join(campaign=campaign, character=character, by=player)
    session = services.session_start(campaign=campaign, by=guide_user)
    company.roles_set(campaign=campaign, by=guide_user,
                      roles={"caller": wren.pk, "mapper": ash.pk, "timekeeper": ash.pk})
    company.debt_change(campaign=campaign, kind="owed", amount=DEBT, by=guide_user,
                        note="Ferry and lodging on credit from the Guild's factor")
    company.faction_add(campaign=campaign, name=FACTION[0], score=FACTION[1], by=guide_user)
    if not ErrantWaste.objects.filter(campaign=campaign).exists():
        advancement.waste_grant(campaign=campaign, characters=[ash], source="waste",
                                pennies=ASH_CAROUSING, by=guide_user, session=session,
                                note="A week of feasts at the Drowned Bell inn")
        advancement.renown_pick(character=ash, attribute="skill", by=guide_user,
                                by_company=True)
    seed_travel_day(campaign, guide_user, pathfinder=ash.pk)
    return campaign


# --- The Turn log (issue 15): a short day of Travel towards the abbey, through
# travel.run with dealt dice so the demo reads the same every time.
class _Dealt:
    """Dice dealt in order (randint's range is checked)."""

    def __init__(self, faces):
        self.faces = list(faces)

    def randint(self, low, high):
        face = self.faces.pop(0)
        if not low <= face <= high:
            raise ValueError(f"{face} is not in {low}-{high}")
        return face


# (plan, dice): Ash's navigation d20 (skill 14 after the Company's raise, DV 3 + 2 for the
# fens' broken land), the lost d6, the Event Die, the weather's 2d6.
TRAVEL_DAY = (
    ({"action": "peregrinate", "activity": "North along the causeway", "terrain": "rough",
      "base_dv": 3}, (9, 6)),
    ({"action": "peregrinate", "activity": "Into the reed fens", "terrain": "rough",
      "base_dv": 3}, (18, 5, 4, 6, 6)),
    ({"action": "explore", "activity": "The drowned chapel's bell tower, far off",
      "terrain": "rough", "base_dv": 3}, (3,)),
)


def seed_travel_day(campaign: Campaign, guide_user, *, pathfinder: int) -> None:
    """Three Travel Turns of day 1 in the Turn log, once (none if the log has Turns)."""
    from . import travel
    from .company import company_of

    if company_of(campaign).turns.exists():
        return
    for choices, dice in TRAVEL_DAY:
        travel.run(campaign=campaign, by=guide_user, rng=_Dealt(dice),
                   plan=travel.TravelPlan(season="autumn", pathfinder=pathfinder,
                                          **choices))


def _wren() -> dict:
    from characters.systems.errant.demo import wren

    return wren()


def seed() -> dict:
    """The system's demo hook (GameSystem.demo): Wren, Ash and the demo Errant campaign."""
    users = seed_demo()["users"]
    campaign = seed_demo_campaign()
    seed_demo_downtime(campaign)
    return {"users": [*users, PLAYER1, GUIDE], "campaigns": [campaign]}


# --- The Downtime Turn (downtime.py): one under way in a city, walked with reproducible
# dice through recovery and the Event Die to the debt's doubling (left for the visitor:
# the Company's debt stays DEBT), a Scourge tracked. Only if the Company has no Downtime
# Turn yet.
DOWNTIME_SEED = 15


@transaction.atomic
def seed_demo_downtime(campaign: Campaign) -> None:
    import random

    from . import downtime

    if company.company_of(campaign).turns.filter(kind=downtime.KIND).exists():
        return
    rng = random.Random(DOWNTIME_SEED)
    guide_user = campaign.owner
    turn = downtime.start(campaign=campaign, by=guide_user, settlement="city",
                          request_key=f"{REQUEST_KEY}-downtime")
    turn = downtime.scourge(campaign=campaign, by=guide_user, turn_pk=turn.pk, action="add",
                            name="The Drowned Abbot")
    while downtime.next_step(turn) != "debt":
        turn = downtime.act(campaign=campaign, by=guide_user, turn_pk=turn.pk,
                            step=downtime.next_step(turn), rng=rng)
