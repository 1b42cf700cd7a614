"""Homebrew gear and Traits in the app, and the rules reference page.

Homebrew rows belong to their author: nobody else sees them in a list or a choice, and
another player's edit or delete is a 404. Every database constraint comes back as an error
on the right field (asserted by code), never as an IntegrityError.
"""

import pytest
from django.urls import reverse

from characters.models import InventoryItem
from characters.systems.eldritch_gambit.inventory import InventoryError, item_add
from rules.forms import GearItemForm, TraitForm
from rules.models import GearItem, Trait
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    CoImpMembershipFactory,
    MembershipFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def codes(form) -> dict[str, list[str]]:
    return {name: [error.code for error in errors]
            for name, errors in form.errors.as_data().items()}


def gear_data(**overrides):
    data = {"name": "Bone club", "category": "weapon", "cost_cp": "40", "load": "1",
            "pack_size": "1", "weapon_hit": "1", "weapon_damage": "1d6"}
    data.update(overrides)
    return data


def armor_data(**overrides):
    return gear_data(**{"name": "Mithril shirt", "category": "armor", "weapon_hit": "",
                        "weapon_damage": "", "armor_ap": "10", "armor_rally_die": "8",
                        "armor_rank": "2", **overrides})


def trait_data(**overrides):
    data = {"name": "Gills", "group": "", "value": "", "load": "1", "load_min": "",
            "load_max": "", "effects": "Breathe water.", "description": ""}
    data.update(overrides)
    return data


@pytest.fixture
def author(db):
    return UserFactory()


@pytest.fixture
def club(author):
    return GearItem.objects.create(owner=author, name="Bone club", slug="bone-club",
                                   category="weapon", load=1, weapon_hit=1, weapon_damage="1d6")


@pytest.fixture
def gills(author):
    return Trait.objects.create(owner=author, name="Gills", slug="gills", group="Gills", load=1)


# -- permissions ------------------------------------------------------------------------

OWN_PAGES = [
    ("rules:gear_edit", "club"),
    ("rules:gear_delete", "club"),
    ("rules:trait_edit", "gills"),
    ("rules:trait_delete", "gills"),
]


@pytest.mark.parametrize("name", ["rules:homebrew", "rules:gear_create", "rules:trait_create"])
def test_anonymous_is_sent_to_log_in(client, name):
    response = client.get(reverse(name))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize(("name", "row"), OWN_PAGES)
@pytest.mark.parametrize("method", ["get", "post"])
def test_anonymous_cannot_edit_or_delete(client, request, name, row, method):
    obj = request.getfixturevalue(row)
    response = getattr(client, method)(reverse(name, args=[obj.pk]))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert type(obj).objects.filter(pk=obj.pk).exists()


@pytest.mark.parametrize(("name", "row"), OWN_PAGES)
@pytest.mark.parametrize("method", ["get", "post"])
def test_a_stranger_gets_404_on_edit_and_delete(client, request, name, row, method):
    obj = request.getfixturevalue(row)
    client.force_login(UserFactory())
    data = gear_data(name="Stolen") if row == "club" else trait_data(name="Stolen")

    response = getattr(client, method)(reverse(name, args=[obj.pk]), data)

    assert response.status_code == 404
    obj.refresh_from_db()
    assert obj.name in ("Bone club", "Gills")


def test_an_srd_row_cannot_be_edited_or_deleted_as_homebrew(client, author):
    client.force_login(author)
    spear = GearItem.objects.srd().get(name="Spear")
    flight = Trait.objects.srd().get(slug="flight")
    assert client.get(reverse("rules:gear_edit", args=[spear.pk])).status_code == 404
    assert client.post(reverse("rules:gear_delete", args=[spear.pk])).status_code == 404
    assert client.post(reverse("rules:trait_delete", args=[flight.pk])).status_code == 404
    assert GearItem.objects.filter(pk=spear.pk).exists()


@pytest.mark.parametrize(("name", "row"), OWN_PAGES)
def test_the_author_opens_their_pages(client, request, author, name, row):
    obj = request.getfixturevalue(row)
    client.force_login(author)
    assert client.get(reverse(name, args=[obj.pk])).status_code == 200


def test_the_list_shows_only_my_homebrew(client, author, club, gills):
    theirs = GearItem.objects.create(owner=UserFactory(), name="Secret blade",
                                     slug="secret-blade", category="item", load=0)
    client.force_login(author)

    body = client.get(reverse("rules:homebrew")).content.decode()

    assert "Bone club" in body and "Gills" in body
    assert theirs.name not in body
    assert "Spear" not in body  # SRD rows live on the reference page


def test_a_stranger_never_sees_homebrew_in_lists_or_choices(client, author, club, gills):
    """(The Template page's Trait choices:
    tests/characters/systems/eldritch_gambit/test_template_views.py.)"""
    GearItem.objects.create(owner=author, name="Bone mail", slug="bone-mail",
                            category="armor", load=2, armor_ap=8, armor_rally_die=8,
                            armor_rank=2)
    client.force_login(author)
    builder = {"system": "eldritch-gambit"}  # Eldritch Gambit's builder lists the armour
    assert "Bone mail" in client.get(reverse("characters:create"), builder).content.decode()
    stranger = UserFactory()
    client.force_login(stranger)

    pages = [
        client.get(reverse("rules:homebrew")),
        client.get(reverse("rules:index")),
        client.get(reverse("characters:create"), builder),
    ]

    for response in pages:
        assert response.status_code == 200
        body = response.content.decode()
        assert "Bone club" not in body
        assert "Bone mail" not in body
        assert "Gills" not in body


# -- the reference page ---------------------------------------------------------------


def test_the_rules_reference_lists_the_srd_tables_with_their_source(client, club):
    response = client.get(reverse("rules:index"))

    body = response.content.decode()
    assert response.status_code == 200
    # The gear tables are sections of the reference's Gear section (h3 under its h2).
    assert ">Gear</h2>" in body and ">Traits</h2>" in body
    for heading in ("Armor", "Shields", "Weapons", "Miscellaneous items", "Common loads"):
        assert f">{heading}</h3>" in body
    assert '<tr id="gear-scale-mail"><th scope="row">Scale mail</th><td>15</td><td>1d10</td>' \
        '<td>3</td><td>600</td>' in body
    assert "<th scope=\"row\">Bane</th><td class=\"text-nowrap\">-2 to -1</td>" in body
    assert "<th scope=\"row\">Fast</th><td class=\"text-nowrap\">1+</td>" in body
    assert "licensed for our use under the Creative Commons Attribution 4.0" in body
    assert "Bone club" not in body


def test_the_navbar_links_the_rules_reference(client):
    body = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("rules:index")}"' in body
    assert "Rules reference" in body


# -- gear: creating, editing, deleting ---------------------------------------------------


def test_creating_gear_makes_it_mine(client, author):
    client.force_login(author)

    response = client.post(reverse("rules:gear_create"), armor_data())

    assert response.status_code == 302
    assert response["Location"] == reverse("rules:homebrew")
    item = GearItem.objects.get(name="Mithril shirt")
    assert (item.owner, item.source, item.slug) == (author, None, "mithril-shirt")
    assert (item.armor_ap, item.armor_rally_die, item.armor_rank) == (10, 8, 2)
    assert (item.weapon_hit, item.weapon_damage, item.weapon_tags) == (None, "", [])


def test_a_weapon_keeps_its_stats_and_tags(author):
    form = GearItemForm(gear_data(weapon_damage=" 1D4 + 1 ", weapon_range="2",
                                  weapon_reload="1", weapon_tags=["2H", "Stun"]), owner=author)

    assert form.is_valid(), form.errors
    item = form.save()
    assert (item.weapon_damage, item.weapon_range, item.weapon_reload) == ("1d4+1", 2, 1)
    assert item.weapon_tags == ["2H", "Stun"]


def test_a_shield_bashes_for_1d6_unless_told(author):
    form = GearItemForm(gear_data(name="Tower shield", category="shield", weapon_hit="",
                                  weapon_damage="", shield_af="3", shield_block="0"),
                        owner=author)

    assert form.is_valid(), form.errors
    item = form.save()
    assert (item.shield_af, item.shield_block, item.weapon_hit, item.weapon_damage) == (
        3, 0, 0, "1d6")


def test_a_container_holds_its_capacity(author):
    form = GearItemForm(gear_data(name="Satchel", category="item", weapon_hit="",
                                  weapon_damage="", capacity="2", load="0"), owner=author)

    assert form.is_valid(), form.errors
    assert form.save().capacity == 2


@pytest.mark.parametrize("damage", ["club", "d", "0d6", "1d1", "1d8+", "2x6"])
def test_damage_must_be_dice_notation(author, damage):
    form = GearItemForm(gear_data(weapon_damage=damage), owner=author)
    assert codes(form) == {"weapon_damage": ["invalid_dice"]}


@pytest.mark.parametrize(("overrides", "expected"), [
    # Each category carries only its own stats (rules.models constraints).
    ({"armor_ap": "5"}, {"armor_ap": ["not_for_category"]}),
    ({"shield_af": "1"}, {"shield_af": ["not_for_category"]}),
    ({"category": "item", "weapon_hit": "", "weapon_damage": "1d6"},
     {"weapon_damage": ["not_for_category"]}),
    ({"category": "item", "weapon_hit": "", "weapon_damage": "", "weapon_tags": ["Stun"]},
     {"weapon_tags": ["not_for_category"]}),
    ({"category": "load", "weapon_damage": "", "weapon_hit": "2"},
     {"weapon_hit": ["not_for_category"]}),
    ({"weapon_damage": ""}, {"weapon_damage": ["required_for_category"]}),
    ({"category": "armor", "weapon_hit": "", "weapon_damage": "", "armor_rally_die": "8",
      "armor_rank": "1"}, {"armor_ap": ["required_for_category"]}),
    ({"category": "shield", "shield_af": "2"}, {"shield_block": ["required_for_category"]}),
    # Sane numbers and known choices.
    ({"category": "armor", "weapon_hit": "", "weapon_damage": "", "armor_ap": "5",
      "armor_rally_die": "7", "armor_rank": "1"}, {"armor_rally_die": ["invalid_choice"]}),
    ({"category": "armor", "weapon_hit": "", "weapon_damage": "", "armor_ap": "5",
      "armor_rally_die": "6", "armor_rank": "9"}, {"armor_rank": ["invalid_choice"]}),
    ({"capacity": "0"}, {"capacity": ["min_value"]}),
    ({"pack_size": "0"}, {"pack_size": ["min_value"]}),
    ({"load": "heavy"}, {"load": ["invalid"]}),
    ({"cost_cp": "-5"}, {"cost_cp": ["min_value"]}),
    ({"weapon_tags": ["Sharp"]}, {"weapon_tags": ["invalid_choice"]}),
    ({"category": "vehicle"}, {"category": ["invalid_choice"]}),
    ({"name": ""}, {"name": ["required"]}),
])
def test_gear_errors_land_on_the_right_field(author, overrides, expected):
    form = GearItemForm(gear_data(**overrides), owner=author)
    assert codes(form) == expected


def test_a_refused_gear_item_is_shown_again_with_everything_typed(client, author):
    client.force_login(author)

    response = client.post(reverse("rules:gear_create"),
                           gear_data(name="Odd mace", weapon_damage="lots", armor_ap="4"))

    body = response.content.decode()
    assert response.status_code == 200
    assert "Nothing was saved" in body
    assert 'value="Odd mace"' in body and 'value="lots"' in body
    assert "Write the damage as dice" in body
    assert "Only armor has this" in body
    assert not GearItem.objects.filter(owner=author).exists()


def test_a_second_item_of_the_same_name_is_refused_on_the_name(author, club):
    form = GearItemForm(gear_data(name="  bone CLUB "), owner=author)
    assert codes(form) == {"name": ["duplicate_name"]}


def test_another_player_may_use_the_same_name(club):
    form = GearItemForm(gear_data(), owner=UserFactory())
    assert form.is_valid(), form.errors
    form.save()
    assert GearItem.objects.filter(slug="bone-club").count() == 2


def test_a_name_with_no_letters_still_gets_a_slug(author):
    form = GearItemForm(gear_data(name="!!!"), owner=author)
    assert form.is_valid(), form.errors
    assert form.save().slug == "homebrew"


def test_editing_gear_keeps_its_own_name_and_owner(client, author, club):
    client.force_login(author)

    response = client.post(reverse("rules:gear_edit", args=[club.pk]),
                           gear_data(weapon_damage="1d8", cost_cp=""))

    assert response.status_code == 302
    club.refresh_from_db()
    assert (club.weapon_damage, club.cost_cp, club.owner) == ("1d8", None, author)


def test_changing_the_category_asks_to_clear_the_old_stats(client, author, club):
    client.force_login(author)

    response = client.post(reverse("rules:gear_edit", args=[club.pk]),
                           gear_data(category="item"))

    assert response.status_code == 200
    assert "Only weapons and shields have this" in response.content.decode()
    club.refresh_from_db()
    assert club.category == "weapon"


def test_deleting_gear_keeps_the_load_of_the_lines_that_used_it(client, author, club):
    character = CharacterFactory(owner=author)
    line = InventoryItem.objects.create(character=character, catalog_item=club,
                                        name="Bone club", kind="weapon", load=None)
    client.force_login(author)

    confirm = client.get(reverse("rules:gear_delete", args=[club.pk]))
    response = client.post(reverse("rules:gear_delete", args=[club.pk]))

    assert "1 line in your characters" in confirm.content.decode()
    assert response.status_code == 302
    assert not GearItem.objects.filter(pk=club.pk).exists()
    line.refresh_from_db()
    assert (line.catalog_item, line.name, line.load) == (None, "Bone club", 1)


# -- Traits ------------------------------------------------------------------------------


def test_creating_a_trait_makes_it_mine(client, author):
    client.force_login(author)

    response = client.post(reverse("rules:trait_create"), trait_data())

    assert response.status_code == 302
    trait = Trait.objects.get(name="Gills")
    assert (trait.owner, trait.source, trait.group, trait.slug) == (author, None, "Gills",
                                                                    "gills")


def test_a_variable_load_trait(author):
    form = TraitForm(trait_data(name="Many arms", load="1", load_min="1", load_max="3"),
                     owner=author)
    assert form.is_valid(), form.errors
    trait = form.save()
    assert (trait.load, trait.load_min, trait.load_max, trait.has_variable_load) == (
        1, 1, 3, True)


def test_a_size_trait_takes_a_size_the_rules_know(author):
    form = TraitForm(trait_data(name="Hulking", group="size", value="large", load="1"),
                     owner=author)
    assert form.is_valid(), form.errors
    trait = form.save()
    assert (trait.group, trait.value) == ("size", "Large")


@pytest.mark.parametrize(("overrides", "expected"), [
    ({"group": "Size", "value": "Enormous"}, {"value": ["invalid_value"]}),
    ({"group": "Size", "value": "Medium"}, {"value": ["invalid_value"]}),
    ({"group": "Armored", "value": ""}, {"value": ["invalid_value"]}),
    ({"load_max": "3"}, {"load_min": ["load_min_required"]}),
    ({"load": "0", "load_min": "1"}, {"load": ["load_out_of_range"]}),
    ({"load": "4", "load_min": "1", "load_max": "3"}, {"load": ["load_out_of_range"]}),
    ({"load": "2", "load_min": "3", "load_max": "1"}, {"load_max": ["load_range_inverted"]}),
    ({"load": "two"}, {"load": ["invalid"]}),
    ({"load": "500"}, {"load": ["max_value"]}),
    ({"name": ""}, {"name": ["required"]}),
])
def test_trait_errors_land_on_the_right_field(author, overrides, expected):
    form = TraitForm(trait_data(**overrides), owner=author)
    assert codes(form) == expected


def test_a_second_trait_of_the_same_name_is_refused(author, gills):
    assert codes(TraitForm(trait_data(), owner=author)) == {"name": ["duplicate_name"]}


def test_deleting_a_trait_leaves_the_characters_copy(client, author, gills):
    character = CharacterFactory(owner=author, template_traits=[
        {"name": "Gills", "value": "", "load": 1}])
    client.force_login(author)

    response = client.post(reverse("rules:trait_delete", args=[gills.pk]))

    assert response.status_code == 302
    assert not Trait.objects.filter(pk=gills.pk).exists()
    character.refresh_from_db()
    assert character.template_traits == [{"name": "Gills", "value": "", "load": 1}]


# -- sharing with a campaign -------------------------------------------------------------


@pytest.fixture
def table(author):
    """A campaign `author` runs as the Imp, with one player."""
    campaign = CampaignFactory(owner=author)
    return campaign, MembershipFactory(campaign=campaign).user


def test_a_member_sees_the_imps_shared_homebrew_and_buys_it(author, club, gills, table):
    campaign, player = table
    club.campaign = gills.campaign = campaign
    club.cost_cp = 40
    club.save()
    gills.save()
    MembershipFactory(user=player)  # a second campaign: still one row each, no join

    assert list(GearItem.objects.visible_to(player).filter(owner=author)) == [club]
    assert list(Trait.objects.visible_to(player).filter(owner=author)) == [gills]
    character = CharacterFactory(owner=player)  # 500 cp
    line = item_add(character=character, by=player, catalog_item=club.pk, buy=True)
    assert (line.catalog_item, line.name) == (club, "Bone club")
    assert character.coin_entries.get(kind="purchase").amount_cp == -40


def test_a_stranger_does_not_see_shared_homebrew_nor_edit_it(client, author, club, table):
    campaign, player = table
    club.campaign = campaign
    club.save()
    stranger = UserFactory()

    assert club not in GearItem.objects.visible_to(stranger)
    with pytest.raises(InventoryError):
        item_add(character=CharacterFactory(owner=stranger), by=stranger, catalog_item=club)
    for user in (stranger, player):  # members see and use it; only the author edits
        client.force_login(user)
        assert client.get(reverse("rules:gear_edit", args=[club.pk])).status_code == 404
        assert client.post(reverse("rules:gear_delete", args=[club.pk])).status_code == 404
    assert GearItem.objects.filter(pk=club.pk).exists()


def test_unshared_homebrew_stays_private_to_the_campaign(club, gills, table):
    campaign, player = table
    assert club not in GearItem.objects.visible_to(player)
    assert gills not in Trait.objects.visible_to(player)


def test_the_imp_and_a_co_imp_share_through_the_form(client, author, table):
    campaign, player = table
    co_imp = CoImpMembershipFactory(campaign=campaign).user
    client.force_login(author)

    response = client.post(reverse("rules:gear_create"),
                           gear_data(campaign=str(campaign.pk)))

    assert response.status_code == 302
    assert GearItem.objects.get(owner=author, name="Bone club").campaign == campaign
    form = TraitForm(trait_data(campaign=str(campaign.pk)), owner=co_imp)
    assert form.is_valid(), form.errors
    assert form.save().campaign == campaign
    assert Trait.objects.visible_to(player).filter(owner=co_imp).count() == 1


def test_the_share_select_lists_only_campaigns_i_run(client, author, table):
    campaign, _ = table
    played = MembershipFactory(user=author).campaign
    client.force_login(author)

    body = client.get(reverse("rules:gear_create")).content.decode()

    assert f'<option value="{campaign.pk}">{campaign.name}</option>' in body
    assert played.name not in body


@pytest.mark.parametrize("form_class", [GearItemForm, TraitForm])
def test_a_player_cannot_share_into_a_campaign_they_do_not_run(form_class, table):
    campaign, player = table
    data = gear_data if form_class is GearItemForm else trait_data
    strange = CampaignFactory()  # not a member at all: a forged id

    for target in (campaign, strange):
        form = form_class(data(campaign=str(target.pk)), owner=player)
        assert codes(form) == {"campaign": ["invalid_choice"]}
    form = form_class(data(campaign=""), owner=player)
    assert form.is_valid(), form.errors
    assert form.save().campaign is None


def test_deleting_the_campaign_makes_shared_homebrew_private_again(author, club, table):
    campaign, player = table
    club.campaign = campaign
    club.save()

    campaign.delete()

    club.refresh_from_db()
    assert club.campaign is None
    assert club not in GearItem.objects.visible_to(player)
