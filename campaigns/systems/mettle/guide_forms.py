"""Forms of the Guide's screen (guide_views.py). The services re-check every value
(guide.py); these give the table its messages beside the fields."""

from __future__ import annotations

from django import forms

from campaigns.forms import BootstrapForm
from config.parsing import RequestKeyField
from rules.engine.mettle.checks import POOL_MAX
from rules.engine.mettle.guide import RESOURCES_MAX

from .guide import NOTE_LENGTH
from .guide_models import (
    ARMOUR_CHOICES,
    ATTRIBUTE_CHOICES,
    FACTION_CHOICES,
    NOTES_LENGTH,
    NPC_NAME_LENGTH,
)

POOL_ERRORS = {"invalid": "Enter a whole number of dice.",
               "min_value": "At least %(limit_value)s die.",
               "max_value": f"At most {POOL_MAX} dice."}


class NpcForm(BootstrapForm):
    name = forms.CharField(max_length=NPC_NAME_LENGTH,
                           help_text="For example “Hostile Village Elder”.")
    pool = forms.IntegerField(min_value=1, max_value=POOL_MAX, label="NPC pool (dice)",
                              error_messages=POOL_ERRORS,
                              help_text="One pool for every Attribute and Mettle.")
    higher_attribute = forms.ChoiceField(choices=[("", "(none)"), *ATTRIBUTE_CHOICES],
                                         required=False, label="Far higher Attribute",
                                         help_text="Noted in parentheses: “Horse 4D (FRAME 7)”.")
    higher_pool = forms.IntegerField(min_value=1, max_value=POOL_MAX, required=False,
                                     label="Its pool", error_messages=POOL_ERRORS)
    armour = forms.ChoiceField(choices=[("", "(none)"), *ARMOUR_CHOICES], required=False,
                               label="Armour", help_text="Soak is FRAME + the armour's Soak.")
    notes = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False,
                            max_length=NOTES_LENGTH)
    request_key = RequestKeyField()

    def clean(self):
        data = super().clean()
        if bool(data.get("higher_attribute")) != (data.get("higher_pool") is not None) \
                and "higher_pool" not in self.errors:
            field = "higher_pool" if data.get("higher_attribute") else "higher_attribute"
            self.add_error(field, "Give both the higher Attribute and its pool, or neither.")
        return data


class FactionNameForm(BootstrapForm):
    role = forms.ChoiceField(choices=FACTION_CHOICES, label="Faction")
    name = forms.CharField(max_length=NPC_NAME_LENGTH, label="New name")


class ResourcesForm(BootstrapForm):
    role = forms.ChoiceField(choices=FACTION_CHOICES, label="Faction")
    change = forms.IntegerField(min_value=-RESOURCES_MAX, max_value=RESOURCES_MAX,
                                label="Change", help_text="+2 or -1: an impactful event.",
                                error_messages={"invalid": "Enter a whole number, like -1."})
    note = forms.CharField(max_length=NOTE_LENGTH, required=False, label="Why")
    request_key = RequestKeyField()


class FactionCheckForm(BootstrapForm):
    actor = forms.ChoiceField(choices=FACTION_CHOICES, label="Who acts")
    target = forms.ChoiceField(choices=FACTION_CHOICES, label="Against")
    request_key = RequestKeyField()

    def clean(self):
        data = super().clean()
        if data.get("actor") and data.get("actor") == data.get("target"):
            self.add_error("target", "A Faction Checks against another Faction.")
        return data
