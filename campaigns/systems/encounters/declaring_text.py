"""The Guide's declaration, one action a line, as the engine's declaring items.

    strike                 a major action (no skill named)
    major physical strike  a major action with its kind of skill
    defend                 a declared defence
    haste                  +2 Initiative on everything this round
    run 25                 yards on foot (one movement action per pace-length)
    ride 60 30             yards mounted, at the mount's pace
    stand / mount / leap   one movement action
    minor draw a dagger    a minor action

A line that is none of these is a major action named by the line. The engine checks
everything else (four movement actions at most, one kind of skill a round)."""

from __future__ import annotations

from rules.engine.encounters.combatants import MENTAL, PHYSICAL, EncounterError
from rules.engine.encounters.declaring import MAX_ITEMS, MAX_LABEL

MAX_TEXT = 2000


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
            items.append({"kind": "major", "skill": rest[0].lower(),
                          "label": " ".join(rest[1:])[:MAX_LABEL]})
        else:
            name = " ".join(words[1:] if head == "major" else words)[:MAX_LABEL]
            items.append({"kind": "major", "label": name})
    if not items:
        raise EncounterError("Declare at least one action, one a line.", "items")
    return items
