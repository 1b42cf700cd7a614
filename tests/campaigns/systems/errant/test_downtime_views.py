"""The Downtime page: who reads and who runs it, each step posted in order, hostile input
answered beside its field with what was typed kept (never a 500), the log poll's 304."""

import pytest
from django.urls import reverse

from campaigns.systems.errant import downtime
from campaigns.systems.errant.turn_models import ErrantTurn
from tests.factories import CampaignFactory, MembershipFactory

pytestmark = pytest.mark.django_db


def co(name, campaign):
    return reverse(f"campaigns:{name}", args=[campaign.pk])


def test_anonymous_outsiders_and_other_systems(client, campaign, wren):
    assert client.get(co("errant_downtime", campaign)).status_code == 302
    outsider = MembershipFactory().user
    client.force_login(outsider)
    assert client.get(co("errant_downtime", campaign)).status_code == 404
    assert client.post(co("errant_downtime_start", campaign)).status_code == 404
    other = CampaignFactory()
    MembershipFactory(campaign=other, user=outsider)
    assert client.get(co("errant_downtime", other)).status_code == 404


def test_players_read_the_guide_runs(client, campaign, guide, player, wren):
    downtime.start(campaign=campaign, by=guide, settlement="city")
    client.force_login(player)
    page = client.get(co("errant_downtime", campaign))
    assert page.status_code == 200 and b"Downtime Turn 1" in page.content
    assert b"step-form" not in page.content
    assert client.post(co("errant_downtime_step", campaign), {}).status_code == 403
    assert client.post(co("errant_downtime_undo", campaign), {}).status_code == 403
    log = client.get(co("errant_downtime_log", campaign), HTTP_HX_REQUEST="true")
    assert log.status_code == 200 and b"declared in a city" in log.content
    again = client.get(co("errant_downtime_log", campaign), HTTP_HX_REQUEST="true",
                       HTTP_IF_NONE_MATCH=log["ETag"])
    assert again.status_code == 304


def test_the_guide_walks_steps_by_post(client, campaign, guide, wren):
    client.force_login(guide)
    page = client.get(co("errant_downtime", campaign))
    assert b"Begin a Downtime Turn" in page.content
    response = client.post(co("errant_downtime_start", campaign),
                           {"settlement": "town", "seen": "0", "request_key": "a"})
    assert response.status_code == 302
    turn = ErrantTurn.objects.get()
    page = client.get(co("errant_downtime", campaign))
    assert b"Restore and remove Supply" in page.content
    response = client.post(co("errant_downtime_step", campaign), {
        "turn": turn.pk, "step": "recover", "action": "finish",
        "seen": downtime.version(turn)})
    assert response.status_code == 302
    page = client.get(co("errant_downtime", campaign))
    assert b"Roll the Event Die" in page.content and b"1/6" in page.content


@pytest.mark.parametrize("data,field,message", [
    ({"step": "event_die", "extra_positive": "lots"}, "extra_positive", b"whole number"),
    ({"step": "event_die", "extra_negative": "-1"}, "extra_negative", b"whole number"),
    ({"step": "debt"}, None, b"Next comes"),
    ({"step": "event_die", "action": "<script>"}, None, b"Unknown action"),
])
def test_hostile_input_is_answered_beside_the_field(client, campaign, guide, wren, data,
                                                    field, message):
    turn = downtime.start(campaign=campaign, by=guide, settlement="town")
    turn = downtime.act(campaign=campaign, by=guide, turn_pk=turn.pk, step="recover")
    client.force_login(guide)
    response = client.post(co("errant_downtime_step", campaign), {
        "turn": turn.pk, "action": "finish", **data})
    assert response.status_code == 200 and message in response.content
    if field:
        assert f'id="errors-{field}"'.encode() in response.content
        assert data[field].encode() in response.content  # what was typed is kept
    turn.refresh_from_db()
    assert turn.event_face is None


def test_bad_start_and_undo_input(client, campaign, guide, wren):
    client.force_login(guide)
    response = client.post(co("errant_downtime_start", campaign), {"settlement": "moon"})
    assert response.status_code == 200 and b"Choose a settlement" in response.content
    response = client.post(co("errant_downtime_undo", campaign), {"turn": "x"})
    assert response.status_code == 302 and not ErrantTurn.objects.exists()
    response = client.post(co("errant_downtime_step", campaign), {"turn": "99"})
    assert response.status_code == 200 and b"not in this Company" in response.content


def test_the_event_odds_follow_the_dice_typed(client, campaign, guide, wren):
    from rules.engine.errant import event_die
    turn = downtime.start(campaign=campaign, by=guide, settlement="town")
    downtime.act(campaign=campaign, by=guide, turn_pk=turn.pk, step="recover")
    client.force_login(guide)
    page = client.get(co("errant_downtime", campaign), {"extra_negative": "2"},
                      HTTP_HX_REQUEST="true")
    one = event_die.distribution(0, 2)[1]
    assert f"{one.numerator}/{one.denominator}".encode() in page.content
    assert client.get(co("errant_downtime", campaign),
                      {"extra_negative": "x"}).status_code == 200


def test_the_guide_tracks_a_scourge_by_post(client, campaign, guide, player, wren):
    turn = downtime.start(campaign=campaign, by=guide, settlement="town")
    client.force_login(guide)
    url = co("errant_downtime_scourge", campaign)
    response = client.post(url, {"turn": turn.pk, "action": "add", "scourge": ""})
    assert response.status_code == 200 and b"Name the Scourge." in response.content
    response = client.post(url, {"turn": turn.pk, "action": "add", "scourge": "Lich",
                                 "seen": downtime.version(turn)})
    assert response.status_code == 302
    response = client.post(url, {"turn": turn.pk, "action": "locus", "scourge": "Lich"})
    assert response.status_code == 200 and b"no locus" in response.content
    client.force_login(player)
    assert b'data-scourge="Lich"' in client.get(co("errant_downtime", campaign)).content
    assert client.post(url, {"turn": turn.pk, "action": "add"}).status_code == 403


def test_a_stale_page_is_sent_back_to_the_walk_and_a_double_click_counts_once(
        client, campaign, guide, wren):
    turn = downtime.start(campaign=campaign, by=guide, settlement="town")
    client.force_login(guide)
    post = {"turn": turn.pk, "step": "recover", "action": "finish",
            "seen": downtime.version(turn), "request_key": "once"}
    assert client.post(co("errant_downtime_step", campaign), post).status_code == 302
    assert client.post(co("errant_downtime_step", campaign), post).status_code == 302
    turn.refresh_from_db()
    assert turn.state["done"] == ["declare", "recover"]
    response = client.post(co("errant_downtime_step", campaign), {
        **post, "step": "event_die", "request_key": "other"}, follow=True)
    assert b"moved on since the page was loaded" in response.content
    turn.refresh_from_db()
    assert turn.event_face is None
