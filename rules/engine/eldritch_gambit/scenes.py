"""The Scenes chapter as data: Staging, Actions, Montages, Scenery, and the standard
Criticals and Botches.

Eldritch Gambit SRD, Scenes (Staging, Actions, Montages, Scenery) and Basics > Checks >
Gambits (STANDARD CRITICALS, STANDARD BOTCHES). The text is transcribed into fields in
`rules/data/eldritch-gambit/scenes.json` (see the README there); this module loads it once,
at import, into frozen dataclasses. Pure Python: no Django.

The interface (ACTIONS, STANDARD_CRITICALS, STANDARD_BOTCHES, SCENERY, action(), and the
fields of Outcomes/Action/RuleEntry) is shared with other code: add fields, never rename
or remove them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

DATA_FILE = Path(__file__).resolve().parents[2] / "data" / "eldritch-gambit" / "scenes.json"

ATTRIBUTE_ABBREVIATIONS = ("STR", "DEX", "AGI", "END", "WIS", "CHA")


@dataclass(frozen=True)
class Outcomes:
    critical: str
    success: str
    failure: str
    botch: str

    def items(self) -> tuple[tuple[str, str], ...]:
        """(label, text) in the SRD's order: Critical, Success, Failure, Botch."""
        return (
            ("Critical", self.critical),
            ("Success", self.success),
            ("Failure", self.failure),
            ("Botch", self.botch),
        )

    def __bool__(self) -> bool:
        return any((self.critical, self.success, self.failure, self.botch))


NO_OUTCOMES = Outcomes("", "", "", "")


@dataclass(frozen=True)
class Block:
    """One piece of rules text, kept structured so pages render it from data.

    kind: "paragraph" (text, maybe a bold lead `term`), "item" (a bullet, maybe with a
    `term`), "step" (a numbered step), "heading", "table" (title, headers, rows,
    footnote) or "outcomes".
    """

    kind: str
    text: str = ""
    term: str = ""
    headers: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    footnote: str = ""
    outcomes: Outcomes = NO_OUTCOMES

    @property
    def plain(self) -> str:
        """The block as one line of plain text (for notes and search)."""
        if self.kind == "table":
            lines = [self.text, " | ".join(self.headers)]
            lines += [" | ".join(row) for row in self.rows]
            if self.footnote:
                lines.append(self.footnote)
            return "\n".join(line for line in lines if line)
        if self.kind == "outcomes":
            return "\n".join(f"{label}: {text}" for label, text in self.outcomes.items())
        return f"{self.term} {self.text}".strip()


@dataclass(frozen=True)
class Action:
    """An Action or a Montage (Scenes > Actions, Scenes > Montages)."""

    slug: str  # "attack-melee", "dodge", "crafting", ...
    name: str  # "Attack, Melee"
    kind: str  # "action" or "montage"
    summary: str  # the opening description (plain text, paragraphs split by a blank line)
    check: str  # the Check/Roll line, e.g. "DEX vs. AF"; "" when the entry prints none
    ocs: str  # the OCS line, e.g. "All adventurers use d20 for Attacks."
    always_d20: bool  # "All adventurers use d20" (Attack, Grapple, Dodge)
    outcomes: Outcomes  # the four suggested outcomes (plain text); all "" when none
    default_critical: str  # the named default, e.g. "Bonus Damage"; "" when none is named
    default_botch: str  # e.g. "Countered"; "" when none is named
    notes: tuple[str, ...]  # further rules paragraphs/bullets (plain text)
    section: str  # citation, e.g. "Scenes > Actions > Attack, Melee"
    # Added fields (beyond the shared interface):
    check_label: str = "Check"  # "Check", or "Roll" (Rally prints "Roll:")
    check_footnote: str = ""  # Rally: "*unarmored - armor improves this die."
    # The named defaults as standard table names; two when the SRD offers a choice
    # (Move: "Aid ally or Hinder foe" -> ("Assist Ally", "Hinder foe")). A name that is
    # not in the standard tables (Travel's "Lost") is its own outcome text.
    default_critical_options: tuple[str, ...] = ()
    default_botch_options: tuple[str, ...] = ()
    attributes: tuple[str, ...] = ()  # Attributes the check line names, e.g. ("DEX",)
    summary_blocks: tuple[Block, ...] = ()
    note_blocks: tuple[Block, ...] = ()

    @property
    def has_check(self) -> bool:
        return bool(self.check)

    @property
    def url_group(self) -> str:
        return "actions" if self.kind == "action" else "montages"


@dataclass(frozen=True)
class RuleEntry:
    """A Scenery rule (Cover, Fire...) or a Staging rule (Time, Initiative...)."""

    slug: str
    name: str
    group: str  # "scenery", "staging"
    text: tuple[str, ...]  # plain text, one paragraph/bullet/table per element
    section: str
    blocks: tuple[Block, ...] = ()


@dataclass(frozen=True)
class StatusText:
    """The SRD's own words on a Status (Characters > Defenses), keyed like statuses.py."""

    key: str  # "staggered", as `statuses.STATUS_BY_KEY`
    name: str
    lead: str  # the bold lead as printed: "Staggered" or "Blinded:"
    text: str  # the rest of the bullet, plain text
    section: str

    @property
    def plain(self) -> str:
        return f"{self.lead} {self.text}"


@dataclass(frozen=True)
class Chapter:
    """A part of the Scenes chapter with its opening text."""

    key: str  # "staging", "actions", "montages", "scenery"
    name: str
    intro: tuple[Block, ...]
    section: str


def _block(raw) -> Block:
    if isinstance(raw, str):
        return Block("paragraph", text=raw)
    if "item" in raw:
        return Block("item", text=raw["item"], term=raw.get("term", ""))
    if "step" in raw:
        return Block("step", text=raw["step"])
    if "heading" in raw:
        return Block("heading", text=raw["heading"])
    if "table" in raw:
        return Block(
            "table",
            text=raw["table"],
            headers=tuple(raw["headers"]),
            rows=tuple(tuple(row) for row in raw["rows"]),
            footnote=raw.get("footnote", ""),
        )
    if "outcomes" in raw:
        return Block("outcomes", outcomes=_outcomes(raw["outcomes"]))
    return Block("paragraph", text=raw["text"], term=raw.get("term", ""))


def _blocks(raws) -> tuple[Block, ...]:
    return tuple(_block(raw) for raw in raws)


def _outcomes(raw: dict | None) -> Outcomes:
    if not raw:
        return NO_OUTCOMES
    return Outcomes(raw["critical"], raw["success"], raw["failure"], raw["botch"])


def _attributes(check: str) -> tuple[str, ...]:
    found = re.findall(r"\b(" + "|".join(ATTRIBUTE_ABBREVIATIONS) + r")\b", check)
    return tuple(dict.fromkeys(found))


def _action(raw: dict, kind: str, chapter: str) -> Action:
    summary_blocks = _blocks(raw["summary"])
    note_blocks = _blocks(raw.get("notes", ()))
    check = raw.get("check", "")
    return Action(
        slug=raw["slug"],
        name=raw["name"],
        kind=kind,
        summary="\n\n".join(block.plain for block in summary_blocks),
        check=check,
        ocs=raw.get("ocs", ""),
        always_d20=raw["always_d20"],
        outcomes=_outcomes(raw.get("outcomes")),
        default_critical=raw.get("default_critical", ""),
        default_botch=raw.get("default_botch", ""),
        notes=tuple(block.plain for block in note_blocks),
        section=f"Scenes > {chapter} > {raw['name']}",
        check_label=raw.get("check_label", "Check"),
        check_footnote=raw.get("check_footnote", ""),
        default_critical_options=tuple(raw.get("default_critical_options", ())),
        default_botch_options=tuple(raw.get("default_botch_options", ())),
        attributes=_attributes(check),
        summary_blocks=summary_blocks,
        note_blocks=note_blocks,
    )


def _rule(raw: dict, group: str, chapter: str) -> RuleEntry:
    blocks = _blocks(raw["text"])
    return RuleEntry(
        slug=raw["slug"],
        name=raw["name"],
        group=group,
        text=tuple(block.plain for block in blocks),
        section=f"Scenes > {chapter} > {raw['name']}",
        blocks=blocks,
    )


@dataclass(frozen=True)
class _Data:
    version: str
    chapters: dict[str, Chapter] = field(default_factory=dict)
    actions: tuple[Action, ...] = ()
    staging: tuple[RuleEntry, ...] = ()
    scenery: tuple[RuleEntry, ...] = ()
    criticals: tuple[tuple[str, str], ...] = ()
    botches: tuple[tuple[str, str], ...] = ()
    statuses: tuple[StatusText, ...] = ()


def _load(path: Path = DATA_FILE) -> _Data:
    with path.open(encoding="utf-8") as handle:
        raw = json.load(handle)
    chapters = {
        key: Chapter(key, value["name"], _blocks(value["intro"]), f"Scenes > {value['name']}")
        for key, value in raw["chapters"].items()
    }
    return _Data(
        version=raw["version"],
        chapters=chapters,
        actions=tuple(_action(row, "action", "Actions") for row in raw["actions"])
        + tuple(_action(row, "montage", "Montages") for row in raw["montages"]),
        staging=tuple(_rule(row, "staging", "Staging") for row in raw["staging"]),
        scenery=tuple(_rule(row, "scenery", "Scenery") for row in raw["scenery"]),
        criticals=tuple((name, effect) for name, effect in raw["standard_criticals"]),
        botches=tuple((name, effect) for name, effect in raw["standard_botches"]),
        statuses=tuple(
            StatusText(row["key"], row["name"], row["lead"], row["text"], row["section"])
            for row in raw.get("statuses", ())
        ),
    )


_DATA = _load()

VERSION: str = _DATA.version
CHAPTERS: dict[str, Chapter] = _DATA.chapters
ACTIONS: tuple[Action, ...] = _DATA.actions  # all Actions then all Montages, in SRD order
ACTIONS_ONLY: tuple[Action, ...] = tuple(a for a in ACTIONS if a.kind == "action")
MONTAGES: tuple[Action, ...] = tuple(a for a in ACTIONS if a.kind == "montage")
# STANDARD CRITICALS / STANDARD BOTCHES (Basics > Checks > Gambits): (name, effect).
STANDARD_CRITICALS: tuple[tuple[str, str], ...] = _DATA.criticals
STANDARD_BOTCHES: tuple[tuple[str, str], ...] = _DATA.botches
SCENERY: tuple[RuleEntry, ...] = _DATA.scenery
STAGING: tuple[RuleEntry, ...] = _DATA.staging  # Time, Distance, Initiative, ...
# The SRD text of each Status, in the SRD's order (HP Status Effects, then Status).
STATUS_TEXTS: tuple[StatusText, ...] = _DATA.statuses
STATUS_TEXT_BY_KEY: dict[str, StatusText] = {s.key: s for s in STATUS_TEXTS}

_ACTIONS_BY_SLUG = {a.slug: a for a in ACTIONS}
_RULES_BY_KEY = {(r.group, r.slug): r for r in (*STAGING, *SCENERY)}
_CRITICALS_BY_NAME = {name.lower(): effect for name, effect in STANDARD_CRITICALS}
_BOTCHES_BY_NAME = {name.lower(): effect for name, effect in STANDARD_BOTCHES}


def action(slug: str) -> Action:
    """The Action or Montage with this slug; KeyError when unknown."""
    return _ACTIONS_BY_SLUG[slug]


def rule(group: str, slug: str) -> RuleEntry:
    """A Staging or Scenery entry, e.g. rule("staging", "initiative"); KeyError when unknown."""
    return _RULES_BY_KEY[(group, slug)]


def standard_critical(name: str) -> str:
    """The effect of a STANDARD CRITICALS entry, by name in any case; "" when not standard."""
    return _CRITICALS_BY_NAME.get((name or "").strip().lower(), "")


def standard_botch(name: str) -> str:
    """The effect of a STANDARD BOTCHES entry, by name in any case; "" when not standard."""
    return _BOTCHES_BY_NAME.get((name or "").strip().lower(), "")
