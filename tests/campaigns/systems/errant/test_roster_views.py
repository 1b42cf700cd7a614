"""The Roster page (roster_views.py): who sees and does what (anonymous, a non-member, a
campaign of another system, another player, the owner, the Guide), hostile input answered
beside the field and kept, never a 500; the adjutant's split shown to the Guide; the
Settlement tier as a campaign setting the market starts from."""

import pytest
from django.urls import reverse

from campaigns import services
from campaigns.models import Campaign
from campaigns.systems.errant import advancement, roster
from characters.models import CoinEntry, XpEntry
from characters.systems.errant.apps import KEY
from characters.systems.errant.builds import sheet_for
from characters.systems.errant.campaign_settings import DEFAULT_TIER, settlement_tier
from characters.systems.errant.models import (
    ErrantAdjutant,
    ErrantCharacter,
    ErrantRosterSwap,
    ErrantTraining,
)
from rules.engine.errant.advancement import adjutant_split, p_training
from tests.characters.systems.errant.helpers import make_wren
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


def co(name, campaign, *args):
    return reverse(f"campaigns:{name}", args=[campaign.pk, *args])


@pytest.fixture
def squire(campaign, player):
    errant = make_wren(player, name="Squire")
    services.character_join(campaign=campaign, character=errant, by=player)
    return ErrantCharacter.objects.get(pk=errant.pk)


def pay(errant, pennies):
    CoinEntry.objects.create(character=errant, kind=CoinEntry.Kind.ADJUSTMENT,
                             amount_cp=pennies, note="test purse")


def test_anonymous_non_member_and_another_system(client, campaign, wren):
    response = client.get(co("errant_roster", campaign))
    assert response.status_code == 302 and "login" in response.url
    assert client.post(co("errant_training", campaign), {}).status_code == 302
    outsider = UserFactory()
    client.force_login(outsider)
    assert client.get(co("errant_roster", campaign)).status_code == 404
    assert client.post(co("errant_roster_swap", campaign),
                       {"character": wren.pk}).status_code == 404
    other_system = CampaignFactory()
    MembershipFactory(campaign=other_system, user=outsider)
    assert client.get(co("errant_roster", other_system)).status_code == 404


def test_a_player_sees_their_own_errants_the_guide_everyones(client, campaign, guide, player,
                                                              wren, ash):
    client.force_login(player)
    page = client.get(co("errant_roster", campaign)).content.decode()
    assert f'data-roster-choose="{wren.pk}"' in page
    assert f'id="training-{wren.pk}"' in page and f'id="training-{ash.pk}"' not in page
    assert "Move the Company" not in page
    client.force_login(guide)
    page = client.get(co("errant_roster", campaign)).content.decode()
    assert f'id="training-{ash.pk}"' in page and "Move the Company" in page


def test_the_swap_through_the_page_once_a_session(client, campaign, player, wren, squire,
                                                  session):
    client.force_login(player)
    assert client.post(co("errant_roster_swap", campaign),
                       {"character": wren.pk, "request_key": "a"}).status_code == 302
    assert client.post(co("errant_roster_swap", campaign),
                       {"character": squire.pk, "request_key": "b"}).status_code == 302
    refused = client.post(co("errant_roster_swap", campaign),
                          {"character": wren.pk, "request_key": "c"})
    assert refused.status_code == 200 and b"data-swap-error" in refused.content
    assert b"once per game session" in refused.content
    assert roster.active_of(campaign, player) == squire
    assert ErrantRosterSwap.objects.filter(is_swap=True).count() == 1


def test_after_the_sessions_swap_no_swap_is_offered_until_the_next(client, campaign, guide,
                                                                      player, wren, squire,
                                                                      session):
    client.force_login(player)
    page = client.get(co("errant_roster", campaign)).content.decode()
    assert f'data-roster-choose="{wren.pk}"' in page and "data-roster-wait" not in page
    roster.roster_choose(campaign=campaign, character=wren, by=player)
    page = client.get(co("errant_roster", campaign)).content.decode()
    assert f'data-roster-choose="{squire.pk}"' in page  # the first choice is no swap
    assert "data-roster-wait" not in page
    roster.roster_choose(campaign=campaign, character=squire, by=player)
    for user in (player, guide):
        client.force_login(user)
        page = client.get(co("errant_roster", campaign)).content.decode()
        assert "data-roster-choose" not in page
        assert "data-roster-wait" in page and "swap again next session" in page
    services.session_start(campaign=campaign, by=guide)
    page = client.get(co("errant_roster", campaign)).content.decode()
    assert f'data-roster-choose="{wren.pk}"' in page and "data-roster-wait" not in page


def test_another_players_errant_is_404_and_hostile_ids_are_said(client, campaign, player,
                                                                 other, wren, session):
    client.force_login(other)
    assert client.post(co("errant_roster_swap", campaign),
                       {"character": wren.pk}).status_code == 404
    assert client.post(co("errant_training", campaign),
                       {"character": wren.pk, "attribute": "pres"}).status_code == 404
    assert client.post(co("errant_adjutant", campaign),
                       {"master": wren.pk, "adjutant": wren.pk}).status_code == 404
    for hostile in ("abc", "-1", "9" * 40, "<script>", ""):
        response = client.post(co("errant_roster_swap", campaign), {"character": hostile})
        assert response.status_code == 200 and b"data-swap-error" in response.content
    assert not ErrantRosterSwap.objects.exists()


@pytest.mark.parametrize("data,message", [
    ({"attribute": "luck"}, b"Choose one of phys, skill, mind and pres."),
    ({"attribute": "pres", "trainer": "lots"}, b"The trainer&#x27;s Attribute is a whole"),
    ({"attribute": "pres", "trainer": "99"}, b"The trainer&#x27;s Attribute is a whole"),
    ({"attribute": "pres", "trainer": "1"}, b"cannot train it higher"),
    ({"attribute": ""}, b"Choose the Attribute to train."),
])
def test_bad_training_input_is_said_beside_the_field_and_kept(client, campaign, player, wren,
                                                              data, message):
    pay(wren, 5_000)
    client.force_login(player)
    response = client.post(co("errant_training", campaign),
                           {"character": wren.pk, "request_key": "", **data})
    assert response.status_code == 200 and message in response.content
    if data.get("trainer"):
        assert f'value="{data["trainer"]}"'.encode() in response.content
    assert not ErrantTraining.objects.exists()


def test_training_through_the_page_shows_odds_then_the_dice(client, campaign, player, wren,
                                                            session):
    pay(wren, 5_000)
    client.force_login(player)
    page = client.get(co("errant_roster", campaign)).content.decode()
    pres = sheet_for(wren).attributes.pres
    chance = p_training(pres)
    assert f"{chance.numerator}/{chance.denominator}" in page
    assert "Attempt 1 costs" in page and "1000 p" in page
    response = client.post(co("errant_training", campaign),
                           {"character": wren.pk, "attribute": "pres", "request_key": "t"},
                           follow=True)
    assert response.status_code == 200 and b"5D4" in response.content
    attempt = ErrantTraining.objects.get()
    assert sheet_for(ErrantCharacter.objects.get(pk=wren.pk)).attributes.pres == \
        pres + attempt.raised
    assert ErrantCharacter.objects.get(pk=wren.pk).coins_cp == 4_000
    client.post(co("errant_training_undo", campaign, attempt.pk))
    assert ErrantCharacter.objects.get(pk=wren.pk).coins_cp == 5_000


def test_the_adjutant_through_the_page_and_the_split_the_guide_sees(client, campaign, guide,
                                                                     player, wren, squire):
    advancement.waste_grant(campaign=campaign, characters=[wren], source="waste",
                            pennies=2_000, by=guide)
    client.force_login(player)
    page = client.get(co("errant_roster", campaign)).content.decode()
    assert "Attract this adjutant" in page
    bad = client.post(co("errant_adjutant", campaign), {"master": wren.pk, "adjutant": "x"})
    assert bad.status_code == 200 and b"data-adjutant-error" in bad.content
    assert client.post(co("errant_adjutant", campaign),
                       {"master": wren.pk, "adjutant": squire.pk}).status_code == 302
    assert ErrantAdjutant.objects.get().adjutant_id == squire.pk
    character_page = client.get(reverse("campaigns:character", args=[campaign.pk, wren.pk]))
    assert b"Adjutant: <strong>Squire</strong>" in character_page.content
    squire_page = client.get(reverse("campaigns:character", args=[campaign.pk, squire.pk]))
    assert b"Adjutant of <strong>Wren</strong>" in squire_page.content
    assert client.post(co("errant_adjutant_undo", campaign,
                          ErrantAdjutant.objects.get().pk)).status_code == 302
    assert ErrantAdjutant.objects.exists()  # a player cannot undo it
    client.force_login(guide)
    company = client.get(co("errant_company", campaign)).content.decode()
    assert "data-adjutant-split" in company and "¾ to Wren" in company
    response = client.post(co("errant_waste", campaign), {
        "characters": [wren.pk], "source": "waste", "pennies": "1000"}, follow=True)
    master, adjutant = adjutant_split(1_000)
    text = response.content.decode()
    assert f"Wren +{master:,} XP and Squire +{adjutant:,} XP" in text
    assert XpEntry.objects.filter(character=squire, xp_change=adjutant, kind="waste").exists()


def test_the_settlement_tier_is_a_campaign_setting(client, campaign, guide, player, wren):
    assert settlement_tier(campaign) == DEFAULT_TIER
    client.force_login(player)
    assert client.post(co("errant_roster_settlement", campaign),
                       {"settlement_tier": "3"}).status_code == 403
    client.force_login(guide)
    for hostile in ("9", "abc", "", "<b>", "9" * 40):
        response = client.post(co("errant_roster_settlement", campaign),
                               {"settlement_tier": hostile})
        assert response.status_code == 200 and b"data-settlement-error" in response.content
    assert client.post(co("errant_roster_settlement", campaign),
                       {"settlement_tier": "4"}).status_code == 302
    campaign = Campaign.objects.get(pk=campaign.pk)
    assert settlement_tier(campaign) == 4
    # The market of an Errant in the campaign starts there; a character outside keeps
    # choosing (a Hamlet first).
    client.force_login(player)
    gear = client.get(reverse("characters:errant_gear", args=[wren.pk])).content.decode()
    assert 'option value="4" selected' in gear and "tier 4 Settlement" in gear
    loner = make_wren(player, name="Loner")
    gear = client.get(reverse("characters:errant_gear", args=[loner.pk])).content.decode()
    assert 'option value="4" selected' not in gear and "tier 4 Settlement" not in gear


def test_the_campaign_form_stores_the_tier(client):
    client.force_login(UserFactory())
    page = client.get(reverse("campaigns:create"), {"system": KEY}).content.decode()
    assert 'name="settlement_tier"' in page
    response = client.post(reverse("campaigns:create"), {
        "name": "Drowned", "system": KEY, "settlement_tier": "2",
        "default_highlight_rounds": "2"})
    assert response.status_code == 302
    campaign = Campaign.objects.get()
    assert settlement_tier(campaign) == 2 and "tier 2 Village" in campaign.settings_summary
    bad = client.post(reverse("campaigns:create"), {
        "name": "Bad", "system": KEY, "settlement_tier": "7", "default_highlight_rounds": "2"})
    assert bad.status_code == 200 and b"Choose a Settlement tier from 1" in bad.content


def test_a_trade_through_the_page(client, campaign, player, other, wren, session):
    from characters.systems.errant.models import ErrantTradeTraining

    pay(wren, 3_000)
    client.force_login(other)
    assert client.post(co("errant_training_trade", campaign),
                       {"character": wren.pk, "trade": "Smithing"}).status_code == 404
    client.force_login(player)
    page = client.get(co("errant_roster", campaign)).content.decode()
    assert "1/6 (16.7%)" in page  # 10+ on 2D6 without a bonus: 6 of 36
    for data, message in (({"trade": ""}, b"Name the Trade"),
                          ({"trade": "Smithing", "situational": "9"}, b"A situational bonus"),
                          ({"trade": "Smithing", "extra": "lots"}, b"Extra expenditure is 0"),
                          ({"trade": "Smithing", "extra": "5000"}, b"has 3,000 p")):
        response = client.post(co("errant_training_trade", campaign),
                               {"character": wren.pk, **data})
        assert response.status_code == 200 and message in response.content
        if data["trade"]:
            assert b'value="Smithing"' in response.content
    assert not ErrantTradeTraining.objects.exists()
    response = client.post(co("errant_training_trade", campaign),
                           {"character": wren.pk, "trade": "Smithing"}, follow=True)
    assert b"Smithing (apprentice, 2,000 p)" in response.content
    attempt = ErrantTradeTraining.objects.get()
    assert client.post(co("errant_training_trade_undo", campaign, attempt.pk)
                       ).status_code == 302
    assert ErrantCharacter.objects.get(pk=wren.pk).coins_cp == 3_000
