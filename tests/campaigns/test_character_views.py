"""A character's campaign view: its Quest and the Quest history (changed and abandoned
Quests lose their XP and stay in the history), its Highlights, the XP ledger with the
Imp's adjustments and undo, and the player's own side (sheet link, investing from the
dashboard and from this view)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns import services
from campaigns.services import progress
from campaigns.systems.eldritch_gambit import quests
from campaigns.systems.eldritch_gambit.models import Quest, QuestInvestment
from characters.models import XpEntry
from tests.factories import CampaignFactory, CharacterFactory, MembershipFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign(db):
    return CampaignFactory(name="The Drowned Crown")


@pytest.fixture
def imp(campaign):
    return campaign.owner


@pytest.fixture
def player(campaign):
    return MembershipFactory(campaign=campaign).user


@pytest.fixture
def hero(campaign, player):
    return CharacterFactory(owner=player, campaign=campaign, name="Ash", progress__xp=5,
                            quest="Find the lost bell")


@pytest.fixture
def first_session(campaign, imp, hero):
    return services.session_start(campaign=campaign, by=imp)


def url(name, campaign, character, *args):
    return reverse(f"campaigns:{name}", args=[campaign.pk, character.pk, *args])


def messages_of(response):
    return [str(m) for m in response.wsgi_request._messages]


def test_the_player_invests_from_the_dashboard(client, player, campaign, hero, first_session):
    client.force_login(player)
    page = client.get(campaign.get_absolute_url()).content.decode()
    assert "Your character" in page
    assert hero.get_absolute_url() in page  # their own sheet
    assert "Invest 1 XP in the Quest" in page
    key = page.split('name="request_key" value="')[1].split('"')[0]
    data = {"character": hero.pk, "request_key": key, "next": campaign.get_absolute_url()}
    response = client.post(reverse("campaigns:invest", args=[campaign.pk, 1]), data)
    assert response["Location"] == campaign.get_absolute_url()
    client.post(reverse("campaigns:invest", args=[campaign.pk, 1]), data)  # resubmitted
    assert progress(hero) == (10, 4)
    assert QuestInvestment.objects.count() == 1
    page = client.get(campaign.get_absolute_url()).content.decode()
    assert "Invested 1 XP in session 1" in page


def test_next_never_leaves_the_campaign(client, player, campaign, hero, first_session):
    client.force_login(player)
    response = client.post(reverse("campaigns:invest", args=[campaign.pk, 1]),
                           {"character": hero.pk, "next": "https://evil.example/"})
    assert response["Location"] == first_session.get_absolute_url() + "#ritual"


def test_the_player_waits_for_their_highlights_before_investing(client, imp, player, campaign,
                                                                hero, first_session):
    session = services.session_start(campaign=campaign, by=imp)
    services.highlight_award(session=session, character=hero, by=imp)
    client.force_login(player)
    page = client.get(url("character", campaign, hero)).content.decode()
    assert "Quest XP after the Highlights of session 2 (2 turns left)" in page
    assert "Invest 1 XP in the Quest" not in page


def test_the_campaign_view_shows_level_xp_and_points_waiting(client, imp, player, campaign,
                                                             hero, first_session):
    session = services.session_start(campaign=campaign, by=imp)
    for _ in range(3):
        services.highlight_award(session=session, character=hero, by=imp, text="The climb")
    quests.quest_invest(session=session, character=hero, by=player)
    quests.quest_complete(quest=Quest.objects.get(), by=imp, session=session)
    # 5 + 3 = 8, - 1 invested = 7, + 2 paid back = 9 (< 10): no Level-up.
    client.force_login(player)
    page = client.get(url("character", campaign, hero)).content.decode()
    assert 'data-stat="level">10<' in page and 'data-stat="xp">9<' in page
    assert 'data-stat="attribute_points_left">0<' in page
    assert "Quest payout" in page and "Level and XP come from the XP ledger" in page
    assert reverse("characters:edit", args=[hero.pk]) in page


def test_changing_the_quest_loses_its_xp_and_keeps_the_history(client, player, campaign,
                                                               hero, first_session):
    quests.quest_invest(session=first_session, character=hero, by=player)
    client.force_login(player)
    response = client.post(url("quest_change", campaign, hero), {"text": "Ring the bell"})
    assert response["Location"] == url("character", campaign, hero)
    hero.refresh_from_db()
    assert hero.quest == "Ring the bell"
    old, new = Quest.objects.order_by("pk")
    assert (old.status, new.status) == ("abandoned", "active")
    assert progress(hero) == (10, 4)  # the invested XP is not given back
    page = client.get(url("character", campaign, hero)).content.decode()
    history = page.split('id="quest-history"')[1]
    assert "Find the lost bell" in history and "Abandoned in session 1" in history
    assert "lost" in history and "Ring the bell" in history


def test_an_empty_quest_is_refused_beside_the_field(client, player, campaign, hero):
    client.force_login(player)
    response = client.post(url("quest_change", campaign, hero), {"text": "  "})
    assert response.status_code == 200
    assert "This field is required." in response.content.decode()
    assert not Quest.objects.exists()


def test_abandoning_the_quest(client, imp, player, campaign, hero, first_session):
    quests.quest_invest(session=first_session, character=hero, by=player)
    client.force_login(imp)
    response = client.post(url("quest_abandon", campaign, hero), follow=True)
    assert "Its XP is lost" in response.content.decode()
    assert Quest.objects.get().status == "abandoned"
    assert progress(hero) == (10, 4)
    # Nothing to abandon any more.
    assert client.post(url("quest_abandon", campaign, hero)).status_code == 404


def test_the_imp_adjusts_xp_with_a_note(client, imp, campaign, hero):
    client.force_login(imp)
    data = {"xp_change": "5", "note": "Saved the village", "request_key": "adj-1"}
    response = client.post(url("xp_adjust", campaign, hero), data)
    assert response["Location"] == url("character", campaign, hero) + "#ledger"
    client.post(url("xp_adjust", campaign, hero), data)  # submitted twice
    assert progress(hero) == (11, 0)  # 5 + 5 = 10 = Level
    entry = XpEntry.objects.get(kind="imp_adjustment")
    assert entry.note == "Saved the village" and entry.created_by == imp
    page = client.get(url("character", campaign, hero)).content.decode()
    assert "Saved the village" in page and "Imp adjustment" in page


@pytest.mark.parametrize(("data", "field", "message"), [
    ({"xp_change": "3", "note": ""}, "note", "This field is required."),
    ({"xp_change": "0", "note": "Nothing"}, None, "Give a change other than 0."),
    ({"xp_change": "-6", "note": "Too much"}, "xp_change", "Ash has only 5 XP."),
    ({"xp_change": "many", "note": "Typo"}, "xp_change", "Enter a whole number."),
])
def test_a_bad_adjustment_is_refused_cleanly(client, imp, campaign, hero, data, field,
                                             message):
    client.force_login(imp)
    response = client.post(url("xp_adjust", campaign, hero), data)
    assert response.status_code == 200
    assert message in response.content.decode()
    if field:
        assert field in response.context["xp_form"].errors
    assert progress(hero) == (10, 5)


def test_undoing_an_adjustment_that_bought_a_level_asks_first(client, imp, campaign, hero):
    entry = services.xp_adjust(character=hero, xp_change=5, note="Bonus", by=imp)
    client.force_login(imp)
    reverse_url = url("character_xp_reverse", campaign, hero, entry.pk)
    response = client.post(reverse_url)
    assert response["Location"] == f"{url('character', campaign, hero)}?confirm={entry.pk}#ledger"
    assert progress(hero) == (11, 0)
    assert "Undo it and the Level it bought" in client.get(response["Location"]).content.decode()
    client.post(reverse_url, {"confirm_level_undo": "1"})
    assert progress(hero) == (10, 5)


def test_the_player_does_not_see_the_imps_tools(client, player, campaign, hero):
    client.force_login(player)
    page = client.get(url("character", campaign, hero)).content.decode()
    assert "Adjust XP" not in page and ">Undo<" not in page
    assert "Change the Quest" in page and "Leave the campaign" in page


def test_another_players_character_is_not_shown_to_a_player(client, campaign, hero):
    other = MembershipFactory(campaign=campaign).user
    client.force_login(other)
    assert client.get(url("character", campaign, hero)).status_code == 403
    page = client.get(campaign.get_absolute_url()).content.decode()
    assert url("character", campaign, hero) not in page
    assert hero.get_absolute_url() not in page


def test_the_campaign_view_query_count_is_flat(client, imp, player, campaign, hero,
                                               first_session):
    def count():
        client.force_login(imp)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url("character", campaign, hero)).status_code == 200
        return len(queries)

    quests.quest_invest(session=first_session, character=hero, by=player)
    small = count()
    for _ in range(6):
        session = services.session_start(campaign=campaign, by=imp)
        for _turn in range(3):
            services.highlight_award(session=session, character=hero, by=imp, text="Deed")
        if progress(hero)[1] >= 1:  # not right after a Level-up
            quests.quest_invest(session=session, character=hero, by=player)
    quests.quest_change(character=hero, text="Another Quest", by=player)
    services.xp_adjust(character=hero, xp_change=1, note="Bonus", by=imp)
    assert count() == small


def test_an_undo_returns_to_the_page_it_came_from(client, imp, campaign, hero, first_session):
    """One view behind both undo links: the session's ritual and the character's ledger
    each get their own way back and message."""
    session = services.session_start(campaign=campaign, by=imp)
    told = services.highlight_award(session=session, character=hero, by=imp, text="A deed")
    client.force_login(imp)

    response = client.post(url("character_xp_reverse", campaign, hero, told.xp_entry_id))
    assert response["Location"] == f"{url('character', campaign, hero)}#ledger"
    assert messages_of(response) == ["Highlight undone."]

    retold = services.highlight_award(session=session, character=hero, by=imp, text="Again")
    response = client.post(reverse("campaigns:xp_reverse", args=[
        campaign.pk, session.number, retold.xp_entry_id]))
    assert response["Location"] == f"{session.get_absolute_url()}#ritual"
    assert messages_of(response)[-1] == (
        "Highlight undone. Ash's turn is open again: retell it or pass.")
    assert progress(hero) == (10, 5)


def test_the_ledgers_undo_takes_only_that_characters_entries(client, imp, campaign, hero,
                                                               first_session):
    sidekick = CharacterFactory(campaign=campaign, name="Bram",
                                owner=MembershipFactory(campaign=campaign).user)
    entry = services.xp_adjust(character=sidekick, xp_change=2, note="Bonus", by=imp)
    client.force_login(imp)
    before = list(XpEntry.objects.values_list("pk", "reversed_by"))

    response = client.post(url("character_xp_reverse", campaign, hero, entry.pk))

    assert response.status_code == 404
    assert list(XpEntry.objects.values_list("pk", "reversed_by")) == before
    # The session's undo takes any entry of a character at the table.
    client.post(reverse("campaigns:xp_reverse", args=[
        campaign.pk, first_session.number, entry.pk]))
    assert XpEntry.objects.filter(reverses=entry).exists()
