"""Transcribe the SRD chapters the app implements into `chapters.json`.

    python manage.py build_chapters [--srd /work/shared/srd]

Reads the SRD markdown (Basics, Characters from seed 002, Resources, the Bestiary's
Templates and the Magic chapter's Materia and Ephemera) and writes
`rules/data/eldritch-gambit/chapters.json`: one entry per `##`/`###` heading, its own
text as blocks (the format of `scenes.json`: a paragraph is a string, a bullet
`{"item"}`, a numbered step `{"step"}`, a bold title line `{"heading"}`, a table
`{"table", "headers", "rows"}`). The file is checked in; this command is how it was made,
so a new SRD revision can be transcribed the same way. The rules of the transcription are
in the README beside the data.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from django.core.management.base import BaseCommand

from rules.loaders import DATA_DIR

OUTPUT = DATA_DIR / "eldritch-gambit" / "chapters.json"

# (key, name, file under the SRD directory, the `##` sections kept: None keeps all).
CHAPTERS = (
    ("basics", "Basics", "eldritch-gambit/Eldritch_Gambit_SRD_Basics.md", None),
    ("characters", "Characters", "seeds/002_856a76eb2ff9aa03.txt", None),
    ("resources", "Resources", "eldritch-gambit/Eldritch_Gambit_SRD_Resources.md", None),
    # The app builds Templates from Traits and Sizes; Threat and the Sample Creatures
    # are the Imp's, and nothing in the app computes them.
    ("bestiary", "Bestiary", "eldritch-gambit/Eldritch_Gambit_SRD_Bestiary.md",
     {"Templates"}),
    # The inventory attunes Materia and counts an Ephemera's charges; Spells are not
    # implemented.
    ("magic", "Magic", "eldritch-gambit/Eldritch_Gambit_SRD_Magic.md",
     {"Materia", "Ephemera"}),
)
SKIPPED = {"Table of Contents"}

HEADING = re.compile(r"^(#{1,3})\s+(.*?)\s*$")
ATTRIBUTE_SPAN = re.compile(
    r'<span\s+(?:style="text-transform:\s*uppercase;?"|class="smallcaps")\s*>(.*?)</span>',
    re.IGNORECASE | re.DOTALL)
TABLE_ROW = re.compile(r"^\s*\|")
BULLET = re.compile(r"^\s*[-*+]\s+(.*)$")
STEP = re.compile(r"^\s*\d+\.\s+(.*)$")
BOLD_LINE = re.compile(r"^\*\*([^*]+)\*\*$")
TERM = re.compile(r"^\*{2,3}([^*]+?)\*{2,3}\s*(.*)$", re.DOTALL)


def slug_of(name: str) -> str:
    """"Willpower (WP)" -> "willpower"; "Roll-offs" -> "roll-offs"."""
    short = re.sub(r"\s*\(.*?\)\s*", " ", name).strip()
    return re.sub(r"[^a-z0-9]+", "-", short.lower()).strip("-")


def short_name(name: str) -> str:
    """The heading without its abbreviation: what the app's citations call it."""
    return re.sub(r"\s*\(.*?\)", "", name).strip()


def inline(text: str) -> str:
    """Markdown and HTML markup to plain text, the words as printed."""
    text = text.replace("\\*", "\0")  # an escaped asterisk is printed, not emphasis
    text = re.sub(r"\\([-\\`_{}\[\]()#+.!|])", r"\1", text)  # other escapes
    text = ATTRIBUTE_SPAN.sub(lambda m: m.group(1).strip().upper(), text)
    text = re.sub(r"<span[^>]*class=\"anchor\"[^>]*>\s*</span>", "", text)
    text = re.sub(r"<(https?://[^>]+)>", r"\1", text)
    text = re.sub(r"<[^>]+>", "", text)  # any other tag (u, center, img, span)
    text = re.sub(r"!\[[^\]]*\]\([^)]*\)", "", text)  # images
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # links keep their words
    text = re.sub(r"\{:[^}]*\}", "", text)  # kramdown attributes
    text = text.replace("***", "").replace("**", "")
    text = re.sub(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])", r"\1", text)
    text = re.sub(r"(?<![\w_])_(?=\S)(.+?)(?<=\S)_(?![\w_])", r"\1", text)
    text = " ".join(text.replace("\0", "*").split())
    return re.sub(r" +([,.;:!?)])", r"\1", text).strip()


def _term_block(text: str, key: str) -> dict | str:
    """A paragraph or bullet with a bold lead: {"term": "Fallen", key: "..."}."""
    found = TERM.match(text.strip())
    if found and found.group(2).strip():
        return {"term": inline(found.group(1)), key: inline(found.group(2))}
    return {key: inline(text)} if key != "text" else inline(text)


def _cells(line: str) -> list[str]:
    return [inline(cell) for cell in line.strip().strip("|").split("|")]


def blocks_of(lines: list[str]) -> list:
    """The text under one heading as blocks."""
    blocks: list = []
    chunk: list[str] = []  # the lines of the paragraph or list item being read
    kind = ""

    def flush():
        nonlocal chunk, kind
        text = " ".join(line.strip() for line in chunk)
        chunk, current = [], kind
        kind = ""
        if not inline(text):
            return
        if current == "item":
            blocks.append(_term_block(text, "item"))
        elif current == "step":
            blocks.append({"step": inline(text)})
        elif BOLD_LINE.match(text.strip()):
            blocks.append({"heading": inline(text)})
        else:
            blocks.append(_term_block(text, "text"))

    table: list[str] = []

    def flush_table():
        nonlocal table
        rows = [_cells(line) for line in table
                if not re.fullmatch(r"[\s|:\-]+", line.strip())]
        table = []
        if not rows:
            return
        title = ""
        if blocks and isinstance(blocks[-1], dict) and set(blocks[-1]) == {"heading"}:
            title = blocks.pop()["heading"]
        blocks.append({"table": title, "headers": rows[0], "rows": rows[1:]})

    for line in lines:
        stripped = line.strip()
        if TABLE_ROW.match(line):
            flush()
            table.append(line)
            continue
        if table:
            flush_table()
        if not stripped or stripped.startswith("{:") or stripped in ("- TOC", "{:toc}"):
            flush()
            continue
        bullet, step = BULLET.match(line), STEP.match(line)
        if bullet:
            flush()
            kind, chunk = "item", [bullet.group(1)]
        elif step:
            flush()
            kind, chunk = "step", [step.group(1)]
        elif stripped.endswith("\\"):  # a hard line break: the next line stands alone
            chunk.append(stripped[:-1])
            kind = kind or "line"
            flush()
        else:
            chunk.append(stripped)
    if table:
        flush_table()
    flush()
    return blocks


def sections_of(text: str, keep: set[str] | None) -> list[dict]:
    """The `##`/`###` sections of a chapter, each with its own text (up to the next
    heading) as blocks, its parent and its citation ("Basics > Rolls > Rerolls")."""
    text = re.sub(r"\A---\n.*?\n---\n", "", text, flags=re.DOTALL)
    sections: list[dict] = []
    current: dict | None = None
    parent: dict | None = None
    for line in text.splitlines():
        heading = HEADING.match(line)
        if heading:
            level, name = len(heading.group(1)), inline(heading.group(2))
            if level == 1 or name in SKIPPED:
                current = None
                if level == 2:
                    parent = None
                continue
            if level == 2:
                parent = current = {"name": name, "level": 2, "parent": "", "lines": []}
                if keep is not None and name not in keep:
                    parent = current = None
                    continue
            else:
                if parent is None:
                    current = None
                    continue
                current = {"name": name, "level": 3, "parent": parent["name"], "lines": []}
            sections.append(current)
        elif current is not None:
            current["lines"].append(line)
    return sections


def build(srd: Path) -> dict:
    chapters = []
    for key, name, path, keep in CHAPTERS:
        entries, seen = [], set()
        for section in sections_of((srd / path).read_text(encoding="utf-8"), keep):
            slug = slug_of(section["name"])
            if slug in seen:  # a heading repeated under another parent
                slug = f"{slug_of(section['parent'])}-{slug}"
            seen.add(slug)
            trail = [name, *([short_name(section["parent"])] if section["parent"] else []),
                     short_name(section["name"])]
            entries.append({
                "slug": slug,
                "name": section["name"],
                "parent": slug_of(section["parent"]) if section["parent"] else "",
                "section": " > ".join(trail),
                "blocks": blocks_of(section["lines"]),
            })
        chapters.append({"key": key, "name": name, "file": Path(path).name,
                         "entries": entries})
    return chapters


class Command(BaseCommand):
    help = "Transcribe the SRD chapters the app implements into chapters.json."

    def add_arguments(self, parser):
        parser.add_argument("--srd", default="/work/shared/srd",
                            help="The SRD directory (with eldritch-gambit/ and seeds/).")

    def handle(self, *args, srd: str, **options):
        source = json.loads((DATA_DIR / "eldritch-gambit" / "source.json").read_text())
        data = {
            "version": source["version"],
            "source": source["source"]["slug"],
            "srd_revision": source["srd_revision"],
            "chapters": build(Path(srd)),
        }
        OUTPUT.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n",
                          encoding="utf-8")
        count = sum(len(chapter["entries"]) for chapter in data["chapters"])
        self.stdout.write(f"Wrote {count} entries to {OUTPUT}.")
