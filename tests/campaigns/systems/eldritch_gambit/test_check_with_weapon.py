"""The Check form at a real table: the DF list and the odds agree on a typed DF; "With"
a weapon or natural attack fills the Bonus from its Hit, names it in the result and the
log, and offers its damage; the odds say that Critical and Botch need the Gambit."""

import re

import pytest
from django.urls import reverse

from campaigns.systems.eldritch_gambit.rolls import Roll
from characters.systems.eldritch_gambit.builds import sheet_for
from rules.engine.rolling import Rolled
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

CHECK = {"action": "", "attribute": "wis", "ocs": "", "bonus": "0", "penalty": "0",
         "difficulty": "10", "df_other": "", "weapon": ""}


@pytest.fixture
def table():
    """Asphodel (STR 3, DEX 2) with a spear and an Attack (close) Trait, in a session."""
    campaign = CampaignFactory()
    player = MembershipFactory(campaign=campaign).user
    hero = AsphodelFactory(owner=player, campaign=campaign, template_traits=[
        {"name": "Attack", "value": "close", "load": 1},
        {"name": "Attack", "value": "area", "load": 1}])
    InventoryItemFactory(character=hero, name="Spear", kind="weapon",
                         catalog_item=GearItem.objects.srd().get(name="Spear"))
    session = SessionFactory(campaign=campaign)
    return {"campaign": campaign, "imp": campaign.owner, "player": player, "hero": hero,
            "session": session, "other": MembershipFactory(campaign=campaign).user,
            "co_imp": CoImpMembershipFactory(campaign=campaign).user,
            "stranger": UserFactory()}


def url(hero, name):
    return reverse(f"characters:{name}", args=[hero.pk])


def choose(client, hero, weapon, **data):
    """The "With" select's change, as htmx posts it."""
    return client.post(url(hero, "check_action"), {**CHECK, **data, "weapon": weapon},
                       HTTP_HX_REQUEST="true", HTTP_HX_TRIGGER_NAME="weapon")


def field_value(html, name):
    match = re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', html)
    return match and match.group(1)


def selected(html, name):
    select = html.split(f'name="{name}"', 1)[1].split("</select>", 1)[0]
    return re.search(r'<option value="([^"]*)"[^>]*selected', select).group(1)


# The DF list and the odds agree


def test_a_typed_df_switches_the_list_to_another_df(client, table):
    hero = table["hero"]  # WIS +1
    client.force_login(table["player"])
    response = client.post(url(hero, "check_odds"), {**CHECK, "df_other": "12"},
                           HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert "d12+1 vs DF 12" in html and "data-typed-df" in html
    # Without JavaScript the Roll comes back as a whole page: the list says "Another DF".
    response = client.post(url(hero, "check"), {**CHECK, "df_other": "12"})
    html = response.content.decode()
    assert selected(html, "difficulty") == "other"
    assert Roll.objects.get().df == 12
    # A DF from the list, nothing typed: the list's DF, and no "typed" note.
    html = client.post(url(hero, "check_odds"), {**CHECK, "difficulty": "15"}).content.decode()
    assert "vs DF 15" in html and "data-typed-df" not in html


def test_the_odds_say_critical_and_botch_need_the_gambit(client, table):
    client.force_login(table["player"])
    html = client.get(url(table["hero"], "play")).content.decode()
    assert "Critical <small>if you call the Gambit</small>" in html
    assert "Botch <small>if you call the Gambit</small>" in html
    assert "Without a Gambit a Check ends in a Success or a Failure only." in html


# "With" a weapon


def test_the_with_list_names_the_weapons_and_attack_traits_with_a_check(client, table):
    client.force_login(table["player"])
    html = client.get(url(table["hero"], "play")).content.decode()
    select = html.split('name="weapon"', 1)[1].split("</select>", 1)[0]
    sheet = sheet_for(table["hero"])
    spear, close = sheet.weapons[0], sheet.natural_attacks[0]
    assert f'value="0">Spear (Hit {spear.hit_display}, {spear.damage_display})' in select
    assert f'value="n0">Attack (close) (Hit {close.hit_display}' in select
    assert 'value="n1"' not in select  # the area attack has no Attack Check


def test_choosing_a_weapon_fills_the_bonus_from_its_hit(client, table):
    hero = table["hero"]
    client.force_login(table["player"])
    spear = sheet_for(hero).weapons[0]
    html = choose(client, hero, "0").content.decode()
    assert selected(html, "action") == "attack-melee" and selected(html, "attribute") == "dex"
    # DEX +2 is in the Hit already: the Bonus is the rest, so the Modifier is the Hit.
    assert field_value(html, "bonus") == str(spear.hit - 2)
    assert f"d20{spear.hit:+d} vs DF 10" in html
    assert selected(html, "weapon") == "0"


def test_another_action_than_an_attack_puts_the_weapon_down(client, table):
    hero = table["hero"]
    client.force_login(table["player"])
    data = {**CHECK, "weapon": "0", "action": "attack-ranged", "attribute": "dex"}
    html = client.post(url(hero, "check_action"), data, HTTP_HX_REQUEST="true",
                       HTTP_HX_TRIGGER_NAME="action").content.decode()
    assert selected(html, "weapon") == "0"  # still an Attack
    html = client.post(url(hero, "check_action"), {**data, "action": "insight"},
                       HTTP_HX_REQUEST="true", HTTP_HX_TRIGGER_NAME="action").content.decode()
    assert selected(html, "weapon") == "" and selected(html, "attribute") == "wis"


def test_a_roll_with_a_weapon_names_it_and_offers_its_damage(client, table, monkeypatch):
    from campaigns.systems.eldritch_gambit import roll_services

    monkeypatch.setattr(roll_services, "roll_dice", lambda expression, rng=None: Rolled(
        expression, 15, (15,), ""))
    hero = table["hero"]
    client.force_login(table["player"])
    spear = sheet_for(hero).weapons[0]
    data = {**CHECK, "weapon": "0", "action": "attack-melee", "attribute": "dex",
            "ocs": "on", "bonus": str(spear.hit - 2)}
    html = client.post(url(hero, "check"), data, HTTP_HX_REQUEST="true").content.decode()
    check = Roll.objects.get()
    assert check.label == "Attack, Melee: DEX with Spear" and check.modifier == spear.hit
    assert check.detail["weapon"] == "Spear" and check.session == table["session"]
    offer = html.split('id="check-damage"', 1)[1].split("</form>", 1)[0]
    assert 'name="weapon" value="0"' in offer and 'name="what" value="damage"' in offer
    assert f"Roll damage with Spear ({spear.damage})" in offer
    # The offer rolls the spear's damage into the log, named.
    client.post(url(hero, "roll"), {"what": "damage", "weapon": "0"})
    assert Roll.objects.get(kind="damage").label == "Spear damage"
    log = client.get(reverse("campaigns:session_log",
                             args=[table["campaign"].pk, table["session"].number]))
    assert "Attack, Melee: DEX with Spear" in log.content.decode()


def test_a_critical_with_a_natural_attack_offers_its_critical_damage(client, table,
                                                                      monkeypatch):
    from campaigns.systems.eldritch_gambit import roll_services

    monkeypatch.setattr(roll_services, "roll_dice", lambda expression, rng=None: Rolled(
        expression, 20, (20,), ""))
    hero = table["hero"]
    client.force_login(table["player"])
    close = sheet_for(hero).natural_attacks[0]
    html = choose(client, hero, "n0").content.decode()
    data = {**CHECK, "weapon": "n0", "action": selected(html, "action"), "attribute": "dex",
            "ocs": "on", "bonus": field_value(html, "bonus")}
    client.post(url(hero, "check"), data, HTTP_HX_REQUEST="true")
    check = Roll.objects.get()
    assert check.modifier == close.hit and check.label.endswith("with Attack (close)")
    html = client.post(reverse("characters:gambit", args=[hero.pk, check.pk]), data,
                       HTTP_HX_REQUEST="true").content.decode()
    offer = html.split('id="check-damage"', 1)[1].split("</form>", 1)[0]
    assert 'name="what" value="critical"' in offer and 'value="n0"' in offer
    assert f"Roll Critical damage with Attack (close) ({close.damage} +{close.critical_bonus})" \
        in offer


def test_without_javascript_use_its_hit_fills_the_bonus(client, table):
    hero = table["hero"]
    client.force_login(table["player"])
    spear = sheet_for(hero).weapons[0]
    response = client.post(url(hero, "check_action"),
                           {**CHECK, "weapon": "0", "use_weapon": "1"})
    html = response.content.decode()
    assert "<html" in html and field_value(html, "bonus") == str(spear.hit - 2)
    assert not Roll.objects.exists()


def test_choosing_a_weapon_permissions(client, table):
    """Anonymous to the login page; another player and a stranger 404; the owner, the
    Imp and a co-Imp get the weapon's Hit."""
    hero = table["hero"]
    response = choose(client, hero, "0")
    assert response.status_code == 302 and "/login" in response["Location"]
    for who in ("other", "stranger"):
        client.force_login(table[who])
        assert choose(client, hero, "0").status_code == 404
        assert client.post(url(hero, "check"), {**CHECK, "weapon": "0"}).status_code == 404
    for who in ("player", "imp", "co_imp"):
        client.force_login(table[who])
        html = choose(client, hero, "0").content.decode()
        assert selected(html, "weapon") == "0" and selected(html, "attribute") == "dex"
    assert not Roll.objects.exists()


@pytest.mark.parametrize("weapon", ["1", "9", "n1", "n9", "-1", "x", "0 ", "n", "00",
                                    "1e3", "<b>0</b>", "9" * 40])
def test_a_weapon_that_is_not_theirs_is_refused_beside_the_field(client, table, weapon):
    """Not one of the character's lines (or the area attack, which has no Check): the
    Roll is refused next to "With", nothing is logged, and choosing it fills nothing."""
    hero = table["hero"]
    client.force_login(table["player"])
    response = client.post(url(hero, "check"), {**CHECK, "weapon": weapon},
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    slot = html.index('id="errors-weapon"')
    assert "Choose one of this character&#x27;s weapons" in html[slot:slot + 300]
    assert not Roll.objects.exists()
    assert "<b>0</b>" not in html
    html = choose(client, hero, weapon).content.decode()
    assert field_value(html, "bonus") == "0" and selected(html, "attribute") == "wis"
    assert not Roll.objects.exists()
    # Without JavaScript too: the page comes back with the error, 422.
    assert client.post(url(hero, "check"), {**CHECK, "weapon": weapon}).status_code == 422
