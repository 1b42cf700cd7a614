"""Eldritch Gambit's page reads (characters/systems/eldritch_gambit/selectors.py): the
inventory's rows, the catalog search, the purse's and the hand-overs' ledgers, the give
targets, the printed sheets. Pure reads: the pages that show them are tested in
test_inventory_views.py, test_transfer_views.py and test_print.py."""

import pytest

from campaigns import transfers
from campaigns.systems.eldritch_gambit import quests
from characters.models import CoinEntry
from characters.systems.eldritch_gambit import inventory, selectors
from characters.systems.eldritch_gambit.builds import sheet_for
from characters.systems.eldritch_gambit.inventory_forms import GiveForm
from characters.systems.eldritch_gambit.models import EldritchGambitCharacter
from rules.engine.eldritch_gambit.gear import unit_load
from rules.engine.eldritch_gambit.sheet import container_contents_load
from rules.models import GearItem
from tests.factories import (
    AsphodelFactory,
    CampaignFactory,
    CharacterFactory,
    MembershipFactory,
    SessionFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def gear(name):
    return GearItem.objects.srd().get(name=name)


@pytest.fixture
def character():
    return AsphodelFactory(owner=UserFactory())


def add(character, name, **kwargs):
    return inventory.item_add(character=character, by=character.owner,
                              catalog_item=gear(name), **kwargs)


def rows_of(character, failure=None):
    items = list(character.items.select_related("catalog_item"))
    return selectors.inventory_rows(items, sheet_for(character, items), failure)


def names(rows):
    return [(row.item.name, row.depth, row.opens, row.closes) for row in rows]


# -- the inventory's rows -----------------------------------------------------------------


def test_rows_group_worn_carried_and_dropped(character):
    mail = add(character, "Chain mail")
    inventory.item_equip(character=character, item=mail.pk, equipped=True)
    add(character, "Spear")
    lantern = add(character, "Lantern")
    inventory.item_drop(character=character, item=lantern.pk)
    groups = rows_of(character)
    assert [row.item.pk for row in groups["worn"]] == [mail.pk]
    assert [row.item.name for row in groups["carried"]] == ["Spear"]
    assert [row.item.pk for row in groups["dropped"]] == [lantern.pk]


def test_a_container_is_followed_by_its_contents_nested(character):
    pack = add(character, "Backpack")
    inner = add(character, "Backpack", container=pack)
    rope = add(character, "Rope (10m)", quantity=2, container=inner)
    add(character, "Spear")
    carried = rows_of(character)["carried"]
    # The pack opens, the inner pack opens at depth 1, the rope closes both.
    assert names(carried) == [("Backpack", 0, True, 0), ("Backpack", 1, True, 0),
                              ("Rope (10m)", 2, False, 2), ("Spear", 0, False, 0)]
    by_pk = {row.item.pk: row for row in carried}
    assert by_pk[rope.pk].closers == range(2)
    items = list(character.items.select_related("catalog_item"))
    sheet = sheet_for(character, items)
    pieces = {piece.key: piece for piece in sheet.build.gear}
    assert by_pk[rope.pk].load == unit_load(pieces[rope.pk]) * 2
    assert by_pk[inner.pk].inside == container_contents_load(sheet.build.gear,
                                                             pieces[inner.pk])
    assert by_pk[pack.pk].capacity == pieces[pack.pk].capacity
    assert by_pk[rope.pk].inside is None and not by_pk[rope.pk].over


def test_a_line_may_move_anywhere_but_into_itself_or_its_contents(character):
    pack = add(character, "Backpack")
    inner = add(character, "Backpack", container=pack)
    spear = add(character, "Spear")
    by_pk = {row.item.pk: row for row in rows_of(character)["carried"]}
    # Two containers share a name: numbered, with their Load and maximum.
    assert [value for value, _ in by_pk[spear.pk].targets] == ["", str(pack.pk),
                                                                str(inner.pk)]
    labels = [label for _, label in by_pk[spear.pk].targets]
    assert labels[0] == "Carried loose"
    assert labels[1].startswith("Backpack 1 (") and labels[2].startswith("Backpack 2 (")
    assert [value for value, _ in by_pk[pack.pk].targets] == [""]
    assert [value for value, _ in by_pk[inner.pk].targets] == ["", str(pack.pk)]


def test_container_labels_number_only_shared_names(character):
    pack = add(character, "Backpack")
    other = add(character, "Backpack")
    sack = add(character, "Lantern")
    sack.name = "Sack"
    assert selectors.container_labels([pack, other, sack]) == {
        pack.pk: "Backpack 1", other.pk: "Backpack 2", sack.pk: "Sack"}


def test_a_container_over_its_maximum_says_so(character):
    pack = add(character, "Backpack")
    add(character, "Rope (10m)", quantity=4, container=pack)
    lantern = add(character, "Lantern")
    lantern.container = pack  # past the service's check, as stale data might be
    lantern.save(update_fields=["container"])
    row = next(r for r in rows_of(character)["carried"] if r.item.pk == pack.pk)
    assert row.inside > row.capacity and row.over


def test_a_loop_in_the_data_is_shown_loose_never_lost(character):
    one = add(character, "Backpack")
    two = add(character, "Backpack", container=one)
    one.container = two  # A in B in A: never written by the services
    one.save(update_fields=["container"])
    shown = [row.item.pk for group in rows_of(character).values() for row in group]
    assert sorted(shown) == sorted([one.pk, two.pk])


def test_the_weapon_line_and_prices_follow_the_sheet(character):
    spear = add(character, "Spear")
    row = rows_of(character)["carried"][0]
    items = list(character.items.select_related("catalog_item"))
    sheet = sheet_for(character, items)
    assert row.item.pk == spear.pk
    assert row.weapon == sheet.weapons[0]
    assert selectors.weapon_lines(sheet) == {spear.pk: sheet.weapons[0]}
    assert row.sale_price == inventory.sale_price_cp(spear)
    assert row.unit_price == gear("Spear").cost_cp


def test_a_refused_action_lands_on_its_line_only(character):
    spear = add(character, "Spear")
    add(character, "Lantern")
    failure = selectors.Failure(spear.pk, {"quantity": ["Too many."]}, {"quantity": "99"})
    carried = rows_of(character, failure)["carried"]
    by_pk = {row.item.pk: row for row in carried}
    assert by_pk[spear.pk].errors == {"quantity": ["Too many."]}
    assert by_pk[spear.pk].typed == {"quantity": "99"}
    assert all(not row.errors and not row.typed for row in carried if row.item.pk != spear.pk)


# -- the catalog search -------------------------------------------------------------------


def test_nothing_searched_reads_nothing(character, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert selectors.catalog_results(character.owner, "", "") == []


def test_the_catalog_matches_name_and_kind_with_stats():
    user = UserFactory()
    results = selectors.catalog_results(user, "spear", "")
    assert "Spear" in [row["gear"].name for row in results]
    spear = next(row for row in results if row["gear"].name == "Spear")
    item = gear("Spear")
    assert spear["stats"].startswith(f"Hit {item.weapon_hit:+d}, {item.weapon_damage}")
    assert spear["homebrew"] is None
    armor = selectors.catalog_results(user, "", "armor")
    assert armor and all(row["gear"].category == "armor" for row in armor)
    mail = next(row for row in armor if row["gear"].name == "Chain mail")
    assert mail["stats"].startswith(f"AP {mail['gear'].armor_ap}, Rally d")


def test_the_catalog_shows_my_homebrew_not_anothers():
    author, other = UserFactory(), UserFactory()
    GearItem.objects.create(owner=author, name="Bone club", slug="bone-club",
                            category="weapon", load=1, weapon_hit=1, weapon_damage="1d6")
    mine = selectors.catalog_results(author, "bone club", "")
    assert [(row["gear"].name, row["homebrew"]) for row in mine] == [("Bone club", author.pk)]
    assert selectors.catalog_results(other, "bone club", "") == []


def test_the_catalog_reads_one_more_than_its_limit():
    results = selectors.catalog_results(UserFactory(), "", "item")
    count = GearItem.objects.srd().filter(category="item").count()
    assert len(results) == min(count, selectors.CATALOG_LIMIT + 1)


# -- the purse, the hand-overs, the give targets ------------------------------------------


def test_the_purse_rows_newest_first_with_what_may_be_reversed(character):
    first = inventory.coins_adjust(character=character, amount_cp=50, note="found",
                                   by=character.owner)
    second = inventory.coins_adjust(character=character, amount_cp=-10, note="spent",
                                    by=character.owner)
    reversal = inventory.coin_entry_reverse(character=character, entry=second.pk,
                                            by=character.owner)
    rows, total = selectors.purse_rows(character)
    assert total == character.coin_entries.count()
    by_pk = {row["entry"].pk: row for row in rows}
    assert [row["entry"].pk for row in rows][:3] == [reversal.pk, second.pk, first.pk]
    assert by_pk[first.pk]["label"] == "Adjustment"
    assert by_pk[first.pk]["reversible"] and not by_pk[first.pk]["reversed"]
    assert by_pk[second.pk]["reversed"] and not by_pk[second.pk]["reversible"]
    assert not by_pk[reversal.pk]["reversible"]
    assert by_pk[reversal.pk]["label"] == CoinEntry.Kind.REVERSAL.label


def test_the_purse_counts_all_entries_past_its_limit(character, monkeypatch):
    monkeypatch.setattr(selectors, "LEDGER_LIMIT", 2)
    for amount in (1, 2, 3):
        inventory.coins_adjust(character=character, amount_cp=amount, note="n",
                               by=character.owner)
    rows, total = selectors.purse_rows(character)
    assert len(rows) == 2 and total == character.coin_entries.count() >= 3


def test_no_give_targets_outside_a_campaign(character):
    assert selectors.give_targets(character) == []


def test_give_targets_are_the_rest_of_the_party_and_the_stash():
    campaign = CampaignFactory()
    asphodel = AsphodelFactory(owner=MembershipFactory(campaign=campaign).user,
                               campaign=campaign)
    brom = CharacterFactory(owner=MembershipFactory(campaign=campaign).user,
                            campaign=campaign, name="Brom")
    CharacterFactory(campaign=CampaignFactory(), name="Stranger")
    assert selectors.give_targets(asphodel) == [
        (str(brom.pk), brom.display_name), (GiveForm.STASH, selectors.STASH_LABEL)]


def test_transfer_rows_say_what_went_where():
    campaign = CampaignFactory()
    asphodel = AsphodelFactory(owner=MembershipFactory(campaign=campaign).user,
                               campaign=campaign)
    brom = CharacterFactory(owner=MembershipFactory(campaign=campaign).user,
                            campaign=campaign, name="Brom")
    spear = add(asphodel, "Spear")
    transfer = transfers.item_give(item=spear.pk, by=asphodel.owner, to_character=brom,
                                   from_character=asphodel)
    rows, total = selectors.transfer_rows(asphodel)
    assert total == 1
    assert rows == [{"entry": transfer,
                     "text": selectors.describe_transfer(transfer, character=asphodel),
                     "by": ""}]
    assert selectors.transfer_rows(brom)[1] == 1


# -- the printed sheets -------------------------------------------------------------------


def test_printed_sheets_read_the_quest_and_its_invested_xp_for_all_at_once(
        django_assert_max_num_queries):
    campaign = CampaignFactory()
    member = MembershipFactory(campaign=campaign)
    questing = CharacterFactory(owner=member.user, campaign=campaign,
                                quest="Find the lost bell", progress__xp=3)
    idle = CharacterFactory(owner=MembershipFactory(campaign=campaign).user,
                            campaign=campaign)
    solo = CharacterFactory(owner=member.user)
    quests.quest_invest(session=SessionFactory(campaign=campaign),
                                   character=questing, by=member.user)
    characters = list(EldritchGambitCharacter.objects.filter(pk__in=[questing.pk, idle.pk, solo.pk])
                      .with_progress().prefetch_related("items").order_by("pk"))
    # One query for every Quest, none per character (their items are prefetched).
    with django_assert_max_num_queries(1):
        sheets, portraits = selectors.printed_sheets(characters)
    assert len(sheets) == 3
    first, second, third = sheets
    assert (first.quest, first.invested) == ("Find the lost bell", 1)
    assert second.invested == 0  # in a campaign, nothing invested yet
    assert third.invested is None  # outside a campaign: left for pencil
    assert portraits == {} and all(sheet.portrait_url == "" for sheet in sheets)


def test_no_portrait_no_url(character):
    assert selectors.portrait_url(character) == ""
    assert selectors.versioned("", character) == ""


# -- the Template page's weapons ----------------------------------------------------------


def test_weapon_stats_list_weapons_then_attack_traits(character):
    character.template_traits = [{"name": "Attack", "value": "close", "load": 1},
                                 {"name": "Attack", "value": "area", "load": 1}]
    character.save()
    add(character, "Spear")
    sheet = sheet_for(character, list(character.items.select_related("catalog_item")))
    stats = selectors.weapon_stats(sheet)
    assert [row["prefix"] for row in stats] == ["weapon1-", "attack1-", "attack2-"]
    spear, close, area = stats
    assert spear["line"] == sheet.weapons[0]
    assert spear["damage"].value == sheet.weapons[0].damage
    assert spear["hit"].source == "Resources > Weapons"
    assert close["damage"].notes[0] == f"Critical +{sheet.natural_attacks[0].critical_bonus}"
    # An area attack has no Attack Check: no Critical, and the Hit says why.
    assert not any(note.startswith("Critical") for note in area["damage"].notes)
    assert area["hit"].notes == ("no Attack Check: all in the Zone are hit",)
