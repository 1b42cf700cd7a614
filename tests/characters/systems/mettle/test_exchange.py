"""The METTLE Core character file: export (with `derived` keyed by the data-stat names and
the weapons' pools and damage), the golden file of Viktor, the round trip through the
pages and manage.py, and every refusal of an untrusted file."""

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from characters import exchange
from characters.models import Character, XpEntry
from characters.systems.mettle.builds import sheet_for
from characters.systems.mettle.exchange import FORMAT
from characters.systems.mettle.inventory import legacy_gear, lines_of
from characters.systems.mettle.models import CreditEntry, MettleCharacter
from rules.engine.mettle import DERIVED_NAMES

from .helpers import make_viktor

pytestmark = pytest.mark.django_db

GOLDEN = Path(__file__).parent / "data" / "viktor.json"
CHOICES = ("name", "appearance", "background", "method", "budget", "concept", "frame",
           "motive", "nature", "poise", "concept_descriptor", "frame_descriptor",
           "motive_descriptor", "nature_descriptor", "poise_descriptor", "raises",
           "backstories", "contacts", "credit", "credit_lost", "mettle_current",
           "mettle_max_lost", "statuses", "armor", "weapons", "gear")


def choices(character) -> dict:
    """The stored choices, the gear lines in the builder's shape among them."""
    gear = legacy_gear(lines_of(character))
    return {column: gear[column] if column in gear else getattr(character, column)
            for column in CHOICES}


def test_viktors_file_is_the_golden_file(user):
    data = exchange.character_export(make_viktor(user))
    assert json.dumps(data, indent=2, ensure_ascii=False) + "\n" == GOLDEN.read_text("utf-8")
    assert data["format"] == FORMAT and data["version"] == 1
    assert list(data["derived"]) == list(DERIVED_NAMES)
    assert data["weapons"] == [{"name": "Sword cane", "weapon": "Sword", "concept": False,
                                "pool": 5, "damage": 5}]
    assert (data["derived"]["mettle_max"], data["derived"]["pool_total"]) == (9, 22)


def test_the_golden_file_imports_as_viktor(user, other_user):
    original = make_viktor(user)
    copy = exchange.character_import(owner=other_user, data=json.loads(GOLDEN.read_text()))
    assert isinstance(copy, MettleCharacter) and copy.owner == other_user
    assert choices(copy) == choices(original)
    assert sheet_for(copy).derived() == sheet_for(original).derived()


def test_round_trip_through_the_pages(client, user, other_user):
    viktor = make_viktor(user, armor="Light (Leather)", mettle_current=-2, credit=3,
                         backstories=["Raised in Odesa (Russian)"],
                         gear=[{"name": "Torch", "load": 1, "quantity": 3}])
    MettleCharacter.objects.filter(pk=viktor.pk).update(raises=["poise"],
                                                        statuses=["blinded", "staggered"],
                                                        mettle_max_lost=2)
    CreditEntry.objects.create(character=viktor, kind="purchase", change=1)
    XpEntry.objects.create(character=viktor, kind=XpEntry.Kind.ADJUSTMENT, xp_change=7)
    viktor = MettleCharacter.objects.get(pk=viktor.pk)
    client.force_login(user)
    response = client.get(reverse("characters:export", args=[viktor.pk]))
    data = json.loads(response.content)
    assert data["xp"] == 7 and data["derived"]["xp_left"] == 2  # POISE 2 -> 3 cost 5
    assert data["mettle_max_lost"] == 2 and data["derived"]["mettle_max"] == 7  # 9 - 2
    client.force_login(other_user)
    response = client.post(reverse("characters:import"), {"text": json.dumps(data)})
    copy = MettleCharacter.objects.get(owner=other_user)
    assert response.status_code == 302
    assert choices(copy) == choices(viktor) and copy.xp == 7
    assert exchange.character_export(copy) == data


def test_manage_py_exports_and_imports(user, other_user, tmp_path):
    viktor = make_viktor(user)
    out = io.StringIO()
    call_command("export_character", str(viktor.pk), stdout=out)
    data = json.loads(out.getvalue())
    assert data["format"] == FORMAT
    file = tmp_path / "viktor.json"
    file.write_text(out.getvalue(), encoding="utf-8")
    made = io.StringIO()
    call_command("import_character", str(file), "--owner", other_user.username, stdout=made)
    copy = MettleCharacter.objects.get(pk=int(made.getvalue()))
    assert copy.owner == other_user and choices(copy) == choices(viktor)


def viktor_file(**changes) -> dict:
    data = json.loads(GOLDEN.read_text())
    data.update(changes)
    return data


@pytest.mark.parametrize(("changes", "message"), [
    ({"method": "dice"}, "method: expected one of array, freestyle, got \"dice\"."),
    ({"budget": 0}, "budget: 0 is out of range; expected 1 to 99."),
    ({"credit": "2"}, "credit: expected a whole number from 0 to 9, got \"2\"."),
    ({"credit": True}, "credit: expected a whole number from 0 to 9, got true."),
    ({"attributes": []}, "attributes: expected an object of the five Attributes, got a list."),
    ({"armor": "Mithril"}, "armor: expected null or an armour of the table, got \"Mithril\"."),
    ({"raises": ["luck"]}, "raises: expected a list of Attribute keys (concept, frame, motive, "
                           "nature, poise), got a list."),
    ({"weapons": [{"name": "Laser", "weapon": "Laser"}]},
     "weapons[0].weapon: expected a weapon of the table, got \"Laser\"."),
    ({"weapons": "Sword"}, "weapons: expected a list of at most 20 objects, got \"Sword\"."),
    ({"gear": [{"name": "Torch", "quantity": 0}]},
     "gear[0].quantity: 0 is out of range; expected 1 to 999."),
    ({"gear": [{"load": 1}]}, "gear[0].name: missing; expected text of up to 120 characters."),
    ({"contacts": ["a", "b", "c"]}, "contacts: 3 Contacts, but Credit 2 allows 2."),
    ({"mettle_current": 12}, "mettle_current: Current Mettle 12 is over the maximum of 9."),
    ({"mettle_max_lost": -1}, "mettle_max_lost: -1 is out of range; expected 0 to 99."),
    ({"mettle_max_lost": "2"}, "mettle_max_lost: expected a whole number from 0 to 99"),
    ({"mettle_max_lost": 2, "mettle_current": 9},
     "mettle_current: Current Mettle 9 is over the maximum of 7."),
    ({"sneaky": 1}, "sneaky: unknown key; expected only"),
    ({"name": "x" * 121}, "name: 121 characters is too long; the most is 120."),
    ({"xp": -1}, "xp: -1 is out of range; expected 0 to 100000."),
    ({"statuses": ["fallen"]}, "statuses: expected a list of statuses (afflicted, blinded, "
                               "burning, deafened, staggered, dead), got a list."),
    ({"statuses": "staggered"}, "statuses: expected a list of statuses"),
    ({"statuses": ["staggered"]}, "statuses: Staggered lasts only while Mettle is 0 or below"),
])
def test_a_bad_file_is_refused_by_key_and_writes_nothing(user, changes, message):
    with pytest.raises(exchange.ExchangeError) as refused:
        exchange.character_import(owner=user, data=viktor_file(**changes))
    assert any(text.startswith(message) for text in refused.value.messages), (
        refused.value.messages)
    assert not Character.objects.exists()


def test_bad_pools_are_refused_by_the_engines_rules(user):
    data = viktor_file()
    data["attributes"]["concept"]["pool"] = 4
    with pytest.raises(exchange.ExchangeError) as refused:
        exchange.character_import(owner=user, data=data)
    assert refused.value.messages[0].startswith("attributes: The array is 5, 4, 3, 3, 2")
    data["attributes"]["concept"]["pool"] = 7
    with pytest.raises(exchange.ExchangeError) as refused:
        exchange.character_import(owner=user, data=data)
    assert refused.value.messages == [
        "attributes.concept.pool: 7 is out of range; expected 1 to 6."]


def test_the_derived_numbers_of_a_file_are_recomputed_not_trusted(user):
    data = viktor_file(derived={"mettle_max": 99})
    data["weapons"][0]["pool"] = 40
    copy = exchange.character_import(owner=user, data=data)
    assert sheet_for(copy).value("mettle_max") == 9
    assert exchange.character_export(copy)["weapons"][0]["pool"] == 5


def test_the_readme_shows_viktors_file():
    readme = (Path(__file__).resolve().parents[4] / "README.md").read_text("utf-8")
    section = readme.split("### METTLE Core\n", 1)[1].split("\n## ", 1)[0]
    example = section.split("```json\n", 1)[1].split("```", 1)[0]
    assert example == GOLDEN.read_text("utf-8")
