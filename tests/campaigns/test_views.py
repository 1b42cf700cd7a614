"""Campaign pages: permissions (anonymous, another player, a member player, the Imp),
the dashboard and its htmx partial, invitations, joining, sessions."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns import services, views
from campaigns.models import Campaign, Invitation, Membership, Session
from campaigns.systems.eldritch_gambit import quests
from characters.models import Character
from characters.systems.eldritch_gambit.models import EldritchGambitCharacter
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    InventoryItemFactory,
    InvitationFactory,
    MembershipFactory,
    QuestFactory,
    SessionFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def rendered(monkeypatch):
    """The template names the campaign views render (a partial sends no
    template_rendered signal)."""
    names = []
    original = views.render

    def spy(request, template_name, *args, **kwargs):
        names.append(template_name)
        return original(request, template_name, *args, **kwargs)

    monkeypatch.setattr(views, "render", spy)
    return names


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
    return CharacterFactory(owner=player, campaign=campaign, name="Ash", hp_current=7,
                            quest="Find the lost bell", progress__xp=4)


@pytest.fixture
def session(campaign):
    return SessionFactory(campaign=campaign, notes="The vampire is the mayor",
                          recap="We crossed the river")


def stats(response):
    return dict(re.findall(r'data-stat="(\w+)"[^>]*>([^<]*)<', response.content.decode()))


# -- permissions ---------------------------------------------------------------------------

# (url name, method, status for a member player)
MEMBER_PAGES = [
    ("campaigns:detail", "get", 200),
    ("campaigns:sessions", "get", 200),
    ("campaigns:session_detail", "get", 200),
    ("campaigns:bring", "get", 200),
]
IMP_ACTIONS = [
    ("campaigns:invitation_create", "post"),
    ("campaigns:invitation_revoke", "post"),
    ("campaigns:sessions", "post"),
    ("campaigns:session_detail", "post"),
]


def url_for(name, campaign, session=None, invitation=None):
    if name == "campaigns:session_detail":
        return reverse(name, args=[campaign.pk, session.number])
    if name == "campaigns:invitation_revoke":
        return reverse(name, args=[campaign.pk, invitation.pk])
    return reverse(name, args=[campaign.pk])


ALL = [(name, method) for name, method, _ in MEMBER_PAGES] + IMP_ACTIONS


@pytest.mark.parametrize(("name", "method"), ALL)
def test_anonymous_is_sent_to_log_in(client, campaign, session, name, method):
    invitation = InvitationFactory(campaign=campaign)
    response = getattr(client, method)(url_for(name, campaign, session, invitation))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize(("name", "method"), ALL)
def test_another_player_sees_nothing(client, campaign, session, name, method):
    invitation = InvitationFactory(campaign=campaign)
    client.force_login(UserFactory())
    response = getattr(client, method)(url_for(name, campaign, session, invitation),
                                       {"notes": "mine", "date": "2025-01-01",
                                        "highlight_rounds": "3"})
    assert response.status_code == 404
    assert Session.objects.count() == 1
    assert Invitation.objects.get().revoked_at is None


@pytest.mark.parametrize(("name", "method", "status"), MEMBER_PAGES)
def test_a_member_player_sees_the_member_pages(client, player, campaign, session, name,
                                               method, status):
    client.force_login(player)
    assert getattr(client, method)(url_for(name, campaign, session)).status_code == status


@pytest.mark.parametrize(("name", "method"), IMP_ACTIONS)
def test_a_member_player_cannot_do_what_the_imp_does(client, player, campaign, session,
                                                     name, method):
    invitation = InvitationFactory(campaign=campaign)
    client.force_login(player)
    response = getattr(client, method)(url_for(name, campaign, session, invitation),
                                       {"notes": "mine", "date": "2025-01-01",
                                        "highlight_rounds": "3"})
    assert response.status_code == 403
    session.refresh_from_db()
    assert session.notes == "The vampire is the mayor"
    assert Session.objects.count() == 1
    assert Invitation.objects.count() == 1
    assert Invitation.objects.get().revoked_at is None


@pytest.mark.parametrize(("name", "method", "status"), MEMBER_PAGES)
def test_the_imp_sees_every_page(client, imp, campaign, session, name, method, status):
    client.force_login(imp)
    assert getattr(client, method)(url_for(name, campaign, session)).status_code == 200


@pytest.mark.parametrize("name", ["campaigns:list", "campaigns:create"])
def test_list_and_create_need_a_login(client, name):
    response = client.get(reverse(name))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


# -- creating and listing --------------------------------------------------------------------


def test_creating_a_campaign_makes_you_its_imp(client, user):
    client.force_login(user)
    page = client.get(reverse("campaigns:create"))
    key = re.search(r'name="request_key" value="(\w+)"', page.content.decode()).group(1)
    data = {"name": "Salt and Ash", "pitch": "Sea", "starting_level": "10",
            "default_highlight_rounds": "3", "request_key": key}
    response = client.post(reverse("campaigns:create"), data)
    campaign = Campaign.objects.get()
    assert response["Location"] == campaign.get_absolute_url()
    assert Membership.objects.role_of(user, campaign) == "imp"
    client.post(reverse("campaigns:create"), data)  # submitted twice
    assert Campaign.objects.count() == 1
    listing = client.get(reverse("campaigns:list")).content.decode()
    assert "Salt and Ash" in listing and "Imp" in listing


def test_a_bad_campaign_is_refused_beside_the_field(client, user):
    client.force_login(user)
    response = client.post(reverse("campaigns:create"), {
        "name": "", "starting_level": "0", "default_highlight_rounds": "7"})
    assert response.status_code == 200
    form = response.context["form"]
    assert {e.code for e in form.errors.as_data()["name"]} == {"required"}
    assert {e.code for e in form.errors.as_data()["starting_level"]} == {"min_value"}
    assert {e.code for e in form.errors.as_data()["default_highlight_rounds"]} == {
        "invalid_choice"}
    assert not Campaign.objects.exists()


# -- invitations and joining --------------------------------------------------------------------


def test_the_imp_makes_and_revokes_invitation_links(client, imp, campaign):
    client.force_login(imp)
    client.post(reverse("campaigns:invitation_create", args=[campaign.pk]))
    invitation = Invitation.objects.get()
    page = client.get(campaign.get_absolute_url()).content.decode()
    assert invitation.get_absolute_url() in page
    client.post(reverse("campaigns:invitation_revoke", args=[campaign.pk, invitation.pk]))
    invitation.refresh_from_db()
    assert invitation.revoked_at is not None
    assert invitation.get_absolute_url() not in client.get(campaign.get_absolute_url()
                                                           ).content.decode()


def test_joining_through_a_link(client, campaign):
    invitation = InvitationFactory(campaign=campaign)
    newcomer = UserFactory()
    url = invitation.get_absolute_url()
    assert client.get(url)["Location"].startswith(reverse("login"))
    client.force_login(newcomer)
    page = client.get(url)
    assert page.status_code == 200
    assert campaign.name in page.content.decode()
    assert not Membership.objects.filter(user=newcomer).exists()  # a GET joins nobody
    response = client.post(url)
    assert response["Location"] == url  # the same page shows the ways forward
    assert Membership.objects.get(user=newcomer).role == "player"
    page = client.get(url)
    assert page.status_code == 200
    assert 'id="ways-forward"' in page.content.decode()
    assert client.post(url)["Location"] == url  # a second click joins nobody twice
    assert Membership.objects.filter(user=newcomer).count() == 1


def test_a_revoked_link_no_longer_works(client, campaign):
    invitation = InvitationFactory(campaign=campaign)
    services.invitation_revoke(invitation=invitation, by=campaign.owner)
    client.force_login(UserFactory())
    assert client.get(invitation.get_absolute_url()).status_code == 410
    client.post(invitation.get_absolute_url())
    assert Membership.objects.count() == 1  # the Imp alone
    assert client.get(reverse("campaigns:join", args=["no-such-code"])).status_code == 404


def test_a_player_brings_one_of_their_characters(client, player, campaign):
    mine = CharacterFactory(owner=player, name="Bram")
    theirs = CharacterFactory(name="Not mine")
    client.force_login(player)
    page = client.get(reverse("campaigns:bring", args=[campaign.pk])).content.decode()
    assert "Bram" in page and "Not mine" not in page
    response = client.post(reverse("campaigns:bring", args=[campaign.pk]),
                           {"character": theirs.pk})
    assert response.status_code == 200
    assert [e.code for e in response.context["form"].errors.as_data()["character"]] == [
        "invalid_choice"]
    response = client.post(reverse("campaigns:bring", args=[campaign.pk]),
                           {"character": mine.pk})
    assert response["Location"] == campaign.get_absolute_url()
    assert Character.objects.get(pk=mine.pk).campaign == campaign
    assert Character.objects.get(pk=theirs.pk).campaign is None


# -- the dashboard ------------------------------------------------------------------------------


def test_the_imp_sees_the_party_numbers(client, imp, campaign, hero, rendered):
    client.force_login(imp)
    response = client.get(campaign.get_absolute_url())
    assert rendered == ["campaigns/campaign_detail.html"]
    body = response.content.decode()
    assert 'hx-trigger="every 5s"' in body
    values = stats(response)
    # Level 10, XP 4: 6 to go. HP 7 of 15 (10 + STR 2 + END 3, unarmored); WP 11 of 11.
    assert values["level"] == "10" and values["xp"] == "4" and values["xp_to_next"] == "6"
    assert (values["hp_current"], values["hp_armored"]) == ("7", "15")
    assert (values["wp_current"], values["wp"]) == ("11", "11")
    assert values["attribute_points_left"] == "0"
    assert "Find the lost bell" in body
    # The Imp may open the sheet, read-only.
    assert client.get(hero.get_absolute_url()).status_code == 200
    assert client.get(reverse("characters:edit", args=[hero.pk])).status_code == 404


def test_the_dashboard_shows_quest_xp_and_points_waiting(client, imp, campaign, hero):
    session = services.session_start(campaign=campaign, by=imp)
    quests.quest_invest(session=session, character=hero, by=hero.owner)
    services.xp_adjust(character=hero, xp_change=7, note="Dragon", by=imp)  # 3 + 7 = Level 11
    client.force_login(imp)
    values = stats(client.get(campaign.get_absolute_url()))
    assert (values["level"], values["xp"], values["invested"]) == ("11", "0", "(1)")
    assert values["attribute_points_left"] == "1"


def test_the_poll_answers_with_the_partial(client, imp, campaign, hero, rendered):
    client.force_login(imp)
    response = client.get(campaign.get_absolute_url(), **HTMX)
    assert rendered == ["campaigns/campaign_detail.html#party-dashboard"]
    body = response.content.decode()
    assert "<html" not in body
    assert body.lstrip().startswith('<section id="party-dashboard"')
    assert "Ash" in body


def test_a_player_sees_the_party_summary_only(client, player, campaign, hero):
    other = CharacterFactory(campaign=campaign, name="Cyd", career="Yogurt salesman",
                             owner=MembershipFactory(campaign=campaign).user)
    client.force_login(player)
    response = client.get(campaign.get_absolute_url())
    body = response.content.decode()
    assert "Cyd" in body and "Yogurt salesman" in body
    assert "xp_to_next" not in body and "hp_current" not in body
    assert "Invitation links" not in body
    assert client.get(other.get_absolute_url()).status_code == 404


def test_the_dashboard_query_count_is_flat(client, imp, campaign):
    def count():
        client.force_login(imp)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(campaign.get_absolute_url()).status_code == 200
        return len(queries)

    CharacterFactory(campaign=campaign, owner=MembershipFactory(campaign=campaign).user)
    SessionFactory(campaign=campaign)
    small = count()
    for _ in range(5):
        character = CharacterFactory(campaign=campaign,
                                     owner=MembershipFactory(campaign=campaign).user,
                                     quest="A quest")
        InventoryItemFactory.create_batch(3, character=character)
        SessionFactory(campaign=campaign)
    for character in Character.objects.filter(campaign=campaign):
        QuestFactory(character=character)
    assert count() == small, small
    # session, user, membership, quests, characters, items, sessions, links, "bring" button,
    # the latest recap
    assert small <= 10


# -- sessions -----------------------------------------------------------------------------------


def test_the_imp_starts_sessions_in_order(client, imp, campaign, hero):
    hero.wp_current = 2
    hero.save()
    client.force_login(imp)
    page = client.get(reverse("campaigns:sessions", args=[campaign.pk])).content.decode()
    key = re.search(r'name="request_key" value="(\w+)"', page).group(1)
    data = {"date": "2025-03-01", "highlight_rounds": "3", "notes": "Open on the docks",
            "request_key": key}
    response = client.post(reverse("campaigns:sessions", args=[campaign.pk]), data)
    first = Session.objects.get()
    assert response["Location"] == first.get_absolute_url()
    assert (first.number, first.notes) == (1, "Open on the docks")
    assert EldritchGambitCharacter.objects.get(pk=hero.pk).wp_current is None
    client.post(reverse("campaigns:sessions", args=[campaign.pk]), data)  # submitted twice
    assert Session.objects.count() == 1
    data["request_key"] = "another"
    client.post(reverse("campaigns:sessions", args=[campaign.pk]), data)
    assert list(Session.objects.values_list("number", flat=True)) == [1, 2]


def test_session_notes_are_for_imps_and_the_recap_for_everyone(client, imp, player, campaign,
                                                               session):
    url = session.get_absolute_url()
    client.force_login(player)
    body = client.get(url).content.decode()
    assert "We crossed the river" in body
    assert "The vampire is the mayor" not in body
    client.force_login(imp)
    assert "The vampire is the mayor" in client.get(url).content.decode()
    response = client.post(url, {"notes": "Mayor is a vampire", "recap": "River, then fog"})
    assert response["Location"] == url
    session.refresh_from_db()
    assert (session.notes, session.recap) == ("Mayor is a vampire", "River, then fog")


def test_the_imps_character_list_marks_campaign_characters_read_only(client, imp, hero):
    client.force_login(imp)
    body = client.get(reverse("characters:list")).content.decode()
    assert "Ash" in body and "In your campaign" in body
    assert reverse("characters:edit", args=[hero.pk]) not in body
