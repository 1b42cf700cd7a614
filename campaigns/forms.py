"""Campaign forms: they check shapes and bounds; the services decide the rest and their
refusals come back as errors on the field they name (add_service_error)."""

from __future__ import annotations

import copy

from django import forms
from django.contrib.auth import get_user_model
from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.db.models import Q

from characters.models import Character
from config.parsing import IdField, RequestKeyField
from rules import systems

from . import rituals
from .services import CampaignError


def add_service_error(form: forms.Form, error: CampaignError) -> None:
    field = error.field if error.field in form.fields else None
    form.add_error(field, ValidationError(error.message, code=error.code))


def add_bootstrap_classes(fields) -> None:
    """Bootstrap's classes on every visible widget of `fields` (includes/field.html
    renders them)."""
    for field in fields:
        widget = field.widget
        if isinstance(widget, forms.HiddenInput):
            continue
        if isinstance(widget, forms.CheckboxInput):
            css = "form-check-input"
        elif isinstance(widget, forms.Select):
            css = "form-select"
        else:
            css = "form-control"
        widget.attrs["class"] = f"{widget.attrs.get('class', '')} {css}".strip()


class BootstrapForm(forms.Form):
    """Bootstrap's classes on every visible widget."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        add_bootstrap_classes(self.fields.values())


class CampaignForm(forms.Form):
    """A new campaign: the generic fields, the Highlight rounds when the system's ritual
    has Highlights, and the fields of the system's campaign settings
    (GameSystem.campaign_settings_form), of the system posted (else the `system` initial,
    else Eldritch Gambit). cleaned_data holds the settings' values under `settings`."""

    name = forms.CharField(max_length=120)
    system = forms.ChoiceField(
        label="Game system", initial=systems.ELDRITCH_GAMBIT, required=False,
        help_text="Only characters of this game can join; it cannot change once one has.",
        error_messages={"invalid_choice": "Choose one of the game systems listed."})
    pitch = forms.CharField(max_length=2000, required=False, widget=forms.Textarea(
        attrs={"rows": 3}), help_text="What the players should know before they join.")
    # Its choices, initial and help are the system's (campaigns.rituals).
    default_highlight_rounds = forms.TypedChoiceField(
        coerce=int, label="Highlight rounds per session")
    request_key = RequestKeyField()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Read when the form is made: the systems registered then (rules.systems).
        self.fields["system"].choices = systems.choices()
        key = (self.data.get("system") if self.is_bound
               else self.get_initial_for_field(self.fields["system"], "system"))
        self.game_system = systems.find(key) or systems.get(systems.ELDRITCH_GAMBIT)
        ritual = rituals.of(self.game_system.key)
        if not ritual.highlights:
            del self.fields["default_highlight_rounds"]
        else:
            rounds = self.fields["default_highlight_rounds"]
            rounds.choices = rituals.highlight_rounds(self.game_system.key)
            rounds.initial = rituals.default_highlight_rounds(self.game_system.key)
            rounds.help_text = getattr(ritual, "highlight_rounds_help", "")
        self.settings_names = []
        settings_form = self.game_system.campaign_settings_form
        if settings_form is not None:
            for name, field in settings_form.base_fields.items():
                if name in self.fields:
                    raise ImproperlyConfigured(
                        f"{self.game_system.name}'s campaign setting {name!r} has the name "
                        "of a field of the campaign form: give it another.")
                self.fields[name] = copy.deepcopy(field)
                self.settings_names.append(name)
        add_bootstrap_classes(self.fields.values())

    @property
    def settings_fields(self) -> list[forms.BoundField]:
        """The system's settings, for the template."""
        return [self[name] for name in self.settings_names]

    @property
    def highlight_rounds_field(self) -> forms.BoundField | None:
        return self["default_highlight_rounds"] if "default_highlight_rounds" in self.fields \
            else None

    def clean_system(self) -> str:
        """Left out, a campaign plays Eldritch Gambit (the first system)."""
        return self.cleaned_data.get("system") or systems.ELDRITCH_GAMBIT

    def clean(self):
        cleaned = super().clean()
        cleaned["settings"] = {name: cleaned.pop(name) for name in self.settings_names
                               if name in cleaned}
        return cleaned


class CampaignEditForm(CampaignForm):
    """The campaign's page of settings: CampaignForm for a campaign that exists, its game
    system fixed (not a field), its current values initial."""

    def __init__(self, *args, campaign, **kwargs):
        if args and args[0] is not None:  # bound: the system is the campaign's
            data = args[0].copy()
            data["system"] = campaign.system
            args = (data, *args[1:])
        kwargs.setdefault("initial", {
            "name": campaign.name, "pitch": campaign.pitch, "system": campaign.system,
            "default_highlight_rounds": campaign.default_highlight_rounds,
            **(campaign.settings or {})})
        super().__init__(*args, **kwargs)
        del self.fields["system"]
        del self.fields["request_key"]


class SessionForm(BootstrapForm):
    """A new session of a campaign of the game system `system` (its Highlight rounds)."""

    date = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))
    highlight_rounds = forms.TypedChoiceField(coerce=int, label="Highlight rounds")
    final_round_about_other = forms.BooleanField(
        required=False, label="The final round is about another character")
    notes = forms.CharField(max_length=10_000, required=False,
                            label="Notes (for those who run the table only)",
                            widget=forms.Textarea(attrs={"rows": 3}))
    request_key = RequestKeyField()

    def __init__(self, *args, system: str, **kwargs):
        super().__init__(*args, **kwargs)
        rounds = self.fields["highlight_rounds"]
        rounds.choices = rituals.highlight_rounds(system)
        rounds.help_text = getattr(rituals.of(system), "highlight_rounds_help", "")


class SessionNotesForm(BootstrapForm):
    notes = forms.CharField(max_length=10_000, required=False,
                            label="Notes (for those who run the table only)",
                            widget=forms.Textarea(attrs={"rows": 6}))
    recap = forms.CharField(max_length=10_000, required=False,
                            label="Recap (the whole table reads it)",
                            widget=forms.Textarea(attrs={"rows": 6}))


class BringCharacterForm(BootstrapForm):
    character = forms.ModelChoiceField(
        queryset=Character.objects.none(), empty_label=None,
        help_text="Your characters that are not in a campaign.",
        error_messages={"invalid_choice": "Choose one of your characters not in a campaign."},
    )

    def __init__(self, *args, user, campaign=None, **kwargs):
        super().__init__(*args, **kwargs)
        # A character already in this campaign is accepted too: bringing it again (a
        # double click) changes nothing.
        self.fields["character"].queryset = Character.objects.filter(owner=user).filter(
            Q(campaign=None) | Q(campaign=campaign))


class TurnForm(forms.Form):
    """One character's turn in the Highlights: an award (with what they told) or a pass."""

    character = IdField(widget=forms.HiddenInput)
    action = forms.ChoiceField(choices=[("award", "Award 1 XP"), ("pass", "Pass")])
    text = forms.CharField(max_length=2000, required=False, label="Highlight")
    about_other = forms.BooleanField(required=False, label="About another character")
    request_key = RequestKeyField()


class CharacterActionForm(forms.Form):
    """A POST about one character of the session (invest, absent, back)."""

    character = IdField(widget=forms.HiddenInput)
    request_key = RequestKeyField()


class XpAdjustForm(BootstrapForm):
    """The Imp's correction to a character's XP, with the reason."""

    xp_change = forms.IntegerField(min_value=-9999, max_value=9999, label="XP change",
                                   help_text="Positive gives XP, negative takes it.")
    note = forms.CharField(max_length=300, label="Why",
                           help_text="Kept in the character's XP ledger.")
    request_key = RequestKeyField()


class HandoverForm(BootstrapForm):
    """The member who becomes the Imp."""

    user = forms.ModelChoiceField(queryset=None, empty_label=None, label="New Imp",
                                  error_messages={"invalid_choice": "Choose a member."})

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["user"].queryset = (
            get_user_model().objects.filter(memberships__campaign=campaign)
            .exclude(pk=campaign.owner_id).order_by("username"))
        self.fields["user"].label_from_instance = lambda user: user.get_username()
