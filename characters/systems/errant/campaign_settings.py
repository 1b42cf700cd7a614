"""Errant's campaign settings (GameSystem.campaign_settings_form, whose protocol
rules/systems.py documents): the tier of the Settlement where the Company is (PR §Rarity:
"items of a Rarity equal to or lower than the Settlement's tier" are freely traded; GS
§Settlements' tiers 1 Hamlet to 5 Metropolis). The Guide sets it on the campaign's form;
the market page of an Errant in the campaign starts from it (a character outside a
campaign keeps choosing per purchase). Stored in `Campaign.settings`; read through
`settlement_tier`."""

from __future__ import annotations

from django import forms

from rules.engine.errant.data import SETTLEMENT_TIERS

# A campaign made before the setting existed (or a Company not yet anywhere): a Hamlet,
# the smallest Settlement, where only Rarity 1 is freely traded (docs/RULES.md, "Adjutants,
# rosters and training").
DEFAULT_TIER = 1
TIER_CHOICES = [(tier, f"{tier} {name}") for tier, name in SETTLEMENT_TIERS.items()]


def settlement_tier(campaign) -> int:
    """The tier of the Settlement where `campaign`'s Company is (1 when never set)."""
    if campaign is None:
        return DEFAULT_TIER
    tier = (campaign.settings or {}).get("settlement_tier", DEFAULT_TIER)
    return tier if tier in SETTLEMENT_TIERS else DEFAULT_TIER


def _label(tier: int) -> str:
    return f"{tier} {SETTLEMENT_TIERS.get(tier, '')}".strip()


class CampaignSettingsForm(forms.Form):
    """Shown inside the generic campaign form when the campaign plays Errant; its
    cleaned_data is what Campaign.settings stores."""

    settlement_tier = forms.TypedChoiceField(
        label="Settlement where the Company is", choices=TIER_CHOICES, coerce=int,
        initial=DEFAULT_TIER, required=False,
        help_text="Its tier sets what the market freely trades (PR §Rarity): the Errants' "
                  "gear pages start from it.",
        error_messages={"invalid_choice": "Choose a Settlement tier from 1 (Hamlet) to 5 "
                                          "(Metropolis)."})

    def clean_settlement_tier(self):
        tier = self.cleaned_data["settlement_tier"]
        return DEFAULT_TIER if tier in (None, "") else tier

    @staticmethod
    def summary(settings) -> str:
        return f"the Company is in a tier {_label(settings.get('settlement_tier', DEFAULT_TIER))}"

    @staticmethod
    def new_character(settings) -> str:
        return ""
