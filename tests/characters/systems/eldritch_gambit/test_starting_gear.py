"""Starting gear after the builder (Night one at a real table): the package knows what
is already worn and carried, says so, never adds a second one, and once taken the form
gives way to a record of when and what (Characters > Gear, Starting Gear)."""

import re

import pytest
from django.urls import reverse

from characters.models import CoinEntry, InventoryItem
from characters.systems.eldritch_gambit import inventory
from characters.systems.eldritch_gambit.builds import sheet_for
from characters.systems.eldritch_gambit.models import EldritchGambitCharacter
from rules.models import GearItem
from tests.characters.test_views import builder_data
from tests.factories import CharacterFactory, UserFactory

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def gear(name):
    return GearItem.objects.srd().get(name=name)


def package_data(**overrides):
    data = {"weapon": gear("Spear").pk, "armor": gear("Chain mail").pk, "career_tool": "",
            "career_tool_load": "", "memento": "", "memento_load": "", "coins": "keep"}
    data.update(overrides)
    return data


@pytest.fixture
def built(client):
    """A character made in the builder, wearing chain mail."""
    user = UserFactory()
    client.force_login(user)
    client.post(reverse("characters:create"),
                builder_data(name="Asphodel", armor=str(gear("Chain mail").pk)))
    character = EldritchGambitCharacter.objects.get(owner=user, name="Asphodel")
    assert character.items.get().equipped
    return character


def armors(character):
    return list(character.items.filter(kind=InventoryItem.Kind.ARMOR)
                .values_list("name", "equipped"))


def test_the_form_says_what_is_worn_and_offers_it(client, built):
    page = client.get(reverse("characters:inventory", args=[built.pk])).content.decode()
    assert "Already worn: <strong>Chain mail</strong>" in page
    assert "None (keep wearing Chain mail)" in page
    chain = gear("Chain mail").pk
    assert re.search(rf'<option value="{chain}" selected>Chain mail', page)


def test_the_same_armor_again_is_not_a_second_armor(client, built):
    load_before = sheet_for(built).value("load")
    response = client.post(reverse("characters:inventory_starting_gear", args=[built.pk]),
                           package_data(), **HTMX)
    assert response.status_code == 200
    assert armors(built) == [("Chain mail", True)]
    body = response.content.decode()
    assert "Not added twice: Chain mail (already worn)." in body
    # spear 1 + pack 1 on top of the chain mail, and not Encumbered.
    sheet = sheet_for(built)
    assert sheet.value("load") == load_before + 2
    assert "encumbered" not in sheet.statuses


def test_once_taken_the_form_gives_way_to_when_and_what(client, built):
    url = reverse("characters:inventory", args=[built.pk])
    response = client.post(reverse("characters:inventory_starting_gear", args=[built.pk]),
                           package_data(), **HTMX)
    assert 'id="starting-gear-taken"' in response.content.decode()  # the region swapped
    page = client.get(url).content.decode()
    assert "Take the starting gear" not in page
    taken = re.search(r'id="starting-gear-taken">(.*?)</p>', page, re.S).group(1)
    assert taken.startswith("Taken on ")
    assert "Spear, Clothing, traveling" in taken and "kept: Chain mail (already worn)" in taken
    record = built.coin_entries.get(note__startswith="Starting gear: ")
    assert record.kind == CoinEntry.Kind.STARTING and record.amount_cp == 0
    assert f'id="reverse-{record.pk}"' not in page  # nothing to reverse: no coin moved


def test_a_second_package_is_still_refused(client, built):
    url = reverse("characters:inventory_starting_gear", args=[built.pk])
    client.post(url, package_data(), **HTMX)
    response = client.post(url, package_data(), **HTMX)
    assert "already has the starting backpack" in response.content.decode()
    assert built.items.filter(name="Spear").count() == 1


def test_another_armor_is_worn_and_the_form_said_the_old_one_is_carried(built):
    package = inventory.starting_package(character=built, by=built.owner,
                                         weapon=gear("Spear"), armor=gear("Leather"))
    assert sorted(armors(built)) == [("Chain mail", False), ("Leather", True)]
    assert "Chain mail (taken off, carried)" in package.kept


def test_a_carried_armor_is_worn_rather_than_doubled(db):
    character = CharacterFactory()
    inventory.item_add(character=character, by=character.owner, catalog_item=gear("Chain mail"))
    package = inventory.starting_package(character=character, by=character.owner,
                                         weapon=gear("Spear"), armor=gear("Chain mail"))
    assert armors(character) == [("Chain mail", True)]
    assert "Chain mail (already carried, now worn)" in package.kept


def test_a_weapon_already_carried_is_not_added_again(db):
    character = CharacterFactory()
    inventory.item_add(character=character, by=character.owner, catalog_item=gear("Spear"))
    inventory.item_add(character=character, by=character.owner, catalog_item=gear("Dagger"))
    package = inventory.starting_package(character=character, by=character.owner,
                                         weapon=gear("Spear"), armor=None)
    assert character.items.filter(name="Spear").count() == 1
    assert character.items.filter(name="Dagger").count() == 1
    assert package.kept == ("Spear (already carried)", "Dagger (already carried)")


def test_the_form_names_weapons_already_carried(client, built):
    inventory.item_add(character=built, by=built.owner, catalog_item=gear("Spear"))
    page = client.get(reverse("characters:inventory", args=[built.pk])).content.decode()
    assert "Already carried: Spear." in page


def test_a_purse_set_with_the_package_is_one_record(db):
    character = CharacterFactory(progress__coins_cp=120)
    inventory.starting_package(character=character, by=character.owner,
                               weapon=gear("Sword"), armor=None, coins="set")
    record = character.coin_entries.get(note__startswith="Starting gear: ")
    assert record.amount_cp == 380
    assert record.note.endswith("Starting coins: 500 cp")


def test_another_player_cannot_see_or_take_the_starting_gear(client, built):
    client.force_login(UserFactory())
    assert client.get(reverse("characters:inventory", args=[built.pk])).status_code == 404
    response = client.post(reverse("characters:inventory_starting_gear", args=[built.pk]),
                           package_data())
    assert response.status_code == 404
    assert armors(built) == [("Chain mail", True)]
