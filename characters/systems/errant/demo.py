"""Demo data for Errant: Wren, a Violent Errant of the Tough Ancestry
rolled on 4D4 with one swap, who took the starting kit, as a character of the demo player
player2. Seeds once; safe to run again.

`seed_demo()` answers in the shape of the GameSystem `demo` hook:
{"users": [(username, password, role), ...], "campaigns": [...]}."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

from characters.models import Character

from . import services
from .apps import KEY
from .builds import kit_lines

# The demo users Eldritch Gambit's demo makes (characters/systems/eldritch_gambit/demo.py):
# the same accounts, so one login plays every game.
DEMO_PLAYER = ("player2", "player2-demo-pass", "Wren's player (Errant)")


def wren() -> dict:
    """Wren: phys 3+4+2+4 = 13, skill 2+2+3+1 = 8, mind 4+4+3+2 = 13, pres 1+3+2+3 = 9;
    skill and mind swapped (skill 13, mind 8); a Violent with a small shield."""
    return {
        "name": "Wren",
        "method": "rolled",
        "dice": [[3, 4, 2, 4], [2, 2, 3, 1], [4, 4, 3, 2], [1, 3, 2, 3]],
        "swap_first": "skill", "swap_second": "mind",
        "ancestry": "tough", "minimum_age": 31, "age": 34,
        "keepsake": "", "failed_profession": "",
        "archetype": "violent", "kit_choice": "small_shield",
        "covenant_alignment": "", "favour_deeds": 0, "alignment": "",
        "extra_languages": [], "renown_raises": [], "guide_note": "", "proficiencies": [],
        "hp_current": None, "exhaustion": 0,
        "gear": kit_lines("violent", "small_shield"),
    }


@transaction.atomic
def seed_demo() -> dict:
    User = get_user_model()
    username, password, _ = DEMO_PLAYER
    user, created = User.objects.get_or_create(username=username)
    if created or not user.check_password(password):
        user.set_password(password)
        user.save()
    if not Character.objects.filter(owner=user, name="Wren", system=KEY).exists():
        services.character_create(owner=user, data=wren())
    return {"users": [DEMO_PLAYER], "campaigns": []}
