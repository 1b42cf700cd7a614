"""METTLE Core's campaign settings (GameSystem.campaign_settings_form, whose protocol
rules/systems.py documents): the make-up XP a returning player gets for each session
they missed. Stored in `Campaign.settings`; METTLE modules read it through
`make_up_xp_per_session`."""

from __future__ import annotations

from django import forms

from rules.engine.mettle.advancement import MAKE_UP_XP_PER_MISSED_SESSION

# Guidance > Characters: "a bonus 'make-up' XP for each missing session" (AMB-M10: one a
# session, configurable; 0 turns it off). The cap keeps a typo from flooding the ledger.
MAX_MAKE_UP_XP = 3


def make_up_xp_per_session(campaign) -> int:
    """The make-up XP for each session a returning player missed (a campaign made before
    the setting existed has the SRD's 1)."""
    return campaign.settings.get("make_up_xp", MAKE_UP_XP_PER_MISSED_SESSION)


class CampaignSettingsForm(forms.Form):
    """Shown inside the generic campaign form when the campaign plays METTLE Core; its
    cleaned_data is what Campaign.settings stores."""

    make_up_xp = forms.IntegerField(
        label="Make-up XP per missed session", min_value=0, max_value=MAX_MAKE_UP_XP,
        initial=MAKE_UP_XP_PER_MISSED_SESSION,
        help_text="A returning player's bonus XP for each session they missed (0: none).")

    @staticmethod
    def summary(settings) -> str:
        per = settings.get("make_up_xp", MAKE_UP_XP_PER_MISSED_SESSION)
        return f"{per} make-up XP per missed session" if per else "no make-up XP"

    @staticmethod
    def new_character(settings) -> str:
        return ""
