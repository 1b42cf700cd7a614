"""The Errant builder's page parts besides the form: the character list's line and the
builder's helpers, each roll shown with its dice: 4D4 for each Attribute in order (ER
§Determine Attributes), the minimum starting age by Ancestry (ER §Choose Ancestry), the
d100 Keepsake and Failed Profession (ER §Keepsakes, §Failed Professions), and the starting
kit in one step (ER §Select Starting Equipment)."""

from __future__ import annotations

import random

from rules.engine.errant.attributes import Method, roll_d100, roll_dice, roll_minimum_age
from rules.engine.errant.data import (
    ANCESTRIES,
    ARCHETYPE_KITS,
    ARCHETYPE_NAMES,
    ATTRIBUTE_KEYS,
    ATTRIBUTE_NAMES,
    STARTING_SUPPLY,
    failed_professions,
    keepsakes,
)

from .builds import kit_lines
from .forms import ITEM_FIELDS, KIT_LABELS, MAX_ITEMS, item_initial, row_count

ROLL_ATTRIBUTES = "roll_attributes"
ROLL_AGE = "roll_age"
ROLL_KEEPSAKE = "roll_keepsake"
ROLL_PROFESSION = "roll_profession"
TAKE_KIT = "take_kit"
ADD_ITEM = "add_item"
ROLL_ACTIONS = frozenset({ROLL_ATTRIBUTES, ROLL_AGE, ROLL_KEEPSAKE, ROLL_PROFESSION,
                          TAKE_KIT, ADD_ITEM})


def summary(character) -> str:
    """The character list's line: the Archetype and Ancestry."""
    archetype = ARCHETYPE_NAMES.get(character.archetype, character.archetype)
    ancestry = ANCESTRIES[character.ancestry].name if character.ancestry in ANCESTRIES else ""
    return f"{archetype}, {ancestry}".strip(", ")


def _roll_attributes(data, rng: random.Random) -> list[dict]:
    rolls = []
    for key, faces in zip(ATTRIBUTE_KEYS, roll_dice(rng), strict=True):
        data[f"dice_{key}"] = " ".join(map(str, faces))
        rolls.append({"label": f"{ATTRIBUTE_NAMES[key]} ({key}), 4D4", "dice": list(faces),
                      "total": str(sum(faces)), "result": f"{key} {sum(faces)}"})
    data["method"] = Method.ROLLED.value
    data["swap"] = ""  # a new roll, a new choice of swap
    return rolls


def _roll_age(data, rng: random.Random) -> list[dict]:
    ancestry = data.get("ancestry")
    if ancestry not in ANCESTRIES:
        return [{"label": "Minimum starting age", "dice": [], "total": "",
                 "result": "Choose an Ancestry first."}]
    a = ANCESTRIES[ancestry]
    dice, minimum = roll_minimum_age(ancestry, rng)
    data["minimum_age"] = str(minimum)
    try:
        age = int(data.get("age") or "")
    except ValueError:
        age = None
    if age is None or age < minimum:
        data["age"] = str(minimum)
    return [{"label": f"Minimum starting age, {a.name} ({a.age_dice}D{a.age_sides}+"
                      f"{a.age_bonus})", "dice": list(dice), "total": str(minimum),
             "result": f"at least {minimum} years old"}]


def _roll_table(data, rng, field: str, label: str, table) -> list[dict]:
    roll, entry = roll_d100(rng, table)
    data[field] = entry
    return [{"label": f"{label} (d100)", "dice": [roll], "total": "", "result": entry}]


def _take_kit(data) -> list[dict]:
    archetype = data.get("archetype")
    if archetype not in ARCHETYPE_KITS:
        return [{"label": "Starting kit", "dice": [], "total": "",
                 "result": "Choose an Archetype first."}]
    kits = ARCHETYPE_KITS[archetype]
    choice = data.get("kit_choice")
    note = ""
    if choice not in kits:
        choice = next(iter(kits))
        data["kit_choice"] = choice
        note = f" (the kit choice was not {ARCHETYPE_NAMES[archetype]}'s: {KIT_LABELS[choice]} " \
               "taken; change it and take the kit again)"
    lines = kit_lines(archetype, choice)[:MAX_ITEMS]
    for row in range(row_count(data.get("item_rows"))):
        for name in ITEM_FIELDS:
            data.pop(f"item_{row}_{name}", None)
    for row, line in enumerate(lines):
        for key, value in item_initial(row, line).items():
            data[key] = "" if value is None else str(value)
    data["item_rows"] = str(len(lines))
    return [{"label": "Starting kit", "dice": [], "total": "",
             "result": f"the common kit with {STARTING_SUPPLY} Supply, and {KIT_LABELS[choice]}: "
                       f"{len(lines)} lines{note}"}]


def _add_item(data) -> list[dict]:
    rows = row_count(data.get("item_rows"))
    if rows >= MAX_ITEMS:
        return [{"label": "Item lines", "dice": [], "total": "",
                 "result": f"At most {MAX_ITEMS} lines."}]
    for key, value in item_initial(rows, {"name": ""}).items():
        data[key] = "" if value is None else str(value)
    data[f"item_{rows}_size"] = "4"
    data["item_rows"] = str(rows + 1)
    return []


def builder_roll(action: str, data, *, rng: random.Random, character=None,
                 joining=None) -> list[dict]:
    """Do what `action` asks, writing the results into `data`; the rolls to show, with
    their dice."""
    if action == ROLL_ATTRIBUTES:
        return _roll_attributes(data, rng)
    if action == ROLL_AGE:
        return _roll_age(data, rng)
    if action == ROLL_KEEPSAKE:
        return _roll_table(data, rng, "keepsake", "Keepsake", keepsakes())
    if action == ROLL_PROFESSION:
        return _roll_table(data, rng, "failed_profession", "Failed Profession",
                           failed_professions())
    if action == TAKE_KIT:
        return _take_kit(data)
    if action == ADD_ITEM:
        return _add_item(data)
    return []
