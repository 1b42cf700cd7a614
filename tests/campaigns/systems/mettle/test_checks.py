"""METTLE Checks at the table (issue #13): the services (the odds logged are the engine's,
the Surge spends Mettle within its limit, one Twist per Check, double clicks), the Play
page and its endpoints (anonymous, another player, the owner, the Guide; hostile input)
and the session log with its conditional poll."""

import random
from html import escape

import pytest
from django.urls import reverse

from campaigns import services
from campaigns.systems.mettle import roll_services
from campaigns.systems.mettle.roll_services import CheckRequest, RollRefused
from campaigns.systems.mettle.rolls import MettleRoll
from characters.systems.mettle.apps import KEY
from characters.systems.mettle.models import MettleCharacter
from rules.engine.mettle.checks import check_odds
from tests.characters.systems.mettle.helpers import make_viktor
from tests.factories import (
    AsphodelFactory,
    CampaignFactory,
    CoImpMembershipFactory,
    MembershipFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


class Faces(random.Random):
    """A source that deals the given faces in order."""

    def __init__(self, *faces):
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a, b):
        return self.faces.pop(0)


@pytest.fixture
def table():
    """A METTLE campaign with a session; Viktor (the player's), another player, a
    co-Guide and a stranger."""
    campaign = CampaignFactory(system=KEY)
    player = MembershipFactory(campaign=campaign).user
    other = MembershipFactory(campaign=campaign).user
    viktor = make_viktor(player)
    services.character_join(campaign=campaign, character=viktor, by=player)
    session = services.session_start(campaign=campaign, by=campaign.owner)
    co_guide = CoImpMembershipFactory(campaign=campaign).user
    return {"campaign": campaign, "guide": campaign.owner, "player": player, "other": other,
            "viktor": MettleCharacter.objects.get(pk=viktor.pk), "session": session,
            "co_guide": co_guide, "stranger": UserFactory()}


def plain(**changes):
    values = {"label": "NATURE Check", "attribute": "nature", "pool": 3, "difficulty": 3}
    values.update(changes)
    return CheckRequest(**values)


# -- services ---------------------------------------------------------------------------------


def test_a_check_logs_the_engines_odds_and_the_dice(table):
    check = roll_services.make_check(character=table["viktor"], by=table["player"],
                                     request=plain(bonus=2, penalty=1), rng=Faces(1, 2, 4, 5))
    odds = check_odds(4, 3)
    assert check.odds == {"success": str(odds.p_success),
                          "with_twist": str(odds.p_success_with_twist),
                          "twist_allowed": str(odds.p_twist_allowed)}
    assert (check.dice, check.faces, check.score, check.edge) == (4, [1, 2, 4, 5], 3, 2)
    assert not check.success and check.grade == ""
    assert check.session == table["session"] and check.rolled_by == table["player"]


def test_raises_are_sixes_and_a_success_has_its_grade(table):
    check = roll_services.make_check(character=table["viktor"], by=table["player"],
                                     request=plain(pool=4, raises=2, difficulty=2),
                                     rng=Faces(3, 1))
    assert check.faces == [3, 1, 6, 6] and check.success and check.grade == "Great"
    assert check.odds["success"] == str(check_odds(4, 2, 2).p_success)


def test_one_twist_per_check_with_its_price(table):
    by = table["player"]
    check = roll_services.make_check(character=table["viktor"], by=by,
                                     request=plain(difficulty=5), rng=Faces(1, 4, 6))
    assert not check.success and check.edge == 2
    twist = roll_services.call_twist(check=check, by=by, price="Delay", rng=Faces(3, 2),
                                     request_key="t1")
    assert twist.twist_of == check and twist.faces == [1, 3, 2] and twist.rerolled == [3, 2]
    assert (twist.score, twist.success, twist.twist_price) == (6, True, "Delay")
    # The same click again gets the same Twist; another is refused.
    assert roll_services.call_twist(check=check, by=by, price="Delay", request_key="t1") == twist
    with pytest.raises(RollRefused) as refused:
        roll_services.call_twist(check=check, by=by, price="Delay", rng=Faces(1, 1),
                                 request_key="t2")
    assert refused.value.code == "twist_once"


def test_no_twist_after_a_success_or_without_edge(table):
    by = table["player"]
    won = roll_services.make_check(character=table["viktor"], by=by,
                                   request=plain(difficulty=1), rng=Faces(3, 3, 6))
    bare = roll_services.make_check(character=table["viktor"], by=by,
                                    request=plain(difficulty=9), rng=Faces(1, 2, 3))
    for check in (won, bare):
        with pytest.raises(RollRefused) as refused:
            roll_services.call_twist(check=check, by=by, price="Delay")
        assert refused.value.code == "twist_not_allowed"
    assert not MettleRoll.objects.filter(kind="twist").exists()


def test_a_surge_spends_mettle_once_per_click_within_its_limit(table):
    viktor, by = table["viktor"], table["player"]
    assert roll_services.surge_allowed(viktor) == 4  # MOTIVE 4; Mettle 9
    check = roll_services.make_check(character=viktor, by=by, request=plain(surge=3),
                                     request_key="k1", rng=Faces(*[1] * 6))
    assert (check.dice, check.mettle_before, check.mettle_after) == (6, 9, 6)
    again = roll_services.make_check(character=viktor, by=by, request=plain(surge=3),
                                     request_key="k1")
    assert again == check
    viktor.refresh_from_db()
    assert viktor.mettle_current == 6
    MettleCharacter.objects.filter(pk=viktor.pk).update(mettle_current=2)
    with pytest.raises(RollRefused) as refused:
        roll_services.make_check(character=viktor, by=by, request=plain(surge=2))
    assert refused.value.code == "surge_over_limit" and refused.value.field == "surge"
    viktor.refresh_from_db()
    assert viktor.mettle_current == 2


def test_a_double_click_rolls_once(table):
    first = roll_services.make_check(character=table["viktor"], by=table["player"],
                                     request=plain(), request_key="same")
    second = roll_services.make_check(character=table["viktor"], by=table["player"],
                                      request=plain(), request_key="same")
    assert first == second and MettleRoll.objects.count() == 1


def test_only_the_player_and_the_guide_may_roll(table):
    for who in ("other", "stranger"):
        with pytest.raises(RollRefused):
            roll_services.make_check(character=table["viktor"], by=table[who], request=plain())
    for who in ("player", "guide", "co_guide"):
        roll_services.make_check(character=table["viktor"], by=table[who], request=plain())


# -- views ------------------------------------------------------------------------------------


CHECK = {"action": "", "pool": "nature", "bonus": "0", "penalty": "0", "surge": "0",
         "team_best": "", "raises": "0", "difficulty": "3", "target_pool": ""}


def test_play_page_permissions(client, table):
    url = reverse("characters:mettle_play", args=[table["viktor"].pk])
    response = client.get(url)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    for who in ("other", "stranger"):
        client.force_login(table[who])
        assert client.get(url).status_code == 404
    for who in ("player", "guide", "co_guide"):
        client.force_login(table[who])
        response = client.get(url)
        assert response.status_code == 200 and b"Make a Check" in response.content
        # The odds of the Check as first shown: NATURE 3D against 3.
        assert f"({check_odds(3, 3).p_success})" in response.content.decode()
        assert b"Creative Commons Attribution 4.0" in response.content  # CC BY 4.0 texts


def test_another_systems_character_has_no_play_page(client, table):
    hero = AsphodelFactory(owner=table["player"])
    client.force_login(table["player"])
    assert client.get(reverse("characters:mettle_play", args=[hero.pk])).status_code == 404


@pytest.mark.parametrize("name", ["mettle_check_odds", "mettle_check_action", "mettle_check",
                                  "mettle_split", "mettle_split_roll"])
def test_post_endpoints_refuse_anonymous_and_others(client, table, name):
    url = reverse(f"characters:{name}", args=[table["viktor"].pk])
    assert client.post(url, CHECK).status_code == 302
    for who in ("other", "stranger"):
        client.force_login(table[who])
        assert client.post(url, CHECK).status_code == 404
    assert not MettleRoll.objects.exists()


def test_the_odds_follow_the_inputs(client, table):
    client.force_login(table["player"])
    url = reverse("characters:mettle_check_odds", args=[table["viktor"].pk])
    body = client.post(url, {**CHECK, "bonus": "2", "target_pool": "4"},
                       HTTP_HX_REQUEST="true").content.decode()
    odds = check_odds(5, 4)
    assert f"({odds.p_success})" in body and f"({odds.p_success_with_twist})" in body
    assert "the target's pool" in body


def test_the_guide_rolls_and_the_player_twists_from_the_page(client, table, monkeypatch):
    viktor = table["viktor"]
    client.force_login(table["guide"])
    response = client.post(reverse("characters:mettle_check", args=[viktor.pk]),
                           {**CHECK, "action": "Attack", "request_key": "g1"})
    assert response.status_code == 200
    check = MettleRoll.objects.get()
    assert check.action == "Attack" and check.rolled_by == table["guide"]
    assert check.label == "Attack: NATURE vs the target's POISE"
    body = response.content.decode()
    expected = ("Failure: the target dodges or parries." if not check.success
                else "Success: hit and inflict the weapon&#x27;s DM.")
    assert expected in body
    # Force a failure with Edge to Twist it.
    MettleRoll.objects.filter(pk=check.pk).update(faces=[1, 5, 6], score=1, edge=2,
                                                   success=False, difficulty=3)
    client.force_login(table["player"])
    monkeypatch.setattr(roll_services, "_SYSTEM_RANDOM", Faces(3, 4))  # Score 1 + 3 = 4
    url = reverse("characters:mettle_twist", args=[viktor.pk, check.pk])
    response = client.post(url, {"twist-price": "Imperil", "twist-note": "friendly fire",
                                 "twist-request_key": "tw", **CHECK, "target_pool": "5"},
                           HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200 and "Imperil: friendly fire" in body
    assert 'name="target_pool" value="5"' in body  # the Check form as typed
    assert 'id="recent-checks" hx-swap-oob="true"' in body
    assert "Success: hit and inflict the weapon&#x27;s DM. Edge 1: adds to DM." in body
    twist = MettleRoll.objects.get(kind="twist")
    assert twist.twist_price == "Imperil: friendly fire" and twist.faces[0] == 1
    again = client.post(url, {"twist-price": "Delay", "twist-request_key": "tw2"},
                        HTTP_HX_REQUEST="true")
    assert b"one Twist per Check" in again.content
    assert MettleRoll.objects.filter(kind="twist").count() == 1


@pytest.mark.parametrize(("field", "value", "message"), [
    ("bonus", "999999999999999999999", "at most"),
    ("bonus", "two", "whole number"),
    ("penalty", "-3", "0 or more"),
    ("surge", "5", "at most 4 Mettle"),
    ("raises", "9", "At most 3 Raises"),
    ("difficulty", "nope", "Choose a Difficulty"),
    ("target_pool", "1e9", "whole number"),
    ("pool", "backstory-7", "Choose an Attribute"),
    ("team_best", "0", "1 or more"),
])
def test_hostile_check_input_is_said_beside_the_field_and_kept(client, table, field, value,
                                                                 message):
    client.force_login(table["player"])
    url = reverse("characters:mettle_check", args=[table["viktor"].pk])
    response = client.post(url, {**CHECK, field: value})
    assert response.status_code == 422
    body = response.content.decode()
    assert message in body
    if field not in ("difficulty", "pool"):  # what was typed comes back (a list keeps its own)
        assert f'value="{value}"' in body
    assert not MettleRoll.objects.exists()


def test_a_forged_request_key_is_a_400(client, table):
    client.force_login(table["player"])
    url = reverse("characters:mettle_check", args=[table["viktor"].pk])
    assert client.post(url, {**CHECK, "request_key": "x" * 500}).status_code == 400


def test_bad_roll_ids_are_404(client, table):
    client.force_login(table["player"])
    for roll_pk in ("99999", "9" * 40):
        url = f"/characters/{table['viktor'].pk}/mettle/play/check/{roll_pk}/twist/"
        assert client.post(url, {"price": "Delay"}).status_code == 404


# -- Split Actions ----------------------------------------------------------------------------


SPLIT = {"parts": "2", "key": "s" * 32,
         "action_1": "Attack", "attribute_1": "concept", "dice_1": "2", "difficulty_1": "2",
         "action_2": "Move", "attribute_2": "poise", "dice_2": "0", "difficulty_2": "1"}


def test_a_split_shows_each_parts_share_cap_and_odds(client, table):
    client.force_login(table["player"])
    url = reverse("characters:mettle_split", args=[table["viktor"].pk])
    body = client.post(url, SPLIT, HTTP_HX_REQUEST="true").content.decode()
    # CONCEPT 5 split in two: 3 and 2 (POISE 2 is not a smaller cap than 2); +2D after.
    assert "5D split into 2: 3 and 2" in body
    assert f"({check_odds(5, 2).p_success})" in body and f"({check_odds(2, 1).p_success})" in body


def test_a_split_capped_by_a_smaller_attribute(client, table):
    client.force_login(table["player"])
    url = reverse("characters:mettle_split", args=[table["viktor"].pk])
    data = {**SPLIT, "parts": "3", "attribute_2": "poise", "action_3": "",
            "attribute_3": "concept", "dice_3": "0", "difficulty_3": "1"}
    body = client.post(url, data, HTTP_HX_REQUEST="true").content.decode()
    assert "5D split into 3: 2 and 1 and 2" in body or "5D split into 3: 2 and 2 and 1" in body


def test_each_part_rolls_once(client, table):
    client.force_login(table["player"])
    url = reverse("characters:mettle_split_roll", args=[table["viktor"].pk])
    for _ in range(2):
        assert client.post(url, {**SPLIT, "part": "1"}, HTTP_HX_REQUEST="true").status_code == 200
    client.post(url, {**SPLIT, "part": "2"}, HTTP_HX_REQUEST="true")
    rolls = MettleRoll.objects.order_by("pk")
    assert [(r.split["part"], r.pool, r.dice) for r in rolls] == [(1, 3, 5), (2, 2, 2)]
    assert rolls[0].split["shares"] == [3, 2]


def test_a_staggered_split_starts_each_part_at_the_check_penalty(client, table):
    """EN §Taking Damage: Staggered at Mettle -2 is -2D to Checks; the Check form's Penalty
    starts at 2, each Split part's +/-D at -2 (after the split), a row shown later too."""
    viktor = table["viktor"]
    MettleCharacter.objects.filter(pk=viktor.pk).update(mettle_current=-2,
                                                        statuses=["staggered"])
    client.force_login(table["player"])
    page = client.get(reverse("characters:mettle_play", args=[viktor.pk]))
    assert page.context["check_form"]["penalty"].value() == 2
    split = page.context["split_form"]
    assert [split[f"dice_{i}"].value() for i in range(1, 5)] == [-2, -2, -2, -2]
    # Three Actions declared where two were shown: the new row starts at -2D too.
    url = reverse("characters:mettle_split", args=[viktor.pk])
    data = {**SPLIT, "parts": "3", "dice_1": "0", "dice_2": "-2"}
    response = client.post(url, data, HTTP_HX_REQUEST="true")
    plan = response.context["plan"]
    # CONCEPT 5 split in three: 2, 2, 1; the parts roll 2+0, 2-2 and 1-2 (never below 0).
    assert [(row["share"], row["modifier"], row["dice"]) for row in plan] == [
        (2, 0, 2), (2, -2, 0), (1, -2, 0)]
    assert plan[0]["odds"] == check_odds(2, 2)


@pytest.mark.parametrize(("data", "message"), [
    ({"parts": "9"}, "Split into 2 to 4"),
    ({"parts": "4", "action_3": "", "attribute_3": "poise", "dice_3": "0", "difficulty_3": "0",
      "action_4": "", "attribute_4": "poise", "dice_4": "0", "difficulty_4": "0",
      "attribute_1": "poise", "attribute_2": "poise"}, "cannot split into 4"),
    ({"dice_1": "abc"}, "whole number"),
    ({"part": "77"}, "Choose a part"),
])
def test_hostile_split_input(client, table, data, message):
    client.force_login(table["player"])
    url = reverse("characters:mettle_split_roll", args=[table["viktor"].pk])
    response = client.post(url, {**SPLIT, "part": "1", **data})
    assert response.status_code == 422 and message in response.content.decode()
    assert not MettleRoll.objects.exists()


# -- the session log ---------------------------------------------------------------------------


def test_the_session_log_is_for_members_and_polls_conditionally(client, table):
    session = table["session"]
    url = reverse("campaigns:mettle_session_log", args=[session.campaign_id, session.number])
    assert client.get(url).status_code == 302
    client.force_login(table["stranger"])
    assert client.get(url).status_code == 404
    roll_services.make_check(character=table["viktor"], by=table["player"], request=plain())
    client.force_login(table["other"])  # another player sees the table's Checks
    response = client.get(url, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and b"Viktor" in response.content
    etag = response["ETag"]
    assert client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag).status_code == 304
    roll_services.make_check(character=table["viktor"], by=table["player"], request=plain())
    response = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200
    etag = response["ETag"]
    table["viktor"].name = "Viktor Drozd"
    table["viktor"].save()
    response = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200 and b"Viktor Drozd" in response.content


def test_the_session_page_links_to_the_log_and_the_sheet_to_play(client, table):
    session = table["session"]
    client.force_login(table["player"])
    body = client.get(session.get_absolute_url()).content.decode()
    assert reverse("campaigns:mettle_session_log", args=[session.campaign_id, 1]) in body
    body = client.get(table["viktor"].get_absolute_url()).content.decode()
    assert reverse("characters:mettle_play", args=[table["viktor"].pk]) in body


def test_an_eldritch_gambit_campaign_has_no_mettle_log(client):
    campaign = CampaignFactory()
    client.force_login(campaign.owner)
    url = reverse("campaigns:mettle_session_log", args=[campaign.pk, 1])
    assert client.get(url).status_code == 404


def test_a_split_part_failed_with_edge_may_be_twisted_once(client, table):
    client.force_login(table["player"])
    viktor = table["viktor"]
    client.post(reverse("characters:mettle_split_roll", args=[viktor.pk]),
                {**SPLIT, "part": "2"}, HTTP_HX_REQUEST="true")
    part = MettleRoll.objects.get()
    MettleRoll.objects.filter(pk=part.pk).update(faces=[1, 6], score=1, edge=1,
                                                  success=False)
    body = client.post(reverse("characters:mettle_split", args=[viktor.pk]), SPLIT,
                       HTTP_HX_REQUEST="true").content.decode()
    assert "Twist part 2 (Delay)" in body and f"{SPLIT['key']}.t2" in body
    url = reverse("characters:mettle_twist", args=[viktor.pk, part.pk])
    for _ in range(2):  # a double click: the same key, one Twist
        response = client.post(url, {**SPLIT, "twist-price": "Delay",
                                     "twist-request_key": f"{SPLIT['key']}.t2"},
                               HTTP_HX_REQUEST="true")
        assert response.status_code == 200 and b"twist-error" not in response.content
    twist = MettleRoll.objects.get(kind="twist")
    assert twist.twist_of == part and twist.split["part"] == 2
    body = client.post(reverse("characters:mettle_split", args=[viktor.pk]), SPLIT,
                       HTTP_HX_REQUEST="true").content.decode()
    assert "Twisted (Delay)" in body and "Twist part 2" not in body


def test_a_long_session_log_pages_back_with_older(client, table, monkeypatch):
    """Issue 12: a page of LOG_SIZE Checks and "Older" (?before=); the older page does
    not poll; junk in ?before= is the newest page."""
    import re

    from campaigns.systems.mettle import roll_views

    session = table["session"]
    url = reverse("campaigns:mettle_session_log", args=[session.campaign_id, session.number])
    for _ in range(3):
        roll_services.make_check(character=table["viktor"], by=table["player"],
                                 request=plain())
    monkeypatch.setattr(roll_views, "LOG_SIZE", 2)
    client.force_login(table["other"])
    first = client.get(url).content.decode()
    assert first.count("data-roll=") == 2 and 'hx-trigger="every 2s"' in first
    older = re.search(r'href="([^"]*\?before=\d+)#session-log"', first)
    second = client.get(older.group(1)).content.decode()
    assert second.count("data-roll=") == 1 and 'hx-trigger="every 2s"' not in second
    assert "data-pager-newest" in second and "data-pager-older" not in second
    for junk in ("xyz", "-1", "99999999999999999999999", "²"):
        response = client.get(url, {"before": junk})
        assert response.status_code == 200 and response.content.decode().count(
            "data-roll=") == 2


# -- what a Check costs (issue 12) -------------------------------------------------------------


def test_a_check_reads_the_sheets_lines_and_ledgers_once_and_shows_the_mettle_spent(
        client, table):
    """The Play page's Check shows the sheet again after rolling: the character's row is
    read again (a Surge spent Mettle) but its gear lines and the ledgers' sums, which a
    Check does not write, are read once (builds.keep_sheet_reads), and its Twist (none
    yet) comes with the recent rolls; its lasting tranquilizers are read once
    (AMB-M-AFF-7). Its queries are the same with a longer inventory,
    XP and Credit ledgers and roll log."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from characters.systems.mettle.models import CreditEntry
    from tests.characters.test_sheet_lines import add_mettle_lines
    from tests.factories import XpEntryFactory

    viktor = table["viktor"]
    client.force_login(table["player"])
    url = reverse("characters:mettle_check", args=[viktor.pk])

    def check(key, **changes):
        with CaptureQueriesContext(connection) as queries:
            response = client.post(url, {**CHECK, "request_key": key, **changes},
                                   HTTP_HX_REQUEST="true")
        assert response.status_code == 200 and 'id="check-result"' in response.content.decode()
        return len(queries)

    few = check("a1")
    add_mettle_lines(viktor, 12)
    for _ in range(8):
        XpEntryFactory(character=viktor, xp_change=2)
        CreditEntry.objects.create(character=viktor, kind="guide", change=0)
    for n in range(25):
        check(f"b{n}")
    many = check("c1")
    assert many == few == 19  # with the tranquilizers that raise Difficulty: one query
    # Without htmx the whole page comes back, with the Mettle the Surge spent.
    page = client.post(url, {**CHECK, "surge": "2", "request_key": "s1"}).content.decode()
    assert 'data-stat="mettle_current">7<' in page


# -- a tranquilizer raises every Check's Difficulty (Scenery > Affliction; AMB-M-AFF-7) ------


def tranquilize(table, face):
    """A tranquilizer dart on Viktor (FRAME 3): Dose 1d6 - FRAME."""
    from campaigns.systems.mettle import hazards
    from tests.campaigns.systems.mettle.test_hazards import Fixed

    return hazards.apply(campaign=table["campaign"], by=table["guide"], rng=Fixed(face),
                         data={"character": table["viktor"].pk, "kind": "affliction",
                               "affliction": "tranquilizer"})


def test_a_tranquilizer_raises_the_checks_difficulty_by_its_dose(client, table):
    """"Tranquilizers: as poison, but the Dose result also raises the victim's Check
    Difficulties": 1d6 (6) - FRAME 3 = Dose 3, so a Difficulty 3 Check is against 6, on
    the form's odds, the roll and the log, ladder or target's pool alike."""
    dart = tranquilize(table, 6)
    assert dart.dose == 3
    client.force_login(table["player"])
    viktor = table["viktor"]
    page = client.get(reverse("characters:mettle_play", args=[viktor.pk])).content.decode()
    assert f"({check_odds(3, 6).p_success})" in page
    assert 'data-tranquilized="3"' in page and "A tranquilizer adds +3" in page
    odds = client.post(reverse("characters:mettle_check_odds", args=[viktor.pk]),
                       {**CHECK, "target_pool": "4"}, HTTP_HX_REQUEST="true").content.decode()
    assert f"({check_odds(3, 7).p_success})" in odds and "the target's pool" in odds
    client.post(reverse("characters:mettle_check", args=[viktor.pk]),
                {**CHECK, "request_key": "t1"}, HTTP_HX_REQUEST="true")
    roll = MettleRoll.objects.get()
    assert roll.difficulty == 6 and roll.odds["success"] == str(check_odds(3, 6).p_success)
    assert roll.label == "NATURE Check (Difficulty +3: tranquilized)"


def test_a_tranquilizer_raises_every_split_part(client, table):
    tranquilize(table, 5)  # Dose 2
    client.force_login(table["player"])
    url = reverse("characters:mettle_split", args=[table["viktor"].pk])
    body = client.post(url, SPLIT, HTTP_HX_REQUEST="true").content.decode()
    assert f"({check_odds(5, 4).p_success})" in body and f"({check_odds(2, 3).p_success})" in body
    client.post(reverse("characters:mettle_split_roll", args=[table["viktor"].pk]),
                {**SPLIT, "part": "2"}, HTTP_HX_REQUEST="true")
    assert MettleRoll.objects.get().difficulty == 3


def test_the_raise_lasts_until_the_tranquilizer_ends(client, table):
    """It ends with the affliction: run out (its Dose of Rounds ticked) or cured; a
    Dose FRAME cut to 0 raises nothing; an undone dart neither; two darts add."""
    from campaigns.systems.mettle import hazards

    def raised():
        return hazards.tranquilizer_raise(table["viktor"].pk)

    campaign, guide = table["campaign"], table["guide"]
    assert tranquilize(table, 3).dose == 0 and raised() == 0
    dart = tranquilize(table, 5)  # Dose 2
    assert raised() == 2
    second = tranquilize(table, 4)  # Dose 1: the text does not say they do not stack
    assert raised() == 3
    hazards.affliction_tick(campaign=campaign, by=guide, affliction_pk=second.pk, step="lower")
    assert raised() == 2  # the second has run out
    hazards.affliction_tick(campaign=campaign, by=guide, affliction_pk=dart.pk, step="lower")
    assert raised() == 2  # one Round of two
    cure = hazards.affliction_tick(campaign=campaign, by=guide, affliction_pk=dart.pk,
                                   step="recover")
    assert raised() == 0  # cured
    hazards.undo(campaign=campaign, by=guide, hazard_pk=cure.pk)
    assert raised() == 2
    cold = hazards.apply(campaign=campaign, by=guide, rng=random.Random(1), data={
        "character": table["viktor"].pk, "kind": "affliction", "affliction": "cold"})
    assert cold.dose is not None and raised() == 2  # a disease raises nothing


# -- no Rally while Burning or Staggered (Scenery > Fire; EN §Taking Damage) -----------------


@pytest.mark.parametrize("statuses, mettle, message", [
    (["burning"], None, "Burning characters cannot Rally (Scenery > Fire)."),
    (["staggered"], -1, "Staggered characters cannot Rally (EN §Taking Damage)."),
])
def test_a_burning_or_staggered_character_cannot_rally(client, table, statuses, mettle,
                                                       message):
    viktor = table["viktor"]
    MettleCharacter.objects.filter(pk=viktor.pk).update(statuses=statuses,
                                                        mettle_current=mettle)
    client.force_login(table["player"])
    rally = {**CHECK, "action": "Rally", "pool": "motive", "request_key": "r1"}
    response = client.post(reverse("characters:mettle_check", args=[viktor.pk]), rally)
    assert response.status_code == 422
    assert f"data-action-error>{escape(message)}<" in response.content.decode()
    odds = client.post(reverse("characters:mettle_check_odds", args=[viktor.pk]), rally,
                       HTTP_HX_REQUEST="true").content.decode()
    assert 'id="odds-none"' in odds
    with pytest.raises(RollRefused) as error:  # the service, whatever the form says
        roll_services.make_check(character=viktor, by=table["player"],
                                 request=plain(action="Rally", attribute="motive"))
    assert (error.value.code, error.value.field) == ("no_rally", "action")
    split = {**SPLIT, "action_1": "Rally", "part": "1"}
    page = client.post(reverse("characters:mettle_split_roll", args=[viktor.pk]), split,
                       HTTP_HX_REQUEST="true").content.decode()
    assert escape(message) in page
    assert not MettleRoll.objects.exists()
    # Another Action is rolled as usual, and once extinguished the Rally is.
    client.post(reverse("characters:mettle_check", args=[viktor.pk]),
                {**CHECK, "request_key": "n1"})
    MettleCharacter.objects.filter(pk=viktor.pk).update(statuses=[], mettle_current=5)
    client.post(reverse("characters:mettle_check", args=[viktor.pk]), rally)
    assert MettleRoll.objects.count() == 2


# -- no Rally while an Affliction's damage lasts (Scenery > Affliction, AMB-M-AFF-8) ---------


def test_no_rally_from_an_afflictions_first_damage_until_max_mettle_recovers(client, table):
    """"lose Rally if any damage": Afflicted without a tick yet may Rally; the first max
    Mettle taken refuses it (Check, odds, service, Split part), after the affliction runs
    out too and with Afflicted unticked by hand, until the last point is recovered;
    undoing the tick gives it back."""
    from campaigns.systems.mettle import hazards
    from tests.campaigns.systems.mettle.test_hazards import Fixed

    campaign, guide, viktor = table["campaign"], table["guide"], table["viktor"]
    check_url = reverse("characters:mettle_check", args=[viktor.pk])
    split_url = reverse("characters:mettle_split_roll", args=[viktor.pk])
    keys = iter(f"a{n}" for n in range(100))

    def rally():
        return client.post(check_url, {**CHECK, "action": "Rally", "pool": "motive",
                                       "request_key": next(keys)})

    def tick(step):
        return hazards.affliction_tick(campaign=campaign, by=guide,
                                       affliction_pk=bite.pk, step=step)

    client.force_login(table["player"])
    bite = hazards.apply(campaign=campaign, by=guide, rng=Fixed(3), data={
        "character": viktor.pk, "kind": "affliction", "affliction": "monitor"})
    assert bite.dose == 2
    assert "afflicted" in MettleCharacter.objects.get(pk=viktor.pk).statuses
    assert rally().status_code == 200  # Afflicted, no damage yet: rolled
    assert MettleRoll.objects.count() == 1

    first = tick("lower")
    message = ("An Affliction has lowered max Mettle by 1: no Rally until it recovers "
               "(Scenery > Affliction: “lose Rally if any damage”).")
    response = rally()
    assert response.status_code == 422
    assert f"data-action-error>{escape(message)}<" in response.content.decode()
    odds = client.post(reverse("characters:mettle_check_odds", args=[viktor.pk]),
                       {**CHECK, "action": "Rally", "pool": "motive"},
                       HTTP_HX_REQUEST="true").content.decode()
    assert 'id="odds-none"' in odds
    with pytest.raises(RollRefused) as error:  # the service, whatever the form says
        roll_services.make_check(character=viktor, by=table["player"],
                                 request=plain(action="Rally", attribute="motive"))
    assert (error.value.code, error.value.field) == ("no_rally", "action")
    page = client.post(split_url, {**SPLIT, "action_1": "Rally", "part": "1"},
                       HTTP_HX_REQUEST="true").content.decode()
    assert escape(message) in page
    assert MettleRoll.objects.count() == 1
    # Another Action still rolls.
    assert client.post(check_url, {**CHECK, "request_key": "plain"}).status_code == 200
    assert MettleRoll.objects.count() == 2

    tick("lower")  # the Dose runs out: the affliction and Afflicted end, the loss stays
    character = MettleCharacter.objects.get(pk=viktor.pk)
    assert character.mettle_max_lost == 2 and "afflicted" not in character.statuses
    assert rally().status_code == 422
    MettleCharacter.objects.filter(pk=viktor.pk).update(statuses=[])  # unticked by hand
    assert rally().status_code == 422
    tick("recover")
    assert rally().status_code == 422  # 1 still lost
    last = tick("recover")
    assert rally().status_code == 200  # recovered: Rally again
    assert MettleRoll.objects.count() == 3
    hazards.undo(campaign=campaign, by=guide, hazard_pk=last.pk)
    assert rally().status_code == 422
    assert first.max_lost_after == 1
    # The Guide is refused the same way; a stranger sees no page to roll on.
    client.force_login(guide)
    response = rally()
    assert response.status_code == 422 and "lose Rally if any damage" in response.content.decode()
    client.force_login(table["stranger"])
    assert rally().status_code == 404
    assert MettleRoll.objects.count() == 3
