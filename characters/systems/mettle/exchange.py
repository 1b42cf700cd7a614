"""The body of a METTLE Core character's file (characters/exchange.py is the envelope):
`"format": "mettle-core-character"`, version 1 (README.md, "Exchange format").

Export writes the player's choices, the XP the ledger holds, and `derived`: every number
of the sheet keyed by its `data-stat` name, with each weapon's attack pool and damage.
Import reads the choices only (the derived numbers are recomputed, never trusted), checks
every key as untrusted input and the build by the engine's rules, and writes everything
in one transaction or nothing."""

from __future__ import annotations

from django.db import transaction

from characters.exchange import Problems, what
from characters.models import XpEntry
from rules.engine.mettle import compute_sheet
from rules.engine.mettle.attributes import POOL_MAX, POOL_MIN, Method
from rules.engine.mettle.data import ATTRIBUTE_KEYS, WEAPON_BY_NAME
from rules.engine.mettle.statuses import LASTING_STATUSES

from . import services
from .builds import build_from, sheet_for, xp_earned
from .forms import (
    GEAR_LINES,
    GEAR_NAME_LENGTH,
    LINE_LENGTH,
    LOAD_MAX,
    MAX_LINES,
    QUANTITY_MAX,
)
from .inventory import legacy_gear, lines_of
from .models import (
    ARMOR_NAMES,
    BUDGET_MAX,
    BUDGET_MIN,
    CREDIT_MAX,
    CREDIT_MIN,
    DESCRIPTOR_LENGTH,
    METTLE_MAX,
    METTLE_MIN,
)

FORMAT = "mettle-core-character"
IMPORT_NOTE = "Imported from a file"
XP_MAX = 100_000
TOP_KEYS = frozenset({
    "name", "appearance", "background", "method", "budget", "attributes", "raises",
    "backstories", "contacts", "credit", "credit_lost", "mettle_current", "mettle_max_lost",
    "statuses", "armor", "weapons", "gear", "xp", "derived",
})
WEAPON_KEYS = frozenset({"name", "weapon", "concept", "pool", "damage"})
GEAR_KEYS = frozenset({"name", "load", "quantity"})
ATTRIBUTE_ENTRY_KEYS = frozenset({"pool", "descriptor"})
# Where the engine's problems are reported in the file.
ISSUE_KEYS = {"items": "armor", "raises": "raises", **{key: f"attributes.{key}"
                                                       for key in ATTRIBUTE_KEYS}}


def export_body(character) -> dict:
    items = lines_of(character)
    gear = legacy_gear(items)
    sheet = sheet_for(character, items)
    lines = iter(sheet.weapons)
    weapons = []
    for weapon in gear["weapons"]:
        line = next(lines)
        weapons.append({"name": weapon.get("name") or weapon["weapon"],
                        "weapon": weapon["weapon"], "concept": bool(weapon.get("concept")),
                        "pool": line.pool, "damage": line.dm})
    return {
        "name": character.name,
        "appearance": character.appearance,
        "background": character.background,
        "method": character.method,
        "budget": character.budget,
        "attributes": {key: {"pool": getattr(character, key),
                             "descriptor": getattr(character, f"{key}_descriptor")}
                       for key in ATTRIBUTE_KEYS},
        "raises": list(character.raises),
        "backstories": list(character.backstories),
        "contacts": list(character.contacts),
        "credit": character.credit,
        "credit_lost": character.credit_lost,
        "mettle_current": character.mettle_current,
        # Scenery > Affliction: the max Mettle Afflictions have taken (AMB-M-AFF-5).
        "mettle_max_lost": character.mettle_max_lost,
        "statuses": [key for key in LASTING_STATUSES if key in (character.statuses or ())],
        "armor": gear["armor"] or None,
        "weapons": weapons,
        "gear": [{"name": g["name"], "load": g.get("load"), "quantity": g.get("quantity", 1)}
                 for g in gear["gear"]],
        "xp": xp_earned(character),  # earned: the raises above are paid from it
        "derived": sheet.derived(),
    }


def _text_list(problems: Problems, data: dict, key: str, max_length: int) -> list[str]:
    value = data.get(key, [])
    if not isinstance(value, list) or len(value) > MAX_LINES:
        problems.add(key, f"expected a list of at most {MAX_LINES} texts, got {what(value)}.")
        return []
    texts = []
    for index, text in enumerate(value):
        texts.append(problems.text({"t": text}, "t", f"{key}[{index}]", max_length))
    return [text for text in texts if text]


def _list_of_objects(problems: Problems, data: dict, key: str, most: int) -> list[dict]:
    value = data.get(key, [])
    if not isinstance(value, list) or len(value) > most:
        problems.add(key, f"expected a list of at most {most} objects, got {what(value)}.")
        return []
    good = []
    for index, entry in enumerate(value):
        if isinstance(entry, dict):
            good.append((index, entry))
        else:
            problems.add(f"{key}[{index}]", f"expected an object, got {what(entry)}.")
    return good


def read_body(data: dict) -> tuple[dict, int, Problems]:
    """The builder's values from a body, the XP, and every problem found."""
    problems = Problems()
    problems.unknown_keys(data, TOP_KEYS, "")
    values: dict = {
        "name": problems.text(data, "name", "name", 120),
        "appearance": problems.text(data, "appearance", "appearance", 200),
        "background": problems.text(data, "background", "background", 300),
        "method": problems.choice(data, "method", "method", [m.value for m in Method],
                                  Method.ARRAY.value),
        "budget": problems.integer(data, "budget", "budget", BUDGET_MIN, BUDGET_MAX,
                                   default=22),
        "credit": problems.integer(data, "credit", "credit", CREDIT_MIN, CREDIT_MAX,
                                   default=2),
        "credit_lost": problems.integer(data, "credit_lost", "credit_lost", 0, CREDIT_MAX,
                                        default=0),
        "mettle_current": problems.integer(data, "mettle_current", "mettle_current",
                                           METTLE_MIN, METTLE_MAX, default=None,
                                           nullable=True),
        # A file without it (older exports) has lost none.
        "mettle_max_lost": problems.integer(data, "mettle_max_lost", "mettle_max_lost", 0,
                                            METTLE_MAX, default=0),
        "backstories": _text_list(problems, data, "backstories", LINE_LENGTH),
        "contacts": _text_list(problems, data, "contacts", 120),
    }
    attributes = data.get("attributes")
    if not isinstance(attributes, dict):
        problems.add("attributes", f"expected an object of the five Attributes, got "
                                   f"{what(attributes)}.", code="missing" if attributes is None
                     else "invalid")
        attributes = {}
    else:
        problems.unknown_keys(attributes, frozenset(ATTRIBUTE_KEYS), "attributes")
    for key in ATTRIBUTE_KEYS:
        entry = attributes.get(key, {})
        path = f"attributes.{key}"
        if not isinstance(entry, dict):
            problems.add(path, f"expected an object with pool and descriptor, got {what(entry)}.")
            entry = {}
        problems.unknown_keys(entry, ATTRIBUTE_ENTRY_KEYS, path)
        values[key] = problems.integer(entry, "pool", f"{path}.pool", POOL_MIN, POOL_MAX)
        values[f"{key}_descriptor"] = problems.text(entry, "descriptor", f"{path}.descriptor",
                                                    DESCRIPTOR_LENGTH)
    raises = data.get("raises", [])
    if not isinstance(raises, list) or len(raises) > 100 or any(
            key not in ATTRIBUTE_KEYS for key in raises):
        problems.add("raises", "expected a list of Attribute keys ("
                     + ", ".join(ATTRIBUTE_KEYS) + f"), got {what(raises)}.")
        raises = []
    values["raises"] = list(raises)
    # The lasting statuses (AMB-M-STAT-1); a file without them has none.
    statuses = data.get("statuses", [])
    if not isinstance(statuses, list) or len(statuses) > len(LASTING_STATUSES) or any(
            key not in LASTING_STATUSES for key in statuses):
        problems.add("statuses", "expected a list of statuses ("
                     + ", ".join(LASTING_STATUSES) + f"), got {what(statuses)}.")
        statuses = []
    values["statuses"] = [key for key in LASTING_STATUSES if key in statuses]
    armor = data.get("armor")
    if armor is not None and armor not in ARMOR_NAMES:
        problems.add("armor", f"expected null or an armour of the table, got {what(armor)}.")
        armor = None
    values["armor"] = armor or ""
    values["weapons"] = []
    # More weapons than the builder's rows may be bought on the inventory page.
    for index, entry in _list_of_objects(problems, data, "weapons", MAX_LINES):
        path = f"weapons[{index}]"
        problems.unknown_keys(entry, WEAPON_KEYS, path)
        weapon = entry.get("weapon")
        if weapon not in WEAPON_BY_NAME:
            problems.add(f"{path}.weapon", f"expected a weapon of the table, got {what(weapon)}.")
            continue
        values["weapons"].append({
            "name": problems.text(entry, "name", f"{path}.name", 80) or weapon,
            "weapon": weapon, "concept": problems.boolean(entry, "concept", f"{path}.concept"),
        })
    values["gear"] = []
    for index, entry in _list_of_objects(problems, data, "gear", GEAR_LINES):
        path = f"gear[{index}]"
        problems.unknown_keys(entry, GEAR_KEYS, path)
        values["gear"].append({
            "name": problems.text(entry, "name", f"{path}.name", GEAR_NAME_LENGTH,
                                  required=True),
            "load": problems.integer(entry, "load", f"{path}.load", 0, LOAD_MAX, default=None,
                                     nullable=True),
            "quantity": problems.integer(entry, "quantity", f"{path}.quantity", 1,
                                         QUANTITY_MAX, default=1),
        })
    xp = problems.integer(data, "xp", "xp", 0, XP_MAX, default=0)
    if data.get("derived", {}) is not None and not isinstance(data.get("derived", {}), dict):
        problems.add("derived", f"expected an object, got {what(data['derived'])}.")
    if not problems:
        sheet = compute_sheet(build_from(values, xp_earned=xp))
        for issue in sheet.errors:
            problems.add(ISSUE_KEYS.get(issue.field, issue.field), issue.message, code=issue.code)
    return values, xp, problems


class Exchange:
    format = FORMAT
    version = 1

    def export_body(self, character) -> dict:
        return export_body(character)

    @transaction.atomic
    def import_body(self, *, owner, data: dict, version: int):
        values, xp, problems = read_body(data)
        if problems:
            raise problems.error()
        character = services.character_create(owner=owner, data=values,
                                              raises=values["raises"],
                                              credit_lost=values["credit_lost"],
                                              mettle_max_lost=values["mettle_max_lost"])
        if xp:
            XpEntry.objects.create(character=character, kind=XpEntry.Kind.IMPORT,
                                   xp_change=xp, created_by=owner, note=IMPORT_NOTE)
        return character


EXCHANGE = Exchange()
