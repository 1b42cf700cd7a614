"""The METTLE Core builder form (the protocol of rules.systems.GameSystem.form_class).

Field limits keep input sane and say what a valid value looks like; the rules (the Array,
the Freestyle budget and its half-budget cap, Backstories, Contacts, Mettle) are the
engine's, whose problems are reported beside the field they are about. Nothing typed is
lost: a refused form comes back with every value as typed."""

from __future__ import annotations

import re

from django import forms

from rules.engine.mettle import compute_sheet
from rules.engine.mettle.attributes import ARRAY, FREESTYLE_BUDGET, POOL_MAX, POOL_MIN, Method
from rules.engine.mettle.data import ARMOR, ATTRIBUTE_KEYS, ATTRIBUTE_NAMES, WEAPONS
from rules.engine.mettle.sheet import DEFAULT_CREDIT
from rules.engine.mettle.statuses import LASTING_STATUSES, STATUS_EFFECTS, status_label

from .builds import TABLE_LOADS, build_from, sheet_for, table_name, values_of, xp_earned
from .campaign_settings import freestyle_budget
from .inventory import legacy_gear, lines_of, preview_items
from .models import (
    BUDGET_MAX,
    BUDGET_MIN,
    CREDIT_MAX,
    CREDIT_MIN,
    DESCRIPTOR_LENGTH,
    METTLE_MAX,
    METTLE_MIN,
)

WEAPON_ROWS = 4  # the builder's weapon lines
MAX_LINES = 20  # Backstories, Contacts
# Gear lines (the inventory's, which the inventory page may add to): a sanity bound.
GEAR_LINES = 200
LINE_LENGTH = 200
GEAR_NAME_LENGTH = 120
QUANTITY_MAX = 999
LOAD_MAX = 99
LOCKS = ("lock_appearance", "lock_background", "lock_descriptors",
         *(f"lock_{key}" for key in ATTRIBUTE_KEYS))
# Where an engine Issue's field shows on the form ("attributes": the pools together).
ISSUE_FIELDS = {"attributes": "method", "items": "armor", "budget": "budget",
                "backstories": "backstories", "contacts": "contacts", "credit": "credit",
                "mettle_current": "mettle_current", "statuses": "statuses",
                **{key: key for key in ATTRIBUTE_KEYS}}
# "2 x Torch (Load 1)": an optional quantity, the name, an optional Load of one.
GEAR_LINE = re.compile(r"^(?:(?P<quantity>\d+)\s*[x×]\s+)?(?P<name>.*?)"
                       r"(?:\s*\(\s*load\s+(?P<load>-?\d+)\s*\))?$", re.IGNORECASE)

NEW_CHARACTER_INITIAL = {
    "method": Method.ARRAY.value, "budget": FREESTYLE_BUDGET, "credit": DEFAULT_CREDIT,
    **dict(zip(ATTRIBUTE_KEYS, ARRAY, strict=True)),
}


def number_field(label, *, min_value, max_value, required=True, help_text=""):
    """An integer field whose messages say what a valid value looks like."""
    what = f"{label} is a whole number from {min_value} to {max_value}."
    return forms.IntegerField(
        label=label, min_value=min_value, max_value=max_value, required=required,
        help_text=help_text,
        error_messages={"required": f"Enter {label}.", "invalid": what,
                        "min_value": what, "max_value": what},
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


def lines_field(label, *, help_text, rows=3, most=MAX_LINES):
    return forms.CharField(label=label, required=False, help_text=help_text,
                           max_length=most * (LINE_LENGTH + 2),
                           widget=forms.Textarea(attrs={"rows": rows}))


def armor_label(armor) -> str:
    extra = ", bulletproof" if armor.bulletproof else ""
    return f"{armor.name}: Soak +{armor.soak}, Load {armor.load}, cost {armor.cost}{extra}"


def weapon_label(weapon) -> str:
    specials = f", {', '.join(weapon.specials)}" if weapon.specials else ""
    cost = f", cost {weapon.cost}" if weapon.cost is not None else ""
    return (f"{weapon.name}: Hit +{weapon.hit}D, DM {weapon.dm_text}, Load {weapon.load}"
            f"{cost}{specials}")


ARMOR_CHOICES = [("", "No armour"), *((armor.name, armor_label(armor)) for armor in ARMOR)]
WEAPON_CHOICES = [("", "No weapon"),
                  *((weapon.name, weapon_label(weapon)) for weapon in WEAPONS)]


class MettleForm(forms.Form):
    # The names a gear line may take from the tables, with their Load.
    table_items = tuple(f"{name} (Load {load})" for name, load in TABLE_LOADS.items())
    name = forms.CharField(label="Name", max_length=120, required=False)
    appearance = forms.CharField(label="Appearance", max_length=200, required=False,
                                 help_text="What others notice first (d66 Appearance seeds).")
    background = forms.CharField(label="Background", max_length=300, required=False,
                                 help_text="Where they come from (d66 Background seeds).")
    method = forms.ChoiceField(
        label="Method", choices=[(m.value, label) for m, label in (
            (Method.ARRAY, "Array: exactly 5, 4, 3, 3, 2 in any order"),
            (Method.FREESTYLE, "Freestyle: spend a budget; the highest costs double"))],
        widget=forms.RadioSelect,
        error_messages={"required": "Choose Array or Freestyle.",
                        "invalid_choice": "Choose Array or Freestyle."})
    budget = number_field("Freestyle budget", min_value=BUDGET_MIN, max_value=BUDGET_MAX,
                          help_text=f"{FREESTYLE_BUDGET} by default; no Attribute may cost "
                                    "more than half of it.")
    backstories = lines_field(
        "Backstories", help_text="One per line, at most your highest Attribute; one names "
                                 "your native land and language: \"Raised in Kyiv "
                                 "(Ukrainian)\". You may leave some open.")
    credit = number_field("Credit", min_value=CREDIT_MIN, max_value=CREDIT_MAX,
                          help_text="Usually 2 or 3: prices of up to that many digits.")
    contacts = lines_field("Contacts", help_text="One per line, at most your Credit.", rows=2)
    mettle_current = number_field(
        "Current Mettle", min_value=METTLE_MIN, max_value=METTLE_MAX, required=False,
        help_text="Leave blank for full Mettle.")
    statuses = forms.MultipleChoiceField(
        label="Statuses", required=False,
        widget=forms.CheckboxSelectMultiple(attrs={"class": "form-check-input"}),
        choices=[(key, f"{status_label(key)}: {STATUS_EFFECTS[key]}")
                 for key in LASTING_STATUSES],
        help_text="What lasts beyond a Scene; untick it when it ends (cured, extinguished). "
                  "Fallen and Encumbered follow from Mettle and Load.",
        error_messages={"invalid_choice": "Choose statuses from the list.",
                        "invalid_list": "Choose statuses from the list."})
    armor = forms.ChoiceField(label="Armour", choices=ARMOR_CHOICES, required=False,
                              error_messages={"invalid_choice":
                                              "Choose an armour of the table, or none."})
    gear = lines_field(
        "Gear", rows=4, most=GEAR_LINES,
        help_text="One per line, as \"2 x Name (Load 1)\". A name from the Resources tables "
                  "(Common loads, Medicine, Standard kits, Vehicles, Mounts) takes its Load; "
                  "anything else is yours, Load 0 unless you say.")

    def __init__(self, *args, user=None, character=None, items=None, joining=None,
                 **kwargs):
        super().__init__(*args, **kwargs)
        self.user, self.character, self.items, self.joining = user, character, items, joining
        for key in ATTRIBUTE_KEYS:
            name = ATTRIBUTE_NAMES[key]
            self.fields[key] = number_field(name, min_value=POOL_MIN, max_value=POOL_MAX)
            self.fields[key].widget.attrs["class"] = "form-control pool-input"
            self.fields[f"{key}_descriptor"] = forms.CharField(
                label=f"{name} Descriptor", max_length=DESCRIPTOR_LENGTH, required=False)
        for row in range(1, WEAPON_ROWS + 1):
            self.fields[f"weapon_{row}"] = forms.ChoiceField(
                label=f"Weapon {row}", choices=WEAPON_CHOICES, required=False,
                widget=forms.Select(attrs={"aria-label": f"Weapon {row}",
                                           "class": "form-select"}),
                error_messages={"invalid_choice": "Choose a weapon of the table, or none."})
            self.fields[f"weapon_{row}_name"] = forms.CharField(
                label=f"Weapon {row} name", max_length=80, required=False)
            self.fields[f"weapon_{row}_concept"] = forms.BooleanField(
                label="CONCEPT covers it", required=False)
        for lock in LOCKS:
            self.fields[lock] = forms.BooleanField(label="Keep", required=False)
        self.sheet = None
        self.unreadable: list[str] = []
        # Built for a campaign: Freestyle starts at, and may not exceed, its budget
        # (AMB-M-BUD-1).
        self.budget_cap = (freestyle_budget(joining)
                           if joining is not None and character is None else None)
        if self.budget_cap is not None:
            self.initial["budget"] = self.budget_cap
            self.fields["budget"].help_text = (
                f"{joining.name}'s budget is {self.budget_cap}; no Attribute may cost more "
                "than half of it.")

    # -- the groups the template lays out ------------------------------------------------

    def attribute_rows(self):
        return [{"key": key, "pool": self[key], "descriptor": self[f"{key}_descriptor"],
                 "lock": self[f"lock_{key}"]} for key in ATTRIBUTE_KEYS]

    def weapon_rows(self):
        return [{"weapon": self[f"weapon_{row}"], "name": self[f"weapon_{row}_name"],
                 "concept": self[f"weapon_{row}_concept"]} for row in range(1, WEAPON_ROWS + 1)]

    # -- cleaning -----------------------------------------------------------------------

    @staticmethod
    def _lines(text: str, label: str, max_length: int = LINE_LENGTH,
               most: int = MAX_LINES) -> list[str]:
        lines = [line.strip() for line in (text or "").splitlines() if line.strip()]
        if len(lines) > most:
            raise forms.ValidationError(f"At most {most} {label}, one per line.")
        for number, line in enumerate(lines, start=1):
            if len(line) > max_length:
                raise forms.ValidationError(f"Line {number} is {len(line)} characters; at "
                                            f"most {max_length}.")
        return lines

    def clean_backstories(self):
        return self._lines(self.cleaned_data["backstories"], "Backstories")

    def clean_contacts(self):
        return self._lines(self.cleaned_data["contacts"], "Contacts", 120)

    def clean_gear(self):
        gear, problems = [], []
        typed = self._lines(self.cleaned_data["gear"], "gear lines", most=GEAR_LINES)
        for number, line in enumerate(typed, 1):
            match = GEAR_LINE.match(line)
            name = match["name"].strip() if match else ""
            quantity = int(match["quantity"]) if match and match["quantity"] else 1
            load = int(match["load"]) if match and match["load"] is not None else None
            if not name:
                problems.append(f"Line {number} (\"{line}\") names nothing.")
            elif len(name) > GEAR_NAME_LENGTH:
                problems.append(f"Line {number}: a name of at most {GEAR_NAME_LENGTH} "
                                "characters.")
            elif not 1 <= quantity <= QUANTITY_MAX:
                problems.append(f"Line {number} (\"{line}\"): the quantity is a whole number "
                                f"from 1 to {QUANTITY_MAX}.")
            elif load is not None and not 0 <= load <= LOAD_MAX:
                problems.append(f"Line {number} (\"{line}\"): Load is a whole number from 0 "
                                f"to {LOAD_MAX}.")
            else:
                gear.append({"name": table_name(name) or name, "load": load,
                             "quantity": quantity})
        if problems:
            raise forms.ValidationError(problems)
        return gear

    def _clean_weapons(self) -> list[dict]:
        weapons = []
        for row in range(1, WEAPON_ROWS + 1):
            key = f"weapon_{row}"
            weapon = self.cleaned_data.get(key)
            name = (self.cleaned_data.get(f"{key}_name") or "").strip()
            if key in self.errors:
                continue
            if weapon:
                weapons.append({"name": name or weapon, "weapon": weapon,
                                "concept": bool(self.cleaned_data.get(f"{key}_concept"))})
            elif name:
                self.add_error(key, f"Choose the weapon of the table \"{name}\" is: its Hit "
                                    "and DM come from it.")
        if self.character is not None:
            # Weapons bought beyond the builder's rows (the inventory page) stay as they are.
            weapons += legacy_gear(lines_of(self.character))["weapons"][WEAPON_ROWS:]
        return weapons

    def clean(self):
        data = super().clean()
        data["weapons"] = self._clean_weapons()
        if data.get("method") == Method.ARRAY.value and "budget" in self.errors:
            # The budget is Freestyle's alone: an Array build keeps it as it was.
            del self.errors["budget"]
            data["budget"] = (self.character.budget if self.character
                              else self.budget_cap or FREESTYLE_BUDGET)
        if (self.budget_cap is not None and data.get("method") == Method.FREESTYLE.value
                and (data.get("budget") or 0) > self.budget_cap):
            self.add_error("budget", f"{self.joining.name}'s Freestyle budget is "
                                     f"{self.budget_cap}: spend at most that.")
        self.unreadable = [name for name in self.errors if name in self._read_fields()]
        stored = values_of(self.character) if self.character is not None else {}
        data["raises"] = stored.get("raises", [])
        data["credit_lost"] = stored.get("credit_lost", 0)
        # The Guide's to write (the Hazards card): shown, never written by the builder.
        data["mettle_max_lost"] = stored.get("mettle_max_lost", 0)
        if self.unreadable:
            return data
        earned = xp_earned(self.character) if self.character is not None else 0
        values = data
        if self.character is not None:  # its lines as the save would leave them
            values = {**data, "items": preview_items(
                self.character, armor=data.get("armor") or "", weapons=data["weapons"],
                gear=data.get("gear") or [])}
        self.sheet = compute_sheet(build_from(values, xp_earned=earned))
        for issue in self.sheet.errors:
            self.add_error(ISSUE_FIELDS.get(issue.field), issue.message)
        return data

    @staticmethod
    def _read_fields() -> set[str]:
        return {"method", "budget", "credit", "mettle_current", "statuses", "armor", "gear",
                "backstories", "contacts", *ATTRIBUTE_KEYS,
                *(f"weapon_{row}" for row in range(1, WEAPON_ROWS + 1))}

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
        a field it reads cannot be read; unbound: the stored character's, or a new
        character's from the initial data."""
        if not self.is_bound:
            if self.character is not None:
                return sheet_for(self.character, self.items)
            return compute_sheet(build_from(initial_values(self.initial)))
        self.errors  # noqa: B018 -- clean() computes it
        return self.sheet


def initial_values(initial: dict) -> dict:
    """A new character's initial data as build values."""
    return {**NEW_CHARACTER_INITIAL, **initial}


def _lines_text(lines) -> str:
    return "\n".join(lines or [])


def gear_text(gear) -> str:
    def line(entry):
        quantity = entry.get("quantity") or 1
        text = f"{quantity} x {entry['name']}" if quantity != 1 else entry["name"]
        if entry.get("load") is not None:
            text += f" (Load {entry['load']})"
        return text
    return "\n".join(line(entry) for entry in gear or [])


def initial_from_character(character, items) -> dict:
    initial = {field: getattr(character, field) for field in (
        "name", "appearance", "background", "method", "budget", "credit", "mettle_current",
        *ATTRIBUTE_KEYS, *(f"{key}_descriptor" for key in ATTRIBUTE_KEYS))}
    gear = legacy_gear(lines_of(character))
    initial["armor"] = gear["armor"]
    initial["statuses"] = list(character.statuses or [])
    initial["backstories"] = _lines_text(character.backstories)
    initial["contacts"] = _lines_text(character.contacts)
    initial["gear"] = gear_text(gear["gear"])
    for row, weapon in enumerate(gear["weapons"][:WEAPON_ROWS], start=1):
        initial[f"weapon_{row}"] = weapon["weapon"]
        initial[f"weapon_{row}_name"] = weapon.get("name", "")
        initial[f"weapon_{row}_concept"] = bool(weapon.get("concept"))
    return initial
