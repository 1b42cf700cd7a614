"""The exchange format: export, import, their round trip, hostile files, the
views and the management commands (README.md, "Exchange format")."""

import copy
import io
import json
import re
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils.html import escape

from characters import exchange
from characters.models import Character, CoinEntry, InventoryItem, XpEntry
from characters.systems.eldritch_gambit.builds import sheet_for
from characters.systems.eldritch_gambit.models import EldritchGambitCharacter
from rules.models import GearItem
from tests.factories import AsphodelFactory, CharacterFactory, UserFactory

pytestmark = pytest.mark.django_db

README = Path(__file__).resolve().parents[2] / "README.md"

# The SRD's example character as a hand-written file: only the keys that matter.
ASPHODEL_FILE = {
    "format": "eldritch-gambit-character",
    "version": 1,
    "name": "Asphodel the Grumbling Bloom",
    "pronouns": "she/her",
    "level": 10,
    "xp": 0,
    "career": "Vengeful Dragon Slayer",
    "attributes": {"str": 3, "wis": 1, "dex": 2, "agi": 1, "cha": 1, "end": 2},
    "skills": ["Bake pies", "Escape bonds"],
    "gear": [
        {"name": "Chain mail", "equipped": True},
        {"name": "Spear"},
        {"name": "Dagger"},
    ],
    "coins_cp": 500,
}


def asphodel_file(**overrides):
    data = copy.deepcopy(ASPHODEL_FILE)
    data.update(overrides)
    return data


def srd(name):
    return GearItem.objects.srd().get(name=name)


def counts():
    return (Character.objects.count(), InventoryItem.objects.count(),
            XpEntry.objects.count(), CoinEntry.objects.count())


@pytest.fixture
def owner(db):
    return UserFactory()


@pytest.fixture
def rich(owner):
    """A Large, lightly Armored character with statuses, trackers and gear in
    containers, two of them sharing a name."""
    character = CharacterFactory(
        owner=owner, name="Grusha Hornsworth", pronouns="they/them", career="Bridge warden",
        quest="Find the lost herd", origin="Highland stockyards",
        description="Broad, slow to anger.\nSmells of hay.", template_name="Minotaur",
        template_traits=[
            {"name": "Size", "value": "Large", "load": 2},
            {"name": "Armored", "value": "light", "load": 1},
            {"name": "Nightvision", "load": 1},
            {"name": "Resistance", "value": "Fire"},
        ],
        strength=3, wisdom=1, dexterity=2, agility=1, charisma=1, endurance=2,
        skills=["Bake pies", "Escape bonds", "Read runes"],
        statuses=["staggered", "poisoned"], poison_buildup=3, hp_current=20, wp_current=9,
        progress__level=10, progress__xp=4, progress__coins_cp=1234,
    )

    def add(name, catalog=None, **fields):
        fields.setdefault("kind", catalog.category if catalog else InventoryItem.Kind.ITEM)
        return InventoryItem.objects.create(
            character=character, catalog_item=catalog, name=name,
            position=character.items.count() + 1, **fields,
        )

    add("Chain mail", srd("Chain mail"), equipped=True, coverage="partial")
    add("Shield, medium", srd("Shield, medium"), equipped=True)
    add("Winged spear", srd("Spear"), quality="superior", notes="Father's")
    pack = add("Backpack", srd("Backpack"))
    add("Rope (10m)", srd("Rope (10m)"), container=pack)
    add("Sack, small", srd("Sack, small"), container=pack)
    second_sack = add("Sack, small", srd("Sack, small"))
    add("Dagger", srd("Dagger"), container=second_sack, quality="inferior")
    add("Fire Materia", kind=InventoryItem.Kind.MATERIA, load=0, attuned=True)
    add("Scroll of mending", kind=InventoryItem.Kind.EPHEMERA, load=0, charges=3)
    add("Torches (3)", srd("Torches (3)"), quantity=2, dropped=True)
    add("Sacrificial amulet", load=0, notes="Hums near dragons")
    add("Heavy anvil", load=3, quantity=1, dropped=True)
    return character


def test_export_carries_choices_ledgers_and_the_derived_numbers(rich):
    data = exchange.character_export(rich)

    assert data["format"] == "eldritch-gambit-character"
    assert data["version"] == 1
    assert (data["level"], data["xp"], data["coins_cp"]) == (10, 4, 1234)
    assert data["template"] == {"name": "Minotaur", "traits": [
        {"name": "Size", "value": "Large", "load": 2},
        {"name": "Armored", "value": "light", "load": 1},
        {"name": "Nightvision", "load": 1},
        {"name": "Resistance", "value": "Fire"},
    ]}
    assert data["attributes"] == {"str": 3, "wis": 1, "dex": 2, "agi": 1, "cha": 1, "end": 2}
    assert data["statuses"] == ["Staggered", "Poisoned"]
    assert (data["hp_current"], data["wp_current"], data["poison_buildup"]) == (20, 9, 3)
    derived = dict(data["derived"])
    assert derived.pop("weapons") == [
        {"name": "Shield, medium", "hit": 2, "damage": "2d6+3"},
        {"name": "Winged spear", "hit": 5, "damage": "2d8+4"},
        {"name": "Dagger", "hit": 2, "damage": "2d6+2"},
    ]
    assert derived == sheet_for(rich).derived()
    assert set(data["derived"]) >= {"level", "af", "hp_armored", "load", "encumbrance"}

    gear = {entry["id"]: entry for entry in data["gear"]}
    assert [entry["id"] for entry in data["gear"]] == [f"g{n}" for n in range(1, 14)]
    assert gear["g1"] == {
        "id": "g1", "name": "Chain mail", "kind": "armor", "quantity": 1,
        "quality": "standard", "equipped": True, "coverage": "partial", "load": 2,
        "in": None, "dropped": False, "attuned": False, "charges": None, "notes": "",
    }
    assert (gear["g3"]["name"], gear["g3"]["label"]) == ("Spear", "Winged spear")
    assert "label" not in gear["g2"]
    # A container named once is named; one of two "Sack, small" needs its id.
    assert gear["g5"]["in"] == "Backpack"
    assert gear["g6"]["in"] == "Backpack"
    assert gear["g8"]["in"] == "g7"
    assert gear["g12"]["load"] == 0
    assert gear["g13"]["load"] == 3


def test_round_trip_is_lossless(rich, owner):
    first = exchange.character_export(rich)

    imported = exchange.character_import(owner=owner, data=json.loads(json.dumps(first)))
    again = exchange.character_export(EldritchGambitCharacter.objects.get(pk=imported.pk))

    assert again == first
    assert imported.pk != rich.pk


def test_round_trip_through_another_players_account(rich):
    """SRD gear, traits and statuses mean the same to every player."""
    first = exchange.character_export(rich)
    other = UserFactory()

    imported = exchange.character_import(owner=other, data=first)

    assert imported.owner == other
    assert exchange.character_export(imported) == first


def test_import_opens_the_ledgers_with_import_entries(owner):
    character = exchange.character_import(owner=owner, data=asphodel_file(xp=3))

    xp = XpEntry.objects.get(character=character)
    coins = CoinEntry.objects.get(character=character)
    assert (xp.kind, xp.level_change, xp.xp_change) == (XpEntry.Kind.IMPORT, 10, 3)
    assert (coins.kind, coins.amount_cp) == (CoinEntry.Kind.IMPORT, 500)
    assert xp.created_by == coins.created_by == owner
    fresh = EldritchGambitCharacter.objects.get(pk=character.pk)
    assert (fresh.level, fresh.xp, fresh.coins_cp) == (10, 3, 500)


def test_import_matches_catalog_names_in_any_case_and_keeps_free_text(owner):
    data = asphodel_file(gear=[
        {"name": "chain MAIL", "equipped": True},
        {"name": "shield, medium", "equipped": True},
        {"name": "Spear", "label": "Winged spear"},
        {"name": "Grandmother's locket", "load": 1, "notes": "Still ticks"},
    ])

    character = exchange.character_import(owner=owner, data=data)

    armor, shield, spear, locket = character.items.order_by("position")
    assert armor.catalog_item == srd("Chain mail")
    assert (armor.name, armor.kind, armor.equipped, armor.load) == (
        "Chain mail", "armor", True, None)
    assert shield.catalog_item == srd("Shield, medium")
    assert (spear.catalog_item, spear.name) == (srd("Spear"), "Winged spear")
    assert (locket.catalog_item, locket.name, locket.kind, locket.load) == (
        None, "Grandmother's locket", "item", 1)
    sheet = sheet_for(character)
    assert sheet.value("hp_armored") == 10 + 3 + 2 + 10  # Level + STR + END + chain mail AP
    assert sheet.value("af") == 10 + 1 + srd("Shield, medium").shield_af  # 10 + AGI + shield


def test_import_accepts_in_as_an_id_or_a_name(owner):
    data = asphodel_file(gear=[
        {"name": "Backpack"},
        {"id": "left", "name": "Sack, small", "in": "backpack"},
        {"id": "right", "name": "Sack, small"},
        {"name": "Dagger", "in": "right"},
    ])

    character = exchange.character_import(owner=owner, data=data)

    pack, left, right, dagger = character.items.order_by("position")
    assert left.container == pack
    assert right.container is None
    assert dagger.container == right


def test_import_ignores_the_derived_object(owner):
    data = asphodel_file(derived={"hp_armored": 999, "af": "lots", "nonsense": [1, 2]})

    character = exchange.character_import(owner=owner, data=data)

    assert sheet_for(character).value("hp_armored") == 25


def test_a_catalog_item_with_another_load_keeps_it(owner):
    data = asphodel_file(gear=[{"name": "Spear", "load": 2}, {"name": "Dagger", "load": 0}])

    character = exchange.character_import(owner=owner, data=data)

    spear, dagger = character.items.order_by("position")
    assert (spear.load, dagger.load) == (2, None)  # None: the catalog's Load


# -- refusals: every one says which key and what was expected, and writes nothing --------


def refuse(data, owner):
    before = counts()
    with pytest.raises(ValidationError) as caught:
        exchange.character_import(owner=owner, data=data)
    assert counts() == before
    return caught.value


def error_codes(error):
    return [e.code for e in error.error_list]


@pytest.mark.parametrize(("raw", "code", "text"), [
    (b"{oops", "not_json", "not valid JSON"),
    (b"", "not_json", "not valid JSON"),
    (b'{"level": NaN}', "not_json", "NaN"),
    (b'[' * 100_000 + b']' * 100_000, "not_json", "nests too deep"),
    (b'{"n": ' + b"9" * 5000 + b"}", "not_json", "number too long"),
    (b'["a list"]', "not_object", "a list"),
    (b'"text"', "not_object", '"text"'),
    (b"null", "not_object", "null"),
    (b"\xff\xfe{}", "not_text", "UTF-8"),
    (b'{"name": "\\ud800"}', "not_json", "surrogate"),
    (b" " * (exchange.MAX_BYTES + 1), "too_large", "1 MB"),
])
def test_parse_refuses_what_is_no_json_object(raw, code, text):
    with pytest.raises(ValidationError) as caught:
        exchange.parse(raw)
    assert caught.value.code == code
    assert text in caught.value.messages[0]


def test_parse_takes_text_with_a_byte_order_mark():
    assert exchange.parse("\ufeff{}".encode()) == {}


@pytest.mark.parametrize(("changes", "code", "key"), [
    ({"format": "pathfinder-character"}, "wrong_format", "format"),
    ({"format": None}, "wrong_format", "format"),
    ({"version": 2}, "unsupported_version", "version"),
    ({"version": 0}, "wrong_version", "version"),
    ({"version": "1"}, "wrong_version", "version"),
    ({"version": True}, "wrong_version", "version"),
])
def test_refuses_another_format_or_a_future_version(owner, changes, code, key):
    error = refuse(asphodel_file(**changes), owner)
    assert error_codes(error) == [code]
    assert error.messages[0].startswith(f"{key}: ")


def test_refuses_a_file_without_format_or_version(owner):
    for missing in ("format", "version"):
        data = asphodel_file()
        del data[missing]
        error = refuse(data, owner)
        assert f"{missing}: expected" in error.messages[0]
        assert "missing" in error.messages[0]


def test_the_newer_version_message_names_both_versions(owner):
    error = refuse(asphodel_file(version=7), owner)
    assert "version 7" in error.messages[0]
    assert "up to 1" in error.messages[0]


LONG = "x" * 2001


@pytest.mark.parametrize(("changes", "code", "key"), [
    # Wrong types; true is no number even though Python's bool is an int.
    ({"level": "ten"}, "invalid", "level"),
    ({"level": 10.0}, "invalid", "level"),
    ({"level": True}, "invalid", "level"),
    ({"level": float("inf")}, "invalid", "level"),  # what 1e999 parses to
    ({"xp": None}, "invalid", "xp"),
    ({"attributes": [3, 1, 2, 1, 1, 2]}, "invalid", "attributes"),
    ({"attributes": {"str": "3", "wis": 1, "dex": 2, "agi": 1, "cha": 1, "end": 2}},
     "invalid", "attributes.str"),
    ({"attributes": {"str": 3, "wis": 1.5, "dex": 2, "agi": 1, "cha": 1, "end": 2}},
     "invalid", "attributes.wis"),
    ({"attributes": {"str": 3, "wis": 1, "dex": False, "agi": 1, "cha": 1, "end": 2}},
     "invalid", "attributes.dex"),
    ({"attributes": {"str": 3, "wis": 1, "dex": 2, "agi": 1, "cha": 1}},
     "missing", "attributes.end"),
    ({"attributes": {"str": 3, "wis": 1, "dex": 2, "agi": 1, "cha": 1, "end": 2, "luck": 5}},
     "unknown_key", "attributes.luck"),
    ({"name": 42}, "invalid", "name"),
    ({"skills": "Bake pies"}, "invalid", "skills"),
    ({"skills": ["Bake pies", 7]}, "invalid", "skills[1]"),
    ({"skills": ["Bake pies", "  "]}, "missing", "skills[1]"),
    ({"statuses": "Staggered"}, "invalid", "statuses"),
    ({"gear": {"name": "Spear"}}, "invalid", "gear"),
    ({"gear": ["Spear"]}, "invalid", "gear[0]"),
    ({"gear": [{"name": "Spear", "quantity": "2"}]}, "invalid", "gear[0].quantity"),
    ({"gear": [{"name": "Spear", "quantity": True}]}, "invalid", "gear[0].quantity"),
    ({"gear": [{"name": "Spear", "equipped": 1}]}, "invalid", "gear[0].equipped"),
    ({"gear": [{"name": "Spear", "in": 3}]}, "invalid", "gear[0].in"),
    ({"gear": [{"quantity": 1}]}, "missing", "gear[0].name"),
    ({"gear": [{"name": "Spear", "id": 1}]}, "invalid", "gear[0].id"),
    ({"gear": [{"name": "Spear", "id": "a"}, {"name": "Dagger", "id": "a"}]},
     "duplicate", "gear[1].id"),
    ({"gear": [{"name": "Spear", "colour": "red"}]}, "unknown_key", "gear[0].colour"),
    ({"template": "Minotaur"}, "invalid", "template"),
    ({"template": {"traits": [{"value": "Large"}]}}, "missing", "template.traits[0].name"),
    ({"template": {"traits": [{"name": "Size", "value": "Large", "load": "2"}]}},
     "invalid", "template.traits[0].load"),
    ({"hp_current": "full"}, "invalid", "hp_current"),
    ({"nickname": "Aspho"}, "unknown_key", "nickname"),
    ({"name": "Asphodel\x00"}, "invalid", "name"),
    # Out of range.
    ({"level": 0}, "out_of_range", "level"),
    ({"level": 101}, "out_of_range", "level"),
    ({"xp": -1}, "out_of_range", "xp"),
    ({"attributes": {"str": 100, "wis": 1, "dex": 2, "agi": 1, "cha": 1, "end": 2}},
     "out_of_range", "attributes.str"),
    ({"attributes": {"str": 3, "wis": -11, "dex": 2, "agi": 1, "cha": 1, "end": 2}},
     "out_of_range", "attributes.wis"),
    ({"gear": [{"name": "Spear", "quantity": 0}]}, "out_of_range", "gear[0].quantity"),
    ({"gear": [{"name": "Spear", "quantity": 10_001}]}, "out_of_range", "gear[0].quantity"),
    ({"coins_cp": -1}, "out_of_range", "coins_cp"),
    ({"coins_cp": 100_000_001}, "out_of_range", "coins_cp"),
    ({"name": "x" * 121}, "too_long", "name"),
    ({"pronouns": "x" * 41}, "too_long", "pronouns"),
    ({"career": "x" * 201}, "too_long", "career"),
    ({"quest": "x" * 201}, "too_long", "quest"),
    ({"origin": "x" * 201}, "too_long", "origin"),
    ({"description": LONG}, "too_long", "description"),
    ({"template": {"name": "x" * 101}}, "too_long", "template.name"),
    ({"skills": ["x" * 81]}, "too_long", "skills[0]"),
    ({"skills": [f"Skill {n}" for n in range(31)]}, "too_many", "skills"),
    ({"gear": [{"name": "Dart"}] * 501}, "too_many", "gear"),
    # Unknown names and choices.
    ({"statuses": ["Staggered", "Sleepy"]}, "unknown_status", "statuses[1]"),
    ({"statuses": ["Encumbered"]}, "unknown_status", "statuses[0]"),
    ({"gear": [{"name": "Spear", "quality": "legendary"}]}, "invalid_choice",
     "gear[0].quality"),
    ({"gear": [{"name": "Spear", "kind": "vehicle"}]}, "invalid_choice", "gear[0].kind"),
    ({"gear": [{"name": "Chain mail", "coverage": "half"}]}, "invalid_choice",
     "gear[0].coverage"),
    ({"template": {"traits": [{"name": "Size", "value": "Enormous"}]}}, "invalid_choice",
     "template.traits[0].value"),
    ({"template": {"traits": [{"name": "Armored", "value": "mithril"}]}}, "invalid_choice",
     "template.traits[0].value"),
    ({"template": {"traits": [{"name": "Size", "value": "Large"},
                              {"name": "size", "value": "Small"}]}},
     "duplicate", "template.traits[1].name"),
    # Containers.
    ({"gear": [{"name": "Dagger", "in": "Backpack"}]}, "missing_container", "gear[0].in"),
    ({"gear": [{"name": "Sack, small"}, {"name": "Sack, small"},
               {"name": "Dagger", "in": "Sack, small"}]},
     "ambiguous_container", "gear[2].in"),
    ({"gear": [{"id": "a", "name": "Backpack", "in": "a"}]}, "container_cycle", "gear[0].in"),
    ({"gear": [{"id": "a", "name": "Backpack", "in": "b"},
               {"id": "b", "name": "Sack, large", "in": "a"}]},
     "container_cycle", "gear[0].in"),
])
def test_refuses_a_bad_key_and_says_which(owner, changes, code, key):
    error = refuse(asphodel_file(**changes), owner)

    assert code in error_codes(error)
    message = error.messages[error_codes(error).index(code)]
    assert message.startswith(f"{key}: ")


def test_a_message_says_what_was_expected(owner):
    error = refuse(asphodel_file(level="ten"), owner)
    assert error.messages == ['level: expected a whole number from 1 to 100, got "ten".']


def test_a_cycle_is_reported_once(owner):
    data = asphodel_file(gear=[
        {"id": "a", "name": "Backpack", "in": "c"},
        {"id": "b", "name": "Sack, large", "in": "a"},
        {"id": "c", "name": "Sack, small", "in": "b"},
        {"name": "Dagger", "in": "c"},
    ])
    assert error_codes(refuse(data, owner)) == ["container_cycle"]


def test_every_problem_is_listed_up_to_a_limit(owner):
    error = refuse(asphodel_file(gear=[{"name": "Spear", "quantity": 0}] * 100), owner)
    assert len(error.messages) == exchange.MAX_REPORTED + 1
    assert error.messages[-1] == "... and 80 more problems."


@pytest.mark.parametrize(("changes", "code", "key"), [
    ({"attributes": {"str": 6, "wis": 1, "dex": 1, "agi": 1, "cha": 1, "end": 0}},
     "attribute_over_maximum", "attributes.str"),
    ({"attributes": {"str": 3, "wis": 3, "dex": 2, "agi": 1, "cha": 1, "end": 2}},
     "attribute_points_over_budget", "attributes"),
    ({"hp_current": 26}, "hp_current_over_maximum", "hp_current"),
    ({"wp_current": 12}, "wp_current_over_maximum", "wp_current"),
    ({"gear": [{"name": "Chain mail", "equipped": True},
               {"name": "Leather", "equipped": True}]}, "armor_multiple_worn", "gear"),
    ({"gear": [{"name": "Sack, small"}, {"name": "Torches (3)", "quantity": 4,
                                         "in": "Sack, small"}]},
     "container_over_capacity", "gear"),
])
def test_refuses_what_the_builder_refuses(owner, changes, code, key):
    """The same engine rules as the builder, with the engine's messages."""
    error = refuse(asphodel_file(**changes), owner)

    assert error_codes(error) == [code]
    assert error.messages[0].startswith(f"{key}: ")


def test_rules_are_checked_only_once_every_key_is_sound(owner):
    data = asphodel_file(level="ten", attributes={"str": 9, "wis": 9, "dex": 9, "agi": 9,
                                                  "cha": 9, "end": 9})
    assert error_codes(refuse(data, owner)) == ["invalid"]


# -- views ---------------------------------------------------------------------------


def test_export_view_downloads_json_for_the_owner(client, rich, owner):
    client.force_login(owner)

    response = client.get(reverse("characters:export", args=[rich.pk]))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == 'attachment; filename="grusha-hornsworth.json"'
    assert json.loads(response.content) == exchange.character_export(rich)


def test_export_view_names_an_unnamed_character_by_id(client, owner):
    character = CharacterFactory(owner=owner, name="")
    client.force_login(owner)

    response = client.get(reverse("characters:export", args=[character.pk]))

    assert f'filename="character-{character.pk}.json"' in response["Content-Disposition"]


def test_export_view_hides_another_players_character(client, rich):
    client.force_login(UserFactory())
    assert client.get(reverse("characters:export", args=[rich.pk])).status_code == 404


def test_export_view_sends_anonymous_to_log_in(client, rich):
    response = client.get(reverse("characters:export", args=[rich.pk]))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_import_view_sends_anonymous_to_log_in(client):
    for method in ("get", "post"):
        response = getattr(client, method)(reverse("characters:import"))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    assert Character.objects.count() == 0


def test_import_view_shows_a_file_input_and_a_textarea(client, owner):
    client.force_login(owner)

    response = client.get(reverse("characters:import"))

    assert response.status_code == 200
    assert b'type="file" name="file"' in response.content
    assert b'<textarea name="text"' in response.content
    assert b'enctype="multipart/form-data"' in response.content


def test_import_view_takes_an_uploaded_file(client, owner, rich):
    other = UserFactory()
    upload = SimpleUploadedFile("grusha.json", exchange.export_json(rich).encode(),
                                content_type="application/json")
    client.force_login(other)

    response = client.post(reverse("characters:import"), {"file": upload})

    character = EldritchGambitCharacter.objects.get(owner=other)
    assert response.status_code == 302
    assert response["Location"] == character.get_absolute_url()
    assert exchange.character_export(character) == exchange.character_export(rich)


def test_import_view_takes_pasted_json(client, owner):
    client.force_login(owner)

    response = client.post(reverse("characters:import"),
                           {"text": json.dumps(ASPHODEL_FILE)}, follow=True)

    character = EldritchGambitCharacter.objects.get(owner=owner)
    assert response.redirect_chain == [(character.get_absolute_url(), 302)]
    assert character.name == "Asphodel the Grumbling Bloom"
    assert b"was imported" in response.content


def test_import_view_shows_the_problem_by_the_pasted_text_and_keeps_it(client, owner):
    pasted = json.dumps(asphodel_file(level="ten"), indent=2)
    client.force_login(owner)

    response = client.post(reverse("characters:import"), {"text": pasted})

    assert response.status_code == 200
    assert counts() == (0, 0, 0, 0)
    message = 'level: expected a whole number from 1 to 100, got "ten".'
    assert response.context["form"].errors["text"] == [message]
    slot = re.search(rb'id="errors-text".*?</div>\s*</div>', response.content, re.S).group()
    assert escape(message).encode() in slot
    textarea = re.search(rb"<textarea[^>]*>(.*?)</textarea>", response.content, re.S).group(1)
    assert escape(pasted).encode() in textarea


def test_import_view_shows_the_problem_by_the_file_input(client, owner):
    client.force_login(owner)
    upload = SimpleUploadedFile("notes.json", b"these are my notes")

    response = client.post(reverse("characters:import"), {"file": upload})

    assert response.status_code == 200
    assert Character.objects.count() == 0
    errors = response.context["form"].errors.as_data()["file"]
    assert [error.code for error in errors] == ["not_json"]
    slot = re.search(rb'id="errors-file".*?</div>\s*</div>', response.content, re.S).group()
    assert b"not valid JSON" in slot


def test_import_view_refuses_an_upload_over_1_mb(client, owner):
    client.force_login(owner)
    upload = SimpleUploadedFile("big.json", b" " * (exchange.MAX_BYTES + 1) + b"{}")

    response = client.post(reverse("characters:import"), {"file": upload})

    assert response.status_code == 200
    assert [e.code for e in response.context["form"].errors.as_data()["file"]] == ["too_large"]
    assert Character.objects.count() == 0


def test_import_view_asks_for_a_file_or_text(client, owner):
    client.force_login(owner)

    response = client.post(reverse("characters:import"), {"text": "  "})

    assert response.status_code == 200
    assert [e.code for e in response.context["form"].non_field_errors().as_data()] == ["empty"]
    assert b"Choose a file, or paste the JSON" in response.content


# -- management commands ---------------------------------------------------------------


def test_export_command_prints_the_json(rich):
    out = io.StringIO()

    call_command("export_character", str(rich.pk), stdout=out)

    assert json.loads(out.getvalue()) == exchange.character_export(rich)


def test_export_command_refuses_a_missing_id(db):
    with pytest.raises(CommandError, match="No character has the id 999"):
        call_command("export_character", "999")


def test_import_command_prints_only_the_new_id(rich, tmp_path):
    path = tmp_path / "grusha.json"
    path.write_text(exchange.export_json(rich), encoding="utf-8")
    other = UserFactory()
    out = io.StringIO()

    call_command("import_character", str(path), owner=other.username, stdout=out)

    character = EldritchGambitCharacter.objects.get(owner=other)
    assert out.getvalue() == f"{character.pk}\n"
    assert exchange.character_export(character) == exchange.character_export(rich)


def test_import_command_reads_standard_input(owner, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(ASPHODEL_FILE)))

    call_command("import_character", "-", "--owner", owner.username)

    character = EldritchGambitCharacter.objects.get(owner=owner)
    assert capsys.readouterr().out == f"{character.pk}\n"


def test_import_command_refuses_an_unknown_user(db, tmp_path):
    path = tmp_path / "a.json"
    path.write_text(json.dumps(ASPHODEL_FILE))
    with pytest.raises(CommandError, match="No user has the username 'nobody'"):
        call_command("import_character", str(path), owner="nobody")
    assert Character.objects.count() == 0


def test_import_command_refuses_a_bad_file_with_the_message(owner, tmp_path):
    path = tmp_path / "a.json"
    path.write_text(json.dumps(asphodel_file(statuses=["Sleepy"])))
    out = io.StringIO()

    with pytest.raises(CommandError, match=r"statuses\[0\]: \"Sleepy\" is not a Status"):
        call_command("import_character", str(path), owner=owner.username, stdout=out)

    assert out.getvalue() == ""
    assert counts() == (0, 0, 0, 0)


def test_import_command_refuses_a_missing_file(owner, tmp_path):
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_character", str(tmp_path / "nope.json"), owner=owner.username)


# -- the README's example --------------------------------------------------------------


def readme_example() -> dict:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Exchange format", 1)[1].split("\n## ", 1)[0]
    return json.loads(re.search(r"```json\n(.*?)```", section, re.S).group(1))


@pytest.mark.skipif(not README.exists() or "```json" not in README.read_text(encoding="utf-8"),
                    reason="README.md has no example to check")
def test_the_readme_example_is_what_asphodel_exports(owner):
    example = readme_example()

    character = exchange.character_import(owner=owner, data=example)

    assert exchange.character_export(character) == example


def test_asphodel_factory_exports_and_imports(owner):
    """The demo character survives the trip too."""
    first = exchange.character_export(AsphodelFactory(owner=owner))
    assert exchange.character_export(exchange.character_import(owner=owner, data=first)) == first


# -- derived.weapons: each carried weapon's Hit and damage ------------------------------


def carrying(character, name, **fields):
    gear = srd(name)
    InventoryItem.objects.create(character=character, catalog_item=gear, name=name,
                                 kind=gear.category, **fields)
    return character


def test_export_lists_asphodels_spear_with_hit_and_damage(owner):
    asphodel = carrying(AsphodelFactory(owner=owner), "Spear")

    weapons = exchange.character_export(asphodel)["derived"]["weapons"]

    # Resources > Weapons: Hit = +2 + DEX 2; damage = 1d8 + STR 3.
    assert weapons == [{"name": "Spear", "hit": 4, "damage": "1d8+3"}]


def test_a_large_character_rolls_two_dice_of_damage(owner):
    """Bestiary > Size: "a medium-sized character with +1 STR and a dagger does 1d6+1
    damage, a large one does 2d6+1"."""
    large = CharacterFactory(owner=owner, strength=1, template_name="Ogre",
                             template_traits=[{"name": "Size", "value": "Large", "load": 2}])
    carrying(large, "Dagger")

    weapons = exchange.character_export(large)["derived"]["weapons"]

    assert weapons == [{"name": "Dagger", "hit": 3, "damage": "2d6+1"}]


def test_a_superior_sword_adds_one_to_hit_and_damage(owner):
    hero = carrying(CharacterFactory(owner=owner, strength=2, dexterity=2), "Sword",
                    quality="superior")

    weapons = exchange.character_export(hero)["derived"]["weapons"]

    # Hit = +2 + DEX 2 + Superior 1; damage = 1d8 + STR 2 + Superior 1.
    assert weapons == [{"name": "Sword", "hit": 5, "damage": "1d8+3"}]


def test_dropped_weapons_and_other_gear_are_not_listed(owner):
    hero = carrying(CharacterFactory(owner=owner), "Axe", dropped=True)
    carrying(hero, "Rope (10m)")

    assert exchange.character_export(hero)["derived"]["weapons"] == []


def test_import_ignores_derived_weapons(owner):
    data = asphodel_file(derived={"weapons": [{"name": "Spear", "hit": 99, "damage": "9d9"}]})

    character = exchange.character_import(owner=owner, data=data)

    weapons = exchange.character_export(character)["derived"]["weapons"]
    assert {"name": "Spear", "hit": 4, "damage": "1d8+3"} in weapons


# -- golden files: exports made by the code before game systems existed ----------------
# tests/characters/data/*.json were written by `export_json` before the exchange format
# was split into an envelope and per-system bodies (README, "Exchange format"): an export
# today must be byte-identical, and each file must import unchanged.

GOLDEN = Path(__file__).resolve().parent / "data"


def golden(name: str) -> str:
    return (GOLDEN / f"{name}.json").read_text(encoding="utf-8")


@pytest.fixture
def demo(db):
    """The demo's Asphodel and Bram, after the demo campaign's sessions and Highlights."""
    from campaigns.systems.eldritch_gambit.demo import seed_demo_campaign
    from characters.systems.eldritch_gambit.demo import ASPHODEL, seed_demo

    seed_demo()
    seed_demo_campaign(asphodel_name=ASPHODEL["name"])
    return {
        "asphodel-demo": Character.objects.with_progress().get(name=ASPHODEL["name"]),
        "bram-demo": Character.objects.with_progress().get(name="Bram Underbough"),
    }


@pytest.mark.parametrize("name", ["asphodel-demo", "bram-demo"])
def test_the_demo_exports_byte_identical_to_the_golden_file(demo, client, name):
    character = demo[name]
    assert exchange.export_json(character) + "\n" == golden(name)
    client.force_login(character.owner)
    response = client.get(reverse("characters:export", args=[character.pk]))
    assert response.content.decode() + "\n" == golden(name)


def test_a_rich_character_exports_byte_identical_to_the_golden_file(rich):
    assert exchange.export_json(Character.objects.with_progress().get(pk=rich.pk)) + "\n" \
        == golden("grusha")
    assert exchange.export_json(rich) + "\n" == golden("grusha")


@pytest.mark.parametrize("name", ["asphodel-demo", "bram-demo", "grusha"])
def test_a_golden_file_imports_unchanged(owner, name):
    character = exchange.character_import(owner=owner, data=exchange.parse(golden(name)))

    fresh = Character.objects.with_progress().get(pk=character.pk)
    assert exchange.export_json(fresh) + "\n" == golden(name)


@pytest.mark.parametrize("name", ["asphodel-demo", "grusha"])
def test_a_golden_file_imports_through_the_command_and_the_view(client, owner, tmp_path,
                                                                name):
    path = tmp_path / f"{name}.json"
    path.write_text(golden(name), encoding="utf-8")
    out = io.StringIO()
    call_command("import_character", str(path), owner=owner.username, stdout=out)
    by_command = Character.objects.with_progress().get(pk=int(out.getvalue()))
    assert exchange.export_json(by_command) + "\n" == golden(name)

    client.force_login(owner)
    response = client.post(reverse("characters:import"), {"text": golden(name)})
    assert response.status_code == 302
    by_view = Character.objects.with_progress().exclude(pk=by_command.pk).get(owner=owner)
    assert exchange.export_json(by_view) + "\n" == golden(name)
