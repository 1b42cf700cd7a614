"""Errant Checks at the table (issue #14): the services (odds logged are the engine's and
an enumeration's, the DV's modifiers from the sheet, Position and Impact, mastery, Saving
Throws, opposed Checks, double clicks), the Play page and its endpoints (anonymous,
another player, the owner, the Guide; hostile input) and the session log with its
conditional poll."""

import random
from fractions import Fraction

import pytest
from django.urls import reverse

from campaigns import services
from campaigns.systems.errant import roll_services
from campaigns.systems.errant.roll_services import RollRefused, RollRequest
from campaigns.systems.errant.rolls import ErrantRoll
from characters.systems.errant.apps import KEY
from characters.systems.errant.builds import sheet_for
from characters.systems.errant.models import ErrantCharacter
from rules.engine.errant import checks
from tests.characters.systems.errant.helpers import make_wren
from tests.factories import (
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
        assert (a, b) == (1, 20)
        return self.faces.pop(0)


DEVIANT = {"archetype": "deviant", "kit_choice": "burglars_tools",
           "proficiencies": [["stealth", 2], ["awareness", 1]]}


@pytest.fixture
def table():
    """An Errant campaign with a session; Wren (the player's), another player, a co-Guide
    and a stranger."""
    campaign = CampaignFactory(system=KEY)
    player = MembershipFactory(campaign=campaign).user
    other = MembershipFactory(campaign=campaign).user
    wren = make_wren(player)
    services.character_join(campaign=campaign, character=wren, by=player)
    session = services.session_start(campaign=campaign, by=campaign.owner)
    co_guide = CoImpMembershipFactory(campaign=campaign).user
    return {"campaign": campaign, "guide": campaign.owner, "player": player, "other": other,
            "wren": ErrantCharacter.objects.get(pk=wren.pk), "session": session,
            "co_guide": co_guide, "stranger": UserFactory()}


def check(**changes) -> RollRequest:
    values = {"kind": "check", "attribute": "phys", "base_dv": 4}
    values.update(changes)
    return RollRequest(**values)


def enumerate_chance(attribute: int, dv: int) -> Fraction:
    return Fraction(sum(1 for face in range(1, 21) if dv < 0 or dv < face <= attribute), 20)


# -- services ---------------------------------------------------------------------------------


def test_a_check_logs_the_engines_odds_the_face_and_its_meaning(table):
    wren = table["wren"]
    phys = sheet_for(wren).value("phys")
    rolled = roll_services.make_roll(character=wren, by=table["player"], request=check(),
                                     rng=Faces(5))
    assert rolled.odds == {"success": str(checks.p_success(phys, 4))}
    assert Fraction(rolled.odds["success"]) == enumerate_chance(phys, 4)
    assert (rolled.face, rolled.attribute_value, rolled.dv) == (5, phys, 4)
    assert rolled.success is (4 < 5 <= phys)
    assert rolled.meaning == "Fair Impact: you got what you wanted."
    assert rolled.session == table["session"] and rolled.rolled_by == table["player"]


@pytest.mark.parametrize(("face", "success"), [(4, False), (5, True), (20, False)])
def test_the_face_must_be_above_the_dv_and_at_most_the_attribute(table, face, success):
    rolled = roll_services.make_roll(character=table["wren"], by=table["player"],
                                     request=check(position="dire"), rng=Faces(face))
    assert rolled.success is success
    if not success:
        assert rolled.meaning == "Dire Position: worse than you even imagined."


def test_below_dv_0_it_succeeds_by_itself_whatever_the_face(table):
    rolled = roll_services.make_roll(character=table["wren"], by=table["player"],
                                     request=check(base_dv=-1), rng=Faces(20))
    assert rolled.success and rolled.automatic and rolled.odds["success"] == "1"


def test_encumbrance_adds_to_physical_checks_only_backpack_on_or_off(table):
    sheet = sheet_for(table["wren"])
    enc, enc_off = sheet.value("encumbrance"), sheet.value("encumbrance_no_backpack")
    assert enc > enc_off  # Wren's backpack is full
    on = roll_services.plan(sheet, check(physical=True))
    off = roll_services.plan(sheet, check(physical=True, backpack_off=True))
    plain = roll_services.plan(sheet, check())
    assert (on.dv.value, off.dv.value, plain.dv.value) == (4 + enc, 4 + enc_off, 4)
    assert on.chance == enumerate_chance(sheet.value("phys"), 4 + enc)


def test_position_and_impact_change_the_meaning_not_the_odds(table):
    sheet = sheet_for(table["wren"])
    a = roll_services.plan(sheet, check(position="shaky", impact="strong"))
    b = roll_services.plan(sheet, check(position="dire", impact="weak"))
    assert a.chance == b.chance
    assert a.stakes.meaning(True) != b.stakes.meaning(True)
    assert a.stakes.meaning(False) != b.stakes.meaning(False)


def test_expertise_lowers_checks_but_not_saves_jettons_lower_both(table):
    deviant = ErrantCharacter.objects.get(pk=make_wren(table["player"], **DEVIANT).pk)
    sheet = sheet_for(deviant)
    assert sheet.value("jettons") >= 2
    expert = roll_services.plan(sheet, check(proficiency="awareness", jettons=2))
    save = roll_services.plan(sheet, check(kind="save", save_against="threat",
                                           proficiency="awareness", jettons=2))
    assert expert.dv.value == 4 - 2 - 2 and expert.expertise and not expert.mastery
    assert save.dv.value == 4 - 2 and not save.expertise
    assert (expert.stakes.position, expert.stakes.impact) == ("risky", "fair")


def test_mastery_makes_the_check_shaky_and_strong_saves_too(table):
    deviant = ErrantCharacter.objects.get(pk=make_wren(table["player"], **DEVIANT).pk)
    sheet = sheet_for(deviant)
    for kind in ("check", "save"):
        planned = roll_services.plan(sheet, check(kind=kind, save_against="renown"
                                                  if kind == "save" else "",
                                                  proficiency="stealth", position="dire",
                                                  impact="weak"))
        assert planned.mastery
        assert (planned.stakes.position, planned.stakes.impact) == ("shaky", "strong")


def test_jettons_are_refused_beyond_the_stack_and_without_a_proficiency(table):
    deviant = ErrantCharacter.objects.get(pk=make_wren(table["player"], **DEVIANT).pk)
    sheet = sheet_for(deviant)
    owned = sheet.value("jettons")
    with pytest.raises(RollRefused) as too_many:
        roll_services.plan(sheet, check(proficiency="awareness", jettons=owned + 1))
    assert too_many.value.code == "jettons_over_owned"
    with pytest.raises(RollRefused) as unrelated:
        roll_services.plan(sheet, check(jettons=1))
    assert unrelated.value.field == "proficiency"
    with pytest.raises(RollRefused):  # Wren (a Violent) has no Proficiency at all
        roll_services.plan(sheet_for(table["wren"]), check(proficiency="stealth"))


def test_at_encumbrance_8_an_errant_can_do_nothing_unless_the_backpack_comes_off(table):
    from characters.systems.errant.demo import wren

    rocks = {"name": "Rocks", "quarters": 4, "quantity": 12, "location": "backpack",
             "kind": "", "uses": None, "uses_max": None, "quality": None, "blocks": None,
             "magic": 0}
    laden = ErrantCharacter.objects.get(pk=make_wren(table["player"],
                                                     gear=[*wren()["gear"], rocks]).pk)
    sheet = sheet_for(laden)
    assert sheet.value("encumbrance") >= 8 > sheet.value("encumbrance_no_backpack")
    for kind in ("check", "save"):
        with pytest.raises(RollRefused) as refused:
            roll_services.plan(sheet, check(kind=kind, save_against="threat"))
        assert refused.value.code == "incapable" and "Backpack off" in refused.value.message
    assert roll_services.plan(sheet, check(backpack_off=True)).chance > 0


def test_a_saving_throw_against_renown_is_a_check_at_that_dv(table):
    rolled = roll_services.make_roll(
        character=table["wren"], by=table["player"],
        request=check(kind="save", base_dv=3, save_against="renown", attribute="skill"),
        rng=Faces(4))
    skill = sheet_for(table["wren"]).value("skill")
    assert rolled.kind == "save" and rolled.save_against == "renown" and rolled.dv == 3
    assert rolled.success is (3 < 4 <= skill)
    assert rolled.odds["success"] == str(checks.p_success(skill, 3))


def test_an_opposed_check_against_an_npc_rolls_both_and_logs_the_winner(table):
    wren = table["wren"]
    phys = sheet_for(wren).value("phys")
    request = check(kind="opposed", base_dv=0, opponent="Ogre",
                    opponent_attribute=checks.npc_attribute(3), opponent_dv=0)
    rolled = roll_services.make_roll(character=wren, by=table["player"], request=request,
                                     rng=Faces(min(phys, 10), 2))
    assert (rolled.face, rolled.opponent_face) == (min(phys, 10), 2)
    assert rolled.opposed_result == "first" and rolled.outcome == "success"
    odds = checks.opposed_odds((phys, 0), (11, 0))
    assert rolled.odds["win"] == str(odds.first_wins)
    # Enumerated: the four outcomes of the 400 pairs of faces.
    counted = {"first": 0, "second": 0, "tie": 0, "both_fail": 0}
    for x in range(1, 21):
        for y in range(1, 21):
            counted[checks.opposed_result((x, x <= phys), (y, y <= 11))] += 1
    assert Fraction(counted["first"], 400) == Fraction(rolled.odds["win"])
    assert Fraction(counted["both_fail"], 400) == Fraction(rolled.odds["both_fail"])


@pytest.mark.parametrize(("faces", "result", "meaning"), [
    ((5, 8), "second", "Dire Position: worse than you even imagined."),
    ((6, 6), "tie", "A tie: the Guide declares a draw, or asks for another opposed Check."),
    ((20, 20), "both_fail", "Both fail: worse and more complicated for both."),
    ((8, 5), "first", "Strong Impact: this went better than expected."),
])
def test_an_opposed_checks_meaning_follows_who_won(table, faces, result, meaning):
    request = check(kind="opposed", base_dv=0, position="dire", impact="strong",
                    opponent="Guard", opponent_attribute=12, opponent_dv=0)
    rolled = roll_services.make_roll(character=table["wren"], by=table["player"],
                                     request=request, rng=Faces(*faces))
    assert rolled.opposed_result == result and rolled.meaning.startswith(meaning)


def test_the_same_request_key_gets_the_same_roll(table):
    first = roll_services.make_roll(character=table["wren"], by=table["player"],
                                    request=check(), rng=Faces(5), request_key="k1")
    again = roll_services.make_roll(character=table["wren"], by=table["player"],
                                    request=check(), rng=Faces(9), request_key="k1")
    assert first.pk == again.pk and ErrantRoll.objects.count() == 1


def test_another_player_may_not_roll(table):
    with pytest.raises(RollRefused):
        roll_services.make_roll(character=table["wren"], by=table["other"], request=check())


# -- the Play page --------------------------------------------------------------------------


def play_url(table, name="errant_play"):
    return reverse(f"characters:{name}", args=[table["wren"].pk])


def posted(**changes) -> dict:
    data = {"kind": "check", "attribute": "phys", "dv": "4", "position": "risky",
            "impact": "fair", "jettons": "0", "label": "", "save_against": "",
            "opponent": "", "opponent_attribute": "", "opponent_threat": "",
            "opponent_dv": "", "request_key": "a" * 32}
    data.update(changes)
    return data


def test_anonymous_users_are_sent_to_log_in(client, table):
    for name in ("errant_play", "errant_roll_odds", "errant_roll", "errant_roll_panel"):
        response = client.get(play_url(table, name)) if name == "errant_play" else \
            client.post(play_url(table, name), posted())
        assert response.status_code == 302 and "login" in response.url


@pytest.mark.parametrize("who", ["other", "stranger"])
def test_another_player_gets_404(client, table, who):
    client.force_login(table[who])
    assert client.get(play_url(table)).status_code == 404
    assert client.post(play_url(table, "errant_roll"), posted()).status_code == 404
    assert client.post(play_url(table, "errant_roll_odds"), posted()).status_code == 404
    assert not ErrantRoll.objects.exists()


@pytest.mark.parametrize("who", ["player", "guide", "co_guide"])
def test_the_owner_and_the_guides_see_the_exact_odds_and_roll(client, table, who):
    client.force_login(table[who])
    phys = sheet_for(table["wren"]).value("phys")
    page = client.get(play_url(table))
    assert page.status_code == 200
    chance = checks.p_success(phys, 0)
    assert f'data-fraction="success">({chance.numerator}/{chance.denominator})' in \
        page.content.decode()
    odds = client.post(play_url(table, "errant_roll_odds"), posted(dv="4"),
                       HTTP_HX_REQUEST="true")
    chance = checks.p_success(phys, 4)
    assert f"({chance.numerator}/{chance.denominator})" in odds.content.decode()
    assert "<html" not in odds.content.decode()  # the odds-body partial only
    response = client.post(play_url(table, "errant_roll"), posted(), HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200 and 'id="roll-result"' in body and "<html" not in body
    rolled = ErrantRoll.objects.get()
    assert rolled.rolled_by == table[who] and rolled.session == table["session"]


def test_the_odds_shown_are_the_enumerations_at_every_dv(client, table):
    client.force_login(table["player"])
    sheet = sheet_for(table["wren"])
    for attribute in ("phys", "skill", "mind", "pres"):
        value = sheet.value(attribute)
        for dv in range(-1, 21):
            response = client.post(play_url(table, "errant_roll_odds"),
                                   posted(attribute=attribute, dv=str(dv)),
                                   HTTP_HX_REQUEST="true")
            chance = enumerate_chance(value, dv)
            assert chance == checks.p_success(value, dv)
            shown = f'data-fraction="success">({chance.numerator}/{chance.denominator})'
            assert shown in response.content.decode(), (attribute, dv)


def test_without_htmx_the_whole_page_comes_back(client, table):
    client.force_login(table["player"])
    response = client.post(play_url(table, "errant_roll"), posted())
    body = response.content.decode()
    assert response.status_code == 200 and "<html" in body and 'id="roll-result"' in body


@pytest.mark.parametrize(("changes", "field", "message"), [
    ({"dv": str(10**9)}, "dv", "DV is a whole number from -20 to 40."),
    ({"dv": "abc"}, "dv", "DV is a whole number from -20 to 40."),
    ({"dv": ""}, "dv", "Enter DV."),
    ({"attribute": "luck"}, "attribute", "Choose Attribute from the list."),
    ({"kind": "save"}, "save_against", "A Saving Throw: against"),
    ({"kind": "opposed"}, "opponent_attribute", "An opposed Check: type the opponent"),
    ({"kind": "opposed", "opponent_attribute": "99", "opponent_dv": "0"},
     "opponent_attribute", "from 1 to 40"),
    ({"jettons": "3"}, "jettons", "Jettons spent: at most the 0"),
    ({"proficiency": "stealth"}, "proficiency", "Choose Related Proficiency from the list."),
])
def test_hostile_input_is_said_beside_its_field_and_kept(client, table, changes, field,
                                                         message):
    client.force_login(table["player"])
    data = posted(label="climb the wall", **changes)
    response = client.post(play_url(table, "errant_roll"), data)
    body = response.content.decode()
    assert response.status_code == 422
    assert f'id="errors-{field}"' in body and message in body
    assert 'value="climb the wall"' in body
    assert not ErrantRoll.objects.exists()
    htmx = client.post(play_url(table, "errant_roll"), data, HTTP_HX_REQUEST="true")
    assert htmx.status_code == 200 and message in htmx.content.decode()
    odds = client.post(play_url(table, "errant_roll_odds"), data, HTTP_HX_REQUEST="true")
    assert odds.status_code == 200 and 'id="odds-none"' in odds.content.decode()


def test_an_errant_outside_a_campaign_rolls_into_its_own_log(client):
    owner = UserFactory()
    loner = make_wren(owner)
    client.force_login(owner)
    page = client.get(reverse("characters:errant_play", args=[loner.pk]))
    assert "not in a campaign" in page.content.decode()
    response = client.post(reverse("characters:errant_roll", args=[loner.pk]), posted())
    assert response.status_code == 200 and "Kept with Wren" in response.content.decode()
    assert ErrantRoll.objects.get().session is None


def test_the_sheet_links_to_the_play_page(client, table):
    client.force_login(table["player"])
    page = client.get(reverse("characters:detail", args=[table["wren"].pk]))
    assert play_url(table) in page.content.decode()


def test_another_systems_character_is_404(client, table):
    from tests.factories import AsphodelFactory

    eg = AsphodelFactory(owner=table["player"])
    client.force_login(table["player"])
    url = reverse("characters:errant_play", args=[eg.pk])
    assert client.get(url).status_code == 404
    assert client.get(reverse("characters:errant_play", args=[10**12])).status_code == 404


def test_the_kind_panel_shows_the_opponents_fields(client, table):
    client.force_login(table["player"])
    response = client.post(play_url(table, "errant_roll_panel"), posted(kind="opposed"),
                           HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert 'id="opponent-fields"' in body and "invalid-feedback" not in body
    assert 'value="4"' in body  # the DV as typed
    whole = client.post(play_url(table, "errant_roll_panel"), posted(kind="save"))
    assert whole.status_code == 200 and 'id="id_save_against"' in whole.content.decode()


# -- the session log --------------------------------------------------------------------------


def log_url(table, number=1):
    return reverse("campaigns:errant_session_log", args=[table["campaign"].pk, number])


def test_the_session_log_is_for_members_and_polls_with_304(client, table):
    roll_services.make_roll(character=table["wren"], by=table["player"], request=check(),
                            rng=Faces(5))
    assert client.get(log_url(table)).status_code == 302
    client.force_login(table["stranger"])
    assert client.get(log_url(table)).status_code == 404
    client.force_login(table["other"])  # another player sees the table's rolls
    page = client.get(log_url(table))
    assert page.status_code == 200 and "data-roll=" in page.content.decode()
    poll = client.get(log_url(table), HTTP_HX_REQUEST="true")
    etag = poll["ETag"]
    again = client.get(log_url(table), HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    roll_services.make_roll(character=table["wren"], by=table["player"], request=check(),
                            rng=Faces(6))
    changed = client.get(log_url(table), HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed.content.decode().count("data-roll=") == 2
    assert client.get(log_url(table, 99)).status_code == 404


def test_the_session_page_links_to_the_roll_log(client, table):
    client.force_login(table["player"])
    page = client.get(table["session"].get_absolute_url())
    assert log_url(table) in page.content.decode()


def test_another_systems_campaign_has_no_errant_log(client, table):
    campaign = CampaignFactory()
    client.force_login(campaign.owner)
    services.session_start(campaign=campaign, by=campaign.owner)
    url = reverse("campaigns:errant_session_log", args=[campaign.pk, 1])
    assert client.get(url).status_code == 404


def test_a_long_session_log_pages_back_with_older(client, table, monkeypatch):
    """Issue 12: a page of LOG_SIZE rolls and "Older" (?before=); the older page does not
    poll; junk in ?before= is the newest page."""
    import re

    from campaigns.systems.errant import roll_views

    for face in (2, 3, 4, 5, 6):
        roll_services.make_roll(character=table["wren"], by=table["player"],
                                request=check(), rng=Faces(face))
    pks = list(ErrantRoll.objects.order_by("-pk").values_list("pk", flat=True))
    monkeypatch.setattr(roll_views, "LOG_SIZE", 2)
    client.force_login(table["other"])
    first = client.get(log_url(table)).content.decode()
    assert first.count("data-roll=") == 2 and 'hx-trigger="every 2s"' in first
    older = re.search(r'href="([^"]*\?before=(\d+))#session-log"', first)
    assert older and int(older.group(2)) == pks[1]
    second = client.get(older.group(1)).content.decode()
    assert second.count("data-roll=") == 2 and 'hx-trigger="every 2s"' not in second
    assert "data-pager-newest" in second
    last = client.get(log_url(table), {"before": pks[3]}).content.decode()
    assert last.count("data-roll=") == 1 and "data-pager-older" not in last
    for junk in ("xyz", "-1", "99999999999999999999999", "²"):
        response = client.get(log_url(table), {"before": junk})
        assert response.status_code == 200 and response.content.decode().count(
            "data-roll=") == 2


def test_the_live_odds_fill_only_the_error_slots_the_panel_shows(client, table):
    """A Check's panel has no Saving Throw or opponent fields (they ride along hidden), so
    the odds' out-of-band answer writes no slot for them (htmx would find no target); an
    opposed Check's has them."""
    client.force_login(table["player"])
    check = client.post(play_url(table, "errant_roll_odds"), posted(),
                        HTTP_HX_REQUEST="true").content.decode()
    assert 'id="errors-dv"' in check
    for name in ("save_against", "opponent", "opponent_dv", "opponent_attribute"):
        assert f'id="errors-{name}"' not in check
    opposed = client.post(play_url(table, "errant_roll_odds"),
                          posted(kind="opposed", opponent_dv="x"),
                          HTTP_HX_REQUEST="true").content.decode()
    assert 'id="errors-opponent_dv"' in opposed and "Opponent&#x27;s DV" in opposed
    assert 'id="errors-save_against"' not in opposed


def test_what_another_kind_of_roll_carries_hidden_does_not_stop_this_one(client, table):
    """Junk typed in an opposed Check's fields, then the kind changed back to a Check:
    the Check's odds show and it rolls (those fields are not its own)."""
    client.force_login(table["player"])
    data = posted(opponent_dv="junk", opponent_attribute="-5", save_against="nonsense")
    odds = client.post(play_url(table, "errant_roll_odds"), data, HTTP_HX_REQUEST="true")
    assert 'data-odds="success"' in odds.content.decode()
    rolled = client.post(play_url(table, "errant_roll"), data, HTTP_HX_REQUEST="true")
    assert 'id="roll-result"' in rolled.content.decode()
    assert ErrantRoll.objects.get().opponent_dv is None
