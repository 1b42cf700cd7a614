"""A failed Attack's damage and the Rally on the Play page, against the text:

- Scenes > Actions > Attack, Melee: "Failure: clash, both sides Roll damage"; Attack,
  Ranged: "Failure: foe evades your shot" (a thrown weapon "avoids clashes and counters").
- Resources > Shields: "Shields and other Blocking weapons aid Melee clashes/failures: add
  the Block bonus to the wielder's Clash damage Roll."
- Characters > Defenses > Status, Burning: "They also cannot Rally"; Scenes > Actions >
  Rally: "One cannot Rally while taking ongoing damage, such as from the Burning Status."
"""

import pytest
from django.urls import reverse

from campaigns.systems.eldritch_gambit import roll_services
from campaigns.systems.eldritch_gambit.roll_kinds import BURNING_NO_RALLY
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

CHECK = {"action": "", "attribute": "dex", "ocs": "on", "bonus": "0", "penalty": "0",
         "difficulty": "10", "df_other": "", "weapon": "0"}


def carry(hero, name, *, ready=False):
    catalog = GearItem.objects.srd().get(name=name)
    return InventoryItemFactory(character=hero, name=name, kind=catalog.category,
                                catalog_item=catalog, equipped=ready)


@pytest.fixture
def table():
    """Asphodel (STR 3, DEX 2) with a sword, a long bow and a small shield (Block +3)
    ready, in a campaign with a session."""
    campaign = CampaignFactory()
    player = MembershipFactory(campaign=campaign).user
    hero = AsphodelFactory(owner=player, campaign=campaign)
    carry(hero, "Sword")
    carry(hero, "Bow, long")
    shield = carry(hero, "Shield, small", ready=True)
    SessionFactory(campaign=campaign)
    return {"campaign": campaign, "imp": campaign.owner, "player": player, "hero": hero,
            "shield": shield, "other": MembershipFactory(campaign=campaign).user,
            "co_imp": CoImpMembershipFactory(campaign=campaign).user,
            "stranger": UserFactory()}


@pytest.fixture
def natural(monkeypatch):
    """Every Check die shows this face (2: a Failure against DF 30, 20: a Success)."""
    face = {"value": 2}
    monkeypatch.setattr(roll_services, "roll_dice", lambda expression, rng=None: Rolled(
        expression, face["value"], (face["value"],), ""))
    return face


def line_value(hero, name):
    return next(str(i) for i, w in enumerate(sheet_for(hero).weapons) if w.name == name)


def attack(client, hero, action, weapon, df="30"):
    data = {**CHECK, "action": action, "weapon": line_value(hero, weapon), "df_other": df}
    html = client.post(reverse("characters:check", args=[hero.pk]), data,
                       HTTP_HX_REQUEST="true").content.decode()
    return Roll.objects.filter(kind=Roll.Kind.CHECK).latest("pk"), html


def offer(html):
    if 'id="check-damage"' not in html:
        return None
    return " ".join(html.split('id="check-damage"', 1)[1].split("</form>", 1)[0].split())


def roll(client, hero, **data):
    return client.post(reverse("characters:roll", args=[hero.pk]), data,
                       HTTP_HX_REQUEST="true")


# -- 1. a ranged Failure is a miss, a melee Failure a clash ---------------------------------


def test_a_failed_ranged_attack_offers_no_damage(client, table, natural):
    hero = table["hero"]
    client.force_login(table["player"])
    check, html = attack(client, hero, "attack-ranged", "Bow, long")
    assert check.outcome == "failure"
    assert "Foe evades your shot" in html
    assert offer(html) is None and "clash" not in html.split('id="outcome-text"', 1)[1][:400]


def test_a_thrown_melee_weapon_that_fails_offers_no_clash(client, table, natural):
    hero = table["hero"]
    client.force_login(table["player"])
    check, html = attack(client, hero, "attack-ranged", "Sword")  # thrown
    assert check.outcome == "failure" and offer(html) is None


def test_a_failed_melee_attack_offers_the_clash_with_the_block(client, table, natural):
    hero = table["hero"]
    client.force_login(table["player"])
    sword = sheet_for(hero).weapons[int(line_value(hero, "Sword"))]
    check, html = attack(client, hero, "attack-melee", "Sword")
    assert check.outcome == "failure"
    button = offer(html)
    assert 'name="what" value="clash"' in button
    assert f'name="check" value="{check.pk}"' in button
    assert (f"Roll clash damage with Sword ({sword.damage_display} +3 Block of the "
            "Shield, small)") in button


def test_a_melee_success_offers_plain_damage_and_a_critical_its_critical(
        client, table, natural):
    hero = table["hero"]
    client.force_login(table["player"])
    natural["value"] = 15
    _, html = attack(client, hero, "attack-melee", "Sword", df="10")
    assert 'name="what" value="damage"' in offer(html) and "Block" not in offer(html)
    _, html = attack(client, hero, "attack-ranged", "Bow, long", df="10")
    assert 'name="what" value="damage"' in offer(html)


def test_a_gambit_that_turns_a_melee_failure_into_a_success_offers_plain_damage(
        client, table, natural):
    hero = table["hero"]
    client.force_login(table["player"])
    check, _ = attack(client, hero, "attack-melee", "Sword", df="10")
    assert check.outcome == "failure"
    natural["value"] = 15
    html = client.post(reverse("characters:gambit", args=[hero.pk, check.pk]),
                       {**CHECK, "weapon": line_value(hero, "Sword"), "df_other": "10",
                        "action": "attack-melee", "gambit_key": "g1"},
                       HTTP_HX_REQUEST="true").content.decode()
    assert 'name="what" value="damage"' in offer(html)
    response = roll(client, hero, what="clash", check=check.pk,
                    weapon=line_value(hero, "Sword"))
    assert "No clash: the Check ended in a Success" in response.content.decode()
    assert not Roll.objects.filter(kind=Roll.Kind.DAMAGE).exists()


# -- 2. the clash's damage Roll adds the ready shield's Block ------------------------------


def test_the_clash_roll_adds_the_block_and_a_normal_damage_roll_does_not(
        client, table, natural):
    hero = table["hero"]
    client.force_login(table["player"])
    sword = line_value(hero, "Sword")
    check, _ = attack(client, hero, "attack-melee", "Sword")
    response = roll(client, hero, what="clash", check=check.pk, weapon=sword,
                    request_key="clash-1")
    assert response.status_code == 200
    clash = Roll.objects.get(kind=Roll.Kind.DAMAGE)
    assert clash.label == "Sword clash damage"
    assert clash.expression == "1d8+3+3"  # the sword's 1d8 + STR 3, + Block 3
    assert clash.detail["bonus"] == 3 and clash.total == clash.dice[0] + 6
    assert clash.detail["note"] == "Clash: + 3 Block (Shield, small)"
    assert "Clash: + 3 Block (Shield, small)" in response.content.decode()
    roll(client, hero, what="damage", weapon=sword, request_key="plain-1")
    plain = Roll.objects.filter(kind=Roll.Kind.DAMAGE).latest("pk")
    assert plain.expression == "1d8+3" and plain.detail["bonus"] == 0


def test_a_reroll_of_the_clash_keeps_the_block_once(client, table, natural):
    hero = table["hero"]
    client.force_login(table["player"])
    check, _ = attack(client, hero, "attack-melee", "Sword")
    roll(client, hero, what="clash", check=check.pk, weapon=line_value(hero, "Sword"))
    clash = Roll.objects.get(kind=Roll.Kind.DAMAGE)
    client.post(reverse("characters:reroll", args=[hero.pk, clash.pk]),
                {"request_key": "rr1"}, HTTP_HX_REQUEST="true")
    again = Roll.objects.get(kind=Roll.Kind.REROLL)
    assert again.expression == "1d8+3+3" and again.total == again.detail["dice_total"] + 6


def test_the_clash_may_rely_on_another_weapon_and_the_block_still_counts(
        client, table, natural):
    hero = table["hero"]
    client.force_login(table["player"])
    check, _ = attack(client, hero, "attack-melee", "Sword")
    roll(client, hero, what="clash", check=check.pk, weapon=line_value(hero, "Shield, small"))
    assert Roll.objects.get(kind=Roll.Kind.DAMAGE).expression == "1d6+3+3"  # a bash


def test_no_block_without_a_ready_shield(client, table, natural):
    hero, shield = table["hero"], table["shield"]
    shield.equipped = False  # put away
    shield.save()
    client.force_login(table["player"])
    check, html = attack(client, hero, "attack-melee", "Sword")
    assert "Block" not in offer(html)
    roll(client, hero, what="clash", check=check.pk, weapon=line_value(hero, "Sword"))
    clash = Roll.objects.get(kind=Roll.Kind.DAMAGE)
    assert clash.expression == "1d8+3" and clash.detail["note"] == (
        "Clash: no shield ready, no Block")


def test_a_dropped_shield_blocks_nothing(client, table, natural):
    hero, shield = table["hero"], table["shield"]
    shield.dropped = True
    shield.save()
    assert sheet_for(hero).block is None


# -- 1 and 2 on the server: the clash is derived from the Check ------------------------------


def test_the_server_refuses_a_clash_after_a_ranged_failure(client, table, natural):
    hero = table["hero"]
    client.force_login(table["player"])
    check, _ = attack(client, hero, "attack-ranged", "Bow, long")
    response = roll(client, hero, what="clash", check=check.pk,
                    weapon=line_value(hero, "Bow, long"))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="roll-error"' in html
    assert "No clash: a failed ranged Attack is a miss, the foe evades the shot" in html
    assert not Roll.objects.filter(kind=Roll.Kind.DAMAGE).exists()
    # Without JavaScript: the whole page, 409, the message.
    response = client.post(reverse("characters:roll", args=[hero.pk]),
                           {"what": "clash", "check": check.pk, "weapon": "0"})
    assert response.status_code == 409 and b"No clash: a failed ranged Attack" in (
        response.content)
    assert not Roll.objects.filter(kind=Roll.Kind.DAMAGE).exists()


def test_the_server_refuses_a_clash_after_a_success_or_another_action(
        client, table, natural):
    hero = table["hero"]
    client.force_login(table["player"])
    natural["value"] = 15
    success, _ = attack(client, hero, "attack-melee", "Sword", df="10")
    natural["value"] = 2
    sneak = client.post(reverse("characters:check", args=[hero.pk]),
                        {**CHECK, "action": "sneak", "weapon": "", "df_other": "30"},
                        HTTP_HX_REQUEST="true")
    assert sneak.status_code == 200
    sneak = Roll.objects.filter(kind=Roll.Kind.CHECK).latest("pk")
    assert sneak.outcome == "failure" and sneak.action != "attack-melee"
    for check, message in ((success, "No clash: the Check ended in a Success"),
                           (sneak, "No clash: only a failed melee Attack clashes.")):
        html = roll(client, hero, what="clash", check=check.pk, weapon="0").content.decode()
        assert message in html
    assert not Roll.objects.filter(kind=Roll.Kind.DAMAGE).exists()


@pytest.mark.parametrize("value", ["", "abc", "-1", "0", "99999999", "1e3", "²", "1 ",
                                   "9" * 40])
def test_a_hostile_check_is_404_and_nothing_is_rolled(client, table, natural, value):
    hero = table["hero"]
    client.force_login(table["player"])
    response = roll(client, hero, what="clash", check=value, weapon="0")
    assert response.status_code == 404
    assert not Roll.objects.filter(kind=Roll.Kind.DAMAGE).exists()


def test_another_characters_check_is_404(client, table, natural):
    hero = table["hero"]
    client.force_login(table["player"])
    check, _ = attack(client, hero, "attack-melee", "Sword")
    mine = AsphodelFactory(owner=table["player"])
    response = roll(client, mine, what="clash", check=check.pk, weapon="0")
    assert response.status_code == 404
    assert not Roll.objects.filter(kind=Roll.Kind.DAMAGE).exists()


@pytest.mark.parametrize("weapon", ["", "9", "n0", "x", "-1"])
def test_a_hostile_weapon_on_a_clash_is_404(client, table, natural, weapon):
    hero = table["hero"]
    client.force_login(table["player"])
    check, _ = attack(client, hero, "attack-melee", "Sword")
    assert roll(client, hero, what="clash", check=check.pk, weapon=weapon).status_code == 404
    assert not Roll.objects.filter(kind=Roll.Kind.DAMAGE).exists()


def test_who_may_roll_the_clash(client, table, natural):
    hero = table["hero"]
    client.force_login(table["player"])
    check, _ = attack(client, hero, "attack-melee", "Sword")
    client.logout()
    data = {"what": "clash", "check": check.pk, "weapon": "0"}
    url = reverse("characters:roll", args=[hero.pk])
    assert client.post(url, data).status_code == 302  # anonymous: to the login page
    for who in ("other", "stranger"):
        client.force_login(table[who])
        assert client.post(url, data).status_code == 404
    assert not Roll.objects.filter(kind=Roll.Kind.DAMAGE).exists()
    for n, who in enumerate(("imp", "co_imp", "player")):
        client.force_login(table[who])
        assert client.post(url, {**data, "request_key": f"k{n}"}).status_code == 200
    assert Roll.objects.filter(kind=Roll.Kind.DAMAGE).count() == 3


def test_a_double_click_is_one_clash(client, table, natural):
    hero = table["hero"]
    client.force_login(table["player"])
    check, _ = attack(client, hero, "attack-melee", "Sword")
    for _ in range(2):
        roll(client, hero, what="clash", check=check.pk, weapon="0", request_key="same")
    assert Roll.objects.filter(kind=Roll.Kind.DAMAGE).count() == 1


# -- 3. no Rally while Burning ---------------------------------------------------------------


def test_a_burning_character_cannot_rally(client, table):
    hero = table["hero"]
    hero.statuses = ["burning"]
    hero.save()
    client.force_login(table["player"])
    response = roll(client, hero, what="rally")
    assert response.status_code == 200
    html = response.content.decode()
    assert f'id="rally-error">{BURNING_NO_RALLY}' in html
    assert not Roll.objects.filter(kind=Roll.Kind.RALLY).exists()
    response = client.post(reverse("characters:roll", args=[hero.pk]), {"what": "rally"})
    assert response.status_code == 409 and BURNING_NO_RALLY.encode() in response.content
    assert not Roll.objects.filter(kind=Roll.Kind.RALLY).exists()
    # The Imp is refused too: it is the rule, not a permission.
    client.force_login(table["imp"])
    assert roll(client, hero, what="rally").status_code == 200
    assert not Roll.objects.filter(kind=Roll.Kind.RALLY).exists()


def test_the_rally_button_is_disabled_with_the_reason_while_burning(client, table):
    hero = table["hero"]
    client.force_login(table["player"])
    html = client.get(reverse("characters:play", args=[hero.pk])).content.decode()
    button = html.split('id="roll-rally"', 1)[1].split(">", 1)[0]
    assert "disabled" not in button and 'id="rally-burning"' not in html
    hero.statuses = ["burning"]
    hero.save()
    html = client.get(reverse("characters:play", args=[hero.pk])).content.decode()
    button = html.split('id="roll-rally"', 1)[1].split(">", 1)[0]
    assert "disabled" in button and 'aria-describedby="rally-burning"' in button
    assert "Burning: cannot Rally while taking ongoing damage" in html


def test_rally_once_the_fire_is_out(client, table):
    hero = table["hero"]
    hero.statuses = []
    hero.save()
    client.force_login(table["player"])
    assert roll(client, hero, what="rally").status_code == 200
    assert Roll.objects.filter(kind=Roll.Kind.RALLY).count() == 1


def test_rally_refused_for_anonymous_and_others_before_the_rule(client, table):
    hero = table["hero"]
    hero.statuses = ["burning"]
    hero.save()
    url = reverse("characters:roll", args=[hero.pk])
    assert client.post(url, {"what": "rally"}).status_code == 302
    for who in ("other", "stranger"):
        client.force_login(table[who])
        response = client.post(url, {"what": "rally"})
        assert response.status_code == 404 and BURNING_NO_RALLY.encode() not in (
            response.content)
