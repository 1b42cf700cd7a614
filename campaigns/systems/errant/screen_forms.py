"""The Guide's screen's forms (screen_views.py): each field's own message for bad input.
Every form carries the newest Turn the page showed (`turn`) and a request key."""

from __future__ import annotations

import re

from django import forms
from django.core.exceptions import ValidationError

from campaigns.forms import add_bootstrap_classes
from characters.systems.errant.inventory import carried_lines
from config.parsing import IdField, RequestKeyField
from rules.engine.errant.data.downtime_tables import DISPOSITION_NAMES, DISPOSITIONS
from rules.engine.errant.data.turns_tables import EXPLORATION_PACE, LOCK_ACTIONS
from rules.engine.errant.exploration import CHEMIST_KIT_COMPONENTS
from rules.engine.errant.reactions import IMPACTS, POSITIONS

from .screen import ATTRIBUTES, MAX_DICE, MAX_NUMBER, MAX_RUNNERS, NAME_LENGTH
from .turn_models import ACTIVITY_LENGTH


def _number(label, low, high, **kwargs):
    return forms.IntegerField(label=label, min_value=low, max_value=high, error_messages={
        "invalid": "Give a whole number.", "required": f"Give the {label.lower()}.",
        "min_value": f"At least {low:,}.", "max_value": f"At most {high:,}."}, **kwargs)


def _errant_choice(label, errants, *, required=True):
    return forms.TypedChoiceField(
        label=label, coerce=int, required=required, empty_value=None,
        choices=[*([] if required else [("", "Nobody")]),
                 *((str(e.pk), e.display_name) for e in errants)],
        error_messages={"invalid_choice": "Choose an Errant of the Company.",
                        "required": "Choose an Errant."})


def _errants_choice(label, errants, **kwargs):
    return forms.TypedMultipleChoiceField(
        label=label, coerce=int, required=False, widget=forms.CheckboxSelectMultiple,
        choices=[(str(e.pk), e.display_name) for e in errants],
        error_messages={"invalid_choice": "Choose Errants of the Company."}, **kwargs)


class _Form(forms.Form):
    """Each form's own ids (several share one page): <id_prefix>_<field>."""

    id_prefix = "screen"

    turn = IdField(widget=forms.HiddenInput, required=False)
    request_key = RequestKeyField()

    def __init__(self, *args, errants=(), **kwargs):
        kwargs.setdefault("auto_id", f"{self.id_prefix}_%s")
        self.errants = list(errants)
        super().__init__(*args, **kwargs)
        self.build()
        add_bootstrap_classes(self.fields.values())
        for field in self.fields.values():
            if isinstance(field.widget, forms.CheckboxSelectMultiple):
                field.widget.attrs["class"] = "form-check-input"

    def build(self) -> None:
        """Fields that need the Company's Errants."""


class StartForm(_Form):
    id_prefix = "start"

    seen = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=0,
                              max_value=10**9)
    activity = forms.CharField(label="What the Company does", max_length=ACTIVITY_LENGTH,
                               required=False)
    pace = forms.MultipleChoiceField(
        label="Pace", required=False, widget=forms.CheckboxSelectMultiple,
        choices=[(k, m.name) for k, m in EXPLORATION_PACE.items()],
        error_messages={"invalid_choice": "Choose from the Pace table."})
    zoom = forms.BooleanField(label="Zoomed in from the newest Travel Turn", required=False)


class StealthForm(_Form):
    id_prefix = "stealth"

    def build(self):
        self.fields["roller"] = _errant_choice("Who rolls", self.errants)
        self.fields["group"] = _errants_choice("As a group with (leave empty: alone)",
                                               self.errants)
        self.fields["secret"] = forms.BooleanField(label="Roll in secret", required=False)


class LightForm(_Form):
    id_prefix = "light"

    def __init__(self, *args, lights=(), **kwargs):
        self.lights = list(lights)
        super().__init__(*args, **kwargs)

    def build(self):
        self.fields["lit"] = forms.TypedMultipleChoiceField(
            label="Lit lights", coerce=int, required=False,
            widget=forms.CheckboxSelectMultiple,
            choices=[(str(line.pk), f"{line.name} ({line.owner_name}, Burn "
                      f"{line.errant_item.uses})") for line in self.lights],
            error_messages={"invalid_choice": "Choose among the Company's lights."})
        self.fields["discreet"] = forms.BooleanField(
            label="A single Errant with a discreet light", required=False)


class DoorForm(_Form):
    id_prefix = "door"

    width_ft = _number("Door width (feet)", 5, 200, initial=5)
    base = _number("Door DV", 0, 20, initial=4)
    prybar = forms.BooleanField(label="With a prybar", required=False)

    def build(self):
        self.fields["forcer"] = _errant_choice("Who forces it", self.errants)
        self.fields["helpers"] = _errants_choice("Helpers", self.errants)
        self.fields["prybar_helper"] = _errant_choice("Helper with a prybar", self.errants,
                                                      required=False)


class BreakForm(_Form):
    id_prefix = "break"

    material = forms.ChoiceField(label="Door", choices=[
        ("wood", "Wooden"), ("stone", "Stone"), ("metal", "Metal")],
        error_messages={"invalid_choice": "A door is wood, stone or metal."})
    inappropriate_tools = forms.BooleanField(label="With weapons or other unfit items",
                                             required=False)


class LockForm(_Form):
    id_prefix = "lock"

    d12s = forms.CharField(label="Three d12s (empty: roll them)", required=False,
                           max_length=20, help_text="Material, sequence, modifier: e.g. 7 2 9")

    def clean_d12s(self):
        text = self.cleaned_data["d12s"].strip()
        if not text:
            return None
        parts = re.split(r"[\s,]+", text)
        if len(parts) != 3 or not all(p.isascii() and p.isdigit() and 1 <= int(p) <= 12
                                      for p in parts):
            raise ValidationError("Three d12s, each 1 to 12.")
        return tuple(int(p) for p in parts)


class PickForm(_Form):
    id_prefix = "pick"

    action = forms.ChoiceField(label="Action", choices=[(a, a.capitalize())
                                                        for a in LOCK_ACTIONS],
                               error_messages={"invalid_choice": "Twist, tap or turn."})

    def build(self):
        self.fields["picker"] = _errant_choice("Who picks", self.errants)


class TrapForm(_Form):
    id_prefix = "trap"

    attribute = forms.ChoiceField(label="Save with", choices=[(a, a) for a in ATTRIBUTES],
                                  error_messages={"invalid_choice": "Choose an Attribute."})
    level = _number("Dungeon level", 0, MAX_NUMBER, initial=1)
    damage = _number("Damage on a failure", 0, MAX_NUMBER, initial=0, required=False)
    secret = forms.BooleanField(label="Roll in secret", required=False)

    def build(self):
        self.fields["errant"] = _errant_choice("Who", self.errants)


class HarvestForm(_Form):
    id_prefix = "harvest"

    threat = _number("Creature's Threat", 0, MAX_NUMBER, initial=4)
    held = _number("Components in the kit", 0, CHEMIST_KIT_COMPONENTS, initial=0,
                   required=False, help_text="The kit holds 4, 6 for a Chemist (Anatomy "
                                             "mastery)")

    def build(self):
        self.fields["errant"] = _errant_choice("Who harvests", self.errants)
        self.fields["line"] = forms.TypedChoiceField(
            label="A success adds one to", coerce=int, required=False, empty_value=None,
            choices=[("", "No line (note it only)"), *(
                (str(line.pk), f"{e.display_name}: {line.name} ×{line.quantity}")
                for e in self.errants for line in carried_lines(e))],
            error_messages={"invalid_choice": "Choose a line an Errant carries."})


class BandsForm(_Form):
    id_prefix = "bands"

    def build(self):
        for name in DISPOSITIONS:
            self.fields[name] = _number(f"{DISPOSITION_NAMES[name]} up to", 2, 30)


class ReactionForm(_Form):
    id_prefix = "reaction"

    npc = forms.CharField(label="NPC", max_length=NAME_LENGTH,
                          error_messages={"required": "Name the NPC."})
    npc_alignment = forms.ChoiceField(label="NPC's Alignment", choices=[
        ("N", "Neutral"), ("L", "Lawful"), ("C", "Chaotic")],
        error_messages={"invalid_choice": "Lawful, Neutral or Chaotic."})
    modifiers = forms.CharField(label="The Guide's modifiers", required=False, max_length=40,
                                help_text="e.g. +1 -2: capped at ±3 in total")
    secret = forms.BooleanField(label="Roll in secret", required=False)
    negotiate = forms.BooleanField(label="Begin a Negotiation", required=False)

    def build(self):
        self.fields["speaker"] = _errant_choice("The NPC deals with", self.errants,
                                                required=False)
        self.fields["speaker"].help_text = ("A Speechcraft master: the Reaction is rolled "
                                            "with 3D6 (ER §The Deviant)")

    def clean_modifiers(self):
        text = self.cleaned_data["modifiers"].strip()
        parts = [p for p in re.split(r"[\s,]+", text) if p]
        if len(parts) > 6 or not all(re.fullmatch(r"[+-]?[0-9]{1,2}", p) for p in parts):
            raise ValidationError("Whole numbers such as +1 -2 (at most six).")
        return [int(p) for p in parts]


class ExchangeForm(_Form):
    id_prefix = "exchange"

    kind = forms.ChoiceField(label="Exchange", choices=[
        ("banal", "Banal"), ("giving", "Giving"), ("taking", "Taking"),
        ("convincing", "Convincing"), ("bribe", "Bribe")],
        error_messages={"invalid_choice": "Choose the kind of exchange."})
    success = forms.ChoiceField(label="The Check", required=False, choices=[
        ("", "No Check (banal, bribe)"), ("yes", "Success"), ("no", "Failure")],
        error_messages={"invalid_choice": "Success, failure or no Check."})
    position = forms.ChoiceField(label="Position", choices=[(p, p) for p in POSITIONS],
                                 initial="risky",
                                 error_messages={"invalid_choice": "Shaky, risky or dire."})
    impact = forms.ChoiceField(label="Impact", choices=[(i, i) for i in IMPACTS],
                               initial="fair",
                               error_messages={"invalid_choice": "Weak, fair or strong."})
    bribe_change = _number("Bribe: disposition change", -12, 12, initial=0, required=False)


class ChaseForm(_Form):
    id_prefix = "chase"

    fugitive_npcs = forms.CharField(label="Fugitive NPCs", required=False, max_length=2000,
                                    widget=forms.Textarea(attrs={"rows": 2}),
                                    help_text="One a line: name, MV, movement dice, phys")
    pursuer_npcs = forms.CharField(label="Pursuing NPCs", required=False, max_length=2000,
                                   widget=forms.Textarea(attrs={"rows": 2}),
                                   help_text="One a line: name, MV, movement dice, phys")

    def build(self):
        self.fields["fugitives"] = _errants_choice("Fleeing Errants", self.errants)
        self.fields["pursuers"] = _errants_choice("Pursuing Errants", self.errants)

    def _npcs(self, name):
        rows = []
        for line in self.cleaned_data[name].splitlines():
            if not line.strip():
                continue
            parts = [p.strip() for p in line.split(",")]
            if len(parts) != 4 or not all(p.isascii() and p.isdigit() for p in parts[1:]):
                raise ValidationError(f"“{line[:40]}”: name, MV, movement dice, phys.")
            mv, dice, phys = (int(p) for p in parts[1:])
            if not (parts[0] and len(parts[0]) <= NAME_LENGTH and mv <= MAX_NUMBER
                    and 1 <= dice <= MAX_DICE and phys <= MAX_NUMBER):
                raise ValidationError(f"“{line[:40]}”: a name of at most {NAME_LENGTH} "
                                      f"characters, MV and phys up to {MAX_NUMBER}, 1 to "
                                      f"{MAX_DICE} movement dice.")
            rows.append((parts[0], mv, dice, phys))
        if len(rows) > MAX_RUNNERS:
            raise ValidationError(f"At most {MAX_RUNNERS} on a side.")
        return rows

    def clean_fugitive_npcs(self):
        return self._npcs("fugitive_npcs")

    def clean_pursuer_npcs(self):
        return self._npcs("pursuer_npcs")


class RoundForm(_Form):
    id_prefix = "round"

    sprint_fugitives = forms.BooleanField(label="The fugitives sprint", required=False)
    sprint_pursuers = forms.BooleanField(label="The pursuers sprint", required=False)
