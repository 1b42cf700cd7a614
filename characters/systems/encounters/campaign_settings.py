"""The encounter rules' campaign settings (GameSystem.campaign_settings_form, whose
protocol rules/systems.py documents): what the chapter leaves to the table or leaves out.

- skill_roll: the dice of a skill roll (AMB-H1), dice notation where `skill` stands for
  the skill's number; the default, 2d6+skill, is our choice, not the chapter's;
- defence_counting: each defence out of turn a major action, or one for all (AMB-H11);
- charge_momentum: the chapter's optional rule (H12, ENC-8);
- pace_formula: our linear encumbered pace, or no slowing (AMB-H9).

Stored in `Campaign.settings`; read everywhere through `settings_of(campaign)`, which
gives the engine's Settings (a campaign made before a setting existed has its default)."""

from __future__ import annotations

from django import forms

from rules.engine.encounters import EACH_DEFENCE, ONE_FOR_ALL, OUR_SKILL_ROLL, Settings
from rules.engine.encounters.combatants import PACE_IGNORED, PACE_LINEAR, EncounterError

MAX_FORMULA = 40
DEFENCE_CHOICES = [(EACH_DEFENCE, "Each defence out of turn is a major action"),
                   (ONE_FOR_ALL, "All of a round's defences count as one action")]
PACE_CHOICES = [(PACE_LINEAR, "Our linear reading: 10 x (1 - load) yards from a tenth "
                              "of the maximum lift on"),
                (PACE_IGNORED, "Ignore encumbrance: always 10 yards")]
DEFAULTS = Settings()


def settings_of(campaign) -> Settings:
    """The engine's Settings of `campaign` (None, or a campaign with nothing stored:
    the defaults)."""
    return settings_from(getattr(campaign, "settings", None))


def settings_from(stored) -> Settings:
    """The engine's Settings of a stored mapping. A value the engine refuses (a
    hand-edited row) falls back to the defaults rather than breaking every page."""
    stored = stored if isinstance(stored, dict) else {}
    try:
        return Settings(
            skill_roll=stored.get("skill_roll") or DEFAULTS.skill_roll,
            defence_counting=stored.get("defence_counting", DEFAULTS.defence_counting),
            charge_momentum=bool(stored.get("charge_momentum", DEFAULTS.charge_momentum)),
            pace_formula=stored.get("pace_formula", DEFAULTS.pace_formula))
    except EncounterError:
        return DEFAULTS


class CampaignSettingsForm(forms.Form):
    """Shown inside the generic campaign form when the campaign plays these rules; its
    cleaned_data is what Campaign.settings stores. The engine's Settings validates."""

    skill_roll = forms.CharField(
        label="Skill roll", max_length=MAX_FORMULA, initial=OUR_SKILL_ROLL,
        help_text=f"Dice notation; write 'skill' where the skill's number goes. "
                  f"{OUR_SKILL_ROLL} is our default: the chapter does not say.",
        error_messages={"required": f"Give the skill roll (our default is {OUR_SKILL_ROLL}).",
                        "max_length": f"At most {MAX_FORMULA} characters."})
    defence_counting = forms.ChoiceField(
        label="Defences out of turn", choices=DEFENCE_CHOICES, initial=EACH_DEFENCE,
        error_messages={"invalid_choice": "Choose one of the two ways to count defences."})
    charge_momentum = forms.BooleanField(
        label="Charge momentum (optional rule)", required=False, initial=False,
        help_text="A charge adds 1 damage dealt and taken per full ten yards moved.")
    pace_formula = forms.ChoiceField(
        label="Encumbered pace", choices=PACE_CHOICES, initial=PACE_LINEAR,
        error_messages={"invalid_choice": "Choose one of the two pace formulas."})

    def clean_skill_roll(self):
        try:
            Settings(skill_roll=self.cleaned_data["skill_roll"])
        except EncounterError as error:
            raise forms.ValidationError(error.message, code="skill_roll") from None
        return self.cleaned_data["skill_roll"].strip()

    @staticmethod
    def summary(settings) -> str:
        chosen = settings_from(settings)
        counting = "each defence" if chosen.defence_counting == EACH_DEFENCE \
            else "defences as one"
        momentum = ", charge momentum" if chosen.charge_momentum else ""
        pace = "" if chosen.pace_formula == PACE_LINEAR else ", no encumbrance"
        return f"skill roll {chosen.skill_roll}, {counting}{momentum}{pace}"

    @staticmethod
    def new_character(settings) -> str:
        return ""

