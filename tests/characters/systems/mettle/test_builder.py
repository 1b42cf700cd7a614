"""The METTLE Core builder: each message beside its field, nothing typed lost, the live
preview's numbers equal to the engine's, create and update, and the dice helpers."""

import random

import pytest
from django.urls import reverse

from characters.models import Character, XpEntry
from characters.systems.mettle.forms import MettleForm
from characters.systems.mettle.inventory import legacy_gear, lines_of
from characters.systems.mettle.models import CreditEntry, MettleCharacter
from characters.systems.mettle.pages import builder_roll
from rules.engine.mettle import DERIVED_NAMES, Attributes, CharacterBuild, Item, compute_sheet
from rules.engine.mettle.attributes import ARRAY, Method
from rules.engine.mettle.data import ATTRIBUTE_KEYS, WEAPON_BY_NAME

from .helpers import make_viktor, posted, stats

pytestmark = pytest.mark.django_db


@pytest.fixture
def player(client, user):
    client.force_login(user)
    return client


def form_for(**changes) -> MettleForm:
    form = MettleForm(posted(**changes), initial={})
    form.is_valid()
    return form


FREESTYLE = {"method": "freestyle", "concept": 5, "frame": 2, "motive": 2, "nature": 3,
             "poise": 2}  # 10 + 2 + 2 + 3 + 2 = 19 of 22


@pytest.mark.parametrize(("changes", "field", "message"), [
    ({"concept": 6}, "concept", "CONCEPT 6 is not in the array 5, 4, 3, 3, 2."),
    ({"concept": 4}, "method", "The array is 5, 4, 3, 3, 2 in any order; these pools are "
                               "4, 4, 3, 3, 2 (4 too many, 5 missing)."),
    ({**FREESTYLE, "motive": 6, "concept": 2}, "motive",
     "MOTIVE 6 costs 12, over half of the 22 points."),
    ({**FREESTYLE, "frame": 4, "motive": 4}, "method",
     "These pools cost 23 points, 1 over the 22 to spend."),
    ({"motive": 7}, "motive", "MOTIVE is a whole number from 1 to 6."),
    ({"motive": "x"}, "motive", "MOTIVE is a whole number from 1 to 6."),
    ({"motive": ""}, "motive", "Enter MOTIVE."),
    ({"method": "guess"}, "method", "Choose Array or Freestyle."),
    ({"method": "freestyle", "budget": 0}, "budget",
     "Freestyle budget is a whole number from 1 to 99."),
    ({"backstories": "\n".join(f"Story {n} (Ukrainian)" for n in range(6))}, "backstories",
     "6 Backstories, but the highest Attribute (CONCEPT 5) allows 5."),
    ({"backstories": "x\n" * 21}, "backstories", "At most 20 Backstories, one per line."),
    ({"backstories": "y" * 201}, "backstories", "Line 1 is 201 characters; at most 200."),
    ({"contacts": "Oleg\nSamuelson\nIrina"}, "contacts",
     "3 Contacts, but Credit 2 allows 2."),
    ({"credit": 10}, "credit", "Credit is a whole number from 0 to 9."),
    ({"mettle_current": 10}, "mettle_current", "Current Mettle 10 is over the maximum of 9."),
    ({"mettle_current": -100}, "mettle_current",
     "Current Mettle is a whole number from -99 to 99."),
    ({"armor": "Mithril"}, "armor", "Choose an armour of the table, or none."),
    ({"weapon_2": "Lightsaber"}, "weapon_2", "Choose a weapon of the table, or none."),
    ({"weapon_2_name": "Grandpa's cane"}, "weapon_2",
     "Choose the weapon of the table \"Grandpa's cane\" is: its Hit and DM come from it."),
    ({"gear": "0 x Torch"}, "gear",
     "Line 1 (\"0 x Torch\"): the quantity is a whole number from 1 to 999."),
    ({"gear": "Crate (Load 100)"}, "gear",
     "Line 1 (\"Crate (Load 100)\"): Load is a whole number from 0 to 99."),
    ({"gear": "2 x (Load 1)"}, "gear", "Line 1 (\"2 x (Load 1)\") names nothing."),
])
def test_each_problem_is_said_beside_its_field(changes, field, message):
    form = form_for(**changes)
    assert not form.is_valid()
    assert message in form.errors[field]


def test_a_legal_build_is_valid_and_warnings_do_not_refuse():
    form = form_for(**FREESTYLE)
    assert form.is_valid(), form.errors
    assert [issue.code for issue in form.sheet.warnings] == ["freestyle_points_unspent"]
    assert form.sheet.value("points_left") == 3


def test_an_array_build_ignores_a_bad_budget():
    form = form_for(budget="")
    assert form.is_valid(), form.errors
    assert form.cleaned_data["budget"] == 22


def test_the_preview_numbers_are_the_engines(player):
    changes = {"method": "freestyle", "budget": 24, "concept": 4, "frame": 3, "motive": 4,
               "nature": 3, "poise": 2, "armor": "Heavy (Plate)", "weapon_2": "Axe",
               "weapon_2_concept": "on", "gear": "2 x Footlocker or chest\nLamp (Load 1)",
               "mettle_current": 3}
    response = player.post(reverse("characters:preview"), posted(**changes),
                           HTTP_HX_REQUEST="true")
    shown = stats(response)
    engine = compute_sheet(CharacterBuild(
        attributes=Attributes(concept=4, frame=3, motive=4, nature=3, poise=2),
        method=Method.FREESTYLE, budget=24,
        contacts=("Oleg", "Samuelson"), credit=2, mettle_current=3,
        items=(Item("Heavy (Plate)", armor=next(a for a in __import__(
                   "rules.engine.mettle.data", fromlist=["ARMOR"]).ARMOR
                   if a.name == "Heavy (Plate)"), worn=True),
               Item("Sword cane", weapon=WEAPON_BY_NAME["Sword"]),
               Item("Axe", weapon=WEAPON_BY_NAME["Axe"], concept_applies=True),
               Item("Footlocker or chest", load=3, quantity=2), Item("Lamp", load=1),
               Item("Brown suit", load=0), Item("Modest apartment", load=0),
               Item("Deck of cards", load=0), Item("Pocket knife", load=0),
               Item("Pocket watch and fob", load=0))))
    for name in DERIVED_NAMES:
        assert shown[name] == engine[name].display, name
    body = response.content.decode()
    for weapon in engine.weapons:
        assert weapon.pool_explanation in body and weapon.dm_explanation in body
    assert shown["poise"] == f"2({engine.modified['poise']})"  # the armour's burden


def test_the_preview_says_what_it_cannot_compute(player):
    response = player.post(reverse("characters:preview"), posted(frame="lots"),
                           HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert "data-cannot-compute" in body and "FRAME is a whole number from 1 to 6." in body
    assert 'id="errors-frame" hx-swap-oob="innerHTML"' in body


def test_the_preview_follows_the_typing(player):
    first = stats(player.post(reverse("characters:preview"), posted(),
                              HTTP_HX_REQUEST="true"))
    assert first["mettle_max"] == "9"  # MOTIVE 4 + the highest, CONCEPT 5
    second = stats(player.post(reverse("characters:preview"),
                               posted(concept=4, motive=5), HTTP_HX_REQUEST="true"))
    assert second["mettle_max"] == "10"  # MOTIVE 5, the highest, twice


def test_the_builder_shows_the_new_characters_numbers(player):
    response = player.get(reverse("characters:create"), {"system": "mettle-core"})
    assert response.status_code == 200
    shown = stats(response)
    engine = compute_sheet(CharacterBuild(attributes=Attributes(*ARRAY)))
    assert {name: shown[name] for name in DERIVED_NAMES} == {
        name: engine[name].display for name in DERIVED_NAMES}
    body = response.content.decode()
    assert 'name="system" value="mettle-core"' in body and "CC BY 4.0" in body


def test_create_then_update(player, user):
    response = player.post(reverse("characters:create"), posted())
    character = MettleCharacter.objects.get()
    assert response.status_code == 302 and response.url == character.get_absolute_url()
    gear = legacy_gear(lines_of(character))
    assert (character.owner, character.system, character.concept, character.contacts,
            gear["weapons"]) == (user, "mettle-core", 5, ["Oleg", "Samuelson"],
                                 [{"name": "Sword cane", "weapon": "Sword", "concept": False}])
    assert gear["gear"][0] == {"name": "Brown suit", "load": None, "quantity": 1}
    edit = reverse("characters:edit", args=[character.pk])
    body = player.get(edit).content.decode()
    assert "Itinerant gambler" in body and "Pocket watch and fob" in body
    response = player.post(edit, posted(method="freestyle", budget=24, concept=4, motive=5,
                                        gear="3 x Torch (Load 1)\nexplorer's pack"))
    assert response.status_code == 302
    character.refresh_from_db()
    assert (character.method, character.budget, character.concept, character.motive) == (
        "freestyle", 24, 4, 5)
    assert legacy_gear(lines_of(character))["gear"] == [
        {"name": "Torch", "load": 1, "quantity": 3},
        {"name": "Explorer's pack", "load": None, "quantity": 1}]


def test_a_refused_save_keeps_everything_typed(player):
    response = player.post(reverse("characters:create"),
                           posted(method="freestyle", motive=6, concept=2,
                                  backstories="Raised in Kyiv (Ukrainian)",
                                  gear="Rope\n2 x Torch (Load 1)"))
    body = response.content.decode()
    assert response.status_code == 200 and "Nothing was saved" in body
    assert "MOTIVE 6 costs 12, over half of the 22 points." in body
    assert "Raised in Kyiv (Ukrainian)" in body and "Rope\n2 x Torch (Load 1)" in body
    assert 'value="freestyle" ' in body and "checked" in body
    assert not Character.objects.exists()


def test_the_update_keeps_the_raises_and_the_credit_lost(player, user):
    character = make_viktor(user)
    MettleCharacter.objects.filter(pk=character.pk).update(raises=["poise"])
    CreditEntry.objects.create(character=character, kind="purchase", change=1)
    XpEntry.objects.create(character=character, kind=XpEntry.Kind.ADJUSTMENT, xp_change=5)
    player.post(reverse("characters:edit", args=[character.pk]), posted(name="Vik"))
    character.refresh_from_db()
    assert (character.name, character.raises, character.credit_lost) == ("Vik", ["poise"], 1)


def test_raises_beyond_the_xp_are_refused(player, user):
    character = make_viktor(user)
    MettleCharacter.objects.filter(pk=character.pk).update(raises=["poise"])
    response = player.post(reverse("characters:edit", args=[character.pk]), posted(name="Vik"))
    assert "The raises cost 5 XP, but only 0 were earned." in response.content.decode()


@pytest.mark.parametrize("action", ["roll_appearance", "roll_background", "roll_descriptors",
                                    "roll_array", "roll_all"])
def test_each_dice_helper_shows_its_dice_and_stays_legal(player, action):
    response = player.post(reverse("characters:create"),
                           {**posted(), "action": action, "seed": "7"})
    body = response.content.decode()
    assert response.status_code == 200 and "Dice rolled" in body
    assert not Character.objects.exists()
    assert "is not in the array" not in body and "data-cannot-compute" not in body


def test_the_random_array_keeps_the_locked_pools():
    for seed in range(30):
        data = posted(concept=2, lock_concept="1")
        builder_roll("roll_array", data, rng=random.Random(seed))
        pools = sorted(int(data[key]) for key in ATTRIBUTE_KEYS)
        assert data["concept"] == "2" and pools == sorted(ARRAY)


def test_locked_seeds_are_kept_when_rolling_everything():
    data = posted(appearance="Scar", lock_appearance="1", background="Card sharp",
                  lock_background="1")
    rolls = builder_roll("roll_all", data, rng=random.Random(3))
    assert data["appearance"] == "Scar" and data["background"] == "Card sharp"
    assert {roll["label"] for roll in rolls} >= {"CONCEPT Descriptor (d66)"}
    assert all(len(roll["dice"]) == 2 for roll in rolls if "d66" in roll["label"])


def test_a_lock_off_the_array_is_said_not_applied():
    data = posted(concept=6, lock_concept="1")
    rolls = builder_roll("roll_array", data, rng=random.Random(1))
    assert "not part of the array" in rolls[0]["result"] and data["concept"] == "6"


def test_the_builder_lists_the_table_items_with_their_load(player):
    body = player.get(reverse("characters:create"), {"system": "mettle-core"}).content.decode()
    assert "Explorer&#x27;s pack (Load 1)" in body and "Horse (Load 0)" in body
    assert "Body, Medium (man-sized) (Load 4)" in body


def test_a_table_item_takes_its_load(player):
    shown = stats(player.post(reverse("characters:preview"),
                              posted(gear="Explorer's pack\n2 x Bag of 1000 or so coins\nHorse"),
                              HTTP_HX_REQUEST="true"))
    assert shown["load"] == "4"  # the sword 1, the pack 1, two bags of coins 2, the horse 0
