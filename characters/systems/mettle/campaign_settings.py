"""METTLE Core's campaign settings (GameSystem.campaign_settings_form, whose protocol
rules/systems.py documents): the make-up XP a returning player gets for each session
they missed, and the Freestyle budget its characters are built with (issue #13). Stored in
`Campaign.settings`; METTLE modules read them through `make_up_xp_per_session` and
`freestyle_budget`."""

from __future__ import annotations

from django import forms

from rules.engine.mettle.advancement import MAKE_UP_XP_PER_MISSED_SESSION
from rules.engine.mettle.attributes import FREESTYLE_BUDGET

from .models import BUDGET_MAX, BUDGET_MIN, MettleCharacter

# Guidance > Characters: "a bonus 'make-up' XP for each missing session" (AMB-M10: one a
# session, configurable; 0 turns it off). The cap keeps a typo from flooding the ledger.
MAX_MAKE_UP_XP = 3


def make_up_xp_per_session(campaign) -> int:
    """The make-up XP for each session a returning player missed (a campaign made before
    the setting existed has the SRD's 1)."""
    return campaign.settings.get("make_up_xp", MAKE_UP_XP_PER_MISSED_SESSION)


def freestyle_budget(campaign) -> int:
    """The Freestyle budget of `campaign`'s characters (CH §Step 3, Freestyle method: "22
    points"; next-games M3: "a campaign setting"; AMB-M-BUD-1: the Guide sets it for the
    campaign, and a character may not join by Freestyle with a bigger one). A campaign
    made before the setting existed has the SRD's 22."""
    return campaign.settings.get("freestyle_budget", FREESTYLE_BUDGET)


def join_refusal(character, campaign) -> str:
    """Why `character` may not join `campaign` (GameSystem.join_refusal): built by
    Freestyle with a budget above the campaign's (AMB-M-BUD-1); "" when it may. An Array
    build spends no budget, so any may join."""
    build = MettleCharacter.objects.filter(pk=character.pk).only("method", "budget").first()
    if build is None or build.method != MettleCharacter.BuildMethod.FREESTYLE:
        return ""
    budget = freestyle_budget(campaign)
    if build.budget <= budget:
        return ""
    return (f"{character.display_name} was built by Freestyle with a budget of "
            f"{build.budget}, and {campaign.name}'s is {budget}: lower the budget in the "
            "builder (or switch to the Array), then bring them.")


class CampaignSettingsForm(forms.Form):
    """Shown inside the generic campaign form when the campaign plays METTLE Core; its
    cleaned_data is what Campaign.settings stores."""

    make_up_xp = forms.IntegerField(
        label="Make-up XP per missed session", min_value=0, max_value=MAX_MAKE_UP_XP,
        initial=MAKE_UP_XP_PER_MISSED_SESSION,
        help_text="A returning player's bonus XP for each session they missed (0: none).")
    # Left blank (or not given, as by a caller that predates it): the SRD's 22.
    freestyle_budget = forms.IntegerField(
        label="Freestyle budget", min_value=BUDGET_MIN, max_value=BUDGET_MAX, required=False,
        initial=FREESTYLE_BUDGET,
        help_text=f"What a character built by Freestyle may spend ({FREESTYLE_BUDGET} by "
                  "default; no Attribute may cost more than half of it).",
        error_messages=dict.fromkeys(
            ("invalid", "min_value", "max_value"),
            f"The Freestyle budget is a whole number from {BUDGET_MIN} to {BUDGET_MAX}."))

    def clean_freestyle_budget(self):
        budget = self.cleaned_data["freestyle_budget"]
        return FREESTYLE_BUDGET if budget is None else budget

    @staticmethod
    def summary(settings) -> str:
        per = settings.get("make_up_xp", MAKE_UP_XP_PER_MISSED_SESSION)
        make_up = f"{per} make-up XP per missed session" if per else "no make-up XP"
        budget = settings.get("freestyle_budget", FREESTYLE_BUDGET)
        return f"{make_up}, Freestyle budget {budget}"

    @staticmethod
    def new_character(settings) -> str:
        budget = settings.get("freestyle_budget", FREESTYLE_BUDGET)
        return f"it has the campaign's Freestyle budget of {budget}"
