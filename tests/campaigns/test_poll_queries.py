"""Every polled endpoint runs a number of queries that does not grow with the party or
with the history: the Initiative tracker's page and its players' live view (polled every
2 s), the session's roll log and a character's roll log (every 2 s), and the campaign's
party dashboard (every 5 s). Each is counted for parties of 2, 4 and 8 and for a short
and a long history; the counts must be the same.

A poll that finds nothing new (304) costs POLL_304_QUERIES: Django's session row, the user
row and one query that checks who may see the page and reads its version
(campaigns.polling.members_of and member_row), whatever the party and the history;
POLL_304_QUERIES_OF names the polls that cost more, and why (the README's Benchmarks
section lists them): none now (the METTLE Guide's party card cost 4 until its gear lines
joined its characters' query)."""

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
POLL_304_QUERIES = 3
POLL_304_QUERIES_OF: dict[str, int] = {}


def count_queries(client, path: str, **headers) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path, **headers)
    assert response.status_code == 200
    return len(captured), "\n".join(q["sql"][:160] for q in captured.captured_queries)


def count_304(client, path: str, **headers) -> tuple[int, str]:
    """The queries of a poll that finds nothing new: a first poll for the ETag, then the
    same poll sending it back."""
    headers = {"HTTP_HX_REQUEST": "true", **headers}
    first = client.get(path, **headers)
    assert first.status_code == 200 and first["ETag"]
    with CaptureQueriesContext(connection) as captured:
        again = client.get(path, HTTP_IF_NONE_MATCH=first["ETag"], **headers)
    assert again.status_code == 304 and again.content == b""
    return len(captured), "\n".join(q["sql"][:160] for q in captured.captured_queries)


def assert_304_costs(endpoint: str, counts: dict) -> None:
    """counts: {label: (queries, SQL)} of the endpoint's 304s; all the documented number."""
    assert_flat(counts)
    expected = POLL_304_QUERIES_OF.get(endpoint, POLL_304_QUERIES)
    number, sql = next(iter(counts.values()))
    assert number == expected, f"{endpoint}: a 304 costs {number} queries:\n{sql}"


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
    """The Guide's dashboard costs the same for 2, 4 and 8 characters, each with gear, a
    Credit purchase and XP (METTLE Core's party table shows no sheet's number, so none
    is computed: test_only_a_party_table_that_shows_sheets_computes_them)."""
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


def test_only_a_party_table_that_shows_sheets_computes_them(client, campaign, imp, party):
    """The Imp's party table shows Eldritch Gambit's sheets (HP, WP, statuses: its
    ritual's "party_columns"); METTLE Core's and Errant's show only the generic columns,
    so their dashboards compute no sheet and read none of the gear and ledgers one needs
    (campaigns.views._party)."""
    from campaigns import services
    from tests.factories import UserFactory

    heroes = party(2)
    client.force_login(imp)
    response = client.get(reverse("campaigns:detail", args=[campaign.pk]),
                          HTTP_HX_REQUEST="true", HTTP_HX_TARGET="party-dashboard")
    assert response.content.decode().count('data-stat="hp_current"') == len(heroes)
    for system in ("mettle-core", "errant"):
        guide = UserFactory()
        other = services.campaign_create(owner=guide, name=system, system=system)
        if system == "mettle-core":
            mettle_party(other, guide, 2, 1)
        client.force_login(guide)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(reverse("campaigns:detail", args=[other.pk]),
                                  HTTP_HX_REQUEST="true", HTTP_HX_TARGET="party-dashboard")
        assert response.status_code == 200
        read = [q["sql"].split(" FROM ", 1)[1].split()[0] for q in queries.captured_queries
                if " FROM " in q["sql"]]
        assert not {'"characters_inventoryitem"', '"mettle_creditentry"',
                    '"mettle_attributeraise"', '"errant_erranttraining"'} & set(read), read


# --- what a poll that finds nothing new costs (304) ----------------------------------------
def eg_table(campaign, party, n: int) -> list:
    """A fresh party of n for the campaign (the others leave it)."""
    characters = party(n)
    campaign.characters.exclude(pk__in=[c.pk for c in characters]).update(campaign=None)
    return characters


def test_eldritch_gambit_polls_answer_304_in_3_queries_flat(client, campaign, imp, party):
    """The session's roll log, a character's roll log, the Initiative's live view (a
    player's, and the Imp's preview) and the party dashboard, for parties of 2, 4 and 8
    and a short and a long history."""
    counts = {name: {} for name in ("session log", "character log", "Initiative live",
                                    "Initiative preview", "party dashboard (Eldritch Gambit)")}
    for n in PARTIES:
        for history in (1, 30):
            if history == 30 and n != 4:
                continue
            characters = eg_table(campaign, party, n)
            session = SessionFactory(campaign=campaign)
            roll_history(characters, imp, history)
            for _ in range(history):
                XpEntryFactory(character=characters[0], xp_change=1)
            encounter = fight(campaign, imp, characters, history=history)
            label = f"{n} characters, history {history}"
            player = characters[0].owner
            for who, user in (("imp", imp), ("player", player)):
                client.force_login(user)
                counts["session log"][f"{who}, {label}"] = count_304(
                    client, reverse("campaigns:session_log",
                                    args=[campaign.pk, session.number]))
                counts["party dashboard (Eldritch Gambit)"][f"{who}, {label}"] = count_304(
                    client, reverse("campaigns:detail", args=[campaign.pk]),
                    HTTP_HX_TARGET="party-dashboard")
                counts["character log"][f"{who}, {label}"] = count_304(
                    client, reverse("characters:roll_log", args=[characters[0].pk]))
            client.force_login(player)
            counts["Initiative live"][label] = count_304(client, encounter.get_absolute_url())
            client.force_login(imp)
            counts["Initiative preview"][label] = count_304(
                client, encounter.get_absolute_url() + "?view=player")
    for endpoint, measured in counts.items():
        assert_304_costs(endpoint, measured)


def mettle_party(campaign, guide, n: int, history: int) -> list:
    """n METTLE characters in the campaign, each with armour bought and worn, and
    `history` Credit and XP entries."""
    from campaigns import services
    from characters.systems.mettle import inventory
    from characters.systems.mettle.models import CreditEntry, MettleCharacter
    from tests.characters.systems.mettle.helpers import make_viktor
    from tests.factories import UserFactory

    MettleCharacter.objects.filter(campaign=campaign).update(campaign=None)
    made = []
    for i in range(n):
        player = UserFactory()
        invitation = services.invitation_create(campaign=campaign, by=guide)
        services.invitation_accept(code=invitation.code, user=player)
        viktor = make_viktor(player, name=f"Viktor {i}")
        services.character_join(campaign=campaign, character=viktor, by=player)
        viktor = MettleCharacter.objects.get(pk=viktor.pk)
        bought = inventory.item_buy(character=viktor, by=player, key="Armour:Medium (Chain)")
        inventory.item_wear(character=viktor, item=bought.item)
        for _ in range(history):
            XpEntryFactory(character=viktor, xp_change=1)
            CreditEntry.objects.create(character=viktor, kind=CreditEntry.Kind.IMPORT,
                                       change=0, note="Imported", created_by=guide)
        made.append(viktor)
    return made


def test_mettle_polls_answer_304_in_few_queries_flat(client):
    """The Guide's party card (4 queries) and the session's roll log (3), for parties of
    2, 4 and 8 and a short and a long history."""
    from campaigns import services
    from campaigns.systems.mettle import roll_services
    from tests.campaigns.systems.mettle.test_checks import plain
    from tests.factories import UserFactory

    guide = UserFactory()
    campaign = services.campaign_create(owner=guide, name="Saint Vitus", system="mettle-core")
    card = reverse("campaigns:mettle_guide", args=[campaign.pk])
    counts = {"METTLE Guide's party card": {}, "METTLE session log": {}}
    for n in PARTIES:
        for history in (1, 20):
            if history == 20 and n != 4:
                continue
            party = mettle_party(campaign, guide, n, history)
            session = services.session_start(campaign=campaign, by=guide)
            for i in range(history):
                roll_services.make_check(character=party[i % n], by=guide, request=plain())
            label = f"{n} characters, history {history}"
            client.force_login(guide)
            counts["METTLE Guide's party card"][label] = count_304(
                client, card, HTTP_HX_TARGET="party")
            log = reverse("campaigns:mettle_session_log", args=[campaign.pk, session.number])
            counts["METTLE session log"][f"guide, {label}"] = count_304(client, log)
            client.force_login(party[0].owner)
            counts["METTLE session log"][f"player, {label}"] = count_304(client, log)
    for endpoint, measured in counts.items():
        assert_304_costs(endpoint, measured)


def test_errant_polls_answer_304_in_3_queries_flat(client):
    """The session's roll log, the Turn log, the Downtime log and the fight's live view,
    for parties of 2, 4 and 8 and a short and a long history, the Guide's and a
    player's."""
    from campaigns import services
    from campaigns.systems.errant import downtime, fight, roll_services, turns
    from characters.systems.errant.apps import KEY
    from tests.campaigns.systems.errant.test_checks import Faces, check
    from tests.campaigns.systems.errant.test_fight_views import NPC
    from tests.characters.systems.errant.helpers import make_wren
    from tests.factories import CampaignFactory, MembershipFactory

    counts = {name: {} for name in ("Errant session log", "Errant Turn log",
                                    "Errant Downtime log", "Errant fight live")}
    for n in PARTIES:
        for history in (1, 10):
            if history == 10 and n != 4:
                continue
            campaign = CampaignFactory(system=KEY)
            guide = campaign.owner
            wrens = []
            for i in range(n):
                player = MembershipFactory(campaign=campaign).user
                wren = make_wren(player, name=f"Wren {i}")
                services.character_join(campaign=campaign, character=wren, by=player)
                wrens.append(wren)
            session = services.session_start(campaign=campaign, by=guide)
            for i in range(history):
                roll_services.make_roll(character=wrens[i % n], by=guide, request=check(),
                                        rng=Faces(5))
                turn = turns.declare(campaign=campaign, kind="travel", by=guide,
                                     turn_of_day=1, secret={"navigation_dv": 12})
                turns.note(turn, "The Company is lost", character=wrens[i % n])
            downtime.start(campaign=campaign, by=guide, settlement="city")
            running = fight.start(campaign=campaign, by=guide, name="Bog",
                                  character_pks=[w.pk for w in wrens])
            for _ in range(history):
                running.refresh_from_db()
                fight.step(campaign=campaign, by=guide, fight_pk=running.pk,
                           version=running.version, kind="npc", payload=NPC)
            paths = {
                "Errant session log": reverse("campaigns:errant_session_log",
                                              args=[campaign.pk, session.number]),
                "Errant Turn log": reverse("campaigns:errant_turn_log", args=[campaign.pk]),
                "Errant Downtime log": reverse("campaigns:errant_downtime_log",
                                               args=[campaign.pk]),
                "Errant fight live": reverse("campaigns:errant_fight_live",
                                             args=[campaign.pk]),
            }
            for who, user in (("guide", guide), ("player", wrens[0].owner)):
                client.force_login(user)
                for endpoint, path in paths.items():
                    counts[endpoint][f"{who}, {n} characters, history {history}"] = (
                        count_304(client, path))
    for endpoint, measured in counts.items():
        assert_304_costs(endpoint, measured)


def test_no_304_for_those_who_may_not_see(client, campaign, imp, party):
    """The one query that answers a 304 also checks who asks: a stranger, a player who
    left the campaign and anyone logged out sending a member's ETag get what they got
    before (404, or the login page), never a 304."""
    from campaigns.models import Membership
    from tests.factories import UserFactory

    characters = eg_table(campaign, party, 2)
    session = SessionFactory(campaign=campaign)
    roll_history(characters, imp, 3)
    encounter = fight(campaign, imp, characters, history=2)
    player = characters[0].owner
    polls = [reverse("campaigns:session_log", args=[campaign.pk, session.number]),
             reverse("campaigns:detail", args=[campaign.pk]), encounter.get_absolute_url()]
    client.force_login(player)
    etags = {path: client.get(path, HTTP_HX_REQUEST="true")["ETag"] for path in polls}
    Membership.objects.filter(campaign=campaign, user=player).delete()
    for who in (UserFactory(), player, None):
        if who is None:
            client.logout()
        else:
            client.force_login(who)
        for path, etag in etags.items():
            response = client.get(path, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
            assert response.status_code == (302 if who is None else 404), (who, path)
