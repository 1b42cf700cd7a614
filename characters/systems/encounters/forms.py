"""The builder of an encounter combatant: a name and eight numbers, each checked against
the engine's bounds, with the live preview of what they give (builds.sheet_from)."""

from __future__ import annotations

from django import forms

from rules.engine.encounters.combatants import EncounterError
from rules.engine.encounters.sheet import BOUNDS, LABELS, NUMBERS

from .builds import sheet_from, values_of
from .models import DEFAULT_TRACK

NAME_LENGTH = 120
HELP = {
    "quickness": "Rolled for Initiative when maneuvering (a physical round).",
    "command": "Rolled for Initiative when concentrating (a mental round).",
    "strength": "Pushing Power adds 1 per Stamina hit spent, for one round.",
    "willpower": "Pushing Power adds 1 per Stamina hit spent, for one round.",
    "stamina_max": "Spent on Pushing Power; a hit comes back at Recovery.",
    "health_max": "The Guide tracks harm against it.",
    "sanity_max": "The Guide tracks harm against it.",
    "load": "What it carries, in percent of its maximum lift: it slows the pace.",
}
NEW_CHARACTER_INITIAL = {
    **dict.fromkeys(("quickness", "command", "strength", "willpower", "load"), 0),
    **dict.fromkeys(("stamina_max", "health_max", "sanity_max"), DEFAULT_TRACK),
}


def number_field(name: str) -> forms.IntegerField:
    low, high = BOUNDS[name]
    label = LABELS[name]
    what = f"{label} is a whole number from {low} to {high}."
    return forms.IntegerField(
        label=label, min_value=low, max_value=high, help_text=HELP[name],
        error_messages={"required": f"Enter the {label}.", "invalid": what,
                        "min_value": what, "max_value": what})


class EncounterForm(forms.Form):
    """The builder form (the protocol of rules.systems.GameSystem.form_class)."""

    name = forms.CharField(label="Name", max_length=NAME_LENGTH, required=False,
                           error_messages={"max_length": f"At most {NAME_LENGTH} "
                                                         "characters."})

    def __init__(self, *args, user=None, character=None, items=None, joining=None,
                 **kwargs):
        super().__init__(*args, **kwargs)
        self.character, self.joining = character, joining
        for name in NUMBERS:
            self.fields[name] = number_field(name)

    @property
    def campaign(self):
        if self.joining is not None:
            return self.joining
        if self.character is not None and self.character.campaign_id:
            return self.character.campaign
        return None

    def number_fields(self):
        return [self[name] for name in NUMBERS]

    @property
    def cannot_compute(self) -> list[dict]:
        if not self.is_bound:
            return []
        return [{"field": self[name], "errors": self.errors[name]}
                for name in NUMBERS if name in self.errors]

    def preview_sheet(self):
        if not self.is_bound:
            values = values_of(self.character) if self.character is not None \
                else {**NEW_CHARACTER_INITIAL, **self.initial}
        elif self.cannot_compute:
            return None
        else:
            values = {name: self.cleaned_data[name] for name in NUMBERS}
        try:
            return sheet_from(values, self.campaign)
        except EncounterError:
            return None


def initial_from_character(character, items) -> dict:
    return {"name": character.name, **values_of(character)}
