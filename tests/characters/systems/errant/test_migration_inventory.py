"""errant 0002_errant_inventory: the JSON `gear` column becomes inventory lines with an
ErrantItem each, with the same sheet; and back."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from characters.systems.errant.demo import wren

BEFORE = [("errant", "0001_errant_character")]
AFTER = [("errant", "0002_errant_inventory")]


def _latest_others() -> list[tuple[str, str]]:
    graph = MigrationLoader(connection).graph
    return [node for node in graph.leaf_nodes() if node[0] != "errant"]


def _latest_errant() -> list[tuple[str, str]]:
    graph = MigrationLoader(connection).graph
    return [node for node in graph.leaf_nodes() if node[0] == "errant"]


def _user_model(apps):
    try:
        return apps.get_model("accounts", "User")
    except LookupError:
        return apps.get_model("auth", "User")


@pytest.mark.django_db(transaction=True)
def test_the_gear_moves_to_lines_and_back(migrator):
    gear = wren()["gear"] + [{"name": "Odd line", "quarters": 999, "quantity": 0,
                              "location": "nowhere", "kind": "light", "uses": 2,
                              "uses_max": 2, "quality": 3, "blocks": 1, "magic": 1}]
    migrator.apply_initial_migration(BEFORE)
    old = migrator.apply_tested_migration([*_latest_others(), *BEFORE])
    owner = _user_model(old.apps).objects.create(username="migrating")
    values = {key: value for key, value in wren().items() if key != "gear"}
    row = old.apps.get_model("errant", "ErrantCharacter").objects.create(
        owner_id=owner.pk, system="errant", gear=gear, **values)
    pk = row.pk

    new = migrator.apply_tested_migration(AFTER)
    InventoryItem = new.apps.get_model("characters", "InventoryItem")
    ErrantItem = new.apps.get_model("errant", "ErrantItem")
    lines = list(InventoryItem.objects.filter(character_id=pk).order_by("position"))
    assert [line.name for line in lines] == [line["name"] for line in gear]
    sides = {side.item_id: side for side in ErrantItem.objects.all()}
    torch = next(line for line in lines if line.name == "Torch")
    assert (sides[torch.pk].quarters, sides[torch.pk].uses, sides[torch.pk].location) == (
        2, 2, "backpack")
    odd = sides[lines[-1].pk]
    # Out-of-range values are brought within the table's checks.
    assert (odd.quarters, odd.location, lines[-1].quantity) == (400, "backpack", 1)

    back = migrator.apply_tested_migration(BEFORE)
    row = back.apps.get_model("errant", "ErrantCharacter").objects.get(pk=pk)
    assert row.gear[:-1] == wren()["gear"]
    assert row.gear[-1]["quarters"] == 400
    assert not back.apps.get_model("characters", "InventoryItem").objects.filter(
        character_id=pk).exists()


@pytest.mark.django_db(transaction=True)
def test_the_sheet_is_the_same_after_the_migration(migrator):
    migrator.apply_initial_migration(BEFORE)
    old = migrator.apply_tested_migration([*_latest_others(), *BEFORE])
    owner = _user_model(old.apps).objects.create(username="migrating2")
    row = old.apps.get_model("errant", "ErrantCharacter").objects.create(
        owner_id=owner.pk, system="errant", **wren())
    # The app's code reads the latest schema (the sheet reads the training, errant 0003).
    migrator.apply_tested_migration(_latest_errant())
    from characters.systems.errant.builds import build_from, sheet_for, values_of
    from characters.systems.errant.models import ErrantCharacter
    from rules.engine.errant import compute_sheet

    character = ErrantCharacter.objects.get(pk=row.pk)
    assert character.gear == wren()["gear"]
    before = compute_sheet(build_from({**values_of(character), "gear": wren()["gear"]}))
    assert sheet_for(character).derived() == before.derived()
