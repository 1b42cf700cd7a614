"""Eldritch Gambit's campaign settings (GameSystem.campaign_settings_form, whose protocol
rules/systems.py documents): the Level a campaign's characters start at. Stored in
`Campaign.settings`; every Eldritch Gambit module reads it through `starting_level`."""

from __future__ import annotations

from django import forms

from rules.engine.eldritch_gambit.levels import MIN_LEVEL

# Characters > Level: "Most groups start at Level 10." The builder's Level bounds.
MAX_LEVEL = 100
DEFAULT_STARTING_LEVEL = 10


def starting_level(campaign) -> int:
    """The Level a character built for `campaign` starts at ("The Imp may start the party
    at any Level")."""
    return campaign.settings.get("starting_level", DEFAULT_STARTING_LEVEL)


class CampaignSettingsForm(forms.Form):
    """Shown inside the generic campaign form when the campaign plays Eldritch Gambit;
    its cleaned_data is what Campaign.settings stores."""

    starting_level = forms.IntegerField(
        min_value=MIN_LEVEL, max_value=MAX_LEVEL, initial=DEFAULT_STARTING_LEVEL,
        help_text="Most groups start at Level 10.")

    @staticmethod
    def summary(settings) -> str:
        return f"starting Level {settings.get('starting_level', DEFAULT_STARTING_LEVEL)}"

    @staticmethod
    def new_character(settings) -> str:
        level = settings.get("starting_level", DEFAULT_STARTING_LEVEL)
        return f"it starts at the campaign's Level {level}"
