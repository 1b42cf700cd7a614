"""The live preview in plain Django: its query count pinned and flat however much the
character carries, the builder form an ordinary Form, and the ledger sums of
`with_progress` checked against the ledger rows (on SQLite and PostgreSQL alike)."""

import re
from unittest.mock import patch

import pytest
from django.db import connection
from django.db.models import Count
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from characters.models import Character, CoinEntry, XpEntry
from characters.systems.eldritch_gambit.forms import CharacterForm
from rules.models import GearItem, RulesContentQuerySet
from tests.characters.test_views import builder_data
from tests.factories import (
    AsphodelFactory,
    CampaignFactory,
    CharacterFactory,
    InventoryItemFactory,
    UserFactory,
    XpEntryFactory,
)

pytestmark = pytest.mark.django_db

# Session, user, the character's game system, the character (its system's row joined to
# the shell: characters.models.get_built), whether it ever played in a campaign (for one
# in a campaign: its Level and XP from the ledger instead), its items with their catalog
# rows.
PREVIEW_QUERIES = 6


def srd(name: str) -> GearItem:
    return GearItem.objects.srd().get(name=name)


def carrying(count: int, **kwargs) -> Character:
    """A character with `count` items, every other one a catalog row (select_related)."""
    character = AsphodelFactory(**kwargs)
    catalog = [srd("Rope (10m)"), None]
    for n in range(count):
        row = catalog[n % 2]
        InventoryItemFactory(character=character, position=n, catalog_item=row,
                             name=row.name if row else f"Trinket {n}")
    return character


def post_preview(client, character, **data):
    return client.post(reverse("characters:preview", args=[character.pk]),
                       builder_data(**data), HTTP_HX_REQUEST="true")


def stats(response) -> dict:
    return dict(re.findall(r'data-stat="(\w+)"[^>]*>([^<]*)<', response.content.decode()))


@pytest.mark.parametrize("items", [5, 200])
def test_the_preview_costs_the_same_queries_for_5_and_200_items(
        client, items, django_assert_num_queries):
    character = carrying(items)
    client.force_login(character.owner)
    with django_assert_num_queries(PREVIEW_QUERIES):
        response = post_preview(client, character)
    assert response.status_code == 200
    assert "data-cannot-compute" not in response.content.decode()
    assert stats(response)["level"] == "10"


@pytest.mark.parametrize("items", [5, 200])
def test_a_campaign_characters_preview_reads_the_ledger_in_one_query(
        client, items, django_assert_num_queries):
    """Level and XP read-only, from the ledger: both sums in one query, where a
    character in no campaign asks whether it ever played in one."""
    character = carrying(items, campaign=CampaignFactory(), progress__level=12)
    client.force_login(character.owner)
    with django_assert_num_queries(PREVIEW_QUERIES):
        response = post_preview(client, character, level="3")
    assert stats(response)["level"] == "12"


@pytest.mark.parametrize("items", [5, 200])
def test_a_chosen_armor_and_shield_are_each_looked_up_once(
        client, items, django_assert_num_queries):
    """The posted choices are checked against the catalog the player may choose from:
    one query each, whatever the inventory."""
    character = carrying(items)
    armor, shield = srd("Chain mail").pk, srd("Shield, medium").pk
    client.force_login(character.owner)
    with django_assert_num_queries(PREVIEW_QUERIES + 2):
        response = post_preview(client, character, armor=armor, shield=shield)
    assert response.status_code == 200
    assert "data-cannot-compute" not in response.content.decode()


def wearing(*rows: GearItem) -> Character:
    """A character whose inventory carries `rows` (equipped), beside a rope."""
    character = carrying(1)
    for n, row in enumerate(rows, start=1):
        InventoryItemFactory(character=character, position=n, catalog_item=row,
                             name=row.name, kind=row.category, equipped=True)
    return character


def test_the_armor_and_shield_worn_from_the_srd_need_no_lookup(
        client, django_assert_num_queries):
    """What a player types over and over is posted with the armor and shield the
    character already wears: SRD rows, which anyone may choose, read with its lines."""
    armor, shield = srd("Chain mail"), srd("Shield, medium")
    character = wearing(armor, shield)
    client.force_login(character.owner)
    with django_assert_num_queries(PREVIEW_QUERIES):
        response = post_preview(client, character, armor=armor.pk, shield=shield.pk)
    assert "data-cannot-compute" not in response.content.decode()
    leather = srd("Leather")
    with django_assert_num_queries(PREVIEW_QUERIES + 1):  # another armor: looked up
        response = post_preview(client, character, armor=leather.pk, shield=shield.pk)
    assert "data-cannot-compute" not in response.content.decode()


def test_the_catalog_is_built_only_when_a_field_needs_it(client):
    """The user's catalog (GearItem.visible_to, a subquery of their campaigns that costs
    more to build than the rest of the form) is built once for both selects when they
    are listed, and not at all for a preview whose choices the lines already hold."""
    armor, shield = srd("Chain mail"), srd("Shield, medium")
    character = wearing(armor, shield)
    client.force_login(character.owner)
    visible_to = RulesContentQuerySet.visible_to
    with patch.object(RulesContentQuerySet, "visible_to", autospec=True,
                      side_effect=visible_to) as built:
        post_preview(client, character, armor=armor.pk, shield=shield.pk)
        assert built.call_count == 0
        post_preview(client, character, armor=srd("Leather").pk, shield=shield.pk)
        assert built.call_count == 1
        page = client.get(reverse("characters:edit", args=[character.pk]))
        assert built.call_count == 2
    html = page.content.decode()
    assert "Leather (AP" in html and "Shield, medium (AF" in html


def test_a_worn_srd_row_is_still_refused_in_the_other_kinds_field():
    armor, shield = srd("Chain mail"), srd("Shield, medium")
    character = wearing(armor, shield)
    items = list(character.items.select_related("catalog_item"))
    form = CharacterForm(builder_data(armor=str(shield.pk), shield=str(armor.pk)),
                         character=character, items=items, user=character.owner)

    assert not form.is_valid()
    assert form.errors["armor"] == ["Choose an armor from the list."]
    assert form.errors["shield"] == ["Choose a shield from the list."]


def test_worn_homebrew_is_still_asked_whether_the_player_may_choose_it(
        django_assert_num_queries):
    """Only SRD rows skip the query: homebrew the player can no longer see (another
    player's, say, once their shared campaign is gone) is refused as before."""
    character = carrying(1)
    stranger = UserFactory()
    theirs = GearItem.objects.create(name="Their plate", slug="their-plate", owner=stranger,
                                     category=GearItem.Category.ARMOR, armor_ap=4,
                                     armor_rally_die=4, load=3)
    mine = GearItem.objects.create(name="My plate", slug="my-plate", owner=character.owner,
                                   category=GearItem.Category.ARMOR, armor_ap=4,
                                   armor_rally_die=4, load=3)
    for n, row in enumerate((theirs, mine), start=1):
        InventoryItemFactory(character=character, position=n, catalog_item=row,
                             name=row.name, kind=row.category)
    items = list(character.items.select_related("catalog_item"))

    refused = CharacterForm(builder_data(armor=str(theirs.pk)), character=character,
                            items=items, user=character.owner)
    with django_assert_num_queries(1):
        assert not refused.is_valid()
    assert refused.errors["armor"] == ["Choose an armor from the list."]
    chosen = CharacterForm(builder_data(armor=str(mine.pk)), character=character,
                           items=items, user=character.owner)
    with django_assert_num_queries(1):
        chosen.is_valid()
    assert chosen.cleaned_data["armor"] == mine


def test_every_form_has_its_own_fields():
    """Django deep-copies the declared fields for each form: disabling Level for a
    campaign character leaves the next form's Level alone."""
    hero = CharacterFactory(campaign=CampaignFactory())
    in_campaign = CharacterForm(character=hero, user=hero.owner)
    fresh = CharacterForm(user=hero.owner)

    assert in_campaign.fields["level"].disabled and in_campaign.fields["xp"].disabled
    assert not fresh.fields["level"].disabled and not fresh.fields["xp"].disabled
    assert not CharacterForm.base_fields["level"].disabled
    assert in_campaign.fields["armor"] is not fresh.fields["armor"]
    assert type(CharacterForm.base_fields) is dict


def test_the_gear_lists_are_the_users_catalog_of_each_kind():
    owner, stranger = UserFactory(), UserFactory()
    mine = GearItem.objects.create(name="My plate", slug="my-plate", owner=owner,
                                   category=GearItem.Category.ARMOR, armor_ap=4,
                                   armor_rally_die=4, load=3)
    theirs = GearItem.objects.create(name="Their plate", slug="their-plate", owner=stranger,
                                     category=GearItem.Category.ARMOR, armor_ap=4,
                                     armor_rally_die=4, load=3)
    form = CharacterForm(user=owner)

    armors = {choice.instance for choice, _ in list(form["armor"].field.choices)[1:]}
    shields = {choice.instance for choice, _ in list(form["shield"].field.choices)[1:]}
    assert mine in armors and theirs not in armors
    assert {armor.category for armor in armors} == {GearItem.Category.ARMOR}
    assert {shield.category for shield in shields} == {GearItem.Category.SHIELD}
    assert "My plate (AP 4, Rally d4, Load 3)" in str(form["armor"])


@pytest.mark.parametrize("field, other_kind, message", [
    ("armor", "Shield, medium", "Choose an armor from the list."),
    ("shield", "Chain mail", "Choose a shield from the list."),
])
def test_gear_of_the_other_kind_is_refused(field, other_kind, message):
    posted = str(srd(other_kind).pk)
    form = CharacterForm(builder_data(**{field: posted}), user=UserFactory())

    assert not form.is_valid()
    assert form.has_error(field, code="invalid_choice")
    assert form.errors[field] == [message]
    assert form[field].value() == posted  # what was posted is kept


@pytest.mark.parametrize("posted", ["999999", "²", "-1", "1.0", str(2**64), "9" * 4301])
@pytest.mark.parametrize("field, message", [("armor", "Choose an armor from the list."),
                                            ("shield", "Choose a shield from the list.")])
def test_what_is_no_id_of_the_list_is_refused(field, message, posted):
    form = CharacterForm(builder_data(**{field: posted}), user=UserFactory())

    assert not form.is_valid()
    assert form.has_error(field, code="invalid_choice")
    assert form.errors[field] == [message]
    assert field in form.unreadable  # the numbers are not computed from a refused choice


def test_with_progress_sums_each_characters_ledger_rows():
    rich = CharacterFactory(progress__level=10, progress__xp=3, progress__coins_cp=2**40)
    XpEntryFactory(character=rich, xp_change=-2, level_change=1)
    XpEntryFactory(character=rich, xp_change=7)
    CoinEntry.objects.create(character=rich, kind=CoinEntry.Kind.PURCHASE, amount_cp=-125)
    broke = CharacterFactory(progress__level=4, progress__coins_cp=0)
    CoinEntry.objects.create(character=broke, kind=CoinEntry.Kind.PURCHASE, amount_cp=-5)
    empty = Character.objects.create(owner=UserFactory(), name="No ledger yet")

    annotated = {c.pk: c for c in Character.objects.with_progress()}

    for character in (rich, broke, empty):
        xp_rows = list(XpEntry.objects.filter(character=character))
        coin_rows = list(CoinEntry.objects.filter(character=character))
        got = annotated[character.pk]
        assert got.level_total == sum(row.level_change for row in xp_rows)
        assert got.xp_total == sum(row.xp_change for row in xp_rows)
        assert got.coins_total == sum(row.amount_cp for row in coin_rows)
    assert (annotated[rich.pk].level_total, annotated[rich.pk].xp_total,
            annotated[rich.pk].coins_total) == (11, 8, 2**40 - 125)
    assert (annotated[broke.pk].level_total, annotated[broke.pk].coins_total) == (4, -5)
    assert (annotated[empty.pk].level_total, annotated[empty.pk].xp_total,
            annotated[empty.pk].coins_total) == (0, 0, 0)


def test_with_progress_is_one_query_and_counts_items_beside_it():
    """As the character list asks: the sums beside a Count over the items, in one
    query, neither multiplied by the items' join."""
    hero = CharacterFactory(progress__level=12, progress__xp=5, progress__coins_cp=40)
    XpEntryFactory(character=hero, xp_change=-1)
    InventoryItemFactory.create_batch(3, character=hero)
    CharacterFactory(owner=hero.owner, progress__level=3)

    with CaptureQueriesContext(connection) as queries:
        rows = {c.pk: c for c in Character.objects.filter(owner=hero.owner).with_progress()
                .annotate(item_count=Count("items"))}
    assert len(queries) == 1
    got = rows[hero.pk]
    assert (got.level_total, got.xp_total, got.coins_total, got.item_count) == (12, 4, 40, 3)
    assert (got.level, got.xp, got.coins_cp) == (12, 4, 40)
    assert len(rows) == 2


def test_the_lines_come_in_the_models_order_without_order_by(django_assert_num_queries):
    """lines_for_sheet sorts the lines itself (position, then id: InventoryItem's
    Meta.ordering), the order the sheet, its templates and the ORM's own list give."""
    from characters.views import lines_for_sheet

    character = AsphodelFactory()
    for n, position in enumerate([3, 0, 3, 1, 0, 2]):
        InventoryItemFactory(character=character, position=position, name=f"Line {n}",
                             catalog_item=srd("Rope (10m)") if n % 2 else None)
    with django_assert_num_queries(1):
        lines = lines_for_sheet(character)
    assert [line.pk for line in lines] == list(
        character.items.values_list("pk", flat=True))
    assert [line.position for line in lines] == [0, 0, 1, 2, 3, 3]
