"""Demo data for METTLE Core: Viktor, the SRD's example character (Characters > Example
Character; the values of the example sheet, read in ../shared/specs/next-games.md §1.2,
M14), as a character of the demo player player1. Seeds once; safe to run again.

`seed_demo()` answers in the shape of the GameSystem `demo` hook:
{"users": [(username, password, role), ...], "campaigns": [...]}."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

from characters.models import Character

from . import services
from .apps import KEY

# The demo users Eldritch Gambit's demo makes (characters/systems/eldritch_gambit/demo.py):
# the same accounts, so one login plays both games.
DEMO_PLAYER = ("player1", "player1-demo-pass", "Viktor's player (METTLE Core)")

VIKTOR = {
    "name": "Viktor",
    "appearance": "",
    "background": "",
    "method": "array", "budget": 22,
    "concept": 5, "concept_descriptor": "Itinerant gambler",
    "frame": 3, "frame_descriptor": "Svelte but wiry",
    "motive": 4, "motive_descriptor": "Competition",
    "nature": 3, "nature_descriptor": "Curmudgeon",
    "poise": 2, "poise_descriptor": "Old leg injury",
    # The example sheet has three Backstory lines, two left open.
    "backstories": [],
    "contacts": ["Oleg", "Samuelson"],
    "credit": 2,
    "mettle_current": None,
    "armor": "",
    "weapons": [{"name": "Sword cane", "weapon": "Sword", "concept": False}],
    "gear": [{"name": "Brown suit", "load": None, "quantity": 1},
             {"name": "Modest apartment", "load": None, "quantity": 1},
             {"name": "Deck of cards", "load": None, "quantity": 1},
             {"name": "Pocket knife", "load": None, "quantity": 1},
             {"name": "Pocket watch and fob", "load": None, "quantity": 1}],
}


@transaction.atomic
def seed_demo() -> dict:
    User = get_user_model()
    username, password, _ = DEMO_PLAYER
    user, created = User.objects.get_or_create(username=username)
    if created or not user.check_password(password):
        user.set_password(password)
        user.save()
    if not Character.objects.filter(owner=user, name=VIKTOR["name"],
                                    system=KEY).exists():
        services.character_create(owner=user, data=dict(VIKTOR))
    return {"users": [DEMO_PLAYER], "campaigns": []}
