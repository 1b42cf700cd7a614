"""The Initiative tracker's pages: permissions for every view, the Imp's flow, stale
pages, validation next to the field, the live view, undo and the end refill."""

import re

import pytest
from django.urls import reverse

from campaigns.models import Role
from campaigns.systems.eldritch_gambit import initiative as service
from campaigns.systems.eldritch_gambit.models import Combatant, Encounter, InitiativeStep
from tests.factories import MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def fight(campaign, imp, seat):
    ana = seat(name="Ana")
    bo = seat(name="Bo")
    encounter = service.create(campaign=campaign, by=imp, name="Ambush")
    service.add_characters(encounter_id=encounter.pk, version=None, characters=[ana, bo])
    service.add_foe(encounter_id=encounter.pk, version=None, name="Goblins", hp_max=6, af=10,
                    is_mob=True, members=3)
    encounter.refresh_from_db()
    return encounter, ana, bo


def key(encounter, name):
    return str(encounter.combatants.get(name=name).pk)


def url(encounter, name="initiative", **extra):
    args = [encounter.campaign_id, encounter.pk] + list(extra.values())
    return reverse(f"campaigns:{name}", args=args)


def post_step(client, encounter, **data):
    encounter.refresh_from_db()
    data.setdefault("version", encounter.version)
    return client.post(url(encounter, "initiative_step"), data)


def test_permissions_every_view(client, fight, campaign, imp):
    encounter, ana, _ = fight
    player = ana.owner
    stranger = UserFactory()
    goblins = encounter.combatants.get(name="Goblins").pk
    gets = [reverse("campaigns:initiative_list", args=[campaign.pk]), url(encounter)]
    posts = [
        reverse("campaigns:initiative_list", args=[campaign.pk]),
        url(encounter, "initiative_party"), url(encounter, "initiative_foe"),
        url(encounter, "initiative_step"), url(encounter, "initiative_undo"),
        url(encounter, "initiative_remove", c=goblins), url(encounter, "initiative_hp", c=goblins),
        url(encounter, "initiative_statuses", c=goblins),
    ]
    for path in gets + posts:  # anonymous: to the login page
        response = client.post(path) if path in posts and path not in gets else client.get(path)
        assert response.status_code == 302 and "/login" in response.url
    client.force_login(stranger)
    for path in gets:
        assert client.get(path).status_code == 404
    for path in posts:
        assert client.post(path, {"name": "x"}).status_code == 404
    client.force_login(player)
    for path in gets:
        assert client.get(path).status_code == 200
    for path in posts:
        assert client.post(path, {"name": "x", "kind": "end"}).status_code == 403
    assert Encounter.objects.count() == 1 and Combatant.objects.count() == 3
    co_imp = MembershipFactory(campaign=campaign, role=Role.CO_IMP).user
    for user in (imp, co_imp):
        client.force_login(user)
        assert client.get(url(encounter)).status_code == 200


def test_player_sees_live_read_only_view(client, fight):
    encounter, ana, _ = fight
    client.force_login(ana.owner)
    page = client.get(url(encounter)).content.decode()
    assert 'hx-trigger="every 2s"' in page
    assert "Trigger Initiative" not in page and "Target:" not in page
    partial = client.get(url(encounter), HTTP_HX_REQUEST="true").content.decode()
    assert partial.lstrip().startswith('<div id="live"') and "<html" not in partial


def test_create_and_validation(client, campaign, imp):
    client.force_login(imp)
    path = reverse("campaigns:initiative_list", args=[campaign.pk])
    response = client.post(path, {"name": "   "})
    assert response.status_code == 400 and "This field is required" in response.content.decode()
    response = client.post(path, {"name": "Ambush at the ford"})
    encounter = Encounter.objects.get()
    assert response.url == encounter.get_absolute_url()
    detail = reverse("campaigns:detail", args=[campaign.pk])
    assert path in client.get(detail).content.decode()


def test_foe_form_errors_next_to_field_keep_input(client, fight, imp):
    encounter, *_ = fight
    client.force_login(imp)
    response = client.post(url(encounter, "initiative_foe"), {
        "version": encounter.version, "name": "Wolves", "side": "foes", "hp_max": "0",
        "is_mob": "on", "members": "1"})
    html = response.content.decode()
    assert response.status_code == 400
    assert "greater than or equal to 1" in html and "A Mob has at least 2 members." in html
    assert 'value="Wolves"' in html


def test_imp_drives_a_round(client, fight, imp):
    encounter, ana, bo = fight
    a, b, g = key(encounter, "Ana"), key(encounter, "Bo"), key(encounter, "Goblins")
    client.force_login(imp)
    html = client.get(url(encounter)).content.decode()
    assert "Trigger Initiative" in html
    assert post_step(client, encounter, kind="trigger", claimants=[a]).status_code == 302
    html = client.get(url(encounter)).content.decode()
    assert "Round 1: Ana holds Initiative and acts." in html
    assert "Target: Goblins" in html and "Target: Bo" in html
    post_step(client, encounter, kind="act", key=a, targets=[g], action="melee Attack")
    html = client.get(url(encounter)).content.decode()
    assert "Pass to: Goblins" in html and "Pass to: Bo" not in html
    # Not the holder: refused with a clear message, nothing recorded.
    steps = InitiativeStep.objects.count()
    response = post_step(client, encounter, kind="pass", to=b)
    assert response.status_code == 400
    assert "must go next" in response.content.decode()
    assert InitiativeStep.objects.count() == steps
    post_step(client, encounter, kind="pass", to=g)
    post_step(client, encounter, kind="act", key=g, targets=[b])
    html = client.get(url(encounter)).content.decode()
    assert "Pass to: Bo" in html
    post_step(client, encounter, kind="pass", to=b)
    post_step(client, encounter, kind="act", key=b, targets=[g])
    encounter.refresh_from_db()
    assert encounter.round == 2 and encounter.status == "running"
    html = client.get(url(encounter)).content.decode()
    assert "Round 2: Bo passes Initiative." in html
    assert "Pass to: Ana" in html and "Pass to: Goblins" in html and "Pass to: Bo" not in html


def test_stale_page_refused(client, fight, imp):
    encounter, *_ = fight
    a = key(encounter, "Ana")
    client.force_login(imp)
    old = encounter.version
    post_step(client, encounter, kind="trigger", claimants=[a])
    response = client.post(url(encounter, "initiative_step"),
                           {"version": old, "kind": "trigger", "claimants": [a]}, follow=True)
    assert "out of date" in response.content.decode()
    assert InitiativeStep.objects.count() == 1


def test_wait_needs_action_message_next_to_field(client, fight, imp):
    encounter, *_ = fight
    a = key(encounter, "Ana")
    client.force_login(imp)
    post_step(client, encounter, kind="trigger", claimants=[a])
    response = post_step(client, encounter, kind="wait", key=a, action="")
    html = response.content.decode()
    assert response.status_code == 400 and 'id="wait-error"' in html and "Name the Action" in html


def test_tie_on_wp_asks_the_imp(client, fight, imp):
    encounter, *_ = fight
    a, b = key(encounter, "Ana"), key(encounter, "Bo")
    client.force_login(imp)
    response = post_step(client, encounter, kind="trigger", claimants=[a, b])
    html = response.content.decode()
    assert response.status_code == 400 and "the Imp decides" in html and 'name="imp_choice"' in html
    post_step(client, encounter, kind="trigger", claimants=[a, b], imp_choice=b)
    encounter.refresh_from_db()
    assert encounter.holder.name == "Bo"


def test_hp_edit_validation_and_mob_felling(client, fight, imp):
    encounter, *_ = fight
    a, g = key(encounter, "Ana"), encounter.combatants.get(name="Goblins").pk
    client.force_login(imp)
    post_step(client, encounter, kind="trigger", claimants=[a])
    path = url(encounter, "initiative_hp", c=g)
    response = client.post(path, {"version": encounter.version + 1, f"c{g}-change": "set",
                                  f"c{g}-amount": "50"})
    assert response.status_code == 400 and "over the maximum of 6" in response.content.decode()
    encounter.refresh_from_db()
    client.post(path, {"version": encounter.version, f"c{g}-change": "damage",
                       f"c{g}-amount": "9"})
    tracker = service.load(encounter)
    assert tracker.state.fighter(str(g)).members == 2


def test_undo_and_end_refill(client, fight, imp):
    encounter, ana, bo = fight
    a, b = key(encounter, "Ana"), key(encounter, "Bo")
    client.force_login(imp)
    post_step(client, encounter, kind="trigger", claimants=[a])
    hp = url(encounter, "initiative_hp", c=int(a))
    encounter.refresh_from_db()
    client.post(hp, {"version": encounter.version, f"c{a}-change": "damage",
                     f"c{a}-amount": "3"})
    encounter.refresh_from_db()
    client.post(url(encounter, "initiative_undo"), {"version": encounter.version})
    tracker = service.load(encounter)
    assert tracker.state.fighter(a).hp == tracker.state.fighter(a).hp_max
    encounter.refresh_from_db()
    client.post(url(encounter, "initiative_hp", c=int(b)),
                {"version": encounter.version, f"c{b}-change": "damage",
                 f"c{b}-amount": "999"})
    encounter.refresh_from_db()
    client.post(hp, {"version": encounter.version, f"c{a}-change": "damage",
                     f"c{a}-amount": "2"})
    post_step(client, encounter, kind="end")
    ana.refresh_from_db()
    bo.refresh_from_db()
    assert ana.hp_current is None  # refilled to maximum
    assert bo.hp_current < 0 and "fallen" in service.sheet_for(bo).statuses
    encounter.refresh_from_db()
    assert encounter.status == "ended"
    response = client.post(url(encounter, "initiative_undo"), {"version": encounter.version})
    assert response.status_code == 400 and "cannot be undone" in response.content.decode()


def test_players_do_not_see_foes_hp(client, fight, imp):
    encounter, ana, _ = fight
    a, g = key(encounter, "Ana"), encounter.combatants.get(name="Goblins").pk
    client.force_login(imp)
    post_step(client, encounter, kind="trigger", claimants=[a])
    encounter.refresh_from_db()
    client.post(url(encounter, "initiative_hp", c=g),
                {"version": encounter.version, f"c{g}-change": "damage", f"c{g}-amount": "2"})
    assert "Goblins takes 2 damage (4/6 HP)" in client.get(url(encounter)).content.decode()
    client.force_login(ana.owner)
    html = client.get(url(encounter)).content.decode()
    assert "4/6" not in html and "3 members" in html


def test_removing_a_combatant_in_setup_takes_its_setup_steps(client, fight, imp):
    encounter, *_ = fight
    g = encounter.combatants.get(name="Goblins").pk
    client.force_login(imp)
    client.post(url(encounter, "initiative_statuses", c=g),
                {"version": encounter.version, f"s{g}-statuses": ["surprised"]})
    assert InitiativeStep.objects.count() == 1
    assert "surprised" in service.load(encounter).state.fighter(str(g)).statuses
    encounter.refresh_from_db()
    client.post(url(encounter, "initiative_remove", c=g), {"version": encounter.version})
    assert InitiativeStep.objects.count() == 0 and not service.load(encounter).failed


def test_status_form_rejects_unknown_status(client, fight, imp):
    encounter, *_ = fight
    g = encounter.combatants.get(name="Goblins").pk
    client.force_login(imp)
    response = client.post(url(encounter, "initiative_statuses", c=g),
                           {"version": encounter.version, f"s{g}-statuses": ["sleepy"]})
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()


def test_player_sees_your_turn(client, fight, imp):
    encounter, ana, _ = fight
    client.force_login(imp)
    post_step(client, encounter, kind="trigger", claimants=[key(encounter, "Ana")])
    client.force_login(ana.owner)
    assert "Your turn: Ana acts." in client.get(url(encounter)).content.decode()


def test_dodge_button_and_rally_note(client, fight, imp):
    encounter, *_ = fight
    a, b, g = key(encounter, "Ana"), key(encounter, "Bo"), key(encounter, "Goblins")
    client.force_login(imp)
    post_step(client, encounter, kind="trigger", claimants=[a])
    post_step(client, encounter, kind="act", key=a, targets=[g])
    html = client.get(url(encounter)).content.decode()
    assert "Dodge: Goblins" in html and "Pass to: Goblins" in html
    post_step(client, encounter, kind="dodge", key=g)
    html = client.get(url(encounter)).content.decode()
    assert "Dodge: Goblins" not in html
    assert "Pass to: Goblins" not in html and "Pass to: Bo" in html
    post_step(client, encounter, kind="pass", to=b)
    html = client.get(url(encounter)).content.decode()
    assert "Bo may Rally: chosen by Ana" in html


def test_rally_note_offers_cha_only_from_an_ally(client, fight, imp):
    """A foe passing Initiative lends no CHA to the Rally (Scenes > Actions > Rally)."""
    encounter, *_ = fight
    a, b, g = key(encounter, "Ana"), key(encounter, "Bo"), key(encounter, "Goblins")
    client.force_login(imp)
    post_step(client, encounter, kind="trigger", claimants=[a])
    post_step(client, encounter, kind="act", key=a)
    post_step(client, encounter, kind="pass", to=b)
    html = client.get(url(encounter)).content.decode()
    assert "Bo may Rally: chosen by Ana" in html and "or Ana's CHA" in html
    post_step(client, encounter, kind="act", key=b)
    post_step(client, encounter, kind="pass", to=g)
    html = client.get(url(encounter)).content.decode()
    assert "Goblins may Rally: chosen by Bo" in html
    assert "Bo's CHA" not in html and "Rally die + END only: Bo is a foe" in html


def test_end_writes_back_chosen_statuses_only(client, fight, imp):
    encounter, ana, bo = fight
    a = key(encounter, "Ana")
    client.force_login(imp)
    post_step(client, encounter, kind="trigger", claimants=[a])
    encounter.refresh_from_db()
    client.post(url(encounter, "initiative_statuses", c=int(a)),
                {"version": encounter.version, f"s{a}-statuses": ["staggered", "burning"]})
    encounter.refresh_from_db()
    client.post(url(encounter, "initiative_hp", c=int(a)),
                {"version": encounter.version, f"c{a}-change": "damage", f"c{a}-amount": "4"})
    post_step(client, encounter, kind="end")
    ana.refresh_from_db()
    bo.refresh_from_db()
    max_hp = service.sheet_for(ana).value("hp_armored")
    assert ana.hp_current == max_hp - 4  # Burning: cannot Rally, no refill
    assert ana.statuses == ["staggered", "burning"]
    assert bo.hp_current is None and bo.statuses == []


def test_create_with_a_session_of_this_campaign_only(client, campaign, imp):
    from tests.factories import CampaignFactory, SessionFactory

    mine = SessionFactory(campaign=campaign)
    other = SessionFactory(campaign=CampaignFactory())
    client.force_login(imp)
    path = reverse("campaigns:initiative_list", args=[campaign.pk])
    assert f'value="{mine.pk}" selected' in client.get(path).content.decode()
    response = client.post(path, {"name": "Ambush", "session": other.pk})
    assert response.status_code == 400
    assert "Choose a session of this campaign." in response.content.decode()
    client.post(path, {"name": "Ambush", "session": mine.pk})
    assert Encounter.objects.get().session == mine
    assert f"Session {mine.number}" in client.get(path).content.decode()


def test_reinforcements_join_during_initiative_and_undo_takes_them_out(client, fight, imp):
    encounter, *_ = fight
    a = key(encounter, "Ana")
    client.force_login(imp)
    post_step(client, encounter, kind="trigger", claimants=[a])
    post_step(client, encounter, kind="act", key=a, targets=[])
    encounter.refresh_from_db()
    response = client.post(url(encounter, "initiative_foe"), {
        "version": encounter.version, "name": "Wolf", "side": "foes", "hp_max": "8"})
    assert response.status_code == 302
    wolf = encounter.combatants.get(name="Wolf")
    assert wolf.joined_midway
    tracker = service.load(encounter)
    assert not tracker.failed
    assert wolf.key in tracker.state.legal_passes()
    assert tracker.state.log[-1].text == "Wolf joins the fight."
    html = client.get(url(encounter)).content.decode()
    assert "Pass to: Wolf" in html and "Reinforcements" in html
    encounter.refresh_from_db()
    client.post(url(encounter, "initiative_undo"), {"version": encounter.version})
    assert not encounter.combatants.filter(name="Wolf").exists()
    assert not service.load(encounter).failed


def test_remove_refused_once_running(client, fight, imp):
    encounter, *_ = fight
    a = key(encounter, "Ana")
    client.force_login(imp)
    post_step(client, encounter, kind="trigger", claimants=[a])
    encounter.refresh_from_db()
    response = client.post(url(encounter, "initiative_remove", c=int(a)),
                           {"version": encounter.version})
    assert response.status_code == 400
    assert "only before Initiative is triggered" in response.content.decode()


def test_a_new_party_member_joins_mid_fight(client, fight, imp, seat):
    encounter, *_ = fight
    a = key(encounter, "Ana")
    client.force_login(imp)
    post_step(client, encounter, kind="trigger", claimants=[a])
    cleo = seat(name="Cleo")
    encounter.refresh_from_db()
    html = client.get(url(encounter)).content.decode()
    assert "Add the campaign's characters (1)" in html
    client.post(url(encounter, "initiative_party"), {"version": encounter.version})
    combatant = encounter.combatants.get(character=cleo)
    state = service.load(encounter).state
    assert state.fighter(combatant.key).has_action
    assert state.fighter(combatant.key).hp_max == service.sheet_for(cleo).value("hp_armored")


def test_wait_action_with_a_nul_byte_is_stored_without_it(client, fight, imp):
    encounter, *_ = fight
    a = key(encounter, "Ana")
    client.force_login(imp)
    post_step(client, encounter, kind="trigger", claimants=[a])
    response = post_step(client, encounter, kind="wait", key=a, action="Strike\x00 the door")
    assert response.status_code in (200, 302)
    step = InitiativeStep.objects.order_by("-pk").first()
    assert step.kind == "wait" and "\x00" not in str(step.payload)
    assert "Strike the door" in str(step.payload)


# -- a long log pages (issue 12) ------------------------------------------------------------


def log_lines(html: str) -> list[str]:
    logs = re.findall(r'<ol class="small initiative-log"[^>]*>(.*?)</ol>', html, re.S)
    return re.findall(r"<li>(.*?)</li>", logs[0], re.S) if logs else []


def test_a_long_initiative_log_shows_a_page_and_links_older(client, fight, imp, monkeypatch):
    from campaigns import initiative_views

    encounter, ana, bo = fight
    assert initiative_views.log_page(list("abcde")).rows == list("edcba")
    assert initiative_views.log_page(list("abcde"), "3").rows == list("ba")
    client.force_login(imp)
    a, g = key(encounter, "Ana"), key(encounter, "Goblins")
    post_step(client, encounter, kind="trigger", claimants=[a])
    post_step(client, encounter, kind="act", key=a, targets=[g], action="melee Attack")
    encounter.refresh_from_db()
    everything = service.load(encounter).state.log
    assert len(everything) >= 2
    monkeypatch.setattr(initiative_views, "LOG_SHOWN", 1)
    page = client.get(url(encounter)).content.decode()
    assert len(log_lines(page)) == 1
    older = re.search(r'href="([^"]*\?before=(\d+))#log"', page)
    assert older and int(older.group(2)) == len(everything)
    second = client.get(older.group(1)).content.decode()
    assert len(log_lines(second)) == 1 and log_lines(second) != log_lines(page)
    assert "data-pager-newest" in second
    for junk in ("xyz", "-1", "99999", "²"):
        assert client.get(url(encounter), {"before": junk}).status_code == 200
    # The players' live view: the newest page polls, an older one does not.
    client.force_login(ana.owner)
    assert 'hx-trigger="every 2s"' in client.get(url(encounter)).content.decode()
    old = client.get(older.group(1)).content.decode()
    assert 'hx-trigger="every 2s"' not in old and "data-pager-newest" in old
