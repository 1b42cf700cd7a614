"""manage.py loadtest end to end, at a tiny size and for a few seconds: the throwaway
database (SQLite, or PostgreSQL when DATABASE_URL names one), the seed, the production
server, Locust, and a JSON report with every endpoint of the night beside the bare view."""

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

NIGHT = {
    "POST preview (typing)", "POST bare view", "GET bare view", "GET dashboard poll",
    "GET session log poll", "GET initiative poll (player)", "GET roll log poll (player)",
    "GET character page", "GET play page", "GET builder page", "POST check",
    "GET session page", "POST ritual turn", "GET sheet PDF", "GET party PDF",
    # Every game's pages: METTLE Core's builder, its live preview and its sheet.
    "GET builder page (METTLE Core)", "POST preview (typing, METTLE Core)",
    "GET character page (METTLE Core)",
    # METTLE Core's table (issue #13): the Guide's dashboard, screen and session roll log,
    # a player's Initiative view, the Play page's live odds and its Check.
    "GET dashboard poll (METTLE Core)", "GET Guide's screen poll (METTLE Core)",
    "GET session log poll (METTLE Core)", "GET initiative poll (player, METTLE Core)",
    "GET play page (METTLE Core)", "POST check odds (METTLE Core)",
    "POST check (METTLE Core)",
    # Errant's (issue #12: every game's pages): its builder, live preview and sheet; at its
    # table the Guide's session roll log, the Company page, two players' Play page (the
    # live odds and the Check).
    "GET builder page (Errant)", "POST preview (typing, Errant)",
    "GET character page (Errant)", "GET session log poll (Errant)",
    "GET Company page (Errant)", "GET play page (Errant)", "POST check odds (Errant)",
    "POST check (Errant)",
    # The seed-004 encounter rules': its builder, live preview and sheet; at its table a
    # player's live view of the encounter under way and the Guide's tracker page.
    "GET builder page (encounters)", "POST preview (typing, encounters)",
    "GET character page (encounters)", "GET encounter poll (player, encounters)",
    "GET tracker page (encounters)",
}
# The Errant Turn log's poll, when the site has `campaigns:errant_turn_log` (another part of
# the Errant table): the night adapts.
TURN_LOG = "GET Turn log poll (Errant)"


@pytest.mark.load
def test_a_tiny_night_reports_every_endpoint_beside_the_bare_view():
    out = StringIO()
    # Four campaigns, one of each game's (each other game's share, at least one); 16
    # characters: 4 METTLE Core's (--mettle-share 0.25, the default), 3 Errant's and 3
    # of the encounter rules' (0.2 each, so that their tables seat two players).
    tiny = {"users": 7, "characters": 16, "campaigns": 4, "party": 2, "sessions": 2,
            "items-min": 1, "items-max": 3, "rolls-per-session": 1, "rolls-tonight": 3,
            "errant-share": 0.2, "encounters-share": 0.2,
            "steps": 1, "step-typists": 2, "step-tables": 1, "step-seconds": 10, "warmup": 0,
            "workers": 3}
    options = [part for key, value in tiny.items() for part in (f"--{key}", str(value))]
    call_command("loadtest", *options, "--seed-cache", "", "--json", stdout=out)
    result = json.loads(out.getvalue())

    [step] = result["steps"]
    endpoints = step["endpoints"]
    night = NIGHT | ({TURN_LOG} if step["turn_log"] else set())
    assert step["turn_log"] == _has_turn_log()
    assert set(endpoints) >= night, night - set(endpoints)
    assert step["turn_log"] or TURN_LOG not in endpoints
    for name in night:
        assert endpoints[name]["served"] > 0, name
        assert endpoints[name]["errors"] == 0, (name, endpoints[name]["error_examples"])
        # Measured in the server (Server-Timing): CPU and queries, beside the bare view.
        assert endpoints[name]["cpu_ms"] > 0, name
        assert endpoints[name]["queries"] >= 1, name
        assert endpoints[name]["cpu_x_bare"] is not None, name
    assert endpoints["POST preview (typing)"]["offered"] >= endpoints[
        "POST preview (typing)"]["served"]
    for key in ("p50", "p95", "p99", "max"):
        assert endpoints["GET bare view"][key] >= 0
    assert set(result["held"]) == {"typists", "tables"}
    # A step of one table opens one of each game's; each game's builder has a typist.
    assert (step["tables"], step["open_tables"]) == (1, 4)
    assert step["tables_by_game"] == {"eldritch_gambit": 1, "mettle": 1, "errant": 1,
                                      "encounters": 1}
    assert all(step["typists_by_game"].values()), step["typists_by_game"]


def _has_turn_log() -> bool:
    from django.urls import NoReverseMatch, reverse

    try:
        reverse("campaigns:errant_turn_log", args=[1])
    except NoReverseMatch:
        return False
    return True


def test_the_mettle_share_of_the_campaigns_and_of_each_steps_tables():
    """The seed's METTLE campaigns: their share, at least one of two or more, never all;
    a step's open tables: the share of them METTLE's, at least one of each game."""
    from campaigns.loadtest.night import table_split
    from campaigns.loadtest.seed import mettle_campaigns

    assert [mettle_campaigns(n, 0.25) for n in (1, 2, 4, 10)] == [0, 1, 1, 2]
    assert mettle_campaigns(10, 0) == 0
    assert mettle_campaigns(3, 0.9) == 2  # the first campaign stays Eldritch Gambit's
    world = {"mettle_share": 0.25, "tables": [{}], "mettle_tables": [{}]}

    def split(world, n):
        tables = table_split(world, n)
        return tables["eldritch_gambit"], tables["mettle"]

    assert [split(world, n) for n in (0, 1, 2, 4, 8)] == [
        (0, 0), (1, 1), (1, 1), (3, 1), (6, 2)]
    assert split({**world, "mettle_tables": []}, 4) == (4, 0)
    assert split({"tables": [{}]}, 2) == (2, 0)  # a world seeded before METTLE tables


def test_each_step_opens_every_games_tables_and_types_in_every_games_builder():
    """Every game seeded has at least one open table and one typist at each step; the
    shares of the rest follow the seed's."""
    from campaigns.loadtest.night import game_clients, table_split

    world = {"tables": [{}], "characters": [{}]}
    for game, share in (("mettle", 0.25), ("errant", 0.15), ("encounters", 0.1)):
        world |= {f"{game}_share": share, f"{game}_tables": [{}],
                  f"{game}_characters": [{}]}
    assert table_split(world, 1) == {"eldritch_gambit": 1, "mettle": 1, "errant": 1,
                                     "encounters": 1}
    assert table_split(world, 20) == {"eldritch_gambit": 10, "mettle": 5, "errant": 3,
                                      "encounters": 2}
    assert game_clients(world, typists=2, tables=1) == {
        "eldritch_gambit": (1, 0), "mettle": (1, 1), "errant": (1, 1), "encounters": (1, 1)}
    assert game_clients(world, typists=100, tables=20) == {
        "eldritch_gambit": (50, 0), "mettle": (25, 5), "errant": (15, 3),
        "encounters": (10, 2)}
    assert game_clients(world, typists=0, tables=0)["errant"] == (0, 0)
    # A game without characters or tables (an older world): none of its tabs.
    older = {k: v for k, v in world.items() if not k.startswith("errant")}
    assert table_split(older, 4)["errant"] == 0
    assert game_clients(older, typists=10, tables=4)["errant"] == (0, 0)


@pytest.mark.django_db
def test_the_seed_plays_a_mettle_campaign_through_its_services():
    """The seed's METTLE Core table: its Guide's campaign of METTLE characters, sessions
    whose logs hold METTLE Checks (the one under way too), and a fight under way."""
    from campaigns.loadtest.seed import Sizes, seed
    from campaigns.models import Campaign
    from campaigns.systems.mettle.encounters import MettleEncounter
    from campaigns.systems.mettle.rolls import MettleRoll
    from characters.systems.mettle.apps import KEY

    world = seed(Sizes(users=4, characters=8, campaigns=2, party=2, sessions=2, items_min=1,
                       items_max=2, rolls_per_session=1, rolls_tonight=3))

    [table] = world["mettle_tables"]
    assert [t["campaign"] for t in world["tables"]] != [table["campaign"]]
    campaign = Campaign.objects.get(pk=table["campaign"])
    assert campaign.system == KEY and campaign.owner.username == table["imp"]
    party = {p["character"] for p in table["players"]}
    assert party and party <= {c["character"] for c in world["mettle_characters"]}
    assert set(campaign.characters.values_list("pk", flat=True)) == party
    rolls = MettleRoll.objects.filter(session__campaign=campaign, kind=MettleRoll.Kind.CHECK)
    assert rolls.filter(session__number=1).count() == 1
    assert rolls.filter(session__number=table["session"]).count() == 3
    encounter = MettleEncounter.objects.get(pk=table["encounter"], campaign=campaign)
    assert encounter.status == MettleEncounter.Status.RUNNING
    assert list(encounter.steps.order_by("number").values_list("kind", flat=True)) == [
        "trigger", "act"]
    # The characters in no campaign come first (the builder's typists take them first).
    seated = [c["character"] in party for c in world["mettle_characters"]]
    assert seated == sorted(seated)


def test_every_game_has_its_share_of_the_characters_and_at_least_one_campaign_of_four():
    from campaigns.loadtest.seed import campaigns_by_game, game_of_characters

    shares = {"mettle": 0.25, "errant": 0.15, "encounters": 0.1}
    games = game_of_characters(200, shares)
    assert {game: games.count(game) for game in set(games)} == {
        "mettle": 50, "errant": 30, "encounters": 20, "eldritch_gambit": 100}
    # The first characters: one of each other game, then Eldritch Gambit's.
    assert games[:4] == ["mettle", "errant", "encounters", "eldritch_gambit"]
    assert campaigns_by_game(10, shares) == {"mettle": 2, "errant": 2, "encounters": 1}
    assert campaigns_by_game(4, shares) == {"mettle": 1, "errant": 1, "encounters": 1}
    # Fewer campaigns: the first stays Eldritch Gambit's, the games in order take the rest.
    assert campaigns_by_game(2, shares) == {"mettle": 1, "errant": 0, "encounters": 0}
    assert campaigns_by_game(1, shares) == {"mettle": 0, "errant": 0, "encounters": 0}
    assert campaigns_by_game(10, {**shares, "errant": 0}) == {
        "mettle": 2, "errant": 0, "encounters": 1}


@pytest.mark.django_db
def test_the_seed_plays_an_errant_and_an_encounters_campaign_through_their_services():
    """The seed's Errant table: Errants with rolled Attributes and their kit, Checks in
    its sessions' logs (the one under way too), the Company's debt and Faction, Turns
    in its log with the Event Die rolled; its encounter-rules table: a fight under way,
    everyone's Initiative rolled."""
    from campaigns.loadtest.seed import Sizes, seed
    from campaigns.models import Campaign
    from campaigns.systems.encounters import tracker
    from campaigns.systems.encounters.models import SeedEncounter
    from campaigns.systems.errant import company
    from campaigns.systems.errant.rolls import ErrantRoll
    from campaigns.systems.errant.turn_models import ErrantTurn
    from characters.systems.errant.models import ErrantCharacter

    world = seed(Sizes(users=7, characters=16, campaigns=4, party=2, sessions=2,
                       items_min=1, items_max=3, rolls_per_session=1, rolls_tonight=3,
                       errant_share=0.2, encounters_share=0.2))

    assert [len(world[f"{game}tables"]) for game in ("", "mettle_", "errant_",
                                                      "encounters_")] == [1, 1, 1, 1]
    [errant] = world["errant_tables"]
    campaign = Campaign.objects.get(pk=errant["campaign"])
    assert campaign.system == "errant" and campaign.owner.username == errant["imp"]
    party = {p["character"] for p in errant["players"]}
    assert len(party) == 2 and party <= {c["character"] for c in world["errant_characters"]}
    for errant_character in ErrantCharacter.objects.filter(pk__in=party):
        assert len(errant_character.dice) == 4 and errant_character.items.exists()
    rolls = ErrantRoll.objects.filter(session__campaign=campaign)
    assert rolls.filter(session__number=1).count() == 1
    assert rolls.filter(session__number=errant["session"]).count() == 3
    the_company = company.company_of(campaign)
    assert company.debt(the_company) == 500 and the_company.factions.count() == 1
    turns = ErrantTurn.objects.filter(company=the_company)
    assert turns.count() == 8 and not turns.filter(event_face__isnull=True).exists()
    assert set(turns.values_list("kind", flat=True)) == {"travel", "exploration"}

    [table] = world["encounters_tables"]
    campaign = Campaign.objects.get(pk=table["campaign"])
    assert campaign.system == "encounters" and len(table["players"]) == 2
    encounter = SeedEncounter.objects.get(pk=table["encounter"], campaign=campaign)
    state = tracker.state_of(encounter)
    assert not encounter.finished and len(state.fighters) == 4  # the party and two foes
    kinds = list(tracker.live_steps(encounter).values_list("kind", flat=True))
    assert kinds.count("start") == 1 and kinds.count("initiative") == 4
    assert kinds.count("declare") == 4 and kinds[-1] == "begin_actions"
    assert state.phase == "action" and state.head()  # someone's turn: the order shows


def test_the_turn_log_poll_is_in_the_night_only_when_the_site_has_it(monkeypatch):
    """The seed writes the Errant Turn log's poll URL (the page polls the log alone, a
    conditional poll) when `campaigns:errant_turn_log` resolves
    for a campaign's id, None when there is no such URL (the night then has no Turn log
    tab), and stops on one it cannot reverse; the night reads it from the world."""
    from types import SimpleNamespace

    from campaigns.loadtest import seed
    from campaigns.loadtest.night import has_turn_log

    campaign = SimpleNamespace(pk=7)
    url = seed.turn_log_url(campaign)
    if _has_turn_log():
        assert url == reverse("campaigns:errant_turn_log", args=[7])
        assert url.endswith("/turns/log/")  # the page's poll, not the whole page
    else:
        assert url is None
        monkeypatch.setattr(seed, "TURN_LOG", "campaigns:errant_company")  # takes the id
        assert seed.turn_log_url(campaign) == "/campaigns/7/company/"
    monkeypatch.setattr(seed, "TURN_LOG", "campaigns:errant_session_log")  # id and number
    with pytest.raises(RuntimeError, match="does not take a campaign's id"):
        seed.turn_log_url(campaign)
    monkeypatch.setattr(seed, "TURN_LOG", "campaigns:no_such_page")
    assert seed.turn_log_url(campaign) is None
    assert has_turn_log({"errant_tables": [{"turns_url": "/t/"}, {"turns_url": "/u/"}]})
    assert not has_turn_log({"errant_tables": [{"turns_url": None}]})
    assert not has_turn_log({"errant_tables": []}) and not has_turn_log({})


@pytest.mark.parametrize("shares", [
    {"errant-share": "0.5", "encounters-share": "0.3"},  # with METTLE's 0.25: over 1
    {"encounters-share": "-0.1"},
    {"errant-share": "1"},
])
def test_the_games_shares_leave_eldritch_gambit_characters(shares):
    """The campaigns' tables need Eldritch Gambit characters: the shares of the other
    games are refused (before anything is made) when they leave none."""
    from django.core.management.base import CommandError

    options = [part for key, value in shares.items() for part in (f"--{key}", value)]
    with pytest.raises(CommandError, match="together under 1"):
        call_command("loadtest", *options, "--seed-cache", "")
