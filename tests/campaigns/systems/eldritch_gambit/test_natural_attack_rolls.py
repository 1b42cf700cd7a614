"""The Checks and Rolls page rolls natural attacks (the Attack Traits, Bestiary >
Templates) as it rolls weapons: "n0" names the first, as "0" names the first weapon;
an area kind has no Attack Check, so only its damage (docs/RULES.md)."""

import pytest
from django.urls import reverse

from campaigns.systems.eldritch_gambit.rolls import Roll
from rules.models import GearItem
from tests.factories import (
    AsphodelFactory,
    CampaignFactory,
    CoImpMembershipFactory,
    InventoryItemFactory,
    MembershipFactory,
    SessionFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

CLOSE = {"name": "Attack", "value": "close", "load": 1}
AREA = {"name": "Attack", "value": "area", "load": 1}


@pytest.fixture
def table():
    """Asphodel (STR 3, DEX 2), Large with claws and a burst, in a campaign in session."""
    campaign = CampaignFactory()
    player = MembershipFactory(campaign=campaign).user
    hero = AsphodelFactory(owner=player, campaign=campaign, template_traits=[
        {"name": "Size", "value": "Large", "load": 2}, CLOSE, AREA])
    SessionFactory(campaign=campaign)
    return {"campaign": campaign, "player": player, "hero": hero,
            "other": MembershipFactory(campaign=campaign).user,
            "co_imp": CoImpMembershipFactory(campaign=campaign).user,
            "stranger": UserFactory()}


def roll_url(hero):
    return reverse("characters:roll", args=[hero.pk])


def test_the_play_page_offers_the_natural_attacks(client, table):
    hero = table["hero"]
    spear = GearItem.objects.srd().get(name="Spear")
    InventoryItemFactory(character=hero, name="Spear", kind="weapon", catalog_item=spear)
    client.force_login(table["player"])

    body = client.get(reverse("characters:play", args=[hero.pk])).content.decode()

    close = body.split('data-weapon="Attack (close)"', 1)[1].split("</li>", 1)[0]
    assert "2d6+3" in close and "Critical +6" in close
    assert 'name="weapon" value="n0"' in close
    assert close.count('name="what" value="critical"') == 1
    area = body.split('data-weapon="Attack (area)"', 1)[1].split("</li>", 1)[0]
    assert 'name="weapon" value="n1"' in area
    assert 'value="critical"' not in area  # no Attack Check, no Critical
    assert 'name="weapon" value="0"' in body  # the spear as before


def test_a_natural_attack_rolls_its_damage_and_critical(client, table):
    hero = table["hero"]
    client.force_login(table["player"])

    assert client.post(roll_url(hero), {"what": "critical", "weapon": "n0"}).status_code == 200
    critical = Roll.objects.get(kind="damage")
    # Large: 2d6 + STR 3; a Critical adds the max of the d6.
    assert critical.expression == "2d6+3+6"
    assert critical.label == "Attack (close) damage (Critical)"

    client.post(roll_url(hero), {"what": "damage", "weapon": "n1"})
    area = Roll.objects.filter(kind="damage").latest("pk")
    assert (area.expression, area.label) == ("2d6+3", "Attack (area) damage")


@pytest.mark.parametrize("value", ["n2", "n", "nx", "n-1", "0", "x0"])
def test_a_bad_natural_attack_is_404(client, table, value):
    client.force_login(table["player"])  # no weapon carried: "0" is bad too
    response = client.post(roll_url(table["hero"]), {"what": "damage", "weapon": value})
    assert response.status_code == 404
    assert not Roll.objects.exists()


def test_an_area_attack_has_no_critical_to_roll(client, table):
    client.force_login(table["player"])
    response = client.post(roll_url(table["hero"]), {"what": "critical", "weapon": "n1"})
    assert response.status_code == 404
    assert not Roll.objects.exists()


def test_who_may_roll_a_natural_attack_is_unchanged(client, table):
    hero = table["hero"]
    data = {"what": "damage", "weapon": "n0"}
    assert client.post(roll_url(hero), data).status_code == 302
    for who in ("other", "stranger"):
        client.force_login(table[who])
        assert client.post(roll_url(hero), data).status_code == 404
        assert client.get(reverse("characters:play", args=[hero.pk])).status_code == 404
    assert not Roll.objects.exists()
    for who in ("co_imp", "player"):
        client.force_login(table[who])
        assert client.post(roll_url(hero), data).status_code == 200
    client.force_login(table["campaign"].owner)
    assert client.post(roll_url(hero), data).status_code == 200
    assert Roll.objects.count() == 3


def test_the_roll_off_starts_from_the_natural_attack_without_a_weapon(client, table):
    client.force_login(table["player"])
    body = client.get(reverse("characters:play", args=[table["hero"].pk])).content.decode()
    assert 'name="rolloff-attacker" value="2d6+3"' in body


def test_an_elemental_attack_is_logged_with_its_element(client, table):
    """Magic > Elements: an Element is a prefix ("a Fire Blast")."""
    hero = table["hero"]
    hero.template_traits = [{"name": "Attack", "value": "ranged area, Fire", "load": 2}]
    hero.save()
    client.force_login(table["player"])

    client.post(roll_url(hero), {"what": "damage", "weapon": "n0"})

    roll = Roll.objects.get(character=hero, kind="damage")
    assert roll.label == "Fire Attack (ranged area) damage"
    assert roll.expression.startswith("1d6+3")
