"""Eldritch Gambit's parts of the generic character pages (registered in apps.py): the
builder's dice helpers and the character list's summary line. The builder form, the
sheet, the saves and the printed sheet are this package's forms.py, builds.py,
services.py and printing.py; apps.py hands them to the registry."""

from __future__ import annotations

import random

from characters import services
from rules.engine.eldritch_gambit import ATTRIBUTE_KEYS
from rules.engine.eldritch_gambit.attributes import ABBREVIATIONS, roll_attributes
from rules.engine.eldritch_gambit.seeds import roll_name_initial, roll_quirk, roll_starting_coins

from .campaign_settings import starting_level
from .forms import LOCKS

ROLL_ACTIONS = frozenset({"roll_name", "roll_quirk", "roll_attributes", "roll_coins",
                          "roll_all"})


def summary(character) -> str:
    """ "Human, Soldier": the list's line under the name (its Template and Career; the
    Level shows beside it, GameSystem.progress)."""
    return ", ".join(part for part in (character.template_name, character.career) if part)


def builder_roll(action: str, data, *, rng: random.Random, character, joining) -> list[dict]:
    """Apply a random helper to the form data in place; return the dice shown."""
    # A disabled Level is not posted: the attribute roll uses the one the form shows.
    if joining is not None:
        data["level"] = str(starting_level(joining))
    elif character is not None and services.ledger_rules_progress(character):
        data["level"] = str(character.level)
    rolls: list[dict] = []
    everything = action == "roll_all"
    locked = {lock for lock in LOCKS if data.get(lock)} if everything else set()

    if action == "roll_name" or (everything and "lock_name" not in locked):
        roll = roll_name_initial(rng)
        examples = [e.strip() for e in roll.examples.split(",")]
        data["name"] = rng.choice(examples)
        rolls.append({"label": "Name initial (5d6)", "dice": roll.dice, "total": roll.total,
                      "result": f"{roll.result}: {roll.examples}…"})
    if action == "roll_quirk" or (everything and "lock_description" not in locked):
        roll = roll_quirk(rng)
        line = f"Quirk: {roll.result} ({roll.examples}…)"
        kept = [ln for ln in data.get("description", "").splitlines()
                if not ln.startswith("Quirk: ")]
        data["description"] = "\n".join([*kept, line]).strip()
        rolls.append({"label": "Distinctive quirk (d20)", "dice": roll.dice,
                      "total": roll.total, "result": f"{roll.result} ({roll.examples}…)"})
    if action == "roll_attributes" or (everything and "lock_attributes" not in locked):
        try:
            level = int(data.get("level", ""))
        except ValueError:
            level = 0
        if not 1 <= level <= 100:
            rolls.append({"label": "Attributes", "dice": (), "total": None,
                          "result": "Set a Level from 1 to 100 first: the roll uses one d6 "
                                    "per Level.", "error": True})
        else:
            roll = roll_attributes(level, rng)
            for key in ATTRIBUTE_KEYS:
                data[key] = str(roll.attributes[key])
            flipped = f"; {len(roll.flipped)} flipped to the opposite face" if roll.flipped else ""
            rolls.append({
                "label": f"Attributes ({level}d6)", "dice": roll.dice, "total": None,
                "flipped": roll.flipped,
                "result": ", ".join(f"{ABBREVIATIONS[k]} {roll.attributes[k]}"
                                    for k in ATTRIBUTE_KEYS) + flipped,
            })
    if action == "roll_coins" or (everything and "lock_coins" not in locked):
        roll = roll_starting_coins(rng)
        data["coins_cp"] = str(roll.total)
        rolls.append({"label": "Starting coins (2d4 x 100)", "dice": roll.dice,
                      "total": roll.total, "result": roll.result})
    return rolls

