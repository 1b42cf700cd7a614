"""Dice expressions shared by every game: "1d6+4", "2d8", "1d3-1".

Only the small subset the character sheet needs to *describe* dice; rolling
arbitrary notation at the table uses a dice library (see the table issue).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# The die types the rules use, smallest to largest. d2 and d3 exist only as the
# result of stepping a d4 or d6 down for Small and Tiny creatures
# (Eldritch Gambit SRD, Bestiary > Size: "d3 (d6/2) or d2 (d4/2)").
DIE_LADDER = (2, 3, 4, 6, 8, 10, 12)

_DICE_RE = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$")


@dataclass(frozen=True)
class Dice:
    count: int
    sides: int
    modifier: int = 0

    def __str__(self) -> str:
        text = f"{self.count}d{self.sides}"
        if self.modifier:
            text += f"{self.modifier:+d}"
        return text

    @classmethod
    def parse(cls, text: str) -> Dice:
        match = _DICE_RE.match(text or "")
        if not match:
            raise ValueError(f"{text!r} is not dice notation like 1d8 or 1d4+1")
        count = int(match.group(1) or 1)
        sides = int(match.group(2))
        modifier = int(match.group(4) or 0) * (-1 if match.group(3) == "-" else 1)
        if count < 1 or sides < 2:
            raise ValueError(f"{text!r} has no dice to roll")
        return cls(count, sides, modifier)

    def plus(self, amount: int) -> Dice:
        return Dice(self.count, self.sides, self.modifier + amount)

    @property
    def maximum(self) -> int:
        return self.count * self.sides + self.modifier


def step_die(sides: int, steps: int) -> int:
    """Move a die type along DIE_LADDER; negative steps make it smaller.

    A die size that is not on the ladder (homebrew d20 or d5, say) never grows, and
    its first step down lands on the nearest ladder die below it (d20 to d12, d5 to
    d4), each further step one rung more; the ends of the ladder are hard limits.
    """
    if sides in DIE_LADDER:
        index = DIE_LADDER.index(sides)
    else:
        if steps >= 0:
            return sides
        # Off the ladder, the die sits just above the nearest rung below it.
        index = sum(1 for rung in DIE_LADDER if rung < sides)
    index = min(max(index + steps, 0), len(DIE_LADDER) - 1)
    return DIE_LADDER[index]
