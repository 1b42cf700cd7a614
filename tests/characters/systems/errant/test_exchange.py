"""The Errant file (`"format": "errant-character"`): export with `derived` keyed by the
data-stat names, the round trip through the pages and manage.py, and every refusal of an
untrusted file."""

import io
import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from characters import exchange
from characters.models import Character, XpEntry
from characters.systems.errant.builds import BUILD_COLUMNS, sheet_for
from characters.systems.errant.exchange import FORMAT
from characters.systems.errant.models import ErrantCharacter
from rules.engine.errant import DERIVED_NAMES

from .helpers import make_wren

pytestmark = pytest.mark.django_db


def choices(character) -> dict:
    return {column: getattr(character, column) for column in ("name", *BUILD_COLUMNS)}


def test_the_export_names_every_number(user):
    data = exchange.character_export(make_wren(user))
    assert data["format"] == FORMAT == "errant-character" and data["version"] == 1
    assert list(data["derived"])[:len(DERIVED_NAMES)] == list(DERIVED_NAMES)
    assert {"attack_rolls", "feats_known", "combat_dice"} <= set(data["derived"])
    assert (data["derived"]["slots_filled"], data["derived"]["spd"],
            data["derived"]["slots_filled_no_backpack"]) == (6, 12, 2)
    assert data["swap"] == ["skill", "mind"] and data["dice"][0] == [3, 4, 2, 4]
    torch = next(item for item in data["items"] if item["name"] == "Torch")
    assert (torch["quarters"], torch["location"], torch["uses"]) == (2, "backpack", 2)


def test_round_trip_through_the_pages(client, user, other_user):
    errant = make_wren(user, method="guide", guide_phys=12, guide_skill=9, guide_mind=11,
                       guide_pres=7, guide_note="Inherited", extra_languages=["Elvish"],
                       hp_current=4, exhaustion=1)
    ErrantCharacter.objects.filter(pk=errant.pk).update(renown_raises=[["phys", "mind"]],
                                                        times_at_zero_hp=1)
    XpEntry.objects.create(character=errant, kind=XpEntry.Kind.ADJUSTMENT, xp_change=2_500)
    errant = ErrantCharacter.objects.get(pk=errant.pk)
    client.force_login(user)
    data = json.loads(client.get(reverse("characters:export", args=[errant.pk])).content)
    assert data["xp"] == 2_500 and data["derived"]["renown"] == 2
    assert data["derived"]["phys"] == 13 and data["guide_attributes"]["phys"] == 12
    client.force_login(other_user)
    response = client.post(reverse("characters:import"), {"text": json.dumps(data)})
    copy = ErrantCharacter.objects.get(owner=other_user)
    assert response.status_code == 302
    assert choices(copy) == choices(errant) and copy.xp == 2_500
    assert exchange.character_export(copy) == data


def test_manage_py_exports_and_imports(user, other_user, tmp_path):
    errant = make_wren(user)
    out = io.StringIO()
    call_command("export_character", str(errant.pk), stdout=out)
    file = tmp_path / "wren.json"
    file.write_text(out.getvalue(), encoding="utf-8")
    made = io.StringIO()
    call_command("import_character", str(file), "--owner", other_user.username, stdout=made)
    copy = ErrantCharacter.objects.get(pk=int(made.getvalue()))
    assert copy.owner == other_user and choices(copy) == choices(errant)


def wren_file(user, **changes) -> dict:
    data = exchange.character_export(make_wren(user))
    Character.objects.all().delete()
    data.update(changes)
    return data


@pytest.mark.parametrize(("changes", "message"), [
    ({"method": "dreamt"}, "method: expected one of rolled, guide, got \"dreamt\"."),
    ({"dice": [[3, 4, 2, 5], [1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1]]},
     "dice[0]: expected four D4 faces (1 to 4)"),
    ({"dice": [[3, 4, 2, 1]]}, "dice: 4D4 is rolled once for each of the 4 Attributes"),
    ({"dice": "3421"}, "dice: expected a list of at most 4 entries"),
    ({"swap": ["phys", "phys"]}, "swap: expected null or two different Attributes"),
    ({"swap": ["phys", "mind", "skill"]}, "swap: expected null or two different Attributes"),
    ({"method": "guide", "guide_attributes": None}, "guide_attributes: expected an object"),
    ({"method": "guide", "guide_note": "",
      "guide_attributes": {"phys": 9, "skill": 9, "mind": 9, "pres": 9}},
     "guide_note: Attributes set by the Guide need a note of why."),
    ({"ancestry": "giant"}, "ancestry: expected one of tough, arcane, cunning, adaptable"),
    ({"alignment": "L9"}, "alignment: expected null (the starting Alignment) or one of"),
    ({"items": [{"name": "Torch", "quarters": 3.5}]}, "items[0].quarters: expected a size"),
    ({"items": [{"name": "Torch", "location": "pocket"}]},
     "items[0].location: expected one of hand, handy, worn, backpack, container"),
    ({"items": [{"quarters": 1}]}, "items[0].name: missing"),
    ({"items": [{"name": "Sword", "location": "hand", "quarters": 12}]},
     "items: 3 slots in hand; there are 2 hand"),
    ({"renown_raises": [["phys", "phys"]]}, "renown_raises: Renown 2: the player's"),
    ({"exhaustion": -1}, "exhaustion: -1 is out of range"),
    ({"hp_current": True}, "hp_current: expected a whole number from 0 to 99 or null"),
    ({"proficiencies": [["juggling", 1]]}, "proficiencies[0]: expected a pair"),
    ({"sneaky": 1}, "sneaky: unknown key; expected only"),
    ({"xp": -1}, "xp: -1 is out of range"),
    ({"derived": []}, "derived: expected an object, got a list."),
])
def test_a_bad_file_is_refused_by_key_and_writes_nothing(user, changes, message):
    data = wren_file(user, **changes)
    with pytest.raises(exchange.ExchangeError) as refused:
        exchange.character_import(owner=user, data=data)
    assert any(text.startswith(message) for text in refused.value.messages), (
        refused.value.messages)
    assert not Character.objects.exists()


def test_the_derived_numbers_of_a_file_are_recomputed_not_trusted(user):
    data = wren_file(user, derived={"spd": 99, "encumbrance": 0})
    copy = exchange.character_import(owner=user, data=data)
    assert (sheet_for(copy).value("spd"), sheet_for(copy).value("encumbrance")) == (12, 1)


def test_a_wounded_errant_round_trips_its_choices_the_wounds_stay_with_the_campaign(
        client, user, other_user):
    """Lasting wounds (AMB-E-WOUND-1) are the campaign's ledger, like its trainings: the
    export's derived HP maximum is the halved one, the import recomputes it without the
    wound; every choice round-trips."""
    from characters.systems.errant.models import ErrantWound

    errant = make_wren(user, hp_current=3)
    ErrantWound.objects.create(character=errant, column="toxic", row=2, text="HP halved.")
    client.force_login(user)
    data = json.loads(client.get(reverse("characters:export", args=[errant.pk])).content)
    assert data["derived"]["hp_max"] == 13 // 2 and "wounds" not in data
    client.force_login(other_user)
    response = client.post(reverse("characters:import"), {"text": json.dumps(data)})
    assert response.status_code == 302
    copy = ErrantCharacter.objects.get(owner=other_user)
    assert choices(copy) == choices(errant) and sheet_for(copy).value("hp_max") == 13
