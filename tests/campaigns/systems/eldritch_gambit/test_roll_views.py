"""The Checks and Rolls page, its htmx endpoints and the session's roll log: who may
use them, what bad input says, and what gets logged."""

import pytest
from django.urls import reverse

from campaigns.systems.eldritch_gambit.rolls import Roll
from rules.models import GearItem
from tests.factories import (
    AsphodelFactory,
    CampaignFactory,
    CoImpMembershipFactory,
    InventoryItemFactory,
    MembershipFactory,
    SessionFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

CHECK = {"action": "attack-melee", "attribute": "dex", "ocs": "on", "bonus": "0",
         "penalty": "0", "difficulty": "10", "df_other": ""}


@pytest.fixture
def table():
    """A campaign with a session; Asphodel's player; another player of the campaign."""
    campaign = CampaignFactory()
    player = MembershipFactory(campaign=campaign).user
    other = MembershipFactory(campaign=campaign).user
    hero = AsphodelFactory(owner=player, campaign=campaign)
    session = SessionFactory(campaign=campaign)
    co_imp = CoImpMembershipFactory(campaign=campaign).user
    return {"campaign": campaign, "imp": campaign.owner, "player": player, "other": other,
            "hero": hero, "session": session, "stranger": UserFactory(), "co_imp": co_imp}


def test_play_page_permissions(client, table):
    hero = table["hero"]
    url = reverse("characters:play", args=[hero.pk])
    response = client.get(url)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    for who in ("other", "stranger"):
        client.force_login(table[who])
        assert client.get(url).status_code == 404
    for who in ("player", "imp", "co_imp"):
        client.force_login(table[who])
        response = client.get(url)
        assert response.status_code == 200
        assert b"Make a Check" in response.content


@pytest.mark.parametrize("name", ["check_odds", "check_action", "check", "roll"])
def test_post_endpoints_refuse_anonymous_and_others(client, table, name):
    hero = table["hero"]
    url = reverse(f"characters:{name}", args=[hero.pk])
    data = {**CHECK, "what": "rally"}
    assert client.post(url, data).status_code == 302
    for who in ("other", "stranger"):
        client.force_login(table[who])
        assert client.post(url, data).status_code == 404
    assert not Roll.objects.exists()
    client.force_login(table["imp"])
    assert client.post(url, data).status_code == 200


def test_odds_follow_the_inputs_without_rolling(client, table):
    hero = table["hero"]  # DEX +2
    client.force_login(table["player"])
    response = client.post(reverse("characters:check_odds", args=[hero.pk]),
                           {**CHECK, "difficulty": "other", "df_other": "11"},
                           HTTP_HX_REQUEST="true")
    text = response.content.decode()
    assert 'data-odds="success">60%' in text  # d20+2 vs 11: 12 faces of 20
    assert 'data-odds="critical">36%' in text
    assert 'data-odds="botch">16%' in text
    assert not Roll.objects.exists()


def test_check_rolls_and_logs_into_the_session(client, table):
    hero = table["hero"]
    client.force_login(table["player"])
    response = client.post(reverse("characters:check", args=[hero.pk]), CHECK,
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert response["HX-Trigger"] == "rolls-changed"
    check = Roll.objects.get()
    assert check.kind == "check" and check.die == 20 and check.modifier == 2
    assert check.session == table["session"]
    assert b"Call a Gambit" in response.content
    # The Gambit, once.
    gambit_url = reverse("characters:gambit", args=[hero.pk, check.pk])
    response = client.post(gambit_url, CHECK, HTTP_HX_REQUEST="true")
    assert Roll.objects.filter(kind="gambit", gambit_of=check).count() == 1
    assert b"Call a Gambit" not in response.content
    response = client.post(gambit_url, CHECK, HTTP_HX_REQUEST="true")
    assert b"one Gambit per Check" in response.content
    assert Roll.objects.filter(kind="gambit").count() == 1


def test_gambit_permissions(client, table):
    hero = table["hero"]
    client.force_login(table["player"])
    client.post(reverse("characters:check", args=[hero.pk]), CHECK)
    check = Roll.objects.get()
    url = reverse("characters:gambit", args=[hero.pk, check.pk])
    client.logout()
    assert client.post(url).status_code == 302
    for who in ("other", "stranger"):
        client.force_login(table[who])
        assert client.post(url).status_code == 404
    client.force_login(table["imp"])
    assert client.post(url).status_code == 200
    assert Roll.objects.filter(kind="gambit").count() == 1


@pytest.mark.parametrize(("data", "field", "message"), [
    ({"bonus": "-2"}, "bonus", "Largest Bonus is 0 or more: a negative number goes in Penalty."),
    ({"penalty": "-4"}, "penalty", "Largest Penalty is 0 or more: type 4 for a -4 Penalty."),
    ({"difficulty": "other", "df_other": "101"}, "df_other", "A DF is from 0 to 100."),
    ({"difficulty": "other", "df_other": ""}, "df_other", "Type the DF, from 0 to 100"),
    ({"bonus": "two"}, "bonus", "Largest Bonus is a whole number, like 2."),
])
def test_bad_check_input_is_named_next_to_its_field(client, table, data, field, message):
    hero = table["hero"]
    client.force_login(table["player"])
    response = client.post(reverse("characters:check", args=[hero.pk]), {**CHECK, **data},
                           HTTP_HX_REQUEST="true")
    text = response.content.decode()
    slot = text.index(f'id="errors-{field}"')
    assert message in text[slot:slot + 400]
    assert not Roll.objects.exists()
    # What was typed stays.
    for value in data.values():
        if value:
            assert f'value="{value}"' in text


def test_damage_rally_fall_fire_buildup(client, table):
    hero = table["hero"]
    spear = GearItem.objects.srd().get(name="Spear")
    InventoryItemFactory(character=hero, name="Spear", kind="weapon", catalog_item=spear)
    client.force_login(table["player"])
    url = reverse("characters:roll", args=[hero.pk])
    client.post(url, {"what": "critical", "weapon": "0"})
    damage = Roll.objects.get(kind="damage")
    # 1d8 + STR 3, Critical + 8 (the max of the d8).
    assert damage.expression == "1d8+3+8" and damage.label == "Spear damage (Critical)"
    assert damage.total == damage.dice[0] + 11
    assert client.post(url, {"what": "damage", "weapon": "9"}).status_code == 404
    client.post(url, {"what": "rally"})
    rally = Roll.objects.get(kind="rally")
    assert rally.expression == "1d4+2"  # unarmored d4 + END 2
    client.post(url, {"what": "fall", "fall-zones": "12"})
    fall = Roll.objects.get(kind="fall")
    assert len(fall.dice) == 10  # at most 10d6
    client.post(url, {"what": "fire", "fire-fire": "large"})
    assert len(Roll.objects.get(kind="fire").dice) == 3
    client.post(url, {"what": "buildup", "buildup-buildup": "1d6"})
    hero.refresh_from_db()
    assert hero.poison_buildup == Roll.objects.get(kind="buildup").total
    assert Roll.objects.filter(session=table["session"]).count() == Roll.objects.count()


def test_a_jumper_takes_half_fall_damage(client, table):
    # Bestiary > Jump: "This also halves fall damage" (rounded up: Basics > Modifiers).
    hero = table["hero"]
    hero.template_traits = [{"name": "Jump", "value": "", "load": 1}]
    hero.save(update_fields=["template_traits"])
    client.force_login(table["player"])
    client.post(reverse("characters:roll", args=[hero.pk]), {"what": "fall", "fall-zones": "3"})
    fall = Roll.objects.get(kind="fall")
    assert len(fall.dice) == 3 and fall.expression == "3d6 halved"
    assert fall.total == -(-sum(fall.dice) // 2)


@pytest.mark.parametrize(("data", "field", "message"), [
    ({"what": "fall", "fall-zones": "0"}, "fall-zones", "A fall is at least 1 Zone (5 m)."),
    ({"what": "buildup", "buildup-buildup": "lots"}, "buildup-buildup",
     "is not a Buildup die like 1d6"),
    ({"what": "rolloff", "rolloff-label": "Clash", "rolloff-side": "attacker",
      "rolloff-attacker": "1d8+", "rolloff-defender": "1d6"}, "rolloff-attacker",
     "is not dice notation like 1d8+3"),
])
def test_bad_roll_input(client, table, data, field, message):
    hero = table["hero"]
    client.force_login(table["player"])
    response = client.post(reverse("characters:roll", args=[hero.pk]), data,
                           HTTP_HX_REQUEST="true")
    text = response.content.decode()
    slot = text.index(f'id="errors-{field}"')
    assert message in text[slot:slot + 400]
    assert not Roll.objects.exists()


def test_roll_off_from_the_page(client, table):
    hero = table["hero"]
    client.force_login(table["player"])
    client.post(reverse("characters:roll", args=[hero.pk]), {
        "what": "rolloff", "rolloff-label": "Grapple", "rolloff-side": "attacker",
        "rolloff-attacker": "4", "rolloff-defender": "4"})
    result = Roll.objects.get(kind="rolloff")
    assert result.outcome == "attacker" and result.label == "Grapple"


def test_reroll_lowers_wp_and_is_refused_at_the_floor(client, table):
    hero = table["hero"]
    hero.wp_current = 7  # floor 6
    hero.save()
    client.force_login(table["player"])
    client.post(reverse("characters:roll", args=[hero.pk]), {"what": "rally"})
    rally = Roll.objects.get(kind="rally")
    url = reverse("characters:reroll", args=[hero.pk, rally.pk])
    response = client.post(url, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    hero.refresh_from_db()
    assert hero.wp_current == 6
    assert 'data-stat="wp_current">6<' in response.content.decode()
    client.post(reverse("characters:roll", args=[hero.pk]), {"what": "rally"})
    second = Roll.objects.filter(kind="rally").exclude(pk=rally.pk).get()
    response = client.post(reverse("characters:reroll", args=[hero.pk, second.pk]),
                           HTTP_HX_REQUEST="true")
    assert "cannot drop below the floor of 6" in response.content.decode()
    hero.refresh_from_db()
    assert hero.wp_current == 6


def test_reroll_permissions(client, table):
    hero = table["hero"]
    client.force_login(table["player"])
    client.post(reverse("characters:roll", args=[hero.pk]), {"what": "rally"})
    rally = Roll.objects.get(kind="rally")
    url = reverse("characters:reroll", args=[hero.pk, rally.pk])
    client.logout()
    assert client.post(url).status_code == 302
    for who in ("other", "stranger"):
        client.force_login(table[who])
        assert client.post(url).status_code == 404
    client.force_login(table["imp"])
    assert client.post(url).status_code == 200
    hero.refresh_from_db()
    assert hero.wp_current == 10


def test_session_log_is_for_members(client, table):
    hero = table["hero"]
    client.force_login(table["player"])
    client.post(reverse("characters:roll", args=[hero.pk]), {"what": "rally"})
    url = reverse("campaigns:session_log", args=[table["campaign"].pk, 1])
    client.logout()
    assert client.get(url).status_code == 302
    client.force_login(table["stranger"])
    assert client.get(url).status_code == 404
    for who in ("player", "other", "imp"):
        client.force_login(table[who])
        response = client.get(url)
        assert response.status_code == 200
        assert hero.display_name.encode() in response.content
        assert b'hx-trigger="every 2s"' in response.content
    response = client.get(url, HTTP_HX_REQUEST="true")
    assert b"<html" not in response.content and b"Rally" in response.content


def test_character_log_permissions(client, table):
    hero = table["hero"]
    url = reverse("characters:roll_log", args=[hero.pk])
    assert client.get(url).status_code == 302
    for who in ("other", "stranger"):
        client.force_login(table[who])
        assert client.get(url).status_code == 404
    for who in ("player", "imp"):
        client.force_login(table[who])
        assert client.get(url).status_code == 200


def test_without_a_campaign_rolls_stay_with_the_character(client):
    hero = AsphodelFactory()
    client.force_login(hero.owner)
    client.post(reverse("characters:roll", args=[hero.pk]), {"what": "rally"})
    roll = Roll.objects.get()
    assert roll.session is None
    response = client.get(reverse("characters:play", args=[hero.pk]))
    assert b"Not in a campaign" in response.content
    assert b"Rally" in response.content


def test_without_javascript_the_whole_page_comes_back(client):
    hero = AsphodelFactory()
    client.force_login(hero.owner)
    response = client.post(reverse("characters:check", args=[hero.pk]), CHECK)
    assert response.status_code == 200
    assert b"<html" in response.content and b"Call a Gambit" in response.content


def test_staggered_checks_on_a_d12_even_for_an_attack(client):
    hero = AsphodelFactory(statuses=["staggered"])
    client.force_login(hero.owner)
    response = client.post(reverse("characters:check_odds", args=[hero.pk]), CHECK)
    text = response.content.decode()
    assert "d12+2 vs DF 10" in text
    assert 'data-odds="success">41.67%' in text  # faces 8..12: 5 of 12
    client.post(reverse("characters:check", args=[hero.pk]), CHECK)
    assert Roll.objects.get().die == 12


def test_confused_odd_results_fail(client):
    hero = AsphodelFactory(statuses=["confused"])
    client.force_login(hero.owner)
    response = client.post(reverse("characters:check_odds", args=[hero.pk]), CHECK)
    # d20+2 vs 10: faces 8..20 succeed, of which the even ones: 8, 10, ..., 20 = 7.
    assert 'data-odds="success">35%' in response.content.decode()


def test_the_action_brings_its_attribute_and_die(client):
    hero = AsphodelFactory(career="")
    client.force_login(hero.owner)
    response = client.post(reverse("characters:check_action", args=[hero.pk]),
                           {**CHECK, "action": "sneak", "attribute": "str", "ocs": ""})
    text = response.content.decode()
    assert '<option value="agi" selected>' in text  # Sneak: AGI vs. WP
    assert "d12+1 vs DF 10" in text  # no OCS: a d12
    response = client.post(reverse("characters:check_action", args=[hero.pk]),
                           {**CHECK, "action": "grapple", "attribute": "str", "ocs": ""})
    assert "d20+2 vs DF 10" in response.content.decode()  # Grapple: d20 for everyone
    # Rally is a Roll, not a Check.
    page = client.get(reverse("characters:play", args=[hero.pk])).content.decode()
    assert '<option value="rally"' not in page and '<option value="grapple"' in page


def test_an_attack_can_drop_to_a_d12(client):
    """Attack, Ranged: "double a weapon's range ... by downgrading the Check to a d12";
    Split Attacks use a d12 each."""
    hero = AsphodelFactory()
    client.force_login(hero.owner)
    response = client.post(reverse("characters:check_odds", args=[hero.pk]),
                           {**CHECK, "action": "attack-ranged", "ocs": ""})
    assert "d12+2 vs DF 10" in response.content.decode()


@pytest.mark.parametrize(("faces", "outcome", "named"), [
    ((15, 18), "Critical", "Bonus Damage</strong>: Add max of one die as bonus"),
    ((2, 3), "Botch", "Countered</strong>: Take retaliatory damage"),
    ((15, 2), "Failure", None),
    ((2, 15), "Success", None),
])
def test_gambit_names_the_actions_default(client, monkeypatch, faces, outcome, named):
    from campaigns.systems.eldritch_gambit import roll_services
    from rules.engine.rolling import Rolled

    queue = list(faces)
    monkeypatch.setattr(roll_services, "roll_dice", lambda expression, rng=None: Rolled(
        expression, queue[0], (queue.pop(0),), ""))
    hero = AsphodelFactory()
    client.force_login(hero.owner)
    client.post(reverse("characters:check", args=[hero.pk]), CHECK)
    check = Roll.objects.get(kind="check")
    response = client.post(reverse("characters:gambit", args=[hero.pk, check.pk]), CHECK,
                           HTTP_HX_REQUEST="true")
    text = response.content.decode()
    assert f"data-gambit-outcome>{outcome}<" in text
    if named:
        assert named in text
    else:
        assert "Default Critical" not in text and "Default Botch" not in text


def test_a_roll_keeps_what_is_typed_in_the_other_forms(client):
    hero = AsphodelFactory()
    client.force_login(hero.owner)
    response = client.post(reverse("characters:roll", args=[hero.pk]), {
        "what": "fall", "fall-zones": "3", "fall-plummet": "on",
        "rolloff-attacker": "2d6+1", "rolloff-defender": "1d10", "rolloff-side": "defender",
        "buildup-buildup": "2d4", "fire-fire": "large"}, HTTP_HX_REQUEST="true")
    text = response.content.decode()
    assert Roll.objects.get().kind == "fall"
    assert 'value="2d6+1"' in text and 'value="1d10"' in text and 'value="2d4"' in text
    assert '<option value="defender" selected>' in text
    assert '<option value="large" selected>' in text
    assert 'name="fall-zones" value="3"' in text
    assert 'name="fall-plummet"' in text and "checked" in text
    assert "invalid-feedback" not in text


def test_the_poll_brings_wp_spent_elsewhere(client, table):
    hero = table["hero"]
    hero.wp_current = 8
    hero.save()
    client.force_login(table["player"])
    response = client.get(reverse("characters:roll_log", args=[hero.pk]),
                          HTTP_HX_REQUEST="true")
    text = response.content.decode()
    assert 'id="wp-tracker" hx-swap-oob="true"' in text
    assert 'data-stat="wp_current">8<' in text


def test_a_typed_df_wins_over_the_list(client):
    hero = AsphodelFactory()
    client.force_login(hero.owner)
    response = client.post(reverse("characters:check_odds", args=[hero.pk]),
                           {**CHECK, "difficulty": "15", "df_other": "12"})
    assert "d20+2 vs DF 12" in response.content.decode()
    response = client.post(reverse("characters:check_odds", args=[hero.pk]),
                           {**CHECK, "difficulty": "15", "df_other": ""})
    assert "d20+2 vs DF 15" in response.content.decode()


def test_the_result_quotes_the_actions_outcome(client, monkeypatch):
    from campaigns.systems.eldritch_gambit import roll_services
    from rules.engine.rolling import Rolled

    monkeypatch.setattr(roll_services, "roll_dice", lambda expression, rng=None: Rolled(
        expression, 2, (2,), ""))
    hero = AsphodelFactory()
    client.force_login(hero.owner)
    response = client.post(reverse("characters:check", args=[hero.pk]), CHECK,
                           HTTP_HX_REQUEST="true")
    # Attack, Melee, Failure: "clash, both sides Roll damage + mods, ..."
    assert 'id="outcome-text">Clash, both sides Roll damage' in response.content.decode()


def test_a_long_session_log_pages_back_through_older_rolls(client, table):
    """The log shows a page of LOG_SIZE rolls; older ones are a link away, on a page that
    does not poll, and a hostile `before` is the first page."""
    from campaigns.systems.eldritch_gambit.roll_views import LOG_SIZE

    hero, session = table["hero"], table["session"]
    Roll.objects.bulk_create(
        Roll(character=hero, session=session, kind=Roll.Kind.RALLY, label=f"Rally {n}",
             expression="1d6", dice=[n % 6 + 1], total=n % 6 + 1)
        for n in range(LOG_SIZE + 3))
    url = reverse("campaigns:session_log", args=[table["campaign"].pk, session.number])
    client.force_login(table["imp"])
    first = client.get(url).content.decode()
    assert first.count("data-roll=") == LOG_SIZE and f"Rally {LOG_SIZE + 2}" in first
    assert 'id="log-older"' in first and 'hx-trigger="every 2s"' in first
    older = Roll.objects.filter(session=session).order_by("-pk")[LOG_SIZE - 1].pk
    second = client.get(f"{url}?before={older}").content.decode()
    assert 'hx-trigger="every 2s"' not in second and 'id="log-newest"' in second
    assert 'id="log-older"' not in second and second.count("data-roll=") == 3
    for n in range(3):
        assert f"Rally {n}" in second
    assert f"Rally {LOG_SIZE + 2}" not in second
    for hostile in ("x", "-1", "9" * 40, "\x00"):
        response = client.get(url, {"before": hostile})
        assert response.status_code == 200 and 'id="log-older"' in response.content.decode()
    empty = client.get(url, {"before": Roll.objects.order_by("pk").first().pk})
    assert "No older rolls." in empty.content.decode()
