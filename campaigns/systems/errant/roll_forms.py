"""The form of Errant's Play page: a Check, a Saving Throw or an opposed Check by
Attribute against a DV, with Position and Impact, what the sheet adds (Encumbrance on
physical Checks, a Deviant's expertise and Jettons) and, for an opposed Check, the other
side. Shapes and bounds here, with a message beside each field; the numbers come from the
sheet and the rules engine through roll_services.plan, whose refusals land on their field."""

from __future__ import annotations

from django import forms

from campaigns.forms import BootstrapForm
from characters.systems.errant.forms import CHECK_DV_MAX, CHECK_DV_MIN, JETTONS_MAX
from config.parsing import RequestKeyField
from rules.engine.errant import checks
from rules.engine.errant.data import (
    ATTRIBUTE_KEYS,
    ATTRIBUTE_NAMES,
    IMPACTS,
    POSITIONS,
    PROFICIENCIES,
)

from .roll_services import Plan, RollRefused, RollRequest, plan, proficiency_points
from .rolls import ErrantRoll

OPPONENT_ATTRIBUTE_MAX = 40  # a bound only: Errants' Attributes stay far below
THREAT_MAX = OPPONENT_ATTRIBUTE_MAX - checks.NPC_ATTRIBUTE_BONUS


def _number(label: str, low: int, high: int, *, required=True, help_text: str = ""):
    what = f"{label} is a whole number from {low} to {high}."
    return forms.IntegerField(
        label=label, min_value=low, max_value=high, required=required, help_text=help_text,
        error_messages={"required": f"Enter {label}.", "invalid": what, "min_value": what,
                        "max_value": what},
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}))


def _choice(label: str, choices, *, required=True, help_text: str = ""):
    return forms.ChoiceField(
        label=label, choices=choices, required=required, help_text=help_text,
        error_messages={"required": f"Choose {label}.",
                        "invalid_choice": f"Choose {label} from the list."})


# The fields the Play page shows for one kind of roll only (roll_play.html carries the
# others as hidden inputs, so what was typed stays when the kind changes back).
KIND_FIELDS = {
    "save_against": ErrantRoll.Kind.SAVE,
    **dict.fromkeys(("opponent", "opponent_attribute", "opponent_threat", "opponent_dv"),
                    ErrantRoll.Kind.OPPOSED),
}


class RollForm(BootstrapForm):
    kind = _choice("Roll", ErrantRoll.Kind.choices)
    label = forms.CharField(label="What is attempted", max_length=200, required=False,
                            help_text="Optional, for the log: “climb the wall”.")
    attribute = _choice("Attribute", [])
    dv = _number("DV", CHECK_DV_MIN, CHECK_DV_MAX,
                 help_text="As the Guide sets it: 0 easy, 4 difficult, 8 almost "
                           "impossible. A Saving Throw: the cause's Renown or Threat.")
    save_against = _choice("Saving Throw against", ErrantRoll.SaveAgainst.choices,
                           required=False)
    position = _choice("Position", [(key, f"{name}: {text}")
                                    for key, (name, text) in POSITIONS.items()],
                       help_text="What a failure means (risky unless the Guide says).")
    impact = _choice("Impact", [(key, f"{name}: {text}") for key, (name, text) in
                                IMPACTS.items()],
                     help_text="What a success means (fair unless the Guide says).")
    physical = forms.BooleanField(
        label="Physical (climbing, sneaking, swimming) or stabilise: + Encumbrance",
        required=False)
    backpack_off = forms.BooleanField(label="Backpack off", required=False)
    proficiency = _choice("Related Proficiency", [], required=False)
    jettons = _number("Jettons spent", 0, JETTONS_MAX, required=False,
                      help_text="-1 DV each, on a Check related to a Proficiency.")
    opponent = forms.CharField(label="Opponent", max_length=100, required=False,
                               help_text="Who opposes (an opposed Check).")
    opponent_attribute = _number("Opponent's Attribute", 1, OPPONENT_ATTRIBUTE_MAX,
                                 required=False, help_text="Another Errant's Attribute.")
    opponent_threat = _number("Or the NPC's Threat", 0, THREAT_MAX, required=False,
                              help_text="An NPC succeeds on at most Threat + 8.")
    opponent_dv = _number("Opponent's DV", CHECK_DV_MIN, CHECK_DV_MAX, required=False)
    request_key = RequestKeyField()

    def __init__(self, *args, sheet, **kwargs):
        super().__init__(*args, **kwargs)
        self.sheet = sheet
        self.fields["attribute"].choices = [
            (key, f"{key} {sheet.value(key)} ({ATTRIBUTE_NAMES[key]})")
            for key in ATTRIBUTE_KEYS]
        held = proficiency_points(sheet)
        self.fields["proficiency"].choices = [("", "None")] + [
            (key, f"{PROFICIENCIES[key][0]} ({'mastery' if points >= 2 else 'expertise'})")
            for key, points in held.items()]
        if not held:
            for name in ("proficiency", "jettons"):
                self.fields[name].widget = forms.HiddenInput()
        self.planned: Plan | None = None

    @property
    def has_proficiencies(self) -> bool:
        return len(self.fields["proficiency"].choices) > 1

    def error_slots(self) -> list:
        """The fields the panel shows, each with its error slot, for the kind of roll
        chosen: the live odds' answer fills these out of band, and no slot the page does
        not have."""
        kind = self["kind"].value()
        return [field for field in self if not field.is_hidden
                and KIND_FIELDS.get(field.name, kind) == kind]

    def clean(self):
        data = super().clean()
        kind = data.get("kind")
        for name, its_kind in KIND_FIELDS.items():
            if kind != its_kind:
                # Another kind's field, carried hidden and not used by this roll: what it
                # holds cannot stop this one (nor be shown beside a field not there).
                self.errors.pop(name, None)
        if kind == ErrantRoll.Kind.SAVE and not data.get("save_against") \
                and "save_against" not in self.errors:
            self.add_error("save_against", "A Saving Throw: against an Errant's Renown or "
                                           "an NPC's Threat?")
        if kind == ErrantRoll.Kind.OPPOSED:
            both = data.get("opponent_attribute") is not None and \
                data.get("opponent_threat") is not None
            if both:
                self.add_error("opponent_threat", "Type the opponent's Attribute or an "
                                                  "NPC's Threat, not both.")
            elif data.get("opponent_attribute") is None and \
                    data.get("opponent_threat") is None and \
                    not {"opponent_attribute", "opponent_threat"} & set(self.errors):
                self.add_error("opponent_attribute", "An opposed Check: type the "
                                                     "opponent's Attribute, or an NPC's "
                                                     "Threat.")
            if data.get("opponent_dv") is None and "opponent_dv" not in self.errors:
                self.add_error("opponent_dv", "An opposed Check: type the opponent's DV "
                                              "(0 when none).")
        if not self.errors:
            try:
                self.planned = plan(self.sheet, self.request())
            except RollRefused as refused:
                self.add_error(refused.field, refused.message)
        return data

    def opponent_value(self) -> int | None:
        data = self.cleaned_data
        if data.get("opponent_threat") is not None:
            return checks.npc_attribute(data["opponent_threat"])
        return data.get("opponent_attribute")

    def request(self) -> RollRequest:
        data = self.cleaned_data
        opposed = data["kind"] == ErrantRoll.Kind.OPPOSED
        return RollRequest(
            kind=data["kind"], attribute=data["attribute"], base_dv=data["dv"],
            label=data.get("label") or "",
            save_against=data.get("save_against") or "" if data["kind"] ==
            ErrantRoll.Kind.SAVE else "",
            physical=data.get("physical", False), backpack_off=data.get("backpack_off", False),
            proficiency=data.get("proficiency") or "", jettons=data.get("jettons") or 0,
            position=data["position"], impact=data["impact"],
            opponent=(data.get("opponent") or "") if opposed else "",
            opponent_attribute=self.opponent_value() if opposed else None,
            opponent_dv=data.get("opponent_dv") if opposed else None)
