"""What the database itself refuses of a METTLE Core build (the CheckConstraints), and
the demo's Viktor."""

import pytest
from django.db import IntegrityError, transaction

from characters.systems.mettle.builds import sheet_for
from characters.systems.mettle.demo import seed_demo
from characters.systems.mettle.models import MettleCharacter
from rules.engine.mettle.attributes import Attributes, build_problems

from .helpers import make_viktor

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("changes", [
    {"concept": 0}, {"poise": 7},  # starting pools are 1 to 6
    {"concept": 4},  # 4, 3, 4, 3, 2 is not the Array
    {"concept": 5, "frame": 5, "motive": 2, "nature": 3, "poise": 2},  # sum 17, not the Array
    {"method": "dice"},
    {"budget": 0}, {"budget": 100},
    {"method": "freestyle", "budget": 22, "motive": 6},  # 12 is over half of 22
    {"method": "freestyle", "budget": 22, "concept": 5, "frame": 4, "motive": 4},  # 23 > 22
    {"credit": 10}, {"credit": -1},
    {"mettle_current": 100}, {"mettle_current": -100},
])
def test_the_database_refuses_what_the_rules_forbid(user, changes):
    viktor = make_viktor(user)
    with pytest.raises(IntegrityError), transaction.atomic():
        MettleCharacter.objects.filter(pk=viktor.pk).update(**changes)


@pytest.mark.parametrize("pools", [(5, 4, 3, 3, 2), (2, 3, 3, 4, 5), (3, 5, 2, 4, 3)])
def test_every_order_of_the_array_is_accepted(user, pools):
    viktor = make_viktor(user)
    keys = ("concept", "frame", "motive", "nature", "poise")
    MettleCharacter.objects.filter(pk=viktor.pk).update(**dict(zip(keys, pools, strict=True)))


def test_the_database_and_the_engine_agree_on_freestyle(user):
    """Every Freestyle build the engine allows on a budget, the database stores; every
    one it refuses for cost, the database refuses."""
    viktor = make_viktor(user)
    keys = ("concept", "frame", "motive", "nature", "poise")
    for budget in (16, 22, 23):
        for pools in ((4, 4, 3, 3, 2), (5, 2, 2, 3, 2), (5, 4, 3, 3, 2), (6, 1, 1, 1, 1),
                      (1, 1, 1, 1, 1), (4, 4, 4, 4, 4)):
            attrs = Attributes(*pools)
            legal = not [p for p in build_problems(attrs, "freestyle", budget) if p.is_error]
            try:
                with transaction.atomic():
                    MettleCharacter.objects.filter(pk=viktor.pk).update(
                        method="freestyle", budget=budget, **dict(zip(keys, pools, strict=True)))
                stored = True
            except IntegrityError:
                stored = False
            assert stored == legal, (budget, pools)


def test_the_demo_seeds_viktor_once(db):
    first = seed_demo()
    assert first == {"users": [("player1", "player1-demo-pass",
                                "Viktor's player (METTLE Core)")], "campaigns": []}
    seed_demo()
    viktor = MettleCharacter.objects.get(name="Viktor")
    assert viktor.owner.check_password("player1-demo-pass")
    sheet = sheet_for(viktor)
    # The numbers of his sheet (next-games.md §1.2, M14).
    assert (sheet.value("mettle_max"), sheet.value("pool_total"), sheet.value("load"),
            sheet.value("credit_afford"), sheet.value("contacts_max")) == (9, 22, 1, 99, 2)
    assert [(w.name, w.pool, w.dm) for w in sheet.weapons] == [("Sword cane", 5, 5)]


def test_the_admin_lists_and_opens_a_mettle_character(client, user):
    viktor = make_viktor(user)
    user.is_staff = user.is_superuser = True
    user.save()
    client.force_login(user)
    listing = client.get("/admin/mettle/mettlecharacter/")
    assert listing.status_code == 200 and "Viktor" in listing.content.decode()
    assert client.get(f"/admin/mettle/mettlecharacter/{viktor.pk}/change/").status_code == 200
