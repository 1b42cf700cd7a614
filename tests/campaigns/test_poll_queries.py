"""Every polled endpoint runs a number of queries that does not grow with the party or
with the history: the Initiative tracker's page and its players' live view (polled every
2 s), the session's roll log and a character's roll log (every 2 s), and the campaign's
party dashboard (every 5 s). Each is counted for parties of 2, 4 and 8 and for a short
and a long history; the counts must be the same."""

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.systems.eldritch_gambit import initiative as tracker
from campaigns.systems.eldritch_gambit import roll_services
from campaigns.systems.eldritch_gambit.models import Encounter
from characters.systems.eldritch_gambit.builds import sheet_for
from rules.engine.eldritch_gambit import rolls
from rules.engine.eldritch_gambit.checks import CheckSpec
from rules.models import GearItem
from tests.factories import (
    InventoryItemFactory,
    SessionFactory,
    XpEntryFactory,
)

pytestmark = pytest.mark.django_db

PARTIES = (2, 4, 8)


def count_queries(client, path: str, **headers) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path, **headers)
    assert response.status_code == 200
    return len(captured), "\n".join(q["sql"][:160] for q in captured.captured_queries)


def assert_flat(counts: dict) -> None:
    """counts: {label: (number of queries, their SQL)}; all the numbers equal."""
    numbers = {label: n for label, (n, _) in counts.items()}
    if len(set(numbers.values())) > 1:
        most = max(counts, key=lambda label: counts[label][0])
        pytest.fail(f"query counts differ: {numbers}; the queries of {most}:\n"
                    f"{counts[most][1]}")


def geared(character):
    """A character with armor, a shield and a weapon from the catalog, and loose gear:
    its sheet (HP, AF) reads every inventory line and its catalog row."""
    srd = GearItem.objects.srd()
    for name, kind in (("Spear", "weapon"), ("Padded", "armor"), ("Buckler", "shield")):
        catalog = srd.filter(name__icontains=name).first()
        InventoryItemFactory(character=character, name=name, kind=kind,
                             catalog_item=catalog, equipped=catalog is not None)
    InventoryItemFactory(character=character, name="Rope", load=1)
    XpEntryFactory(character=character, xp_change=3)
    return character


@pytest.fixture
def party(seat):
    """party(n): n geared characters of the campaign."""
    return lambda n: [geared(seat(name=f"Hero {i}")) for i in range(n)]


# --- Initiative ---------------------------------------------------------------------------
def fight(campaign, imp, characters, *, history: int) -> Encounter:
    """A running fight of `characters` against a Mob and a foe, `history` steps long."""
    encounter = tracker.create(campaign=campaign, by=imp, name="Ambush")
    tracker.add_characters(encounter_id=encounter.pk, version=None, characters=characters)
    tracker.add_foe(encounter_id=encounter.pk, version=None, name="Goblins", hp_max=6, af=10,
                    is_mob=True, members=3)
    tracker.add_foe(encounter_id=encounter.pk, version=None, name="Ogre", hp_max=30, af=12)
    first = str(encounter.combatants.get(character=characters[0]).pk)
    tracker.step(encounter_id=encounter.pk, version=None, kind="trigger",
                 payload={"key": first}, by=imp)
    ogre = str(encounter.combatants.get(name="Ogre").pk)
    for _ in range(history - 1):  # heal the Ogre back and forth: a long log
        tracker.step(encounter_id=encounter.pk, version=None, kind="heal",
                     payload={"key": ogre, "amount": 1}, by=imp)
    encounter.refresh_from_db()
    assert encounter.steps.count() == history
    return encounter


@pytest.mark.parametrize("viewer", ["imp", "player", "preview"])
def test_initiative_page_and_poll_are_flat_in_party_and_history(client, campaign, imp,
                                                                party, viewer):
    counts = {}
    for n in PARTIES:
        for history in (1, 50):
            if history == 50 and n != 4:
                continue
            characters = party(n)
            campaign.characters.exclude(pk__in=[c.pk for c in characters]).update(
                campaign=None)
            encounter = fight(campaign, imp, characters, history=history)
            user = characters[0].owner if viewer == "player" else imp
            client.force_login(user)
            path = encounter.get_absolute_url() + ("?view=player" if viewer == "preview"
                                                   else "")
            counts[f"{n} characters, {history} steps, page"] = count_queries(client, path)
            if viewer != "imp":
                counts[f"{n} characters, {history} steps, poll"] = count_queries(
                    client, path, HTTP_HX_REQUEST="true")
    pages = {k: v for k, v in counts.items() if k.endswith("page")}
    polls = {k: v for k, v in counts.items() if k.endswith("poll")}
    assert_flat(pages)
    if polls:
        assert_flat(polls)


def test_initiative_page_still_shows_every_combatants_numbers(client, campaign, imp, party):
    """The flat page computes each character's HP and AF as the sheet does."""
    characters = party(4)
    encounter = fight(campaign, imp, characters, history=3)
    client.force_login(imp)
    html = client.get(encounter.get_absolute_url()).content.decode()
    for character in characters:
        sheet = sheet_for(character)
        hp = sheet.value("hp_armored")
        assert f"{hp}/{hp}" in html
    rows = {row.combatant.character_id: row for row in tracker.load(encounter).rows}
    for character in characters:
        assert rows[character.pk].af == sheet_for(character).value("af")
        assert rows[character.pk].fighter.hp_max == sheet_for(character).value("hp_armored")


# --- roll logs ----------------------------------------------------------------------------
def roll_history(characters, by, entries: int) -> None:
    """`entries` rolls spread over the characters: Checks, a Gambit, Rally Rolls and a
    Reroll, so the log shows every relation it reads."""
    rng = random.Random(7)
    for i in range(entries):
        character = characters[i % len(characters)]
        if i % 3 == 0:
            check = roll_services.make_check(
                character=character, by=by, spec=CheckSpec(die=20, modifier=2, df=10),
                label="Sneak", rng=rng)
            if i % 2 == 0:
                roll_services.call_gambit(check=check, by=by, rng=rng)
        else:
            roll = roll_services.make_roll(character=character, by=by,
                                           spec=rolls.rally("1d6"), kind="rally", rng=rng)
            if i == 1:
                roll_services.reroll(roll=roll, by=by, rng=rng)


def test_session_log_poll_is_flat_in_party_and_history(client, campaign, imp, party):
    counts = {}
    for n in PARTIES:
        for entries in (1, 50):
            characters = party(n)
            campaign.characters.exclude(pk__in=[c.pk for c in characters]).update(
                campaign=None)
            session = SessionFactory(campaign=campaign)
            roll_history(characters, imp, entries)
            path = reverse("campaigns:session_log", args=[campaign.pk, session.number])
            for who, user in (("imp", imp), ("player", characters[0].owner)):
                client.force_login(user)
                counts[f"{who}, {n} characters, {entries} rolls, page"] = count_queries(
                    client, path)
                counts[f"{who}, {n} characters, {entries} rolls, poll"] = count_queries(
                    client, path, HTTP_HX_REQUEST="true")
    for kind in ("page", "poll"):
        assert_flat({k: v for k, v in counts.items() if k.endswith(kind)})


def test_character_roll_log_poll_is_flat_in_history(client, campaign, imp, party):
    counts = {}
    for entries in (1, 50):
        characters = party(2)
        SessionFactory(campaign=campaign)
        roll_history(characters[:1], characters[0].owner, entries)
        path = reverse("characters:roll_log", args=[characters[0].pk])
        for who, user in (("owner", characters[0].owner), ("imp", imp)):
            client.force_login(user)
            counts[f"{who}, {entries} rolls"] = count_queries(client, path,
                                                              HTTP_HX_REQUEST="true")
    assert_flat({k: v for k, v in counts.items() if k.startswith("owner")})
    assert_flat({k: v for k, v in counts.items() if k.startswith("imp")})


# --- the campaign's party dashboard -------------------------------------------------------
def test_campaign_dashboard_poll_is_flat_in_party_and_history(client, campaign, imp, party):
    counts = {}
    for n in PARTIES:
        for sessions in (1, 50):
            if sessions == 50 and n != 4:
                continue
            characters = party(n)
            campaign.characters.exclude(pk__in=[c.pk for c in characters]).update(
                campaign=None)
            for _ in range(sessions):
                SessionFactory(campaign=campaign)
            for character in characters:  # a long XP ledger each
                for _ in range(sessions):
                    XpEntryFactory(character=character, xp_change=1)
            path = reverse("campaigns:detail", args=[campaign.pk])
            for who, user in (("imp", imp), ("player", characters[0].owner)):
                client.force_login(user)
                counts[f"{who}, {n} characters, {sessions} sessions, page"] = count_queries(
                    client, path)
                counts[f"{who}, {n} characters, {sessions} sessions, poll"] = count_queries(
                    client, path, HTTP_HX_REQUEST="true")
    for who in ("imp", "player"):
        for kind in ("page", "poll"):
            assert_flat({k: v for k, v in counts.items()
                         if k.startswith(who) and k.endswith(kind)})


def test_a_mettle_dashboard_is_flat_in_the_party(client):
    """METTLE Core's sheets read their gear lines (with the weapons' rows), the Credit
    ledger and the raises bought in play: GameSystem.for_sheets loads them with the party,
    so the Guide's dashboard costs the same for 2, 4 and 8 characters, each with weapons,
    gear, a Credit purchase and a raise."""
    from campaigns import services
    from characters.systems.mettle import inventory
    from characters.systems.mettle.models import MettleCharacter
    from tests.characters.systems.mettle.helpers import make_viktor
    from tests.factories import UserFactory

    guide = UserFactory()
    campaign = services.campaign_create(owner=guide, name="Saint Vitus", system="mettle-core")
    path = reverse("campaigns:detail", args=[campaign.pk])
    counts, made = {}, 0
    for n in PARTIES:
        while made < n:
            player = UserFactory()
            invitation = services.invitation_create(campaign=campaign, by=guide)
            services.invitation_accept(code=invitation.code, user=player)
            viktor = make_viktor(player, name=f"Viktor {made}")
            services.character_join(campaign=campaign, character=viktor, by=player)
            inventory.item_buy(character=MettleCharacter.objects.get(pk=viktor.pk),
                               by=player, key="Armour:Medium (Chain)")
            XpEntryFactory(character=viktor, xp_change=3)
            made += 1
        client.force_login(guide)
        counts[f"{n} characters, page"] = count_queries(client, path)
    assert_flat(counts)
