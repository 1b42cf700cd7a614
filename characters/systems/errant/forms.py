"""The Errant builder form (the protocol of rules.systems.GameSystem.form_class).

Field limits keep input sane and say what a valid value looks like; the rules (4D4 dice, at
most one swap, the Guide's note, the age against the rolled minimum, the hand and handy
slots, the Renown raises) are the engine's, whose problems are reported beside the field
they are about. Nothing typed is lost: a refused form comes back with every value as typed.

The items are rows of fields (item_<n>_name, _size, _quantity, _location, ...), as many as
`item_rows` says: the "Take the starting kit" action fills them in one step
(pages.builder_roll), and each row's place is a select, so moving an item is one action.
"""

from __future__ import annotations

import copy
import functools
import re
from fractions import Fraction

from django import forms
from django.utils.choices import BaseChoiceIterator

from rules.engine.errant import compute_sheet
from rules.engine.errant.advancement import renown_for_xp
from rules.engine.errant.attributes import (
    DICE_PER_ATTRIBUTE,
    DIE_SIDES,
    GUIDE_SET_MAX,
    GUIDE_SET_MIN,
    Method,
)
from rules.engine.errant.data import (
    ALIGNMENTS,
    ANCESTRIES,
    ARCHETYPE_KITS,
    ARCHETYPE_NAMES,
    ATTRIBUTE_KEYS,
    ATTRIBUTE_NAMES,
    PROFICIENCIES,
)
from rules.engine.errant.sheet import fraction_label

from .builds import build_from, coin_count, coins_of, sheet_for, values_of, xp_of
from .models import AGE_MAX, DEEDS_MAX, EXHAUSTION_MAX, HP_MAX, NOTE_LENGTH, TEXT_LENGTH

MAX_ITEMS = 40  # item rows
MAX_LINES = 20  # languages
ITEM_NAME_LENGTH = 120
QUANTITY_MAX = 999
USES_MAX = 99
MAGIC_MAX = 9
# Sizes in quarter slots (PR §Item Slots: 1/4, 1/2, 1, 2 or more slots).
SIZE_QUARTERS = (0, 1, 2, 3, 4, 6, 8, 12, 16, 20, 24, 32, 40)
SIZE_CHOICES = [(str(q), fraction_label(Fraction(q, 4))) for q in SIZE_QUARTERS]
LOCATION_CHOICES = [("hand", "Hand"), ("handy", "Handy"), ("worn", "Worn"),
                    ("backpack", "Backpack"), ("container", "Other container")]
KIND_CHOICES = [("", "Item"), ("weapon", "Weapon"), ("shield", "Shield"), ("armour", "Armour"),
                ("container", "Container"), ("light", "Light"), ("supply", "Supply"),
                ("ammunition", "Ammunition"), ("grimoire", "Grimoire"), ("relic", "Relic")]
QUALITY_CHOICES = [("", "—"), ("3", "Masterwork (3)"), ("2", "Average (2)"),
                   ("1", "Shoddy (1)"), ("0", "Destroyed (0)")]
ITEM_FIELDS = ("name", "size", "quantity", "location", "kind", "uses", "uses_max", "quality",
               "blocks", "magic")
SWAP_CHOICES = [("", "No swap")] + [
    (f"{first}-{second}", f"Swap {first} and {second}")
    for index, first in enumerate(ATTRIBUTE_KEYS) for second in ATTRIBUTE_KEYS[index + 1:]]
KIT_LABELS = {
    "heavy_weapon": "a heavy weapon", "small_shield": "a small shield",
    "large_shield": "a large shield", "burglars_tools": "burglar's tools",
    "alchemists_kit": "an alchemist's kit", "grimoires": "4 Grimoires", "relic": "a Relic",
}
KIT_CHOICES = [("", "Not chosen yet")] + [
    (key, f"{ARCHETYPE_NAMES[archetype]}: {KIT_LABELS.get(key, key)}")
    for archetype, kits in ARCHETYPE_KITS.items() for key in kits]
DICE_TEXT = re.compile(r"[\s,;]+")
DICE_HELP = f"{DICE_PER_ATTRIBUTE} D4 faces from 1 to {DIE_SIDES}, like 3 4 2 1."
# Where an engine Issue's field shows on the form ("items": above the item rows).
ISSUE_FIELDS = {
    "method": "method", "dice": "dice_phys", "swap": "swap", "guide_note": "guide_note",
    "renown_raises": "renown_raises", "archetype": "archetype", "ancestry": "ancestry",
    "exhaustion": "exhaustion", "items": "item_rows", "extra_languages": "extra_languages",
    "alignment": "alignment", "age": "age", "hp_current": "hp_current",
    "proficiencies": "proficiency_points",
}
PROFICIENCY_CHOICES = [("", "—"), ("1", "Expertise (1 point)"), ("2", "Mastery (2 points)")]

NEW_CHARACTER_INITIAL = {"method": Method.ROLLED.value, "ancestry": "adaptable",
                         "archetype": "violent", "exhaustion": 0, "favour_deeds": 0,
                         "item_rows": 0}


def number_field(label, *, min_value, max_value, required=True, help_text="", widget=None):
    """An integer field whose messages say what a valid value looks like."""
    what = f"{label} is a whole number from {min_value} to {max_value}."
    return forms.IntegerField(
        label=label, min_value=min_value, max_value=max_value, required=required,
        help_text=help_text,
        error_messages={"required": f"Enter {label}.", "invalid": what,
                        "min_value": what, "max_value": what},
        widget=widget or forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


class FixedChoices(BaseChoiceIterator):
    """A select's choices, fixed and normalised once. Django keeps a choice iterator as it
    is (it normalises a list on every field made, and re-reads a callable's list on every
    value checked), and this one is immutable, so a form's copy of the field shares it:
    the builder has about 60 selects (four per item line) made and checked on every
    preview keystroke."""

    def __init__(self, choices):
        self.pairs = tuple((value, label) for value, label in choices)

    def __iter__(self):
        return iter(self.pairs)

    def __deepcopy__(self, memo):
        return self

    def __copy__(self):
        return self


def choice_field(label, choices, *, required=False, widget=None, help_text=""):
    """A select whose messages name it."""
    return forms.ChoiceField(
        label=label, choices=FixedChoices(choices), required=required, help_text=help_text,
        widget=widget or forms.Select(attrs={"class": "form-select"}),
        error_messages={"required": f"Choose {label}.",
                        "invalid_choice": f"Choose one of the listed {label} values."})


def row_count(raw) -> int:
    try:
        return min(max(int(str(raw).strip()), 0), MAX_ITEMS)
    except (TypeError, ValueError):
        return 0


RENOWN_CHOICES = [("", "—"), *((key, f"{key} ({ATTRIBUTE_NAMES[key]})")
                                 for key in ATTRIBUTE_KEYS)]


@functools.cache
def _attribute_fields() -> dict[str, forms.Field]:
    """The dice and the Guide's score of each Attribute, then the Proficiency selects."""
    fields = {}
    for key in ATTRIBUTE_KEYS:
        name = ATTRIBUTE_NAMES[key]
        fields[f"dice_{key}"] = forms.CharField(
            label=f"{key} dice", max_length=40, required=False,
            widget=forms.TextInput(attrs={"class": "form-control dice-input",
                                          "inputmode": "numeric",
                                          "aria-label": f"{name} ({key}) dice, 4D4"}))
        fields[f"guide_{key}"] = number_field(
            f"{key} set by the Guide", min_value=GUIDE_SET_MIN, max_value=GUIDE_SET_MAX,
            required=False)
    for key, (name, mastery) in PROFICIENCIES.items():
        fields[f"proficiency_{key}"] = choice_field(
            name, PROFICIENCY_CHOICES, help_text=f"Mastery: {mastery}" if mastery else "")
    return fields


@functools.cache
def _renown_fields(number: int, in_campaign: bool) -> dict[str, forms.Field]:
    """The pair of selects of Renown `number`: disabled in a campaign."""
    fields = {}
    for who, label in (("company", f"Renown {number}, the Company's"),
                       ("player", f"Renown {number}, yours")):
        field = choice_field(label, RENOWN_CHOICES)
        if in_campaign:
            field.disabled = True
            field.help_text = "Chosen on the campaign's page."
        fields[f"renown_{number}_{who}"] = field
    return fields


@functools.cache
def _item_fields(row: int) -> dict[str, forms.Field]:
    """The ten fields of item line `row` (item_<row>_name, ...)."""
    prefix = f"item_{row}_"
    what = f"item {row + 1}"
    return {
        prefix + "name": forms.CharField(label=f"Name of {what}",
                                         max_length=ITEM_NAME_LENGTH, required=False),
        prefix + "size": choice_field(f"Size of {what}", SIZE_CHOICES),
        prefix + "quantity": number_field(f"Quantity of {what}", min_value=1,
                                          max_value=QUANTITY_MAX, required=False),
        prefix + "location": choice_field(f"Place of {what}", LOCATION_CHOICES),
        prefix + "kind": choice_field(f"Kind of {what}", KIND_CHOICES),
        prefix + "uses": number_field(f"Depletion of {what}", min_value=0,
                                      max_value=USES_MAX, required=False),
        prefix + "uses_max": number_field(f"Full Depletion of {what}", min_value=0,
                                          max_value=USES_MAX, required=False,
                                          widget=forms.HiddenInput),
        prefix + "quality": choice_field(f"Quality of {what}", QUALITY_CHOICES),
        prefix + "blocks": number_field(f"Blocks of {what}", min_value=0,
                                        max_value=USES_MAX, required=False),
        prefix + "magic": number_field(f"Magic bonus of {what}", min_value=0,
                                       max_value=MAGIC_MAX, required=False),
    }


class ErrantForm(forms.Form):
    name = forms.CharField(label="Name", max_length=120, required=False)
    method = forms.ChoiceField(
        label="Attributes", choices=[
            (Method.ROLLED.value, "Rolled: 4D4 each, in order, then at most one swap"),
            (Method.GUIDE.value, "Set by the Guide, with a note of why")],
        widget=forms.RadioSelect,
        error_messages={"required": "Choose rolled or set by the Guide.",
                        "invalid_choice": "Choose rolled or set by the Guide."})
    swap = choice_field("Swap", SWAP_CHOICES,
                        help_text="At most one swap of two scores (ER §Determine Attributes).")
    guide_note = forms.CharField(label="The Guide's note", max_length=NOTE_LENGTH,
                                 required=False,
                                 help_text="Why the Attributes come otherwise (an inheritance, "
                                           "a Guide's ruling).")
    # Where the Renown raises' problems are said (the raises are the selects of each
    # Renown gained, renown_<n>_company and renown_<n>_player).
    renown_raises = forms.CharField(label="Renown raises", required=False,
                                    widget=forms.HiddenInput)
    ancestry = choice_field("Ancestry", [(key, f"{a.name} ({a.examples})")
                                         for key, a in ANCESTRIES.items()], required=True)
    minimum_age = number_field("Minimum starting age", min_value=0, max_value=AGE_MAX,
                               required=False, help_text="Rolled by Ancestry.")
    age = number_field("Age", min_value=0, max_value=AGE_MAX, required=False,
                       help_text="At least the rolled minimum.")
    keepsake = forms.CharField(label="Keepsake", max_length=TEXT_LENGTH, required=False)
    failed_profession = forms.CharField(label="Failed Profession", max_length=TEXT_LENGTH,
                                        required=False)
    archetype = choice_field("Archetype", list(ARCHETYPE_NAMES.items()), required=True)
    kit_choice = choice_field("Archetype's kit", KIT_CHOICES,
                              help_text="What the Archetype starts with besides the common "
                                        "kit (ER §Select Starting Equipment).")
    covenant_alignment = choice_field(
        "Covenant", [("", "No Covenant, or a Neutral one"), ("L", "A Lawful Covenant"),
                     ("C", "A Chaotic Covenant")],
        help_text="A Zealot of a Lawful or Chaotic Covenant starts at L1 or C1.")
    favour_deeds = number_field("Favour from deeds", min_value=0, max_value=DEEDS_MAX,
                                help_text="A Zealot's Favour raised permanently by deeds.")
    alignment = choice_field("Alignment", [("", "The starting Alignment")]
                             + [(a, a) for a in ALIGNMENTS])
    extra_languages = forms.CharField(
        label="Other languages", required=False, max_length=MAX_LINES * 60,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="One per line: one per point of mind above 10.")
    hp_current = number_field("HP now", min_value=0, max_value=HP_MAX, required=False,
                              help_text="Leave blank for full HP.")
    exhaustion = number_field("Exhaustion", min_value=0, max_value=EXHAUSTION_MAX,
                              help_text="Each fills an Item Slot; at phys, death.")
    # Where the Proficiency points' problems are said (the points are the selects below).
    proficiency_points = forms.CharField(label="Proficiency points", required=False,
                                         widget=forms.HiddenInput)
    item_rows = number_field("Item lines", min_value=0, max_value=MAX_ITEMS,
                             widget=forms.HiddenInput)

    def __init__(self, *args, user=None, character=None, items=None, joining=None,
                 **kwargs):
        super().__init__(*args, **kwargs)
        self.user, self.character, self.items, self.joining = user, character, items, joining
        # The fields made per request are made once (below) and copied, as Django copies
        # the declared ones (BaseForm.__init__), in the order the page lays them out.
        self.fields.update(copy.deepcopy(_attribute_fields()))
        # The XP ledger's sum, read once: Renown here, the sheet in clean().
        self.xp = xp_of(character)
        # One pair of selects per Renown gained (from the XP ledger), or per raise stored.
        renown = renown_for_xp(self.xp)
        stored = len(character.renown_raises) if character is not None else 0
        self.renown_numbers = list(range(2, max(renown, stored + 1) + 1))
        # In a campaign the raises are chosen on the campaign's page, the Company's
        # (the Guide's) first and then the player's (campaigns/systems/errant/
        # advancement.py): here they show, disabled, and a save keeps what is stored.
        self.raises_in_campaign = bool(character is not None and character.campaign_id)
        for number in self.renown_numbers:
            self.fields.update(copy.deepcopy(_renown_fields(number, self.raises_in_campaign)))
        source = self.data if self.is_bound else self.initial
        self.row_count = row_count(source.get("item_rows", 0))
        for row in range(self.row_count):
            self.fields.update(copy.deepcopy(_item_fields(row)))
        self.sheet = None
        self.unreadable: list[str] = []

    # -- the groups the template lays out ------------------------------------------------

    def attribute_rows(self):
        rows = []
        for key in ATTRIBUTE_KEYS:
            rows.append({"key": key, "name": ATTRIBUTE_NAMES[key], "dice": self[f"dice_{key}"],
                         "guide": self[f"guide_{key}"]})
        return rows

    def renown_rows(self):
        return [{"renown": number, "company": self[f"renown_{number}_company"],
                 "player": self[f"renown_{number}_player"]} for number in self.renown_numbers]

    def proficiency_fields(self):
        return [self[f"proficiency_{key}"] for key in PROFICIENCIES]

    def item_rows_list(self):
        rows = []
        for row in range(self.row_count):
            fields = {name: self[f"item_{row}_{name}"] for name in ITEM_FIELDS}
            label = (fields["name"].value() or "").strip() or f"item {row + 1}"
            rows.append({"number": row + 1, "label": label, **fields,
                         "hidden_fields": [fields["uses_max"]]})
        return rows

    # -- cleaning -----------------------------------------------------------------------

    @staticmethod
    def _lines(text: str, label: str, max_length: int = 60) -> list[str]:
        lines = [line.strip() for line in (text or "").splitlines() if line.strip()]
        if len(lines) > MAX_LINES:
            raise forms.ValidationError(f"At most {MAX_LINES} {label}, one per line.")
        for number, line in enumerate(lines, start=1):
            if len(line) > max_length:
                raise forms.ValidationError(f"Line {number} is {len(line)} characters; at "
                                            f"most {max_length}.")
        return lines

    def clean_extra_languages(self):
        return self._lines(self.cleaned_data["extra_languages"], "languages")

    def _clean_raises(self) -> list[list[str]]:
        """The raises chosen, Renown 2 first; each needs both Attributes, and a Renown's
        raises come after the one before (ER §Renown)."""
        raises, missing = [], None
        for renown in self.renown_numbers:
            pair = [self.cleaned_data.get(f"renown_{renown}_{who}") or ""
                    for who in ("company", "player")]
            if not any(pair):
                missing = missing or renown
                continue
            for who, value in zip(("company", "player"), pair, strict=True):
                if not value:
                    self.add_error(f"renown_{renown}_{who}",
                                   f"Choose the Company's Attribute raised at Renown {renown}."
                                   if who == "company" else
                                   f"Choose your Attribute raised at Renown {renown}.")
            if missing:
                self.add_error(f"renown_{renown}_company", f"Choose Renown {missing}'s raises "
                                                           "first.")
            if all(pair) and not missing:
                raises.append(pair)
        return raises

    def _clean_dice(self, key: str) -> list[int] | None:
        text = (self.cleaned_data.get(f"dice_{key}") or "").strip()
        if not text:
            self.add_error(f"dice_{key}", f"Roll 4D4 for {key}, or type the four dice: "
                                          f"{DICE_HELP}")
            return None
        try:
            faces = [int(part) for part in DICE_TEXT.split(text) if part]
        except ValueError:
            faces = []
        if len(faces) != DICE_PER_ATTRIBUTE or any(not 1 <= f <= DIE_SIDES for f in faces):
            self.add_error(f"dice_{key}", f"{ATTRIBUTE_NAMES[key]}: {DICE_HELP}")
            return None
        return faces

    def _clean_items(self) -> list[dict]:
        gear = []
        for row in range(self.row_count):
            prefix = f"item_{row}_"
            if any(prefix + name in self.errors for name in ITEM_FIELDS):
                continue
            value = {name: self.cleaned_data.get(prefix + name) for name in ITEM_FIELDS}
            name = (value["name"] or "").strip()
            if not name:
                continue  # a blank line: no item (clearing the name removes one)
            if value["uses"] is not None and value["uses_max"] is not None \
                    and value["uses"] > value["uses_max"]:
                self.add_error(prefix + "uses", f"{name}: Depletion {value['uses']} is above "
                                                f"its full {value['uses_max']}.")
                continue
            gear.append({
                "name": name, "quarters": int(value["size"] or 0),
                "quantity": value["quantity"] or 1,
                "location": value["location"] or "backpack", "kind": value["kind"] or "",
                "uses": value["uses"], "uses_max": value["uses_max"] if value["uses_max"]
                is not None else value["uses"],
                "quality": int(value["quality"]) if value["quality"] not in (None, "") else None,
                "blocks": value["blocks"], "magic": value["magic"] or 0,
            })
        return gear

    def clean(self):
        data = super().clean()
        stored = values_of(self.character) if self.character is not None else {}
        method = data.get("method")
        if method == Method.ROLLED.value:
            dice = [self._clean_dice(key) for key in ATTRIBUTE_KEYS]
            data["dice"] = dice if all(dice) else []
        else:
            data["dice"] = stored.get("dice", [])
            if method == Method.GUIDE.value:
                for key in ATTRIBUTE_KEYS:
                    if data.get(f"guide_{key}") is None and f"guide_{key}" not in self.errors:
                        self.add_error(f"guide_{key}", f"Enter {key} as the Guide set it "
                                       f"({GUIDE_SET_MIN} to {GUIDE_SET_MAX}).")
        swap = data.get("swap") or ""
        data["swap_first"], _, data["swap_second"] = swap.partition("-")
        data["gear"] = self._clean_items()
        data["renown_raises"] = self._clean_raises()
        archetype, kit = data.get("archetype"), data.get("kit_choice")
        if kit and archetype in ARCHETYPE_KITS and kit not in ARCHETYPE_KITS[archetype]:
            choices = ", ".join(KIT_LABELS[k] for k in ARCHETYPE_KITS[archetype])
            self.add_error("kit_choice", f"{ARCHETYPE_NAMES[archetype]} starts with one of: "
                                         f"{choices}.")
        data["proficiencies"] = [[key, int(data[f"proficiency_{key}"])]
                                 for key in PROFICIENCIES if data.get(f"proficiency_{key}")]
        # What the builder does not edit stays as stored.
        data["times_at_zero_hp"] = stored.get("times_at_zero_hp", 0)
        data["trained"] = stored.get("trained", [])  # the campaign's training (roster.py)
        data["wounds"] = stored.get("wounds", [])  # the lasting wounds (the fight's end)
        self.unreadable = [name for name in self.errors if name in self._read_fields()]
        if self.unreadable:
            return data
        self.sheet = compute_sheet(build_from(data, xp=self.xp,
                                              coins=coin_count(coins_of(self.character))))
        for issue in self.sheet.errors:
            target = ISSUE_FIELDS.get(issue.field)
            if issue.field in ATTRIBUTE_KEYS:
                target = f"guide_{issue.field}" if method == Method.GUIDE.value \
                    else f"dice_{issue.field}"
            self.add_error(target, issue.message)
        return data

    def _read_fields(self) -> set[str]:
        names = {"method", "swap", "ancestry", "archetype", "alignment", "age", "minimum_age",
                 "exhaustion", "hp_current", "favour_deeds", "covenant_alignment",
                 "extra_languages", "item_rows",
                 *(f"proficiency_{key}" for key in PROFICIENCIES),
                 *(f"dice_{key}" for key in ATTRIBUTE_KEYS),
                 *(f"guide_{key}" for key in ATTRIBUTE_KEYS)}
        for row in range(self.row_count):
            names.update(f"item_{row}_{name}" for name in ITEM_FIELDS if name != "name")
        return names

    # -- the protocol -------------------------------------------------------------------

    @property
    def cannot_compute(self) -> list[dict]:
        """The fields the numbers are computed from that could not be read, with their
        errors; empty when the numbers show."""
        if not self.is_bound:
            return []
        self.errors  # noqa: B018 -- clean the form (once) to know
        return [{"field": self[name], "errors": self.errors[name]} for name in self.unreadable]

    def preview_sheet(self):
        """The sheet of what is typed (engine problems shown with the numbers), None while
        a field it reads cannot be read (or, for a new Errant, before the dice are rolled);
        unbound: the stored Errant's."""
        if not self.is_bound:
            if self.character is not None:
                return sheet_for(self.character, self.items)
            return None
        self.errors  # noqa: B018 -- clean() computes it
        return self.sheet


def _lines_text(lines) -> str:
    return "\n".join(lines or [])


def item_initial(row: int, line: dict) -> dict:
    prefix = f"item_{row}_"
    return {
        prefix + "name": line.get("name", ""), prefix + "size": str(line.get("quarters", 0)),
        prefix + "quantity": line.get("quantity", 1),
        prefix + "location": line.get("location", "backpack"),
        prefix + "kind": line.get("kind", ""), prefix + "uses": line.get("uses"),
        prefix + "uses_max": line.get("uses_max"),
        prefix + "quality": "" if line.get("quality") is None else str(line["quality"]),
        prefix + "blocks": line.get("blocks"), prefix + "magic": line.get("magic") or 0,
    }


def initial_from_character(character, items) -> dict:
    initial = {field: getattr(character, field) for field in (
        "name", "method", "guide_note", "ancestry", "minimum_age", "age", "keepsake",
        "failed_profession", "archetype", "kit_choice", "covenant_alignment", "favour_deeds",
        "alignment", "hp_current", "exhaustion", *(f"guide_{key}" for key in ATTRIBUTE_KEYS))}
    for key, faces in zip(ATTRIBUTE_KEYS, character.dice or [[]] * 4, strict=False):
        initial[f"dice_{key}"] = " ".join(str(face) for face in faces)
    initial["swap"] = f"{character.swap_first}-{character.swap_second}" \
        if character.swap_first else ""
    for number, (company, player) in enumerate(character.renown_raises, start=2):
        initial[f"renown_{number}_company"], initial[f"renown_{number}_player"] = \
            company, player
    initial["extra_languages"] = _lines_text(character.extra_languages)
    for key, points in character.proficiencies:
        initial[f"proficiency_{key}"] = str(points)
    initial["item_rows"] = len(character.gear)
    for row, line in enumerate(character.gear):
        initial.update(item_initial(row, line))
    return initial


CHECK_DV_MIN, CHECK_DV_MAX = -20, 40
JETTONS_MAX = 99


class CheckOddsForm(forms.Form):
    """A Check from the sheet (CR §Checks): which Attribute, the DV the Guide set, and what
    the sheet adds or takes away; the odds are exact (checks.p_success)."""

    attribute = choice_field("Attribute", [(key, f"{key} ({ATTRIBUTE_NAMES[key]})")
                                           for key in ATTRIBUTE_KEYS], required=True)
    dv = number_field("DV", min_value=CHECK_DV_MIN, max_value=CHECK_DV_MAX,
                      help_text="As the Guide sets it (a Saving Throw: the Renown or Threat "
                                "of its cause).")
    physical = forms.BooleanField(label="Physical (climbing, sneaking, swimming) or "
                                        "stabilise: + Encumbrance", required=False)
    backpack_off = forms.BooleanField(label="Backpack off", required=False)
    saving_throw = forms.BooleanField(label="Saving Throw", required=False)
    expertise = forms.BooleanField(label="Expertise (a Deviant's Proficiency: -2)",
                                   required=False)
    jettons = number_field("Jettons spent", min_value=0, max_value=JETTONS_MAX,
                           required=False, help_text="-1 DV each (a Deviant).")

    def __init__(self, *args, sheet=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.sheet = sheet

    def clean(self):
        data = super().clean()
        owned = self.sheet.value("jettons") if self.sheet is not None and \
            "jettons" in self.sheet.stats else 0
        if (data.get("jettons") or 0) > owned:
            self.add_error("jettons", f"Jettons spent: at most the {owned} owned.")
        return data
