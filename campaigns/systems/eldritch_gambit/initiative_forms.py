"""Forms of the Initiative tracker (initiative_views.py)."""

from __future__ import annotations

from django import forms

from campaigns.forms import BootstrapForm
from campaigns.initiative_forms import clean_mob, encounter_form, status_form, typed_label
from rules.engine.eldritch_gambit.initiative import MAX_ACTION_LABEL, SETTABLE_STATUSES
from rules.engine.eldritch_gambit.statuses import STATUS_BY_KEY

from .initiative import MAX_HP, MAX_MEMBERS, NAME_LENGTH
from .models import Combatant

EncounterForm = encounter_form(name_length=NAME_LENGTH, example="Ambush at the ford")


class FoeForm(BootstrapForm):
    name = forms.CharField(max_length=NAME_LENGTH)
    side = forms.ChoiceField(choices=Combatant.Side.choices, initial=Combatant.Side.FOES)
    hp_max = forms.IntegerField(min_value=1, max_value=MAX_HP, label="Maximum HP",
                                help_text="For a Mob: one member's HP (the shared pool).")
    af = forms.IntegerField(min_value=0, max_value=99, required=False, label="AF")
    wp = forms.IntegerField(min_value=0, max_value=99, required=False, label="Current WP",
                            help_text="Settles who triggers Initiative in an argument.")
    is_mob = forms.BooleanField(required=False, label="A Mob (one HP pool)")
    members = forms.IntegerField(min_value=1, max_value=MAX_MEMBERS, required=False,
                                 initial=1, label="Members")

    def clean(self):
        data = super().clean()
        clean_mob(self, data)
        return data


HP_CHANGES = [("damage", "Damage"), ("heal", "Heal"), ("set", "Set HP to")]


class HpForm(BootstrapForm):
    change = forms.ChoiceField(choices=HP_CHANGES, label="Change")
    amount = forms.IntegerField(min_value=-MAX_HP, max_value=MAX_HP, label="Amount")
    members = forms.IntegerField(min_value=0, max_value=MAX_MEMBERS, required=False,
                                 label="Members standing",
                                 help_text="With “Set HP to”: the Mob's members.")
    area = forms.BooleanField(required=False, label="Area attack (a Felling blow fells the "
                              "whole Mob)")
    stagger = forms.BooleanField(required=False, label="Stagger instead (no damage)")

    def __init__(self, *args, mob: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        if mob:
            del self.fields["stagger"]
        else:
            del self.fields["area"]
            del self.fields["members"]

    def clean(self):
        data = super().clean()
        amount = data.get("amount")
        if amount is not None and data.get("change") in ("damage", "heal") and amount < 1:
            self.add_error("amount", "Damage and healing are at least 1.")
        return data


StatusForm = status_form([(key, STATUS_BY_KEY[key].name) for key in SETTABLE_STATUSES])


def clean_action(value: str) -> str:
    return typed_label(value, MAX_ACTION_LABEL)
