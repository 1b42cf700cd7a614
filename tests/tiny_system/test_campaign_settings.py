"""A campaign's settings and its party table's columns are its game system's: the tiny
system has no settings and no ritual, so its campaign form asks no starting Level and no
Highlight rounds, and its party table shows only the generic columns; registered with a
settings form of its own, the generic form shows, checks and stores it, with no edit to
generic code. Eldritch Gambit's are unchanged."""

import dataclasses
import re

import pytest
from django import forms
from django.core.exceptions import ImproperlyConfigured
from django.urls import reverse

from campaigns import services
from campaigns.models import Campaign
from campaigns.services import CampaignError
from rules import systems
from tests.factories import CampaignFactory, CharacterFactory, MembershipFactory, UserFactory
from tests.tiny_system.fixtures import make_tiny
from tests.tiny_system.system import KEY, game_system

pytestmark = pytest.mark.django_db

EG_COLUMNS = ("XP needed", "HP", "WP", "Statuses", "Career", "Points waiting", "Quest")
DEFAULT_BUDGET = 22


class BudgetForm(forms.Form):
    """A test system's campaign settings (as METTLE Core's Freestyle budget would be)."""

    budget = forms.IntegerField(label="Freestyle budget", min_value=1, max_value=60,
                                initial=DEFAULT_BUDGET)

    @staticmethod
    def summary(settings) -> str:
        return f"budget {settings.get('budget', DEFAULT_BUDGET)}"

    @staticmethod
    def new_character(settings) -> str:
        return f"it has the campaign's budget of {settings.get('budget', DEFAULT_BUDGET)}"


@pytest.fixture
def budgeted():
    """The tiny system, registered with campaign settings of its own."""
    systems.unregister(KEY)
    system = systems.register(dataclasses.replace(game_system(),
                                                  campaign_settings_form=BudgetForm))
    yield system
    systems.unregister(KEY)


def headings(body: str) -> list[str]:
    head = re.search(r"<thead>(.*?)</thead>", body, re.S).group(1)
    return [re.sub(r"<[^>]+>", "", cell).strip()
            for cell in re.findall(r"<th[^>]*>(.*?)</th>", head, re.S)]


def settings_section(body: str) -> str:
    """The form's system-settings section (up to the buttons)."""
    start = body.index('<div id="system-settings"')
    return body[start:body.index('<div class="d-flex', start)]


# -- the campaign form ------------------------------------------------------------------------


@pytest.mark.usefixtures("tiny")
def test_a_tiny_campaigns_form_asks_no_starting_level_and_no_highlight_rounds(client, user):
    client.force_login(user)
    body = client.get(reverse("campaigns:create"), {"system": KEY}).content.decode()
    section = settings_section(body)
    assert f'data-system="{KEY}"' in section
    assert 'name="starting_level"' not in body and "Starting level" not in body
    assert 'name="default_highlight_rounds"' not in body
    response = client.post(reverse("campaigns:create"), {"name": "Tiny table", "system": KEY})
    campaign = Campaign.objects.get(name="Tiny table")
    assert response.status_code == 302 and campaign.settings == {}
    header = client.get(campaign.get_absolute_url()).content.decode()
    assert "starting Level" not in header and "Highlight rounds" not in header


def test_eldritch_gambits_form_asks_its_starting_level_and_highlight_rounds(client, user):
    client.force_login(user)
    section = settings_section(client.get(reverse("campaigns:create")).content.decode())
    assert f'data-system="{systems.ELDRITCH_GAMBIT}"' in section
    assert 'name="starting_level"' in section and 'value="10"' in section
    assert 'name="default_highlight_rounds"' in section
    client.post(reverse("campaigns:create"), {"name": "Salt", "starting_level": "6",
                                              "default_highlight_rounds": "4"})
    campaign = Campaign.objects.get(name="Salt")
    assert campaign.settings == {"starting_level": 6}
    header = client.get(campaign.get_absolute_url()).content.decode()
    assert "starting Level 6 · 4 Highlight rounds" in header
    assert "Eldritch Gambit · starting Level 6" in client.get(
        reverse("campaigns:list")).content.decode()


@pytest.mark.usefixtures("tiny")
def test_choosing_the_system_swaps_in_its_settings(client, user):
    """The system select asks for the form of the system chosen (htmx GET ?system=),
    whose #system-settings replaces the one shown."""
    client.force_login(user)
    body = client.get(reverse("campaigns:create")).content.decode()
    assert 'hx-target="#system-settings"' in body and 'hx-select="#system-settings"' in body
    swapped = client.get(reverse("campaigns:create"), {"system": KEY},
                         headers={"hx-request": "true"}).content.decode()
    assert 'name="starting_level"' not in settings_section(swapped)
    # An unknown system shows the first system's settings (the form refuses it on post).
    unknown = client.get(reverse("campaigns:create"), {"system": "nope"}).content.decode()
    assert 'name="starting_level"' in settings_section(unknown)


def test_a_systems_settings_are_shown_checked_and_stored(client, user, budgeted):
    client.force_login(user)
    form = settings_section(client.get(reverse("campaigns:create"),
                                       {"system": KEY}).content.decode())
    assert "Freestyle budget" in form and f'value="{DEFAULT_BUDGET}"' in form
    assert 'name="starting_level"' not in form
    refused = client.post(reverse("campaigns:create"), {
        "name": "Budget table", "pitch": "Kept", "system": KEY, "budget": "99"})
    assert refused.status_code == 200 and not Campaign.objects.exists()
    errors = refused.context["form"].errors.as_data()
    assert {e.code for e in errors["budget"]} == {"max_value"}
    body = refused.content.decode()
    # Beside its field, and nothing typed lost.
    assert re.search(r'id="errors-budget"[^>]*><div class="invalid-feedback', body)
    assert re.search(r'name="name" value="Budget table"', body)
    assert re.search(r">\s*Kept</textarea>", body)
    assert re.search(r'name="budget" value="99"', body)
    client.post(reverse("campaigns:create"), {"name": "Budget table", "system": KEY,
                                              "budget": "30"})
    campaign = Campaign.objects.get(name="Budget table")
    assert campaign.settings == {"budget": 30}
    assert "budget 30" in client.get(campaign.get_absolute_url()).content.decode()


def test_the_service_checks_a_systems_settings_with_its_form(user, budgeted):
    with pytest.raises(CampaignError) as refused:
        services.campaign_create(owner=user, name="X", system=KEY, settings={"budget": 0})
    assert (refused.value.code, refused.value.field) == ("min_value", "budget")
    with pytest.raises(CampaignError) as unreadable:
        services.campaign_create(owner=user, name="X", system=KEY, settings=["budget"])
    assert unreadable.value.code == "settings_invalid"
    defaults = services.campaign_create(owner=user, name="Y", system=KEY)
    assert defaults.settings == {"budget": DEFAULT_BUDGET}
    # Only the system's own settings are stored.
    extra = services.campaign_create(owner=user, name="Z", system=KEY,
                                     settings={"budget": 5, "starting_level": 3})
    assert extra.settings == {"budget": 5}


@pytest.mark.usefixtures("tiny")
def test_a_system_without_settings_stores_none(user):
    campaign = services.campaign_create(owner=user, name="X", system=KEY,
                                        settings={"starting_level": 3})
    assert campaign.settings == {} and campaign.settings_summary == ""


def test_a_setting_named_like_a_generic_field_is_refused(client, user):
    class Clashing(forms.Form):
        pitch = forms.CharField()

    systems.unregister(KEY)
    systems.register(dataclasses.replace(game_system(), campaign_settings_form=Clashing))
    try:
        client.force_login(user)
        with pytest.raises(ImproperlyConfigured, match="pitch"):
            client.get(reverse("campaigns:create"), {"system": KEY})
    finally:
        systems.unregister(KEY)


def test_a_new_character_note_says_the_systems_setting(client, user, budgeted):
    campaign = CampaignFactory(system=KEY, settings={"budget": 30})
    MembershipFactory(campaign=campaign, user=user)
    client.force_login(user)
    body = client.get(reverse("campaigns:bring", args=[campaign.pk])).content.decode()
    assert "it has the campaign&#x27;s budget of 30 and joins when you save it" in body


# -- the party table --------------------------------------------------------------------------


@pytest.mark.usefixtures("tiny")
def test_a_tiny_party_table_has_only_the_generic_columns(client, user):
    campaign = CampaignFactory(system=KEY, owner=user)
    player = UserFactory()
    MembershipFactory(campaign=campaign, user=player)
    pip = make_tiny(player, name="Pip")
    services.character_join(campaign=campaign, character=pip, by=player)
    client.force_login(user)
    imp_view = client.get(campaign.get_absolute_url()).content.decode()
    # No Level: that is Eldritch Gambit's (GameSystem.progress); the XP ledger is every
    # system's, the Imp's to see.
    assert headings(imp_view) == ["Character", "Player", "XP"]
    assert not any(f'data-label="{column}"' in imp_view for column in EG_COLUMNS)
    client.force_login(player)
    player_view = client.get(campaign.get_absolute_url()).content.decode()
    assert headings(player_view) == ["Character", "Player"]


def test_eldritch_gambits_party_table_keeps_its_columns(client, user):
    campaign = CampaignFactory(owner=user)
    player = UserFactory()
    MembershipFactory(campaign=campaign, user=player)
    hero = CharacterFactory(owner=player, name="Asphodel")
    services.character_join(campaign=campaign, character=hero, by=player)
    client.force_login(user)
    imp_view = client.get(campaign.get_absolute_url()).content.decode()
    assert headings(imp_view) == ["Character", "Player", "Level", "XP", "XP needed", "HP",
                                  "WP", "Statuses", "Quest (XP invested)", "Points waiting"]
    client.force_login(player)
    assert headings(client.get(campaign.get_absolute_url()).content.decode()) == [
        "Character", "Player", "Level", "Career", "Quest"]


# -- the ritual's words on the generic pages ----------------------------------------------------


@pytest.mark.usefixtures("tiny")
def test_a_tiny_characters_pages_use_the_generic_words(client, user):
    campaign = CampaignFactory(system=KEY, owner=user)
    pip = make_tiny(user, name="Pip")
    services.character_join(campaign=campaign, character=pip, by=user)
    client.force_login(user)
    sheet = client.get(pip.get_absolute_url()).content.decode()
    assert "Quest" not in sheet and "(the Imp&#x27;s adjustments)" in sheet
    assert ">XP ledger</a>" in sheet
    members = client.get(reverse("campaigns:members", args=[campaign.pk])).content.decode()
    assert "keeps its history (XP)" in members and "Quests" not in members


def test_an_eldritch_gambit_characters_pages_keep_their_words(client, user):
    campaign = CampaignFactory(owner=user)
    hero = CharacterFactory(owner=user, name="Asphodel")
    services.character_join(campaign=campaign, character=hero, by=user)
    client.force_login(user)
    sheet = client.get(hero.get_absolute_url()).content.decode()
    assert "(Highlights, Quest XP, the Imp&#x27;s adjustments)" in sheet
    assert ">Quests and XP</a>" in sheet
    members = client.get(reverse("campaigns:members", args=[campaign.pk])).content.decode()
    assert "keeps its history (Highlights, Quests, XP)" in members
