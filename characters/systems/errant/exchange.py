"""The body of an Errant's file (characters/exchange.py is the envelope):
`"format": "errant-character"`, version 1 (README.md, "Exchange format").

Export writes the player's choices (the dice rolled and the swap, or the Guide's scores
with the note; the items with their places and sizes in quarter slots), the XP the ledger
holds, and `derived`: every number of the sheet keyed by its `data-stat` name. Import reads
the choices only (the derived numbers are recomputed, never trusted), checks every key as
untrusted input and the build by the engine's rules, and writes everything in one
transaction or nothing."""

from __future__ import annotations

from django.db import transaction

from characters.exchange import Problems, is_int, what
from characters.models import XpEntry
from rules.engine.errant import compute_sheet
from rules.engine.errant.attributes import GUIDE_SET_MAX, GUIDE_SET_MIN, Method
from rules.engine.errant.data import (
    ALIGNMENTS,
    ANCESTRIES,
    ARCHETYPE_KEYS,
    ATTRIBUTE_KEYS,
    PROFICIENCIES,
)

from . import services
from .builds import build_from, sheet_for
from .forms import (
    ITEM_NAME_LENGTH,
    KIND_CHOICES,
    LOCATION_CHOICES,
    MAGIC_MAX,
    MAX_ITEMS,
    MAX_LINES,
    QUANTITY_MAX,
    SIZE_QUARTERS,
    USES_MAX,
)
from .models import AGE_MAX, DEEDS_MAX, EXHAUSTION_MAX, HP_MAX, NOTE_LENGTH, TEXT_LENGTH

FORMAT = "errant-character"
IMPORT_NOTE = "Imported from a file"
XP_MAX = 10_000_000
TOP_KEYS = frozenset({
    "name", "method", "dice", "swap", "guide_attributes", "guide_note", "renown_raises",
    "ancestry", "minimum_age", "age", "keepsake", "failed_profession", "archetype",
    "kit_choice", "proficiencies", "covenant_alignment", "favour_deeds", "extra_languages",
    "alignment", "hp_current", "exhaustion", "times_at_zero_hp", "items", "xp", "derived",
})
ITEM_KEYS = frozenset({"name", "quarters", "quantity", "location", "kind", "uses",
                       "uses_max", "quality", "blocks", "magic"})
LOCATIONS = [value for value, _ in LOCATION_CHOICES]
KINDS = [value for value, _ in KIND_CHOICES]


def export_body(character) -> dict:
    sheet = sheet_for(character)
    return {
        "name": character.name,
        "method": character.method,
        "dice": [list(faces) for faces in character.dice],
        "swap": list(character.swap) if character.swap else None,
        "guide_attributes": {key: getattr(character, f"guide_{key}") for key in ATTRIBUTE_KEYS}
        if character.method == Method.GUIDE.value else None,
        "guide_note": character.guide_note,
        "renown_raises": [list(pair) for pair in character.renown_raises],
        "ancestry": character.ancestry,
        "minimum_age": character.minimum_age,
        "age": character.age,
        "keepsake": character.keepsake,
        "failed_profession": character.failed_profession,
        "archetype": character.archetype,
        "kit_choice": character.kit_choice,
        "proficiencies": [list(pair) for pair in character.proficiencies],
        "covenant_alignment": character.covenant_alignment,
        "favour_deeds": character.favour_deeds,
        "extra_languages": list(character.extra_languages),
        "alignment": character.alignment or None,
        "hp_current": character.hp_current,
        "exhaustion": character.exhaustion,
        "times_at_zero_hp": character.times_at_zero_hp,
        "items": [{key: line.get(key) for key in sorted(ITEM_KEYS)} for line in character.gear],
        "xp": character.xp,
        "derived": sheet.derived(),
    }


def _list(problems: Problems, data: dict, key: str, most: int) -> list:
    value = data.get(key, [])
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > most:
        problems.add(key, f"expected a list of at most {most} entries, got {what(value)}.")
        return []
    return value


def _dice(problems: Problems, data: dict) -> list[list[int]]:
    dice = _list(problems, data, "dice", len(ATTRIBUTE_KEYS))
    good = []
    for index, faces in enumerate(dice):
        if not isinstance(faces, list) or len(faces) != 4 or not all(
                is_int(face) and 1 <= face <= 4 for face in faces):
            problems.add(f"dice[{index}]", f"expected four D4 faces (1 to 4), got {what(faces)}.")
        else:
            good.append(list(faces))
    return good


def _pairs(problems: Problems, data: dict, key: str, first_ok, second_ok) -> list[list]:
    good = []
    for index, pair in enumerate(_list(problems, data, key, 100)):
        if not isinstance(pair, list) or len(pair) != 2 or not first_ok(pair[0]) \
                or not second_ok(pair[1]):
            problems.add(f"{key}[{index}]", f"expected a pair, got {what(pair)}.")
        else:
            good.append(list(pair))
    return good


def _items(problems: Problems, data: dict) -> list[dict]:
    gear = []
    for index, entry in enumerate(_list(problems, data, "items", MAX_ITEMS)):
        path = f"items[{index}]"
        if not isinstance(entry, dict):
            problems.add(path, f"expected an object, got {what(entry)}.")
            continue
        problems.unknown_keys(entry, ITEM_KEYS, path)
        quarters = entry.get("quarters", 4)
        if quarters not in SIZE_QUARTERS or not is_int(quarters):
            problems.add(f"{path}.quarters", "expected a size in quarter slots, one of "
                         f"{', '.join(map(str, SIZE_QUARTERS))}, got {what(quarters)}.")
            quarters = 4
        gear.append({
            "name": problems.text(entry, "name", f"{path}.name", ITEM_NAME_LENGTH,
                                  required=True),
            "quarters": quarters,
            "quantity": problems.integer(entry, "quantity", f"{path}.quantity", 1,
                                         QUANTITY_MAX, default=1),
            "location": problems.choice(entry, "location", f"{path}.location", LOCATIONS,
                                        "backpack"),
            "kind": problems.choice(entry, "kind", f"{path}.kind", KINDS, ""),
            "uses": problems.integer(entry, "uses", f"{path}.uses", 0, USES_MAX,
                                     default=None, nullable=True),
            "uses_max": problems.integer(entry, "uses_max", f"{path}.uses_max", 0, USES_MAX,
                                         default=None, nullable=True),
            "quality": problems.integer(entry, "quality", f"{path}.quality", 0, 3,
                                        default=None, nullable=True),
            "blocks": problems.integer(entry, "blocks", f"{path}.blocks", 0, USES_MAX,
                                       default=None, nullable=True),
            "magic": problems.integer(entry, "magic", f"{path}.magic", 0, MAGIC_MAX,
                                      default=0),
        })
    return gear


def read_body(data: dict) -> tuple[dict, int, Problems]:
    """The builder's values from a body, the XP, and every problem found."""
    problems = Problems()
    problems.unknown_keys(data, TOP_KEYS, "")
    values: dict = {
        "name": problems.text(data, "name", "name", 120),
        "method": problems.choice(data, "method", "method", [m.value for m in Method],
                                  Method.ROLLED.value),
        "guide_note": problems.text(data, "guide_note", "guide_note", NOTE_LENGTH),
        "ancestry": problems.choice(data, "ancestry", "ancestry", list(ANCESTRIES),
                                    "adaptable"),
        "minimum_age": problems.integer(data, "minimum_age", "minimum_age", 0, AGE_MAX,
                                        default=None, nullable=True),
        "age": problems.integer(data, "age", "age", 0, AGE_MAX, default=None, nullable=True),
        "keepsake": problems.text(data, "keepsake", "keepsake", TEXT_LENGTH),
        "failed_profession": problems.text(data, "failed_profession", "failed_profession",
                                           TEXT_LENGTH),
        "archetype": problems.choice(data, "archetype", "archetype", list(ARCHETYPE_KEYS),
                                     "violent"),
        "kit_choice": problems.text(data, "kit_choice", "kit_choice", 30),
        "covenant_alignment": problems.choice(data, "covenant_alignment",
                                              "covenant_alignment", ["", "L", "C"], ""),
        "favour_deeds": problems.integer(data, "favour_deeds", "favour_deeds", 0, DEEDS_MAX,
                                         default=0),
        "hp_current": problems.integer(data, "hp_current", "hp_current", 0, HP_MAX,
                                       default=None, nullable=True),
        "exhaustion": problems.integer(data, "exhaustion", "exhaustion", 0, EXHAUSTION_MAX,
                                       default=0),
        "times_at_zero_hp": problems.integer(data, "times_at_zero_hp", "times_at_zero_hp", 0,
                                             EXHAUSTION_MAX, default=0),
        "dice": _dice(problems, data),
        "gear": _items(problems, data),
    }
    alignment = data.get("alignment")
    values["alignment"] = ""
    if alignment is not None:
        if isinstance(alignment, str) and alignment in ALIGNMENTS:
            values["alignment"] = alignment
        else:
            problems.add("alignment", f"expected null (the starting Alignment) or one of "
                         f"{', '.join(ALIGNMENTS)}, got {what(alignment)}.",
                         code="invalid_choice")
    swap = data.get("swap")
    values["swap_first"] = values["swap_second"] = ""
    if swap is not None:
        if not isinstance(swap, list) or len(swap) != 2 or any(
                key not in ATTRIBUTE_KEYS for key in swap) or swap[0] == swap[1]:
            problems.add("swap", f"expected null or two different Attributes of "
                         f"{', '.join(ATTRIBUTE_KEYS)}, got {what(swap)}.")
        else:
            values["swap_first"], values["swap_second"] = swap
    guide = data.get("guide_attributes")
    for key in ATTRIBUTE_KEYS:
        values[f"guide_{key}"] = None
    if values["method"] == Method.GUIDE.value:
        if not isinstance(guide, dict):
            problems.add("guide_attributes", f"expected an object of the four Attributes, "
                         f"got {what(guide)}.")
        else:
            problems.unknown_keys(guide, frozenset(ATTRIBUTE_KEYS), "guide_attributes")
            for key in ATTRIBUTE_KEYS:
                values[f"guide_{key}"] = problems.integer(
                    guide, key, f"guide_attributes.{key}", GUIDE_SET_MIN, GUIDE_SET_MAX)
    values["renown_raises"] = _pairs(problems, data, "renown_raises",
                                     ATTRIBUTE_KEYS.__contains__, ATTRIBUTE_KEYS.__contains__)
    values["proficiencies"] = _pairs(problems, data, "proficiencies",
                                     PROFICIENCIES.__contains__,
                                     lambda n: is_int(n) and 0 <= n <= 9)
    languages = _list(problems, data, "extra_languages", MAX_LINES)
    values["extra_languages"] = [problems.text({"t": t}, "t", f"extra_languages[{i}]", 60)
                                 for i, t in enumerate(languages)]
    xp = problems.integer(data, "xp", "xp", 0, XP_MAX, default=0)
    if data.get("derived", {}) is not None and not isinstance(data.get("derived", {}), dict):
        problems.add("derived", f"expected an object, got {what(data['derived'])}.")
    if not problems:
        sheet = compute_sheet(build_from(values, xp=xp))
        for issue in sheet.errors:
            problems.add(issue.field, issue.message, code=issue.code)
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
                                              times_at_zero_hp=values["times_at_zero_hp"])
        if xp:
            XpEntry.objects.create(character=character, kind=XpEntry.Kind.IMPORT,
                                   xp_change=xp, created_by=owner, note=IMPORT_NOTE)
        return character


EXCHANGE = Exchange()
