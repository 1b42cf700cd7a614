"""Demo data for the encounter rules (seed 004): two combatants of our own making, Sable
for the demo player player1 and Bram for player2. Seeds once; safe to run again.

`seed_demo()` answers in the shape of the GameSystem `demo` hook:
{"users": [(username, password, role), ...], "campaigns": [...]}; the campaign side
(campaigns/systems/encounters/demo.py, when it exists) adds the demo campaign."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

from characters.models import Character

from . import services
from .apps import KEY

# The demo users every system's demo shares (characters/systems/eldritch_gambit/demo.py).
DEMO_PLAYERS = (
    ("player1", "player1-demo-pass", "Sable's player (encounter rules)"),
    ("player2", "player2-demo-pass", "Bram's player (encounter rules)"),
)
# A quick scout and a steady hedge-mage (our own numbers).
SABLE = {"name": "Sable", "quickness": 6, "command": 2, "strength": 3, "willpower": 3,
         "stamina_max": 8, "health_max": 10, "sanity_max": 9, "load": 5}
BRAM = {"name": "Bram", "quickness": 1, "command": 6, "strength": 4, "willpower": 6,
        "stamina_max": 10, "health_max": 12, "sanity_max": 11, "load": 30}
BUILDS = {"player1": SABLE, "player2": BRAM}


def demo_user(username: str, password: str):
    user, created = get_user_model().objects.get_or_create(username=username)
    if created or not user.check_password(password):
        user.set_password(password)
        user.save()
    return user


@transaction.atomic
def seed_demo() -> dict:
    for username, password, _ in DEMO_PLAYERS:
        user = demo_user(username, password)
        build = BUILDS[username]
        if not Character.objects.filter(owner=user, name=build["name"], system=KEY).exists():
            services.character_create(owner=user, data=build)
    return {"users": list(DEMO_PLAYERS), "campaigns": []}
