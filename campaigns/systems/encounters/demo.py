"""The encounter rules' demo for `manage.py seed_demo` (GameSystem.demo names `seed`):
Sable for player1 and Bram for player2 (characters/systems/encounters/demo.py), then the
demo campaign: the demo Imp is its Guide, both join with their combatants, and an
encounter is ready to run (the party against a ghoul and a cultist, not yet started).
Seeds once; safe to run again."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

from campaigns import services
from campaigns.models import Campaign
from characters.systems.encounters.apps import KEY
from characters.systems.encounters.demo import BUILDS, demo_user, seed_demo
from characters.systems.encounters.models import EncounterCharacter

from . import tracker

REQUEST_KEY = "demo-campaign-encounters"
CAMPAIGN_NAME = "The Crypt under the Mill"
GUIDE = ("imp", "imp-demo-pass", "The demo Guide of the encounter-rules campaign")
FIGHT_NAME = "Ghoul in the ossuary"
# Our own foes, typed as the Guide would.
FOES = (
    {"name": "Ghoul", "side": "foes", "quickness": 3, "command": 0, "strength": 5,
     "willpower": 1, "stamina_max": 6, "health_max": 9, "sanity_max": 3, "load": 0},
    {"name": "Cultist", "side": "foes", "quickness": 1, "command": 4, "strength": 1,
     "willpower": 4, "stamina_max": 5, "health_max": 6, "sanity_max": 6, "load": 10},
)


@transaction.atomic
def seed_demo_campaign() -> Campaign | None:
    existing = Campaign.objects.filter(request_key=REQUEST_KEY).first()
    if existing is not None:
        return existing
    guide_user = demo_user(*GUIDE[:2])
    campaign = services.campaign_create(
        owner=guide_user, name=CAMPAIGN_NAME, system=KEY, request_key=REQUEST_KEY,
        pitch="Something gnaws under the old mill. Rounds of a few seconds, every action "
              "declared.")
    invitation = services.invitation_create(campaign=campaign, by=guide_user)
    for username, build in BUILDS.items():
        player = get_user_model().objects.get(username=username)
        character = EncounterCharacter.objects.filter(owner=player, name=build["name"],
                                                      campaign=None).first()
        if character is None:
            continue
        services.invitation_accept(code=invitation.code, user=player)
        services.character_join(campaign=campaign, character=character, by=player)
    encounter = tracker.encounter_create(campaign=campaign, by=guide_user, name=FIGHT_NAME)
    for foe in FOES:
        tracker.step(encounter_id=encounter.pk, version=None, kind="add",
                     payload={"key": tracker.foe_key(encounter), **foe}, by=guide_user)
    return campaign


def seed() -> dict:
    seeded = seed_demo()
    campaign = seed_demo_campaign()
    users = [*seeded["users"], GUIDE]
    return {"users": users, "campaigns": [campaign] if campaign else []}

