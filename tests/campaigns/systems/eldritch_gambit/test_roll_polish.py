"""Checks and Rolls as a player expects them: the recent rolls' Reroll buttons know the
WP floor, what is typed in the Check form survives every roll without JavaScript, double
clicks make one roll and show it, and after a Gambit the outcome that stands comes first."""

import re

import pytest
from django.urls import reverse

from campaigns.systems.eldritch_gambit import roll_services
from campaigns.systems.eldritch_gambit.rolls import Roll
from rules.engine.rolling import Rolled
from tests.factories import (
    AsphodelFactory,
    CampaignFactory,
    CoImpMembershipFactory,
    MembershipFactory,
    SessionFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

CHECK = {"action": "attack-melee", "attribute": "dex", "ocs": "on", "bonus": "0",
         "penalty": "0", "difficulty": "10", "df_other": ""}
TYPED = {"action": "insight", "attribute": "wis", "bonus": "3", "penalty": "1",
         "difficulty": "other", "df_other": "13"}  # OCS unticked: a d12


@pytest.fixture
def table():
    campaign = CampaignFactory()
    player = MembershipFactory(campaign=campaign).user
    other = MembershipFactory(campaign=campaign).user
    hero = AsphodelFactory(owner=player, campaign=campaign)  # WP 11, floor 6
    SessionFactory(campaign=campaign)
    co_imp = CoImpMembershipFactory(campaign=campaign).user
    return {"campaign": campaign, "imp": campaign.owner, "player": player, "other": other,
            "hero": hero, "stranger": UserFactory(), "co_imp": co_imp}


def _faces(monkeypatch, *faces):
    queue = list(faces)
    monkeypatch.setattr(roll_services, "roll_dice", lambda expression, rng=None: Rolled(
        expression, queue[0], (queue.pop(0),), ""))


def _reroll_buttons(text):
    return re.findall(r"<button[^>]*data-reroll=\"\d+\"[^>]*>", text)


# 1. The recent rolls' Reroll buttons and the WP floor.

def test_list_reroll_buttons_are_disabled_at_the_floor_and_back_when_wp_rises(client, table):
    hero = table["hero"]
    client.force_login(table["player"])
    client.post(reverse("characters:roll", args=[hero.pk]), {"what": "rally"})
    log_url = reverse("characters:roll_log", args=[hero.pk])
    text = client.get(log_url, HTTP_HX_REQUEST="true").content.decode()
    [button] = _reroll_buttons(text)
    assert "disabled" not in button and "WP at the floor" not in text
    hero.wp_current = 6  # the floor of WP 11
    hero.save()
    for url in (log_url, reverse("characters:play", args=[hero.pk])):
        text = client.get(url, HTTP_HX_REQUEST="true").content.decode()
        [button] = _reroll_buttons(text)
        assert "disabled" in button
        rally = Roll.objects.get(kind="rally")
        assert f'aria-describedby="reroll-floor-{rally.pk}"' in button
        assert f'id="reroll-floor-{rally.pk}">WP at the floor (6)<' in text
    hero.wp_current = 7  # WP rises (a rest): the next poll offers the Reroll again
    hero.save()
    text = client.get(log_url, HTTP_HX_REQUEST="true").content.decode()
    [button] = _reroll_buttons(text)
    assert "disabled" not in button and "WP at the floor" not in text


def test_the_imp_sees_the_same_floor_in_the_list(client, table):
    hero = table["hero"]
    hero.wp_current = 6
    hero.save()
    client.force_login(table["imp"])
    client.post(reverse("characters:roll", args=[hero.pk]), {"what": "rally"})
    text = client.get(reverse("characters:roll_log", args=[hero.pk]),
                      HTTP_HX_REQUEST="true").content.decode()
    [button] = _reroll_buttons(text)
    assert "disabled" in button and "WP at the floor (6)" in text


# 2. What is typed in the Check form survives a Gambit and any roll, without JavaScript.

def _assert_typed(text):
    assert '<option value="insight" selected>' in text
    assert '<option value="wis" selected>' in text
    assert '<option value="other" selected>' in text
    assert 'name="bonus" value="3"' in text and 'name="penalty" value="1"' in text
    assert 'name="df_other" value="13"' in text
    form = text[text.index('id="check-form"'):text.index("</form>", text.index('id="check-form"'))]
    assert 'name="ocs" id="id_ocs" checked' not in form


def test_without_javascript_the_check_form_survives_a_check_a_gambit_and_rolls(client, table):
    hero = table["hero"]
    client.force_login(table["player"])
    response = client.post(reverse("characters:check", args=[hero.pk]), TYPED)
    assert response.status_code == 200
    _assert_typed(response.content.decode())
    check = Roll.objects.get(kind="check")
    assert check.die == 12 and check.df == 13
    # The Gambit button submits the Check form (form="check-form"), as typed.
    text = response.content.decode()
    assert 'form="check-form"' in text
    gambit_key = re.search(r'name="gambit_key" value="(\w+)"', text).group(1)
    response = client.post(reverse("characters:gambit", args=[hero.pk, check.pk]),
                           {**TYPED, "gambit_key": gambit_key})
    assert Roll.objects.filter(kind="gambit").count() == 1
    _assert_typed(response.content.decode())
    # A Roll of the other panel posts only its own fields: the Check form still comes back.
    for data in ({"what": "rally"}, {"what": "fall", "fall-zones": "2"}):
        response = client.post(reverse("characters:roll", args=[hero.pk]), data)
        assert response.status_code == 200
        _assert_typed(response.content.decode())
    rally = Roll.objects.get(kind="rally")
    response = client.post(reverse("characters:reroll", args=[hero.pk, rally.pk]))
    _assert_typed(response.content.decode())
    # And on the page itself.
    _assert_typed(client.get(reverse("characters:play", args=[hero.pk])).content.decode())


def test_typed_check_is_kept_per_player_and_character(client, table):
    hero = table["hero"]
    client.force_login(table["player"])
    client.post(reverse("characters:check", args=[hero.pk]), TYPED)
    # The Imp's page for the same character starts from the defaults.
    client.force_login(table["imp"])
    text = client.get(reverse("characters:play", args=[hero.pk])).content.decode()
    assert '<option value="insight" selected>' not in text
    # Another character of the same player too.
    client.force_login(table["player"])
    other_hero = AsphodelFactory(owner=table["player"])
    text = client.get(reverse("characters:play", args=[other_hero.pk])).content.decode()
    assert '<option value="insight" selected>' not in text


def test_bad_input_is_not_kept_over_the_last_good_check(client, table):
    hero = table["hero"]
    client.force_login(table["player"])
    client.post(reverse("characters:check", args=[hero.pk]), TYPED)
    response = client.post(reverse("characters:check", args=[hero.pk]),
                           {**TYPED, "bonus": "-2"})
    assert 'name="bonus" value="-2"' in response.content.decode()  # shown with its error
    text = client.get(reverse("characters:play", args=[hero.pk])).content.decode()
    assert 'name="bonus" value="3"' in text


def test_a_gambit_keeps_a_check_form_typed_wrong_since_the_roll(client, table):
    hero = table["hero"]
    client.force_login(table["player"])
    client.post(reverse("characters:check", args=[hero.pk]), TYPED)
    check = Roll.objects.get(kind="check")
    response = client.post(reverse("characters:gambit", args=[hero.pk, check.pk]),
                           {**TYPED, "bonus": "-1"})
    text = response.content.decode()
    assert Roll.objects.filter(kind="gambit").count() == 1  # the Gambit is of the Check
    assert 'name="bonus" value="-1"' in text
    assert "Largest Bonus is 0 or more" in text
    # The last valid Check stays the one kept.
    text = client.get(reverse("characters:play", args=[hero.pk])).content.decode()
    assert 'name="bonus" value="3"' in text


# 3. Double clicks: one roll, shown to both clicks.

def test_double_click_on_call_a_gambit_shows_the_same_gambit(client, table):
    hero = table["hero"]
    client.force_login(table["player"])
    response = client.post(reverse("characters:check", args=[hero.pk]), CHECK,
                           HTTP_HX_REQUEST="true")
    key = re.search(r'name="gambit_key" value="(\w+)"', response.content.decode()).group(1)
    check = Roll.objects.get(kind="check")
    url = reverse("characters:gambit", args=[hero.pk, check.pk])
    first = client.post(url, {**CHECK, "gambit_key": key}, HTTP_HX_REQUEST="true")
    second = client.post(url, {**CHECK, "gambit_key": key}, HTTP_HX_REQUEST="true")
    gambit = Roll.objects.get(kind="gambit")
    for response in (first, second):
        text = response.content.decode()
        assert "already Gambited" not in text and 'id="gambit-error"' not in text
        assert f"data-gambit-natural>{gambit.dice[0]}<" in text
    # Another request (a stale page, another tab) is still refused.
    third = client.post(url, {**CHECK, "gambit_key": "another"}, HTTP_HX_REQUEST="true")
    assert "one Gambit per Check" in third.content.decode()
    assert Roll.objects.filter(kind="gambit").count() == 1


def test_double_click_on_roll_the_check_is_one_check(client, table):
    hero = table["hero"]
    client.force_login(table["player"])
    data = {**CHECK, "request_key": "check-click-1"}
    url = reverse("characters:check", args=[hero.pk])
    first = client.post(url, data, HTTP_HX_REQUEST="true")
    second = client.post(url, data)  # the second click without JavaScript
    check = Roll.objects.get()
    for response in (first, second):
        assert response.status_code == 200
        assert f"data-natural>{check.dice[0]}<" in response.content.decode()
        assert 'name="ocs" id="id_ocs" checked' in response.content.decode()  # as typed


def test_double_click_on_reroll_spends_one_wp(client, table):
    hero = table["hero"]
    hero.wp_current = 7  # one WP above the floor: a second spend would be refused
    hero.save()
    client.force_login(table["player"])
    response = client.post(reverse("characters:roll", args=[hero.pk]), {"what": "rally"},
                           HTTP_HX_REQUEST="true")
    key = re.search(r'name="request_key" value="(\w+R\d+)"',
                    response.content.decode()).group(1)
    rally = Roll.objects.get(kind="rally")
    url = reverse("characters:reroll", args=[hero.pk, rally.pk])
    first = client.post(url, {"request_key": key}, HTTP_HX_REQUEST="true")
    second = client.post(url, {"request_key": key})
    assert second.status_code == 200
    hero.refresh_from_db()
    assert hero.wp_current == 6
    reroll = Roll.objects.get(kind="reroll")
    for response in (first, second):
        text = response.content.decode()
        assert 'id="reroll-error"' not in text
        assert "WP 7 → 6" in text and f'data-roll="{reroll.pk}"' in text
    # From the list: its own key; a second click of it is also the same Reroll.
    client.post(reverse("characters:roll", args=[hero.pk]), {"what": "rally"})
    hero.wp_current = 8
    hero.save()
    second_rally = Roll.objects.filter(kind="rally").exclude(pk=rally.pk).get()
    text = client.get(reverse("characters:roll_log", args=[hero.pk]),
                      HTTP_HX_REQUEST="true").content.decode()
    key = re.search(rf'name="request_key" value="(\w+L{second_rally.pk})"', text).group(1)
    url = reverse("characters:reroll", args=[hero.pk, second_rally.pk])
    client.post(url, {"request_key": key}, HTTP_HX_REQUEST="true")
    client.post(url, {"request_key": key}, HTTP_HX_REQUEST="true")
    hero.refresh_from_db()
    assert hero.wp_current == 7 and Roll.objects.filter(kind="reroll").count() == 2


def test_double_click_keys_do_not_open_the_door_to_others(client, table):
    hero = table["hero"]
    client.force_login(table["player"])
    client.post(reverse("characters:check", args=[hero.pk]), CHECK)
    check = Roll.objects.get(kind="check")
    client.post(reverse("characters:roll", args=[hero.pk]), {"what": "rally"})
    rally = Roll.objects.get(kind="rally")
    urls = (reverse("characters:gambit", args=[hero.pk, check.pk]),
            reverse("characters:reroll", args=[hero.pk, rally.pk]))
    data = {**CHECK, "gambit_key": "k1", "request_key": "k2"}
    client.logout()
    for url in urls:
        assert client.post(url, data).status_code == 302
    for who in ("other", "stranger"):
        client.force_login(table[who])
        for url in urls:
            assert client.post(url, data).status_code == 404
    assert not Roll.objects.filter(kind__in=["gambit", "reroll"]).exists()
    for who in ("imp", "co_imp"):  # the Imp's second click is the Imp's same roll
        client.force_login(table[who])
        for url in urls:
            response = client.post(url, data, HTTP_HX_REQUEST="true")
            assert response.status_code == 200
            assert "already" not in response.content.decode()
    assert Roll.objects.filter(kind="gambit").count() == 1
    assert Roll.objects.filter(kind="reroll").count() == 1


# 4. After a Gambit the outcome that stands comes first.

@pytest.mark.parametrize(("faces", "final", "first", "die", "named"), [
    ((15, 18), "Critical", "Success", "succeeded", "Default Critical: <strong>Bonus Damage"),
    ((15, 2), "Failure", "Success", "failed", None),
    ((2, 15), "Success", "Failure", "succeeded", None),
    ((2, 3), "Botch", "Failure", "failed", "Default Botch: <strong>Countered"),
])
def test_the_final_outcome_leads_then_the_history(client, table, monkeypatch, faces, final,
                                                   first, die, named):
    _faces(monkeypatch, *faces)
    hero = table["hero"]
    client.force_login(table["player"])
    client.post(reverse("characters:check", args=[hero.pk]), CHECK)
    check = Roll.objects.get(kind="check")
    text = client.post(reverse("characters:gambit", args=[hero.pk, check.pk]), CHECK,
                       HTTP_HX_REQUEST="true").content.decode()
    result = text[text.index('id="check-result"'):]
    final_at = result.index(f"data-final-outcome data-gambit-outcome>{final}<")
    first_at = result.index(f"data-first-outcome>{first}<")
    assert final_at < first_at < result.index(f"data-gambit-natural>{faces[1]}<")
    assert f"data-gambit-die>{die}<" in result
    assert f'data-outcome="{final.lower()}"' in text
    if named:
        assert final_at < result.index(named) < first_at
        assert "Add max of one die" in result or "retaliatory damage" in result
    else:
        assert "Default Critical" not in result and "Default Botch" not in result
    if final != first:
        assert f"the first roll's {first} no longer counts" in result
