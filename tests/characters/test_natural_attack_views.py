"""Natural attacks (the Attack Traits, Bestiary > Templates) where weapons show: the
character page, the Template page with its live preview, and the printed sheet; who may
see them is unchanged."""

import re

import pytest
from django.urls import reverse

from characters.models import InventoryItem
from characters.systems.eldritch_gambit import printing
from characters.systems.eldritch_gambit.builds import sheet_for
from rules.models import GearItem, Trait
from tests.factories import (
    AsphodelFactory,
    CampaignFactory,
    CoImpMembershipFactory,
    MembershipFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

# As the Template page stores catalog Traits: the group, the kind as value, the Load.
CLOSE = {"name": "Attack", "value": "close", "load": 1}
BREATH = {"name": "Attack (ranged area)", "value": "Fire", "load": 2}  # a custom Trait
LARGE = {"name": "Size", "value": "Large", "load": 2}


@pytest.fixture
def owner(db):
    return UserFactory()


@pytest.fixture
def beast(owner):
    """Asphodel (STR 3, DEX 2) with claws: Attack (close), Hit +3, 1d6+3, Grapple."""
    return AsphodelFactory(owner=owner, template_name="Beast", template_traits=[CLOSE])


def carry(character, name):
    gear = GearItem.objects.srd().get(name=name)
    InventoryItem.objects.create(character=character, catalog_item=gear, name=name,
                                 kind=gear.category)


def line_of(body: str, name: str) -> str:
    """The markup of the first element marked data-weapon="name", up to the next one."""
    return re.split(r"data-weapon=", body.split(f'data-weapon="{name}"', 1)[1])[0]


# -- the character page -----------------------------------------------------------------


def test_the_character_page_lists_the_natural_attacks_with_the_weapons(client, owner, beast):
    carry(beast, "Spear")
    beast.template_traits = [CLOSE, BREATH]
    beast.save()
    client.force_login(owner)

    body = client.get(beast.get_absolute_url()).content.decode()

    assert 'data-weapon="Spear"' in body
    close = line_of(body, "Attack (close)")
    assert "data-natural-attack" in close
    assert "Hit +3, 1d6+3 damage, Critical +6, Grapple" in close
    breath = line_of(body, "Attack (ranged area)")
    assert "1d6+3 Fire damage, Range 2, Area: all in target Zone" in breath
    assert "Hit" not in breath.split("</li>")[0]


def test_size_steps_the_natural_attack_on_the_character_page(client, owner, beast):
    beast.template_traits = [CLOSE, LARGE]
    beast.save()
    client.force_login(owner)

    body = client.get(beast.get_absolute_url()).content.decode()

    assert "Hit +3, 2d6+3 damage, Critical +6, Grapple" in line_of(body, "Attack (close)")


def test_without_weapons_or_attacks_there_is_no_weapons_list(client, owner):
    human = AsphodelFactory(owner=owner)
    client.force_login(owner)

    body = client.get(human.get_absolute_url()).content.decode()

    assert "data-weapon=" not in body


def test_the_character_page_still_refuses_others(client, beast):
    url = beast.get_absolute_url()
    assert client.get(url).status_code == 302
    client.force_login(UserFactory())
    assert client.get(url).status_code == 404


def test_the_imp_sees_the_natural_attacks_read_only(client, owner):
    campaign = CampaignFactory()
    MembershipFactory(campaign=campaign, user=owner)
    beast = AsphodelFactory(owner=owner, campaign=campaign, template_traits=[CLOSE])
    client.force_login(campaign.owner)

    body = client.get(beast.get_absolute_url()).content.decode()

    assert "Hit +3, 1d6+3 damage" in line_of(body, "Attack (close)")
    client.force_login(MembershipFactory(campaign=campaign).user)  # another player
    assert client.get(beast.get_absolute_url()).status_code == 404


# -- the Template page --------------------------------------------------------------------


def weapon_stat(body: str, name: str, stat: str) -> str:
    return re.search(rf'data-stat="{stat}"[^>]*>([^<]*)<', line_of(body, name)).group(1)


def test_the_template_page_shows_the_stored_attack_with_hit_and_damage(client, owner, beast):
    client.force_login(owner)

    body = client.get(reverse("characters:template", args=[beast.pk])).content.decode()

    assert "data-natural-attack" in line_of(body, "Attack (close)")
    assert weapon_stat(body, "Attack (close)", "weapon_hit") == "+3"
    assert weapon_stat(body, "Attack (close)", "weapon_damage") == "1d6+3"
    assert "Attack Trait 1 + DEX 2" in line_of(body, "Attack (close)")


def test_the_live_preview_follows_the_attack_traits_chosen(client, owner):
    human = AsphodelFactory(owner=owner)
    client.force_login(owner)
    srd = Trait.objects.srd()
    data = {"template_name": "Dragonling", "size": srd.get(slug="size-large").pk,
            "armored": "", "traits-TOTAL_FORMS": "2", "traits-INITIAL_FORMS": "0",
            "traits-0-trait": srd.get(slug="attack-melee").pk,
            "traits-1-trait": srd.get(slug="attack-area").pk}

    response = client.post(reverse("characters:template_preview", args=[human.pk]), data,
                           HTTP_HX_REQUEST="true")

    body = response.content.decode()
    assert weapon_stat(body, "Attack (melee)", "weapon_hit") == "+3"
    assert weapon_stat(body, "Attack (melee)", "weapon_damage") == "2d8+3"
    assert weapon_stat(body, "Attack (area)", "weapon_hit") == "—"
    assert weapon_stat(body, "Attack (area)", "weapon_damage") == "2d6+3"
    human.refresh_from_db()
    assert human.template_traits == []  # the preview saves nothing


def test_the_template_page_still_refuses_others(client, beast):
    client.force_login(UserFactory())
    assert client.get(reverse("characters:template", args=[beast.pk])).status_code == 404


# -- the printed sheet --------------------------------------------------------------------


def test_the_printed_weapons_box_lists_the_natural_attacks_after_the_weapons(owner, beast):
    carry(beast, "Spear")
    beast.template_traits = [CLOSE, BREATH]
    beast.save()
    items = list(beast.items.select_related("catalog_item"))

    printed = printing.printed_sheet(beast, items, sheet_for(beast, items))

    rows = [(e.text, e.hit, e.damage, e.weapon_notes, e.load)
            for e in printed.weapons.entries]
    assert rows == [
        ("Spear", "+4", "1d8+3", "Reach, Range 1", "1"),
        ("Attack (close)", "+3", "1d6+3", "Grapple", "—"),
        ("Attack (ranged area)", "—", "1d6+3 Fire", "Area: all in target Zone, Range 2", "—"),
    ]


def test_the_print_view_shows_the_natural_attack(client, owner, beast):
    client.force_login(owner)

    body = client.get(reverse("characters:print", args=[beast.pk])).content.decode()

    row = line_of(body, "Attack (close)")
    assert 'data-field="hit">+3<' in row
    assert 'data-field="damage">1d6+3<' in row
    assert 'class="col-load">—<' in row


@pytest.mark.parametrize("who", ["imp", "co_imp", "stranger", "player"])
def test_who_may_print_is_unchanged(client, owner, who):
    campaign = CampaignFactory()
    MembershipFactory(campaign=campaign, user=owner)
    beast = AsphodelFactory(owner=owner, campaign=campaign, template_traits=[CLOSE])
    client.force_login({"imp": campaign.owner,
                        "co_imp": CoImpMembershipFactory(campaign=campaign).user,
                        "stranger": UserFactory(),
                        "player": MembershipFactory(campaign=campaign).user}[who])

    response = client.get(reverse("characters:print", args=[beast.pk]))

    if who in ("imp", "co_imp"):
        assert 'data-weapon="Attack (close)"' in response.content.decode()
    else:
        assert response.status_code == 404
