"""mettle 0003_inventory: the JSON gear columns (armour, weapons, gear) and Credit lost
become inventory lines, weapon rows and a Credit ledger, with the same sheet; and back."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.loader import MigrationLoader

BEFORE = [("mettle", "0001_mettle_character")]
# 0003_inventory and the migrations after it: the test reads the rows through the real
# models, which have the latest columns (0005_mettle_max_lost).
AFTER = [("mettle", "0005_mettle_max_lost")]

GEAR = {
    "armor": "Light (Leather)",
    "weapons": [{"name": "Sword cane", "weapon": "Sword", "concept": False},
                {"name": "Axe", "weapon": "Axe", "concept": True}],
    "gear": [{"name": "Brown suit", "load": None, "quantity": 1},
             {"name": "Backpack, small & filled with gear", "load": None, "quantity": 1},
             {"name": "Torch", "load": 1, "quantity": 3}],
}


def _latest_others() -> list[tuple[str, str]]:
    graph = MigrationLoader(connection).graph
    return [node for node in graph.leaf_nodes() if node[0] not in ("mettle",)]


@pytest.mark.django_db(transaction=True)
def test_the_gear_moves_to_lines_and_back(migrator):
    migrator.apply_initial_migration(BEFORE)
    old = migrator.apply_tested_migration([*_latest_others(), *BEFORE])
    User = old.apps.get_model("accounts", "User") if _has_accounts_user(old.apps) else \
        old.apps.get_model("auth", "User")
    owner = User.objects.create(username="migrating")
    OldMettle = old.apps.get_model("mettle", "MettleCharacter")
    old_row = OldMettle.objects.create(owner_id=owner.pk, system="mettle-core", name="Viktor",
                                       concept=5, frame=3, motive=4, nature=3, poise=2,
                                       credit=3, credit_lost=1, **GEAR)
    pk = old_row.pk

    migrator.apply_tested_migration(AFTER)
    from characters.systems.mettle.builds import build_from, sheet_for, values_of
    from characters.systems.mettle.inventory import legacy_gear, lines_of
    from characters.systems.mettle.models import MettleCharacter
    from rules.engine.mettle import compute_sheet

    character = MettleCharacter.objects.get(pk=pk)
    assert legacy_gear(lines_of(character)) == GEAR
    assert character.credit_lost == 1
    sheet = sheet_for(character)
    # FRAME 3 + Leather 1; Load: leather 1 + sword 1 + axe 1 + pack 1 + 3 torches = 7.
    assert (sheet.value("soak"), sheet.value("load"), sheet.value("credit")) == (4, 7, 2)
    # The same sheet as the JSON columns gave (the builder's shape, read by the engine).
    legacy = {key: value for key, value in values_of(character).items() if key != "items"}
    before = compute_sheet(build_from({**legacy, **GEAR, "credit_lost": 1}))
    assert sheet.derived() == before.derived()
    assert [(w.name, w.pool, w.dm) for w in sheet.weapons] == [
        (w.name, w.pool, w.dm) for w in before.weapons]

    back = migrator.apply_tested_migration(BEFORE)
    row = back.apps.get_model("mettle", "MettleCharacter").objects.get(pk=pk)
    assert (row.armor, row.weapons, row.gear, row.credit_lost) == (
        GEAR["armor"], GEAR["weapons"], GEAR["gear"], 1)
    assert not back.apps.get_model("characters", "InventoryItem").objects.filter(
        character_id=pk).exists()


def _has_accounts_user(apps) -> bool:
    try:
        apps.get_model("accounts", "User")
    except LookupError:
        return False
    return True
