"""The fight pages: who sees and does what (anonymous, a non-member, another system, a
player, the Guide), the live view's secrets and its 304, hostile input answered beside the
form, never a 500."""

import random
import re

import pytest
from django.urls import reverse

from campaigns import services
from campaigns.systems.errant import fight
from campaigns.systems.errant.fight_models import ErrantFight, ErrantFightStep
from tests.characters.systems.errant.helpers import make_wren
from tests.factories import CampaignFactory, MembershipFactory

pytestmark = pytest.mark.django_db

class Dice(random.Random):
    """Gives the faces listed, in order."""

    def __init__(self, *faces):
        super().__init__()
        self.faces = list(faces)

    def randint(self, a, b):
        return self.faces.pop(0) if self.faces else a


NPC = {"name": "Bog hag", "threat": 3, "hp": 13, "att": "claws D8", "mv": "2",
       "morale": 9, "alignment": "Chaotic", "damage_sides": 8, "warband": 0}


def co(name, campaign, *args):
    return reverse(f"campaigns:{name}", args=[campaign.pk, *args])


@pytest.fixture
def running(campaign, guide, wren, ash):
    f = fight.start(campaign=campaign, by=guide, name="Bog", character_pks=[wren.pk, ash.pk])
    f.refresh_from_db()
    fight.step(campaign=campaign, by=guide, fight_pk=f.pk, version=f.version, kind="npc",
               payload=NPC)
    f.refresh_from_db()
    return f


def test_anonymous_is_sent_to_log_in(client, campaign):
    for name in ("errant_fight", "errant_fight_live"):
        response = client.get(co(name, campaign))
        assert response.status_code == 302 and "login" in response.url


def test_a_non_member_and_another_system_get_404(client, campaign, running):
    outsider = MembershipFactory().user
    client.force_login(outsider)
    assert client.get(co("errant_fight", campaign)).status_code == 404
    assert client.get(co("errant_fight_live", campaign)).status_code == 404
    other_system = CampaignFactory()
    MembershipFactory(campaign=other_system, user=outsider)
    assert client.get(co("errant_fight_live", other_system)).status_code == 404
    assert client.post(co("errant_fight_step", other_system, running.pk, "end")
                       ).status_code == 404


def test_a_player_reads_the_live_view_without_the_npcs_numbers(client, campaign, player,
                                                                running, wren, ash):
    client.force_login(player)
    assert client.get(co("errant_fight", campaign)).url == co("errant_fight_live", campaign)
    page = client.get(co("errant_fight_live", campaign)).content.decode()
    assert "Bog hag" in page and "Threat" not in page and "Morale 9" not in page
    assert "13" not in page.split("Bog hag</th>")[1].split("</tr>")[0]
    assert "data-own-hp" in page.split(wren.display_name + "</th>")[1].split("</tr>")[0]
    assert "data-own-hp" not in page.split(ash.display_name + "</th>")[1].split("</tr>")[0]
    assert client.post(co("errant_fight_step", campaign, running.pk, "end"),
                       {"version": running.version}).status_code == 403
    assert client.post(co("errant_fight_undo", campaign, running.pk)).status_code == 403
    assert client.post(co("errant_fight_start", campaign)).status_code == 403


def test_the_live_view_answers_304_when_nothing_changed(client, campaign, player, running,
                                                        guide):
    client.force_login(player)
    headers = {"HX-Request": "true"}
    first = client.get(co("errant_fight_live", campaign), headers=headers)
    assert first.status_code == 200 and 'id="fight-live"' in first.content.decode()
    again = client.get(co("errant_fight_live", campaign),
                       headers={**headers, "If-None-Match": first["ETag"]})
    assert again.status_code == 304
    fight.step(campaign=campaign, by=guide, fight_pk=running.pk, version=running.version,
               kind="turn", payload={"call": "odd"})
    changed = client.get(co("errant_fight_live", campaign),
                         headers={**headers, "If-None-Match": first["ETag"]})
    assert changed.status_code == 200 and "Initiative Turn 1" in changed.content.decode()


def test_the_guide_runs_a_turn_through_the_pages(client, campaign, guide, running, wren):
    client.force_login(guide)
    page = client.get(co("errant_fight", campaign)).content.decode()
    assert "Threat 3" in page and "1/2 (50%)" in page and "Roll both d6" in page
    response = client.post(co("errant_fight_step", campaign, running.pk, "turn"),
                           {"version": running.version, "call": "even", "caller": "Wren"})
    assert response.status_code == 302
    page = client.get(co("errant_fight", campaign)).content.decode()
    assert "data-errant-die" in page and "data-winner" in page and "Quick (1 action)" in page
    running.refresh_from_db()
    key = f"e{wren.pk}"
    client.post(co("errant_fight_step", campaign, running.pk, "pace"),
                {"version": running.version, "key": key, "pace": "slow"})
    assert fight.state_of(running).turn.combatant(key).pace == "slow"


def test_a_stale_click_is_refused_with_a_message(client, campaign, guide, running):
    client.force_login(guide)
    response = client.post(co("errant_fight_step", campaign, running.pk, "end"),
                           {"version": running.version - 1})
    assert response.status_code == 200 and "changed since this page" in response.content.decode()
    assert not ErrantFight.objects.get(pk=running.pk).ended


@pytest.mark.parametrize("data", [
    {"name": "<script>x</script>", "threat": "eleven"}, {"name": "Ogre", "threat": "99"},
    {"name": "Ogre", "hp": "-5"}, {"name": "Ogre", "mv": "'; drop table"},
    {"name": "x" * 500}, {"name": "Ogre", "morale": "1e9"}, {"name": "Ogre",
                                                              "damage_sides": "7"}])
def test_hostile_npc_input_is_refused_beside_the_form_and_kept(client, campaign, guide,
                                                               running, data):
    client.force_login(guide)
    before = ErrantFightStep.objects.count()
    response = client.post(co("errant_fight_step", campaign, running.pk, "npc"),
                           {"version": running.version, **data})
    body = response.content.decode()
    assert response.status_code == 200 and 'data-fight-error="npc"' in body
    assert "<script>x</script>" not in body
    assert ErrantFightStep.objects.count() == before


def test_an_unknown_step_and_another_fight_are_404(client, campaign, guide, running):
    client.force_login(guide)
    assert client.post(co("errant_fight_step", campaign, running.pk, "setup")
                       ).status_code == 404
    assert client.post(co("errant_fight_step", campaign, running.pk, "nap")).status_code == 404
    assert client.post(co("errant_fight_step", campaign, 99999, "end"),
                       {"version": 1}).status_code == 404


def test_the_campaign_page_links_the_fight(client, campaign, guide, player, running):
    client.force_login(guide)
    assert co("errant_fight", campaign) in client.get(campaign.get_absolute_url()
                                                      ).content.decode()
    client.force_login(player)
    assert co("errant_fight_live", campaign) in client.get(campaign.get_absolute_url()
                                                           ).content.decode()


HOSTILE = ["²", "-", "9" * 40, "\x00", "<b>x</b>", "e1 OR 1=1", "", " ", "n4\x01"]


@pytest.mark.parametrize("kind", ["turn", "pace", "act", "attack", "save", "wound",
                                  "stabilise", "morale", "effect", "npc", "hazard"])
def test_hostile_values_in_every_step_are_refused_not_500(client, campaign, guide, running,
                                                          kind):
    client.force_login(guide)
    fight.step(campaign=campaign, by=guide, fight_pk=running.pk, version=running.version,
               kind="turn", payload={"call": "odd"}) if kind != "turn" else None
    running.refresh_from_db()
    before = ErrantFightStep.objects.count()
    for value in HOSTILE:
        data = dict.fromkeys(("key", "target", "pace", "kind", "call", "caller", "column",
                              "label", "turns", "dice", "enhance", "reduction", "name",
                              "threat", "hp", "mv", "morale", "damage_sides", "surprised",
                              "hazard", "feet", "douse"),
                             value)
        response = client.post(co("errant_fight_step", campaign, running.pk, kind),
                               {**data, "version": running.version,
                                "request_key": "k" * 200})
        assert response.status_code == 200, (kind, value)
        assert f'data-fight-error="{kind}"' in response.content.decode()
    assert ErrantFightStep.objects.count() == before


def test_the_guide_ends_the_fight_and_undoes_its_end_from_the_page(client, campaign, guide,
                                                                   running):
    client.force_login(guide)
    client.post(co("errant_fight_step", campaign, running.pk, "end"),
                {"version": running.version})
    running.refresh_from_db()
    assert running.ended
    page = client.get(co("errant_fight", campaign)).content.decode()
    assert "data-undo-end" in page and "Roll distance and surprise" in page
    client.post(co("errant_fight_undo", campaign, running.pk), {"version": running.version})
    running.refresh_from_db()
    assert not running.ended


def test_the_guides_page_marks_an_alert_deviant(client, campaign, guide, wren):
    """ER §The Deviant, Awareness mastery (AMB-E-ALERT): the Guide sees who acts even when
    surprised; an Errant without the mastery is not marked."""
    user = MembershipFactory(campaign=campaign).user
    quill = make_wren(user, name="Quill", archetype="deviant", kit_choice="burglars_tools",
                      proficiencies=[["awareness", 2], ["lore", 1]])
    services.character_join(campaign=campaign, character=quill, by=user)
    fight.start(campaign=campaign, by=guide, name="Ambush", character_pks=[wren.pk, quill.pk])
    client.force_login(guide)
    page = client.get(co("errant_fight", campaign)).content.decode()
    assert page.count("data-alert") == 1
    assert "Alert: acts even when surprised" in page.split("Quill", 1)[1]


def test_the_sneak_attack_box_through_the_pages(client, campaign, guide, player, other,
                                                wren):
    """The Attack form's Sneak attack box (ER §The Deviant): anonymous is sent to log in,
    a player (the Deviant's owner or another) is refused, the Guide rolls the Deviant's
    three dice (Assassin); a Violent's sneak attack is refused beside the form, no 500."""
    moth = make_wren(other, name="Moth", archetype="deviant", kit_choice="burglars_tools",
                     proficiencies=[["stealth", 2]])
    services.character_join(campaign=campaign, character=moth, by=other)
    f = fight.start(campaign=campaign, by=guide, name="Alley",
                    character_pks=[wren.pk, moth.pk], rng=Dice(3, 3))  # nobody surprised
    f.refresh_from_db()
    fight.step(campaign=campaign, by=guide, fight_pk=f.pk, version=f.version, kind="npc",
               payload={**NPC, "hp": 99})
    f.refresh_from_db()
    fight.step(campaign=campaign, by=guide, fight_pk=f.pk, version=f.version, kind="turn",
               payload={"call": "even"}, rng=Dice(1, 1))  # the Company wins
    state = fight.state_of(f)
    npc = next(k for k in state.fighters if k.startswith("n"))
    m = f"e{moth.pk}"
    for key in (m, f"e{wren.pk}"):
        f.refresh_from_db()
        fight.step(campaign=campaign, by=guide, fight_pk=f.pk, version=f.version,
                   kind="pace", payload={"key": key, "pace": "quick"})
    f.refresh_from_db()
    url = co("errant_fight_step", campaign, f.pk, "attack")
    data = {"version": f.version, "key": m, "target": npc, "sneak": "on", "dice": "1"}
    assert client.post(url, data).url.startswith(reverse("login"))
    for user in (other, player):
        client.force_login(user)
        assert client.post(url, data).status_code == 403
    client.force_login(guide)
    page = client.get(co("errant_fight", campaign)).content.decode()
    assert 'name="sneak"' in page and "Moth (D6; sneak attack 3 dice)" in page
    before = ErrantFightStep.objects.count()
    refused = client.post(url, {**data, "key": f"e{wren.pk}"})
    body = refused.content.decode()
    assert refused.status_code == 200 and 'data-fight-error="attack"' in body
    assert 'data-error-field="sneak"' in body and "cannot make a sneak attack" in body
    assert ErrantFightStep.objects.count() == before
    hostile = client.post(url, {**data, "key": "<script>x</script>"})
    assert hostile.status_code == 200 and "<script>x</script>" not in hostile.content.decode()
    assert ErrantFightStep.objects.count() == before
    f.refresh_from_db()
    response = client.post(url, {**data, "version": f.version})
    assert response.status_code == 302
    step = ErrantFightStep.objects.filter(kind="attack").latest("seq")
    assert len(step.payload["faces"]) == 3 and "Moth sneak attacks" in step.text


def test_fire_in_one_click_through_the_pages(client, campaign, guide, player, running, wren):
    """The combatants' table: Set on fire, then Burn (n D6 in the n-th Turn, AMB-E10) in one
    click; anonymous is sent to log in, a player (the owner or not) is refused; hostile
    input is refused beside the table, never a 500; undo takes the burn back."""
    w = f"e{wren.pk}"
    url = co("errant_fight_step", campaign, running.pk, "fire")
    data = {"version": running.version, "key": w, "do": "ignite"}
    assert client.post(url, data).url.startswith(reverse("login"))
    client.force_login(player)
    assert client.post(url, data).status_code == 403
    client.force_login(guide)
    page = client.get(co("errant_fight", campaign)).content.decode()
    assert f'data-ignite="{w}"' in page
    before = ErrantFightStep.objects.count()
    for bad in ({"do": "smother"}, {"do": "burn"}, {"key": "<script>x</script>"},
                {"do": "\x00"}):
        response = client.post(url, {**data, **bad})
        body = response.content.decode()
        assert response.status_code == 200 and 'data-fight-error="fire"' in body
        assert "<script>x</script>" not in body
    assert ErrantFightStep.objects.count() == before
    assert client.post(url, data).status_code == 302
    running.refresh_from_db()
    page = client.get(co("errant_fight", campaign)).content.decode()
    assert f'data-burn="{w}"' in page and "on fire: next Turn 1D6" in page
    hp = fight.state_of(running).fighters[w].hp
    assert client.post(url, {"version": running.version, "key": w, "do": "burn"}
                       ).status_code == 302
    state = fight.state_of(running)
    assert state.fighters[w].fire_turns == 1 and state.fighters[w].hp < hp
    running.refresh_from_db()
    client.post(co("errant_fight_undo", campaign, running.pk), {"version": running.version})
    state = fight.state_of(running)
    assert state.fighters[w].fire_turns == 0 and state.fighters[w].hp == hp


def _wren_wounded(campaign, guide, wren, column, wound=7, *dice):
    """Wren at 1 HP takes 1 + `wound` from the NPC, passes the Save and takes the wound
    from `column`; the Company's quick phase opens with her pace chosen."""
    wren.hp_current = 1
    wren.save(update_fields=["hp_current"])
    f = fight.start(campaign=campaign, by=guide, name="Mire", character_pks=[wren.pk],
                    rng=Dice(3, 3))
    w = f"e{wren.pk}"

    def step(kind, payload, *faces):
        f.refresh_from_db()
        return fight.step(campaign=campaign, by=guide, fight_pk=f.pk, version=f.version,
                          kind=kind, payload=payload, rng=Dice(*faces))

    step("npc", {**NPC, "damage_sides": 20})
    step("turn", {"call": "odd"}, 1, 1)  # even: the NPCs win
    npc = next(k for k in fight.state_of(f).fighters if k.startswith("n"))
    step("pace", {"key": npc, "pace": "quick"})
    step("attack", {"key": npc, "target": w}, 1 + wound)  # 1 HP: DV 1 + wound
    step("save", {"key": w}, 2 + wound)  # one above the DV, within phys: stays in action
    step("wound", {"key": w, "column": column}, *dice)
    step("next_phase", {})
    step("pace", {"key": w, "pace": "quick"})
    return f, w



def test_a_wound_that_forbids_the_move_through_the_pages(client, campaign, guide, player,
                                                         other, wren):
    """IT §Death & Dying, toxic 7: "Nervous system shutdown. Can't move" (AMB-E-FIGHT-6).
    Anonymous is sent to log in; a player (Wren's owner or another) gets 403; the Guide's
    move is refused beside the Action field, what was chosen kept, nothing written; the
    limit is named on the Guide's page and on the owner's live view; hostile input is
    refused beside the form, never a 500; another kind of action is taken."""
    f, w = _wren_wounded(campaign, guide, wren, "toxic")
    assert fight.state_of(f).fighters[w].limits.no_move
    f.refresh_from_db()
    url = co("errant_fight_step", campaign, f.pk, "act")
    data = {"version": f.version, "key": w, "kind": "move", "note": "to the door"}
    assert client.post(url, data).url.startswith(reverse("login"))
    for user in (player, other):
        client.force_login(user)
        assert client.post(url, data).status_code == 403
    live = client.get(co("errant_fight_live", campaign)).content.decode()
    assert "can&#x27;t move" not in live  # another player's Errant: no HP, wounds, limits
    client.force_login(player)
    live = client.get(co("errant_fight_live", campaign)).content.decode()
    assert "data-limit" in live and "can&#x27;t move" in live
    client.force_login(guide)
    page = client.get(co("errant_fight", campaign)).content.decode()
    assert "data-limit" in page and f"{wren.display_name} (can&#x27;t move)" in page
    before = ErrantFightStep.objects.count()
    refused = client.post(url, data)
    body = refused.content.decode()
    assert refused.status_code == 200 and 'data-fight-error="act"' in body
    assert 'data-error-field="kind"' in body
    assert f"{wren.display_name} can&#x27;t move (nervous system shutdown)" in body
    assert 'value="to the door"' in body and "<option selected>move</option>" in body
    for bad in ({"kind": "<script>x</script>"}, {"key": "\x00"}, {"kind": ""},
                {"note": "x" * 500}):
        response = client.post(url, {**data, **bad})
        assert response.status_code == 200 and 'data-fight-error="act"' in \
            response.content.decode()
        assert "<script>x</script>" not in response.content.decode()
    assert ErrantFightStep.objects.count() == before
    taken = client.post(url, {**data, "kind": "ready"})
    assert taken.status_code == 302, re.findall(r"data-fight-error.*", taken.content.decode())
    assert fight.state_of(f).turn.actions[-1] == (w, "ready")


def test_a_timed_knockout_shows_its_turns_left(client, campaign, guide, player, wren):
    """IT §Death & Dying, shock 3: "Knocked out for D12 Initiative Turns" (AMB-E-FIGHT-6):
    the Guide's page and the owner's live view show the Turns left; the act is refused
    beside the form while it lasts."""
    f, w = _wren_wounded(campaign, guide, wren, "shock", 3, 4)  # D12: 4
    client.force_login(guide)
    page = client.get(co("errant_fight", campaign)).content.decode()
    assert "knocked out (4 Turns)" in page and "D12 4, no action for 4" in page
    f.refresh_from_db()
    refused = client.post(co("errant_fight_step", campaign, f.pk, "act"),
                          {"version": f.version, "key": w, "kind": "ready",
                           "knocked_out_turns": "1"})
    assert refused.status_code == 200 and "out of action" in refused.content.decode()
    client.force_login(player)
    live = client.get(co("errant_fight_live", campaign)).content.decode()
    assert "knocked out (4 Turns)" in live
