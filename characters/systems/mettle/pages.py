"""The METTLE Core builder's page parts besides the form: the character list's line and
the builder's dice helpers (the d66 seeds of the Characters chapter and an Array placed at
random), each roll shown with its dice and always legal."""

from __future__ import annotations

import contextlib
import random

from rules.engine.mettle.attributes import ARRAY, Method
from rules.engine.mettle.data import ATTRIBUTE_KEYS, ATTRIBUTE_NAMES
from rules.engine.mettle.seeds import (
    appearance_seed,
    background_seed,
    descriptor_seed,
    random_array,
)

ROLL_APPEARANCE = "roll_appearance"
ROLL_BACKGROUND = "roll_background"
ROLL_DESCRIPTORS = "roll_descriptors"
ROLL_ARRAY = "roll_array"
ROLL_ALL = "roll_all"
ROLL_ACTIONS = frozenset({ROLL_APPEARANCE, ROLL_BACKGROUND, ROLL_DESCRIPTORS, ROLL_ARRAY,
                          ROLL_ALL})


def summary(character) -> str:
    """The character list's line: the five pools in the sheet's order."""
    return " ".join(f"{ATTRIBUTE_NAMES[key]} {getattr(character, key)}"
                    for key in ATTRIBUTE_KEYS)


def _locked(data, name: str) -> bool:
    return data.get(name) in ("on", "true", "1", "True")


def _seed_roll(label: str, roll) -> dict:
    return {"label": label, "dice": list(roll.dice), "total": f"{roll.dice[0]}{roll.dice[1]}",
            "result": roll.text}


def _roll_array(data, rng: random.Random) -> dict:
    locked = {}
    for key in ATTRIBUTE_KEYS:
        if _locked(data, f"lock_{key}"):
            with contextlib.suppress(ValueError):
                locked[key] = int(data.get(key, ""))
    try:
        pools = random_array(rng, locked)
    except ValueError as refused:
        return {"label": "Array", "dice": [], "total": "", "result": str(refused)}
    for key in ATTRIBUTE_KEYS:
        data[key] = str(pools[key])
    data["method"] = Method.ARRAY.value
    placed = ", ".join(f"{ATTRIBUTE_NAMES[key]} {pools[key]}" for key in ATTRIBUTE_KEYS)
    kept = f" (kept: {', '.join(ATTRIBUTE_NAMES[k] for k in locked)})" if locked else ""
    return {"label": f"Array {', '.join(map(str, ARRAY))} placed at random{kept}",
            "dice": [], "total": "", "result": placed}


def builder_roll(action: str, data, *, rng: random.Random, character=None,
                 joining=None) -> list[dict]:
    """Roll what `action` asks (everything not kept, for ROLL_ALL), writing the results
    into `data`; the rolls to show, with their dice."""
    rolls = []
    every = action == ROLL_ALL
    if action == ROLL_APPEARANCE or (every and not _locked(data, "lock_appearance")):
        roll = appearance_seed(rng)
        data["appearance"] = roll.text
        rolls.append(_seed_roll("Appearance (d66)", roll))
    if action == ROLL_BACKGROUND or (every and not _locked(data, "lock_background")):
        roll = background_seed(rng)
        data["background"] = roll.text
        rolls.append(_seed_roll("Background (d66)", roll))
    if action == ROLL_DESCRIPTORS or (every and not _locked(data, "lock_descriptors")):
        for key in ATTRIBUTE_KEYS:
            roll = descriptor_seed(rng, key)
            data[f"{key}_descriptor"] = roll.text
            rolls.append(_seed_roll(f"{ATTRIBUTE_NAMES[key]} Descriptor (d66)", roll))
    if action == ROLL_ARRAY or every:
        rolls.append(_roll_array(data, rng))
    return rolls
