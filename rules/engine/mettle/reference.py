"""METTLE Core's rules reference: the chapters the app implements, one entry per heading,
and the tables and lists players look things up in, one entry each.

- The SRD's chapters, transcribed as published (CC BY 4.0, the attribution on every page)
  in rules/data/mettle-core/: Characters, Engine, Scenes (seed 001: Staging with
  Initiative and Split Actions, the Actions with their Checks and outcomes, Scenery),
  Resources and Guidance. Each Action's entry opens with its Check pair from the engine's
  data (data.ACTIONS), the one the table's Check form sets.
- Statuses: one entry per status (EN §Status Effects; Staggered and Fallen from EN §Taking
  Damage), as the sheets and the Initiative tracker name them.
- Twists: one entry per type of the TWIST SEEDS table (EN §Twists).
- Tables: built from the engine's own data (data.py), so the reference shows the numbers
  the app computes with: the Difficulty ladder, Edge grades, Credit, Attribute pools,
  weapons and their specials, armour, common loads, medicine, standard kits, vehicles and
  mounts.

The GameSystem names `REFERENCE` (its `reference`); the generic rules app serves it.
Pure Python: no Django.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from ..reference import Block, Chapter, Entry, Reference, parse_markdown, slug_of
from . import data

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "mettle-core"
# The SRD's chapters, in the reference's order (file stem = the chapter's key).
CHAPTER_FILES = ("characters", "engine", "scenes", "resources", "guidance")
LICENCE_URL = "http://creativecommons.org/licenses/by/4.0/"
# AMB-M17 (docs/RULES.md): EN §Status Effects repeats its opening paragraph with the
# statuses of an older revision; the reference leaves that paragraph out.
LEFTOVER_STATUSES = "Shaken, Broken"
# The statuses that come from EN §Taking Damage rather than EN §Status Effects.
FELLING = ("Staggered", "Fallen")


def _check_blocks(action: data.Action) -> tuple[Block, ...]:
    """An Action's Check pair and outcomes as the engine holds them (Scenes > Actions)."""
    rolled = data.ATTRIBUTE_NAMES[action.active]
    # AMB-M17: Use's Check reads "FOCUS vs. Difficulty", a leftover name for CONCEPT.
    leftover = (" (the Check line below says FOCUS, an older name for CONCEPT)"
                if action.name == "Use" else "")
    instead = ("" if action.active == data.CONCEPT else
               f" (a fitting CONCEPT may replace {rolled} if higher, on the active side "
               "only)")
    return (
        Block("paragraph", term="Check pair:",
              text=f"{rolled} vs. {action.passive}{instead}{leftover}. The default Twist "
                   f"is {data.DEFAULT_TWIST}."),
    )


def _with_checks(chapter: Chapter) -> Chapter:
    """The Scenes chapter, each Action's entry opening with its Check pair."""
    entries = []
    for entry in chapter.entries:
        action = data.ACTION_BY_NAME.get(entry.name) if entry.parent == "actions" else None
        if action is not None:
            entry = Entry(entry.chapter, entry.slug, entry.name, entry.citation,
                          _check_blocks(action) + entry.blocks, entry.parent)
        entries.append(entry)
    return Chapter(chapter.key, chapter.name, chapter.intro, tuple(entries))


def _without_leftovers(engine: Chapter) -> Chapter:
    """The Engine chapter without the Status Effects paragraph that names the statuses of
    an older revision (AMB-M17)."""
    entries = []
    for entry in engine.entries:
        if entry.slug == "status-effects":
            blocks = tuple(b for b in entry.blocks if LEFTOVER_STATUSES not in b.text)
            entry = Entry(entry.chapter, entry.slug, entry.name, entry.citation, blocks,
                          entry.parent)
        entries.append(entry)
    return Chapter(engine.key, engine.name, engine.intro, tuple(entries))


def _statuses(engine: Chapter) -> Chapter:
    """One entry per status: EN §Status Effects' list, and Staggered and Fallen with the
    paragraphs of EN §Taking Damage that name them."""
    damage = next(e for e in engine.entries if e.slug == "taking-damage")
    effects = next(e for e in engine.entries if e.slug == "status-effects")
    found: list[tuple[str, tuple[Block, ...]]] = []
    for name in FELLING:
        summary = [b for b in damage.blocks if b.kind == "item" and b.term == name]
        told = [b for b in damage.blocks if b.kind == "paragraph" and name in b.text]
        found.append((name, tuple(summary + told)))
    for block in effects.blocks:
        if block.kind == "item" and block.term:
            found.append((block.term, (Block("paragraph", text=block.text),)))
    entries = tuple(Entry("statuses", slug_of(name), name, f"Statuses > {name}", blocks)
                    for name, blocks in found)
    return Chapter("statuses", "Statuses",
                   "What each status does, as the Engine chapter tells it (EN §Taking "
                   "Damage, §Status Effects).", entries)


def _twists() -> Chapter:
    entries = []
    for name, lost, examples in data.TWIST_SEEDS:
        blocks = [Block("paragraph", term="Lose:", text=f"{lost}."),
                  Block("paragraph", term="For example:", text=examples)]
        if name == data.DEFAULT_TWIST:
            blocks.append(Block("paragraph", text=(
                "The default Twist: losing your next Action dealing with a complication "
                "from the current one. If the Guide or Player does not like another Twist, "
                "they can always fall back to Delay.")))
        entries.append(Entry("twists", slug_of(name), name, f"Twists > {name}",
                             tuple(blocks)))
    return Chapter("twists", "Twists",
                   "On a failed Check with Edge, a Twist rerolls the Edge dice once, for a "
                   "dramatic consequence (EN §Twists). The TWIST SEEDS table, one type each.",
                   tuple(entries))


def _table(slug: str, name: str, source: str, headers, rows, note: str = "") -> Entry:
    blocks = [Block("table", text=name.upper(), headers=tuple(headers),
                    rows=tuple(tuple(str(cell) for cell in row) for row in rows),
                    footnote=f"Source: {source}.")]
    if note:
        blocks.insert(0, Block("paragraph", text=note))
    return Entry("tables", slug, name, f"Tables > {name}", tuple(blocks))


def _cost(digits: int | None) -> str:
    return "-" if digits is None else str(digits)


def _tables() -> Chapter:
    credit_rows = [(credit, f"${10 ** credit - 1:,}", rank)
                   for credit, rank in data.CREDIT_RANKS.items()]
    entries = (
        _table("difficulty", "Difficulty", "Engine > Checks > Success & Failure",
               ("Difficulty", "Ranking"), data.DIFFICULTY,
               "A Check succeeds when its Score (the sum of the dice showing 1-3) beats "
               "the Difficulty: a number from this ladder or a target's pool."),
        _table("edge", "Edge", "Engine > Checks > Success & Failure",
               ("Edge", "Quality of success"),
               [(f"{edge}+" if edge == len(data.EDGE) - 1 else edge, grade)
                for edge, grade in enumerate(data.EDGE)],
               "Edge is the count of dice showing 4-6; the more Edge on a success, the "
               "better."),
        _table("credit", "Credit", "Characters > Step 5 > Credit",
               ("Credit", "Afford", "Ranking"), credit_rows,
               "A character can afford items with up to as many digits in their price as "
               "their Credit."),
        _table("attribute-pools", "Attribute Pools", "Characters > Step 3",
               ("Pool", "Rating", "Cost as the highest", "Cost otherwise"),
               [(pool, *row) for pool, row in data.ATTRIBUTE_POOLS.items()]),
        _table("weapons", "Weapons", "Resources > Weapons",
               ("Weapon", "Hit", "DM", "Specials", "Load", "Cost"),
               [(w.name, f"+{w.hit}D" if w.hit else "-", w.dm_text,
                 ", ".join(w.specials) or "-", w.load or "-", _cost(w.cost))
                for w in data.WEAPONS],
               "The Attack pool is NATURE plus the weapon's Hit dice; DM is FRAME plus the "
               "bonus, or a flat number. Cost is in Credit digits."),
        _table("weapon-specials", "Weapon Specials", "Resources > Weapons > Specials",
               ("Special", "What it does"), data.WEAPON_SPECIALS.items()),
        _table("armor", "Armor", "Resources > Armor",
               ("Armor", "Soak", "Load", "Cost", "Era"),
               [(a.name, f"+{a.soak}", a.load or "-", a.cost, a.era) for a in data.ARMOR],
               "Armor adds to Soak (FRAME + Armor); BP (bulletproof) halves the first "
               "firearm damage after Soak."),
        _table("common-loads", "Common Loads", "Characters > Step 5 > Encumbrance",
               ("Item", "Load"), data.COMMON_LOADS,
               "Load up to FRAME is fine; over it a character is Encumbered, over twice "
               "FRAME Incapacitated."),
        _table("medicine", "Medicine", "Resources > Equipment > Medicine",
               ("Item", "Load", "Cost", "Effect"),
               [(g.name, g.load or "-", g.cost, g.effect) for g in data.MEDICINE]),
        _table("standard-kits", "Standard Kits", "Resources > Equipment > Standard Kits",
               ("Kit", "Load", "Cost", "Contents"),
               [(g.name, g.load or "-", g.cost, g.effect) for g in data.STANDARD_KITS]),
        _table("vehicles", "Vehicles", "Resources > Vehicles",
               ("Vehicle", "Handling", "Speed", "FRAME", "Cost"),
               [(v.name, f"CONCEPT+{v.handling}" if v.handling else "CONCEPT", v.speed,
                 v.frame, v.cost) for v in data.VEHICLES]),
        _table("mounts", "Mounts", "Resources > Mounts",
               ("Mount", "Pool (FRAME)", "Speed", "Attack", "DM"),
               [(m.name, f"{m.pool} ({m.frame})", m.speed, m.attack, m.dm)
                for m in data.MOUNTS]),
    )
    return Chapter("tables", "Tables",
                   "The tables the app computes with, from its own data, each with the "
                   "section it comes from.", entries)


@cache
def reference() -> Reference:
    chapters = {key: parse_markdown((DATA_DIR / f"{key}.md").read_text(encoding="utf-8"),
                                    key=key)
                for key in CHAPTER_FILES}
    chapters["scenes"] = _with_checks(chapters["scenes"])
    chapters["engine"] = _without_leftovers(chapters["engine"])
    return Reference(
        title="METTLE Core SRD",
        attribution=data.ATTRIBUTION,
        licence=data.LICENSE,
        licence_url=LICENCE_URL,
        chapters=(*chapters.values(), _statuses(chapters["engine"]), _twists(), _tables()),
    )
