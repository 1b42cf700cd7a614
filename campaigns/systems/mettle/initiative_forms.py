"""Forms of METTLE's Initiative tracker (initiative_views.py)."""

from __future__ import annotations

from django import forms

from campaigns.forms import BootstrapForm
from campaigns.initiative_forms import clean_mob, encounter_form, status_form, typed_label
from rules.engine.mettle.data import ATTRIBUTE_KEYS, ATTRIBUTE_NAMES, STUN_ONLY_WEAPONS
from rules.engine.mettle.initiative import MAX_DAMAGE, MAX_ZONE_LABEL, SETTABLE_STATUSES
from rules.engine.volleyball import MAX_ACTION_LABEL

from .encounters import SIDES
from .initiative import MAX_ARMOR_SOAK, MAX_MEMBERS, MAX_POOL, NAME_LENGTH

EncounterForm = encounter_form(name_length=NAME_LENGTH, example="Ambush on the quay")


class NpcForm(BootstrapForm):
    """GD §NPC Creation: "a single NPC pool will do for Attributes and Mettle ... If one of
    their Attributes is far higher, such as FRAME for a large creature, list it in
    parentheses."""

    name = forms.CharField(max_length=NAME_LENGTH, help_text="For example “Dock thug”.")
    side = forms.ChoiceField(choices=SIDES, initial="foes")
    pool = forms.IntegerField(min_value=1, max_value=MAX_POOL, label="NPC pool (dice)",
                              help_text="Every Attribute and Mettle.")
    higher_attribute = forms.ChoiceField(
        choices=[("", "(none)")] + [(k, ATTRIBUTE_NAMES[k]) for k in ATTRIBUTE_KEYS],
        required=False, label="Higher Attribute")
    higher_value = forms.IntegerField(min_value=1, max_value=MAX_POOL, required=False,
                                      label="Its pool")
    armor_soak = forms.IntegerField(min_value=0, max_value=MAX_ARMOR_SOAK, initial=0,
                                    required=False, label="Armour Soak",
                                    help_text="Soak is FRAME plus this.")
    zone = forms.CharField(max_length=MAX_ZONE_LABEL, required=False, label="Zone")
    is_mob = forms.BooleanField(required=False, label="A Mob (one pool, several members)")
    members = forms.IntegerField(min_value=1, max_value=MAX_MEMBERS, required=False,
                                 initial=1, label="Members")

    def clean(self):
        data = super().clean()
        clean_mob(self, data)
        key, value = data.get("higher_attribute"), data.get("higher_value")
        pool = data.get("pool")
        if key and value is None and "higher_value" not in self.errors:
            self.add_error("higher_value", "Give the higher Attribute's pool.")
        elif key and pool and value is not None and value <= pool:
            self.add_error("higher_value", f"Higher than the pool ({pool}D), or leave the "
                           "Attribute at (none).")
        data["higher"] = [(key, value)] if key and value else []
        data["armor_soak"] = data.get("armor_soak") or 0
        return data


class DamageForm(BootstrapForm):
    """A hit: DM + Edge (or an Area Attack's 1d6 + DM) against Soak (EN §Taking Damage)."""

    amount = forms.IntegerField(min_value=1, max_value=MAX_DAMAGE, label="Damage",
                                help_text="DM + Edge, before Soak.")
    soak_bonus = forms.IntegerField(min_value=0, max_value=MAX_DAMAGE, required=False,
                                    label="Defend's Soak bonus",
                                    help_text="+2 and the Edge on a success, +1 on a failure.")
    soft = forms.BooleanField(required=False, label="Soft or unarmed (half after Soak)")
    stun_attack = forms.BooleanField(required=False, label="Stun Attack")
    stun_weapon = forms.BooleanField(required=False, label="with a Stun weapon")
    stun_only = forms.BooleanField(
        required=False, label=f"with a Stun-only weapon ({', '.join(STUN_ONLY_WEAPONS)}): "
        "a Felling blow always Stuns")
    firearm = forms.BooleanField(required=False, label="A firearm hit (BP armour halves the "
                                 "first after Soak)")
    bulletproof = forms.BooleanField(required=False, label="The target wears BP armour "
                                     "(a Kevlar vest)")
    area = forms.BooleanField(required=False, label="Area attack (a Felling blow fells the "
                              "whole Mob)")
    burning = forms.BooleanField(required=False, label="Fire on a flammable target: Burning, "
                                 "the same damage each Round until extinguished")
    stagger = forms.BooleanField(required=False, label="On a Felling blow: Staggered instead "
                                 "of Fallen (one more point)")

    def __init__(self, *args, mob: bool = False, pc: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        del self.fields["stagger" if mob else "area"]
        if pc:  # a PC's BP armour is its sheet's (RS §Armor)
            del self.fields["bulletproof"]

    def clean(self):
        data = super().clean()
        if data.get("bulletproof") and not data.get("firearm"):
            self.add_error("bulletproof", "BP armour only matters against a firearm hit: "
                           "tick “A firearm hit” too, or untick this.")
        return data


class MettleForm(BootstrapForm):
    mettle = forms.IntegerField(min_value=-MAX_DAMAGE, max_value=MAX_DAMAGE,
                                label="Set Mettle to",
                                help_text="A Rally, Aid or Surge worked out at the table.")


StatusForm = status_form([(key, key.capitalize()) for key in SETTABLE_STATUSES])


class ZoneForm(BootstrapForm):
    zone = forms.CharField(max_length=MAX_ZONE_LABEL, required=False, label="Zone")


def clean_text(value: str) -> str:
    return typed_label(value, MAX_ACTION_LABEL)
