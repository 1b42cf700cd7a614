"""METTLE Core's Initiative tracker (issue #13): the Guide's pages with permissions for
every view (anonymous, a stranger, a player of the campaign, the Guide and a co-Guide),
hostile input answered beside the field, the rules at every step through the pages (PCs
win the argument, Split Actions, Defend, Wait, Reach, Surprise, Free Move, damage through
Soak with Staggered or Fallen), Undo, the end writing Mettle back, the live view's
conditional poll."""

import pytest
from django.urls import reverse

from campaigns import services
from campaigns.models import Role
from campaigns.systems.mettle import initiative as service
from campaigns.systems.mettle.encounters import (
    MettleCombatant,
    MettleEncounter,
    MettleInitiativeStep,
)
from characters.systems.mettle.apps import KEY
from characters.systems.mettle.inventory import legacy_gear, lines_of
from characters.systems.mettle.models import MettleCharacter
from characters.systems.mettle.services import character_update
from tests.characters.systems.mettle.helpers import make_viktor
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign(db):
    return CampaignFactory(system=KEY)


@pytest.fixture
def guide(campaign):
    return campaign.owner


@pytest.fixture
def party(campaign):
    """Viktor (Mettle 9, Soak 3: FRAME 3, no armour) and Anya, each a player's."""
    return seat(campaign, "Viktor", "Anya")


def seat(campaign, *names: str) -> list[MettleCharacter]:
    """A new player per name joins the campaign with that character (Viktor's build)."""
    made = []
    for name in names:
        player = MembershipFactory(campaign=campaign).user
        character = make_viktor(player, name=name)
        services.character_join(campaign=campaign, character=character, by=player)
        made.append(MettleCharacter.objects.get(pk=character.pk))
    return made


@pytest.fixture
def fight(campaign, guide, party):
    encounter = service.create(campaign=campaign, by=guide, name="Quay ambush")
    service.add_characters(encounter_id=encounter.pk, version=None, characters=party)
    service.add_npc(encounter_id=encounter.pk, version=None, name="Dock thugs", pool=4,
                    higher=[("frame", 6)], armor_soak=1, zone="Quay")
    encounter.refresh_from_db()
    return encounter


def key(encounter, name):
    return str(encounter.combatants.get(name=name).pk)


def url(encounter, name="mettle_initiative", *extra):
    return reverse(f"campaigns:{name}", args=[encounter.campaign_id, encounter.pk, *extra])


def post_step(client, encounter, **data):
    encounter.refresh_from_db()
    data.setdefault("version", encounter.version)
    return client.post(url(encounter, "mettle_initiative_step"), data)


def tracker(encounter):
    return service.load(MettleEncounter.objects.get(pk=encounter.pk))


def test_permissions_every_view(client, campaign, guide, party, fight):
    player = party[0].owner
    thugs = fight.combatants.get(name="Dock thugs").pk
    listing = reverse("campaigns:mettle_initiative_list", args=[campaign.pk])
    gets = [listing, url(fight)]
    posts = [listing] + [url(fight, n) for n in (
        "mettle_initiative_party", "mettle_initiative_npc", "mettle_initiative_step",
        "mettle_initiative_undo")] + [url(fight, n, thugs) for n in (
            "mettle_initiative_remove", "mettle_initiative_damage", "mettle_initiative_mettle",
            "mettle_initiative_statuses", "mettle_initiative_zone")]
    for path in gets:
        response = client.get(path)
        assert response.status_code == 302 and "/login" in response.url
    for path in posts:
        response = client.post(path)
        assert response.status_code == 302 and "/login" in response.url
    client.force_login(UserFactory())  # not a member: as if nothing were there
    for path in gets:
        assert client.get(path).status_code == 404
    for path in posts:
        assert client.post(path, {"name": "x"}).status_code == 404
    client.force_login(player)  # a player: the live view, no writes
    for path in gets:
        assert client.get(path).status_code == 200
    for path in posts:
        assert client.post(path, {"name": "x", "kind": "end", "pool": "3"}).status_code == 403
    assert MettleEncounter.objects.count() == 1 and MettleCombatant.objects.count() == 3
    assert not MettleInitiativeStep.objects.exists()
    co_guide = MembershipFactory(campaign=campaign, role=Role.CO_IMP).user
    for user in (guide, co_guide):
        client.force_login(user)
        page = client.get(url(fight)).content.decode()
        assert "Trigger Initiative" in page
    # Another system's campaign: 404 for its own Guide.
    other = CampaignFactory(owner=guide)
    client.force_login(guide)
    assert client.get(reverse("campaigns:mettle_initiative_list",
                              args=[other.pk])).status_code == 404
    assert client.get(reverse("campaigns:mettle_initiative",
                              args=[other.pk, fight.pk])).status_code == 404


def test_the_campaign_page_links_the_tracker(client, campaign, guide):
    client.force_login(guide)
    page = client.get(campaign.get_absolute_url()).content.decode()
    assert reverse("campaigns:mettle_initiative_list", args=[campaign.pk]) in page


def test_the_guide_creates_a_fight_and_adds_an_npc_pool(client, campaign, guide, party):
    client.force_login(guide)
    listing = reverse("campaigns:mettle_initiative_list", args=[campaign.pk])
    response = client.post(listing, {"name": "  "})
    assert response.status_code == 400 and "This field is required" in response.content.decode()
    response = client.post(listing, {"name": "Quay ambush"})
    encounter = MettleEncounter.objects.get()
    assert response.status_code == 302 and response.url == encounter.get_absolute_url()
    client.post(url(encounter, "mettle_initiative_party"), {"version": 0})
    response = client.post(url(encounter, "mettle_initiative_npc"), {
        "version": 1, "name": "Horse", "side": "foes", "pool": "4",
        "higher_attribute": "frame", "higher_value": "7", "armor_soak": "0", "zone": "Yard"})
    assert response.status_code == 302
    rows = {row.fighter.name: row for row in tracker(encounter).rows}
    assert rows["Horse"].label == "Horse 4D (FRAME 7)"
    assert rows["Horse"].fighter.hp_max == 4 and rows["Horse"].soak == 7  # GD: FRAME soaks
    assert rows["Viktor"].fighter.hp_max == 9 and rows["Viktor"].soak == 3


@pytest.mark.parametrize("data, field, message", [
    ({"pool": "-3"}, "pool", "greater than or equal to 1"),
    ({"pool": "99999999999999999999999"}, "pool", "less than or equal to 30"),
    ({"pool": "four"}, "pool", "Enter a whole number"),
    ({"name": ""}, "name", "This field is required"),
    ({"higher_attribute": "frame", "higher_value": "2"}, "higher_value", "Higher than the pool"),
    ({"higher_attribute": "luck", "higher_value": "6"}, "higher_attribute",
     "Select a valid choice"),
    ({"is_mob": "on", "members": "1"}, "members", "at least 2 members"),
    ({"side": "neutral"}, "side", "Select a valid choice"),
    ({"zone": "z" * 41}, "zone", "at most 40 characters"),
])
def test_npc_form_hostile_input(client, guide, fight, data, field, message):
    client.force_login(guide)
    posted = {"version": fight.version, "name": "Rat swarm", "side": "foes", "pool": "3",
              **data}
    response = client.post(url(fight, "mettle_initiative_npc"), posted)
    assert response.status_code == 400
    page = response.content.decode()
    assert message in page
    assert f'name="{field}"' in page
    if posted["name"]:
        assert 'value="Rat swarm"' in page  # what was typed is kept
    assert MettleCombatant.objects.count() == 3


def test_a_fight_follows_the_rules_through_the_pages(client, guide, party, fight):
    client.force_login(guide)
    viktor, anya, thugs = (key(fight, n) for n in ("Viktor", "Anya", "Dock thugs"))
    # Several claim the first Action: the PCs have the privilege; two PCs choose.
    response = post_step(client, fight, kind="trigger", claimants=[thugs, viktor, anya])
    assert response.status_code == 400 and "both claim" in response.content.decode()
    response = post_step(client, fight, kind="trigger", claimants=[thugs, viktor, anya],
                         choice=viktor)
    assert response.status_code == 302
    assert tracker(fight).state.holder == viktor
    # Viktor splits 5D into two Attacks: 3D at the thugs now, who go next.
    response = post_step(client, fight, kind="split", key=viktor, dice="5", parts="2",
                         targets=[thugs], action="Attack")
    assert response.status_code == 302
    t = tracker(fight)
    assert t.scene.parts_left(viktor) == (2,) and t.state.fighter(viktor).has_action
    page = client.get(url(fight)).content.decode()
    assert "Pass to: Dock thugs" in page and "Pass to: Anya" not in page
    response = post_step(client, fight, kind="pass", to=anya)
    assert response.status_code == 400 and "must go next" in response.content.decode()
    post_step(client, fight, kind="pass", to=thugs)
    # The thugs Attack Anya; Viktor (still holding his Action) Defends her: neither has a
    # Zone set, so the same Zone is the Guide's call; he steps in and becomes the target.
    post_step(client, fight, kind="act", key=thugs, targets=[anya], action="Attack")
    response = post_step(client, fight, kind="defend", defense=f"{viktor}-{anya}")
    assert response.status_code == 302
    t = tracker(fight)
    assert t.state.attacked == (viktor,) and t.state.fighter(viktor).spent
    assert "Defend: Anya" not in client.get(url(fight)).content.decode()  # done
    # Damage to Viktor through Soak 3 + Defend 2: 12 -> 7 through, Mettle 2.
    response = client.post(url(fight, "mettle_initiative_damage", viktor), {
        "version": MettleEncounter.objects.get().version,
        f"d{viktor}-amount": "12", f"d{viktor}-soak_bonus": "2"})
    assert response.status_code == 302
    assert tracker(fight).state.fighter(viktor).hp == 2
    # Undo takes the hit back.
    response = client.post(url(fight, "mettle_initiative_undo"),
                           {"version": MettleEncounter.objects.get().version})
    assert response.status_code == 302 and tracker(fight).state.fighter(viktor).hp == 9


def test_damage_form_hostile_input_and_staggered(client, guide, party, fight):
    client.force_login(guide)
    viktor = key(fight, "Viktor")
    post_step(client, fight, kind="trigger", claimants=[viktor])

    def hit(**data):
        version = MettleEncounter.objects.get().version
        return client.post(url(fight, "mettle_initiative_damage", viktor),
                           {"version": version, **{f"d{viktor}-{k}": v
                                                   for k, v in data.items()}})

    for amount, message in (("", "This field is required"), ("x", "Enter a whole number"),
                            ("0", "greater than or equal to 1"),
                            ("10000000000000000000000", "less than or equal to 999")):
        response = hit(amount=amount)
        assert response.status_code == 400 and message in response.content.decode()
        assert f'value="{amount}"' in response.content.decode() or not amount
    response = hit(amount="4", stagger="on")  # 1 through: not a Felling blow
    assert response.status_code == 400
    assert "only on a Felling blow" in response.content.decode()
    assert hit(amount="14", stagger="on").status_code == 302  # 11 through: -2, Staggered -3
    viktor_now = tracker(fight).state.fighter(viktor)
    assert viktor_now.hp == -3 and "staggered" in viktor_now.statuses and not viktor_now.fallen
    assert "Has an Action" in client.get(url(fight)).content.decode()
    # The end keeps his negative Mettle on the sheet.
    post_step(client, fight, kind="end")
    assert MettleCharacter.objects.get(pk=party[0].pk).mettle_current == -3
    response = client.post(url(fight, "mettle_initiative_undo"),
                           {"version": MettleEncounter.objects.get().version})
    assert response.status_code == 400 and "cannot be undone" in response.content.decode()


@pytest.mark.parametrize("data, message", [
    ({"kind": "split", "dice": "abc", "parts": "2"}, "A whole number from 1 to 30"),
    ({"kind": "split", "dice": "5", "parts": "99999999999999999999"},
     "A whole number from 2 to 30"),
    ({"kind": "split", "dice": "2", "parts": "5"}, "at least"),
    ({"kind": "move", "zone": ""}, "Name the Zone"),
    ({"kind": "move", "zone": "z" * 300}, "40 characters"),
    ({"kind": "pass", "to": "'; drop table"}, "Act or wait"),
    ({"kind": "act", "targets": ["999999"]}, "No combatant"),
    ({"kind": "defend", "defense": "nonsense"}, "Choose who Defends whom"),
    ({"kind": "wait", "action": ""}, "Name the Action to wait with"),
])
def test_step_hostile_input(client, guide, fight, data, message):
    client.force_login(guide)
    viktor = key(fight, "Viktor")
    post_step(client, fight, kind="trigger", claimants=[viktor])
    before = MettleInitiativeStep.objects.count()
    response = post_step(client, fight, key=viktor, **data)
    assert response.status_code == 400
    page = response.content.decode()
    assert message.casefold() in page.casefold()
    if data.get("dice"):
        assert f'value="{data["dice"]}"' in page
    assert MettleInitiativeStep.objects.count() == before


def test_unknown_step_stale_page_and_garbage_version(client, guide, fight):
    client.force_login(guide)
    viktor = key(fight, "Viktor")
    assert post_step(client, fight, kind="explode").status_code == 404
    response = client.post(url(fight, "mettle_initiative_step"),
                           {"version": "0", "kind": "trigger", "claimants": [viktor]})
    assert response.status_code == 302  # stale: back to the tracker, nothing recorded
    assert not MettleInitiativeStep.objects.exists()
    response = client.post(url(fight, "mettle_initiative_step"),
                           {"version": "9" * 40, "kind": "trigger", "claimants": [viktor]})
    assert response.status_code == 302 and not MettleInitiativeStep.objects.exists()


def test_surprise_free_move_reach_and_wait(client, guide, party, fight):
    client.force_login(guide)
    viktor, anya, thugs = (key(fight, n) for n in ("Viktor", "Anya", "Dock thugs"))
    assert post_step(client, fight, kind="surprise", side="foes").status_code == 302
    assert post_step(client, fight, kind="surprise", side="nobody").status_code == 400
    post_step(client, fight, kind="trigger", claimants=[viktor])
    t = tracker(fight)
    assert not t.state.fighter(thugs).has_action
    assert MettleEncounter.objects.get().surprised == "foes"
    # Free Move into the Quay keeps the Action; a second Move would cost it.
    assert post_step(client, fight, kind="move", key=viktor, zone="Quay").status_code == 302
    t = tracker(fight)
    assert t.scene.zone(viktor) == "Quay" and t.state.fighter(viktor).has_action
    assert "Move (costs the Action)" in client.get(url(fight)).content.decode()
    # Viktor waits to Defend; Anya acts.
    post_step(client, fight, kind="wait", key=viktor, action="Defend")
    post_step(client, fight, kind="pass", to=anya)
    post_step(client, fight, kind="act", key=anya, targets=[], action="Aid")
    t = tracker(fight)
    assert t.state.round == 2  # the surprised thugs had no Action in Round 1
    assert t.state.fighter(thugs).has_action
    # Reach: the thugs attack nobody yet; with Initiative they'd Attack Anya, who has a
    # Reach weapon and steals it.
    post_step(client, fight, kind="keep_waiting", key=viktor)
    post_step(client, fight, kind="pass", to=thugs)
    response = post_step(client, fight, kind="reach", key=anya)
    assert response.status_code == 302 and tracker(fight).state.holder == anya


def test_live_view_polls_conditionally_and_hides_foes_numbers(client, guide, party, fight):
    client.force_login(party[0].owner)
    page = client.get(url(fight)).content.decode()
    assert 'hx-trigger="every 2s"' in page and "Trigger Initiative" not in page
    assert "FRAME 6" not in page  # the NPC pool's numbers stay with the Guide
    first = client.get(url(fight), HTTP_HX_REQUEST="true")
    etag = first["ETag"]
    again = client.get(url(fight), HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    service.step(encounter_id=fight.pk, version=None, kind="trigger",
                 payload={"key": key(fight, "Viktor")}, by=guide)
    changed = client.get(url(fight), HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and "Viktor holds Initiative" in changed.content.decode()


def test_a_double_click_records_one_step(client, guide, fight):
    client.force_login(guide)
    viktor = key(fight, "Viktor")
    version = MettleEncounter.objects.get().version
    for _ in range(2):
        client.post(url(fight, "mettle_initiative_step"),
                    {"version": version, "kind": "trigger", "claimants": [viktor]})
    assert MettleInitiativeStep.objects.count() == 1
    client.post(url(fight, "mettle_initiative_step"),
                {"version": version + 1, "kind": "act", "key": viktor, "targets": [""]})
    for _ in range(2):
        client.post(url(fight, "mettle_initiative_undo"), {"version": version + 2})
    assert MettleInitiativeStep.objects.count() == 1  # one undo, the second was stale


def test_bad_ids_in_the_path_answer_404(client, campaign, guide, fight):
    client.force_login(guide)
    other = service.create(campaign=CampaignFactory(system=KEY, owner=guide), by=guide,
                           name="Elsewhere")
    assert client.get(reverse("campaigns:mettle_initiative",
                              args=[campaign.pk, other.pk])).status_code == 404
    assert client.get(reverse("campaigns:mettle_initiative",
                              args=[campaign.pk, 10**9])).status_code == 404
    for name in ("mettle_initiative_damage", "mettle_initiative_statuses",
                 "mettle_initiative_mettle", "mettle_initiative_zone"):
        assert client.post(url(fight, name, 10**9), {"version": 0}).status_code == 404
    response = client.post(url(fight, "mettle_initiative_remove", 10**9),
                           {"version": MettleEncounter.objects.get(pk=fight.pk).version})
    assert response.status_code == 400 and "not in this fight" in response.content.decode()


def test_the_players_own_character_is_told_when_it_is_their_turn(client, guide, party, fight):
    service.step(encounter_id=fight.pk, version=None, kind="trigger",
                 payload={"key": key(fight, "Anya")}, by=guide)
    client.force_login(party[1].owner)  # Anya's player
    assert "Your turn: Anya acts." in client.get(url(fight)).content.decode()
    client.force_login(party[0].owner)
    assert "Your turn" not in client.get(url(fight)).content.decode()


def two_more_join_the_fight(campaign, fight) -> None:
    """Boris and Clara join the campaign and are added to the fight."""
    service.add_characters(encounter_id=fight.pk, version=None,
                           characters=seat(campaign, "Boris", "Clara"))


def test_the_tracker_and_the_poll_are_flat_in_the_party(client, campaign, guide, fight):
    """As many queries with four PCs as with two: the sheets come from the rows loaded."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def count(user, **headers):
        client.force_login(user)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url(fight), **headers).status_code == 200
        return len(queries.captured_queries)

    player = fight.combatants.get(name="Viktor").character.owner
    before = (count(guide), count(player, HTTP_HX_REQUEST="true"))
    two_more_join_the_fight(campaign, fight)
    assert (count(guide), count(player, HTTP_HX_REQUEST="true")) == before


@pytest.mark.parametrize("route, data, message", [
    ("mettle_initiative_statuses", {"statuses": ["grappled"]}, "Select a valid choice"),
    ("mettle_initiative_statuses", {"statuses": ["<script>"]}, "Select a valid choice"),
    ("mettle_initiative_mettle", {"mettle": "nine"}, "Enter a whole number"),
    ("mettle_initiative_mettle", {"mettle": "12"}, "between -999 and the maximum 9"),
    ("mettle_initiative_mettle", {"mettle": "-1" + "0" * 30}, "greater than or equal to -999"),
    ("mettle_initiative_zone", {"zone": "x" * 500}, "at most 40 characters"),
])
def test_combatant_forms_hostile_input(client, guide, fight, route, data, message):
    client.force_login(guide)
    viktor = fight.combatants.get(name="Viktor").pk
    prefix = {"mettle_initiative_statuses": "s", "mettle_initiative_mettle": "m",
              "mettle_initiative_zone": "z"}[route]
    posted = {f"{prefix}{viktor}-{k}": v for k, v in data.items()}
    version = MettleEncounter.objects.get(pk=fight.pk).version
    response = client.post(url(fight, route, viktor), {"version": version, **posted})
    assert response.status_code == 400
    page = response.content.decode()
    assert message in page
    assert f'id="edit-{viktor}" data-edit="Viktor" open' in page  # the form stays open
    assert MettleEncounter.objects.get(pk=fight.pk).version == version
    if "mettle" in data:
        assert f'value="{data["mettle"]}"' in page  # what was typed is kept


def test_the_zone_is_set_before_the_fight_only(client, guide, fight):
    client.force_login(guide)
    viktor = fight.combatants.get(name="Viktor").pk
    response = client.post(url(fight, "mettle_initiative_zone", viktor),
                           {"version": fight.version, f"z{viktor}-zone": "  Quay  "})
    assert response.status_code == 302
    assert tracker(fight).row(str(viktor)).zone == "Quay"
    post_step(client, fight, kind="trigger", claimants=[str(viktor)])
    response = client.post(url(fight, "mettle_initiative_zone", viktor),
                           {"version": MettleEncounter.objects.get(pk=fight.pk).version,
                            f"z{viktor}-zone": "Yard"})
    assert response.status_code == 400 and "by moving" in response.content.decode()


HOSTILE_VALUES = ["", "0", "-1", "9" * 40, "1e9", "NaN", "ｱ", "\x00", "<b>", "1,5", " 3 "]


def test_every_endpoint_every_role_hostile_values_never_500(client, campaign, guide, party,
                                                           fight):
    """A sweep of METTLE's tracker endpoints: every role, every field name the pages use,
    hostile values; never a server error, and nobody but the Guide changes anything."""
    thugs = fight.combatants.get(name="Dock thugs").pk
    listing = reverse("campaigns:mettle_initiative_list", args=[campaign.pk])
    paths = [listing] + [url(fight, n) for n in (
        "mettle_initiative", "mettle_initiative_party", "mettle_initiative_npc",
        "mettle_initiative_step", "mettle_initiative_undo")] + [url(fight, n, thugs) for n in (
            "mettle_initiative_remove", "mettle_initiative_damage", "mettle_initiative_mettle",
            "mettle_initiative_statuses", "mettle_initiative_zone")]
    names = ["name", "side", "pool", "higher_attribute", "higher_value", "armor_soak", "zone",
             "is_mob", "members", "kind", "key", "to", "targets", "claimants", "choice",
             "dice", "parts", "action", "defense", "hindered", "attacker_has_reach",
             f"d{thugs}-amount", f"d{thugs}-soak_bonus", f"m{thugs}-mettle",
             f"s{thugs}-statuses", f"z{thugs}-zone", "session", "amount", "stagger",
             f"d{thugs}-burning"]
    kinds = ["trigger", "act", "act_part", "split", "wait", "interrupt", "pass", "move",
             "defend", "reach", "surprise", "keep_waiting", "rejoin", "imp_decides",
             "next_round", "end", "join", "stumble", "free_move", "damage", "burn",
             "set_burning"]
    users = [None, UserFactory(), party[0].owner, guide]
    before = MettleInitiativeStep.objects.count()
    for user in users:
        if user is None:
            client.logout()
        else:
            client.force_login(user)
        for number, value in enumerate(HOSTILE_VALUES):
            data = dict.fromkeys(names, value)
            data["kind"] = kinds[number % len(kinds)] if user is guide else value
            data["version"] = value
            for path in paths:
                assert client.get(path, data).status_code < 500, (user, path, value)
                assert client.post(path, data).status_code < 500, (user, path, value)
    # Stale versions: nothing recorded by anyone.
    assert MettleInitiativeStep.objects.count() == before


def test_the_guides_steps_with_current_versions_and_hostile_values_never_500(
        client, guide, fight):
    client.force_login(guide)
    post_step(client, fight, kind="trigger", claimants=[key(fight, "Viktor")])
    kinds = ["act", "act_part", "split", "wait", "interrupt", "pass", "move", "defend",
             "reach", "surprise", "keep_waiting", "rejoin", "stumble", "free_move", "burn",
             "set_burning"]
    for kind in kinds:
        for value in HOSTILE_VALUES:
            response = post_step(client, fight, kind=kind, key=value, to=value,
                                 targets=[value], dice=value, parts=value, zone=value,
                                 action=value, defense=f"{value}-{value}", side=value,
                                 amount=value, stagger=value)
            assert response.status_code in (302, 400, 404), (kind, value)
    assert tracker(fight).failed == []  # whatever was recorded still replays


def test_a_nul_byte_in_a_typed_label_is_dropped(client, guide, fight):
    client.force_login(guide)
    viktor = key(fight, "Viktor")
    post_step(client, fight, kind="trigger", claimants=[viktor])
    response = post_step(client, fight, kind="move", key=viktor, zone="Qu\x00ay")
    assert response.status_code == 302 and tracker(fight).scene.zone(viktor) == "Quay"
    response = post_step(client, fight, kind="act", key=viktor, targets=[""],
                         action="Att\x00ack")
    assert response.status_code == 302
    assert MettleInitiativeStep.objects.last().payload["action"] == "Attack"


def test_every_refused_step_says_why_once(client, guide, fight):
    """The message goes beside the field the form shows, else at the top: never lost."""
    client.force_login(guide)
    viktor = key(fight, "Viktor")
    post_step(client, fight, kind="trigger", claimants=[viktor])
    for data in ({"kind": "act", "action": "a" * 100, "targets": [""]},
                 {"kind": "split", "dice": "x", "parts": "2"},
                 {"kind": "move", "zone": ""},
                 {"kind": "wait", "action": ""},
                 {"kind": "pass", "to": viktor},
                 {"kind": "defend", "defense": f"{viktor}-{viktor}"}):
        response = post_step(client, fight, key=viktor, **data)
        assert response.status_code == 400
        page = response.content.decode()
        message = response.context["step_error"]["message"]
        assert page.count(message) == 1, (data, message)


def test_the_end_writes_the_statuses_back_staggered_is_not_fallen(client, campaign, guide,
                                                                  party):
    """Issue #13 (AMB-M-STAT-1): a PC who chose Staggered keeps Staggered on its sheet and
    does not show as Fallen; one felled without it shows Fallen; a status brought into the
    fight (Blinded) stays, the Scene's own (Rattled) ends."""
    viktor_pc, anya_pc = party
    MettleCharacter.objects.filter(pk=viktor_pc.pk).update(statuses=["blinded"])
    encounter = service.create(campaign=campaign, by=guide, name="Quay ambush")
    service.add_characters(encounter_id=encounter.pk, version=None,
                           characters=list(MettleCharacter.objects.filter(
                               pk__in=[viktor_pc.pk, anya_pc.pk])))
    service.add_npc(encounter_id=encounter.pk, version=None, name="Dock thugs", pool=4)
    encounter.refresh_from_db()
    assert encounter.combatants.get(name="Viktor").statuses_start == ["blinded"]
    client.force_login(guide)
    viktor, anya = key(encounter, "Viktor"), key(encounter, "Anya")
    post_step(client, encounter, kind="trigger", claimants=[viktor])

    def hit(who, **data):
        version = MettleEncounter.objects.get().version
        return client.post(url(encounter, "mettle_initiative_damage", who),
                           {"version": version, **{f"d{who}-{k}": v for k, v in data.items()}})

    assert hit(viktor, amount="14", stagger="on").status_code == 302  # Staggered, -3
    assert hit(anya, amount="14").status_code == 302  # Fallen, -2
    version = MettleEncounter.objects.get().version
    response = client.post(url(encounter, "mettle_initiative_statuses", viktor),
                           {"version": version, f"s{viktor}-statuses": [
                               "blinded", "staggered", "rattled"]})
    assert response.status_code == 302
    assert "rattled" in tracker(encounter).state.fighter(viktor).statuses
    before = MettleCharacter.objects.get(pk=viktor_pc.pk).updated_at
    post_step(client, encounter, kind="end")
    viktor_pc = MettleCharacter.objects.get(pk=viktor_pc.pk)
    assert viktor_pc.updated_at > before  # news for the pages that poll the party
    anya_pc = MettleCharacter.objects.get(pk=anya_pc.pk)
    assert (viktor_pc.mettle_current, viktor_pc.statuses) == (-3, ["blinded", "staggered"])
    assert (anya_pc.mettle_current, anya_pc.statuses) == (-2, [])
    client.force_login(viktor_pc.owner)
    body = client.get(viktor_pc.get_absolute_url()).content.decode()
    assert 'data-status="staggered"' in body and 'data-status="fallen"' not in body
    client.force_login(anya_pc.owner)
    body = client.get(anya_pc.get_absolute_url()).content.decode()
    assert 'data-status="fallen"' in body and 'data-status="staggered"' not in body


def test_a_live_view_poll_that_finds_nothing_new_costs_3_queries_flat(client, campaign,
                                                                      guide, fight):
    """A player's poll and the Guide's preview, answered 304 in 3 queries (the session,
    the user, the role with the fight's version) with 2 PCs and one step as with 4 PCs
    and a long log (campaigns.polling)."""
    from tests.campaigns.test_poll_queries import assert_304_costs, count_304

    player = fight.combatants.get(name="Viktor").character.owner
    counts = {}

    def measure(label):
        client.force_login(player)
        counts[f"player, {label}"] = count_304(client, url(fight))
        client.force_login(guide)
        counts[f"preview, {label}"] = count_304(client, url(fight) + "?view=player")

    measure("2 PCs, no step")
    two_more_join_the_fight(campaign, fight)
    for _ in range(10):
        service.step(encounter_id=fight.pk, version=None, kind="trigger",
                     payload={"key": key(fight, "Viktor")}, by=guide)
        service.undo(encounter_id=fight.pk, version=None)
    measure("4 PCs, a long log")
    assert_304_costs("METTLE Initiative live", counts)


def test_the_players_live_view_builds_none_of_the_guides_forms(client, campaign, fight):
    """A player's live view (its poll's 200, when something changed) reads the session,
    the user, the role and version, the membership, the fight, its combatants with their
    characters and gear lines, and its steps and their count: 10 queries, with two PCs as
    with four; not the party still to add, nor the Guide's forms per combatant (live.html
    shows none of them)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    player = fight.combatants.get(name="Viktor").character.owner
    client.force_login(player)

    def count():
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url(fight), HTTP_HX_REQUEST="true", HTTP_HX_TARGET="live")
        assert response.status_code == 200
        assert "npc_form" not in response.context and "party_missing" not in response.context
        assert not hasattr(response.context["rows"][0], "damage_form")
        return len(queries)

    assert count() == 10
    two_more_join_the_fight(campaign, fight)
    assert count() == 10


def test_a_character_brings_what_its_load_makes_it_into_the_fight(campaign, guide):
    """CH §Encumbrance: Load over FRAME is Encumbered (every Zone crossed takes two Moves),
    over twice FRAME Incapacitated. Worked out on the sheet, never stored on the
    character: the fight keeps it with the combatant as it joins."""
    player = MembershipFactory(campaign=campaign).user
    heavy = [{"name": "Anvil", "load": 4, "quantity": 1}]  # FRAME 3: Encumbered
    mule = make_viktor(player, name="Mule", gear=heavy)
    services.character_join(campaign=campaign, character=mule, by=player)
    encounter = service.create(campaign=campaign, by=guide, name="The long stair")
    service.add_characters(encounter_id=encounter.pk, version=None,
                           characters=[MettleCharacter.objects.get(pk=mule.pk)])
    combatant = MettleCombatant.objects.get(encounter=encounter, name="Mule")
    assert combatant.statuses_start == ["encumbered"]
    assert MettleCharacter.objects.get(pk=mule.pk).statuses == []
    fighter = tracker(encounter).scene.state.fighter(str(combatant.pk))
    assert "encumbered" in fighter.statuses


def damage_post(client, encounter, combatant_key, **data):
    version = MettleEncounter.objects.get(pk=encounter.pk).version
    return client.post(url(encounter, "mettle_initiative_damage", combatant_key),
                       {"version": version, **{f"d{combatant_key}-{k}": v
                                               for k, v in data.items()}})


def undo_post(client, encounter):
    return client.post(url(encounter, "mettle_initiative_undo"),
                       {"version": MettleEncounter.objects.get(pk=encounter.pk).version})


def test_bp_armour_halves_the_first_firearm_hit_and_undo_gives_it_back(client, campaign,
                                                                       guide):
    """RS §Armor: Vest (Viktor's build in a Kevlar vest (BP): Mettle 9, Soak 3 + 1 = 4)
    hit by a pistol for 7: 3 through, halved (rounded up) to 2; the second pistol hit is
    only Soaked (3). The first hit is part of the replayed ledger: undo it and the next
    firearm hit is the first again."""
    player = MembershipFactory(campaign=campaign).user
    vest = make_viktor(player, name="Vest", armor="Kevlar vest (BP)")
    services.character_join(campaign=campaign, character=vest, by=player)
    encounter = service.create(campaign=campaign, by=guide, name="Gunfight")
    service.add_characters(encounter_id=encounter.pk, version=None,
                           characters=[MettleCharacter.objects.get(pk=vest.pk)])
    service.add_npc(encounter_id=encounter.pk, version=None, name="Gunman", pool=4)
    client.force_login(guide)
    me = key(encounter, "Vest")
    post_step(client, encounter, kind="trigger", claimants=[me])
    row = tracker(encounter).row(me)
    assert row.soak == 4 and row.bulletproof and not row.bp_spent
    page = client.get(url(encounter)).content.decode()
    assert "BP armour" in page and f'name="d{me}-firearm"' in page
    assert f'name="d{me}-bulletproof"' not in page  # a PC's BP is its sheet's

    def mettle():
        return tracker(encounter).state.fighter(me).hp

    assert damage_post(client, encounter, me, amount="7", firearm="on").status_code == 302
    assert mettle() == 9 - 2 and tracker(encounter).row(me).bp_spent
    assert "first firearm hit taken" in client.get(url(encounter)).content.decode()
    assert damage_post(client, encounter, me, amount="7", firearm="on").status_code == 302
    assert mettle() == 7 - 3
    assert undo_post(client, encounter).status_code == 302
    assert mettle() == 7 and tracker(encounter).row(me).bp_spent
    assert undo_post(client, encounter).status_code == 302
    assert mettle() == 9 and not tracker(encounter).row(me).bp_spent
    # A blade first: full damage, the vest still unspent; then the pistol is halved.
    assert damage_post(client, encounter, me, amount="7").status_code == 302
    assert mettle() == 9 - 3 and not tracker(encounter).row(me).bp_spent
    assert damage_post(client, encounter, me, amount="7", firearm="on").status_code == 302
    assert mettle() == 6 - 2
    steps = list(MettleInitiativeStep.objects.filter(encounter=encounter, kind="damage")
                 .order_by("number"))
    assert steps[-1].payload["firearm"] is True and steps[-2].payload["firearm"] is False
    assert "BP armour halves its first firearm damage, 2 through" in steps[-1].text


def test_an_npcs_bp_armour_is_ticked_on_the_hit_and_checked(client, guide, party, fight):
    """The Dock thugs (pool 4, FRAME 6 + armour 1 = Soak 7, Mettle 4): an NPC's armour is
    only a Soak number, so the Guide ticks BP on the hit. A firearm hit of 10: 3 through,
    halved to 2; BP without a firearm is refused beside the field; hostile values never
    500; a PC's form ignores a posted BP tick."""
    client.force_login(guide)
    thugs = key(fight, "Dock thugs")
    viktor = key(fight, "Viktor")
    post_step(client, fight, kind="trigger", claimants=[viktor])
    response = damage_post(client, fight, thugs, amount="10", bulletproof="on")
    body = response.content.decode()
    assert response.status_code == 400 and "only matters against a firearm hit" in body
    assert 'role="alert">BP armour only matters' in body
    assert tracker(fight).state.fighter(thugs).hp == 4
    for value in ("", "false", "0"):  # unticked: an ordinary hit of 10, 3 through
        assert damage_post(client, fight, thugs, amount="4", firearm=value,
                           bulletproof=value).status_code == 302
    assert tracker(fight).state.fighter(thugs).hp == 4  # 4 - 7 Soak: nothing through
    assert damage_post(client, fight, thugs, amount="10", firearm="on",
                       bulletproof="on").status_code == 302
    assert tracker(fight).state.fighter(thugs).hp == 4 - 2
    assert tracker(fight).row(thugs).bp_spent
    # Viktor (no armour): a BP tick posted to his form is not a field of it.
    assert damage_post(client, fight, viktor, amount="5", firearm="on",
                       bulletproof="on").status_code == 302
    assert tracker(fight).state.fighter(viktor).hp == 9 - 2
    assert not tracker(fight).row(viktor).bulletproof
    step = MettleInitiativeStep.objects.filter(encounter=fight).order_by("-number").first()
    assert step.payload["bulletproof"] is False


def test_a_taser_felling_blow_always_stuns(client, guide, party, fight):
    """RS §Specials, Stun: a Stun-only weapon (Stun gun, Taser) "does damage but will
    always Stun on a Felling blow". The Dock thugs (Mettle 4, Soak 7) hit for 11 with a
    Taser not ticked as a Stun Attack: 4 through, a Felling blow, Incapacitated, not
    Fallen; the same hit without the tick fells them."""
    client.force_login(guide)
    thugs = key(fight, "Dock thugs")
    viktor = key(fight, "Viktor")
    post_step(client, fight, kind="trigger", claimants=[viktor])
    page = client.get(url(fight)).content.decode()
    assert "Stun-only weapon (Stun gun, Taser)" in page
    assert damage_post(client, fight, thugs, amount="11", stun_only="on").status_code == 302
    thug = tracker(fight).state.fighter(thugs)
    assert thug.hp == 4 and "incapacitated" in thug.statuses and not thug.fallen
    assert undo_post(client, fight).status_code == 302
    assert damage_post(client, fight, thugs, amount="11").status_code == 302
    thug = tracker(fight).state.fighter(thugs)
    assert thug.fallen and thug.hp == 0
    # Viktor (Mettle 9, Soak 3) Tasered for 13: 10 through, Stunned; Staggered is refused.
    response = damage_post(client, fight, viktor, amount="13", stun_only="on", stagger="on")
    assert response.status_code == 400 and "Stun-only weapon" in response.content.decode()
    assert damage_post(client, fight, viktor, amount="13",
                       stun_only="<script>").status_code == 302
    viktor_now = tracker(fight).state.fighter(viktor)
    assert viktor_now.hp == 9 and "incapacitated" in viktor_now.statuses


def wear(who: MettleCharacter, armor: str) -> None:
    """The player changes the worn armour in the builder, keeping the rest of the gear."""
    character = MettleCharacter.objects.get(pk=who.pk)
    gear = legacy_gear(lines_of(character))
    character_update(character=character, by=character.owner,
                     data={"armor": armor, "weapons": gear["weapons"], "gear": gear["gear"]})


def test_a_hit_is_soaked_by_the_armour_worn_when_it_landed(client, guide, party, fight):
    """AMB-M-INI-7: the fight is a replay of its steps, and a damage step keeps the
    target's Soak and BP as they were when the hit landed. Viktor (Mettle 9, Soak 3, no
    armour) takes 7: 4 through. He then puts on Plate (Soak 3 + 3 = 6): the hit already
    taken stays 4 through on every replay; the next hit of 7 is 1 through. A pistol hit
    before he wears the Kevlar vest (BP) is not halved after he puts it on, and the first
    firearm hit in the vest is."""
    client.force_login(guide)
    viktor = key(fight, "Viktor")
    post_step(client, fight, kind="trigger", claimants=[viktor])

    def hp():
        return tracker(fight).state.fighter(viktor).hp

    assert damage_post(client, fight, viktor, amount="7").status_code == 302
    assert hp() == 9 - 4
    wear(party[0], "Heavy (Plate)")
    assert hp() == 9 - 4 and not tracker(fight).failed  # the hit taken is not rewritten
    assert tracker(fight).row(viktor).soak == 6  # the next hit's Soak
    first = MettleInitiativeStep.objects.filter(encounter=fight, kind="damage").get()
    assert first.payload["soak"] == 3 and first.payload["wears_bp"] is False
    assert damage_post(client, fight, viktor, amount="7").status_code == 302
    assert hp() == 5 - 1
    wear(party[0], "")  # armour off again: both hits stand as they were taken
    assert hp() == 4
    assert "Soak 6: 1 through" in client.get(url(fight)).content.decode()
    # A pistol hit without BP, then the vest on: the earlier hit is not halved after the
    # fact, and the vest's first firearm hit is the next one.
    assert damage_post(client, fight, viktor, amount="5", firearm="on").status_code == 302
    assert hp() == 4 - 2 and not tracker(fight).row(viktor).bp_spent
    wear(party[0], "Kevlar vest (BP)")
    assert hp() == 2 and not tracker(fight).row(viktor).bp_spent
    assert damage_post(client, fight, viktor, amount="6", firearm="on").status_code == 302
    assert hp() == 2 - 1 and tracker(fight).row(viktor).bp_spent  # (6 - 4) halved: 1
    wear(party[0], "")
    assert hp() == 1 and tracker(fight).row(viktor).bp_spent
    # Undo and replay stay stable: taking back the last hit gives back exactly it.
    assert undo_post(client, fight).status_code == 302
    assert hp() == 2 and not tracker(fight).row(viktor).bp_spent
    # The recorded numbers are the server's: a Soak posted with the hit is not a field.
    assert damage_post(client, fight, viktor, amount="1", soak="99",
                       wears_bp="on").status_code == 302
    last = MettleInitiativeStep.objects.filter(encounter=fight).order_by("-number").first()
    assert last.payload["soak"] == 3 and last.payload["wears_bp"] is False


def test_a_hit_recorded_before_soak_was_kept_reads_the_sheet(client, guide, party, fight):
    """A damage step stored before AMB-M-INI-7 has no Soak of its own: it still replays,
    through the target's sheet as it is now (the only Soak known for it); the steps
    recorded since keep theirs."""
    client.force_login(guide)
    viktor = key(fight, "Viktor")
    post_step(client, fight, kind="trigger", claimants=[viktor])
    assert damage_post(client, fight, viktor, amount="7").status_code == 302
    old = MettleInitiativeStep.objects.filter(encounter=fight, kind="damage").get()
    old.payload = {k: v for k, v in old.payload.items() if k not in ("soak", "wears_bp")}
    old.save(update_fields=["payload"])
    assert tracker(fight).state.fighter(viktor).hp == 9 - 4
    wear(party[0], "Heavy (Plate)")
    assert tracker(fight).state.fighter(viktor).hp == 9 - 1  # the sheet's Soak 6 now
    assert damage_post(client, fight, viktor, amount="7").status_code == 302
    wear(party[0], "")
    assert tracker(fight).state.fighter(viktor).hp == 9 - 4 - 1  # old: 4; new: kept 1
    assert not tracker(fight).failed


@pytest.mark.parametrize("recorded", [{"soak": -1}, {"soak": "3"}, {"soak": 1000},
                                      {"soak": True}, {"wears_bp": "yes"}, {"wears_bp": 1}])
def test_a_tampered_recorded_soak_is_a_step_that_no_longer_applies(guide, party, fight,
                                                                   recorded):
    """A stored damage step whose recorded numbers are not a Soak or a yes/no is reported
    as a step that no longer applies, never a 500."""
    viktor = key(fight, "Viktor")
    service.step(encounter_id=fight.pk, version=None, kind="trigger",
                 payload={"key": viktor}, by=guide)
    service.step(encounter_id=fight.pk, version=None, kind="damage",
                 payload={"key": viktor, "amount": 7}, by=guide)
    hit = MettleInitiativeStep.objects.get(encounter=fight, kind="damage")
    hit.payload = {**hit.payload, **recorded}
    hit.save(update_fields=["payload"])
    loaded = tracker(fight)
    assert loaded.state.fighter(viktor).hp == 9
    assert len(loaded.failed) == 1 and "no longer applies" in loaded.failed[0]


# -- Burning (Scenery > Fire; AMB-M-FIRE-1) --------------------------------------------------


def round_two(client, encounter):
    """Everyone acts in turn (Viktor, then the thugs, then Anya); Round 2 begins."""
    for name in ("Viktor", "Dock thugs", "Anya"):
        me = key(encounter, name)
        if tracker(encounter).state.holder != me:
            post_step(client, encounter, kind="pass", to=me)
        post_step(client, encounter, kind="act", key=me, targets=[""], action="Move")
    post_step(client, encounter, kind="pass", to=key(encounter, "Viktor"))
    assert tracker(encounter).state.round == 2


def test_a_burning_thug_is_offered_the_same_fire_damage_each_round_with_undo(
        client, guide, party, fight):
    """A torch (1d6, rolled 6) sets the oily thugs alight: Soak 6 + 1 = 7, nothing
    through this time; Burning, they take the same 6 at each Round's turn, one click, once,
    undone by the tracker's Undo."""
    client.force_login(guide)
    thugs = key(fight, "Dock thugs")
    post_step(client, fight, kind="trigger", claimants=[key(fight, "Viktor")])
    assert damage_post(client, fight, thugs, amount="9", burning="on").status_code == 302
    row = tracker(fight).row(thugs)
    assert row.fighter.hp == 4 - 2 and "burning" in row.fighter.statuses
    assert (row.burn_amount, row.burn_due) == (9, None)  # Round 1's is the torch's hit
    assert MettleInitiativeStep.objects.last().payload["burning"] is True
    assert "data-burn=" not in client.get(url(fight)).content.decode()
    round_two(client, fight)
    page = client.get(url(fight)).content.decode()
    assert 'data-burn="Dock thugs"' in page
    assert "Burn: Dock thugs takes 9 fire damage (Soak 7)" in page
    assert "Dock thugs is Burning: 9 fire damage again this Round" in page  # the log
    assert post_step(client, fight, kind="burn", key=thugs).status_code == 302
    assert tracker(fight).row(thugs).fighter.hp == 0  # 2 through: a Felling blow
    assert "data-burn=" not in client.get(url(fight)).content.decode()
    refused = post_step(client, fight, kind="burn", key=thugs)  # twice in a Round
    assert refused.status_code == 400 and "already burned this Round" in \
        refused.content.decode()
    assert undo_post(client, fight).status_code == 302
    assert tracker(fight).row(thugs).fighter.hp == 2
    assert tracker(fight).row(thugs).burn_due == 9


def test_burning_without_a_known_damage_asks_for_it_beside_the_field(client, guide, party,
                                                                      fight):
    client.force_login(guide)
    viktor = key(fight, "Viktor")
    post_step(client, fight, kind="trigger", claimants=[viktor])
    version = MettleEncounter.objects.get(pk=fight.pk).version
    client.post(url(fight, "mettle_initiative_statuses", viktor),
                {"version": version, f"s{viktor}-statuses": ["burning"]})
    page = client.get(url(fight)).content.decode()
    assert 'data-burn-amount="Viktor"' in page and "data-burn=" not in page
    for bad, message in (("0", "A whole number from 1 to 999."),
                         ("x", "A whole number from 1 to 999."),
                         ("1000", "A whole number from 1 to 999.")):
        response = post_step(client, fight, kind="set_burning", key=viktor, amount=bad)
        body = response.content.decode()
        assert response.status_code == 400 and body.count(message) == 1
        assert 'class="invalid-feedback d-block" role="alert">' + message in body
    assert post_step(client, fight, kind="set_burning", key=viktor,
                     amount="5").status_code == 302
    assert tracker(fight).row(viktor).burn_due == 5  # due now: the Guide gave it this Round
    refused = post_step(client, fight, kind="burn", key=viktor, stagger="on")
    assert refused.status_code == 400  # 2 through Soak 3 is no Felling blow
    assert "Staggered is chosen only on a Felling blow" in refused.content.decode()
    assert post_step(client, fight, kind="burn", key=viktor).status_code == 302
    assert tracker(fight).row(viktor).fighter.hp == 9 - 2


def test_only_the_guide_burns(client, campaign, guide, party, fight):
    thugs = key(fight, "Dock thugs")
    client.force_login(guide)
    post_step(client, fight, kind="trigger", claimants=[key(fight, "Viktor")])
    post_step(client, fight, kind="set_burning", key=thugs, amount="9")
    client.logout()
    response = post_step(client, fight, kind="burn", key=thugs)
    assert response.status_code == 302 and "/login" in response.url
    client.force_login(UserFactory())
    assert post_step(client, fight, kind="burn", key=thugs).status_code == 404
    client.force_login(party[0].owner)  # a player of the campaign
    assert post_step(client, fight, kind="burn", key=thugs).status_code == 403
    assert post_step(client, fight, kind="set_burning", key=thugs,
                     amount="3").status_code == 403
    co_guide = MembershipFactory(campaign=campaign, role=Role.CO_IMP).user
    client.force_login(co_guide)
    assert post_step(client, fight, kind="burn", key=thugs).status_code == 302
    assert tracker(fight).row(thugs).fighter.hp == 4 - 2
