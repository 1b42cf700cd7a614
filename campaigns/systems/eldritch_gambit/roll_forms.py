"""Forms of the Checks and Rolls page: shapes and bounds, with a message per field.
The numbers (Attribute, check die, odds, damage dice) come from the sheet and the engine."""

from __future__ import annotations

from django import forms

from campaigns.forms import BootstrapForm
from config.parsing import RequestKeyField
from rules.engine.dice import Dice
from rules.engine.eldritch_gambit import checks, rolls
from rules.engine.eldritch_gambit.checks import BONUS_MAX, DF_MAX, DF_MIN, DIFFICULTIES
from rules.engine.eldritch_gambit.scenes import ACTIONS
from rules.engine.rolling import RollError, validate

from .rolls import Roll

OTHER_DF = "other"
DEFAULT_DF = 10  # Basics > Checks: "Difficulty Factor (DF, usually 10)"
# The log keeps a Roll-off as "<attacker> vs <defender>" in Roll.expression: each side
# gets half of that column (48 characters, under the 60 any typed Roll may have).
ROLLOFF_SIDE_LENGTH = (Roll._meta.get_field("expression").max_length - len(" vs ")) // 2
# Actions with a Check line; Rally's line is a Roll ("recover 1d4* + END HP"), not a Check.
CHECK_ACTIONS = tuple(action for action in ACTIONS
                      if action.has_check and action.check_label == "Check")
ACTION_BY_SLUG = {action.slug: action for action in CHECK_ACTIONS}


# Scenes > Actions > Attack, Melee / Attack, Ranged: "Check: DEX vs. AF"; the sheet's Hit
# is the weapon's to-hit bonus + DEX (+ quality), so with DEX as the Attribute the
# weapon's part of its Hit goes in the Bonus and the Check's Modifier is the Hit.
ATTACK_ATTRIBUTE = "dex"
ATTACK_MELEE, ATTACK_RANGED = "attack-melee", "attack-ranged"


def weapon_fill(sheet, line, action: str = "") -> dict:
    """What choosing `line` ("With") puts in the Check form: an Attack on a d20 with DEX,
    and the weapon's part of its Hit as the Bonus (or the Penalty, when it is below 0,
    an Inferior weapon's -1), so that the Modifier equals the Hit the sheet shows. The
    Action is kept when it is an Attack already; else a bow or sling (Range 2 or more) is
    a ranged Attack, the rest melee."""
    part = line.hit - sheet.value(ATTACK_ATTRIBUTE)
    if action not in (ATTACK_MELEE, ATTACK_RANGED):
        # Range 1 (dagger, hatchet, spear) is a melee weapon one may also throw.
        action = ATTACK_RANGED if (line.range or 0) >= 2 else ATTACK_MELEE
    return {"action": action, "attribute": ATTACK_ATTRIBUTE, "ocs": "on",
            "bonus": str(max(part, 0)), "penalty": str(max(-part, 0))}


def _action_choices():
    return [
        ("", "Anycheck (any other Check)"),
        ("Actions", [(a.slug, a.name) for a in CHECK_ACTIONS if a.kind == "action"]),
        ("Montages", [(a.slug, a.name) for a in CHECK_ACTIONS if a.kind == "montage"]),
    ]


def _amount(label: str, sign_hint: str, help_text: str) -> forms.IntegerField:
    return forms.IntegerField(
        label=label, min_value=0, max_value=BONUS_MAX, initial=0, help_text=help_text,
        error_messages={
            "min_value": f"{label} is 0 or more{sign_hint}.",
            "max_value": f"{label} is at most {BONUS_MAX}.",
            "invalid": f"{label} is a whole number, like 2.",
            "required": f"{label} is a whole number: 0 for none.",
        },
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


class CheckForm(BootstrapForm):
    action = forms.ChoiceField(required=False, label="Action")
    attribute = forms.ChoiceField(label="Attribute")
    ocs = forms.BooleanField(
        required=False, label="A relevant Origin, Career or Skill applies (d20, else d12)")
    bonus = _amount("Largest Bonus", ": a negative number goes in Penalty",
                    "Only the largest Bonus counts.")
    penalty = _amount("Largest Penalty", ": type 4 for a -4 Penalty",
                      "Only the largest Penalty counts; type it without the minus sign.")
    difficulty = forms.ChoiceField(label="Difficulty (DF)", initial=str(DEFAULT_DF))
    df_other = forms.IntegerField(
        required=False, label="Other DF", min_value=DF_MIN, max_value=DF_MAX,
        help_text="The target's AF or WP, an Attack result ...; typed here, it replaces "
                  "the list's DF.",
        error_messages={
            "min_value": f"A DF is from {DF_MIN} to {DF_MAX}.",
            "max_value": f"A DF is from {DF_MIN} to {DF_MAX}.",
            "invalid": "A DF is a whole number, like 12.",
        },
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    weapon = forms.ChoiceField(
        required=False, label="With",
        help_text="A weapon or natural attack fills the Bonus from its Hit (DEX is "
                  "already in the Hit: the Attribute stays DEX).",
        error_messages={"invalid_choice": "Choose one of this character's weapons or "
                                          "natural attacks from the list, or none."})
    request_key = RequestKeyField()

    def __init__(self, *args, sheet, action_url: str = "", weapons=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.sheet = sheet
        # A custom DF typed in "Other DF" replaces the list's: the list says "Another DF"
        # then, so the list and the odds agree (static/js/checks.js does it as one types).
        if self.is_bound and str(self.data.get("df_other") or "").strip():
            self.data = self.data.copy()
            self.data["difficulty"] = OTHER_DF
        # Only lines with an Attack Check: an area Attack Trait hits all in the Zone.
        self.weapons = {value: line for value, line in weapons if line.has_attack_check}
        self.fields["weapon"].choices = [("", "No weapon")] + [
            (value, f"{line.title} (Hit {line.hit_display}, {line.damage_display})")
            for value, line in self.weapons.items()]
        if action_url:
            self.fields["weapon"].widget.attrs.update({
                "hx-post": action_url, "hx-trigger": "change consume",
                "hx-target": "#check-panel", "hx-swap": "outerHTML",
                "hx-include": "#check-form"})
        self.fields["action"].choices = _action_choices()
        if action_url:
            # A new Action re-renders the form with its usual Attribute and die.
            self.fields["action"].widget.attrs.update({
                "hx-post": action_url, "hx-trigger": "change consume",
                "hx-target": "#check-panel", "hx-swap": "outerHTML",
                "hx-include": "#check-form", "aria-describedby": "action-help"})
        self.fields["attribute"].choices = [
            (row.key, f"{row.name} ({row.value:+d})") for row in sheet.attributes]
        self.fields["difficulty"].choices = [
            (str(df), f"{df} {name}") for df, name in DIFFICULTIES
        ] + [(OTHER_DF, "Another DF (type it below)")]

    def clean(self):
        data = super().clean()
        # A DF typed in "Other DF" wins over the list (the odds say which DF they use).
        if data.get("df_other") is not None:
            data["df"] = data["df_other"]
        elif data.get("difficulty") == OTHER_DF:
            if "df_other" not in self.errors:
                self.add_error("df_other", "Type the DF, from "
                               f"{DF_MIN} to {DF_MAX}, or choose one from the list.")
        elif data.get("difficulty"):
            data["df"] = int(data["difficulty"])
        return data

    @property
    def chosen_action(self):
        slug = (self.cleaned_data.get("action") if hasattr(self, "cleaned_data")
                else self.data.get("action"))
        return ACTION_BY_SLUG.get(slug or "")

    def spec(self) -> checks.CheckSpec:
        """The Check as the engine sees it (call after is_valid)."""
        data = self.cleaned_data
        # Attack, Grapple and Dodge come with the box ticked (a d20 for every adventurer);
        # unticked, they drop to a d12 (a Split Attack, a Ranged Attack at double range).
        has_ocs = data["ocs"]
        die = checks.check_die(has_ocs=has_ocs, staggered=self.sheet.has_status("staggered"))
        attribute = self.sheet.value(data["attribute"])
        modifier = checks.modifier(attribute, (data["bonus"],), (data["penalty"],))
        return checks.CheckSpec(die, modifier, data["df"],
                                confused=self.sheet.has_status("confused"))

    @property
    def chosen_weapon(self):
        """The line chosen "With" (a valid form's), or None."""
        value = self.cleaned_data.get("weapon") if hasattr(self, "cleaned_data") else ""
        return self.weapons.get(value or "")

    def label(self) -> str:
        action = self.chosen_action
        abbr = self.sheet[self.cleaned_data["attribute"]].abbr
        weapon = self.chosen_weapon
        return (f"{action.name if action else 'Anycheck'}: {abbr}"
                + (f" with {weapon.title}" if weapon else ""))

    def detail(self) -> dict:
        data = self.cleaned_data
        detail = {"attribute": self.sheet[data["attribute"]].abbr,
                  "attribute_value": self.sheet.value(data["attribute"]),
                  "ocs": data["ocs"], "bonus": data["bonus"], "penalty": data["penalty"],
                  "df_name": checks.difficulty_name(data["df"])}
        weapon = self.chosen_weapon
        if weapon:  # read back to offer its damage after the roll (roll_views)
            detail.update(weapon=weapon.title, weapon_value=data["weapon"],
                          weapon_hit=weapon.hit)
        return detail


class KeepTyped(BootstrapForm):
    """Its inputs travel with every Roll of the panel (hx-include=".keep-typed")."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.widget.attrs["class"] = f"{field.widget.attrs.get('class', '')} keep-typed"


class FallForm(KeepTyped):
    zones = forms.IntegerField(
        label="Zones fallen (5 m each)", min_value=1, max_value=rolls.MAX_FALL_ZONES, initial=1,
        error_messages={"min_value": "A fall is at least 1 Zone (5 m).",
                        "max_value": f"At most {rolls.MAX_FALL_ZONES} Zones "
                                     "(the damage stops growing at 10).",
                        "invalid": "Zones is a whole number, like 2.",
                        "required": "How many Zones (5 m each)?"},
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    plummet = forms.BooleanField(required=False,
                                 label="Plummet onto a foe below (one die less)")


class FireForm(KeepTyped):
    fire = forms.ChoiceField(label="Fire", choices=[(k, v[0]) for k, v in rolls.FIRES.items()],
                             initial="small")


class BuildupForm(KeepTyped):
    buildup = forms.CharField(label="Buildup die", initial="1d6", max_length=20,
                              help_text="Usually 1d6.",
                              error_messages={"required": "Type the Buildup die, like 1d6."})

    def clean_buildup(self) -> Dice:
        text = self.cleaned_data["buildup"]
        try:
            return Dice.parse(text)
        except ValueError as error:
            raise forms.ValidationError(f"{text!r} is not a Buildup die like 1d6 or 2d6.") \
                from error


class RollOffForm(KeepTyped):
    label = forms.ChoiceField(label="Roll-off for", choices=[
        ("Clash", "A clash of arms (a failed melee Attack)"),
        ("Grapple", "A Grapple"),
        ("Roll-off", "Another Roll-off"),
    ])
    side = forms.ChoiceField(label="This character is", choices=[
        (rolls.ATTACKER, "The attacker"), (rolls.DEFENDER, "The defender")])
    attacker = forms.CharField(label="Attacker's Roll", max_length=ROLLOFF_SIDE_LENGTH,
                               error_messages={"required": "Type the attacker's dice, "
                                                           "like 1d8+3."})
    defender = forms.CharField(label="Defender's Roll", max_length=ROLLOFF_SIDE_LENGTH,
                               error_messages={"required": "Type the defender's dice, "
                                                           "like 1d6+2."})

    def _notation(self, name: str) -> str:
        try:
            return validate(self.cleaned_data[name])
        except RollError as error:
            raise forms.ValidationError(str(error)) from error

    def clean_attacker(self) -> str:
        return self._notation("attacker")

    def clean_defender(self) -> str:
        return self._notation("defender")
