"""Builder and character pages: permissions, htmx partials, bad input."""

import re

import pytest
from django.urls import reverse

from characters.models import Character, CoinEntry, InventoryItem, XpEntry
from characters.systems.eldritch_gambit.forms import CharacterForm
from characters.systems.eldritch_gambit.models import EldritchGambitCharacter
from rules.models import GearItem
from tests.factories import (
    AsphodelFactory,
    CampaignFactory,
    CharacterFactory,
    InventoryItemFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def builder_data(**overrides):
    # A new character names its game system: several are registered (the choice page).
    data = {
        "system": "eldritch-gambit",
        "level": "10", "xp": "0", "name": "Mira", "pronouns": "she/her",
        "career": "Humble wizard", "quest": "", "origin": "", "template_name": "Human",
        "description": "", "skills": ["Bake bread", "Speak Elvish", ""],
        "armor": "", "armor_coverage": "full", "shield": "", "coins_cp": "500",
        "hp_current": "", "wp_current": "", "poison_buildup": "0",
        "str": "2", "wis": "1", "dex": "2", "agi": "1", "cha": "1", "end": "3",
    }
    data.update(overrides)
    return data


def gear(name):
    return GearItem.objects.srd().get(name=name)


@pytest.fixture
def owner(db):
    return UserFactory()


@pytest.fixture
def character(owner):
    return AsphodelFactory(owner=owner)


# -- permissions: anonymous, another player, the owner --------------------------------

PAGES = [
    ("characters:detail", "get"),
    ("characters:edit", "get"),
    ("characters:edit", "post"),
    ("characters:preview", "post"),
    ("characters:duplicate", "post"),
    ("characters:delete", "get"),
    ("characters:delete", "post"),
]


@pytest.mark.parametrize(("name", "method"), PAGES)
def test_anonymous_is_sent_to_log_in(client, character, name, method):
    url = reverse(name, args=[character.pk])
    response = getattr(client, method)(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert Character.objects.count() == 1


@pytest.mark.parametrize(("name", "method"), PAGES)
def test_another_player_sees_nothing(client, character, name, method):
    client.force_login(UserFactory())
    response = getattr(client, method)(reverse(name, args=[character.pk]), builder_data())
    assert response.status_code == 404
    character.refresh_from_db()
    assert character.name == "Asphodel the Grumbling Bloom"
    assert Character.objects.count() == 1


@pytest.mark.parametrize("name", ["characters:detail", "characters:edit", "characters:delete"])
def test_owner_sees_their_pages(client, owner, character, name):
    client.force_login(owner)
    assert client.get(reverse(name, args=[character.pk])).status_code == 200


@pytest.mark.parametrize("name", ["characters:list", "characters:create", "characters:compare"])
def test_lists_need_a_login(client, name):
    response = client.get(reverse(name))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_list_shows_only_my_characters(client, owner, character):
    theirs = CharacterFactory(name="Someone Else's Hero")
    client.force_login(owner)
    body = client.get(reverse("characters:list")).content.decode()
    assert character.name in body
    assert theirs.name not in body


def test_compare_refuses_another_players_character(client, owner, character):
    theirs = CharacterFactory()
    client.force_login(owner)
    url = reverse("characters:compare")
    assert client.get(url, {"a": character.pk, "b": theirs.pk}).status_code == 404
    assert client.get(url, {"a": "x"}).status_code == 404


def test_preview_for_new_character_needs_login(client):
    response = client.post(reverse("characters:preview"), builder_data())
    assert response.status_code == 302


# -- the builder --------------------------------------------------------------------


def test_create_saves_choices_and_opens_the_ledgers(client, owner):
    client.force_login(owner)
    data = builder_data(armor=gear("Leather").pk, shield=gear("Shield, medium").pk)
    response = client.post(reverse("characters:create"), data)
    character = EldritchGambitCharacter.objects.with_progress().get()
    assert response.status_code == 302
    assert response["Location"] == character.get_absolute_url()
    assert (character.level, character.xp, character.coins_cp) == (10, 0, 500)
    assert character.skills == ["Bake bread", "Speak Elvish"]
    assert XpEntry.objects.get().kind == XpEntry.Kind.CREATION
    assert CoinEntry.objects.get().kind == CoinEntry.Kind.STARTING
    worn = InventoryItem.objects.filter(character=character, equipped=True)
    assert sorted(worn.values_list("name", flat=True)) == ["Leather", "Shield, medium"]


def test_edit_writes_ledger_entries_for_level_xp_and_coins(client, owner, character):
    client.force_login(owner)
    data = builder_data(level="11", xp="3", coins_cp="320", str="3", end="2", dex="2",
                        wis="1", agi="1", cha="1")
    response = client.post(reverse("characters:edit", args=[character.pk]), data)
    assert response.status_code == 302
    character = EldritchGambitCharacter.objects.with_progress().get(pk=character.pk)
    assert (character.level, character.xp, character.coins_cp) == (11, 3, 320)
    adjustment = XpEntry.objects.get(kind=XpEntry.Kind.ADJUSTMENT)
    assert (adjustment.level_change, adjustment.xp_change) == (1, 3)
    assert CoinEntry.objects.get(kind=CoinEntry.Kind.ADJUSTMENT).amount_cp == -180


def test_saving_the_same_values_twice_writes_no_new_entries(client, owner, character):
    client.force_login(owner)
    url = reverse("characters:edit", args=[character.pk])
    data = builder_data(str="3", end="2", wis="1", agi="1", cha="1", dex="2")
    client.post(url, data)
    client.post(url, data)
    assert XpEntry.objects.filter(character=character).count() == 1
    assert CoinEntry.objects.filter(character=character).count() == 1


def test_changing_worn_armor_replaces_it(client, owner, character):
    client.force_login(owner)
    url = reverse("characters:edit", args=[character.pk])
    base = {"str": "3", "end": "2", "wis": "1", "agi": "1", "cha": "1", "dex": "2"}
    client.post(url, builder_data(armor=gear("Chain mail").pk, **base))
    client.post(url, builder_data(armor=gear("Plate mail").pk, **base))
    assert list(character.items.values_list("name", flat=True)) == ["Plate mail"]
    client.post(url, builder_data(armor="", **base))
    assert not character.items.exists()


def test_incomplete_characters_save(client, owner):
    client.force_login(owner)
    data = builder_data(name="", career="", skills=[], str="0", wis="0", dex="0", agi="0",
                        cha="0", end="0")
    assert client.post(reverse("characters:create"), data).status_code == 302
    assert Character.objects.get().display_name.startswith("Unnamed character")


@pytest.mark.parametrize(
    ("field", "value", "code_text"),
    [
        ("level", "ten", "Level must be a whole number from 1 to 100."),
        ("level", "-3", "Level must be a whole number from 1 to 100."),
        ("level", "99999999999999999999", "Level must be a whole number from 1 to 100."),
        ("str", "lots", "Strength must be a whole number from -10 to 99."),
        ("str", "1e9", "Strength must be a whole number from -10 to 99."),
        ("coins_cp", "-5", "Coins (cp) must be a whole number from 0 to 100000000."),
        ("hp_current", "many", "Current HP must be a whole number from -999 to 9999."),
        ("str", "6", "Strength +6 is over the Level 10 maximum of +5."),
        ("hp_current", "40", "Current HP 40 is over the Armored HP of 15."),
        ("wp_current", "12", "Current WP 12 is over the WP of 11."),
    ],
)
def test_bad_input_is_refused_beside_the_field_and_kept(client, owner, field, value, code_text):
    client.force_login(owner)
    data = builder_data(**{field: value})
    response = client.post(reverse("characters:create"), data)
    assert response.status_code == 200
    assert not Character.objects.exists()
    form = response.context["form"]
    assert code_text in form.errors[field]
    body = response.content.decode()
    assert f'id="errors-{field}"' in body
    assert f'value="{value}"' in body  # nothing the player typed is lost
    assert 'value="Mira"' in body


def test_over_budget_is_refused_with_its_code(client, owner):
    client.force_login(owner)
    data = builder_data(str="5", dex="5", end="1")
    response = client.post(reverse("characters:create"), data)
    form = response.context["form"]
    assert form.has_error("__all__", code="attribute_points_over_budget")
    assert "14 Attribute points spent, but Level 10 gives only 10." in response.content.decode()


def test_over_maximum_error_code(client, owner):
    client.force_login(owner)
    response = client.post(reverse("characters:create"), builder_data(str="6"))
    assert response.context["form"].has_error("str", code="attribute_over_maximum")


def test_too_many_skills_at_creation(client, owner):
    client.force_login(owner)
    data = builder_data(skills=["A b", "C d", "E f", "G h"])
    response = client.post(reverse("characters:create"), data)
    assert response.context["form"].has_error("skills", code="too_many_skills")
    assert 'value="G h"' in response.content.decode()


def test_more_skills_can_be_added_later(client, owner, character):
    client.force_login(owner)
    data = builder_data(skills=["A b", "C d", "E f", "G h"], str="3", end="2", wis="1",
                        agi="1", cha="1", dex="2")
    assert client.post(reverse("characters:edit", args=[character.pk]), data).status_code == 302
    character.refresh_from_db()
    assert character.skills == ["A b", "C d", "E f", "G h"]


def test_someone_elses_homebrew_armor_is_refused(client, owner):
    stranger = UserFactory()
    secret = GearItem.objects.create(
        owner=stranger, name="Secret plate", slug="secret-plate", category="armor",
        armor_ap=40, armor_rally_die=12, armor_rank=4, load=1, cost_cp=1,
    )
    client.force_login(owner)
    response = client.post(reverse("characters:create"), builder_data(armor=secret.pk))
    assert response.context["form"].has_error("armor", code="invalid_choice")
    assert not Character.objects.exists()


# -- live preview (htmx) -------------------------------------------------------------


def test_preview_renders_only_the_stats_panel_and_saves_nothing(client, owner):
    client.force_login(owner)
    data = builder_data(str="2", end="4", agi="3", armor=gear("Leather").pk,
                        dex="0", wis="0", cha="0")
    response = client.post(reverse("characters:preview"), data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert b"<html" not in response.content  # the live-preview partial, not the page
    body = response.content.decode()
    assert '<aside id="stats-panel"' in body
    assert "<form" not in body  # never replaces the inputs being typed in
    assert 'data-stat="af"' in body
    stats = dict(re.findall(r'data-stat="(\w+)"[^>]*>([^<]*)<', body))
    assert stats["hp_base"] == "16"
    assert stats["hp_armored"] == "21"
    assert stats["rally"] == "1d6+4"
    assert stats["af"] == "13"
    assert not Character.objects.exists()


def test_preview_shows_errors_out_of_band(client, owner):
    client.force_login(owner)
    response = client.post(reverse("characters:preview"), builder_data(str="6"),
                           HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert 'id="errors-str" hx-swap-oob="innerHTML"' in body
    assert "Strength +6 is over the Level 10 maximum of +5." in body


def test_preview_survives_garbage(client, owner):
    client.force_login(owner)
    response = client.post(reverse("characters:preview"), builder_data(level="x", str="y"),
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "Level must be a whole number from 1 to 100." in response.content.decode()


@pytest.mark.parametrize(
    ("field", "value", "label", "message"),
    [
        ("level", "99999", "Level", "Level must be a whole number from 1 to 100."),
        ("level", "-5", "Level", "Level must be a whole number from 1 to 100."),
        ("level", "0", "Level", "Level must be a whole number from 1 to 100."),
        ("str", "lots", "Strength", "Strength must be a whole number from -10 to 99."),
        ("hp_current", "many", "Current HP",
         "Current HP must be a whole number from -999 to 9999."),
        ("armor", "999999", "Worn armor", "Choose an armor from the list."),
    ],
)
def test_preview_says_it_cannot_compute_rather_than_show_stale_numbers(
        client, owner, character, field, value, label, message):
    """A field the numbers come from cannot be read: the panel says so, and why,
    instead of the numbers of the last valid build (new and saved characters)."""
    client.force_login(owner)
    for url in (reverse("characters:preview"),
                reverse("characters:preview", args=[character.pk])):
        response = client.post(url, builder_data(**{field: value}), HTTP_HX_REQUEST="true")
        assert response.status_code == 200
        body = response.content.decode()
        panel = body[body.index('id="stats-panel"'):body.index("</aside>")]
        assert "data-cannot-compute" in panel and "Cannot compute the derived stats" in panel
        assert f">{label}</a>: {message}" in panel
        assert "data-stat=" not in panel
        assert f'id="errors-{field}" hx-swap-oob="innerHTML"><div' in body  # beside it too
        response = client.post(url, builder_data(level="12"), HTTP_HX_REQUEST="true")
        body = response.content.decode()
        assert "data-cannot-compute" not in body
        stats = dict(re.findall(r'data-stat="(\w+)"[^>]*>([^<]*)<', body))
        assert stats["level"] == "12"


def test_an_invalid_level_submitted_without_javascript_keeps_it_and_computes_nothing(
        client, owner, character):
    client.force_login(owner)
    for url in (reverse("characters:create"), reverse("characters:edit", args=[character.pk])):
        response = client.post(url, builder_data(level="99999"))
        assert response.status_code == 200
        body = response.content.decode()
        assert 'value="99999"' in body and "data-cannot-compute" in body
        assert "data-stat=" not in body[body.index('id="stats-panel"'):]
    assert Character.objects.count() == 1


def test_an_engine_issue_still_shows_the_numbers(client, owner):
    """Strength over the maximum is the rules' issue, not unreadable input."""
    client.force_login(owner)
    response = client.post(reverse("characters:preview"), builder_data(str="6"),
                           HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert "data-cannot-compute" not in body and 'data-stat="str"' in body


def test_preview_sends_every_error_slot_empty_or_not(client, owner):
    """sheet.js clears a fixed error only if its slot comes back, empty."""
    client.force_login(owner)
    response = client.post(reverse("characters:preview"), builder_data(str="6"),
                           HTTP_HX_REQUEST="true")
    body = response.content.decode()
    slots = re.findall(r'<div id="errors-([\w-]+)" hx-swap-oob="innerHTML">', body)
    assert slots == ["attributes", *CharacterForm.base_fields]
    assert '<div id="errors-level" hx-swap-oob="innerHTML"></div>' in body


def test_preview_escapes_what_an_error_repeats(client, owner):
    client.force_login(owner)
    response = client.post(reverse("characters:preview"),
                           builder_data(statuses=["<b>bold</b>"]), HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert "&lt;b&gt;bold&lt;/b&gt; is not a Status of the rules." in body
    assert "<b>bold</b>" not in body


def test_preview_of_a_saved_character_counts_its_gear(client, owner, character,
                                                       django_assert_max_num_queries):
    """Session, user, the character's game system, the character, whether it ever played
    in a campaign, its items with their catalog rows: however much it carries."""
    InventoryItemFactory(character=character, name="Rock", load=2, quantity=3)
    client.force_login(owner)
    url = reverse("characters:preview", args=[character.pk])
    with django_assert_max_num_queries(6):
        response = client.post(url, builder_data(str="3", end="2", dex="0"),
                               HTTP_HX_REQUEST="true")
    stats = dict(re.findall(r'data-stat="(\w+)"[^>]*>([^<]*)<', response.content.decode()))
    assert stats["load"] == "6"
    assert stats["encumbrance"] == "encumbered"
    InventoryItemFactory.create_batch(20, character=character)
    with django_assert_max_num_queries(6):
        client.post(url, builder_data(), HTTP_HX_REQUEST="true")


def test_preview_of_a_campaign_character_reads_the_ledger_once(
        client, owner, django_assert_max_num_queries):
    """In a campaign Level and XP are read-only and come from the XP ledger: the
    preview sums it in one query (in place of asking whether it ever played in one),
    still within its six."""
    character = CharacterFactory(owner=owner, campaign=CampaignFactory(), progress__level=12,
                                 progress__xp=5)
    client.force_login(owner)
    with django_assert_max_num_queries(6):
        response = client.post(reverse("characters:preview", args=[character.pk]),
                               builder_data(level="3", xp="0"), HTTP_HX_REQUEST="true")
    stats = dict(re.findall(r'data-stat="(\w+)"[^>]*>([^<]*)<', response.content.decode()))
    assert stats["level"] == "12"


def test_builder_full_page_and_partial(client, owner):
    client.force_login(owner)
    page = client.get(reverse("characters:create"), {"system": "eldritch-gambit"})
    assert b"<html" in page.content and b'id="stats-panel"' in page.content
    partial = client.post(reverse("characters:create"), builder_data(action="roll_attributes",
                          seed="7"), HTTP_HX_REQUEST="true", HTTP_HX_TARGET="builder")
    assert b"<html" not in partial.content
    assert b'id="builder"' in partial.content


# -- random helpers ----------------------------------------------------------------------


@pytest.mark.parametrize("seed", ["1", "2", "3", "99"])
def test_rolled_attributes_are_legal_and_show_their_dice(client, owner, seed):
    client.force_login(owner)
    response = client.post(reverse("characters:create"),
                           builder_data(action="roll_attributes", seed=seed, level="9"))
    form = response.context["form"]
    values = [int(form.data[k]) for k in ("str", "wis", "dex", "agi", "cha", "end")]
    assert sum(values) == 9
    assert max(values) <= 5
    assert not form.errors
    roll = response.context["rolls"][0]
    assert len(roll["dice"]) == 9
    assert not Character.objects.exists()


def test_roll_everything_keeps_what_is_locked(client, owner):
    client.force_login(owner)
    data = builder_data(action="roll_all", seed="5", name="Keep Me", lock_name="1",
                        coins_cp="777", lock_coins="1")
    response = client.post(reverse("characters:create"), data)
    form = response.context["form"]
    assert form.data["name"] == "Keep Me"
    assert form.data["coins_cp"] == "777"
    labels = [roll["label"] for roll in response.context["rolls"]]
    assert labels == ["Distinctive quirk (d20)", "Attributes (10d6)"]


def test_roll_coins_and_name(client, owner):
    client.force_login(owner)
    response = client.post(reverse("characters:create"), builder_data(action="roll_coins",
                                                                        seed="3"))
    coins = int(response.context["form"].data["coins_cp"])
    assert coins in range(200, 900, 100)
    response = client.post(reverse("characters:create"), builder_data(action="roll_name",
                                                                        seed="3", name=""))
    roll = response.context["rolls"][0]
    assert 5 <= roll["total"] <= 30 and len(roll["dice"]) == 5
    assert response.context["form"].data["name"][0] == roll["result"][0]


def test_rolling_attributes_needs_a_level(client, owner):
    client.force_login(owner)
    response = client.post(reverse("characters:create"),
                           builder_data(action="roll_attributes", level="zero"))
    assert "Set a Level from 1 to 100 first" in response.content.decode()


# -- detail, duplicate, compare, delete ------------------------------------------------------


def test_detail_shows_asphodels_numbers(client, owner, character):
    InventoryItem.objects.create(character=character, catalog_item=gear("Chain mail"),
                                 name="Chain mail", kind="armor", equipped=True)
    InventoryItem.objects.create(character=character, catalog_item=gear("Spear"),
                                 name="Winged spear", kind="weapon")
    client.force_login(owner)
    response = client.get(character.get_absolute_url())
    sheet = response.context["sheet"]
    assert sheet.derived() | {} == sheet.derived()
    expected = {"af": 11, "hp_base": 15, "hp_armored": 25, "rally": "1d8+2", "wp": 11,
                "wp_floor": 6, "load": 3, "load_capacity": 5, "encumbrance": "none"}
    for name, value in expected.items():
        assert sheet.value(name) == value
        assert f'data-stat="{name}"' in response.content.decode()
    assert "Hit +4, 1d8+3 damage" in response.content.decode()


def test_duplicate_copies_choices_gear_and_totals(client, owner, character):
    InventoryItem.objects.create(character=character, catalog_item=gear("Chain mail"),
                                 name="Chain mail", kind="armor", equipped=True)
    client.force_login(owner)
    response = client.post(reverse("characters:duplicate", args=[character.pk]))
    copy = EldritchGambitCharacter.objects.with_progress().exclude(pk=character.pk).get()
    assert response["Location"] == f"{reverse('characters:compare')}?a={character.pk}&b={copy.pk}"
    assert copy.name.endswith("(copy)")
    assert (copy.level, copy.coins_cp) == (10, 500)
    assert list(copy.items.values_list("name", flat=True)) == ["Chain mail"]
    page = client.get(response["Location"])
    assert len(page.context["columns"]) == 2


def test_delete_asks_first_then_deletes(client, owner, character):
    client.force_login(owner)
    url = reverse("characters:delete", args=[character.pk])
    assert b"cannot be undone" in client.get(url).content
    assert Character.objects.exists()
    response = client.post(url)
    assert response["Location"] == reverse("characters:list")
    assert not Character.objects.exists()


def test_a_character_with_reversed_entries_can_be_deleted(client, owner, character):
    entry = CoinEntry.objects.filter(character=character).first()
    CoinEntry.objects.create(character=character, kind=CoinEntry.Kind.REVERSAL,
                             amount_cp=-entry.amount_cp, reverses=entry)
    client.force_login(owner)
    client.post(reverse("characters:delete", args=[character.pk]))
    assert not Character.objects.filter(pk=character.pk).exists()


def _gear_lines(page: str) -> list[str]:
    listed = re.search(r'<ul class="mb-0" id="gear-lines">(.*?)</ul>', page, re.S)
    return re.findall(r"<li>((?:Pebble|Stone) \d+)", listed.group(1)) if listed else []


def test_a_long_inventory_pages_on_the_character_page(client, owner, character):
    """GEAR_PER_PAGE lines a page and a pager to the next (?gear=N); the next page shows
    the rest; the sheet still counts every line. Up to a page, no pager at all."""
    from characters.views import GEAR_PER_PAGE

    client.force_login(owner)
    url = reverse("characters:detail", args=[character.pk])
    InventoryItem.objects.bulk_create(
        InventoryItem(character=character, name=f"Pebble {n:04}", load=0)
        for n in range(GEAR_PER_PAGE - character.items.count()))
    page = client.get(url).content.decode()
    assert "data-pager" not in page and len(_gear_lines(page)) == GEAR_PER_PAGE - (
        character.items.exclude(name__startswith="Pebble").count())
    InventoryItem.objects.bulk_create(
        InventoryItem(character=character, name=f"Stone {n:04}", load=0) for n in range(30))
    lines = character.items.count()
    assert lines == GEAR_PER_PAGE + 30
    page = client.get(url).content.decode()
    assert "Page 1 of 2" in page and f"{lines} lines in all" in page
    assert 'href="?gear=2#gear-heading"' in page and "data-pager-newer" not in page
    first = _gear_lines(page)
    second = _gear_lines(client.get(url, {"gear": "2"}).content.decode())
    names = list(character.items.filter(name__regex=r"^(Pebble|Stone) ")
                 .values_list("name", flat=True))
    assert first + second == names and "Stone 0029" in second
    assert "Page 2 of 2" in client.get(url, {"gear": "2"}).content.decode()


@pytest.mark.parametrize("junk", ["abc", "-1", "0", "99999", "1.5", "²", "9" * 400, ""])
def test_a_junk_gear_page_is_still_a_page(client, owner, character, junk):
    from characters.views import GEAR_PER_PAGE

    InventoryItem.objects.bulk_create(
        InventoryItem(character=character, name=f"Stone {n:04}", load=0)
        for n in range(GEAR_PER_PAGE + 5))
    client.force_login(owner)
    response = client.get(reverse("characters:detail", args=[character.pk]), {"gear": junk})
    assert response.status_code == 200
    assert re.search(r"Page [12] of 2", response.content.decode())


def test_the_campaign_note_costs_the_character_page_no_query(client, owner):
    """The page names the campaign a character plays in (its name and link): read with
    the character, in the same query, not by a query of its own."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    alone = AsphodelFactory(owner=owner)
    playing = AsphodelFactory(owner=owner, campaign=CampaignFactory(name="The <Long> Night"))
    client.force_login(owner)
    counts = {}
    for who in (alone, playing):
        with CaptureQueriesContext(connection) as queries:
            response = client.get(reverse("characters:detail", args=[who.pk]))
        assert response.status_code == 200
        counts[who] = len(queries)
    body = response.content.decode()
    assert (f'Plays in <a href="{playing.campaign.get_absolute_url()}">The &lt;Long&gt; '
            "Night</a>") in body
    # The character in no campaign asks whether it ever played in one (a query the one in
    # a campaign needs not): the campaign itself costs nothing more.
    assert counts[playing] == counts[alone] - 1
