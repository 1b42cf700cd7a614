"""The rules reference: every entry it shows, where it lives, and search over them.

The entries come from the engine's structured data (`rules.engine.eldritch_gambit`: the
chapters Basics, Characters, Resources, Bestiary > Templates and Magic > Materia/Ephemera,
then scenes, statuses, checks, levels) and from the SRD rows of the gear and Trait catalog.
`citation_url` turns the citation an explanation carries ("Characters > Defenses") into
the address of its entry.
Homebrew is never part of the reference: the search looks at SRD rows only.

The other game systems' references come through the registry (GameSystem.reference: a
rules.engine.reference.Reference): served at /rules/<system>/<chapter>/<slug>/, searched
beside Eldritch Gambit's (each result says its game), their citations resolved with
`citation_url(citation, system=key)`. Nothing here imports a system's engine for that.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache

from django.urls import reverse
from django.utils.text import slugify

from rules.engine.eldritch_gambit import chapters, checks, levels, scenes, statuses

from . import systems
from .loaders import DATA_DIR
from .models import GearCategory, GearItem, Trait

# The game of the entries this module builds itself (the others name theirs).
ELDRITCH_GAMBIT_NAME = "Eldritch Gambit"

# The LEVEL BENEFITS table (Characters > Level) runs from Level 1 to 20.
LEVEL_TABLE = range(levels.MIN_LEVEL, 21)

MAX_QUERY = 100  # characters; longer queries get a message, not a search
MAX_RESULTS = 50
SNIPPET = 90  # characters of context either side of the first match

# Section key -> (heading on the index, label of one entry). The index's order; the
# chapters transcribed in `chapters` (Basics, Characters...) come first, by their key.
SECTIONS = {
    **{key: (chapter.name, chapter.name) for key, chapter in chapters.CHAPTERS.items()},
    "staging": ("Staging", "Staging"),
    "actions": ("Actions", "Action"),
    "montages": ("Montages", "Montage"),
    "scenery": ("Scenery", "Scenery"),
    "statuses": ("Statuses", "Status"),
    "criticals": ("Criticals & Botches", "Standard Critical"),
    "botches": ("Criticals & Botches", "Standard Botch"),
    "difficulties": ("Difficulties", "Difficulty"),
    "levels": ("Levels", "Level"),
    "gear": ("Gear", "Gear"),
    "traits": ("Traits", "Trait"),
}


@dataclass(frozen=True)
class Entry:
    section: str  # a key of SECTIONS, or "<system>:<chapter>" for another system's
    name: str
    url: str
    text: str  # everything searchable besides the name, plain text
    game: str = ELDRITCH_GAMBIT_NAME  # the game system's name, shown beside each result
    kind: str = ""  # the label of another system's entry (its chapter's name)

    @property
    def label(self) -> str:
        return self.kind or SECTIONS[self.section][1]


def status_anchor(key: str) -> str:
    return f"status-{key}"


def critical_anchor(name: str) -> str:
    return f"critical-{slugify(name)}"


def botch_anchor(name: str) -> str:
    return f"botch-{slugify(name)}"


def action_url(entry: scenes.Action) -> str:
    return reverse("rules:action" if entry.kind == "action" else "rules:montage",
                   args=[entry.slug])


def rule_url(entry: scenes.RuleEntry) -> str:
    return reverse(f"rules:{entry.group}", args=[entry.slug])


def section_url(section: chapters.Section) -> str:
    """A chapter's entry: /rules/characters/willpower/."""
    return reverse("rules:section", args=[section.chapter, section.slug])


@cache
def _scenes_citations() -> dict[str, str]:
    """The Scenes chapter's citations ("Scenes > Actions > Dodge", "Scenes > Actions")
    and their addresses."""
    index = reverse("rules:index")
    urls = {action.section: action_url(action) for action in scenes.ACTIONS}
    urls.update({rule.section: rule_url(rule) for rule in (*scenes.STAGING, *scenes.SCENERY)})
    urls.update({chapter.section: f"{index}#{key}-heading"
                 for key, chapter in scenes.CHAPTERS.items()})
    urls["Scenes"] = f"{index}#staging-heading"
    return {" ".join(key.split()).casefold(): url for key, url in urls.items()}


def citation_url(citation: str, system: str | None = None) -> str:
    """The reference entry an SRD citation names ("Characters > Defenses > Willpower",
    "Bestiary > Size", "Scenes > Actions > Dodge"); "" when it names none. `system`: the
    key of the game system whose SRD it cites (Eldritch Gambit's when None); another
    system's citations ("Engine > Mettle") resolve in its own reference."""
    if system is not None and system != systems.ELDRITCH_GAMBIT:
        found = system_reference(system)
        entry = found.resolve(citation) if found is not None else None
        return system_entry_url(system, entry) if entry is not None else ""
    section = chapters.resolve(citation)
    if section is not None:
        return section_url(section)
    return _scenes_citations().get(" ".join(citation.split()).casefold(), "")


def citation_links(source: str, system: str | None = None) -> list[tuple[str, str]]:
    """An explanation's source, "Resources > Weapons; Bestiary > Size", as (citation,
    url) pairs, one per citation; the url is "" for one the reference does not hold."""
    return [(part, citation_url(part, system)) for part in
            (piece.strip() for piece in source.split(";")) if part]


def default_links(names: tuple[str, ...], kind: str) -> list[dict]:
    """The named defaults of an Action, each with its standard effect and anchor."""
    index = reverse("rules:index")
    lookup, anchor = ((scenes.standard_critical, critical_anchor) if kind == "critical"
                      else (scenes.standard_botch, botch_anchor))
    links = []
    for name in names:
        effect = lookup(name)
        links.append({"name": name, "effect": effect,
                      "url": f"{index}#{anchor(name)}" if effect else ""})
    return links


@cache
def source_credit() -> dict:
    """The Eldritch Gambit source and the attribution its CC BY licence asks for.

    Read from the data file (not the database), so the credit shows even before the
    catalog rows are loaded.
    """
    with (DATA_DIR / "eldritch-gambit" / "source.json").open(encoding="utf-8") as handle:
        return json.load(handle)["source"]


@cache
def _engine_entries() -> tuple[Entry, ...]:
    index = reverse("rules:index")
    entries: list[Entry] = [
        Entry(section.chapter, section.name, section_url(section), section.plain)
        for section in chapters.SECTIONS
    ]
    for rule in scenes.STAGING:
        entries.append(Entry("staging", rule.name, rule_url(rule), "\n".join(rule.text)))
    for action in scenes.ACTIONS:
        text = [action.summary,
                f"{action.check_label}: {action.check}" if action.check else "",
                f"OCS: {action.ocs}" if action.ocs else "", action.check_footnote,
                *(f"{label}: {text}" for label, text in action.outcomes.items() if text),
                *action.notes]
        entries.append(Entry(f"{action.kind}s", action.name, action_url(action),
                             "\n".join(t for t in text if t)))
    for rule in scenes.SCENERY:
        entries.append(Entry("scenery", rule.name, rule_url(rule), "\n".join(rule.text)))
    for status in statuses.STATUSES:
        srd = scenes.STATUS_TEXT_BY_KEY.get(status.key)
        entries.append(Entry("statuses", status.name,
                             reverse("rules:status", args=[status.key]),
                             "\n".join([status.effect, srd.plain if srd else ""])))
    for name, effect in scenes.STANDARD_CRITICALS:
        entries.append(Entry("criticals", name, f"{index}#{critical_anchor(name)}", effect))
    for name, effect in scenes.STANDARD_BOTCHES:
        entries.append(Entry("botches", name, f"{index}#{botch_anchor(name)}", effect))
    for df, name in checks.DIFFICULTIES:
        entries.append(Entry("difficulties", name, f"{index}#difficulties", f"DF {df}"))
    return tuple(entries)


def _catalog_entries() -> list[Entry]:
    index = reverse("rules:index")
    labels = dict(GearCategory.choices)
    entries = []
    for item in GearItem.objects.srd().order_by("category", "name"):
        text = [labels.get(item.category, ""), item.notes, item.description,
                item.weapon_damage]
        entries.append(Entry("gear", item.name, f"{index}#gear-{item.slug}",
                             "\n".join(t for t in text if t)))
    for trait in Trait.objects.srd().order_by("group", "name"):
        entries.append(Entry("traits", trait.name, f"{index}#trait-{trait.slug}",
                             "\n".join(t for t in (trait.effects, trait.description) if t)))
    return entries


def all_entries() -> list[Entry]:
    """Every entry the search looks at: Eldritch Gambit's, then each other system's."""
    others = [entry for system, _ in systems.with_references()
              for entry in _system_entries(system.key)]
    return [*_engine_entries(), *_catalog_entries(), *others]


# -- the other systems' references (GameSystem.reference) -----------------------------


def system_reference(key: str):
    """The Reference of the registered system `key` (a typed key: anything), or None."""
    system = systems.find(key)
    return systems.reference_of(system) if system is not None else None


def system_index_url(key: str) -> str:
    return reverse("rules:system_index", kwargs={"system": key})


def system_chapter_url(key: str, chapter: str) -> str:
    return reverse("rules:system_chapter", kwargs={"system": key, "chapter": chapter})


def system_entry_url(key: str, entry) -> str:
    """/rules/mettle-core/engine/mettle/: one entry of a system's reference."""
    return reverse("rules:system_entry",
                   kwargs={"system": key, "chapter": entry.chapter, "slug": entry.slug})


@cache
def _system_entries(key: str) -> tuple[Entry, ...]:
    system = systems.get(key)
    found = systems.reference_of(system)
    return tuple(
        Entry(f"{key}:{chapter.key}", entry.name, system_entry_url(key, entry), entry.plain,
              game=system.name, kind=chapter.name)
        for chapter in found.chapters for entry in chapter.entries
    )


# -- cross-references ------------------------------------------------------------------


@cache
def _link_targets() -> tuple[tuple[re.Pattern, Entry], ...]:
    """Entries other pages may mention by name: Actions, Montages, Scenery, Statuses and
    Initiative. Names match as whole words, case and all ("Fire", not "Friendly fire")."""
    wanted = {"actions", "montages", "scenery", "statuses"}
    targets = []
    for entry in _engine_entries():
        if entry.section in wanted or (entry.section, entry.name) == ("staging", "Initiative"):
            # "Attack, Melee" is mentioned as "Attack"; the Ranged one has the same word.
            name = "Attack" if entry.name.startswith("Attack, ") else entry.name
            targets.append((re.compile(rf"\b{re.escape(name)}\b"), entry))
    return tuple(targets)


def mentioned_in(texts, url: str) -> list[Entry]:
    """The entries named in some text (the page at `url` itself left out), in the
    reference's order. An "Attack" links both Attacks."""
    text = "\n".join(texts)
    return [entry for pattern, entry in _link_targets()
            if entry.url != url and pattern.search(text)]


# -- search ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Match:
    entry: Entry
    name: list[tuple[str, bool]]  # (piece, is_match), to highlight in the template
    snippet: list[tuple[str, bool]]


def terms_of(query: str) -> list[str]:
    """The words to find: every one must appear (in the name or the text), any case."""
    return [term for term in dict.fromkeys(query.lower().split()) if term]


def _pattern(terms: list[str]) -> re.Pattern:
    # Longest first, so "fire" inside "friendly fire" does not cut a longer term short.
    return re.compile("|".join(re.escape(t) for t in sorted(terms, key=len, reverse=True)),
                      re.IGNORECASE)


def highlight(text: str, pattern: re.Pattern) -> list[tuple[str, bool]]:
    pieces, last = [], 0
    for found in pattern.finditer(text):
        if found.start() > last:
            pieces.append((text[last:found.start()], False))
        pieces.append((found.group(0), True))
        last = found.end()
    if last < len(text):
        pieces.append((text[last:], False))
    return pieces


def snippet(text: str, pattern: re.Pattern) -> str:
    """A stretch of `text` around its first match (or its opening when none)."""
    flat = " ".join(text.split())
    found = pattern.search(flat)
    if not found:
        return flat[: 2 * SNIPPET] + ("…" if len(flat) > 2 * SNIPPET else "")
    start = max(found.start() - SNIPPET, 0)
    end = min(found.end() + SNIPPET, len(flat))
    if start > 0:  # start on a word
        space = flat.find(" ", start)
        start = space + 1 if 0 <= space < found.start() else start
    if end < len(flat):
        space = flat.rfind(" ", found.end(), end)
        end = space if space > 0 else end
    return ("…" if start > 0 else "") + flat[start:end] + ("…" if end < len(flat) else "")


def search(query: str, entries: list[Entry] | None = None) -> list[Match]:
    """Entries whose name or text holds every word of the query, names first."""
    terms = terms_of(query)
    if not terms:
        return []
    pattern = _pattern(terms)
    ranked = []
    whole = " ".join(terms)
    for position, entry in enumerate(entries if entries is not None else all_entries()):
        name, text = entry.name.lower(), entry.text.lower()
        if not all(term in name or term in text for term in terms):
            continue
        if whole in name:
            rank = 0
        elif any(term in name for term in terms):
            rank = 1
        else:
            rank = 2
        ranked.append((rank, position, entry))
    ranked.sort(key=lambda row: row[:2])
    return [
        Match(entry, highlight(entry.name, pattern),
              highlight(snippet(entry.text, pattern), pattern))
        for _, _, entry in ranked
    ]
