"""A game system's rules reference as data: chapters of entries, one entry per heading
of its SRD (or per row of a table it is built from), each with blocks of text to render
and the citation the engine's explanations write for it ("Engine > Mettle").

Shared by the game systems (like dice.py and volleyball.py): a system's engine builds its
`Reference` (METTLE Core: rules/engine/mettle/reference.py) and names it in its
GameSystem (`reference`); the generic rules app (rules/reference.py) serves it at
/rules/<system>/<chapter>/<slug>/ and searches it. `parse_markdown` reads the SRD pages
such systems ship as Markdown (Jekyll front matter and kramdown attribute lines left out).
Pure Python: no Django.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

# -- the data --------------------------------------------------------------------------


class Outcomes(tuple):
    """(label, text) pairs of an Action's outcomes ("Success", "Edge", "Failure",
    "Twists"); `items()` so a template walks them as it walks a mapping."""

    def items(self):
        return self


@dataclass(frozen=True)
class Block:
    """One piece of rules text. kind: "paragraph" (maybe with a bold lead `term`), "item"
    (a bullet, maybe with a `term`), "step" (a numbered step), "heading", "table" (title
    in `text`, headers, rows, footnote) or "outcomes" (`outcomes`)."""

    kind: str
    text: str = ""
    term: str = ""
    headers: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    footnote: str = ""
    outcomes: Outcomes = Outcomes()

    @property
    def plain(self) -> str:
        """The block as plain text (for search)."""
        if self.kind == "table":
            lines = [self.text, " | ".join(self.headers), *(" | ".join(r) for r in self.rows),
                     self.footnote]
            return "\n".join(line for line in lines if line)
        if self.kind == "outcomes":
            return "\n".join(f"{label}: {text}" for label, text in self.outcomes)
        return f"{self.term} {self.text}".strip()


@dataclass(frozen=True)
class Entry:
    chapter: str  # the chapter's key: "engine"
    slug: str  # unique within its chapter: "taking-damage"
    name: str  # the heading as printed: "Step 3: Attributes"
    citation: str  # what explanations cite: "Engine > Mettle > Taking Damage"
    blocks: tuple[Block, ...]
    parent: str = ""  # the slug of the entry it sits under ("" for a top one)

    @property
    def short_name(self) -> str:
        """The heading before its colon, as citations name it: "Step 3"."""
        return self.name.split(":", 1)[0].strip()

    @property
    def plain(self) -> str:
        return "\n".join(block.plain for block in self.blocks)


@dataclass(frozen=True)
class Chapter:
    key: str  # in the address: /rules/<system>/<key>/
    name: str  # "Engine"; the first part of a citation
    intro: str  # one paragraph under the title ("" for none)
    entries: tuple[Entry, ...]

    def children(self, entry: Entry) -> tuple[Entry, ...]:
        return tuple(e for e in self.entries if e.parent == entry.slug)

    def entry(self, slug: str) -> Entry | None:
        return next((e for e in self.entries if e.slug == slug), None)


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


@dataclass(frozen=True)
class Reference:
    """A system's whole reference, with the source and the attribution its licence asks
    for (shown on every page of it)."""

    title: str  # "METTLE Core SRD"
    attribution: str
    licence: str  # "CC BY 4.0"
    licence_url: str
    chapters: tuple[Chapter, ...]

    def chapter(self, key: str) -> Chapter | None:
        return next((c for c in self.chapters if c.key == key), None)

    def entry(self, chapter: str, slug: str) -> Entry | None:
        found = self.chapter(chapter)
        return found.entry(slug) if found else None

    def entries(self) -> Iterable[Entry]:
        for chapter in self.chapters:
            yield from chapter.entries

    def resolve(self, citation: str) -> Entry | None:
        """The entry a citation names: "Chapter > Heading", with or without the headings
        between ("Engine > Taking Damage" and "Engine > Mettle > Taking Damage"), a heading
        by its full name or the part before its colon (METTLE Core: Characters > Step 3); the entry
        itself when the citation is exactly its own. None when it names none."""
        parts = [_fold(part) for part in citation.split(">")]
        if len(parts) < 2:
            return None
        found = self._lookup.get(parts[0])
        if found is None:
            return None
        exact, named = found
        entry = exact.get(_fold(citation))
        return entry if entry is not None else named.get(parts[-1])

    @cached_property
    def _lookup(self) -> dict[str, tuple[dict[str, Entry], dict[str, Entry]]]:
        """Each chapter's folded name: its entries by folded citation, and by folded name
        and short name; the first of each in the chapter's order, as `resolve` reads
        them. Built once per Reference (a sheet resolves dozens of citations a render)."""
        lookup: dict[str, tuple[dict[str, Entry], dict[str, Entry]]] = {}
        for chapter in self.chapters:
            exact: dict[str, Entry] = {}
            named: dict[str, Entry] = {}
            for entry in chapter.entries:
                exact.setdefault(_fold(entry.citation), entry)
                named.setdefault(_fold(entry.name), entry)
                named.setdefault(_fold(entry.short_name), entry)
            lookup.setdefault(_fold(chapter.name), (exact, named))
        return lookup


# -- Markdown ----------------------------------------------------------------------------

HEADING = re.compile(r"^(#{2,3})\s+(.*?)\s*$")
BULLET = re.compile(r"^\s*[-*+]\s+")
STEP = re.compile(r"^\s*\d+\.\s+")
TERM = re.compile(r"^\*\*(.+?)\*\*:?\s*(.*)$", re.DOTALL)
SKIPPED_HEADINGS = {"table of contents"}


def inline(text: str) -> str:
    """Markdown's emphasis and links taken out: plain words."""
    text = re.sub(r"<[^>]+>", "", text)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = text.replace("***", "").replace("**", "").replace("\\", "")
    text = re.sub(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])", r"\1", text)
    text = re.sub(r"(?<![\w_])_(?=\S)(.+?)(?<=\S)_(?![\w_])", r"\1", text)
    return " ".join(text.split())


def _term(text: str) -> tuple[str, str]:
    """A lead in bold ("**Afflicted**: suffering...") as (term, rest)."""
    found = TERM.match(text.strip())
    if not found:
        return "", inline(text)
    term = inline(found.group(1)).rstrip(":")
    return term, inline(found.group(2)).lstrip(": ").strip()


def _table(lines: list[str], title: str) -> Block:
    rows = [[inline(cell) for cell in line.strip().strip("|").split("|")] for line in lines]
    rows = [row for row in rows if not all(re.fullmatch(r":?-+:?", c or "-") for c in row)]
    while rows and not any(rows[0]):  # an empty header row: the first row heads the table
        rows.pop(0)
    headers, body = (rows[0], rows[1:]) if rows else ([], [])
    return Block("table", text=title, headers=tuple(headers),
                 rows=tuple(tuple(row) for row in body))


def _items(lines: list[str], pattern: re.Pattern, kind: str) -> list[Block]:
    """Bullets or steps, each with its wrapped lines joined."""
    pieces: list[str] = []
    for line in lines:
        if pattern.match(line):
            pieces.append(pattern.sub("", line, count=1))
        elif pieces:
            pieces[-1] += " " + line.strip()
    blocks = []
    for piece in pieces:
        term, text = _term(piece)
        blocks.append(Block(kind, text=text, term=term))
    return blocks


def _outcomes(lines: list[str]) -> Block:
    pairs = []
    for block in _items(lines, BULLET, "item"):
        pairs.append((block.term, block.text))
    return Block("outcomes", outcomes=Outcomes(pairs))


def _blocks(text: str) -> list[Block]:
    """The blocks of the text under one heading."""
    blocks: list[Block] = []
    caption = ""  # a table's title ("**DIFFICULTY**", "<strong>CREDIT</strong>")
    attribute = ""  # the kramdown attribute line before a block ("{: .outcomes }")
    for chunk in re.split(r"\n\s*\n", text):
        lines = [line for line in chunk.splitlines() if line.strip()]
        if not lines:
            continue
        kept = []
        for line in lines:
            stripped = line.strip()
            if re.fullmatch(r"\{:.*\}", stripped):
                attribute = stripped
                continue
            strong = re.fullmatch(r"(?:<center>)?\s*<strong>(.*?)</strong>\s*(?:</center>)?",
                                  stripped) or re.fullmatch(r"\*\*([A-Z][A-Z ,&'-]+)\*\*",
                                                            stripped)
            if strong:
                caption = inline(strong.group(1))
                continue
            if re.fullmatch(r"</?center>|<img[^>]*/?>|<center><img[^>]*/?></center>",
                            stripped):
                continue
            kept.append(line)
        if not kept:
            continue
        if kept[0].lstrip().startswith("|"):
            blocks.append(_table([k for k in kept if k.strip().startswith("|")], caption))
            caption = ""
        elif kept[0].lstrip().startswith(">"):
            quoted = [re.sub(r"^\s*>\s?", "", k) for k in kept]
            if "outcomes" in attribute:
                blocks.append(_outcomes(quoted))
            else:
                blocks += _items(quoted, BULLET, "item") if BULLET.match(quoted[0]) else [
                    Block("paragraph", text=inline(" ".join(quoted)))]
        elif BULLET.match(kept[0]):
            blocks += _items(kept, BULLET, "item")
        elif STEP.match(kept[0]):
            blocks += _items(kept, STEP, "step")
        else:
            term, rest = _term(" ".join(k.strip() for k in kept))
            if term and not rest:
                blocks.append(Block("paragraph", text=term))
            else:
                blocks.append(Block("paragraph", text=rest, term=term))
        attribute = ""
    return blocks


def slug_of(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")


def parse_markdown(text: str, *, key: str) -> Chapter:
    """A chapter from its Markdown page: the title from the front matter, the italic
    opening as its intro, one entry per `##` and `###` heading (a `###` under its `##`)."""
    name = key.title()
    front = re.match(r"^---\n(.*?)\n---\n", text, re.DOTALL)
    if front:
        title = re.search(r"^title:\s*(.+)$", front.group(1), re.MULTILINE)
        name = title.group(1).strip() if title else name
        text = text[front.end():]
    sections: list[tuple[int, str, list[str]]] = [(1, "", [])]
    for line in text.splitlines():
        found = HEADING.match(line)
        if found:
            sections.append((len(found.group(1)), inline(found.group(2)), []))
        else:
            sections[-1][2].append(line)
    intro = " ".join(b.text for b in _blocks("\n".join(sections[0][2]))
                     if b.kind == "paragraph")
    entries: list[Entry] = []
    parent: Entry | None = None
    seen: set[str] = set()
    for level, heading, body in sections[1:]:
        if heading.casefold() in SKIPPED_HEADINGS:
            continue
        slug = slug_of(heading)
        if slug in seen and parent is not None:
            slug = f"{parent.slug}-{slug}"
        seen.add(slug)
        under = parent if level == 3 and parent is not None else None
        citation = " > ".join(p for p in (name, under and under.name, heading) if p)
        entry = Entry(key, slug, heading, citation, tuple(_blocks("\n".join(body))),
                      under.slug if under else "")
        entries.append(entry)
        if level == 2:
            parent = entry
    return Chapter(key, name, intro, tuple(entries))
