"""The Turn log page: who sees and does what (anonymous, a non-member, another system's
campaign, a player, the Guide), the players' live poll (304 when nothing is new), the
secrets kept from players, hostile input answered beside the field (never a 500), the
odds before rolling, and the undo's refusal shown."""

import re

import pytest
from django.urls import reverse

from campaigns.systems.errant import travel, turns
from campaigns.systems.errant.turn_models import ErrantTurn
from characters.systems.errant.models import ErrantCharacter
from tests.factories import CampaignFactory, MembershipFactory

from .test_travel_turns import Dice

pytestmark = pytest.mark.django_db

TRAVEL = {"action": "peregrinate", "season": "spring", "speed": "normal", "base_dv": "5",
          "attribute": "skill", "campsite_if_failed": "uncomfortable", "extra_positive": "0",
          "extra_negative": "0", "rest_choice": "rest", "terrain": "wild", "seen": "0"}


def url(name, campaign, *args):
    return reverse(f"campaigns:{name}", args=[campaign.pk, *args])


@pytest.fixture
def lost(campaign, guide, wren):
    """A Travel Turn where the pathfinder got lost: DV 5 + wild 4 = 9, d20 20, d6 4 (S)."""
    return travel.run(campaign=campaign, by=guide, rng=Dice(20, 4, 6), plan=travel.TravelPlan(
        action="peregrinate", base_dv=5, terrain="wild", pathfinder=wren.pk))


def test_anonymous_is_sent_to_log_in(client, campaign):
    for name in ("errant_turns", "errant_turn_log"):
        response = client.get(url(name, campaign))
        assert response.status_code == 302 and "login" in response.url


def test_a_non_member_and_another_system_get_404(client, campaign, wren):
    outsider = MembershipFactory().user
    client.force_login(outsider)
    assert client.get(url("errant_turns", campaign)).status_code == 404
    assert client.post(url("errant_travel_run", campaign), TRAVEL).status_code == 404
    other_system = CampaignFactory()
    MembershipFactory(campaign=other_system, user=outsider)
    assert client.get(url("errant_turns", other_system)).status_code == 404
    assert client.get(url("errant_turn_log", other_system)).status_code == 404


def test_a_player_reads_without_secrets_and_cannot_write(client, campaign, player, lost):
    client.force_login(player)
    page = client.get(url("errant_turns", campaign))
    html = page.content.decode()
    assert page.status_code == 200 and "Travel Turn 1" in html
    assert "keeps its result" in html
    assert lost.secret["navigation_dv"] == 9
    assert "DV 9" not in html and "DV <strong>9" not in html and "data-turn-secret" not in html
    assert "data-lost" not in html and "move S" not in html
    assert "Run a Travel Turn" not in html and "data-turn-undo" not in html
    for name, args in (("errant_travel_run", ()), ("errant_travel_odds", ()),
                       ("errant_turn_other", ()), ("errant_turn_undo", (lost.pk,))):
        assert client.post(url(name, campaign, *args), TRAVEL).status_code == 403
    assert ErrantTurn.objects.count() == 1 and not ErrantTurn.objects.get().undone


def test_the_guide_sees_the_dv_and_the_direction(client, campaign, guide, lost):
    client.force_login(guide)
    html = client.get(url("errant_turns", campaign)).content.decode()
    assert "navigation DV <strong>9</strong>" in html and "they move S (d6 4)" in html
    assert "data-turn-undo" in html


def test_the_players_poll_answers_304_until_something_changes(client, campaign, guide,
                                                              player, lost):
    client.force_login(player)
    first = client.get(url("errant_turn_log", campaign), HTTP_HX_REQUEST="true")
    assert first.status_code == 200 and "Travel Turn 1" in first.content.decode()
    etag = first["ETag"]
    again = client.get(url("errant_turn_log", campaign), HTTP_HX_REQUEST="true",
                       HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    travel.run(campaign=campaign, by=guide, rng=Dice(6),
               plan=travel.TravelPlan(action="explore"))
    changed = client.get(url("errant_turn_log", campaign), HTTP_HX_REQUEST="true",
                         HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and "Travel Turn 2" in changed.content.decode()
    assert "DV <strong>" not in changed.content.decode()


def test_the_guide_runs_a_turn_from_the_page(client, campaign, guide, wren):
    client.force_login(guide)
    response = client.post(url("errant_travel_run", campaign), {**TRAVEL, "action": "explore",
                                                                 "activity": "The ruined mill"})
    assert response.status_code == 302
    turn = ErrantTurn.objects.get()
    assert turn.activity == "Explore: The ruined mill" and turn.event_face is not None
    assert len(turn.event_faces) == 1 + abs(turn.event_positive - turn.event_negative)


def test_the_odds_follow_the_form_before_rolling(client, campaign, guide, wren):
    client.force_login(guide)
    odds = client.post(url("errant_travel_odds", campaign),
                       {**TRAVEL, "extra_negative": "2"}).content.decode()
    assert "91/216" in odds and "42.13%" in odds  # E39: net -2, P(1) = 91/216
    assert "DV" in odds and not ErrantTurn.objects.exists()
    bad = client.post(url("errant_travel_odds", campaign), {**TRAVEL, "extra_negative": "x"})
    assert bad.status_code == 200 and "Give a whole number." in bad.content.decode()


@pytest.mark.parametrize("data,message", [
    ({"extra_negative": "lots"}, "Give a whole number."),
    ({"base_dv": "99999999999999999999999"}, "At most 20."),
    ({"base_dv": "-3"}, "At least 0."),
    ({"action": "teleport"}, "Choose one of the Travel Turn actions."),
    ({"season": "monsoon"}, "Choose a season."),
    ({"activity": "bad\x00text"}, "Null characters are not allowed."),
    ({"watchers": ["999"], "action": "take_watch"}, "Choose Errants of the Company."),
    ({"speed": "quick", "action": "orient"}, "Moving slowly or quickly is a Pace"),
    ({"misleading": "9"}, "A misleading map adds +2 to +4."),
])
def test_hostile_input_is_said_beside_the_field(client, campaign, guide, wren, data,
                                                message):
    client.force_login(guide)
    response = client.post(url("errant_travel_run", campaign),
                           {**TRAVEL, "extra_reason": "kept words", **data})
    assert response.status_code == 200
    html = response.content.decode()
    assert message in html and "kept words" in html
    assert not ErrantTurn.objects.exists()


def test_a_stale_page_is_refused_with_a_message(client, campaign, guide, wren, lost):
    client.force_login(guide)
    response = client.post(url("errant_travel_run", campaign), TRAVEL, follow=True)
    assert "changed since this page was loaded" in response.content.decode()
    assert ErrantTurn.objects.count() == 1


def test_a_double_submission_counts_once(client, campaign, guide, wren):
    client.force_login(guide)
    data = {**TRAVEL, "action": "explore", "request_key": "a" * 32}
    client.post(url("errant_travel_run", campaign), data)
    client.post(url("errant_travel_run", campaign), data)
    assert ErrantTurn.objects.count() == 1


def test_undo_from_the_page_and_the_changed_since_refusal(client, campaign, guide, wren):
    turn = travel.run(campaign=campaign, by=guide, rng=Dice(2),
                      plan=travel.TravelPlan(action="explore", rest_choice="exhaustion"))
    assert ErrantCharacter.objects.get(pk=wren.pk).exhaustion == 1
    ErrantCharacter.objects.filter(pk=wren.pk).update(exhaustion=3)
    client.force_login(guide)
    refused = client.post(url("errant_turn_undo", campaign, turn.pk), follow=True)
    assert "changed since this Turn" in refused.content.decode()
    ErrantCharacter.objects.filter(pk=wren.pk).update(exhaustion=1)
    done = client.post(url("errant_turn_undo", campaign, turn.pk), follow=True)
    html = done.content.decode()
    assert "is undone" in html and "data-undone" in html and "Undone by" in html
    assert ErrantCharacter.objects.get(pk=wren.pk).exhaustion == 0
    assert client.post(url("errant_turn_undo", campaign, 999999)).status_code == 302


def test_zoom_in_from_the_page(client, campaign, guide, wren, lost):
    client.force_login(guide)
    response = client.post(url("errant_turn_other", campaign), {
        "kind": "initiative", "parent": str(lost.pk), "speed": "normal",
        "extra_positive": "0", "extra_negative": "0", "rest_choice": "rest",
        "activity": "Wolves!", "seen": "1"})
    assert response.status_code == 302
    turn = ErrantTurn.objects.get(kind="initiative")
    assert turn.parent == lost
    html = client.get(url("errant_turns", campaign)).content.decode()
    assert "zooms in from" in html
    bad = client.post(url("errant_turn_other", campaign), {
        "kind": "nap", "parent": "x", "speed": "normal", "extra_positive": "0",
        "extra_negative": "0", "rest_choice": "rest", "activity": "kept"})
    assert bad.status_code == 200 and "Choose an Exploration" in bad.content.decode()
    assert turns.log_length(turn.company) == 2


def test_the_next_turns_form_keeps_the_land_and_the_secret_base_dv(client, campaign, guide,
                                                                   player, lost):
    client.force_login(guide)
    html = client.get(url("errant_turns", campaign)).content.decode()
    assert 'name="base_dv" value="5"' in html
    assert '<option value="wild" selected>' in html
    client.force_login(player)
    assert 'name="base_dv"' not in client.get(url("errant_turns", campaign)).content.decode()


def test_the_campaign_and_company_pages_link_the_turn_log(client, campaign, player, wren):
    client.force_login(player)
    target = url("errant_turns", campaign)
    assert target in client.get(reverse("campaigns:detail", args=[campaign.pk])).content.decode()
    assert target in client.get(url("errant_company", campaign)).content.decode()


@pytest.mark.parametrize("data,message", [
    ({"extra_positive": "9" * 30}, "At most 6."),
    ({"extra_negative": "one"}, "Give a whole number."),
    ({"activity": "a\x00b"}, "Null characters are not allowed."),
    ({"parent": "99999999999999999999"}, "Choose a Turn of this log."),
    ({"lit": ["123456"]}, "Choose lights the Company carries."),
    ({"kind": "initiative", "breaking_door": "on"}, "Breaking down a door is an"),
])
def test_hostile_zoom_input_is_said_beside_the_field(client, campaign, guide, wren, data,
                                                     message):
    client.force_login(guide)
    response = client.post(url("errant_turn_other", campaign), {
        "kind": "exploration", "speed": "normal", "extra_positive": "0",
        "extra_negative": "0", "rest_choice": "rest", **data})
    assert response.status_code == 200 and message in response.content.decode()
    assert not ErrantTurn.objects.exists()


# -- a long log pages (issue 12) ------------------------------------------------------------


def turn_numbers(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'data-turn="(\d+)"', html)]


@pytest.fixture
def long_log(campaign, guide, session):
    from campaigns.paging import LOG_PAGE_SIZE

    for _ in range(LOG_PAGE_SIZE + 3):
        turns.declare(campaign=campaign, kind="exploration", by=guide, activity="Search")
    return LOG_PAGE_SIZE + 3


def test_a_long_turn_log_shows_a_page_and_links_older(client, campaign, player, long_log):
    from campaigns.paging import LOG_PAGE_SIZE

    client.force_login(player)
    page = client.get(url("errant_turns", campaign)).content.decode()
    assert turn_numbers(page) == list(range(long_log, long_log - LOG_PAGE_SIZE, -1))
    oldest_shown = long_log - LOG_PAGE_SIZE + 1
    older = f'{url("errant_turns", campaign)}?before={oldest_shown}#turn-log'
    assert f'href="{older}"' in page and 'hx-trigger="every 3s"' in page
    second = client.get(older.split("#")[0]).content.decode()
    assert turn_numbers(second) == [3, 2, 1]
    # An older page does not poll (the poll would bring the newest back) and links home.
    assert 'hx-trigger="every 3s"' not in second and "data-pager-newest" in second
    # The poll still brings the newest page, its Older link pointing at the page itself.
    poll = client.get(url("errant_turn_log", campaign), HTTP_HX_REQUEST="true")
    assert turn_numbers(poll.content.decode()) == turn_numbers(page)
    assert f'href="{older}"' in poll.content.decode()


@pytest.mark.parametrize("junk", ["xyz", "-1", "0", "99999999999999999999999", "²", ""])
def test_a_junk_turn_page_is_the_newest(client, campaign, guide, long_log, junk):
    from campaigns.paging import LOG_PAGE_SIZE

    client.force_login(guide)
    response = client.get(url("errant_turns", campaign), {"before": junk})
    assert response.status_code == 200
    numbers = turn_numbers(response.content.decode())
    assert len(numbers) == LOG_PAGE_SIZE
