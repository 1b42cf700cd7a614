"""The Company page's forms (company_views.py): each field's own message for bad input."""

from __future__ import annotations

from django import forms

from campaigns.forms import BootstrapForm, add_bootstrap_classes
from config.parsing import IdField, RequestKeyField
from rules.engine.errant import wounds as wo
from rules.engine.errant.data import ATTRIBUTE_KEYS, ATTRIBUTE_NAMES
from rules.engine.errant.data.company import (
    CONSUMPTION_KINDS,
    REPUTATION_MAX,
    REPUTATION_MIN,
    TABLE_ROLES,
    WASTE_SOURCES,
)

from .advancement import MAX_PENNIES, NOTE_LENGTH
from .company import MAX_DEBT, REPUTATION_START
from .company_models import FACTION_NAME_LENGTH

SPAN = REPUTATION_MAX - REPUTATION_MIN


class _Form(BootstrapForm):
    """Each form's own ids (several share one page): <id_prefix>_<field>."""

    id_prefix = "errant"

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", f"{self.id_prefix}_%s")
        super().__init__(*args, **kwargs)


def _number(label, low, high, **kwargs):
    return forms.IntegerField(label=label, min_value=low, max_value=high, error_messages={
        "invalid": "Give a whole number.", "required": f"Give the {label.lower()}.",
        "min_value": f"At least {low:,}.", "max_value": f"At most {high:,}."}, **kwargs)


class RolesForm(_Form):
    id_prefix = "roles"

    def __init__(self, *args, errants=(), **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "Nobody"), *((str(e.pk), e.display_name) for e in errants)]
        for key, label in TABLE_ROLES:
            self.fields[key] = forms.TypedChoiceField(
                label=label, choices=choices, required=False, coerce=int, empty_value=None,
                error_messages={"invalid_choice": "Choose an Errant of the Company, or "
                                                  "nobody."})
        add_bootstrap_classes(self.fields.values())


class MarchForm(forms.Form):
    character = IdField(widget=forms.HiddenInput)
    direction = forms.ChoiceField(choices=[("up", "Forward"), ("down", "Back")])


class DebtForm(_Form):
    id_prefix = "debt"

    kind = forms.ChoiceField(label="Change", choices=[
        ("owed", "Owed (a loan, a surplus)"), ("repaid", "Repaid"),
        ("doubled", "Doubled (a Downtime Turn begins)")],
        error_messages={"invalid_choice": "Choose owed, repaid or doubled."})
    amount = _number("Amount (pennies)", 1, MAX_DEBT, required=False,
                     help_text="Not needed to double.")
    note = forms.CharField(label="Why", max_length=NOTE_LENGTH, required=False)
    request_key = RequestKeyField()


class FactionForm(_Form):
    id_prefix = "faction"

    name = forms.CharField(label="Faction", max_length=FACTION_NAME_LENGTH,
                           error_messages={"required": "Name the Faction."})
    score = _number("Reputation", REPUTATION_MIN, REPUTATION_MAX, initial=REPUTATION_START,
                    help_text=f"{REPUTATION_MIN} (Hated) to {REPUTATION_MAX} (Loved); "
                              "6-8 is Neutral.")


class ReputationForm(_Form):
    id_prefix = "reputation"

    change = _number("Change", -SPAN, SPAN)
    note = forms.CharField(label="Why", max_length=NOTE_LENGTH, required=False)


class WasteForm(_Form):
    id_prefix = "waste"

    """XP from money wasted: the Errants, the source, the pennies (1 XP each)."""

    characters = forms.TypedMultipleChoiceField(
        label="Errants", coerce=int, widget=forms.CheckboxSelectMultiple,
        error_messages={"required": "Choose the Errant(s) who gain it.",
                        "invalid_choice": "Choose Errants of the Company."})
    source = forms.ChoiceField(label="Source", choices=[(k, label) for k, label, _ in
                                                        WASTE_SOURCES],
                               error_messages={"invalid_choice": "Choose where the XP "
                                                                 "comes from."})
    consumption = forms.ChoiceField(
        label="Kind of Conspicuous Consumption", required=False,
        choices=[("", "(not Conspicuous Consumption)"),
                 *((k, f"{label} ({attr})") for k, label, attr in CONSUMPTION_KINDS)],
        error_messages={"invalid_choice": "Choose one of the four kinds."})
    pennies = _number("Pennies", 1, MAX_PENNIES,
                      help_text="1 XP per penny; a setback's base investment cost is "
                                "divided among the Errants chosen.")
    from_purse = forms.BooleanField(label="Paid from each Errant's purse", required=False)
    note = forms.CharField(label="What happened", max_length=NOTE_LENGTH, required=False)
    request_key = RequestKeyField()

    def __init__(self, *args, errants=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["characters"].choices = [(e.pk, e.display_name) for e in errants]
        self.fields["characters"].widget.attrs["class"] = "form-check-input"


class RenownPickForm(_Form):
    id_prefix = "renown"

    attribute = forms.ChoiceField(
        label="Attribute", choices=[("", "Choose"), *((k, f"{ATTRIBUTE_NAMES[k]} ({k})")
                                                      for k in ATTRIBUTE_KEYS)],
        error_messages={"invalid_choice": "Choose one of phys, skill, mind and pres.",
                        "required": "Choose an Attribute."})


class AncestryUseForm(_Form):
    id_prefix = "ancestry"

    note = forms.CharField(label="Note", max_length=NOTE_LENGTH, required=False)


class WoundHealForm(_Form):
    """A lasting wound seen to (IT §Death & Dying; lasting.py): by a physician in the
    Downtime Turn (named: one wound each per Downtime Turn), or by a beneficence."""

    id_prefix = "heal"

    how = forms.ChoiceField(label="Healed by", choices=list(wo.HEALS.items()))
    physician = forms.CharField(label="Physician", max_length=80, required=False,
                                help_text="A physician treats one wound per Downtime Turn.")
    note = forms.CharField(label="Note", max_length=300, required=False)
    request_key = RequestKeyField()
