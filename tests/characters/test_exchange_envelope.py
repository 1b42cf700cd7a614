"""The exchange format's envelope (characters/exchange.py): the file's `format` finds its
game system, whose body is every other key. A second system, registered for these tests
only, shows the envelope knows no system by name; hostile headers get clear messages."""

import io
import json
import re

import pytest
from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.core.management import CommandError, call_command, load_command_class
from django.db import transaction
from django.urls import reverse
from django.utils.html import escape

from characters import exchange
from characters.models import Character
from characters.systems.eldritch_gambit.models import EldritchGambitCharacter
from rules import systems
from tests.characters.test_exchange import asphodel_file, golden
from tests.factories import CharacterFactory, UserFactory

pytestmark = pytest.mark.django_db

EG = "eldritch-gambit-character"


class NotesExchange:
    """The body of a tiny system: a name and notes, version 2 (version 1 had no notes). It
    keeps its notes in Eldritch Gambit's table (`description`): a test needs no table of
    its own."""

    format = "notes-character"
    version = 2
    keys = frozenset({"name", "notes"})

    def __init__(self):
        self.calls = []

    def export_body(self, character):
        return {"name": character.name, "notes": character.description}

    @transaction.atomic
    def import_body(self, *, owner, data, version):
        self.calls.append((data, version))
        problems = exchange.Problems()
        problems.unknown_keys(data, self.keys, "")
        name = problems.text(data, "name", "name", 120, required=True)
        notes = problems.text(data, "notes", "notes", 2000) if version >= 2 else ""
        if problems:
            raise problems.error()
        return EldritchGambitCharacter.objects.create(owner=owner, system="notes", name=name,
                                        description=notes)


@pytest.fixture
def notes():
    system = systems.register(systems.GameSystem(
        key="notes", name="Notes", licence="Test only.",
        character_model=EldritchGambitCharacter,
        exchange=NotesExchange()))
    yield system
    systems.unregister(system.key)


@pytest.fixture
def owner(db):
    return UserFactory()


def refused(data, owner) -> ValidationError:
    before = Character.objects.count()
    with pytest.raises(ValidationError) as caught:
        exchange.character_import(owner=owner, data=data)
    assert Character.objects.count() == before
    return caught.value


def codes(error) -> list[str]:
    return [e.code for e in error.error_list]


# -- one envelope, each system's body ----------------------------------------------------


def test_eldritch_gambit_registers_its_body():
    body = systems.get(systems.ELDRITCH_GAMBIT).exchange
    assert (body.format, body.version) == (EG, 1)


def test_export_writes_the_header_then_the_systems_body(notes, owner):
    character = EldritchGambitCharacter.objects.create(owner=owner, system="notes", name="Pip",
                                         description="Keeps bees.")

    data = exchange.character_export(character)

    assert list(data) == ["format", "version", "name", "notes"]
    assert data == {"format": "notes-character", "version": 2, "name": "Pip",
                    "notes": "Keeps bees."}


def test_import_finds_the_system_by_format_and_hands_it_the_body(notes, owner):
    character = exchange.character_import(owner=owner, data={
        "format": "notes-character", "version": 1, "name": "Pip", "notes": "ignored in v1"})

    assert (character.system, character.name, character.description) == ("notes", "Pip", "")
    assert notes.exchange.calls == [({"name": "Pip", "notes": "ignored in v1"}, 1)]


def test_an_eldritch_gambit_file_still_goes_to_eldritch_gambit(notes, owner):
    character = exchange.character_import(owner=owner, data=exchange.parse(golden("grusha")))

    assert character.system == systems.ELDRITCH_GAMBIT
    assert notes.exchange.calls == []


def test_each_system_round_trips_through_the_commands(notes, owner, tmp_path):
    pip = EldritchGambitCharacter.objects.create(owner=owner, system="notes", name="Pip",
                                                 description="x")
    hero = CharacterFactory(owner=owner)
    for character in (pip, hero):
        out = io.StringIO()
        call_command("export_character", str(character.pk), stdout=out)
        path = tmp_path / f"{character.pk}.json"
        path.write_text(out.getvalue(), encoding="utf-8")
        out = io.StringIO()
        call_command("import_character", str(path), owner=owner.username, stdout=out)
        copy = Character.objects.get(pk=int(out.getvalue()))
        assert copy.system == character.system
        assert exchange.character_export(copy) == exchange.character_export(character)


def test_the_commands_help_names_every_installed_format(notes):
    for name in ("export_character", "import_character"):
        text = " ".join(load_command_class("characters", name).help.split())
        assert "any installed game system" in text
        assert '"eldritch-gambit-character" (Eldritch Gambit)' in text
        assert '"notes-character" (Notes)' in text


def test_a_system_without_a_body_is_not_read_and_not_written(owner):
    system = systems.register(systems.GameSystem(key="bare", name="Bare", licence=""))
    try:
        error = refused({"format": "bare", "version": 1}, owner)
        assert codes(error) == ["wrong_format"]
        character = Character.objects.create(owner=owner, system="bare")
        with pytest.raises(ImproperlyConfigured, match="registers no exchange format"):
            exchange.character_export(character)
    finally:
        systems.unregister(system.key)


def test_two_systems_cannot_share_a_format(notes, owner):
    twin = systems.register(systems.GameSystem(key="twin", name="Twin", licence="",
                                               exchange=NotesExchange()))
    try:
        with pytest.raises(ImproperlyConfigured, match="register the format"):
            exchange.character_import(owner=owner, data={"format": "notes-character"})
    finally:
        systems.unregister(twin.key)


# -- hostile headers ---------------------------------------------------------------------


@pytest.mark.parametrize("fmt", [
    "pathfinder-character", "", "Eldritch-Gambit-Character", None, 1, True, [EG], {"x": EG},
    "x" * 10_000,
])
def test_an_unknown_format_is_refused_and_every_known_one_listed(notes, owner, fmt):
    error = refused(asphodel_file(format=fmt), owner)

    assert codes(error) == ["wrong_format"]
    message = error.messages[0]
    assert message.startswith("format: expected one of ")
    assert '"eldritch-gambit-character" (Eldritch Gambit)' in message
    assert '"notes-character" (Notes)' in message
    # The hostile value is cut short: the message is the formats listed and a few words.
    assert len(message) < 150 + len(exchange.formats_listed())


def test_with_one_system_the_message_names_its_format(owner):
    # Eldritch Gambit alone: every other system leaves for this test.
    others = [system for system in systems.all_systems()
              if system.key != systems.ELDRITCH_GAMBIT]
    for system in others:
        systems.unregister(system.key)
    try:
        error = refused(asphodel_file(format="pathfinder-character"), owner)
    finally:
        for system in others:
            systems.register(system)
    assert error.messages == [
        'format: expected "eldritch-gambit-character" (Eldritch Gambit), got '
        '"pathfinder-character". Is this a character file exported from this site?']


@pytest.mark.parametrize("version", ["1", "2", 1.0, 1.5, None, True, False, [1], {"v": 1},
                                     0, -1, 10**100])
def test_a_version_of_the_wrong_type_or_range_is_refused(notes, owner, version):
    for data in (asphodel_file(version=version),
                 {"format": "notes-character", "version": version, "name": "Pip"}):
        error = refused(data, owner)
        expected = "unsupported_version" if version == 10**100 else "wrong_version"
        assert codes(error) == [expected]
        assert error.messages[0].startswith("version: ")
        assert len(error.messages[0]) < 150
    assert notes.exchange.calls == []


def test_a_version_newer_than_its_system_reads_names_the_system(notes, owner):
    error = refused({"format": "notes-character", "version": 3, "name": "Pip"}, owner)
    assert error.messages == ["version: the file is version 3, newer than this site reads "
                              "for Notes (versions up to 2)."]
    # Version 2 is Notes' own, not Eldritch Gambit's.
    assert codes(refused(asphodel_file(version=2), owner)) == ["unsupported_version"]


def test_an_eldritch_gambit_body_under_another_format_is_refused_by_that_system(notes,
                                                                                owner):
    data = exchange.parse(golden("asphodel-demo"))
    data["format"] = "notes-character"
    data["version"] = 2

    error = refused(data, owner)

    assert set(codes(error)) == {"unknown_key"}
    assert "attributes: unknown key; expected only name, notes." in error.messages


def test_another_systems_body_under_eldritch_gambits_format_is_refused_key_by_key(owner):
    data = {"format": EG, "version": 1, "name": "Pip", "notes": "Keeps bees."}

    error = refused(data, owner)

    assert "notes: unknown key; expected only" in error.messages[0]
    assert codes(error) == ["unknown_key", "missing", "missing"]
    assert [m.split(":")[0] for m in error.messages] == ["notes", "level", "attributes"]


def test_a_file_of_many_unknown_keys_lists_twenty(owner):
    data = asphodel_file(**{f"k{n}": n for n in range(50_000)})
    raw = json.dumps(data)
    assert len(raw) < exchange.MAX_BYTES

    error = refused(exchange.parse(raw), owner)

    assert len(error.messages) == exchange.MAX_REPORTED + 1
    assert error.messages[-1] == f"... and {50_000 - exchange.MAX_REPORTED} more problems."


# -- the import page and command: a message, never a 500 ----------------------------------


@pytest.mark.parametrize(("data", "text"), [
    ({"format": "pathfinder-character", "version": 1}, "format: expected one of"),
    ({"format": "notes-character", "version": "2"}, "version: expected a whole number"),
    ({"format": "notes-character", "version": 9}, "newer than this site reads for Notes"),
    ({"format": "notes-character", "version": 2, "level": 10}, "level: unknown key"),
    (asphodel_file(notes="Keeps bees."), "notes: unknown key"),
])
def test_the_import_page_shows_a_header_or_body_problem_by_the_text(client, notes, owner,
                                                                     data, text):
    client.force_login(owner)

    response = client.post(reverse("characters:import"), {"text": json.dumps(data)})

    assert response.status_code == 200
    assert Character.objects.count() == 0
    slot = re.search(rb'id="errors-text".*?</div>\s*</div>', response.content, re.S).group()
    assert escape(text).encode() in slot


def test_the_import_command_says_what_is_wrong_with_the_header(owner, tmp_path):
    path = tmp_path / "a.json"
    path.write_text(json.dumps(asphodel_file(version="1")), encoding="utf-8")

    with pytest.raises(CommandError, match=r"not imported:\nversion: expected a whole "
                                           r"number from 1 to 1, got \"1\"\."):
        call_command("import_character", str(path), owner=owner.username)
    assert Character.objects.count() == 0
