"""METTLE Core's demo for `manage.py seed_demo` (GameSystem.demo names `seed`): Viktor for
player1 (characters/systems/mettle/demo.py), then the demo METTLE campaign: the demo Imp
is its Guide and runs "The Idol of Saint Vitus"; player1 brings Viktor and player2 brings
Mae Lindqvist. Session 2's first Highlights round is told (Mae's turn in round 2 is
next). The Guide's screen has three NPC pools and the Faction triangle, rolled, with one
Faction Check. At the table (issue #13): session 2's log has Viktor's Check with a Twist,
an Initiative fight is set up and ready to run (Viktor, Mae and a cultist NPC pool), and
Mae has bought a raise (NATURE 2 -> 3; Viktor keeps the SRD sheet's numbers). Seeds once,
each part only if missing; safe to run again."""

from __future__ import annotations

import random

from django.contrib.auth import get_user_model
from django.db import transaction

from campaigns import services
from campaigns.models import Campaign, Session
from characters.models import Character
from characters.systems.mettle import services as character_services
from characters.systems.mettle.apps import KEY
from characters.systems.mettle.demo import VIKTOR, seed_demo
from characters.systems.mettle.models import MettleCharacter

from . import advancement, guide, initiative
from . import roll_services as rolls
from .encounters import MettleEncounter
from .rolls import MettleRoll

REQUEST_KEY = "demo-campaign-mettle"
CAMPAIGN_NAME = "The Idol of Saint Vitus"
# The same accounts as Eldritch Gambit's demo (characters/systems/eldritch_gambit/demo.py),
# so that one login plays both games whichever system seeds first.
GUIDE = ("imp", "imp-demo-pass", "The demo Guide of the METTLE Core campaign")
PLAYER2 = ("player2", "player2-demo-pass", "Mae Lindqvist's player (METTLE Core)")
# The Array (CH §Step 3: 5, 4, 3, 3, 2) placed otherwise than Viktor's.
MAE = {
    "name": "Mae Lindqvist", "appearance": "Flight jacket, oil on her cuffs",
    "background": "Barnstormer who flew mail over the Andes",
    "method": "array", "budget": 22,
    "concept": 4, "concept_descriptor": "Barnstorming pilot",
    "frame": 3, "frame_descriptor": "Rangy",
    "motive": 3, "motive_descriptor": "Find her missing brother",
    "nature": 2, "nature_descriptor": "Blunt",
    "poise": 5, "poise_descriptor": "Quick hands",
    "backstories": [], "contacts": ["Hollis the mechanic"], "credit": 2,
    "mettle_current": None, "armor": "Light (Leather)",
    "weapons": [{"name": "Service revolver", "weapon": "Revolver", "concept": False}],
    "gear": [{"name": "Flight goggles", "load": None, "quantity": 1}],
}
NPCS = (
    {"name": "Hostile Village Elder", "pool": 5, "notes": "GD's example: knows the old well."},
    {"name": "Dockside thug", "pool": 3, "armour": "Light (Leather)",
     "notes": "Brass knuckles; flees at half Mettle."},
    {"name": "Horse", "pool": 4, "higher_attribute": "frame", "higher_pool": 7,
     "notes": "RS Mounts: Pool 4 (FRAME 7)."},
)
TRIANGLE_SEED = 1933  # the demo's dice, the same on every machine
# Viktor's Check in session 2: CONCEPT 5 vs. Difficulty 6 with these dice fails with Edge
# (2, 3, 1, 6, 4: Score 6, Edge 2), and the Twist (Delay) rerolls the Edge dice into a
# success (2, 3, 1, 4, 2: Score 8). EN §Checks, §Twists.
TWIST_SEED = 4
TWIST_CHECK = rolls.CheckRequest(
    label="Spot the cultist in the market crowd", attribute="concept", pool=5, difficulty=6)
FIGHT_NAME = "Ambush in the rain-soaked market"
CULTISTS = {"name": "Cultists of the Idol", "pool": 3, "zone": "Market stalls"}
# Mae's raise: 1 XP from her Highlight plus the Guide's 4 for the prologue one-shot buy
# NATURE 2 -> 3 (CH §Spending XP: the highest's level, POISE 5).
MAE_CARRIED_XP = 4
MAE_RAISE = "nature"


def _user(username: str, password: str):
    user, created = get_user_model().objects.get_or_create(username=username)
    if created or not user.check_password(password):
        user.set_password(password)
        user.save()
    return user


@transaction.atomic
def seed_demo_campaign() -> Campaign | None:
    """The demo METTLE campaign, once (safe to run again); None if Viktor is missing."""
    existing = Campaign.objects.filter(request_key=REQUEST_KEY).first()
    if existing is not None:
        seed_table(existing)
        return existing
    guide_user = _user(*GUIDE[:2])
    player1 = get_user_model().objects.get(username="player1")
    player2 = _user(*PLAYER2[:2])
    viktor = Character.objects.filter(owner=player1, name=VIKTOR["name"], system=KEY,
                                      campaign=None).first()
    if viktor is None:
        return None
    campaign = services.campaign_create(
        owner=guide_user, name=CAMPAIGN_NAME, system=KEY, request_key=REQUEST_KEY,
        default_highlight_rounds=2,
        pitch="1933. A stolen idol that calls rain, a cult that wants it back, and a "
              "rival who wants it more.")
    invitation = services.invitation_create(campaign=campaign, by=guide_user)
    mae = Character.objects.filter(owner=player2, name=MAE["name"], system=KEY).first()
    if mae is None or mae.campaign_id is not None:
        mae = character_services.character_create(owner=player2, data=dict(MAE))
    for player, character in ((player1, viktor), (player2, mae)):
        services.invitation_accept(code=invitation.code, user=player)
        services.character_join(campaign=campaign, character=character, by=player)
    first = services.session_start(campaign=campaign, by=guide_user)
    services.session_update(session=first, by=guide_user, recap=(
        "- Viktor: Won the idol's location at cards from a drunk archaeologist.\n"
        "- Mae: Landed the crate plane on a sandbar in the dark."))
    second = services.session_start(campaign=campaign, by=guide_user)
    # Round 1 of 2 told (the party's order is by name: Mae, then Viktor); round 2 is the
    # tour's to play.
    services.highlight_award(session=second, character=mae, by=guide_user,
                             text="The sandbar landing")
    services.highlight_award(session=second, character=viktor, by=guide_user,
                             text="The card game with the archaeologist")
    for npc in NPCS:
        guide.npc_create(campaign=campaign, by=guide_user, **npc)
    rng = random.Random(TRIANGLE_SEED)
    guide.triangle_roll(campaign=campaign, by=guide_user, rng=rng)
    guide.faction_check_make(campaign=campaign, by=guide_user, actor="rival",
                             target="backer", rng=rng)
    seed_table(campaign)
    return campaign


def _party_member(campaign: Campaign, name: str) -> MettleCharacter | None:
    return MettleCharacter.objects.filter(campaign=campaign, name=name).first()


@transaction.atomic
def seed_table(campaign: Campaign) -> None:
    """The table's part of the demo, each piece only if missing (so an older demo gets
    it too): Viktor's Check with a Twist in session 2's log, the fight ready to run and
    Mae's raise."""
    guide_user = campaign.owner
    viktor = _party_member(campaign, VIKTOR["name"])
    mae = _party_member(campaign, MAE["name"])
    if viktor is None or mae is None:
        return
    second = Session.objects.filter(campaign=campaign, number=2).first()
    if second is not None and not MettleRoll.objects.filter(session=second).exists():
        rng = random.Random(TWIST_SEED)
        check = rolls.make_check(character=viktor, by=viktor.owner, request=TWIST_CHECK,
                                 rng=rng)
        if check.session_id == second.pk and not check.success and check.edge:
            rolls.call_twist(check=check, by=viktor.owner,
                             price="Delay: the cultist slips behind a stall", rng=rng)
    if not MettleEncounter.objects.filter(campaign=campaign, name=FIGHT_NAME).exists():
        fight = initiative.create(campaign=campaign, by=guide_user, name=FIGHT_NAME,
                                  session=second)
        initiative.add_characters(encounter_id=fight.pk, version=None,
                                  characters=[viktor, mae], by=guide_user)
        initiative.add_npc(encounter_id=fight.pk, version=None, by=guide_user, **CULTISTS)
    if not mae.raises:
        services.xp_adjust(character=mae, xp_change=MAE_CARRIED_XP, by=guide_user,
                           note="Carried over from the prologue one-shot")
        advancement.raise_buy(character=mae, attribute=MAE_RAISE, by=mae.owner)


def seed() -> dict:
    """The system's demo hook (GameSystem.demo): Viktor and the demo METTLE campaign."""
    users = seed_demo()["users"]
    campaign = seed_demo_campaign()
    if campaign is not None:
        users = [*users, GUIDE, PLAYER2]
    return {"users": users, "campaigns": [campaign] if campaign is not None else []}
