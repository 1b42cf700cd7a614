"""After joining, every way forward on the invitation's page (Night one at a real
table): bring a free character in one click, build a new one that lands in the
campaign at its starting Level, or duplicate one that plays elsewhere. Permissions and
hostile input for each, and the Imp's landing after logging in."""

import re

import pytest
from django.urls import reverse

from campaigns import services
from campaigns.models import Membership
from characters.models import Character, XpEntry
from characters.services import copy_name
from tests.characters.test_views import builder_data
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    CoImpMembershipFactory,
    InvitationFactory,
    MembershipFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign(db):
    return CampaignFactory(name="The Drowned Crown", settings={"starting_level": 6})


@pytest.fixture
def invitation(campaign):
    return InvitationFactory(campaign=campaign)


@pytest.fixture
def newcomer(client, invitation):
    """A player who has just joined through the link."""
    user = UserFactory()
    client.force_login(user)
    assert client.post(invitation.get_absolute_url())["Location"] == \
        invitation.get_absolute_url()
    return user


def rows(page: str) -> dict[str, str]:
    """The join page's characters: name -> data-state."""
    found = re.findall(r'data-character="\d+" data-state="(\w+)">\s*<span[^>]*><strong>'
                       r'([^<]+)</strong>', page)
    return {name: state for state, name in found}


# -- the join page ------------------------------------------------------------------------


def test_after_joining_with_no_character_the_page_offers_to_build_one(client, invitation,
                                                                      newcomer, campaign):
    page = client.get(invitation.get_absolute_url()).content.decode()
    assert "You have no character yet." in page
    build = f'{reverse("characters:create")}?campaign={campaign.pk}'
    assert f'href="{build}"' in page
    assert "Level 6" in page


def test_after_joining_each_character_says_what_one_click_does(client, invitation, newcomer,
                                                               campaign):
    elsewhere = CampaignFactory(name="Salt Road")
    free = CharacterFactory(owner=newcomer, name="Bram")
    busy = CharacterFactory(owner=newcomer, name="Asphodel", campaign=elsewhere)
    CharacterFactory(name="Not mine")
    page = client.get(invitation.get_absolute_url()).content.decode()
    assert rows(page) == {"Asphodel": "elsewhere", "Bram": "free"}
    assert "Cannot be brought: plays in Salt Road" in page
    bring = reverse("campaigns:bring", args=[campaign.pk])
    duplicate = reverse("campaigns:duplicate_join", args=[campaign.pk])
    assert re.search(rf'action="{bring}">.*?name="character" value="{free.pk}"', page, re.S)
    assert re.search(rf'action="{duplicate}">.*?name="character" value="{busy.pk}"', page,
                     re.S)


def test_one_click_brings_a_free_character_and_a_double_click_changes_nothing(
        client, newcomer, campaign):
    bram = CharacterFactory(owner=newcomer, name="Bram")
    url = reverse("campaigns:bring", args=[campaign.pk])
    for _ in range(2):
        response = client.post(url, {"character": bram.pk})
        assert response["Location"] == campaign.get_absolute_url()
    assert Character.objects.get(pk=bram.pk).campaign == campaign
    assert XpEntry.objects.filter(character=bram, kind="joined").count() == 1


@pytest.mark.parametrize("value", ["999999", "abc", "", "-1", "1" * 40])
def test_bring_refuses_bogus_ids(client, newcomer, campaign, value):
    response = client.post(reverse("campaigns:bring", args=[campaign.pk]),
                           {"character": value})
    assert response.status_code == 200
    assert response.context["form"].errors["character"]


def test_bring_refuses_another_players_character(client, newcomer, campaign):
    theirs = CharacterFactory(name="Not mine")
    response = client.post(reverse("campaigns:bring", args=[campaign.pk]),
                           {"character": theirs.pk})
    assert [e.code for e in response.context["form"].errors.as_data()["character"]] == [
        "invalid_choice"]
    assert Character.objects.get(pk=theirs.pk).campaign is None


def test_a_character_in_another_campaign_is_refused_with_the_reason(client, newcomer,
                                                                    campaign):
    busy = CharacterFactory(owner=newcomer, name="Asphodel", campaign=CampaignFactory())
    response = client.post(reverse("campaigns:bring", args=[campaign.pk]),
                           {"character": busy.pk})
    assert response.status_code == 200
    assert response.context["form"].errors["character"]
    assert "Cannot be brought: plays in" in response.content.decode()


def test_an_imp_following_their_own_link_goes_to_the_campaign(client, campaign, invitation):
    client.force_login(campaign.owner)
    assert client.get(invitation.get_absolute_url())["Location"] == \
        campaign.get_absolute_url()


def test_a_member_may_use_a_revoked_link_to_find_the_way_on(client, newcomer, invitation):
    services.invitation_revoke(invitation=invitation, by=invitation.campaign.owner)
    response = client.get(invitation.get_absolute_url())
    assert response.status_code == 200
    assert 'id="ways-forward"' in response.content.decode()


# -- duplicate into the campaign ----------------------------------------------------------


def test_duplicate_a_character_that_plays_elsewhere(client, newcomer, campaign):
    elsewhere = CampaignFactory(name="Salt Road")
    MembershipFactory(campaign=elsewhere, user=newcomer)
    asphodel = CharacterFactory(owner=newcomer, name="Asphodel", campaign=elsewhere,
                                progress__level=12, progress__xp=4)
    url = reverse("campaigns:duplicate_join", args=[campaign.pk])
    data = {"character": asphodel.pk, "request_key": "k" * 32}
    for _ in range(2):  # a double click: one copy
        response = client.post(url, data)
        assert response["Location"] == campaign.get_absolute_url()
    copy = Character.objects.with_progress().get(campaign=campaign)
    assert copy.name == "Asphodel (copy)"
    assert (copy.level_total, copy.xp_total) == (12, 4)
    assert Character.objects.get(pk=asphodel.pk).campaign == elsewhere  # the original stays
    assert Character.objects.filter(owner=newcomer).count() == 2
    joined = XpEntry.objects.get(character=copy, kind="joined")
    assert joined.note == "Joined The Drowned Crown at Level 12 with 4 XP"


def test_duplicate_without_a_request_key_makes_a_copy_per_click(client, newcomer, campaign):
    bram = CharacterFactory(owner=newcomer, name="Bram", campaign=CampaignFactory())
    url = reverse("campaigns:duplicate_join", args=[campaign.pk])
    client.post(url, {"character": bram.pk})
    client.post(url, {"character": bram.pk})
    assert sorted(Character.objects.filter(campaign=campaign).values_list("name", flat=True)
                  ) == ["Bram (copy 2)", "Bram (copy)"]


@pytest.mark.parametrize("value", ["999999", "abc", "", "1" * 40])
def test_duplicate_refuses_bogus_ids(client, newcomer, campaign, value):
    response = client.post(reverse("campaigns:duplicate_join", args=[campaign.pk]),
                           {"character": value})
    assert response.status_code in (400, 404)
    assert not Character.objects.filter(campaign=campaign).exists()


def test_a_request_key_used_for_something_else_is_refused(client, newcomer, campaign):
    bram = CharacterFactory(owner=newcomer, name="Bram")
    other = CampaignFactory()
    MembershipFactory(campaign=other, user=newcomer)
    services.character_join(campaign=other, character=bram, by=newcomer, request_key="used")
    busy = CharacterFactory(owner=newcomer, name="Asphodel", campaign=other)
    response = client.post(reverse("campaigns:duplicate_join", args=[campaign.pk]),
                           {"character": busy.pk, "request_key": "used"})
    assert response["Location"] == reverse("campaigns:bring", args=[campaign.pk])
    assert not Character.objects.filter(campaign=campaign).exists()


def test_the_service_refuses_another_users_character_and_non_members(campaign):
    stranger = UserFactory()
    theirs = CharacterFactory(name="Not mine")
    with pytest.raises(services.CampaignError) as refused:
        services.character_duplicate_join(campaign=campaign, character=theirs, by=stranger)
    assert refused.value.code == "not_your_character"
    mine = CharacterFactory(owner=stranger)
    with pytest.raises(services.CampaignError) as refused:
        services.character_duplicate_join(campaign=campaign, character=mine, by=stranger)
    assert refused.value.code == "not_member"
    assert Character.objects.count() == 2


# -- build for the campaign ---------------------------------------------------------------


def test_build_a_character_for_the_campaign(client, newcomer, campaign):
    url = f'{reverse("characters:create")}?campaign={campaign.pk}'
    page = client.get(url).content.decode()
    assert f'name="campaign" value="{campaign.pk}"' in page
    assert re.search(r'name="level" value="6"[^>]*disabled', page)
    data = builder_data(level="10", xp="0", campaign=str(campaign.pk), name="Wren",
                        str="1", wis="1", dex="1", agi="1", cha="1", end="1")
    response = client.post(reverse("characters:create"), data)
    assert response["Location"] == campaign.get_absolute_url()
    wren = Character.objects.with_progress().get(name="Wren")
    assert wren.campaign == campaign
    assert (wren.level_total, wren.xp_total) == (6, 0)  # the campaign's Level, not the typed 10
    assert XpEntry.objects.filter(character=wren, kind="joined").count() == 1


def test_the_preview_of_a_build_for_the_campaign_uses_its_level(client, newcomer, campaign):
    response = client.post(reverse("characters:preview"),
                           builder_data(campaign=str(campaign.pk), str="4"),
                           HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert re.search(r'data-stat="level"[^>]*>6<', body)
    assert "attribute_over_maximum" in body or "at most" in body.lower()


@pytest.mark.parametrize("value", ["999999", "abc", "1" * 40, "-3", "²", "①"])
def test_build_for_a_bogus_campaign_is_404(client, newcomer, value):
    assert client.get(f'{reverse("characters:create")}?campaign={value}').status_code == 404
    response = client.post(reverse("characters:create"), builder_data(campaign=value))
    assert response.status_code == 404
    assert not Character.objects.exists()


def test_build_for_a_campaign_one_is_not_in_is_404(client, newcomer):
    other = CampaignFactory()
    assert client.get(f'{reverse("characters:create")}?campaign={other.pk}').status_code == 404
    client.logout()
    response = client.get(f'{reverse("characters:create")}?campaign={other.pk}')
    assert response["Location"].startswith(reverse("login"))


def test_the_imp_may_build_for_their_own_campaign(client, campaign):
    client.force_login(campaign.owner)
    data = builder_data(campaign=str(campaign.pk), name="Foil", str="1", wis="1", dex="1",
                        agi="1", cha="1", end="1")
    assert client.post(reverse("characters:create"), data)["Location"] == \
        campaign.get_absolute_url()
    assert Character.objects.get(name="Foil").campaign == campaign


# -- the bring page -----------------------------------------------------------------------


def test_the_bring_page_shows_every_way(client, newcomer, campaign):
    CharacterFactory(owner=newcomer, name="Bram")
    page = client.get(reverse("campaigns:bring", args=[campaign.pk])).content.decode()
    assert rows(page) == {"Bram": "free"}
    assert "Build a new character for this campaign" in page


def test_the_campaign_page_always_links_the_bring_page(client, newcomer, campaign):
    page = client.get(campaign.get_absolute_url()).content.decode()
    assert reverse("campaigns:bring", args=[campaign.pk]) in page


# -- the Imp's landing --------------------------------------------------------------------


@pytest.mark.parametrize(("role", "landing"), [
    ("imp", "campaigns:list"), ("co_imp", "campaigns:list"), ("player", "characters:list"),
    ("none", "characters:list"),
])
def test_logging_in_lands_an_imp_on_campaigns(client, campaign, role, landing):
    password = "a-long-enough-password-42"
    user = {"imp": lambda: campaign.owner,
            "co_imp": lambda: CoImpMembershipFactory(campaign=campaign).user,
            "player": lambda: MembershipFactory(campaign=campaign).user,
            "none": UserFactory}[role]()
    user.set_password(password)
    user.save()
    response = client.post(reverse("login"), {"username": user.username,
                                              "password": password}, follow=True)
    assert response.redirect_chain[-1][0] == reverse(landing)


def test_the_landing_needs_a_login(client):
    assert client.get(reverse("landing"))["Location"].startswith(reverse("login"))


# -- copies are told apart ----------------------------------------------------------------


def test_copies_are_numbered_and_fit_the_name_field():
    owner = UserFactory()
    assert copy_name("Asphodel", owner=owner) == "Asphodel (copy)"
    CharacterFactory(owner=owner, name="Asphodel (copy)")
    assert copy_name("Asphodel", owner=owner) == "Asphodel (copy 2)"
    assert copy_name("Asphodel (copy)", owner=owner) == "Asphodel (copy 2)"
    long = "A" * 120
    assert copy_name(long, owner=owner) == "A" * 113 + " (copy)"
    CharacterFactory(owner=owner, name="A" * 113 + " (copy)")
    assert len(copy_name(long, owner=owner)) == 120
    assert copy_name(long, owner=owner).endswith(" (copy 2)")
    assert copy_name("", owner=owner) == "Unnamed (copy)"


def test_membership_unchanged_by_a_second_join(client, newcomer, invitation):
    client.post(invitation.get_absolute_url())
    assert Membership.objects.filter(user=newcomer).count() == 1


def test_rolling_the_attributes_for_the_campaign_uses_its_level(client, newcomer, campaign):
    data = builder_data(campaign=str(campaign.pk), action="roll_attributes", seed="7")
    del data["level"]  # disabled: the browser does not post it
    response = client.post(reverse("characters:create"), data)
    assert response.status_code == 200
    assert "Attributes (6d6)" in response.content.decode()
    assert not Character.objects.exists()
