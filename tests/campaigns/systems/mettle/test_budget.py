"""METTLE Core's Freestyle budget as a campaign setting (issue #13, AMB-M-BUD-1): the
setting in the campaign form (bounds, hostile input), the builder of a character made
for the campaign starting at its budget and refusing more, and the join refusing a
Freestyle build above the campaign's budget (bring, duplicate, the service)."""

import re

import pytest
from django.urls import reverse

from campaigns import services
from campaigns.models import Campaign
from campaigns.services import CampaignError
from characters.models import Character
from characters.systems.mettle.apps import KEY
from characters.systems.mettle.campaign_settings import (
    CampaignSettingsForm,
    freestyle_budget,
)
from characters.systems.mettle.models import BUDGET_MAX, BUDGET_MIN, MettleCharacter
from rules.engine.mettle.attributes import FREESTYLE_BUDGET
from tests.characters.systems.mettle.helpers import make_viktor, posted
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign(db):
    return CampaignFactory(name="Baltimore 1904", system=KEY,
                           settings={"make_up_xp": 1, "freestyle_budget": 18})


@pytest.fixture
def player(campaign):
    return MembershipFactory(campaign=campaign).user


def create_post(**fields):
    return {"name": "Baltimore", "system": KEY, "make_up_xp": "1",
            "default_highlight_rounds": "2", **fields}


# -- the setting --------------------------------------------------------------------------

def test_the_default_is_the_srds_22_and_old_campaigns_read_it():
    assert FREESTYLE_BUDGET == 22  # CH §Step 3, Freestyle method; next-games M3
    assert freestyle_budget(CampaignFactory(system=KEY, settings={})) == 22
    assert freestyle_budget(CampaignFactory(system=KEY,
                                            settings={"freestyle_budget": 30})) == 30


@pytest.mark.parametrize(("typed", "stored"), [
    ("30", 30), (str(BUDGET_MIN), BUDGET_MIN), (str(BUDGET_MAX), BUDGET_MAX), ("", 22)])
def test_the_campaign_form_stores_the_budget(client, typed, stored):
    client.force_login(UserFactory())
    page = client.get(reverse("campaigns:create"), {"system": KEY}).content.decode()
    assert 'name="freestyle_budget"' in page
    response = client.post(reverse("campaigns:create"), create_post(freestyle_budget=typed))
    assert response.status_code == 302
    campaign = Campaign.objects.get()
    assert campaign.settings == {"make_up_xp": 1, "freestyle_budget": stored}
    assert freestyle_budget(campaign) == stored
    assert f"Freestyle budget {stored}" in client.get(reverse("campaigns:list")).content.decode()


@pytest.mark.parametrize("typed", [str(BUDGET_MIN - 1), str(BUDGET_MAX + 1), "lots", "2.5",
                                   "9" * 40, "-5"])
def test_a_bad_budget_is_said_beside_the_field_and_kept(client, typed):
    client.force_login(UserFactory())
    response = client.post(reverse("campaigns:create"), create_post(freestyle_budget=typed))
    assert response.status_code == 200
    assert response.context["form"].errors["freestyle_budget"] == [
        f"The Freestyle budget is a whole number from {BUDGET_MIN} to {BUDGET_MAX}."]
    assert f'value="{typed}"' in response.content.decode()
    assert not Campaign.objects.exists()


@pytest.mark.parametrize("value", [0, 100, "lots", None])
def test_the_service_refuses_a_bad_budget_but_defaults_a_missing_one(value):
    owner = UserFactory()
    settings = {"make_up_xp": 1, "freestyle_budget": value}
    if value is None:
        campaign = services.campaign_create(owner=owner, name="X", system=KEY,
                                            settings=settings)
        assert campaign.settings["freestyle_budget"] == 22
        return
    with pytest.raises(CampaignError) as error:
        services.campaign_create(owner=owner, name="X", system=KEY, settings=settings)
    assert error.value.field == "freestyle_budget"


def test_the_new_character_note_names_the_budget():
    assert CampaignSettingsForm.new_character({"freestyle_budget": 18}) == \
        "it has the campaign's Freestyle budget of 18"
    assert "Freestyle budget 22" in CampaignSettingsForm.summary({})


# -- the builder of a character made for the campaign --------------------------------------

def test_the_builder_starts_freestyle_at_the_campaigns_budget(client, campaign, player):
    client.force_login(player)
    page = client.get(reverse("characters:create"), {"campaign": campaign.pk})
    assert re.search(r'name="budget" value="18"', page.content.decode())
    assert "Baltimore 1904&#x27;s budget is 18" in page.content.decode()
    assert "Freestyle budget of 18" in page.content.decode()
    # Built on its own, it starts at the SRD's 22.
    page = client.get(reverse("characters:create"), {"system": KEY}).content.decode()
    assert re.search(r'name="budget" value="22"', page)


def test_the_builder_refuses_a_budget_above_the_campaigns(client, campaign, player):
    client.force_login(player)
    data = posted(method="freestyle", budget="22", campaign=str(campaign.pk))
    response = client.post(reverse("characters:create"), data)
    assert response.status_code == 200
    assert "Baltimore 1904's Freestyle budget is 18: spend at most that." in \
        response.context["form"].errors["budget"]
    assert 'name="budget" value="22"' in response.content.decode()
    assert not Character.objects.exists()


def test_the_builder_takes_the_campaigns_budget_and_joins(client, campaign, player):
    client.force_login(player)
    # Viktor's pools cost 17 + 5 (the highest twice) = 22: too much for 18; 4, 3, 2, 3, 2
    # cost 14 + 4 = 18.
    data = posted(method="freestyle", budget="18", campaign=str(campaign.pk), name="Wren",
                  concept="4", motive="2")
    response = client.post(reverse("characters:create"), data)
    assert response["Location"] == campaign.get_absolute_url()
    wren = MettleCharacter.objects.get(name="Wren")
    assert (wren.campaign_id, wren.budget) == (campaign.pk, 18)


def test_an_array_build_for_the_campaign_ignores_the_budget(client, campaign, player):
    client.force_login(player)
    response = client.post(reverse("characters:create"),
                           posted(method="array", budget="99", campaign=str(campaign.pk)))
    assert response["Location"] == campaign.get_absolute_url()


# -- joining ------------------------------------------------------------------------------

def test_the_service_refuses_a_freestyle_budget_above_the_campaigns(campaign, player):
    viktor = make_viktor(player, method="freestyle", budget=22)
    with pytest.raises(CampaignError) as error:
        services.character_join(campaign=campaign, character=viktor, by=player)
    assert error.value.field == "character"
    assert "budget of 22, and Baltimore 1904's is 18" in error.value.message
    assert Character.objects.get(pk=viktor.pk).campaign_id is None


def test_an_array_build_or_a_budget_within_joins(campaign, player):
    array = make_viktor(player, name="Array", method="array", budget=40)
    services.character_join(campaign=campaign, character=array, by=player)
    campaign.settings = {"freestyle_budget": 22}
    campaign.save()
    within = make_viktor(player, name="Within", method="freestyle", budget=22)
    services.character_join(campaign=campaign, character=within, by=player)
    assert set(campaign.characters.values_list("name", flat=True)) == {"Array", "Within"}


def test_bring_says_why_beside_the_character(client, campaign, player):
    viktor = make_viktor(player, method="freestyle", budget=22)
    client.force_login(player)
    response = client.post(reverse("campaigns:bring", args=[campaign.pk]),
                           {"character": viktor.pk})
    assert response.status_code == 200
    assert "Baltimore 1904&#x27;s is 18" in response.content.decode()
    assert response.context["form"].errors["character"]
    assert Character.objects.get(pk=viktor.pk).campaign_id is None


def test_a_duplicate_above_the_budget_makes_no_copy(client, campaign, player):
    viktor = make_viktor(player, method="freestyle", budget=22)
    client.force_login(player)
    response = client.post(reverse("campaigns:duplicate_join", args=[campaign.pk]),
                           {"character": viktor.pk, "request_key": ""})
    assert response["Location"] == reverse("campaigns:bring", args=[campaign.pk])
    assert Character.objects.count() == 1


@pytest.mark.parametrize("typed", ["abc", "", "-3", "9" * 30, "2.5"])
def test_a_hostile_budget_for_the_campaign_is_said_beside_the_field(client, campaign, player,
                                                                    typed):
    client.force_login(player)
    response = client.post(reverse("characters:create"),
                           posted(method="freestyle", budget=typed, campaign=str(campaign.pk)))
    assert response.status_code == 200
    assert response.context["form"].errors["budget"]
    assert f'name="budget" value="{typed}"' in response.content.decode() or typed == ""
    assert not Character.objects.exists()


def test_the_preview_for_the_campaign_says_the_cap(client, campaign, player):
    client.force_login(player)
    response = client.post(reverse("characters:preview"),
                           posted(method="freestyle", budget="22", campaign=str(campaign.pk)))
    assert response.status_code == 200
    assert "Freestyle budget is 18: spend at most that." in response.content.decode()


def test_the_bring_page_says_why_before_the_click(client, campaign, player):
    viktor = make_viktor(player, method="freestyle", budget=22)
    fits = make_viktor(player, name="Fits", method="array")
    client.force_login(player)
    page = client.get(reverse("campaigns:bring", args=[campaign.pk])).content.decode()
    assert f'data-character="{viktor.pk}" data-state="refused"' in page
    assert f'data-character="{fits.pk}" data-state="free"' in page
    assert "Cannot be brought: Viktor was built by Freestyle with a budget of 22" in page
    assert f'aria-label="Bring {viktor.display_name}"' not in page
