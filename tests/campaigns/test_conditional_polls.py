"""Conditional polls (campaigns/polling.py): a poll that finds nothing new is answered 304
without rendering; every change to what it shows gives a new ETag; who may see the page
is checked before any 304; a kept answer is never another user's or another part's."""

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns import services
from campaigns.systems.eldritch_gambit import initiative as tracker
from campaigns.systems.eldritch_gambit import roll_services
from rules.engine.eldritch_gambit import rolls
from rules.engine.eldritch_gambit.checks import CheckSpec
from rules.models import GearItem
from tests.factories import (
    CharacterFactory,
    CoImpMembershipFactory,
    InventoryItemFactory,
    QuestFactory,
    SessionFactory,
    UserFactory,
    XpEntryFactory,
)

pytestmark = pytest.mark.django_db
POLL = {"HTTP_HX_REQUEST": "true"}
DASHBOARD = {**POLL, "HTTP_HX_TARGET": "party-dashboard"}


def poll(client, path, etag=None, **headers):
    headers = {**POLL, **headers}
    if etag:
        headers["HTTP_IF_NONE_MATCH"] = etag
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path, **headers)
    response.queries = len(queries)
    return response


def assert_unchanged(client, path, etag, **headers):
    response = poll(client, path, etag, **headers)
    assert response.status_code == 304
    assert response.content == b""
    assert response.templates == []  # nothing rendered (includes would show here)
    assert response["ETag"] in etag  # the version it was sent, weak or among others
    return response


def assert_changed(client, path, etag, **headers) -> str:
    response = poll(client, path, etag, **headers)
    assert response.status_code == 200
    assert response["ETag"] != etag
    return response["ETag"]


def first_etag(client, path, **headers) -> str:
    response = poll(client, path, **headers)
    assert response.status_code == 200
    assert response.content
    assert "no-cache" in response["Cache-Control"] and "private" in response["Cache-Control"]
    return response["ETag"]


@pytest.fixture
def table(client, campaign, imp, seat):
    """A session under way with two characters and a roll; the Imp logged in."""
    characters = [seat(name="Ash"), seat(name="Birch")]
    session = SessionFactory(campaign=campaign)
    roll_services.make_roll(character=characters[0], by=imp, spec=rolls.rally("1d6"),
                            kind="rally", rng=random.Random(1))
    client.force_login(imp)
    return session, characters


# --- the session's roll log ---------------------------------------------------------------
def test_session_log_poll_answers_304_when_nothing_is_new(client, campaign, imp, table):
    session, characters = table
    path = reverse("campaigns:session_log", args=[campaign.pk, session.number])
    rendered = poll(client, path)
    etag = rendered["ETag"]
    unchanged = assert_unchanged(client, path, etag)
    assert unchanged.queries < rendered.queries
    # GZipMiddleware makes a compressed answer's ETag weak: the same version still.
    assert_unchanged(client, path, f"W/{etag}")
    assert_unchanged(client, path, f'"other", W/{etag}')


def test_session_log_poll_changes_with_a_roll_a_gambit_a_reroll_and_a_new_session(
        client, campaign, imp, table):
    session, (ash, birch) = table
    path = reverse("campaigns:session_log", args=[campaign.pk, session.number])
    etag = first_etag(client, path)
    rng = random.Random(3)
    check = roll_services.make_check(character=birch, by=imp, label="Sneak", rng=rng,
                                     spec=CheckSpec(die=20, modifier=2, df=10))
    etag = assert_changed(client, path, etag)
    assert "Sneak" in poll(client, path).content.decode()
    roll_services.call_gambit(check=check, by=imp, rng=rng)
    etag = assert_changed(client, path, etag)
    rally = roll_services.make_roll(character=ash, by=imp, spec=rolls.rally("1d6"),
                                    kind="rally", rng=rng)
    etag = assert_changed(client, path, etag)
    roll_services.reroll(roll=rally, by=imp, rng=rng)
    etag = assert_changed(client, path, etag)
    ash.name = "Ashen"
    ash.save()
    etag = assert_changed(client, path, etag)
    SessionFactory(campaign=campaign)  # the log is no longer the current session's
    assert_changed(client, path, etag)


def test_session_log_checks_membership_before_any_304(client, campaign, imp, table):
    session, _ = table
    path = reverse("campaigns:session_log", args=[campaign.pk, session.number])
    etag = first_etag(client, path)
    client.force_login(UserFactory())
    assert poll(client, path, etag).status_code == 404
    client.logout()
    assert poll(client, path, etag).status_code == 302  # to the login page


def test_a_kept_answer_is_never_another_users_nor_the_full_page(client, campaign, imp,
                                                                  table):
    session, (ash, _) = table
    path = reverse("campaigns:session_log", args=[campaign.pk, session.number])
    etag = first_etag(client, path)
    page = client.get(path, HTTP_IF_NONE_MATCH=etag)  # a full page is always rendered
    assert page.status_code == 200 and "<html" in page.content.decode()
    assert not page.has_header("ETag")
    client.force_login(ash.owner)  # a member too, but another user
    assert poll(client, path, etag).status_code == 200


# --- a character's roll log ---------------------------------------------------------------
def test_character_log_poll_changes_with_rolls_wp_and_xp(client, campaign, imp, table):
    _, (ash, _) = table
    path = reverse("characters:roll_log", args=[ash.pk])
    client.force_login(ash.owner)
    etag = first_etag(client, path)
    assert_unchanged(client, path, etag)
    rng = random.Random(5)
    roll = roll_services.make_roll(character=ash, by=ash.owner, spec=rolls.rally("1d6"),
                                   kind="rally", rng=rng)
    etag = assert_changed(client, path, etag)
    roll_services.reroll(roll=roll, by=imp, rng=rng)  # spends WP: shown out of band
    etag = assert_changed(client, path, etag)
    XpEntryFactory(character=ash, xp_change=5)
    etag = assert_changed(client, path, etag)
    # WP written straight to the system's table (no updated_at) shows too.
    type(ash).objects.filter(pk=ash.pk).update(wp_current=1)
    etag = assert_changed(client, path, etag)
    assert_unchanged(client, path, etag)


def test_character_log_checks_who_may_see_before_any_304(client, campaign, imp, table):
    _, (ash, _) = table
    path = reverse("characters:roll_log", args=[ash.pk])
    client.force_login(ash.owner)
    etag = first_etag(client, path)
    client.force_login(UserFactory())
    assert poll(client, path, etag).status_code == 404


def test_character_log_poll_is_the_owners_and_the_imps_alone(client, campaign, imp, table):
    """The owner's and the campaign's Imps' polls read who asks with the version (one
    query built once): a 304 in three queries; another player of the campaign and a
    stranger get the 404 visible_to gives, never a 304; a character outside any campaign
    is its owner's to poll (the version then read through visible_to)."""
    _, (ash, birch) = table
    path = reverse("characters:roll_log", args=[ash.pk])
    etag = first_etag(client, path)  # the Imp's
    assert assert_unchanged(client, path, etag).queries == 3
    co_imp = CoImpMembershipFactory(campaign=campaign).user
    client.force_login(co_imp)
    assert_unchanged(client, path, first_etag(client, path))
    for other in (birch.owner, UserFactory()):
        client.force_login(other)
        assert poll(client, path, etag).status_code == 404
    loner = CharacterFactory()
    client.force_login(loner.owner)
    path = reverse("characters:roll_log", args=[loner.pk])
    etag = first_etag(client, path)
    assert_unchanged(client, path, etag)
    type(loner).objects.filter(pk=loner.pk).update(wp_current=1)
    assert_changed(client, path, etag)
    client.force_login(imp)
    assert poll(client, path, etag).status_code == 404


# --- the Initiative players' view ---------------------------------------------------------
def test_initiative_poll_changes_with_each_step_and_its_undo(client, campaign, imp, table):
    _, (ash, birch) = table
    encounter = tracker.create(campaign=campaign, by=imp, name="Ambush")
    tracker.add_characters(encounter_id=encounter.pk, version=None, characters=[ash, birch])
    tracker.add_foe(encounter_id=encounter.pk, version=None, name="Ogre", hp_max=30, af=12)
    path = encounter.get_absolute_url()
    client.force_login(ash.owner)
    etag = first_etag(client, path)
    assert_unchanged(client, path, etag)
    first = str(encounter.combatants.get(character=ash).pk)
    tracker.step(encounter_id=encounter.pk, version=None, kind="trigger",
                 payload={"key": first}, by=imp)
    etag = assert_changed(client, path, etag)
    assert_unchanged(client, path, etag)
    tracker.undo(encounter_id=encounter.pk, version=None)
    etag = assert_changed(client, path, etag)
    # The Imp's own tracker is never answered 304 (only the players' view is polled).
    client.force_login(imp)
    assert poll(client, path, etag).status_code == 200
    preview = first_etag(client, path + "?view=player")
    assert_unchanged(client, path + "?view=player", preview)
    client.force_login(UserFactory())
    assert poll(client, path, etag).status_code == 404


# --- the party dashboard ------------------------------------------------------------------
def test_dashboard_poll_changes_with_xp_its_reversal_items_quests_and_direct_writes(
        client, campaign, imp, table):
    _, (ash, birch) = table
    path = reverse("campaigns:detail", args=[campaign.pk])
    etag = first_etag(client, path, **DASHBOARD)
    rendered = poll(client, path, **DASHBOARD).queries
    assert assert_unchanged(client, path, etag, **DASHBOARD).queries < rendered
    entry = services.xp_adjust(character=ash, xp_change=3, note="Found the map", by=imp)
    etag = assert_changed(client, path, etag, **DASHBOARD)
    services.xp_entry_reverse(entry=entry, by=imp)
    etag = assert_changed(client, path, etag, **DASHBOARD)
    item = InventoryItemFactory(character=birch, name="Rope")
    etag = assert_changed(client, path, etag, **DASHBOARD)
    item.quantity = 2  # an edit, no new row
    item.save()
    etag = assert_changed(client, path, etag, **DASHBOARD)
    QuestFactory(character=birch, campaign=campaign)
    etag = assert_changed(client, path, etag, **DASHBOARD)
    # The Initiative's end writes HP straight to the system's table (no updated_at).
    type(birch).objects.filter(pk=birch.pk).update(hp_current=1)
    etag = assert_changed(client, path, etag, **DASHBOARD)
    # A homebrew item the party carries is edited: its Load (or AF, HP) on the sheet may
    # change, though no row of the party's own did.
    gear = GearItem.objects.create(owner=imp, name="Anvil", slug="anvil",
                                   category=GearItem.Category.ITEM, load=1)
    InventoryItemFactory(character=birch, name="Anvil", catalog_item=gear)
    etag = assert_changed(client, path, etag, **DASHBOARD)
    gear.load = 3
    gear.save()
    etag = assert_changed(client, path, etag, **DASHBOARD)
    assert_unchanged(client, path, etag, **DASHBOARD)
    # Another part of the same URL (no HX-Target) is not taken for the dashboard.
    assert poll(client, path, etag).status_code == 200
    client.force_login(UserFactory())
    assert poll(client, path, etag, **DASHBOARD).status_code == 404


def changed_to(client, path, etag, *shown: str) -> str:
    """A poll after a change: a 200 whose party shows `shown`; its new ETag."""
    response = poll(client, path, etag, **DASHBOARD)
    assert response.status_code == 200
    assert response["ETag"] != etag
    body = response.content.decode()
    for text in shown:
        assert text in body, text
    return response["ETag"]


def test_dashboard_poll_shows_each_kind_of_change_the_party_table_shows(
        client, campaign, imp, table):
    """Every column of the party table, as the Imp sees it, after a change that touches
    no other: the poll that follows answers 200 with the new value, never 304."""
    from campaigns.models import Membership
    from campaigns.systems.eldritch_gambit.models import Quest

    _, (ash, birch) = table
    path = reverse("campaigns:detail", args=[campaign.pk])
    etag = first_etag(client, path, **DASHBOARD)
    assert_unchanged(client, path, etag, **DASHBOARD)
    type(ash).objects.filter(pk=ash.pk).update(name="Ashen")  # the name, straight
    etag = changed_to(client, path, etag, "Ashen")
    ash.owner.username = "ash-player"
    ash.owner.save()
    etag = changed_to(client, path, etag, "ash-player")
    type(ash).objects.filter(pk=ash.pk).update(wp_current=1)
    etag = changed_to(client, path, etag, '<span data-stat="wp_current">1</span>')
    type(ash).objects.filter(pk=ash.pk).update(statuses=["blinded"])
    etag = changed_to(client, path, etag, "Blinded")
    type(birch).objects.filter(pk=birch.pk).update(quest="Find the lost bell")
    etag = changed_to(client, path, etag, "Find the lost bell")
    quest = QuestFactory(character=birch, campaign=campaign, text="Ring the bell")
    etag = changed_to(client, path, etag, "Ring the bell")
    Quest.objects.filter(pk=quest.pk).update(text="Ring it twice")  # edited in place
    etag = changed_to(client, path, etag, "Ring it twice")
    XpEntryFactory(character=birch, xp_change=5)
    etag = changed_to(client, path, etag)
    # An entry that commits after a newer one (another transaction's, on PostgreSQL):
    # not the newest, but one more.
    late = XpEntryFactory(character=ash, xp_change=2)
    XpEntryFactory(character=birch, xp_change=1)
    late_pk = late.pk
    late.delete()
    etag = changed_to(client, path, etag)
    XpEntryFactory(pk=late_pk, character=ash, xp_change=2)
    etag = changed_to(client, path, etag)
    # A character leaves, another joins.
    type(ash).objects.filter(pk=ash.pk).update(campaign=None)
    response = poll(client, path, etag, **DASHBOARD)
    assert response.status_code == 200 and "Ashen" not in response.content.decode()
    etag = response["ETag"]
    type(ash).objects.filter(pk=ash.pk).update(campaign=campaign)
    etag = changed_to(client, path, etag, "Ashen")
    # The Imp hands the table over: the same data, a player's view now.
    Membership.objects.filter(campaign=campaign, user=imp).update(role="player")
    etag = changed_to(client, path, etag, "Career")
    assert_unchanged(client, path, etag, **DASHBOARD)


def test_dashboard_poll_etag_naming_another_game_is_never_a_304(client, campaign, imp,
                                                                table):
    """The dashboard's ETag names its game system, so that the next poll reads the right
    version in one query; a forged or stale name only costs a render, and a stranger
    still gets 404."""
    path = reverse("campaigns:detail", args=[campaign.pk])
    etag = first_etag(client, path, **DASHBOARD)
    assert etag.startswith('"eldritch-gambit.')
    digest = etag.strip('"').partition(".")[2]
    for forged in (f'"mettle-core.{digest}"', f'"no-such-game.{digest}"', f'"{digest}"'):
        response = poll(client, path, forged, **DASHBOARD)
        assert response.status_code == 200 and response["ETag"] == etag, forged
    assert_unchanged(client, path, f'W/{etag}', **DASHBOARD)
    client.force_login(UserFactory())
    assert poll(client, path, etag, **DASHBOARD).status_code == 404


def test_a_mettle_dashboard_poll_answers_304_until_the_party_changes(client):
    """The generic dashboard of another game: its own character table's direct writes
    count too."""
    from campaigns.models import Campaign
    from characters.systems.mettle.models import MettleCharacter
    from tests.campaigns.test_poll_queries import mettle_party

    guide = UserFactory()
    campaign = services.campaign_create(owner=guide, name="Saint Vitus", system="mettle-core")
    (viktor,) = mettle_party(Campaign.objects.get(pk=campaign.pk), guide, 1, 1)
    client.force_login(guide)
    path = reverse("campaigns:detail", args=[campaign.pk])
    etag = first_etag(client, path, **DASHBOARD)
    assert etag.startswith('"mettle-core.')
    assert_unchanged(client, path, etag, **DASHBOARD)
    MettleCharacter.objects.filter(pk=viktor.pk).update(name="Viktor the Bold")
    changed_to(client, path, etag, "Viktor the Bold")


def test_a_dashboard_without_sheet_columns_reads_no_gear_lines(client):
    """METTLE Core's party table shows names, players and XP, no gear: a line bought or
    dropped changes nothing it shows and keeps the poll at 304; XP still changes it. Its
    version is a row a character, whatever they carry."""
    from campaigns.models import Campaign
    from campaigns.polling import party_version
    from tests.campaigns.test_poll_queries import mettle_party

    guide = UserFactory()
    campaign = services.campaign_create(owner=guide, name="Saint Vitus", system="mettle-core")
    party = mettle_party(Campaign.objects.get(pk=campaign.pk), guide, 2, 1)
    for viktor in party:
        InventoryItemFactory(character=viktor)
    assert len(party_version(guide, campaign.pk, "mettle-core")) == len(party)
    client.force_login(guide)
    path = reverse("campaigns:detail", args=[campaign.pk])
    etag = first_etag(client, path, **DASHBOARD)
    InventoryItemFactory(character=party[0], name="Lantern")
    party[1].items.all().delete()
    assert_unchanged(client, path, etag, **DASHBOARD)
    XpEntryFactory(character=party[0], xp_change=5)
    changed_to(client, path, etag, "Viktor 0")


def test_an_empty_party_dashboard_answers_304_until_someone_joins(client, campaign, imp,
                                                                  seat):
    client.force_login(imp)
    path = reverse("campaigns:detail", args=[campaign.pk])
    etag = first_etag(client, path, **DASHBOARD)
    assert assert_unchanged(client, path, etag, **DASHBOARD).queries == 3
    seat(name="Newcomer")
    changed_to(client, path, etag, "Newcomer")


def test_a_versions_rows_come_by_character_then_line_whatever_the_databases_order():
    """The versions are sorted in Python (campaigns.polling.by_ids), not by ORDER BY: by
    the character's id, then its line's, a character without lines (None) first."""
    from campaigns.polling import by_ids

    rows = [(7, "x", 3), (2, "y", None), (7, "x", 1), (2, "y", 9), (5, "z", None)]
    assert sorted(rows, key=by_ids(0, 2)) == [
        (2, "y", None), (2, "y", 9), (5, "z", None), (7, "x", 1), (7, "x", 3)]
    assert [row[0] for row in sorted(rows, key=by_ids(0))] == [2, 2, 5, 7, 7]


def test_the_dashboards_version_lists_each_characters_lines_in_order(campaign, imp, seat):
    from campaigns.polling import party_version

    characters = [seat(name="Ash"), seat(name="Birch")]
    names = [f"Line {n}" for n in range(3)]  # made in this order: their ids ascend
    for character in reversed(characters):
        for name in names:
            InventoryItemFactory(character=character, name=name)
    rows = party_version(imp, campaign.pk, campaign.system)
    assert [row[0] for row in rows] == sorted(row[0] for row in rows)
    for character in characters:
        mine = [row for row in rows if row[0] == character.pk]
        assert [next(v for v in row if v in names) for row in mine
                if any(v in names for v in row)] == names
