"""The forms of moving gear between owners, the same for every game system: giving a line
of a character's inventory (to another character of its campaign or to the party stash)
and taking one from the stash. They turn what was typed into values (an id, a number);
the hand-over's service (campaigns/transfers.py) checks the rest under its locks, and its
refusals come back onto the right field."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError

from config.parsing import RequestKeyField, parse_id


def how_many(verb: str) -> forms.IntegerField:
    """Part of a stack to hand over; empty: the whole line (the service checks it
    against what the line holds, under its locks)."""
    return forms.IntegerField(
        label="How many", required=False,
        error_messages={"invalid": f"Say how many to {verb} as a whole number."},
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


class GiveForm(forms.Form):
    """Who receives a line: a character of the campaign (its id) or "stash" (the
    service checks the character is in the same campaign), and how many of it."""

    STASH = "stash"

    to = forms.CharField(label="Give to", error_messages={"required": "Choose who receives it."})
    quantity = how_many("give")
    request_key = RequestKeyField()

    def clean_to(self):
        value = self.cleaned_data["to"].strip()
        if value == self.STASH:
            return value
        number = parse_id(value)
        if number is None:
            raise ValidationError("Choose a character of the party or the party stash.",
                                  code="invalid")
        return number


class TakeForm(forms.Form):
    """The character a line of the party stash goes to (its id; the service checks it
    is in the campaign and the user may take into it), and how many of it."""

    to = forms.CharField(label="Take into", error_messages={
        "required": "Choose the character who takes it."})
    quantity = how_many("take")
    request_key = RequestKeyField()

    def clean_to(self):
        value = self.cleaned_data["to"].strip()
        number = parse_id(value)
        if number is None:
            raise ValidationError("Choose a character of the party.", code="invalid")
        return number
