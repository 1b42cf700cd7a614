"""The ritual on the session page: Highlights, passes, absences, Quest XP, payouts and
undo, as plain POSTs; permissions for each."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns import services
from campaigns.models import Absence, Highlight
from campaigns.services import progress
from campaigns.systems.eldritch_gambit import quests
from campaigns.systems.eldritch_gambit.models import Quest, QuestInvestment
from characters.models import XpEntry
from tests.factories import CampaignFactory, CharacterFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign(db):
    return CampaignFactory()


@pytest.fixture
def imp(campaign):
    return campaign.owner


@pytest.fixture
def player(campaign):
    return MembershipFactory(campaign=campaign).user


@pytest.fixture
def hero(campaign, player):
    return CharacterFactory(owner=player, campaign=campaign, name="Ash",
                            quest="Find the lost bell", progress__xp=9)


@pytest.fixture
def session(campaign, imp, hero):
    services.session_start(campaign=campaign, by=imp)
    return services.session_start(campaign=campaign, by=imp)


def action(name, session, *extra):
    return reverse(f"campaigns:{name}", args=[session.campaign_id, session.number, *extra])


def test_the_imp_runs_the_highlights(client, imp, session, hero):
    client.force_login(imp)
    page = client.get(session.get_absolute_url()).content.decode()
    assert "Award 1 XP" in page and "Round 1: the Highlight" in page
    data = {"character": hero.pk, "action": "award", "text": "The bell tower climb",
            "request_key": "k1"}
    response = client.post(action("turn", session), data)
    assert response["Location"] == session.get_absolute_url() + "#ritual"
    client.post(action("turn", session), data)  # submitted twice
    assert Highlight.objects.get().text == "The bell tower climb"
    # 9 + 1 = 10 = Level: the Level waits for the Highlights and the Quest XP.
    assert progress(hero) == (10, 10)
    client.post(action("turn", session), {"character": hero.pk, "action": "pass"})
    page = client.get(session.get_absolute_url()).content.decode()
    assert "Round 1: +1 XP" in page and "Round 2: pass" in page
    assert "Round 3: the Highlight" in page
    assert "The XP pays for 1 Level: bought after the Highlights and the Quest XP" in page


def test_undoing_a_highlight_that_bought_a_level_asks_first(client, imp, session, hero):
    highlight = services.highlight_award(session=session, character=hero, by=imp)
    for _ in range(2):
        services.highlight_pass(session=session, character=hero, by=imp)
    services.ritual_close(session=session, by=imp)
    client.force_login(imp)
    url = action("xp_reverse", session, highlight.xp_entry_id)
    response = client.post(url)
    assert response["Location"] == (
        f"{session.get_absolute_url()}?confirm={highlight.xp_entry_id}#ritual")
    assert progress(hero) == (11, 0)
    page = client.get(response["Location"]).content.decode()
    assert "Undo it and the Level it bought" in page
    response = client.post(url, {"confirm_level_undo": "1"}, follow=True)
    assert "Session 2&#x27;s ritual is open again until you close it." in \
        response.content.decode()
    assert progress(hero) == (10, 9)
    page = client.get(session.get_absolute_url()).content.decode()
    # The award is marked undone, and its turn (and the ritual) is open again.
    assert "undone" in page and "Round 1: the Highlight" in page
    assert "Close the ritual" in page


def test_a_player_invests_for_their_own_character(client, imp, player, session, hero):
    for _ in range(3):
        services.highlight_pass(session=session, character=hero, by=imp)
    other = CharacterFactory(campaign=session.campaign, progress__xp=3,
                             owner=MembershipFactory(campaign=session.campaign).user)
    client.force_login(player)
    page = client.get(session.get_absolute_url()).content.decode()
    assert "Award 1 XP" not in page and "Mark absent" not in page
    client.post(action("invest", session), {"character": hero.pk, "request_key": "i1"})
    client.post(action("invest", session), {"character": hero.pk, "request_key": "i1"})
    assert progress(hero) == (10, 8)
    response = client.post(action("invest", session), {"character": other.pk})
    assert response.status_code == 302
    assert not QuestInvestment.objects.filter(character=other).exists()
    assert "Invested 1 XP this session" in client.get(session.get_absolute_url()
                                                      ).content.decode()


def test_the_imp_marks_a_quest_achieved(client, imp, session, hero):
    for _ in range(3):
        services.highlight_pass(session=session, character=hero, by=imp)
    quests.quest_invest(session=session, character=hero, by=imp)
    quest = Quest.objects.get()
    client.force_login(imp)
    client.post(action("quest_complete", session, quest.pk))
    quest.refresh_from_db()
    assert quest.status == "achieved"
    assert progress(hero) == (11, 0)  # 9 - 1 invested + 2 paid = 10 = Level
    page = client.get(session.get_absolute_url()).content.decode()
    assert "Quests achieved this session" in page


def test_absence_is_marked_and_lifted(client, imp, session, hero):
    client.force_login(imp)
    client.post(action("absence", session), {"character": hero.pk, "absent": "1"})
    assert Absence.objects.filter(character=hero).exists()
    page = client.get(session.get_absolute_url()).content.decode()
    assert "absent</span>" in page and "Award 1 XP" not in page
    client.post(action("absence", session), {"character": hero.pk, "absent": "0"})
    assert not Absence.objects.exists()


def test_a_refusal_comes_back_as_a_message(client, imp, session, hero):
    client.force_login(imp)
    response = client.post(action("invest", session), {"character": hero.pk}, follow=True)
    assert "Quest XP comes after the Highlights" in response.content.decode()
    assert not QuestInvestment.objects.exists()


# -- permissions ---------------------------------------------------------------------------------

IMP_ONLY = ["turn", "absence", "quest_complete", "xp_reverse"]


def imp_only_url(name, session, hero):
    if name == "quest_complete":
        quest = Quest.objects.get_or_create(character=hero, status="active",
                                            defaults={"text": "Q"})[0]
        return action(name, session, quest.pk)
    if name == "xp_reverse":
        return action(name, session, XpEntry.objects.filter(character=hero).first().pk)
    return action(name, session)


@pytest.mark.parametrize("name", [*IMP_ONLY, "invest"])
def test_anonymous_is_sent_to_log_in(client, session, hero, name):
    response = client.post(imp_only_url(name, session, hero), {"character": hero.pk})
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("name", [*IMP_ONLY, "invest"])
def test_another_player_sees_nothing(client, session, hero, name):
    client.force_login(UserFactory())
    response = client.post(imp_only_url(name, session, hero),
                           {"character": hero.pk, "action": "award", "absent": "1"})
    assert response.status_code == 404
    assert progress(hero) == (10, 9)


@pytest.mark.parametrize("name", IMP_ONLY)
def test_a_member_player_cannot_run_the_ritual(client, player, session, hero, name):
    client.force_login(player)
    response = client.post(imp_only_url(name, session, hero),
                           {"character": hero.pk, "action": "award", "absent": "1"})
    assert response.status_code == 403
    assert progress(hero) == (10, 9)
    assert not Highlight.objects.exists() and not Absence.objects.exists()


def test_a_character_of_another_campaign_is_not_found(client, imp, session):
    stranger = CharacterFactory(campaign=CampaignFactory())
    client.force_login(imp)
    response = client.post(action("turn", session), {"character": stranger.pk,
                                                     "action": "award"})
    assert response.status_code == 404


def test_a_broken_form_is_a_bad_request(client, imp, session):
    client.force_login(imp)
    assert client.post(action("turn", session), {"action": "award"}).status_code == 400


def test_the_session_page_query_count_is_flat(client, imp, session, hero):
    def count():
        client.force_login(imp)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(session.get_absolute_url()).status_code == 200
        return len(queries)

    services.highlight_award(session=session, character=hero, by=imp)
    small = count()
    for _ in range(5):
        other = CharacterFactory(campaign=session.campaign, progress__xp=5, quest="A quest",
                                 owner=MembershipFactory(campaign=session.campaign).user)
        # Every turn still open, in turn order (the new character's three).
        while turns := services.highlight_turns(session):
            services.highlight_award(session=session, character=turns[0][0], by=imp)
        quests.quest_invest(session=session, character=other, by=imp)
        quests.quest_complete(quest=Quest.objects.get(character=other), by=imp,
                                session=session)
    assert count() == small
