"""The tiny system's rules engine: pure Python, no Django (a shipped system's lives in
rules/engine/<system>/)."""

from __future__ import annotations

from dataclasses import dataclass

MIN_SCORE, MAX_SCORE = 0, 10


@dataclass(frozen=True)
class TinySheet:
    grit: int
    wits: int

    @property
    def toughness(self) -> int:
        """The one derived number: twice Grit, plus Wits."""
        return toughness(self.grit, self.wits)


def toughness(grit: int, wits: int) -> int:
    return 2 * grit + wits
