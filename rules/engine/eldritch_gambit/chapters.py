"""The SRD chapters besides Scenes, as data: Basics, Characters, Resources, the Bestiary's
Templates and the Magic chapter's Materia and Ephemera.

Eldritch Gambit SRD. The text is transcribed, one entry per heading, into
`rules/data/eldritch-gambit/chapters.json` by `manage.py build_chapters` (see the README
there); this module loads it once, at import, into frozen dataclasses, and resolves the
citations the engine writes ("Characters > Defenses > Willpower") to their entry.
Pure Python: no Django.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from .scenes import Block, _blocks

DATA_FILE = Path(__file__).resolve().parents[2] / "data" / "eldritch-gambit" / "chapters.json"


@dataclass(frozen=True)
class Section:
    """One heading of a chapter and its own text (up to the next heading)."""

    chapter: str  # "basics", "characters", ...
    slug: str  # "rerolls", unique within the chapter
    name: str  # the heading as printed: "Willpower (WP)"
    parent: str  # the slug of the `##` section a `###` one sits under; "" for a `##`
    section: str  # the citation: "Characters > Defenses > Willpower"
    blocks: tuple[Block, ...]

    @property
    def short_name(self) -> str:
        """The heading without its abbreviation, as citations name it: "Willpower"."""
        return re.sub(r"\s*\(.*?\)", "", self.name).strip()

    @property
    def plain(self) -> str:
        return "\n".join(block.plain for block in self.blocks)


@dataclass(frozen=True)
class Chapter:
    key: str
    name: str
    sections: tuple[Section, ...]

    def children(self, section: Section) -> tuple[Section, ...]:
        return tuple(s for s in self.sections if s.parent == section.slug)


def _load() -> dict[str, Chapter]:
    with DATA_FILE.open(encoding="utf-8") as handle:
        raw = json.load(handle)
    return {
        chapter["key"]: Chapter(chapter["key"], chapter["name"], tuple(
            Section(chapter["key"], entry["slug"], entry["name"], entry["parent"],
                    entry["section"], _blocks(entry["blocks"]))
            for entry in chapter["entries"]
        ))
        for chapter in raw["chapters"]
    }


CHAPTERS: dict[str, Chapter] = _load()
SECTIONS: tuple[Section, ...] = tuple(s for c in CHAPTERS.values() for s in c.sections)
_BY_KEY = {(s.chapter, s.slug): s for s in SECTIONS}


def section(chapter: str, slug: str) -> Section:
    """The entry at chapter/slug; KeyError when there is none."""
    return _BY_KEY[(chapter, slug)]


def _norm(text: str) -> str:
    return " ".join(text.replace("&gt;", ">").split()).casefold()


_BY_CITATION = {_norm(s.section): s for s in SECTIONS}


def resolve(citation: str) -> Section | None:
    """The entry a citation names, or None.

    The whole trail first ("Basics > Rolls > Rerolls"); else the chapter and the last
    heading, skipping the ones between when only one entry of the chapter has that name
    ("Basics > Rerolls", "Bestiary > Size").
    """
    found = _BY_CITATION.get(_norm(citation))
    if found:
        return found
    parts = [part.strip() for part in citation.replace("&gt;", ">").split(">")]
    if len(parts) < 2:
        return None
    chapter = next((c for c in CHAPTERS.values() if _norm(c.name) == _norm(parts[0])), None)
    if chapter is None:
        return None
    last = _norm(parts[-1])
    named = [s for s in chapter.sections if last in (_norm(s.short_name), _norm(s.name))]
    return named[0] if len(named) == 1 else None
