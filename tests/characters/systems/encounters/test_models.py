"""The combatant's numbers: the database holds the engine's bounds; the sheet is the
engine's, with the campaign's settings."""

import pytest
from django.db import IntegrityError, transaction

from characters.systems.encounters.builds import sheet_for
from characters.systems.encounters.campaign_settings import settings_from, settings_of
from characters.systems.encounters.models import EncounterCharacter
from rules.engine.encounters import OUR_SKILL_ROLL, Settings
from rules.engine.encounters.sheet import BOUNDS
from tests.factories import CampaignFactory

from .helpers import make_sable

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name", sorted(BOUNDS))
def test_the_database_refuses_a_number_out_of_bounds(user, name):
    sable = make_sable(user)
    low, high = BOUNDS[name]
    for value in (low - 1, high + 1):
        with pytest.raises(IntegrityError), transaction.atomic():
            EncounterCharacter.objects.filter(pk=sable.pk).update(**{name: value})
    EncounterCharacter.objects.filter(pk=sable.pk).update(**{name: high})


def test_the_sheet_uses_the_campaigns_settings(user):
    sable = make_sable(user, load=50)
    assert sheet_for(sable)["initiative_maneuver"].value == "2d6+6"
    assert sheet_for(sable)["pace"].value == "5" and "charge_max" not in sheet_for(sable)
    campaign = CampaignFactory(system="encounters", settings={
        "skill_roll": "1d10+skill", "defence_counting": "one_for_all",
        "charge_momentum": True, "pace_formula": "ignored"})
    sable.campaign = campaign
    sable.save()
    sheet = sheet_for(EncounterCharacter.objects.get(pk=sable.pk))
    assert sheet["initiative_maneuver"].value == "1d10+6"
    assert sheet["pace"].value == "10" and sheet["run_max"].value == "40"
    assert sheet["charge_max"].value == 4


def test_settings_of_a_campaign_without_any_are_the_defaults():
    assert settings_of(None) == Settings() and settings_from({}).skill_roll == OUR_SKILL_ROLL
    # A hand-edited row the engine refuses falls back to the defaults.
    assert settings_from({"skill_roll": "banana", "pace_formula": "x"}) == Settings()
    assert settings_from("nonsense") == Settings()
