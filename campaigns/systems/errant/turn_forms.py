"""The Turn log page's forms (turn_views.py): a Travel Turn's choices, another Turn zoomed
in, each field with its own message for bad input (TT §Travel Turn Actions, §Pace)."""

from __future__ import annotations

from django import forms

from campaigns.forms import add_bootstrap_classes
from config.parsing import RequestKeyField
from rules.engine.errant.data.turns_tables import SEASONS, TRAVEL_ACTIONS, TRAVEL_PACE

from . import travel
from .turn_models import ACTIVITY_LENGTH, ErrantTurn

NUMBER_ERRORS = {"invalid": "Give a whole number."}


def _int(label, low, high, **kwargs):
    return forms.IntegerField(label=label, min_value=low, max_value=high, error_messages={
        **NUMBER_ERRORS, "required": f"Give the {label.lower()}.",
        "min_value": f"At least {low}.", "max_value": f"At most {high}."}, **kwargs)


def _choice(label, choices, message, **kwargs):
    return forms.ChoiceField(label=label, choices=choices,
                             error_messages={"invalid_choice": message,
                                             "required": message}, **kwargs)


def _members(label, errants, **kwargs):
    return forms.TypedMultipleChoiceField(
        label=label, required=False, coerce=int, widget=forms.CheckboxSelectMultiple,
        choices=[(e.pk, e.display_name) for e in errants],
        error_messages={"invalid_choice": "Choose Errants of the Company.",
                        "invalid_list": "Choose Errants of the Company."}, **kwargs)


class _Form(forms.Form):
    id_prefix = "turn"

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", f"{self.id_prefix}_%s")
        super().__init__(*args, **kwargs)

    def _finish(self):
        add_bootstrap_classes(self.fields.values())
        for name in self.fields:
            widget = self.fields[name].widget
            if isinstance(widget, forms.CheckboxSelectMultiple):
                widget.attrs["class"] = "form-check-input"


class TravelForm(_Form):
    id_prefix = "travel"

    action = _choice("The Company's action",
                     [(a.key, a.name) for a in TRAVEL_ACTIONS.values()],
                     "Choose one of the Travel Turn actions.")
    activity = forms.CharField(label="What they do (a note)", max_length=ACTIVITY_LENGTH,
                               required=False)
    season = _choice("Season", [(s, s.capitalize()) for s in SEASONS], "Choose a season.",
                     help_text="The weather table's column (TT §Weather).")
    terrain = _choice("Terrain", [("", "Open land, flat"),
                                  ("rough", TRAVEL_PACE["rough"].name),
                                  ("wild", TRAVEL_PACE["wild"].name)],
                      "Choose the terrain.", required=False)
    speed = _choice("Pace", [("normal", "Normal"), ("slow", "Moving slowly"),
                             ("quick", "Moving quickly")], "Choose normal, slow or quick.",
                    help_text="Peregrinating only.")
    mounted = forms.BooleanField(label="Everyone appropriately mounted", required=False)
    road = forms.BooleanField(label="On a road (cannot get lost)", required=False)
    map = _choice("Map", [("", "None"), ("detailed_map", TRAVEL_PACE["detailed_map"].name),
                          ("general_map", TRAVEL_PACE["general_map"].name)],
                  "Choose the map.", required=False)
    misleading = forms.TypedChoiceField(
        label="Misleading map or directions", coerce=int, required=False, empty_value=0,
        choices=[(0, "No"), (2, "+2"), (3, "+3"), (4, "+4")],
        error_messages={"invalid_choice": "A misleading map adds +2 to +4."})
    landmark = forms.BooleanField(label="Following an obvious landmark", required=False)
    searching = forms.BooleanField(label="Exploring for a place not visited before",
                                   required=False)
    base_dv = _int("Secret base DV", 0, travel.MAX_BASE_DV,
                   help_text="Only the Guide sees it; the terrain, night, weather and maps "
                             "are added.")
    pathfinder = forms.TypedChoiceField(label="Pathfinder", coerce=int, required=False,
                                        empty_value=None, error_messages={
                                            "invalid_choice": "Choose an Errant of the "
                                                              "Company."})
    attribute = _choice("Navigation Attribute", [(a, a) for a in travel.ATTRIBUTES],
                        "Choose phys, skill, mind or pres.")
    campsite_if_failed = _choice("If no suitable campsite is found",
                                 [("uncomfortable", "Uncomfortable"), ("open", "Open")],
                                 "Choose Uncomfortable or Open.")
    shelter = forms.BooleanField(label="In shelter from the weather", required=False)
    safe_bed = forms.BooleanField(label="Sleeping in a warm, safe bed (a Settlement)",
                                  required=False)
    extra_positive = _int("Guide's positive dice", 0, travel.MAX_EXTRA_DICE)
    extra_negative = _int("Guide's negative dice", 0, travel.MAX_EXTRA_DICE)
    extra_reason = forms.CharField(label="Why", max_length=200, required=False)
    rest_choice = _choice("If the die says Rest", [
        ("rest", "Rest (+1 negative Event Die next Turn)"),
        ("exhaustion", "Press on: 1 Exhaustion each")], "Choose Rest or 1 Exhaustion each.")
    weather_changes = forms.BooleanField(label="A local effect changes the weather",
                                         required=False)
    weather_persists = forms.BooleanField(label="The weather persists into a new day",
                                          required=False)
    reveal_navigation = forms.BooleanField(label="Tell the Company how the navigation went",
                                           required=False)
    seen = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=0,
                              error_messages=NUMBER_ERRORS)
    request_key = RequestKeyField()

    def __init__(self, *args, errants=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["pathfinder"].choices = [("", "The first member"),
                                             *((e.pk, e.display_name) for e in errants)]
        self.fields["watchers"] = _members("Take watch", errants)
        self.fields["sleepers"] = _members("Sleep", errants)
        self.fields["unoutfitted"] = _members("Not outfitted for extreme heat or cold",
                                              errants)
        self._finish()

    def plan(self) -> travel.TravelPlan:
        data = dict(self.cleaned_data)
        for name in ("seen", "request_key"):
            data.pop(name, None)
        for name in ("watchers", "sleepers", "unoutfitted"):
            data[name] = tuple(data.get(name) or ())
        data["misleading"] = data.get("misleading") or 0
        return travel.TravelPlan(**data)


TRAVEL_INITIAL = {"action": "peregrinate", "season": "spring", "speed": "normal",
                  "base_dv": 0, "attribute": "skill", "campsite_if_failed": "uncomfortable",
                  "extra_positive": 0, "extra_negative": 0, "rest_choice": "rest",
                  "weather_changes": True, "misleading": 0}


class OtherTurnForm(_Form):
    id_prefix = "other"

    kind = _choice("Turn", [(k, label) for k, label in ErrantTurn.Kind.choices
                            if k != ErrantTurn.Kind.TRAVEL],
                   "Choose an Exploration, Initiative or Downtime Turn.")
    activity = forms.CharField(label="What the Company does", max_length=ACTIVITY_LENGTH,
                               required=False)
    parent = forms.TypedChoiceField(label="Zooms in from", coerce=int, required=False,
                                    empty_value=None, error_messages={
                                        "invalid_choice": "Choose a Turn of this log."})
    speed = _choice("Exploration Pace", [("normal", "Normal"), ("slow", "Moving slowly"),
                                         ("quick", "Moving quickly")],
                    "Choose normal, slow or quick.")
    breaking_door = forms.BooleanField(label="Breaking down a door", required=False)
    extra_positive = _int("Guide's positive dice", 0, travel.MAX_EXTRA_DICE)
    extra_negative = _int("Guide's negative dice", 0, travel.MAX_EXTRA_DICE)
    rest_choice = _choice("If the die says Rest", [
        ("rest", "Rest (+1 negative Event Die next Turn)"),
        ("exhaustion", "Press on: 1 Exhaustion each")], "Choose Rest or 1 Exhaustion each.")
    seen = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=0,
                              error_messages=NUMBER_ERRORS)
    request_key = RequestKeyField()

    def __init__(self, *args, parents=(), lights=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["parent"].choices = [("", "Nothing (a new scene)"), *(
            (t.pk, f"{t} (day {t.day})") for t in parents)]
        self.fields["lit"] = forms.TypedMultipleChoiceField(
            label="Lit lights (Burn)", required=False, coerce=int,
            widget=forms.CheckboxSelectMultiple,
            choices=[(line.pk, f"{bearer.display_name}'s {line.name} (Burn "
                               f"{line.errant_item.uses or 0})") for bearer, line in lights],
            error_messages={"invalid_choice": "Choose lights the Company carries.",
                            "invalid_list": "Choose lights the Company carries."})
        self._finish()

    def plan(self) -> travel.OtherPlan:
        data = dict(self.cleaned_data)
        for name in ("seen", "request_key"):
            data.pop(name, None)
        data["lit"] = tuple(data.get("lit") or ())
        return travel.OtherPlan(**data)


OTHER_INITIAL = {"kind": "exploration", "speed": "normal", "extra_positive": 0,
                 "extra_negative": 0, "rest_choice": "rest"}
