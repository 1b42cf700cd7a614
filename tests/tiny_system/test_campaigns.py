"""A campaign plays one game system: chosen when it is created, shown on its page; only
characters of that system join it, and a character built for it is of its system."""

import pytest
from django.urls import reverse

from campaigns import services
from campaigns.models import Campaign
from campaigns.selectors import ways_forward
from campaigns.services import CampaignError
from characters.models import InventoryItem
from rules import systems
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    InvitationFactory,
    MembershipFactory,
    SessionFactory,
)
from tests.tiny_system.fixtures import make_tiny
from tests.tiny_system.models import TinyCharacter
from tests.tiny_system.system import KEY, NAME

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("tiny")]


def member_of(campaign, user):
    MembershipFactory(campaign=campaign, user=user)
    return campaign


def test_a_campaign_chooses_its_system_and_shows_it(client, user):
    client.force_login(user)
    form = client.get(reverse("campaigns:create")).content.decode()
    assert f'value="{KEY}"' in form and NAME in form
    response = client.post(reverse("campaigns:create"), {
        "name": "Tiny table", "starting_level": "10", "default_highlight_rounds": "3",
        "system": KEY})
    campaign = Campaign.objects.get(name="Tiny table")
    assert response.status_code == 302 and campaign.system == KEY
    assert NAME in client.get(campaign.get_absolute_url()).content.decode()


def test_left_out_the_system_is_eldritch_gambit(client, user):
    client.force_login(user)
    client.post(reverse("campaigns:create"), {
        "name": "Plain table", "starting_level": "10", "default_highlight_rounds": "3"})
    assert Campaign.objects.get(name="Plain table").system == systems.ELDRITCH_GAMBIT


@pytest.mark.parametrize("value", ["nope", "x" * 300, "\x00"])
def test_an_unknown_system_is_refused_on_the_field(client, user, value):
    client.force_login(user)
    response = client.post(reverse("campaigns:create"), {
        "name": "Bad table", "starting_level": "10", "default_highlight_rounds": "3",
        "system": value})
    assert response.status_code == 200
    assert "Choose one of the game systems listed." in response.content.decode()
    assert not Campaign.objects.filter(name="Bad table").exists()


def test_the_service_refuses_an_unknown_system(user):
    with pytest.raises(CampaignError) as refused:
        services.campaign_create(owner=user, name="Bad", system="nope")
    assert refused.value.code == "unknown_system"


def test_a_tiny_character_joins_a_tiny_campaign(client, user):
    campaign = member_of(CampaignFactory(system=KEY), user)
    character = make_tiny(user)
    client.force_login(user)
    response = client.post(reverse("campaigns:bring", args=[campaign.pk]),
                           {"character": character.pk})
    assert response.status_code == 302
    assert TinyCharacter.objects.get(pk=character.pk).campaign == campaign


def test_an_eldritch_gambit_campaign_refuses_a_tiny_character(client, user):
    campaign = member_of(CampaignFactory(), user)
    character = make_tiny(user, name="Pip")
    with pytest.raises(CampaignError) as refused:
        services.character_join(campaign=campaign, character=character, by=user)
    assert refused.value.code == "wrong_system"
    assert "Pip is a Tiny Test System character" in refused.value.message
    client.force_login(user)
    response = client.post(reverse("campaigns:bring", args=[campaign.pk]),
                           {"character": character.pk})
    assert "only its characters can join" in response.content.decode()
    character.refresh_from_db()
    assert character.campaign is None


def test_a_tiny_campaign_refuses_an_eldritch_gambit_character(user):
    campaign = member_of(CampaignFactory(system=KEY), user)
    hero = CharacterFactory(owner=user)
    with pytest.raises(CampaignError):
        services.character_join(campaign=campaign, character=hero, by=user)
    with pytest.raises(CampaignError):
        services.character_duplicate_join(campaign=campaign, character=hero, by=user)
    assert list(campaign.characters.all()) == []


def test_the_ways_forward_say_why_another_systems_character_cannot_come(client, user):
    campaign = member_of(CampaignFactory(), user)
    make_tiny(user, name="Pip")
    CharacterFactory(owner=user, name="Asphodel")
    ways = ways_forward(campaign, user)
    assert {row["character"].display_name: row["state"] for row in ways["rows"]} == {
        "Pip": "other_system", "Asphodel": "free"}
    invitation = InvitationFactory(campaign=campaign)
    client.force_login(user)
    body = client.get(invitation.get_absolute_url()).content.decode()
    assert "Cannot be brought: it plays Tiny Test System" in body
    assert 'aria-label="Bring Pip"' not in body and 'aria-label="Bring Asphodel"' in body


def test_building_for_a_campaign_uses_its_system(client, user):
    campaign = member_of(CampaignFactory(system=KEY), user)
    client.force_login(user)
    url = f"{reverse('characters:create')}?campaign={campaign.pk}"
    body = client.get(url).content.decode()
    assert 'name="grit"' in body and 'id="system-choice"' not in body
    response = client.post(reverse("characters:create"), {
        "campaign": campaign.pk, "name": "Pip", "grit": "2", "wits": "2",
        "system": systems.ELDRITCH_GAMBIT})  # the campaign's system wins
    assert response.status_code == 302
    character = TinyCharacter.objects.get()
    assert character.campaign == campaign and character.system == KEY


def test_a_system_without_rolls_or_initiative_shows_neither(client, user):
    """The campaign pages link a system's Initiative and roll log only when its campaign
    package gives the links (campaign_links, session_links); Eldritch Gambit's pages
    answer 404 for a campaign or character of another system."""
    tiny_campaign = CampaignFactory(system=KEY, owner=user)
    eg_campaign = CampaignFactory(owner=user)
    for campaign in (tiny_campaign, eg_campaign):
        SessionFactory(campaign=campaign, number=1)
    pip = make_tiny(user, name="Pip")
    client.force_login(user)

    def links(campaign):
        body = client.get(campaign.get_absolute_url()).content.decode()
        session = client.get(reverse("campaigns:session_detail", args=[campaign.pk, 1]))
        return (reverse("campaigns:initiative_list", args=[campaign.pk]) in body,
                reverse("campaigns:session_log", args=[campaign.pk, 1])
                in session.content.decode())

    assert links(eg_campaign) == (True, True)
    assert links(tiny_campaign) == (False, False)
    for url in (reverse("campaigns:initiative_list", args=[tiny_campaign.pk]),
                reverse("campaigns:session_log", args=[tiny_campaign.pk, 1]),
                reverse("characters:play", args=[pip.pk]),
                reverse("characters:roll_log", args=[pip.pk])):
        assert client.get(url).status_code == 404, url
    assert client.post(reverse("campaigns:initiative_list", args=[tiny_campaign.pk]),
                       {"name": "Brawl"}).status_code == 404
    assert not tiny_campaign.encounters.exists()
    assert client.get(reverse("campaigns:initiative_list",
                              args=[eg_campaign.pk])).status_code == 200


def test_the_stash_of_a_system_whose_gear_has_no_load(client, user):
    """The party stash is generic: a system without GameSystem.stash_loads shows its
    lines and takes them out, with no Load (Eldritch Gambit's is its own)."""
    campaign = CampaignFactory(system=KEY, owner=user)
    pip = make_tiny(user, name="Pip", campaign=campaign)
    rope = InventoryItem.objects.create(stash=campaign, name="Rope", quantity=2)
    client.force_login(user)
    page = client.get(reverse("campaigns:stash", args=[campaign.pk])).content.decode()
    assert 'data-item="Rope"' in page and "x2" in page
    assert "data-stat=\"stash_load\"" not in page and "data-load=" not in page
    response = client.post(reverse("campaigns:stash_take", args=[campaign.pk, rope.pk]),
                           {"to": str(pip.pk), "quantity": "1"})
    assert response.status_code == 302
    assert list(pip.items.values_list("name", "quantity")) == [("Rope", 1)]
