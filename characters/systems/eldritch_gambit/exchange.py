"""Eldritch Gambit's body of the exchange format (README.md, "Exchange format").

The envelope (characters/exchange.py) reads and writes "format" and "version" and finds
this body by its format name; this module is every other key. Export reads the stored
choices and ledgers through the one adapter (builds.py), and adds the sheet's
derived numbers. Import checks every key, then the same engine rules as the builder, and
only then writes, in one transaction. Every problem names the key it is about and what
was expected.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.db import transaction

from characters.exchange import MISSING, Problems, what
from characters.models import Character, CoinEntry, InventoryItem, XpEntry
from rules import systems
from rules.engine.eldritch_gambit import ATTRIBUTE_KEYS, compute_sheet
from rules.engine.eldritch_gambit.statuses import (
    CHOOSABLE_STATUSES,
    STATUS_BY_KEY,
    normalize_status,
)
from rules.engine.eldritch_gambit.templates import ARMORED_LEVELS, Size
from rules.models import GearItem

from .builds import build_from_character, gear_piece, sheet_for, trait_choices
from .forms import MAX_SKILLS, SKILL_MAX_LENGTH, CharacterForm
from .models import ATTRIBUTE_FIELDS

FORMAT = "eldritch-gambit-character"
VERSION = 1  # the version written, and the newest one read
MAX_GEAR = 500
MAX_TRAITS = 50
ATTRIBUTE_RANGE = (-10, 99)  # the builder's attribute fields (CharacterForm.__init__)
GEAR_LOAD_RANGE = (-100, 100)
TRAIT_LOAD_RANGE = (-100, 100)
CHARGES_MAX = 10_000
ID_MAX_LENGTH = 40
IMPORT_NOTE = "Imported from a character file"

CHARACTER_TEXT = ("name", "pronouns", "career", "quest", "origin", "description")
# The body's keys: every key of the file but the envelope's "format" and "version".
BODY_KEYS = frozenset({
    "name", "pronouns", "level", "xp", "career", "quest", "origin", "description",
    "template", "attributes", "skills", "gear", "coins_cp", "statuses", "hp_current",
    "wp_current", "poison_buildup", "derived",
})
# The file's keys, as an unknown key's message lists them.
TOP_KEYS = BODY_KEYS | {"format", "version"}
TEMPLATE_KEYS = frozenset({"name", "traits"})
TRAIT_KEYS = frozenset({"name", "value", "load"})
GEAR_KEYS = frozenset({
    "id", "name", "label", "kind", "quantity", "quality", "equipped", "coverage", "load",
    "in", "dropped", "attuned", "charges", "notes",
})
CHOOSABLE_KEYS = tuple(rule.key for rule in CHOOSABLE_STATUSES)
# Traits whose value the engine reads, and the values it knows.
TRAIT_VALUES = {
    "size": tuple(size.value for size in Size),
    "armored": tuple(ARMORED_LEVELS),
}


def _max_length(model, field: str) -> int:
    return model._meta.get_field(field).max_length


def _form_range(field: str) -> tuple[int, int]:
    """The builder's limits for a number, so the two never disagree."""
    form_field = CharacterForm.base_fields[field]
    return form_field.min_value, form_field.max_value


def _model():
    """The model of an Eldritch Gambit character, from the registry."""
    return systems.get(systems.ELDRITCH_GAMBIT).character_model


def export_body(character: Character) -> dict:
    """The character as the body of its file: every key but "format" and "version"
    (see README.md)."""
    items = list(character.items.select_related("catalog_item"))
    sheet = sheet_for(character, items)
    index_of = {item.pk: index for index, item in enumerate(items)}
    refs = [_GearRef(f"g{index}", item.name) for index, item in enumerate(items, start=1)]

    def container_ref(item: InventoryItem) -> str | None:
        index = index_of.get(item.container_id)
        if index is None:
            return None
        # The container's name where that names it alone, else its id.
        name = items[index].name
        return name if _resolve(name, refs) == [index] else refs[index].id

    gear = []
    for item, ref in zip(items, refs, strict=True):
        catalog = item.catalog_item
        entry = {"id": ref.id, "name": catalog.name if catalog else item.name}
        if catalog and item.name != catalog.name:
            entry["label"] = item.name
        entry.update({
            "kind": item.kind,
            "quantity": item.quantity,
            "quality": item.quality,
            "equipped": item.equipped,
            "coverage": item.coverage,
            "load": gear_piece(item).load,
            "in": container_ref(item),
            "dropped": item.dropped,
            "attuned": item.attuned,
            "charges": item.charges,
            "notes": item.notes,
        })
        gear.append(entry)

    traits = []
    for trait in trait_choices(character.template_traits):
        entry = {"name": trait.name}
        if trait.value:
            entry["value"] = trait.value
        if trait.load:
            entry["load"] = trait.load
        traits.append(entry)

    return {
        "name": character.name,
        "pronouns": character.pronouns,
        "level": character.level,
        "xp": character.xp,
        "career": character.career,
        "quest": character.quest,
        "origin": character.origin,
        "description": character.description,
        "template": {"name": character.template_name, "traits": traits},
        "attributes": character.attribute_values,
        "skills": list(character.skills or ()),
        "gear": gear,
        "coins_cp": character.coins_cp,
        "statuses": [
            STATUS_BY_KEY[key].name if key in STATUS_BY_KEY else key
            for key in character.statuses or ()
        ],
        "hp_current": character.hp_current,
        "wp_current": character.wp_current,
        "poison_buildup": character.poison_buildup,
        "derived": {**sheet.derived(), "weapons": [
            {"name": line.name, "hit": line.hit, "damage": line.damage}
            for line in sheet.weapons
        ]},
    }


@dataclass(frozen=True)
class _GearRef:
    """What an `in` can name: an item's id, or its name."""

    id: str | None
    name: str


def _resolve(reference: str, refs: list[_GearRef]) -> list[int]:
    """Indexes of the items an `in` names: the one with that id, else every
    item with that name (in any case). Export writes a name only where this
    finds that one item, so an import resolves every exported `in` the same."""
    by_id = [index for index, ref in enumerate(refs) if ref.id == reference]
    if by_id:
        return by_id
    folded = reference.casefold()
    return [index for index, ref in enumerate(refs) if ref.name.casefold() == folded]


@dataclass
class ImportPlan:
    """A checked file: the unsaved rows the import writes."""

    character: Character
    items: list[InventoryItem]
    parents: list[int | None]  # index in items of each item's container
    level: int
    xp: int
    coins_cp: int


def check(data: dict, *, owner) -> ImportPlan:
    """Check a file's body key by key, then by the rules; raise an ExchangeError
    listing every problem, or return what the import will write."""
    problems = Problems()
    problems.unknown_keys(data, TOP_KEYS, "")

    model = _model()
    character = model(owner=owner, system=systems.ELDRITCH_GAMBIT)
    for key in CHARACTER_TEXT:
        setattr(character, key, problems.text(data, key, key, _max_length(model, key)))
    level = problems.integer(data, "level", "level", *_form_range("level"))
    xp = problems.integer(data, "xp", "xp", *_form_range("xp"), default=0)
    coins_cp = problems.integer(data, "coins_cp", "coins_cp", *_form_range("coins_cp"),
                                default=0)
    character.hp_current = problems.integer(data, "hp_current", "hp_current",
                                            *_form_range("hp_current"), default=None,
                                            nullable=True)
    character.wp_current = problems.integer(data, "wp_current", "wp_current",
                                            *_form_range("wp_current"), default=None,
                                            nullable=True)
    character.poison_buildup = problems.integer(data, "poison_buildup", "poison_buildup",
                                                *_form_range("poison_buildup"), default=0)
    _check_attributes(data, character, problems)
    _check_template(data, character, problems)
    character.skills = _check_skills(data, problems)
    character.statuses = _check_statuses(data, problems)
    items, parents = _check_gear(data, owner, problems)
    if problems:
        raise problems.error()

    # The would-be character through the same adapter and engine as the builder.
    # Level, XP and coins are the sums the import's ledger entries will make.
    character.level_total, character.xp_total, character.coins_total = level, xp, coins_cp
    pieces = tuple(
        replace(gear_piece(item), key=index, container=parent)
        for index, (item, parent) in enumerate(zip(items, parents, strict=True))
    )
    sheet = compute_sheet(replace(build_from_character(character, items=()), gear=pieces))
    for issue in sheet.errors:
        problems.add(_issue_path(issue.field), issue.message, code=issue.code)
    if problems:
        raise problems.error()
    return ImportPlan(character, items, parents, level, xp, coins_cp)


def _check_attributes(data: dict, character: Character, problems: Problems) -> None:
    attributes = data.get("attributes", MISSING)
    if not isinstance(attributes, dict):
        got = "missing" if attributes is MISSING else f"got {what(attributes)}"
        problems.add("attributes", "expected an object with the keys "
                     f"{', '.join(ATTRIBUTE_KEYS)}, {got}.",
                     code="missing" if attributes is MISSING else "invalid")
        return
    problems.unknown_keys(attributes, frozenset(ATTRIBUTE_KEYS), "attributes")
    for key in ATTRIBUTE_KEYS:
        value = problems.integer(attributes, key, f"attributes.{key}", *ATTRIBUTE_RANGE)
        setattr(character, ATTRIBUTE_FIELDS[key], value or 0)


def _check_template(data: dict, character: Character, problems: Problems) -> None:
    template = data.get("template", {})
    if not isinstance(template, dict):
        problems.add("template", f'expected an object with "name" and "traits", '
                                 f"got {what(template)}.")
        template = {}
    problems.unknown_keys(template, TEMPLATE_KEYS, "template")
    character.template_name = problems.text(
        template, "name", "template.name", _max_length(_model(), "template_name"),
        default="Human",
    ) or "Human"
    traits = template.get("traits", [])
    character.template_traits = []
    if not isinstance(traits, list):
        problems.add("template.traits", f"expected a list of Traits, got {what(traits)}.")
        return
    if len(traits) > MAX_TRAITS:
        problems.add("template.traits", f"{len(traits)} Traits are too many; the most is "
                                        f"{MAX_TRAITS}.", code="too_many")
        return
    seen = set()
    for index, trait in enumerate(traits):
        path = f"template.traits[{index}]"
        if not isinstance(trait, dict):
            problems.add(path, f'expected an object with "name", "value" and "load", '
                               f"got {what(trait)}.")
            continue
        problems.unknown_keys(trait, TRAIT_KEYS, path)
        name = problems.text(trait, "name", f"{path}.name", 100, required=True)
        value = problems.text(trait, "value", f"{path}.value", 50)
        load = problems.integer(trait, "load", f"{path}.load", *TRAIT_LOAD_RANGE, default=0)
        known = TRAIT_VALUES.get(name.casefold())
        if known is not None:
            if name.casefold() in seen:
                problems.add(f"{path}.name", f"a second {name} Trait; a template has one.",
                             code="duplicate")
            seen.add(name.casefold())
            canonical = {v.casefold(): v for v in known}.get(value.casefold())
            if canonical is None:
                problems.add(f"{path}.value", f"expected one of {', '.join(known)} for "
                                              f"{name}, got {what(value)}.",
                             code="invalid_choice")
            value = canonical or value
        entry = {"name": name}
        if value:
            entry["value"] = value
        if load:
            entry["load"] = load
        character.template_traits.append(entry)


def _check_skills(data: dict, problems: Problems) -> list[str]:
    skills = data.get("skills", [])
    if not isinstance(skills, list):
        problems.add("skills", f"expected a list of Skills (text), got {what(skills)}.")
        return []
    if len(skills) > MAX_SKILLS:
        problems.add("skills", f"{len(skills)} Skills are too many; the most is {MAX_SKILLS}.",
                     code="too_many")
        return []
    holder = dict(enumerate(skills))
    return [problems.text(holder, index, f"skills[{index}]", SKILL_MAX_LENGTH, required=True)
            for index in holder]


def _check_statuses(data: dict, problems: Problems) -> list[str]:
    statuses = data.get("statuses", [])
    if not isinstance(statuses, list):
        problems.add("statuses", f"expected a list of Status names, got {what(statuses)}.")
        return []
    keys: list[str] = []
    for index, name in enumerate(statuses):
        key = normalize_status(name) if isinstance(name, str) else None
        if key not in CHOOSABLE_KEYS:
            names = ", ".join(rule.name for rule in CHOOSABLE_STATUSES)
            reason = " (it follows from Load)" if key else ""
            problems.add(f"statuses[{index}]", f"{what(name)} is not a Status a character "
                                               f"can have{reason}; expected one of {names}.",
                         code="unknown_status")
        elif key not in keys:
            keys.append(key)
    return keys


def _catalog(owner) -> dict[str, GearItem]:
    """Gear the owner can see, by name in any case; on a clash the SRD row wins."""
    rows = sorted(GearItem.objects.visible_to(owner),
                  key=lambda row: (row.source_id is None, row.pk))
    catalog: dict[str, GearItem] = {}
    for row in rows:
        catalog.setdefault(row.name.casefold(), row)
    return catalog


def _check_gear(data: dict, owner, problems: Problems):
    gear = data.get("gear", [])
    if not isinstance(gear, list):
        problems.add("gear", f"expected a list of gear items, got {what(gear)}.")
        return [], []
    if len(gear) > MAX_GEAR:
        problems.add("gear", f"{len(gear)} items are too many; the most is {MAX_GEAR}.",
                     code="too_many")
        return [], []
    catalog = _catalog(owner) if gear else {}
    name_length = _max_length(InventoryItem, "name")
    items: list[InventoryItem] = []
    refs: list[_GearRef] = []
    containers: list[str | None] = []
    for index, entry in enumerate(gear):
        path = f"gear[{index}]"
        if not isinstance(entry, dict):
            problems.add(path, f'expected an object with at least "name", got {what(entry)}.')
            entry = {"name": "?"}  # checked no further, but keeps later items' indexes
        problems.unknown_keys(entry, GEAR_KEYS, path)
        name = problems.text(entry, "name", f"{path}.name", name_length, required=True)
        label = problems.text(entry, "label", f"{path}.label", name_length)
        match = catalog.get(name.casefold())
        load = problems.integer(entry, "load", f"{path}.load", *GEAR_LOAD_RANGE,
                                default=None, nullable=True)
        if match is not None:
            load = None if load == match.load else load  # None: the catalog's Load
        item = InventoryItem(
            catalog_item=match,
            name=label or (match.name if match else name),
            kind=problems.choice(entry, "kind", f"{path}.kind", InventoryItem.Kind.values,
                                 match.category if match else InventoryItem.Kind.ITEM),
            quantity=problems.integer(entry, "quantity", f"{path}.quantity", 1, 10_000,
                                      default=1),
            quality=problems.choice(entry, "quality", f"{path}.quality",
                                    InventoryItem.Quality.values,
                                    InventoryItem.Quality.STANDARD),
            equipped=problems.boolean(entry, "equipped", f"{path}.equipped"),
            coverage=problems.choice(entry, "coverage", f"{path}.coverage",
                                     InventoryItem.Coverage.values,
                                     InventoryItem.Coverage.FULL),
            load=load if match is not None else load or 0,
            dropped=problems.boolean(entry, "dropped", f"{path}.dropped"),
            attuned=problems.boolean(entry, "attuned", f"{path}.attuned"),
            charges=problems.integer(entry, "charges", f"{path}.charges", 0, CHARGES_MAX,
                                     default=None, nullable=True),
            notes=problems.text(entry, "notes", f"{path}.notes",
                                _max_length(InventoryItem, "notes")),
        )
        items.append(item)
        refs.append(_GearRef(_check_gear_id(entry, path, refs, problems), item.name))
        container = entry.get("in")
        if container is not None and not isinstance(container, str):
            problems.add(f"{path}.in", "expected the id or name of the item it sits in, or "
                                       f"null, got {what(container)}.")
            container = None
        containers.append(container)
    return items, _check_containers(containers, refs, problems)


def _check_gear_id(entry: dict, path: str, refs: list[_GearRef], problems: Problems):
    if "id" not in entry:
        return None
    gear_id = entry["id"]
    if not isinstance(gear_id, str) or not gear_id or len(gear_id) > ID_MAX_LENGTH:
        problems.add(f"{path}.id", f"expected text of 1 to {ID_MAX_LENGTH} characters, "
                                   f"got {what(gear_id)}.")
        return None
    if any(ref.id == gear_id for ref in refs):
        problems.add(f"{path}.id", f"{what(gear_id)} is the id of an earlier item; each "
                                   "item's id must be its own.", code="duplicate")
        return None
    return gear_id


def _check_containers(containers: list[str | None], refs: list[_GearRef],
                      problems: Problems) -> list[int | None]:
    parents: list[int | None] = []
    for index, reference in enumerate(containers):
        found = _resolve(reference, refs) if reference is not None else [None]
        if not found:
            problems.add(f"gear[{index}].in", f"no gear item has the id or name "
                                              f"{what(reference)}.", code="missing_container")
        elif len(found) > 1:
            problems.add(f"gear[{index}].in", f"{len(found)} gear items are called "
                                              f"{what(reference)}; give the container an "
                                              '"id" and use that.', code="ambiguous_container")
        parents.append(found[0] if len(found) == 1 else None)
    in_cycle: set[int] = set()
    for index in range(len(parents)):
        seen = [index]
        parent = parents[index]
        while parent is not None and parent not in seen and parent not in in_cycle:
            seen.append(parent)
            parent = parents[parent]
        if parent == index:
            in_cycle.update(seen)
            problems.add(f"gear[{index}].in", f"{what(containers[index])} puts the item "
                                              "inside itself, directly or through the items "
                                              "it holds.", code="container_cycle")
    return parents


def _issue_path(field: str | None) -> str:
    """The file's key an engine issue is about."""
    if field in ATTRIBUTE_KEYS:
        return f"attributes.{field}"
    if field in ("armor", "shield"):
        return "gear"
    return field or ""


@transaction.atomic
def import_body(*, owner, data: dict, version: int) -> Character:
    """A new character for `owner` from a file's body (the envelope has read "format"
    and "version"; 1 is the only version so far); nothing is written unless every check
    passes. Level, XP and coins open their ledgers."""
    plan = check(data, owner=owner)
    character = plan.character
    character.save()
    for position, item in enumerate(plan.items, start=1):
        item.character = character
        item.position = position
    InventoryItem.objects.bulk_create(plan.items)
    contained = []
    for item, parent in zip(plan.items, plan.parents, strict=True):
        if parent is not None:
            item.container = plan.items[parent]
            contained.append(item)
    InventoryItem.objects.bulk_update(contained, ["container"])
    XpEntry.objects.create(character=character, kind=XpEntry.Kind.IMPORT,
                           level_change=plan.level, xp_change=plan.xp, created_by=owner,
                           note=IMPORT_NOTE)
    if plan.coins_cp:
        CoinEntry.objects.create(character=character, kind=CoinEntry.Kind.IMPORT,
                                 amount_cp=plan.coins_cp, created_by=owner, note=IMPORT_NOTE)
    return character


class EldritchGambitExchange:
    """Eldritch Gambit's body of the exchange format, as the registry holds it
    (GameSystem.exchange; characters/exchange.py, SystemExchange)."""

    format = FORMAT
    version = VERSION

    def export_body(self, character: Character) -> dict:
        return export_body(character)

    def import_body(self, *, owner, data: dict, version: int) -> Character:
        return import_body(owner=owner, data=data, version=version)


EXCHANGE = EldritchGambitExchange()
