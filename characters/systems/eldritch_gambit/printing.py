"""Eldritch Gambit's printed sheet: what goes in which box.

One template (templates/characters/character_print.html) serves the browser's print
view and WeasyPrint, so both show the same content. Every number comes from the rules
engine's CharacterSheet (builds.py:sheet_for) and the ledgers; this module only places
them: which line goes in which box, in which type size, and what goes on the
continuation page when a box is full (the fitting, the paper and the PDF are the generic
characters/printing.py's).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from characters.models import InventoryItem
from characters.printing import (
    NORMAL,
    Box,
    Entry,
    Fitted,
    FittedText,
    fit_entries,
    fit_line,
    fit_text,
    lines_in,
)
from rules.engine.eldritch_gambit import ATTRIBUTES, CharacterSheet, GearPiece, Kind, Quality
from rules.engine.eldritch_gambit.gear import effective_armor, unit_load
from rules.engine.eldritch_gambit.sheet import carried_pieces
from rules.engine.eldritch_gambit.statuses import STATUS_BY_KEY

from .models import EldritchGambitCharacter

TEMPLATE = "characters/character_print.html"


# -- the boxes of the sheet (mm; keep in step with static/css/print.css) ---------------------

# The widths are those of US Letter, the narrower page; on A4 the boxes are wider.
DESCRIPTION = Box(width=79, height=29)
CONCEPT_VALUE_WIDTH = 86
PRONOUNS_WIDTH = 22
TEMPLATE_VALUE_WIDTH = 44
WEAPONS = Box(width=46, height=29)  # the name column
WEAPON_NOTES_WIDTH = 50
SKILLS = Box(width=66, height=58, columns_small=2)
NOTES = Box(width=66, height=38, columns_small=2)
RESOURCES = Box(width=66, height=74, columns_small=2)
LOAD_COLUMN = 7  # the Load column of each list line


NO_LOAD = "—"  # a natural attack's Load column


def dash(value: int) -> str:
    """A Load as the sheet writes it: "-" for nothing."""
    return str(value) if value else "-"


@dataclass
class PrintedSheet:
    character: EldritchGambitCharacter | None
    sheet: CharacterSheet | None
    quest: str = ""
    invested: int | None = None
    concept: dict = field(default_factory=dict)
    description: FittedText | None = None
    weapons: Fitted | None = None
    armor: list[dict] = field(default_factory=list)
    resources: Fitted | None = None
    resources_more: Fitted | None = None  # the Notes box, used to continue Resources
    skills: Fitted | None = None
    statuses: dict = field(default_factory=dict)
    portrait_url: str = ""
    continued: list[dict] = field(default_factory=list)
    blank_attributes: tuple = tuple((abbr, name) for _, abbr, name in ATTRIBUTES)

    @property
    def pages(self) -> int:
        return 2 if self.continued else 1


def _weapon_notes(line) -> str:
    parts = list(line.tags)
    if line.range:
        parts.append(f"Range {line.range}")
    if line.reload:
        parts.append(f"Reload {line.reload}")
    if line.quality != Quality.STANDARD:
        parts.append(line.quality.capitalize())
    return ", ".join(parts)


def _nested(items: Sequence[InventoryItem], shown: set[int]) -> Iterable[tuple[int, InventoryItem]]:
    """Items in inventory order, each container followed by what it holds (indented)."""
    by_parent: dict[int | None, list[InventoryItem]] = {}
    keys = {item.pk for item in items}
    for item in items:
        parent = item.container_id if item.container_id in keys else None
        by_parent.setdefault(parent, []).append(item)

    seen: set[int] = set()

    def walk(parent, depth):
        for item in by_parent.get(parent, ()):
            if item.pk in seen:
                continue
            seen.add(item.pk)
            if item.pk not in shown:
                yield depth, item
            yield from walk(item.pk, depth + 1)

    yield from walk(None, 0)
    for item in items:  # anything in a loop of containers
        if item.pk not in seen and item.pk not in shown:
            yield 0, item


def printed_sheet(character: EldritchGambitCharacter, items: Sequence[InventoryItem],
                  sheet: CharacterSheet,
                  *, quest: str | None = None, invested: int | None = None,
                  portrait_url: str = "") -> PrintedSheet:
    """Everything the template places, for one character."""
    printed = PrintedSheet(character=character, sheet=sheet, quest=quest or character.quest,
                           invested=invested, portrait_url=portrait_url)
    build = sheet.build
    carried = carried_pieces(build.gear)
    carried_keys = {piece.key for piece in carried}
    pieces = {piece.key: piece for piece in build.gear}
    items = list(items)

    # Concept (Characters > Concept).
    traits = ", ".join(
        t["name"] + (f" ({t['value']})" if t.get("value") else "")
        for t in character.template_traits or () if isinstance(t, dict) and t.get("name"))
    concept = (
        ("name", "Name", character.name, CONCEPT_VALUE_WIDTH, 1),
        ("career", "Career", character.career, CONCEPT_VALUE_WIDTH, 1),
        ("quest", "Quest", printed.quest, CONCEPT_VALUE_WIDTH, 1),
        ("origin", "Origin", character.origin, CONCEPT_VALUE_WIDTH, 1),
        ("template", "Template", character.template_name, TEMPLATE_VALUE_WIDTH, 1),
        ("traits", "Traits", traits, TEMPLATE_VALUE_WIDTH, 2),
    )
    for key, label, text, width, lines in concept:
        if key == "name":  # the pronouns share the Name line
            width -= PRONOUNS_WIDTH if character.pronouns else 0
        printed.concept[key] = fit_line(text, width, lines=lines)
        if printed.concept[key].rest:
            printed.continued.append({"title": label, "text": text})

    printed.description = fit_text(character.description, DESCRIPTION)
    if printed.description.rest:
        printed.continued.append({"title": "Description", "text": character.description})

    # Weapons (Resources > Weapons): the engine's lines, in the order of the carried
    # pieces it made them from; the Load is the piece's own.
    weapon_pieces = [piece for piece in carried if piece.weapon is not None]
    weapon_entries = []
    listed: set[int] = set()
    for piece, line in zip(weapon_pieces, sheet.weapons, strict=True):
        label = line.name + (f" x{piece.quantity}" if piece.quantity > 1 else "")
        weapon_entries.append(Entry(label, dash(unit_load(piece) * piece.quantity),
                                    weapon_notes=_weapon_notes(line), hit=f"{line.hit:+d}",
                                    damage=line.damage))
        if piece.key is not None:
            listed.add(piece.key)
    # Then the Attack Traits (Bestiary > Templates): no piece, so no Load of their own
    # (the Trait's Load is counted with the Traits); an area kind has no Hit.
    for line in sheet.natural_attacks:
        weapon_entries.append(Entry(line.name, NO_LOAD, weapon_notes=_weapon_notes(line),
                                    hit=line.hit_display, damage=line.damage_display))
    printed.weapons = fit_entries(weapon_entries, WEAPONS, notes_width=WEAPON_NOTES_WIDTH)

    # Armor (Resources > Armor): the suit the engine counts, and a ready shield.
    worn = [p for p in carried if p.equipped and p.armor is not None
            and Kind(p.kind) is Kind.ARMOR]
    worn_piece = max(worn, key=lambda p: effective_armor(p).ap) if worn else None
    rally = sheet.stats["rally"]
    armor_row = {
        "name": sheet.armor_source if sheet.armor.rank or worn_piece else "",
        "ap": sheet.stats["armor_ap"].value if sheet.armor.rank else "",
        "rally": rally.terms[0].value if rally.terms and (sheet.armor.rank or worn_piece)
        else "",
        "load": "",
        "notes": "",
    }
    if worn_piece is not None:
        armor_row["load"] = dash(unit_load(worn_piece))
        item = next((i for i in items if i.pk == worn_piece.key), None)
        armor_row["notes"] = item.notes if item else ""
        if worn_piece.quality != Quality.STANDARD:
            armor_row["notes"] = ", ".join(
                p for p in (worn_piece.quality.capitalize(), armor_row["notes"]) if p)
        listed.add(worn_piece.key)
    printed.armor = [armor_row]
    shield = sheet.shield
    if shield is not None:
        printed.armor.append({
            "name": shield.name, "shield": f"AF +{shield.shield.af}, Block +{shield.shield.block}",
            "load": dash(unit_load(shield) * shield.quantity),
        })
        listed.add(shield.key)

    # Resources: everything else, containers followed by what they hold; the purse.
    entries = []
    for depth, item in _nested(items, listed):
        piece: GearPiece | None = pieces.get(item.pk)
        if piece is None:
            continue
        label = item.name + (f" x{item.quantity}" if item.quantity > 1 else "")
        notes = []
        if piece.key not in carried_keys:
            notes.append("dropped")
        elif piece.equipped and Kind(piece.kind) is Kind.ARMOR:
            notes.append("worn")
        if piece.quality != Quality.STANDARD:
            notes.append(piece.quality)
        if piece.charges is not None:
            notes.append(f"{piece.charges} charges")
        if piece.attuned:
            notes.append("attuned")
        if item.notes:
            notes.append(item.notes)
        load = dash(unit_load(piece) * piece.quantity) if piece.key in carried_keys else "-"
        entries.append(Entry(label, load, f"({', '.join(notes)})" if notes else "", depth,
                             muted=piece.key not in carried_keys))
    entries.append(Entry(f"{character.coins_cp} cp", "-"))
    printed.resources = fit_entries(entries, RESOURCES, load_column=LOAD_COLUMN)
    if printed.resources.rest:
        # The Notes box continues the list before anything goes to a second page.
        printed.resources_more = fit_entries(printed.resources.rest, NOTES,
                                             load_column=LOAD_COLUMN)
        printed.resources.rest = []
        if printed.resources_more.rest:
            printed.continued.append({"title": "Resources", "entries":
                                      printed.resources_more.rest})

    skills = [Entry(skill) for skill in character.skills or () if str(skill).strip()]
    printed.skills = fit_entries(skills, SKILLS)
    if printed.skills.rest:
        printed.continued.append({"title": "Skills", "entries": printed.skills.rest})
    if printed.weapons.rest:
        printed.continued.append({"title": "Weapons", "entries": printed.weapons.rest,
                                  "weapons": True})

    # Status (Characters > Defenses > Status): the two the sheet has boxes for, and
    # the others by name.
    printed.statuses = {
        "staggered": "staggered" in sheet.statuses,
        "fallen": "fallen" in sheet.statuses,
        "other": [STATUS_BY_KEY[key].name + (
                      f" (Buildup {sheet.stats['poison_buildup'].value})"
                      if key == "poisoned" else "")
                  for key in sheet.statuses
                  if key not in ("staggered", "fallen") and key in STATUS_BY_KEY],
    }
    return printed


def blank_sheet() -> PrintedSheet:
    """The sheet with nothing written on it, for pencil only."""
    return PrintedSheet(
        character=None, sheet=None,
        description=FittedText(NORMAL, "", "", lines_in(DESCRIPTION.height, NORMAL)),
        weapons=Fitted(NORMAL, [[]], [lines_in(WEAPONS.height, NORMAL)]),
        resources=Fitted(NORMAL, [[]], [lines_in(RESOURCES.height, NORMAL)]),
        skills=Fitted(NORMAL, [[]], [lines_in(SKILLS.height, NORMAL)]),
        armor=[{"name": "", "ap": "", "rally": "", "load": "", "notes": ""}],
        statuses={"staggered": False, "fallen": False, "other": []},
    )
