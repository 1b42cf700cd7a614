"""The six Attributes, their descriptions, point costs and the random roll method.

Eldritch Gambit SRD, Characters > Attributes.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields

from .levels import attribute_max

# Key, abbreviation, name. The order is the SRD's and the random roll method's:
# d6 face 1 STR, 2 WIS, 3 DEX, 4 AGI, 5 CHA, 6 END.
ATTRIBUTES = (
    ("str", "STR", "Strength"),
    ("wis", "WIS", "Wisdom"),
    ("dex", "DEX", "Dexterity"),
    ("agi", "AGI", "Agility"),
    ("cha", "CHA", "Charisma"),
    ("end", "END", "Endurance"),
)
ATTRIBUTE_KEYS = tuple(key for key, _, _ in ATTRIBUTES)
ABBREVIATIONS = {key: abbr for key, abbr, _ in ATTRIBUTES}
NAMES = {key: name for key, _, name in ATTRIBUTES}
FACE_TO_ATTRIBUTE = dict(enumerate(ATTRIBUTE_KEYS, start=1))

# ATTRIBUTE DESCRIPTIONS table; +6 and more is "superhuman" (same section).
DESCRIPTIONS = {
    -2: "Abysmal",
    -1: "Poor",
    0: "Low",
    1: "Normal",
    2: "High",
    3: "Very high",
    4: "Great",
    5: "Optimal",
}
SUPERHUMAN = "Superhuman"


@dataclass(frozen=True)
class Attributes:
    str: int = 0
    wis: int = 0
    dex: int = 0
    agi: int = 0
    cha: int = 0
    end: int = 0

    @classmethod
    def from_mapping(cls, values: Mapping[str, int]) -> Attributes:
        return cls(**{key: int(values.get(key, 0)) for key in ATTRIBUTE_KEYS})

    def as_dict(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def __getitem__(self, key: str) -> int:
        if key not in ATTRIBUTE_KEYS:
            raise KeyError(key)
        return getattr(self, key)


def describe(score: int) -> str:
    """The word for a score. Below -2 is still Abysmal; +6 and up superhuman."""
    if score > 5:
        return SUPERHUMAN
    return DESCRIPTIONS[max(score, -2)]


def points_spent(attributes: Attributes) -> int:
    """Only positive values spend points: negatives give no points back."""
    return sum(max(value, 0) for value in attributes.as_dict().values())


@dataclass(frozen=True)
class AttributeRoll:
    """The random roll method, with every die kept so the page can show them."""

    dice: tuple[int, ...]
    flipped: tuple[int, ...]  # indexes into dice that were flipped to their opposite face
    attributes: Attributes

    @property
    def final_faces(self) -> tuple[int, ...]:
        return tuple(7 - d if i in self.flipped else d for i, d in enumerate(self.dice))


def roll_attributes(level: int, rng: random.Random | None = None) -> AttributeRoll:
    """Roll d6 equal to Level and count each face into its Attribute.

    "If more than half the dice end up in one Attribute, flip the excess dice over
    to their opposite side and put them in that Attribute instead." The excess is
    every die past half, so an Attribute keeps at most half the dice, rounded down;
    flipped dice are never flipped back. Opposite faces of a d6 add to 7, so STR
    pairs with END, WIS with CHA, DEX with AGI. Every result is a legal build: all
    scores are non-negative, they add up to Level, and none exceeds the maximum
    (half the Level, rounded up).
    """
    rng = rng or random.Random()
    dice = tuple(rng.randint(1, 6) for _ in range(max(level, 0)))
    return attributes_from_dice(dice)


def attributes_from_dice(dice: Iterable[int]) -> AttributeRoll:
    dice = tuple(dice)
    if any(d not in range(1, 7) for d in dice):
        raise ValueError("the random roll method uses d6: faces 1 to 6")
    keep = len(dice) // 2
    flipped: list[int] = []
    for face in range(1, 7):
        indexes = [i for i, d in enumerate(dice) if d == face]
        if len(indexes) * 2 > len(dice):
            flipped = indexes[keep:]
            break
    counts = dict.fromkeys(ATTRIBUTE_KEYS, 0)
    for i, d in enumerate(dice):
        face = 7 - d if i in flipped else d
        counts[FACE_TO_ATTRIBUTE[face]] += 1
    result = AttributeRoll(dice, tuple(flipped), Attributes(**counts))
    assert max(counts.values(), default=0) <= attribute_max(len(dice))
    return result
