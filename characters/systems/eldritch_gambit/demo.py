"""Demo data: a demo Imp, two demo players and the SRD's example character,
Asphodel (Characters > Example Character, and the sheet in Asphodel.jpg)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

from characters.models import Character, InventoryItem
from rules.models import GearItem

from . import services

DEMO_USERS = (
    ("imp", "imp-demo-pass", "The demo Imp (game master)"),
    ("player1", "player1-demo-pass", "A demo player, owner of Asphodel"),
    ("player2", "player2-demo-pass", "A second demo player"),
)

ASPHODEL = {
    "name": "Asphodel the Grumbling Bloom",
    "pronouns": "she/her",
    "career": "Vengeful Dragon Slayer",
    "quest": "Destroy the dragon plaguing Ambrose",
    "origin": "Escaped sacrifice from Ambrose village",
    "template_name": "Human",
    "description": (
        "A burly young woman with blonde hair and a floral theme to her outfit. She has an "
        "unusually gruff voice that does not match her meek appearance."
    ),
    "level": 10, "xp": 0,
    "str": 3, "wis": 1, "dex": 2, "agi": 1, "cha": 1, "end": 2,
    "skills": ["Bake pies", "Escape bonds"],
    "coins_cp": 500,
    "armor_coverage": "full",
    "hp_current": None, "wp_current": None, "statuses": [], "poison_buildup": 0,
}

# Her gear as the sheet lists it: (name on the sheet, catalog name or None, load if free text).
ASPHODEL_GEAR = (
    ("Winged spear", "Spear", None),
    ("Father's dagger", "Dagger", None),
    ("Adventurer's pack", "Backpack, small & filled with gear", None),
    ("Floral traveling clothes", "Clothing, traveling", None),
    ("Sacrificial amulet", None, 0),
)


@transaction.atomic
def seed_demo() -> list[tuple[str, str, str]]:
    User = get_user_model()
    users = {}
    for username, password, _ in DEMO_USERS:
        user, created = User.objects.get_or_create(username=username)
        if created or not user.check_password(password):
            user.set_password(password)
            user.save()
        users[username] = user
    owner = users["player1"]
    if not Character.objects.filter(owner=owner, name=ASPHODEL["name"]).exists():
        catalog = {item.name: item for item in GearItem.objects.srd()}
        data = dict(ASPHODEL, armor=catalog["Chain mail"], shield=None)
        character = services.character_create(owner=owner, data=data)
        for position, (name, catalog_name, load) in enumerate(ASPHODEL_GEAR, start=1):
            item = catalog.get(catalog_name) if catalog_name else None
            InventoryItem.objects.create(
                character=character, catalog_item=item, name=name,
                kind=item.category if item else InventoryItem.Kind.ITEM,
                load=load, position=position,
            )
    return list(DEMO_USERS)
