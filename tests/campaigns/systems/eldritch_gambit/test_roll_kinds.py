"""The table of Roll kinds (campaigns/systems/eldritch_gambit/roll_kinds.py): what each
`what` names, how it builds its Roll from the sheet, what it logs, and which weapons a
damage Roll may name.
The view that posts them is tested in test_roll_views.py and test_natural_attack_rolls.py."""

import re

import pytest
from django.http import Http404
from django.urls import reverse

from campaigns.systems.eldritch_gambit.roll_kinds import (
    FORM_KINDS,
    ROLL_KINDS,
    damage_lines,
    roll_kind,
    weapon_line,
)
from campaigns.systems.eldritch_gambit.rolls import Roll
from characters.systems.eldritch_gambit.builds import sheet_for
from rules.engine.dice import Dice
from rules.engine.eldritch_gambit import rolls
from rules.engine.eldritch_gambit.templates import has_trait
from rules.engine.rolling import RollError
from rules.models import GearItem
from tests.factories import AsphodelFactory, InventoryItemFactory, UserFactory

pytestmark = pytest.mark.django_db

CLOSE = {"name": "Attack", "value": "close", "load": 1}
AREA = {"name": "Attack", "value": "area", "load": 1}


@pytest.fixture
def hero():
    """Asphodel with a spear, claws (close) and a burst (area)."""
    hero = AsphodelFactory(owner=UserFactory(), template_traits=[CLOSE, AREA])
    InventoryItemFactory(character=hero, name="Spear", kind="weapon",
                         catalog_item=GearItem.objects.srd().get(name="Spear"))
    return hero


@pytest.fixture
def sheet(hero):
    return sheet_for(hero)


# -- the table and the page agree ---------------------------------------------------------


def test_every_roll_the_page_posts_is_a_kind_and_every_kind_is_posted(client, hero):
    client.force_login(hero.owner)
    body = client.get(reverse("characters:play", args=[hero.pk])).content.decode()
    posted = set(re.findall(r'name="what" value="(\w+)"', body))
    # A clash's damage is posted from a failed melee Attack's result only
    # (test_clash_and_rally.py).
    assert posted == set(ROLL_KINDS) - {"clash"}


def test_each_form_kind_is_prefixed_by_its_what_on_the_page(client, hero):
    client.force_login(hero.owner)
    body = client.get(reverse("characters:play", args=[hero.pk])).content.decode()
    assert [kind.what for kind in FORM_KINDS] == ["fall", "fire", "buildup", "rolloff"]
    for kind in FORM_KINDS:
        assert kind.form_name == f"{kind.what}_form"
        for field in kind.form_class.base_fields:
            assert f'name="{kind.prefix}-{field}"' in body


def test_each_kind_logs_a_roll_kind_and_refuses_on_a_field_of_its_form():
    for kind in ROLL_KINDS.values():
        assert kind.logs in Roll.Kind.values
        assert (kind.spec is None) != (kind.roll is None)  # one way to roll, not two
        if kind.refused_field is not None:
            assert kind.refused_field in kind.form_class.base_fields


@pytest.mark.parametrize("what", ["", "nope", "DAMAGE", "damage ", "reroll", "check",
                                  "rolloff\x00", "ｄａｍａｇｅ"])
def test_an_unknown_what_is_404(what):
    with pytest.raises(Http404):
        roll_kind(what)


def test_a_kind_without_a_form_binds_none():
    assert roll_kind("rally").bind({"what": "rally"}) is None
    form = roll_kind("fall").bind({"fall-zones": "2"})
    assert form.prefix == "fall" and form.is_valid()
    assert form.cleaned_data["zones"] == 2


# -- building the Roll from the sheet -----------------------------------------------------


def test_damage_and_critical_come_from_the_weapon_line(sheet):
    line = sheet.weapons[0]
    assert roll_kind("damage").spec(sheet, {"weapon": "0"}) == rolls.weapon_damage(
        line.title, line.damage, line.critical_bonus)
    assert roll_kind("critical").spec(sheet, {"weapon": "0"}) == rolls.weapon_damage(
        line.title, line.damage, line.critical_bonus, critical=True)
    claws = sheet.natural_attacks[0]
    assert roll_kind("critical").spec(sheet, {"weapon": "n0"}) == rolls.weapon_damage(
        claws.title, claws.damage, claws.critical_bonus, critical=True)


def test_rally_fall_fire_and_buildup_come_from_the_sheet_and_the_form(hero, sheet):
    rally = roll_kind("rally").make(character=hero, by=hero.owner, sheet=sheet, data={},
                                    request_key=None)
    spec = rolls.rally(str(sheet.value("rally")))
    assert (rally.kind, rally.label, rally.expression) == ("rally", spec.label,
                                                           spec.expression)
    assert roll_kind("fall").spec(sheet, {"zones": 3, "plummet": True}) == rolls.fall(
        3, sheet.size, plummet=True, jump=has_trait(sheet.build.traits, "Jump"))
    assert roll_kind("fire").spec(sheet, {"fire": "large"}) == rolls.fire("large")
    dice = Dice.parse("2d6")
    assert roll_kind("buildup").spec(sheet, {"buildup": dice}) == rolls.buildup(dice)


def test_damage_lines_name_weapons_then_natural_attacks(sheet):
    assert damage_lines(sheet) == [("0", sheet.weapons[0]), ("n0", sheet.natural_attacks[0]),
                                   ("n1", sheet.natural_attacks[1])]
    for value, line in damage_lines(sheet):
        assert weapon_line(sheet, value) == line


@pytest.mark.parametrize("value", ["", "1", "n", "n2", "x", "-0", "0x", "²", "n²", " 0",
                                   "99999999999999999999", "nn0"])
def test_any_other_weapon_is_404(sheet, value):
    with pytest.raises(Http404):
        weapon_line(sheet, value)


def test_no_critical_without_an_attack_check(sheet):
    assert not sheet.natural_attacks[1].has_attack_check  # the area burst
    assert weapon_line(sheet, "n1") == sheet.natural_attacks[1]
    with pytest.raises(Http404):
        weapon_line(sheet, "n1", critical=True)
    with pytest.raises(Http404):
        roll_kind("critical").spec(sheet, {"weapon": "n1"})


# -- rolling and logging ------------------------------------------------------------------


def test_make_logs_the_kind_once_per_request_key(hero, sheet):
    kind = roll_kind("damage")
    first = kind.make(character=hero, by=hero.owner, sheet=sheet, data={"weapon": "0"},
                      request_key="k" * 32)
    again = kind.make(character=hero, by=hero.owner, sheet=sheet, data={"weapon": "0"},
                      request_key="k" * 32)
    assert first.pk == again.pk and first.kind == Roll.Kind.DAMAGE
    assert first.label == kind.spec(sheet, {"weapon": "0"}).label
    assert Roll.objects.filter(character=hero).count() == 1


def test_a_roll_off_rolls_the_typed_sides(hero, sheet):
    kind = roll_kind("rolloff")
    data = {"attacker": "1d8", "defender": "1d6", "label": "Grapple",
            "side": rolls.ATTACKER}
    roll = kind.make(character=hero, by=hero.owner, sheet=sheet, data=data,
                     request_key=None)
    assert (roll.kind, roll.label) == (Roll.Kind.ROLLOFF, "Grapple")
    assert len(roll.dice) == 2 and 1 <= roll.dice[0] <= 8 and 1 <= roll.dice[1] <= 6


def test_a_roll_off_that_cannot_be_rolled_is_a_roll_error(hero, sheet):
    data = {"attacker": "999d999", "defender": "1d6", "label": "Clash",
            "side": rolls.ATTACKER}
    with pytest.raises(RollError):
        roll_kind("rolloff").make(character=hero, by=hero.owner, sheet=sheet, data=data,
                                  request_key=None)
    assert not Roll.objects.filter(character=hero).exists()



# -- the view's lookup --------------------------------------------------------------------


@pytest.mark.parametrize("data, status", [
    ({"what": "nope"}, 404),
    ({}, 404),
    ({"what": "nope", "request_key": "x" * 500}, 400),  # a forged key first, as before
    ({"what": "fall", "fall-zones": "zz", "request_key": "x" * 500}, 400),
    ({"what": "fall", "fall-zones": "zz"}, 422),
    ({"what": "damage", "weapon": "n9"}, 404),
])
def test_the_view_refuses_before_it_rolls(client, hero, data, status):
    client.force_login(hero.owner)
    response = client.post(reverse("characters:roll", args=[hero.pk]), data)
    assert response.status_code == status
    assert not Roll.objects.filter(character=hero).exists()


@pytest.mark.parametrize("who", ["anonymous", "stranger"])
def test_only_those_who_may_roll_reach_the_table(client, hero, who):
    if who == "stranger":
        client.force_login(UserFactory())
    response = client.post(reverse("characters:roll", args=[hero.pk]), {"what": "rally"})
    assert response.status_code in (302, 404)
    assert not Roll.objects.filter(character=hero).exists()
