"""The encounter tracker (campaigns/systems/encounters/): the ledger and its undo, the
Guide's page walking three rounds of a four-combatant fight, the players' live view,
the calculators, who may do what, and hostile input."""

import re

import pytest
from django.urls import reverse

from campaigns.services import CampaignError
from campaigns.systems.encounters import tracker
from campaigns.systems.encounters.models import SeedEncounter, SeedEncounterStep
from characters.models import Character
from characters.systems.encounters import services as character_services
from characters.systems.encounters.apps import KEY
from characters.systems.encounters.demo import BRAM, SABLE
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    """A campaign of these rules: its Guide, Sable's and Bram's players with them."""
    campaign = CampaignFactory(system=KEY, settings={"skill_roll": "2d6+skill"})
    players = []
    for build in (SABLE, BRAM):
        player = MembershipFactory(campaign=campaign).user
        character = character_services.character_create(owner=player, data=build)
        Character.objects.filter(pk=character.pk).update(campaign=campaign)
        players.append((player, character))
    return campaign, players


def url(name, encounter, **extra):
    return reverse(f"campaigns:encounters_{name}", args=[encounter.campaign_id, encounter.pk])


class Guide:
    """The Guide's browser: each step posted with the page's version."""

    def __init__(self, client, encounter):
        self.client, self.encounter = client, encounter

    def post(self, kind, expect=302, **fields):
        self.encounter.refresh_from_db()
        response = self.client.post(url("step", self.encounter), {
            "version": self.encounter.version, "kind": kind, **fields})
        assert response.status_code == expect, response.content.decode()[-2000:]
        return response

    def page(self) -> str:
        return self.client.get(url("tracker", self.encounter)).content.decode()

    def state(self):
        return tracker.state_of(self.encounter)


def keys(encounter, players):
    sable, bram = (tracker.character_key(c.pk) for _, c in players)
    state = tracker.state_of(encounter)
    foes = {f.name: f.key for f in state.fighters if f.combatant.side != "party"}
    return sable, bram, foes.get("Ghoul"), foes.get("Cultist")


@pytest.fixture
def fight(client, table):
    campaign, players = table
    client.force_login(campaign.owner)
    response = client.post(reverse("campaigns:encounters_list", args=[campaign.pk]),
                           {"name": "Crypt"})
    encounter = SeedEncounter.objects.get()
    assert response.status_code == 302 and response.url == encounter.get_absolute_url()
    guide = Guide(client, encounter)
    guide.post("add", name="Ghoul", side="foes", quickness="3", command="0",
               strength="4", willpower="1", stamina_max="6", health_max="8",
               sanity_max="3", load="0")
    guide.post("add", name="Cultist", side="foes", quickness="1", command="4",
               strength="1", willpower="4", stamina_max="5", health_max="6",
               sanity_max="6", load="0")
    return guide, players


def test_a_new_encounter_opens_with_the_settings_and_the_party(table, imp=None):
    campaign, players = table
    encounter = tracker.encounter_create(campaign=campaign, by=campaign.owner, name="Crypt")
    kinds = list(encounter.steps.values_list("kind", flat=True))
    assert kinds == ["configure", "add", "add"]
    state = tracker.state_of(encounter)
    assert {f.name for f in state.fighters} == {"Sable", "Bram"}
    assert state.fighter(tracker.character_key(players[0][1].pk)).combatant.quickness == 6


def test_three_rounds_of_a_four_combatant_fight(fight, client, table):
    guide, players = fight
    sable, bram, ghoul, cultist = keys(guide.encounter, players)
    guide.post("start")
    # Round 1: Initiative, typed (Bram's rolled with the campaign's formula, dice shown).
    guide.post("initiative", key=sable, mode="maneuver", roll="12")
    guide.post("rolled", key=bram, mode="concentrate")
    rolled = guide.state().fighter(bram).turn
    assert rolled.dice and 8 <= rolled.roll <= 18  # 2d6 + Command 6
    assert f'data-dice>{rolled.dice}<' in guide.page().replace("&#x27;", "'")
    guide.post("initiative", key=bram, mode="concentrate", roll="9")
    guide.post("initiative", key=ghoul, mode="maneuver", roll="10")
    guide.post("initiative", key=cultist, mode="concentrate", roll="7")
    # Declaring: a haste, a run before an attack.
    guide.post("declare", key=sable, items="haste\nmajor physical strike")
    guide.post("declare", key=ghoul, items="run 15\nmajor physical bite")
    guide.post("declare", key=bram, items="major mental ward")
    guide.post("declare", key=cultist, items="major mental curse")
    page = guide.page()
    assert "haste x1" in page and "Skill penalty <b data-penalty>-2</b>" in page
    guide.post("begin_actions")
    queue = [(e.actor, e.initiative) for e in guide.state().queue()]
    assert queue == [(sable, 14), (ghoul, 10), (bram, 9), (ghoul, 8), (cultist, 7),
                     (ghoul, 6)]
    guide.post("take", key=sable)
    guide.post("take", key=ghoul)  # the first 10 yards
    guide.post("wait", key=bram)
    # Bram (9) steps in between the Ghoul's two movement actions (8).
    assert "Step in now" in guide.page()
    guide.post("step_in", key=bram)
    guide.post("take", key=bram)
    guide.post("take", key=ghoul)
    # The Ghoul bites the Cultist before its turn: a physical defence from a
    # concentrating combatant aborts its curse.
    guide.post("defend", key=cultist, skill="physical")
    assert guide.state().fighter(cultist).turn.aborted
    guide.post("take", key=ghoul)
    guide.post("damage", key=cultist, track="health", amount="2")
    guide.post("end_actions")
    guide.post("recover")
    assert guide.state().round == 2
    # Round 2: Sable pushes a Stamina hit, waits and holds over; the rest act.
    for key, mode, roll in ((sable, "maneuver", "11"), (bram, "concentrate", "8"),
                            (ghoul, "maneuver", "9"), (cultist, "concentrate", "5")):
        guide.post("initiative", key=key, mode=mode, roll=roll)
    for key, items in ((sable, "major physical strike"), (bram, "major mental ward"),
                       (ghoul, "major physical bite"), (cultist, "major mental curse")):
        guide.post("declare", key=key, items=items)
    guide.post("push", key=sable, hits="1")
    guide.post("begin_actions")
    guide.post("wait", key=sable)
    guide.post("hold", key=sable)
    for key in (ghoul, bram, cultist):
        guide.post("take", key=key)
    guide.post("end_actions")
    page = guide.page()
    assert "A Stamina hit back for: Sable" in page
    guide.post("recover")
    state = guide.state()
    assert state.round == 3 and state.fighter(sable).combatant.stamina == 8
    # Round 3: the held-over Sable needs no roll and goes first.
    guide.post("initiative", key=sable, mode="maneuver")
    for key, mode, roll in ((bram, "concentrate", "15"), (ghoul, "maneuver", "14"),
                            (cultist, "concentrate", "3")):
        guide.post("initiative", key=key, mode=mode, roll=roll)
    for key, items in ((sable, "strike"), (bram, "ward"), (ghoul, "bite"),
                       (cultist, "curse")):
        guide.post("declare", key=key, items=items)
    guide.post("begin_actions")
    assert guide.state().queue()[0].actor == sable
    # The players' view follows: the order, and only their own numbers.
    player, character = players[0]
    client.force_login(player)
    live = client.get(url("tracker", guide.encounter), HTTP_HX_REQUEST="true")
    body = live.content.decode()
    assert live.status_code == 200 and 'id="live"' in body and "<html" not in body
    assert "Sable: strike" in body and 'data-own="' + sable + '"' in body
    assert 'data-own="' + bram + '"' not in body and "Undo" not in body
    etag = live["ETag"]
    again = client.get(url("tracker", guide.encounter), HTTP_HX_REQUEST="true",
                       HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    client.force_login(guide.encounter.campaign.owner)
    guide.post("take", key=sable)
    client.force_login(player)
    moved = client.get(url("tracker", guide.encounter), HTTP_HX_REQUEST="true",
                       HTTP_IF_NONE_MATCH=etag)
    assert moved.status_code == 200
    client.force_login(guide.encounter.campaign.owner)
    guide.post("end")
    assert SeedEncounter.objects.get().finished


def test_undo_marks_the_latest_step_and_the_state_follows(fight):
    guide, players = fight
    sable, *_ = keys(guide.encounter, players)
    guide.post("start")
    guide.post("initiative", key=sable, mode="maneuver", roll="12")
    version = SeedEncounter.objects.get().version
    response = guide.client.post(url("undo", guide.encounter), {"version": version})
    assert response.status_code == 302
    last = SeedEncounterStep.objects.order_by("-seq").first()
    assert last.kind == "initiative" and last.undone_at and last.undone_by == \
        guide.encounter.campaign.owner
    assert guide.state().fighter(sable).turn.roll is None
    assert "undone by" in guide.page()
    # A stale page's undo is refused, changing nothing.
    guide.client.post(url("undo", guide.encounter), {"version": version})
    assert SeedEncounterStep.objects.filter(undone_at__isnull=False).count() == 1


def test_the_opening_configure_cannot_be_undone(table):
    campaign, _ = table
    encounter = tracker.encounter_create(campaign=campaign, by=campaign.owner, name="X")
    SeedEncounterStep.objects.filter(kind="add").delete()
    with pytest.raises(CampaignError):
        tracker.undo(encounter_id=encounter.pk, version=None, by=campaign.owner)


@pytest.mark.parametrize(("kind", "fields", "field", "words"), [
    ("declare", {"items": "run 15\nrun 15\nrun 15"}, "items", "At most 4 movement"),
    ("declare", {"items": "major mental ward"}, "items", "physical skills only"),
    ("declare", {"items": "run"}, "items", "needs the yards"),
    ("declare", {"items": ""}, "items", "at least one action"),
    ("initiative", {"mode": "maneuver", "roll": "lots"}, "roll", "whole number"),
    ("initiative", {"mode": "dance", "roll": "3"}, "mode", "mode is one of"),
    ("initiative", {"mode": "maneuver", "roll": "9" * 40}, "roll", "whole number"),
    ("damage", {"track": "luck", "amount": "2"}, "track", ""),
    ("damage", {"track": "health", "amount": "-3"}, "amount", ""),
    ("push", {"hits": "99"}, "hits", "Only 8 Stamina"),
])
def test_a_refused_step_is_said_beside_its_field_and_keeps_what_was_typed(
        fight, kind, fields, field, words):
    guide, players = fight
    sable, *_ = keys(guide.encounter, players)
    guide.post("start")
    if kind in ("declare", "damage", "push"):
        guide.post("initiative", key=sable, mode="maneuver", roll="12")
    before = SeedEncounterStep.objects.count()
    response = guide.post(kind, expect=400, key=sable, **fields)
    body = response.content.decode()
    assert re.search(rf'data-error="{field}">[^<]*{re.escape(words)}', body), body[-3000:]
    assert SeedEncounterStep.objects.count() == before
    if kind == "declare" and fields["items"]:
        assert fields["items"].split("\n")[0] in body


def test_adding_a_foe_with_bad_numbers_keeps_them(fight):
    guide, _ = fight
    response = guide.post("add", expect=400, name="Wight", side="foes", quickness="x",
                          command="2", strength="", willpower="", stamina_max="",
                          health_max="", sanity_max="", load="")
    body = response.content.decode()
    assert 'data-error="quickness"' in body and 'value="Wight"' in body
    assert 'name="quickness" inputmode="numeric" value="x"' in body


def test_the_calculators_show_their_arithmetic(fight):
    guide, _ = fight
    calc = url("calculate", guide.encounter)
    cases = [({"calc": "pace", "load": "50"}, "10 x (1 - 50/100) = 5 yd"),
             ({"calc": "push", "strength": "3", "willpower": "2", "stamina": "5",
               "hits": "2"}, "Strength 3 + 2 = 5"),
             ({"calc": "range", "distance": "25", "increment": "missile"},
              "challenge 3 - 1 = 2"),
             ({"calc": "range", "distance": "25", "increment": "7", "defence": "4"},
              "defence 4 + 3 = 7"),
             ({"calc": "range", "distance": "25", "increment": "thrown",
               "increment_yards": "1"}, "25 yd at 1 yd per increment")]
    for query, words in cases:
        response = guide.client.get(calc, query, HTTP_HX_REQUEST="true")
        body = response.content.decode()
        assert response.status_code == 200 and words in body and 'id="calc-result"' in body
    refused = guide.client.get(calc, {"calc": "charge", "yards": "40"}).content.decode()
    assert "not used in this campaign" in refused
    bad = guide.client.get(calc, {"calc": "pace", "load": "101"}).content.decode()
    assert 'data-error="load"' in bad


def test_a_stale_click_is_refused_and_changes_nothing(fight):
    guide, players = fight
    sable, *_ = keys(guide.encounter, players)
    response = guide.client.post(url("step", guide.encounter),
                                 {"version": "0", "kind": "start"})
    assert response.status_code == 302
    assert guide.state().phase == "setup"


PAGES = [("list", "get"), ("tracker", "get"), ("step", "post"), ("undo", "post"),
         ("calculate", "get")]


def page_url(name, encounter):
    if name == "list":
        return reverse("campaigns:encounters_list", args=[encounter.campaign_id])
    return url(name, encounter)


@pytest.mark.parametrize(("name", "method"), PAGES)
def test_anonymous_users_go_to_the_login(client, table, name, method):
    campaign, _ = table
    encounter = tracker.encounter_create(campaign=campaign, by=campaign.owner, name="X")
    response = getattr(client, method)(page_url(name, encounter))
    assert response.status_code == 302 and "/login/" in response.url


@pytest.mark.parametrize(("name", "method"), PAGES)
def test_a_stranger_finds_nothing(client, table, name, method):
    campaign, _ = table
    encounter = tracker.encounter_create(campaign=campaign, by=campaign.owner, name="X")
    client.force_login(UserFactory())
    response = getattr(client, method)(page_url(name, encounter), {"kind": "start"})
    assert response.status_code == 404
    assert SeedEncounterStep.objects.count() == 3


@pytest.mark.parametrize(("name", "method", "status"), [
    ("list", "get", 200), ("tracker", "get", 200), ("calculate", "get", 200),
    ("step", "post", 403), ("undo", "post", 403), ("list", "post", 403)])
def test_a_player_reads_but_does_not_write(client, table, name, method, status):
    campaign, players = table
    encounter = tracker.encounter_create(campaign=campaign, by=campaign.owner, name="X")
    client.force_login(players[0][0])
    response = getattr(client, method)(page_url(name, encounter), {"kind": "start",
                                                                   "name": "Y"})
    assert response.status_code == status
    assert SeedEncounterStep.objects.count() == 3 and SeedEncounter.objects.count() == 1


def test_a_co_guide_runs_it(client, table):
    campaign, _ = table
    co = MembershipFactory(campaign=campaign, role="co_imp").user
    encounter = tracker.encounter_create(campaign=campaign, by=campaign.owner, name="X")
    client.force_login(co)
    response = client.post(url("step", encounter), {"version": encounter.version,
                                                    "kind": "start"})
    assert response.status_code == 302 and tracker.state_of(encounter).round == 1


def test_another_systems_campaign_has_no_encounter_pages(client):
    campaign = CampaignFactory()
    client.force_login(campaign.owner)
    response = client.get(reverse("campaigns:encounters_list", args=[campaign.pk]))
    assert response.status_code == 404


def test_an_encounter_of_another_campaign_is_404(client, table):
    campaign, _ = table
    other = CampaignFactory(system=KEY, owner=campaign.owner)
    encounter = tracker.encounter_create(campaign=other, by=campaign.owner, name="X")
    client.force_login(campaign.owner)
    response = client.get(reverse("campaigns:encounters_tracker",
                                  args=[campaign.pk, encounter.pk]))
    assert response.status_code == 404


HOSTILE = ["", "\x00", "7" * 400, "-1e9", "<script>alert(1)</script>", "NaN", "٣", "1.5",
           "🙂" * 50]


@pytest.mark.parametrize("value", HOSTILE)
@pytest.mark.parametrize("field", ["kind", "key", "mode", "roll", "bonus", "items",
                                   "skill", "track", "amount", "hits", "character",
                                   "name", "quickness", "load"])
def test_hostile_input_is_refused_never_a_500(fight, field, value):
    guide, players = fight
    sable, *_ = keys(guide.encounter, players)
    guide.post("start")
    for kind in ("add", "add_party", "initiative", "rolled", "declare", "defend", "damage",
                 "push", "take"):
        guide.encounter.refresh_from_db()
        data = {"version": guide.encounter.version, "kind": kind, "key": sable,
                "mode": "maneuver", "roll": "5", "items": "strike", "skill": "physical",
                "track": "health", "amount": "1", "hits": "1", "name": "Foe",
                field: value}
        response = guide.client.post(url("step", guide.encounter), data)
        assert response.status_code in (302, 400), (kind, response.status_code)
        assert "<script>alert(1)</script>" not in response.content.decode()
    for query in ({"calc": "pace", "load": value}, {"calc": value},
                  {"calc": "range", "distance": value, "increment": value}):
        assert guide.client.get(url("calculate", guide.encounter),
                                query).status_code == 200


def test_the_campaign_page_links_the_encounters(client, table):
    campaign, _ = table
    client.force_login(campaign.owner)
    body = client.get(campaign.get_absolute_url()).content.decode()
    assert reverse("campaigns:encounters_list", args=[campaign.pk]) in body


def test_the_demo_campaign_has_an_encounter_ready_to_run():
    from django.core.management import call_command

    from campaigns.models import Campaign
    from campaigns.systems.encounters.demo import CAMPAIGN_NAME, FIGHT_NAME

    call_command("seed_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    call_command("seed_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    campaign = Campaign.objects.get(name=CAMPAIGN_NAME)
    assert campaign.system == KEY and campaign.owner.username == "imp"
    encounter = SeedEncounter.objects.get(campaign=campaign)
    state = tracker.state_of(encounter)
    assert encounter.name == FIGHT_NAME and state.phase == "setup"
    assert {f.name for f in state.fighters} == {"Sable", "Bram", "Ghoul", "Cultist"}


def test_round_zero_with_a_surprised_side(fight):
    guide, players = fight
    sable, bram, ghoul, cultist = keys(guide.encounter, players)
    guide.post("start", round_zero="on", initiators=[ghoul], surprised=["party"])
    state = guide.state()
    assert state.round == 0 and "completely surprised" in guide.page()
    # The initiator acts without rolling; the surprised may not even defend.
    guide.post("initiative", key=ghoul, mode="maneuver")
    guide.post("declare", key=ghoul, items="bite")
    guide.post("initiative", key=cultist, mode="concentrate")
    guide.post("begin_actions")
    assert [e.actor for e in guide.state().queue()] == [ghoul]
    response = guide.post("defend", expect=400, key=sable, skill="physical")
    assert re.search(r'data-error="skill">[^<]*not even a defence', response.content.decode())


def test_a_refused_start_is_said_on_the_page(fight):
    guide, _ = fight
    response = guide.post("start", expect=400, round_zero="on")
    assert 'data-error="initiators"' in response.content.decode()


@pytest.mark.parametrize(("name", "status"), [("", 400), ("\x00", 400), ("N" * 121, 400),
                                              ("<script>alert(1)</script>", 302),
                                              ("Mill\x00race", 302)])
def test_naming_an_encounter(client, table, name, status):
    campaign, _ = table
    client.force_login(campaign.owner)
    response = client.post(reverse("campaigns:encounters_list", args=[campaign.pk]),
                           {"name": name})
    assert response.status_code == status
    assert "<script>alert(1)</script>" not in response.content.decode()
    if status == 400:
        assert "Name the encounter" in response.content.decode()
        assert not SeedEncounter.objects.exists()
    else:
        assert "\x00" not in SeedEncounter.objects.get().name


def test_the_live_view_poll_that_finds_nothing_new_costs_3_queries_flat(client, fight):
    """A player's poll answers 304 in 3 queries (the session, the user, the role with the
    encounter's version), with a short log as with a long one (campaigns.polling)."""
    from tests.campaigns.test_poll_queries import assert_304_costs, count_304

    guide, players = fight
    player = players[0][0]
    counts = {}
    client.force_login(player)
    counts["short log"] = count_304(client, url("tracker", guide.encounter))
    client.force_login(guide.encounter.campaign.owner)
    for _ in range(10):
        guide.post("add", name="Rat", side="foes", quickness="1", command="0",
                   strength="1", willpower="1", stamina_max="2", health_max="2",
                   sanity_max="1", load="0")
    client.force_login(player)
    counts["long log"] = count_304(client, url("tracker", guide.encounter))
    assert_304_costs("seed 004 encounter live", counts)


# -- a long ledger pages (issue 12) ---------------------------------------------------------


def ledger_steps(html: str) -> list[str]:
    ledger = html[html.index('id="ledger-heading"'):]
    return re.findall(r'<li data-step="(\w+)"', ledger[:ledger.index("</section>")])


def test_a_long_ledger_shows_a_page_and_links_older(fight, client, monkeypatch):
    from campaigns.systems.encounters import views

    guide, players = fight
    seqs = list(guide.encounter.steps.order_by("-seq").values_list("seq", flat=True))
    assert len(seqs) == 5
    monkeypatch.setattr(views, "LEDGER_SHOWN", 2)
    page = guide.page()
    assert ledger_steps(page) == ["add", "add"]
    assert f'href="{guide.encounter.get_absolute_url()}?before={seqs[1]}#ledger"' in page
    second = client.get(url("tracker", guide.encounter), {"before": seqs[1]}).content.decode()
    assert ledger_steps(second) == ["add", "add"] and "data-pager-older" in second
    last = client.get(url("tracker", guide.encounter), {"before": seqs[3]}).content.decode()
    assert ledger_steps(last) == ["configure"] and "data-pager-older" not in last
    for junk in ("xyz", "-1", "99999999999999999999999", "²", ""):
        response = client.get(url("tracker", guide.encounter), {"before": junk})
        assert response.status_code == 200 and len(ledger_steps(response.content.decode())) == 2
    # The players see no ledger, paged or not.
    client.force_login(players[0][0])
    assert 'id="ledger-heading"' not in client.get(
        url("tracker", guide.encounter), {"before": seqs[1]}).content.decode()


# -- what the tracker's page and the live view's answer cost (issue 12) -----------------------


def seat_more(campaign, count):
    """`count` more players at the table, each with a character of these rules."""
    for _ in range(count):
        player = MembershipFactory(campaign=campaign).user
        character = character_services.character_create(owner=player, data=SABLE)
        Character.objects.filter(pk=character.pk).update(campaign=campaign)


def test_the_trackers_page_and_live_view_cost_7_queries_flat(client, table):
    """The Guide's page: the session, the user, the membership, the encounter, its live
    steps, the ledger's page of steps and the campaign's characters (the party to add, and
    the Guide's own among them); a player's live view (a 200: something new) reads its
    own characters' keys instead of the ledger and the party. The same for a party of 2
    and of 6, with a short and a long history."""
    from tests.campaigns.test_poll_queries import assert_flat, count_queries

    campaign, players = table
    pages, live = {}, {}

    def count(label):
        encounter = SeedEncounter.objects.get()
        client.force_login(campaign.owner)
        pages[label] = count_queries(client, url("tracker", encounter))
        client.force_login(players[0][0])
        live[label] = count_queries(client, url("tracker", encounter), HTTP_HX_REQUEST="true",
                                    HTTP_HX_TARGET="live")

    encounter = tracker.encounter_create(campaign=campaign, by=campaign.owner, name="Crypt")
    count("party of 2, short history")
    guide = Guide(client, encounter)
    client.force_login(campaign.owner)
    for _ in range(12):
        guide.post("add", name="Rat", side="foes", quickness="1", command="0",
                   strength="1", willpower="1", stamina_max="2", health_max="2",
                   sanity_max="1", load="0")
    count("party of 2, long history")
    seat_more(campaign, 4)
    client.force_login(campaign.owner)
    guide.post("add_party", character=str(Character.objects.filter(
        campaign=campaign).order_by("-pk").first().pk))
    count("party of 6, long history")
    assert_flat(pages)
    assert_flat(live)
    assert next(iter(pages.values()))[0] == 7
    assert next(iter(live.values()))[0] == 7
