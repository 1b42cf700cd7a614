"""Bad input through the views is refused cleanly: a message on the page it came from,
nothing written, nothing lost, never a server error."""

import pytest
from django.urls import reverse

from campaigns import services
from campaigns.models import Highlight
from campaigns.services import progress
from campaigns.systems.eldritch_gambit.models import QuestInvestment
from characters.models import XpEntry
from tests.factories import CampaignFactory, CharacterFactory, MembershipFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(db):
    campaign = CampaignFactory()
    imp = campaign.owner
    player = MembershipFactory(campaign=campaign).user
    hero = CharacterFactory(owner=player, campaign=campaign, name="Ash", progress__xp=1,
                            quest="Find the lost bell")
    services.session_start(campaign=campaign, by=imp)
    session = services.session_start(campaign=campaign, by=imp)
    return campaign, imp, player, hero, session


def post(client, name, session, data, *, follow=True):
    return client.post(reverse(f"campaigns:{name}", args=[session.campaign_id,
                                                         session.number]), data,
                       follow=follow)


def errors(response):
    return [str(m) for m in response.context["messages"] if m.level_tag == "error"]


def ledger():
    return list(XpEntry.objects.order_by("pk").values_list("pk", "xp_change", "level_change"))


def test_investing_xp_the_character_does_not_have(client, table):
    campaign, imp, player, hero, session = table
    services.xp_adjust(character=hero, xp_change=-1, note="Spent on a bribe", by=imp)
    for _ in range(3):
        services.highlight_pass(session=session, character=hero, by=imp)
    before = ledger()
    client.force_login(player)
    response = post(client, "invest", session, {"character": hero.pk, "request_key": "k"})
    assert response.status_code == 200
    assert errors(response) == ["Ash has no XP to invest."]
    assert ledger() == before and not QuestInvestment.objects.exists()
    assert progress(hero) == (10, 0)


def test_investing_twice_in_one_session(client, table):
    campaign, imp, player, hero, session = table
    services.xp_adjust(character=hero, xp_change=3, note="Bonus", by=imp)
    for _ in range(3):
        services.highlight_pass(session=session, character=hero, by=imp)
    client.force_login(player)
    post(client, "invest", session, {"character": hero.pk, "request_key": "first"})
    before = ledger()
    # A second investment, not a resubmission: another request key.
    response = post(client, "invest", session, {"character": hero.pk, "request_key": "second"})
    assert response.status_code == 200
    assert errors(response) == [
        "Ash already invested in a Quest this session: one XP per session."]
    assert ledger() == before
    assert QuestInvestment.objects.count() == 1
    assert progress(hero) == (10, 3)


def test_awarding_to_a_character_who_left_the_campaign(client, table):
    campaign, imp, player, hero, session = table
    services.highlight_award(session=session, character=hero, by=imp, text="The climb")
    # The Imp's page still shows Ash when the player takes Ash out of the campaign.
    client.force_login(imp)
    page = client.get(session.get_absolute_url()).content.decode()
    key = page.split(f'data-character="{hero.pk}"')[1].split(
        'name="request_key" value="')[1].split('"')[0]
    services.character_leave(character=hero, by=player)
    before = ledger()
    response = post(client, "turn", session, {"character": hero.pk, "action": "award",
                                              "text": "Another", "request_key": key})
    assert response.status_code == 200
    assert errors(response) == ["Ash is not in this campaign (any more)."]
    assert ledger() == before and Highlight.objects.count() == 1
    assert progress(hero) == (10, 2)
    # Nor may a player invest for them, nor the Imp mark them absent.
    assert errors(post(client, "absence", session, {"character": hero.pk, "absent": "1"})
                  ) == ["Ash is not in this campaign (any more)."]


def test_a_character_who_never_played_here_stays_unknown(client, table):
    campaign, imp, player, hero, session = table
    stranger = CharacterFactory(name="Not here")
    client.force_login(imp)
    response = post(client, "turn", session, {"character": stranger.pk, "action": "award"},
                    follow=False)
    assert response.status_code == 404


@pytest.mark.parametrize("data", [
    {"character": "x", "action": "award"},
    {"character": "1", "action": "steal"},
    {"character": "1", "action": "award", "text": "x" * 2001},
    {"character": "1", "action": "award", "request_key": "k" * 65},
])
def test_a_broken_turn_is_a_bad_request_and_writes_nothing(client, table, data):
    campaign, imp, player, hero, session = table
    client.force_login(imp)
    before = ledger()
    assert post(client, "turn", session, data, follow=False).status_code == 400
    assert ledger() == before


def test_a_fifth_turn_is_refused(client, table):
    campaign, imp, player, hero, session = table
    for _ in range(3):
        services.highlight_pass(session=session, character=hero, by=imp)
    client.force_login(imp)
    response = post(client, "turn", session, {"character": hero.pk, "action": "award"})
    assert errors(response) == ["Ash had all 3 turns this session."]
    assert progress(hero) == (10, 1)


def test_the_final_round_must_be_about_another_character(client, table):
    campaign, imp, player, hero, _session = table
    session = services.session_start(campaign=campaign, by=imp, final_round_about_other=True)
    for _ in range(2):
        services.highlight_pass(session=session, character=hero, by=imp)
    client.force_login(imp)
    response = post(client, "turn", session, {"character": hero.pk, "action": "award",
                                              "text": "My own deed"})
    assert errors(response) == [
        "This session's final round is for something another character did."]
    assert not Highlight.objects.filter(session=session, awarded=True).exists()


def test_a_reversal_cannot_be_reversed(client, table):
    campaign, imp, player, hero, session = table
    highlight = services.highlight_award(session=session, character=hero, by=imp)
    reversal = services.xp_entry_reverse(entry=highlight.xp_entry, by=imp)
    client.force_login(imp)
    before = ledger()
    response = client.post(reverse("campaigns:xp_reverse", args=[
        campaign.pk, session.number, reversal.pk]), follow=True)
    assert errors(response) == ["A reversal cannot be reversed: record a new entry instead."]
    assert ledger() == before
