"""Eldritch Gambit's build moves out of the generic Character into its own table
(eldritch_gambit 0001-0003, characters 0008), losslessly and reversibly.

Characters, inventories, ledgers and a campaign are made with the historical models of the
schema before the move, as the code of then stored them; their sheets are computed there by
the engine, through a small adapter from the historical rows. After the migration the real
code (characters.builds.sheet_for on the EldritchGambitCharacter) must give the identical
sheets, and every stored column must read the same; migrated back, the columns again.
"""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.db.models import Sum

from characters.systems.eldritch_gambit.builds import gear_piece, sheet_for, trait_choices
from rules.engine.eldritch_gambit import Attributes, CharacterBuild, compute_sheet

BEFORE = [("characters", "0007_game_system"), ("eldritch_gambit", None)]
AFTER = [("characters", "0008_builds_moved_to_game_systems"),
         ("eldritch_gambit", "0003_build_fields_in_state")]

BUILD_COLUMNS = (
    "pronouns", "career", "quest", "origin", "description", "template_name",
    "template_traits", "strength", "wisdom", "dexterity", "agility", "charisma",
    "endurance", "skills", "hp_current", "wp_current", "statuses", "poison_buildup",
)
SHELL_COLUMNS = ("id", "owner_id", "campaign_id", "system", "name", "portrait", "created_at",
                 "updated_at")
ATTRIBUTES = {"str": "strength", "wis": "wisdom", "dex": "dexterity", "agi": "agility",
              "cha": "charisma", "end": "endurance"}

# Made in the old schema's historical models; a fixed time, so a save that bumped
# `updated_at` would show.
STAMP = datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.UTC)


def _historical_build(apps, character) -> CharacterBuild:
    """characters.builds.build_from_character, for a historical Character: Level and XP
    summed from its ledger, its items with their catalog rows."""
    XpEntry = apps.get_model("characters", "XpEntry")
    InventoryItem = apps.get_model("characters", "InventoryItem")
    totals = XpEntry.objects.filter(character_id=character.pk).aggregate(
        level=Sum("level_change"), xp=Sum("xp_change"))
    items = InventoryItem.objects.filter(character_id=character.pk).select_related(
        "catalog_item").order_by("position", "pk")
    return CharacterBuild(
        level=totals["level"] or 0,
        xp=totals["xp"] or 0,
        attributes=Attributes.from_mapping(
            {key: getattr(character, column) for key, column in ATTRIBUTES.items()}),
        skills=tuple(character.skills or ()),
        gear=tuple(gear_piece(item) for item in items),
        traits=trait_choices(character.template_traits),
        statuses=frozenset(character.statuses or ()),
        poison_buildup=character.poison_buildup,
        hp_current=character.hp_current,
        wp_current=character.wp_current,
        has_career=bool(character.career),
        has_origin=bool(character.origin),
    )


def _sheet_numbers(sheet) -> dict:
    """Everything the sheet shows, as plain values (the stats with their explanations,
    the attribute rows, statuses, armor, shield, Size, the Check die, the rule problems,
    the weapon and natural attack lines)."""
    return {
        "stats": sheet.stats,  # each Stat: its value and its explanation's terms and notes
        "attributes": sheet.attributes,
        "statuses": sheet.statuses,
        "derived_statuses": sheet.derived_statuses,
        "armor": sheet.armor,
        "armor_source": sheet.armor_source,
        "shield": sheet.shield,
        "size": sheet.size,
        "check_die": sheet.check_die,
        "issues": sheet.issues,
        "weapons": sheet.weapons,
        "natural_attacks": sheet.natural_attacks,
    }


def _columns(row, names) -> dict:
    return {name: getattr(row, name) for name in names}


def _make_old_data(apps) -> dict:
    """A campaign and two Eldritch Gambit characters with everything the old code
    stored: Asphodel as the demo makes her, and a Large Minotaur with Traits, statuses,
    poison and HP/WP set; gear (armor, shield, weapons, materia) in containers; XP and
    coin ledgers; campaign membership and a Quest."""
    User = apps.get_model("auth", "User")
    Campaign = apps.get_model("campaigns", "Campaign")
    Membership = apps.get_model("campaigns", "Membership")
    Session = apps.get_model("campaigns", "Session")
    Quest = apps.get_model("campaigns", "Quest")
    Character = apps.get_model("characters", "Character")
    InventoryItem = apps.get_model("characters", "InventoryItem")
    XpEntry = apps.get_model("characters", "XpEntry")
    CoinEntry = apps.get_model("characters", "CoinEntry")
    GearItem = apps.get_model("rules", "GearItem")

    def srd(name):
        return GearItem.objects.get(name=name, source__isnull=False)

    imp = User.objects.create(username="imp")
    player = User.objects.create(username="player1")
    other = User.objects.create(username="player2")
    campaign = Campaign.objects.create(name="The Dragon of Ambrose", owner=imp)
    Membership.objects.create(campaign=campaign, user=imp, role="imp")
    Membership.objects.create(campaign=campaign, user=player, role="player")
    session = Session.objects.create(campaign=campaign, number=1, date=STAMP.date(),
                                     created_by=imp)

    asphodel = Character.objects.create(
        owner=player, campaign=campaign, name="Asphodel the Grumbling Bloom",
        pronouns="she/her", career="Vengeful Dragon Slayer",
        quest="Destroy the dragon plaguing Ambrose",
        origin="Escaped sacrifice from Ambrose village", template_name="Human",
        description="A burly young woman with blonde hair and a floral theme to her outfit.",
        strength=3, wisdom=1, dexterity=2, agility=1, charisma=1, endurance=2,
        skills=["Bake pies", "Escape bonds"],
    )
    grusha = Character.objects.create(
        owner=other, name="Grusha Hornsworth", pronouns="they/them", career="Bridge warden",
        quest="Find the lost herd", origin="Highland stockyards",
        description="Broad, slow to anger.\nSmells of hay.", template_name="Minotaur",
        template_traits=[
            {"name": "Size", "value": "Large", "load": 2},
            {"name": "Armored", "value": "light", "load": 1},
            {"name": "Attack", "value": "close", "load": 1},
            {"name": "Resistance", "value": "Fire"},
        ],
        strength=4, wisdom=0, dexterity=1, agility=2, charisma=-1, endurance=3,
        skills=["Herd cattle", "Read runes", "Swim"],
        statuses=["staggered", "poisoned"], poison_buildup=3, hp_current=20, wp_current=9,
    )

    def add(character, name, catalog=None, **fields):
        fields.setdefault("kind", catalog.category if catalog else "item")
        return InventoryItem.objects.create(
            character=character, catalog_item=catalog, name=name,
            position=InventoryItem.objects.filter(character=character).count() + 1, **fields)

    add(asphodel, "Chain mail", srd("Chain mail"), equipped=True)
    add(asphodel, "Winged spear", srd("Spear"))
    add(asphodel, "Father's dagger", srd("Dagger"))
    pack = add(asphodel, "Adventurer's pack", srd("Backpack, small & filled with gear"))
    add(asphodel, "Floral traveling clothes", srd("Clothing, traveling"), container=pack)
    add(asphodel, "Sacrificial amulet", load=0)

    add(grusha, "Chain mail", srd("Chain mail"), equipped=True, coverage="partial")
    add(grusha, "Shield, medium", srd("Shield, medium"), equipped=True)
    add(grusha, "Winged spear", srd("Spear"), quality="superior", notes="Father's")
    backpack = add(grusha, "Backpack", srd("Backpack"))
    sack = add(grusha, "Sack, small", srd("Sack, small"), container=backpack)
    add(grusha, "Rope (10m)", srd("Rope (10m)"), container=sack, quantity=2)
    add(grusha, "Ember of the forge", kind="materia", load=1, attuned=True, charges=3,
        container=backpack)
    add(grusha, "Lantern", load=1, dropped=True)
    add(grusha, "Bag of stones", kind="load", load=2, quality="inferior")

    XpEntry.objects.create(character=asphodel, kind="creation", level_change=10)
    XpEntry.objects.create(character=asphodel, kind="joined", note="The Dragon of Ambrose")
    XpEntry.objects.create(character=asphodel, kind="highlight", xp_change=1, created_by=imp)
    XpEntry.objects.create(character=grusha, kind="creation", level_change=11, xp_change=4)
    XpEntry.objects.create(character=grusha, kind="adjustment", xp_change=3, created_by=other)
    CoinEntry.objects.create(character=asphodel, kind="starting", amount_cp=500)
    CoinEntry.objects.create(character=asphodel, kind="purchase", amount_cp=-35)
    CoinEntry.objects.create(character=grusha, kind="starting", amount_cp=1234)
    Quest.objects.create(character=asphodel, campaign=campaign, text=asphodel.quest,
                         started_in=session)
    # As if saved long ago: the migration must not touch the parent rows.
    Character.objects.update(updated_at=STAMP, created_at=STAMP)
    return {"campaign": campaign.pk, "characters": [asphodel.pk, grusha.pk]}


def _snapshot(apps, pks) -> dict:
    """Every row the move must leave as it was: the characters' columns, their items,
    ledgers, the campaign's memberships and Quests."""
    Character = apps.get_model("characters", "Character")
    InventoryItem = apps.get_model("characters", "InventoryItem")
    XpEntry = apps.get_model("characters", "XpEntry")
    CoinEntry = apps.get_model("characters", "CoinEntry")
    Membership = apps.get_model("campaigns", "Membership")
    Quest = apps.get_model("campaigns", "Quest")
    return {
        "characters": list(Character.objects.filter(pk__in=pks).order_by("pk").values()),
        "items": list(InventoryItem.objects.order_by("pk").values()),
        "xp": list(XpEntry.objects.order_by("pk").values()),
        "coins": list(CoinEntry.objects.order_by("pk").values()),
        "memberships": list(Membership.objects.order_by("pk").values()),
        "quests": list(Quest.objects.order_by("pk").values()),
    }


@pytest.mark.django_db(transaction=True)
def test_the_build_moves_to_its_own_table_losslessly_and_back(migrator):
    migrator.apply_initial_migration(BEFORE)
    # The other apps as they are now (the initial plan stops at the first migration of the
    # move, which may leave later migrations of other apps out).
    old = migrator.apply_tested_migration(_other_apps_latest())
    OldCharacter = old.apps.get_model("characters", "Character")
    assert {"strength", "template_traits"} <= {f.name for f in OldCharacter._meta.fields}
    with pytest.raises(LookupError):
        old.apps.get_model("eldritch_gambit", "EldritchGambitCharacter")

    made = _make_old_data(old.apps)
    pks = made["characters"]
    before = _snapshot(old.apps, pks)
    sheets_before = {
        character.pk: _sheet_numbers(compute_sheet(_historical_build(old.apps, character)))
        for character in OldCharacter.objects.filter(pk__in=pks)
    }
    # The data is what the test meant: the Minotaur is Large, armored, staggered, poisoned.
    assert sheets_before[pks[1]]["size"] == "Large"
    assert sheets_before[pks[1]]["natural_attacks"]
    assert sheets_before[pks[0]]["weapons"]

    migrator.apply_tested_migration(AFTER)
    # The real code on the migrated database.
    from campaigns.models import Membership
    from characters.models import Character
    from characters.systems.eldritch_gambit.models import EldritchGambitCharacter

    assert Character.objects.count() == EldritchGambitCharacter.objects.count() == 2
    for old_row in before["characters"]:
        character = EldritchGambitCharacter.objects.with_progress().get(pk=old_row["id"])
        assert character.game_system.character_model is EldritchGambitCharacter
        assert _columns(character, BUILD_COLUMNS) == {c: old_row[c] for c in BUILD_COLUMNS}
        assert _columns(character, SHELL_COLUMNS) == {c: old_row[c] for c in SHELL_COLUMNS}
        assert _sheet_numbers(sheet_for(character)) == sheets_before[character.pk]
        # The same sheet whole (its build included: every gear piece, Trait, tracker).
        assert sheet_for(character).build == _historical_build(old.apps, OldCharacter(**old_row))
    asphodel = EldritchGambitCharacter.objects.get(pk=pks[0])
    assert Membership.objects.filter(campaign_id=made["campaign"]).count() == 2
    assert asphodel.campaign_id == made["campaign"]
    after = _snapshot(_current_apps(), pks)
    assert {k: v for k, v in after.items() if k != "characters"} == {
        k: v for k, v in before.items() if k != "characters"}
    assert after["characters"] == [{c: row[c] for c in row if c not in BUILD_COLUMNS}
                                   for row in before["characters"]]

    back = migrator.apply_tested_migration(BEFORE)
    assert _snapshot(back.apps, pks) == before
    BackCharacter = back.apps.get_model("characters", "Character")
    for character in BackCharacter.objects.filter(pk__in=pks):
        assert (_sheet_numbers(compute_sheet(_historical_build(back.apps, character)))
                == sheets_before[character.pk])


def _other_apps_latest() -> list[tuple[str, str]]:
    """Each other app at its latest migration that does not need the characters app past
    BEFORE (the campaigns app's METTLE tables, for one, need its latest)."""
    graph = MigrationLoader(connection).graph
    allowed = set(graph.forwards_plan(BEFORE[0]))
    latest = []
    for leaf in graph.leaf_nodes():
        # The game systems' apps: each builds on the characters app's latest.
        if leaf[0] in ("characters", "eldritch_gambit", "mettle", "errant"):
            continue
        node = leaf
        while node is not None and any(
                step[0] == "characters" and step not in allowed
                for step in graph.forwards_plan(node)):
            parents = [p for p in graph.node_map[node].parents if p[0] == node[0]]
            node = max(parents) if parents else None
        if node is not None:
            latest.append(node)
    return latest


def _current_apps():
    from django.apps import apps

    return apps
