"""The SRD reference rows: every table row present with the numbers the SRD prints.

The expected values below are typed from the SRD's tables (Resources: MISCELLANEOUS ITEMS,
STANDARD ARMORS, STANDARD SHIELDS, STANDARD WEAPONS; Characters: COMMON LOADS; Bestiary:
TEMPLATES), not read from the data files, so they check the transcription.
"""

import json
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import IntegrityError, transaction

from rules.catalog import gear_by_category, sources_of
from rules.loaders import DATA_DIR
from rules.models import GearItem, Source, Trait

pytestmark = pytest.mark.django_db

ATTRIBUTION = (
    "This work is based on Eldritch Gambit; a product of Planarian Games, developed, "
    "authored, and edited by Jake Eldritch, and licensed for our use under the Creative "
    "Commons Attribution 4.0 International License: http://creativecommons.org/licenses/by/4.0/"
)

# name, cp, Load, AP, Rally die, rank
ARMORS = [
    ("Leather", 100, 1, 5, 6, 1),
    ("Chain mail", 300, 2, 10, 8, 2),
    ("Scale mail", 600, 3, 15, 10, 3),
    ("Plate mail", 1000, 4, 20, 12, 4),
]

# name, cp, Load, AF, Block, notes (as the weapons table prints them)
SHIELDS = [
    ("Shield, small", 60, 0, 1, 3, "+1 AF, Block +3"),
    ("Shield, medium", 80, 1, 2, 2, "+2 AF, Block +2"),
    ("Shield, large", 120, 2, 3, 1, "+3 AF, Block +1"),
]

# name, Hit, Damage, Notes, Load, cp, range, reload, tags
WEAPONS = [
    ("Axe", 1, "1d10", "", 1, 180, None, None, []),
    ("Axe, great", 1, "1d12", "2H", 2, 300, None, None, ["2H"]),
    ("Bow, long", 0, "1d8", "2H, Range 3", 2, 160, 3, None, ["2H"]),
    ("Bow, short", 0, "1d4", "2H, Range 2", 1, 70, 2, None, ["2H"]),
    ("Club", 1, "1d6", "Stun", 1, 70, None, None, ["Stun"]),
    ("Club, great", 0, "1d10", "2H, Stun", 2, 210, None, None, ["2H", "Stun"]),
    ("Crossbow, heavy", 0, "1d10", "2H, Reload 2, Range 3", 2, 230, 3, 2, ["2H"]),
    ("Crossbow, light", 0, "1d6", "2H, Reload 1, Range 2", 1, 120, 2, 1, ["2H"]),
    ("Dagger", 1, "1d6", "Range: 1", 0, 60, 1, None, []),
    ("Dart", 0, "1d4", "Range: 1", 0, 20, 1, None, []),
    ("Flail", 1, "1d8", "Wrap", 1, 120, None, None, ["Wrap"]),
    ("Flail, great", 1, "1d10", "2H, Wrap", 2, 220, None, None, ["2H", "Wrap"]),
    ("Gauntlet", 0, "1d4+1", "Stun", 0, 50, None, None, ["Stun"]),
    ("Hatchet", 1, "1d8", "Range: 1", 1, 120, 1, None, []),
    ("Lance", 2, "1d10", "2H, Reach", 2, 250, None, None, ["2H", "Reach"]),
    ("Mace", 1, "1d8", "Stun", 1, 120, None, None, ["Stun"]),
    ("Mace, great", 1, "1d10", "2H, Stun", 2, 220, None, None, ["2H", "Stun"]),
    ("Net", 1, "1d4", "Range: 1, Entangle", 1, 50, 1, None, ["Entangle"]),
    ("Polearm", 1, "1d12", "2H, Reach", 2, 310, None, None, ["2H", "Reach"]),
    ("Quarterstaff", 2, "1d6", "2H, Stun", 1, 100, None, None, ["2H", "Stun"]),
    ("Sling", 0, "1d4", "Range: 2", 0, 60, 2, None, []),
    ("Spear", 2, "1d8", "Reach, Range 1", 1, 160, 1, None, ["Reach"]),
    ("Sword", 2, "1d8", "", 1, 140, None, None, []),
    ("Sword, great", 2, "1d10", "2H", 2, 250, None, None, ["2H"]),
    ("Unarmed", 0, "1d4", "Stun", 0, None, None, None, ["Stun"]),
]

# name, cp, Load, capacity, pack size
ITEMS = [
    ("Arrows or bolts (12)", 10, 0, None, 12),
    ("Backpack", 30, 0, 4, 1),
    ("Bedroll", 10, 1, None, 1),
    ("Clothing, commoner", 20, 0, None, 1),
    ("Clothing, entertainer", 100, 0, None, 1),
    ("Clothing, noble", 1000, 0, None, 1),
    ("Clothing, traveling", 50, 0, None, 1),
    ("Compass", 50, 0, None, 1),
    ("Ephemera", 100, 0, None, 1),
    ("Flint & Steel", 10, 0, None, 1),
    ("Lantern", 120, 1, None, 1),
    ("Medical kit", 100, 1, None, 1),
    ("Mirror, small", 10, 0, None, 1),
    ("Pen & Ink", 25, 0, None, 1),
    ("Quiver", 20, 0, None, 1),
    ("Rations (3 days)", 30, 1, None, 1),
    ("Rope (10m)", 20, 1, None, 1),
    ("Sack, large", 10, 0, 5, 1),
    ("Sack, small", 5, 0, 3, 1),
    ("Thieves’ kit", 50, 0, None, 1),
    ("Torches (3)", 5, 1, None, 3),
    ("Waterskin", 20, 0, 1, 1),
    ("Writing kit", 50, 0, None, 1),
]

# name, Load
LOADS = [
    ("Backpack, small & filled with gear", 1),
    ("Backpack, large & filled with gear", 2),
    ("Bag of coins, 1000 cp or so", 1),
    ("Body, Medium (man-sized)", 4),
    ("Body, Small (dog, small child, etc.)", 2),
    ("Body, Large (Horse, ogre, etc.)", 8),
]

# name, group, value, Load, Load min, Load max
TRAITS = [
    ("Amorphous", "Amorphous", "", 2, None, None),
    ("Armored, light", "Armored", "light", 1, None, None),
    ("Armored, medium", "Armored", "medium", 2, None, None),
    ("Armored, heavy", "Armored", "heavy", 3, None, None),
    ("Armored, ultra", "Armored", "ultra", 4, None, None),
    ("Attack (area)", "Attack", "area", 1, None, None),
    ("Attack (close)", "Attack", "close", 1, None, None),
    ("Attack (melee)", "Attack", "melee", 1, None, None),
    ("Attack (ranged area)", "Attack", "ranged area", 2, None, None),
    ("Attack (ranged)", "Attack", "ranged", 2, None, None),
    ("Attack (reach)", "Attack", "reach", 1, None, None),
    ("Bane", "Bane", "", -1, -2, -1),
    ("Climb", "Climb", "", 1, None, None),
    ("Construct", "Construct", "", 1, None, None),
    ("Drain (Template)", "Drain", "", 1, None, None),
    ("Explosive", "Explosive", "", 0, None, None),
    ("Fast", "Fast", "", 1, 1, None),
    ("Flammable", "Flammable", "", -1, None, None),
    ("Flight", "Flight", "", 2, None, None),
    ("Graspless", "Graspless", "", -1, None, None),
    ("Immobile", "Immobile", "", -2, None, None),
    ("Innate Spell", "Innate Spell", "", 1, 1, None),
    ("Jump", "Jump", "", 1, None, None),
    ("Keen smell & hearing", "Keen smell & hearing", "", 1, None, None),
    ("Keen vision", "Keen vision", "", 1, None, None),
    ("Mimicry", "Mimicry", "", 1, None, None),
    ("Nightvision", "Nightvision", "", 1, None, None),
    ("Regeneration", "Regeneration", "", 1, None, None),
    ("Resistance (Element)", "Resistance", "", 1, None, None),
    ("Shifter", "Shifter", "", 1, None, None),
    ("Size (tiny)", "Size", "Tiny", -2, None, None),
    ("Size (small)", "Size", "Small", -1, None, None),
    ("Size (large)", "Size", "Large", 2, None, None),
    ("Size (huge)", "Size", "Huge", 4, None, None),
    ("Size (giant)", "Size", "Giant", 6, None, None),
    ("Size (titanic)", "Size", "Titanic", 8, None, None),
    ("Skeletal", "Skeletal", "", 1, None, None),
    ("Slow", "Slow", "", -1, None, None),
    ("Speechless", "Speechless", "", -1, None, None),
    ("Stretch", "Stretch", "", 1, None, None),
    ("Undead", "Undead", "", 0, None, None),
    ("Unstable", "Unstable", "", -2, None, None),
    ("Venomous", "Venomous", "", 1, 1, None),
    ("Vulnerability", "Vulnerability", "", -2, None, None),
]


def srd_gear(name):
    return GearItem.objects.get(source__slug="eldritch-gambit", name=name)


@pytest.mark.parametrize(("name", "cost", "load", "ap", "rally", "rank"), ARMORS)
def test_armor_rows(name, cost, load, ap, rally, rank):
    item = srd_gear(name)

    assert item.category == GearItem.Category.ARMOR
    assert (item.cost_cp, item.load) == (cost, load)
    assert (item.armor_ap, item.armor_rally_die, item.armor_rank) == (ap, rally, rank)
    assert item.weapon_damage == ""
    assert item.shield_af is None


@pytest.mark.parametrize(("name", "cost", "load", "af", "block", "notes"), SHIELDS)
def test_shield_rows_are_shields_and_weapons(name, cost, load, af, block, notes):
    item = srd_gear(name)

    assert item.category == GearItem.Category.SHIELD
    assert (item.cost_cp, item.load) == (cost, load)
    assert (item.shield_af, item.shield_block) == (af, block)
    # "A shield is also a weapon, bashing for 1d6+STR damage regardless of size."
    assert (item.weapon_hit, item.weapon_damage) == (0, "1d6")
    assert item.notes == notes
    assert item.armor_ap is None


@pytest.mark.parametrize(
    ("name", "hit", "damage", "notes", "load", "cost", "range_", "reload", "tags"), WEAPONS
)
def test_weapon_rows(name, hit, damage, notes, load, cost, range_, reload, tags):
    item = srd_gear(name)

    assert item.category == GearItem.Category.WEAPON
    assert (item.weapon_hit, item.weapon_damage, item.notes) == (hit, damage, notes)
    assert (item.load, item.cost_cp) == (load, cost)
    assert (item.weapon_range, item.weapon_reload) == (range_, reload)
    assert item.weapon_tags == tags


@pytest.mark.parametrize(("name", "cost", "load", "capacity", "pack_size"), ITEMS)
def test_miscellaneous_item_rows(name, cost, load, capacity, pack_size):
    item = srd_gear(name)

    assert item.category == GearItem.Category.ITEM
    assert (item.cost_cp, item.load, item.capacity, item.pack_size) == (
        cost,
        load,
        capacity,
        pack_size,
    )
    assert item.is_container is (capacity is not None)


@pytest.mark.parametrize(("name", "load"), LOADS)
def test_common_load_rows(name, load):
    item = srd_gear(name)

    assert item.category == GearItem.Category.LOAD
    assert (item.load, item.cost_cp) == (load, None)


def test_every_gear_row_is_expected_and_none_is_missing():
    expected = {
        GearItem.Category.ARMOR: {row[0] for row in ARMORS},
        GearItem.Category.SHIELD: {row[0] for row in SHIELDS},
        GearItem.Category.WEAPON: {row[0] for row in WEAPONS},
        GearItem.Category.ITEM: {row[0] for row in ITEMS},
        GearItem.Category.LOAD: {row[0] for row in LOADS},
    }
    for category, names in expected.items():
        stored = GearItem.objects.filter(category=category).values_list("name", flat=True)
        assert sorted(stored) == sorted(names), category

    # The "None or clothed" armor row is the absence of armor, not an item.
    assert not GearItem.objects.filter(name__icontains="none").exists()


def test_containers_are_the_four_with_a_maximum_load():
    containers = GearItem.objects.filter(capacity__isnull=False)

    assert {(item.name, item.load, item.capacity) for item in containers} == {
        ("Backpack", 0, 4),
        ("Sack, large", 0, 5),
        ("Sack, small", 0, 3),
        ("Waterskin", 0, 1),
    }
    assert all(item.is_container for item in containers)


@pytest.mark.parametrize(("name", "group", "value", "load", "load_min", "load_max"), TRAITS)
def test_trait_rows(name, group, value, load, load_min, load_max):
    trait = Trait.objects.get(source__slug="eldritch-gambit", name=name)

    assert (trait.group, trait.value) == (group, value)
    assert (trait.load, trait.load_min, trait.load_max) == (load, load_min, load_max)
    assert trait.has_variable_load is (load_min is not None)
    assert trait.effects
    assert trait.description


def test_every_templates_row_is_a_trait():
    assert sorted(Trait.objects.values_list("name", flat=True)) == sorted(r[0] for r in TRAITS)


@pytest.mark.parametrize(
    ("name", "effects"),
    [
        ("Armored, heavy", "15 AP, d10 Rally."),
        ("Attack (close)", "+1 to hit, d6 +STR dmg, Grapple."),
        ("Explosive", "Dies on a Felling Blow but Inflicts 1d8 +END damage on all in Zone."),
        ("Size (large)", "STR & END Rolls 2d, 2 x HP."),
        ("Size (tiny)", "STR & END Rolls 2 die types smaller."),
        ("Venomous", "1d6 Buildup poison, +1 Load per extra dose"),
    ],
)
def test_trait_effects_are_plain_text_as_printed(name, effects):
    assert Trait.objects.get(name=name).effects == effects


def test_trait_descriptions_are_the_list_of_traits_paragraphs_without_markup():
    for trait in Trait.objects.all():
        assert "<" not in trait.description and "*" not in trait.description, trait.name
        assert "<" not in trait.effects, trait.name
    assert Trait.objects.get(name="Drain (Template)").description.startswith(
        "absorb the life force of others. If Staggered, they may"
    )
    assert Trait.objects.get(name="Fast").description.endswith("reflected by their AGI.")
    # One paragraph describes every level of a group.
    sizes = Trait.objects.filter(group="Size")
    assert len({trait.description for trait in sizes}) == 1


def test_every_row_carries_its_cc_by_source():
    source = Source.objects.get(slug="eldritch-gambit")

    assert source.license_name == "CC BY 4.0"
    assert source.license_url == "https://creativecommons.org/licenses/by/4.0/"
    assert source.attribution == ATTRIBUTION
    assert (source.author, source.publisher) == ("Jake Eldritch", "Planarian Games")
    assert not GearItem.objects.exclude(source=source).exists()
    assert not Trait.objects.exclude(source=source).exists()
    assert not GearItem.objects.filter(owner__isnull=False).exists()


def test_load_rules_is_idempotent():
    counts = (Source.objects.count(), GearItem.objects.count(), Trait.objects.count())
    assert counts == (1, 61, 44)  # Loaded by the data migration.
    dagger = srd_gear("Dagger")

    out = StringIO()
    call_command("load_rules", stdout=out)
    call_command("load_rules", stdout=out)

    assert (Source.objects.count(), GearItem.objects.count(), Trait.objects.count()) == counts
    assert srd_gear("Dagger").pk == dagger.pk
    assert "GearItem: 0 created, 61 updated" in out.getvalue()


def test_load_rules_restores_edited_rows():
    GearItem.objects.filter(name="Sword").update(weapon_damage="1d20", notes="edited")
    Trait.objects.filter(name="Bane").update(load=-2)

    call_command("load_rules", "eldritch-gambit", stdout=StringIO())

    sword = srd_gear("Sword")
    assert (sword.weapon_damage, sword.notes) == ("1d8", "")
    assert Trait.objects.get(name="Bane").load == -1


def test_data_files_are_versioned_and_use_only_model_fields():
    directory = DATA_DIR / "eldritch-gambit"
    files = {
        name: json.loads((directory / name).read_text(encoding="utf-8"))
        for name in ("source.json", "gear.json", "traits.json")
    }
    assert len({data["version"] for data in files.values()}) == 1

    for model, rows in (
        (Source, [files["source.json"]["source"]]),
        (GearItem, files["gear.json"]["items"]),
        (Trait, files["traits.json"]["traits"]),
    ):
        fields = {field.name for field in model._meta.concrete_fields}
        for row in rows:
            assert set(row) <= fields, (model.__name__, row.get("name"), set(row) - fields)


def test_unknown_weapon_tag_is_a_validation_error():
    item = srd_gear("Sword")
    item.weapon_tags = ["2H", "Flaming"]

    with pytest.raises(ValidationError) as excinfo:
        item.full_clean()

    assert excinfo.value.error_dict["weapon_tags"][0].code == "unknown_weapon_tag"


def test_homebrew_rows_belong_to_their_author(django_user_model):
    author = django_user_model.objects.create_user("author")
    other = django_user_model.objects.create_user("other")
    GearItem.objects.create(
        owner=author,
        name="Whip",
        slug="whip",
        category=GearItem.Category.WEAPON,
        weapon_hit=0,
        weapon_damage="1d4",
        weapon_tags=["Entangle"],
    )
    # Homebrew slugs are unique per author, not against the SRD.
    GearItem.objects.create(
        owner=author, name="Sword", slug="sword", category=GearItem.Category.ITEM
    )

    assert GearItem.objects.visible_to(author).filter(slug="whip").exists()
    assert not GearItem.objects.visible_to(other).filter(slug="whip").exists()
    assert GearItem.objects.visible_to(other).count() == 61
    assert [item.name for item in gear_by_category(author)["weapon"]].count("Whip") == 1
    assert "Whip" not in [item.name for item in gear_by_category(None)["weapon"]]


@pytest.mark.parametrize(
    ("owned", "fields"),
    [
        # Neither a source nor an author.
        (False, {"name": "Orphan", "slug": "orphan", "category": "item"}),
        # Both a source and an author.
        (True, {"name": "Both", "slug": "both", "category": "item", "source": "srd"}),
        # Armor stats on an item that is not armor.
        (True, {"name": "Odd", "slug": "odd", "category": "item", "armor_ap": 5}),
        # Armor without its stats.
        (True, {"name": "Robe", "slug": "robe", "category": "armor"}),
        # A weapon without damage.
        (True, {"name": "Stick", "slug": "stick", "category": "weapon", "weapon_hit": 0}),
        # A container that holds nothing.
        (True, {"name": "Pouch", "slug": "pouch", "category": "item", "capacity": 0}),
        # A second SRD row with an SRD slug.
        (False, {"name": "Axe again", "slug": "axe", "category": "item", "source": "srd"}),
    ],
)
def test_constraints_reject_malformed_gear(django_user_model, owned, fields):
    if fields.get("source") == "srd":
        fields = {**fields, "source": Source.objects.get(slug="eldritch-gambit")}
    if owned:
        fields = {**fields, "owner": django_user_model.objects.create_user("author")}
    with pytest.raises(IntegrityError), transaction.atomic():
        GearItem.objects.create(**fields)


def test_constraints_accept_well_formed_homebrew(django_user_model):
    author = django_user_model.objects.create_user("author")

    GearItem.objects.create(owner=author, name="Pouch", slug="pouch", category="item", capacity=1)
    Trait.objects.create(owner=author, name="Gills", slug="gills", group="Gills", load=1)
    Trait.objects.create(
        owner=author, name="Wings", slug="wings", group="Wings", load=1, load_min=1
    )


def test_trait_load_range_constraint(django_user_model):
    author = django_user_model.objects.create_user("author")

    with pytest.raises(IntegrityError), transaction.atomic():
        Trait.objects.create(
            owner=author, name="Odd", slug="odd", group="Odd", load=3, load_min=1, load_max=2
        )


def test_gear_by_category_lists_every_category_in_order():
    grouped = gear_by_category()

    assert list(grouped) == ["armor", "shield", "weapon", "item", "load"]
    assert [item.name for item in grouped["armor"]] == [
        "Chain mail",
        "Leather",
        "Plate mail",
        "Scale mail",
    ]


def test_sources_of_gives_the_attribution_to_show():
    rows = [srd_gear("Sword"), Trait.objects.get(name="Bane")]

    assert [source.attribution for source in sources_of(rows)] == [ATTRIBUTION]
