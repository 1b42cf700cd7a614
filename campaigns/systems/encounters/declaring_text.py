"""The Guide's declaration, one action a line, as the engine's declaring items.

    strike                 a major action (no skill named)
    major physical strike  a major action with its kind of skill
    defend                 a declared defence
    haste                  +2 Initiative on everything this round
    run 25                 yards on foot (one movement action per pace-length)
    ride 60 30             yards mounted, at the mount's pace
    stand / mount / leap   one movement action
    minor draw a dagger    a minor action
    major physical pick the lock x3 engrossing
                           a major taking 3 rounds, allowing no defence while it lasts

A line that is none of these is a major action named by the line. The engine checks
everything else (four movement actions at most, one kind of skill a round)."""

from __future__ import annotations

import re

from rules.engine.encounters.combatants import MENTAL, PHYSICAL, EncounterError
from rules.engine.encounters.declaring import MAX_ITEMS, MAX_LABEL

MAX_TEXT = 2000
ROUNDS = re.compile(r"x([0-9]{1,3})")
ENGROSSING = "engrossing"


def _major(words: list[str], skill: str = "") -> dict:
    """A major action: its label, with `xN` (rounds) and `engrossing` read off it."""
    item: dict = {"kind": "major"}
    if skill:
        item["skill"] = skill
    label = []
    for word in words:
        rounds = ROUNDS.fullmatch(word.lower())
        if rounds:
            item["rounds"] = rounds.group(1)
        elif word.lower() == ENGROSSING:
            item["engrossing"] = True
        else:
            label.append(word)
    item["label"] = " ".join(label)[:MAX_LABEL]
    return item


def items_from_text(text: str) -> list[dict]:
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise EncounterError(f"At most {MAX_TEXT} characters.", "items")
    items = []
    for number, line in enumerate(text.splitlines(), start=1):
        words = line.strip().split()
        if not words:
            continue
        if len(items) >= MAX_ITEMS:
            raise EncounterError(f"At most {MAX_ITEMS} lines.", "items")
        head, rest = words[0].lower(), words[1:]
        label = " ".join(rest)[:MAX_LABEL]
        if head in ("haste", "stand", "mount", "dismount", "leap"):
            items.append({"kind": "mount" if head == "dismount" else head})
        elif head in ("defend", "defence", "defense"):
            items.append({"kind": "defend", "label": label})
        elif head == "minor":
            items.append({"kind": "minor", "label": label})
        elif head in ("run", "ride"):
            numbers = [w for w in rest if w.isdigit()]
            if not numbers or (head == "ride" and len(numbers) < 2):
                want = "yards" if head == "run" else "yards and the mount's pace"
                raise EncounterError(f"Line {number}: {head} needs the {want}.", "items")
            item = {"kind": head, "yards": numbers[0][:7]}
            if head == "ride":
                item["mount_pace"] = numbers[1][:3]
            items.append(item)
        elif head == "major" and rest and rest[0].lower() in (PHYSICAL, MENTAL):
            items.append(_major(rest[1:], rest[0].lower()))
        else:
            items.append(_major(words[1:] if head == "major" else words))
    if not items:
        raise EncounterError("Declare at least one action, one a line.", "items")
    return items
