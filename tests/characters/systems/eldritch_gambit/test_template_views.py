"""The Template page: permissions, the live preview (htmx) and the plain save, bad input
refused beside its field, and the numbers following the rules (Bestiary > Templates)."""

import re

import pytest
from django.urls import reverse

from characters.models import InventoryItem
from characters.systems.eldritch_gambit.models import EldritchGambitCharacter
from rules.models import GearItem, Trait
from tests.factories import AsphodelFactory, CharacterFactory, UserFactory

pytestmark = pytest.mark.django_db

FIELDS = ("trait", "name", "value", "load", "DELETE")


def trait(slug):
    return Trait.objects.srd().get(slug=slug)


def template_data(*, name="Human", size="", armored="", rows=(), initial=0, **extra):
    """The Template form as a browser posts it: Size and Armored, then one row per Trait."""
    data = {"template_name": name, "size": size, "armored": armored,
            "traits-TOTAL_FORMS": str(len(rows)), "traits-INITIAL_FORMS": str(initial)}
    for index, row in enumerate(rows):
        for field in FIELDS:
            if field in row:
                value = row[field]
                data[f"traits-{index}-{field}"] = str(getattr(value, "pk", value))
    data.update(extra)
    return data


def carry(character, name, **fields):
    gear = GearItem.objects.srd().get(name=name)
    InventoryItem.objects.create(character=character, catalog_item=gear, name=name,
                                 kind=gear.category, **fields)


def stats(response) -> dict[str, str]:
    body = response.content.decode()
    return dict(re.findall(r'data-stat="(\w+)"[^>]*>([^<]*)<', body))


def weapon_damage(response, name) -> str:
    body = response.content.decode()
    line = body.split(f'data-weapon="{name}"', 1)[1]
    return re.search(r'data-stat="weapon_damage"[^>]*>([^<]*)<', line).group(1)


def codes(errors) -> dict[str, list[str]]:
    return {name: [error.code for error in items] for name, items in errors.as_data().items()}


@pytest.fixture
def owner(db):
    return UserFactory()


@pytest.fixture
def character(owner):
    """Asphodel: Level 10, STR 3, DEX 2, AGI 1, END 2; a Human with no Traits."""
    return AsphodelFactory(owner=owner)


@pytest.fixture
def page_url(character):
    return reverse("characters:template", args=[character.pk])


@pytest.fixture
def preview_url(character):
    return reverse("characters:template_preview", args=[character.pk])


@pytest.fixture
def player(client, owner):
    client.force_login(owner)
    return client


def preview(client, url, **kwargs):
    return client.post(url, template_data(**kwargs), HTTP_HX_REQUEST="true")


# -- permissions: anonymous, another player, the owner ---------------------------------

PAGES = [("characters:template", "get"), ("characters:template", "post"),
         ("characters:template_preview", "post")]


@pytest.mark.parametrize(("name", "method"), PAGES)
def test_anonymous_is_sent_to_log_in(client, character, name, method):
    response = getattr(client, method)(reverse(name, args=[character.pk]))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize(("name", "method"), PAGES)
def test_another_player_gets_404_and_changes_nothing(client, character, name, method):
    client.force_login(UserFactory())
    data = template_data(name="Ogre", size=trait("size-large").pk)

    response = getattr(client, method)(reverse(name, args=[character.pk]), data)

    assert response.status_code == 404
    character.refresh_from_db()
    assert (character.template_name, character.template_traits) == ("Human", [])


def test_the_preview_needs_a_post(player, preview_url):
    assert player.get(preview_url).status_code == 405


def test_the_owner_sees_the_page_with_human_as_the_default(player, page_url):
    response = player.get(page_url)

    body = response.content.decode()
    assert response.status_code == 200
    assert 'name="template_name" value="Human"' in body
    assert '<option value="" selected>Medium (no Size Trait)</option>' in body
    assert stats(response)["hp_base"] == "15"


def test_the_character_page_links_to_the_template_page(player, character, page_url):
    body = player.get(character.get_absolute_url()).content.decode()
    assert f'href="{page_url}"' in body


# -- saving by plain submit ----------------------------------------------------------------


def test_saving_writes_the_template_name_and_traits(player, character, page_url):
    data = template_data(
        name="Minotaur", size=trait("size-large").pk, armored=trait("armored-light").pk,
        rows=[{"trait": trait("resistance-element"), "value": " Fire "},
              {"trait": trait("fast"), "load": "2"},
              {"trait": trait("bane"), "value": "silver", "load": ""},
              {"trait": "custom", "name": "Horns", "value": "", "load": "1"},
              {"trait": ""}],
    )

    response = player.post(page_url, data)

    assert response.status_code == 302
    assert response["Location"] == character.get_absolute_url()
    character.refresh_from_db()
    assert character.template_name == "Minotaur"
    assert character.template_traits == [
        {"name": "Size", "value": "Large", "load": 2},
        {"name": "Armored", "value": "light", "load": 1},
        {"name": "Resistance", "value": "Fire", "load": 1},
        {"name": "Fast", "value": "", "load": 2},
        {"name": "Bane", "value": "silver", "load": -1},
        {"name": "Horns", "value": "", "load": 1},
    ]


def test_a_blank_name_and_no_traits_make_a_human(player, owner, page_url):
    character = EldritchGambitCharacter.objects.get(owner=owner)
    character.template_name, character.template_traits = "Ogre", [
        {"name": "Size", "value": "Large", "load": 2}]
    character.save()

    player.post(page_url, template_data(name="  "))

    character.refresh_from_db()
    assert (character.template_name, character.template_traits) == ("Human", [])


def test_removed_rows_are_not_saved(player, character, page_url):
    data = template_data(rows=[{"trait": trait("flight"), "DELETE": "on"},
                               {"trait": trait("nightvision")}])

    player.post(page_url, data)

    character.refresh_from_db()
    assert character.template_traits == [{"name": "Nightvision", "value": "", "load": 1}]


def test_the_page_shows_the_stored_traits(player, character, page_url):
    character.template_name = "Werewolf"
    character.template_traits = [
        {"name": "Size", "value": "Large", "load": 2},
        {"name": "Resistance", "value": "Cold", "load": 1},
        {"name": "Bane", "value": "silver", "load": -1},
        {"name": "Gills", "load": 1},
        {"name": "Flight", "load": 1},  # an odd Load: kept as a custom Trait
    ]
    character.save()

    response = player.get(page_url)

    form, traits = response.context["form"], response.context["traits"]
    assert form.initial["size"] == str(trait("size-large").pk)
    assert [row.initial for row in traits.forms] == [
        {"trait": str(trait("resistance-element").pk), "value": "Cold"},
        {"trait": str(trait("bane").pk), "value": "silver", "load": -1},
        {"trait": "custom", "name": "Gills", "value": "", "load": 1},
        {"trait": "custom", "name": "Flight", "value": "", "load": 1},
        {},  # a blank row to add one more
    ]
    assert "Cold" in response.content.decode()


def test_opening_and_saving_changes_nothing(player, character, page_url):
    stored = [
        {"name": "Size", "value": "Small", "load": -1},
        {"name": "Armored", "value": "heavy", "load": 3},
        {"name": "Attack", "value": "melee", "load": 1},
        {"name": "Venomous", "value": "", "load": 3},
        {"name": "Drain", "value": "Human", "load": 1},
        {"name": "Gills", "value": "", "load": 1},
    ]
    character.template_name, character.template_traits = "Wyrmling", stored
    character.save()
    response = player.get(page_url)
    form, traits = response.context["form"], response.context["traits"]
    rows = [{field: row.initial.get(field, "") for field in ("trait", "name", "value", "load")}
            for row in traits.forms]

    player.post(page_url, template_data(
        name=form.initial["template_name"], size=form.initial["size"],
        armored=form.initial["armored"], rows=rows))

    character.refresh_from_db()
    assert character.template_traits == stored


def test_an_attack_trait_takes_an_element(player, character, page_url):
    """Bestiary > Templates, Attack: "Elements can be chosen just as with Spells"."""
    response = player.post(page_url, template_data(name="Salamander", rows=[
        {"trait": trait("attack-melee"), "value": " fire "},
        {"trait": trait("attack-reach"), "value": "reach"},  # the kind again: no Element
    ]))

    assert response.status_code == 302
    character.refresh_from_db()
    assert character.template_traits == [
        {"name": "Attack", "value": "melee, Fire", "load": 1},
        {"name": "Attack", "value": "reach", "load": 1},
    ]
    page = player.get(character.get_absolute_url()).content.decode()
    assert "(Template)</span>: Hit +3, 1d8+3 Fire damage, Critical +8" in page
    rows = player.get(page_url).context["traits"].forms
    assert [row.initial for row in rows[:2]] == [
        {"trait": str(trait("attack-melee").pk), "value": "Fire"},
        {"trait": str(trait("attack-reach").pk), "value": ""},
    ]


def test_the_attack_hint_names_the_common_elements(player, page_url):
    body = preview(player, reverse("characters:template_preview",
                                   args=[player.get(page_url).context["character"].pk]),
                   rows=[{"trait": trait("attack-close")}]).content.decode()
    assert "type an Element (Bolt, Cold, Fire, Void) to make it elemental" in body


# -- bad input: refused beside the field, nothing typed lost, no server error ----------


@pytest.fixture
def stranger_trait(db):
    return Trait.objects.create(owner=UserFactory(), name="Secret wings", slug="secret-wings",
                                group="Secret wings", load=1)


BAD_ROWS = [
    ({"trait": "999999"}, "trait", "invalid_choice"),
    ({"trait": "nonsense"}, "trait", "invalid_choice"),
    ({"trait": "size-large"}, "trait", "invalid_choice"),  # Size has its own list
    ({"trait": "stranger"}, "trait", "invalid_choice"),
    ({"trait": "bane", "load": "-3"}, "load", "load_out_of_range"),
    ({"trait": "bane", "load": "1"}, "load", "load_out_of_range"),
    ({"trait": "fast", "load": "0"}, "load", "load_out_of_range"),
    ({"trait": "flight", "load": "3"}, "load", "load_fixed"),
    ({"trait": "fast", "load": "two"}, "load", "invalid"),
    ({"trait": "fast", "load": "1.5"}, "load", "invalid"),
    ({"trait": "fast", "load": "1000"}, "load", "max_value"),
    ({"trait": "resistance-element", "value": ""}, "value", "value_required"),
    ({"trait": "vulnerability"}, "value", "value_required"),
    ({"trait": "attack-melee", "value": "Fire, Cold"}, "value", "element_one"),
    ({"trait": "custom", "name": "", "load": "1"}, "name", "name_required"),
    ({"trait": "custom", "name": "size", "value": "Large"}, "name", "reserved_name"),
    ({"trait": "custom", "name": "Armored", "value": "ultra"}, "name", "reserved_name"),
    ({"trait": "custom", "name": "Gills", "load": "x"}, "load", "invalid"),
    ({"trait": "", "value": "Fire"}, "trait", "trait_required"),
    ({"trait": "custom", "name": "G" * 101}, "name", "max_length"),
]


@pytest.mark.parametrize(("row", "field", "code"), BAD_ROWS)
def test_a_bad_row_is_refused_beside_its_field(player, character, page_url, stranger_trait,
                                               row, field, code):
    row = dict(row)
    if row["trait"] == "stranger":
        row["trait"] = stranger_trait.pk
    elif row["trait"] not in ("", "custom", "999999", "nonsense"):
        row["trait"] = trait(row["trait"]).pk

    response = player.post(page_url, template_data(name="Chimera", rows=[row]))

    assert response.status_code == 200
    errors = codes(response.context["traits"].forms[0].errors)
    assert errors == {field: [code]}
    body = response.content.decode()
    assert "Nothing was saved" in body
    assert f'id="errors-traits-0-{field}"' in body
    assert 'value="Chimera"' in body  # nothing typed is lost
    for typed in ("value", "name", "load"):
        if row.get(typed):
            assert f'value="{row[typed]}"' in body
    character.refresh_from_db()
    assert (character.template_name, character.template_traits) == ("Human", [])


def test_a_stranger_trait_is_never_offered(player, page_url, stranger_trait):
    assert "Secret wings" not in player.get(page_url).content.decode()


def test_my_homebrew_trait_is_offered_and_saved(player, owner, character, page_url):
    gills = Trait.objects.create(owner=owner, name="Gills", slug="gills", group="Gills",
                                 load=1, effects="Breathe water.")

    body = player.get(page_url).content.decode()
    player.post(page_url, template_data(rows=[{"trait": gills}]))

    assert f'<option value="{gills.pk}">Gills (homebrew), Load 1</option>' in body
    character.refresh_from_db()
    assert character.template_traits == [{"name": "Gills", "value": "", "load": 1}]


def test_a_homebrew_trait_with_its_own_value_refuses_another(player, owner, character,
                                                             page_url):
    frost = Trait.objects.create(owner=owner, name="Breath (frost)", slug="breath-frost",
                                 group="Breath", value="frost", load=1)

    response = player.post(page_url, template_data(name="Yeti", rows=[
        {"trait": frost, "value": "Fire"}]))

    assert codes(response.context["traits"].forms[0].errors) == {"value": ["value_fixed"]}
    assert 'value="Fire"' in response.content.decode()
    character.refresh_from_db()
    assert character.template_traits == []


def test_a_homebrew_size_counts_as_that_size(player, owner, character, page_url):
    hulking = Trait.objects.create(owner=owner, name="Size (hulking)", slug="size-hulking",
                                   group="Size", value="Large", load=1)

    response = preview(player, reverse("characters:template_preview", args=[character.pk]),
                       size=hulking.pk)

    assert stats(response)["hp_base"] == "30"
    assert stats(response)["load"] == "1"


@pytest.mark.parametrize("field", ["size", "armored"])
def test_two_sizes_or_two_armored_levels_are_refused(player, character, page_url, field):
    first, second = (("size-large", "size-huge") if field == "size"
                     else ("armored-light", "armored-heavy"))
    data = template_data()
    data.pop(field)
    response = player.post(page_url + "?", {**data, field: [trait(first).pk, trait(second).pk]})

    assert response.status_code == 200
    assert codes(response.context["form"].errors) == {field: [f"multiple_{field}"]}
    assert "A Template has one" in response.content.decode()
    character.refresh_from_db()
    assert character.template_traits == []


@pytest.mark.parametrize(("field", "value"), [("size", "999999"), ("size", "abc"),
                                              ("armored", str(10**30))])
def test_an_unknown_size_or_armored_level_is_refused(player, page_url, field, value):
    response = player.post(page_url, template_data(**{field: value}))
    assert codes(response.context["form"].errors) == {field: ["invalid_choice"]}


def test_a_size_trait_id_is_no_armored_level(player, page_url):
    response = player.post(page_url, template_data(armored=trait("size-large").pk))
    assert codes(response.context["form"].errors) == {"armored": ["invalid_choice"]}


def test_the_same_trait_twice_is_refused_on_the_second(player, page_url):
    rows = [{"trait": trait("flight")}, {"trait": trait("nightvision")},
            {"trait": trait("flight")}]

    response = player.post(page_url, template_data(rows=rows))

    forms = response.context["traits"].forms
    assert [codes(form.errors) for form in forms] == [{}, {}, {"trait": ["duplicate"]}]


def test_the_same_trait_with_another_value_is_fine(player, character, page_url):
    rows = [{"trait": trait("resistance-element"), "value": "Fire"},
            {"trait": trait("resistance-element"), "value": "Cold"}]

    assert player.post(page_url, template_data(rows=rows)).status_code == 302

    character.refresh_from_db()
    assert [t["value"] for t in character.template_traits] == ["Fire", "Cold"]


@pytest.mark.parametrize("total", ["", "x", "-1"])
def test_a_broken_list_of_traits_is_refused_without_a_server_error(player, page_url, total):
    data = template_data(rows=[{"trait": trait("flight")}])
    data["traits-TOTAL_FORMS"] = total

    response = player.post(page_url, data)

    assert response.status_code == 200
    assert "Nothing was saved" in response.content.decode()


def test_too_many_traits_are_refused(player, page_url):
    data = template_data(rows=[{"trait": "custom", "name": f"Trait {n}"} for n in range(49)])

    response = player.post(page_url, data)

    assert response.status_code == 200
    assert "At most 48 Traits besides Size and Armored." in response.content.decode()


# -- the live preview ----------------------------------------------------------------------


def test_preview_renders_the_partial_and_saves_nothing(player, character, preview_url):
    response = preview(player, preview_url, size=trait("size-large").pk)

    body = response.content.decode()
    assert response.status_code == 200
    assert b"<html" not in response.content  # the live-preview partial, not the page
    assert '<aside id="stats-panel"' in body
    assert "<form" not in body and "<select" not in body  # never replaces the inputs
    assert stats(response)["hp_base"] == "30"
    character.refresh_from_db()
    assert character.template_traits == []


def test_preview_shows_errors_and_hints_out_of_band(player, preview_url):
    response = preview(player, preview_url, rows=[{"trait": trait("bane"), "load": "3"}])

    body = response.content.decode()
    assert 'id="errors-traits-0-load" hx-swap-oob="innerHTML"' in body
    assert "Bane takes a Load of -2 to -1." in body
    assert 'id="hint-traits-0" hx-swap-oob="innerHTML"' in body
    assert "Exposure to something inflicts Burning Status. Load -2 to -1" in body


def cannot_compute(response) -> str:
    body = response.content.decode()
    panel = body[body.index('id="stats-panel"'):body.index("</aside>")]
    assert "data-stat=" not in panel  # no numbers of another build
    return panel.split("data-cannot-compute", 1)[1]


def test_preview_says_it_cannot_compute_while_the_load_is_wrong(player, preview_url):
    """Not the Trait's own Load in its place: the panel says which Load is refused."""
    response = preview(player, preview_url, rows=[{"trait": trait("fast"), "load": "zero"}])
    assert ">Trait 1, Load</a>: Load must be a whole number." in cannot_compute(response)
    response = preview(player, preview_url, rows=[{"trait": trait("bane"), "load": "3"}])
    assert "Bane takes a Load of -2 to -1." in cannot_compute(response)
    # Fixed: the numbers come back. Asphodel carries nothing: the Load is Fast's own 1.
    response = preview(player, preview_url, rows=[{"trait": trait("fast"), "load": ""}])
    assert stats(response)["load"] == "1"


def test_preview_survives_garbage(player, preview_url):
    data = template_data(size="x", armored="y", rows=[{"trait": "z", "load": "w"}])
    data["traits-TOTAL_FORMS"] = "many"
    response = player.post(preview_url, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    reasons = cannot_compute(response)
    assert ">Size</a>: Choose a Size from the list." in reasons
    assert "Other Traits" in reasons


def test_preview_says_it_cannot_compute_while_the_posted_size_is_refused(
        player, character, preview_url):
    """Not the stored Size's numbers for a Size that is not the one chosen."""
    character.template_traits = [{"name": "Size", "value": "Huge", "load": 4}]
    character.save()

    response = preview(player, preview_url, size="nonsense")

    assert ">Size</a>: Choose a Size from the list." in cannot_compute(response)


def test_a_refused_value_still_shows_the_numbers(player, preview_url):
    """A Value refused (two Elements) changes no number: they stay."""
    response = preview(player, preview_url,
                       rows=[{"trait": trait("attack-close"), "value": "Fire, Ice"}])
    assert "data-cannot-compute" not in response.content.decode()
    assert stats(response)["hp_base"] == "15"


def test_preview_costs_a_few_queries(player, preview_url, django_assert_max_num_queries):
    """Session, user, the character with its ledgers, its gear, the Trait catalog."""
    data = template_data(size=trait("size-large").pk,
                         rows=[{"trait": trait("flight")}, {"trait": trait("fast"), "load": "2"}])
    with django_assert_max_num_queries(5):
        player.post(preview_url, data, HTTP_HX_REQUEST="true")


def test_adding_a_row_keeps_what_was_chosen(player, character, page_url):
    data = template_data(name="Harpy", rows=[{"trait": trait("flight")}], action="add_trait")

    page = player.post(page_url, data)
    partial = player.post(page_url, data, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="template-editor")

    assert b"<html" in page.content
    assert len(page.context["traits"].forms) == 2
    assert b"<html" not in partial.content
    assert b'<div id="template-editor">' in partial.content
    assert b'name="traits-1-trait"' in partial.content
    assert b'value="Harpy"' in partial.content
    character.refresh_from_db()
    assert character.template_name == "Human"


# -- the numbers follow the rules (Bestiary > Templates > Size; TEMPLATES table) -----------


@pytest.fixture
def in_scale_mail(character):
    """Asphodel in scale mail with a sword: Base HP 15, AP 15, Rally 1d10+2, 1d8+3."""
    carry(character, "Scale mail", equipped=True)
    carry(character, "Sword")
    return character


def test_a_large_template_in_scale_mail(player, in_scale_mail, preview_url):
    response = preview(player, preview_url, size=trait("size-large").pk)

    numbers = stats(response)
    assert numbers["hp_base"] == "30"  # (Level 10 + STR 3 + END 2) x2
    assert numbers["armor_ap"] == "30"  # "also applies to AP": 15 x2
    assert numbers["hp_armored"] == "60"
    assert numbers["rally"] == "2d10+2"  # Rolls 2d, before adding END
    assert weapon_damage(response, "Sword") == "2d8+3"  # before adding STR
    # Gear Load 4 (scale 3 + sword 1) halved for Large, plus the Trait's 2.
    assert numbers["load"] == "4"


def test_a_small_template_steps_the_dice_down(player, in_scale_mail, preview_url):
    response = preview(player, preview_url, size=trait("size-small").pk)

    numbers = stats(response)
    assert (numbers["hp_base"], numbers["armor_ap"], numbers["hp_armored"]) == ("15", "15", "30")
    assert numbers["rally"] == "1d8+2"  # d10 one type smaller
    assert weapon_damage(response, "Sword") == "1d6+3"
    # Gear Load 4 doubled for Small, less the Trait's 1.
    assert numbers["load"] == "7"


def test_armored_heavy_without_armor(player, character, preview_url):
    response = preview(player, preview_url, armored=trait("armored-heavy").pk)

    numbers = stats(response)
    assert numbers["armor_ap"] == "15"
    assert numbers["hp_armored"] == "30"
    assert numbers["rally"] == "1d10+2"
    assert numbers["load"] == "3"  # the Trait's Load


def test_armored_and_worn_armor_do_not_stack(player, in_scale_mail, preview_url):
    light = preview(player, preview_url, armored=trait("armored-light").pk)
    ultra = preview(player, preview_url, armored=trait("armored-ultra").pk)

    assert (stats(light)["armor_ap"], stats(light)["rally"]) == ("15", "1d10+2")
    assert (stats(ultra)["armor_ap"], stats(ultra)["rally"]) == ("20", "1d12+2")


def test_traits_add_their_load_and_drawbacks_relieve_it(player, character, preview_url):
    carry(character, "Chain mail", equipped=True)  # Load 2

    flight = preview(player, preview_url, rows=[{"trait": trait("flight")}])
    slow = preview(player, preview_url, rows=[{"trait": trait("flight")},
                                              {"trait": trait("slow")}])
    fast = preview(player, preview_url, rows=[{"trait": trait("fast"), "load": "3"}])

    assert stats(flight)["load"] == "4"  # 2 + Flight 2
    assert stats(slow)["load"] == "3"  # 2 + Flight 2 - Slow 1
    assert stats(fast)["load"] == "5"  # 2 + Fast at 3
    assert stats(fast)["encumbrance"] == "none"  # capacity STR 3 + END 2 = 5


def test_heavy_traits_encumber(player, character, preview_url):
    rows = [{"trait": trait("flight")}, {"trait": trait("amorphous")},
            {"trait": trait("innate-spell"), "value": "Fireball", "load": "2"}]

    response = preview(player, preview_url, rows=rows)

    assert (stats(response)["load"], stats(response)["encumbrance"]) == ("6", "encumbered")


def test_the_saved_template_shows_on_the_character_page(player, in_scale_mail, page_url):
    player.post(page_url, template_data(name="Ogre", size=trait("size-large").pk))

    response = player.get(in_scale_mail.get_absolute_url())

    numbers = stats(response)
    assert (numbers["hp_base"], numbers["hp_armored"], numbers["rally"]) == (
        "30", "60", "2d10+2")
    assert "Ogre" in response.content.decode()


def test_a_stored_weapon_line_shows_hit_and_damage(player, character, page_url):
    carry(character, "Spear")

    response = player.get(page_url)

    body = response.content.decode()
    line = body.split('data-weapon="Spear"', 1)[1]
    assert re.search(r'data-stat="weapon_hit"[^>]*>\+4<', line)
    assert weapon_damage(response, "Spear") == "1d8+3"


def test_a_new_character_is_human_with_no_traits(owner):
    character = CharacterFactory(owner=owner)
    assert (character.template_name, character.template_traits) == ("Human", [])
