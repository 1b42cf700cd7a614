"""The character page loads a character's inventory lines once, with the related rows its
game's sheet and template read (GameSystem.line_related, characters.views.lines_for_sheet):
the page's queries do not grow with the number of lines, for METTLE Core (a weapon line's
table row, the container a line is in) and Errant (each line's ErrantItem)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from characters.models import InventoryItem
from characters.systems.errant.inventory import new_line
from characters.systems.mettle.models import MettleWeapon
from characters.views import lines_for_sheet
from rules import systems
from tests.characters.systems.errant.helpers import make_wren
from tests.characters.systems.mettle.helpers import make_viktor
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def add_mettle_lines(character, n):
    bag = InventoryItem.objects.create(character=character, name="Satchel", position=100)
    for i in range(n):
        line = InventoryItem.objects.create(character=character, name=f"Cane {i}",
                                            kind=InventoryItem.Kind.WEAPON, container=bag,
                                            position=101 + i)
        MettleWeapon.objects.create(item=line, weapon="Sword")


def add_errant_lines(character, n):
    for i in range(n):
        new_line(character, {"name": f"Torch {i}", "quarters": 1, "location": "backpack",
                             "kind": "light", "uses": 1, "uses_max": 6})


def page_queries(client, character) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("characters:detail", args=[character.pk]))
    assert response.status_code == 200
    return len(queries), response.content.decode()


@pytest.mark.parametrize("make,add,shown", [(make_viktor, add_mettle_lines, "Cane 11"),
                                            (make_wren, add_errant_lines, "Torch 11")])
def test_the_pages_queries_are_flat_in_the_number_of_lines(client, make, add, shown):
    owner = UserFactory()
    few, many = make(owner, name="Few"), make(owner, name="Many")
    add(few, 2)
    add(many, 12)
    client.force_login(owner)
    counted_few, _ = page_queries(client, few)
    counted_many, page = page_queries(client, many)
    assert shown in page
    assert counted_many == counted_few


@pytest.mark.parametrize("make,related", [(make_viktor, "mettle_weapon"),
                                          (make_wren, "errant_item")])
def test_lines_for_sheet_loads_the_games_related_rows(make, related,
                                                      django_assert_num_queries):
    character = make(UserFactory())
    character = type(character).objects.get(pk=character.pk)
    assert related in character.game_system.line_related
    with django_assert_num_queries(1):
        lines = lines_for_sheet(character)
        for line in lines:
            getattr(line, related, None)
    assert lines and character.sheet_lines == lines
    assert [line.pk for line in lines] == list(
        InventoryItem.objects.filter(character=character).values_list("pk", flat=True))


def test_a_game_names_no_related_rows_by_default():
    assert systems.GameSystem(key="k", name="n", licence="l").line_related == ()


@pytest.mark.parametrize("make,add", [(make_viktor, add_mettle_lines),
                                      (make_wren, add_errant_lines)])
def test_the_compare_pages_queries_are_flat_too(client, make, add):
    owner = UserFactory()
    few, many = make(owner, name="Few"), make(owner, name="Many")
    add(few, 2)
    add(many, 12)
    client.force_login(owner)

    def counted(character):
        with CaptureQueriesContext(connection) as queries:
            response = client.get(reverse("characters:compare"),
                                  {"a": character.pk, "b": character.pk})
        assert response.status_code == 200
        return len(queries)

    assert counted(many) == counted(few)
