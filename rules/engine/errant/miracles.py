"""The Zealot's Miracle and beneficence rolls: D6 + 1D6 per attuned Relic + Favour offered,
read against the doctrine's bands, with exact odds.

Errant SRD: CM §Doctrines, §The First Doctrine ... §The Fifth Doctrine, the Blessèd Mother's
beneficence (7-covenants-and-miracles.md); next-games.md E17.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from .data import BENEFICENCE, BENEFICENCE_OUTCOMES, DOCTRINES, MIRACLE_OUTCOMES

D6 = 6
RELIC_DICE_MAX = 20  # only to keep input sane: Relics attuned are at most 4 at Renown 9


@cache
def _sums(dice: int) -> dict[int, int]:
    """Sum of `dice` d6 -> how many of the 6**dice rolls give it."""
    counts = {0: 1}
    for _ in range(dice):
        nxt: dict[int, int] = {}
        for total, n in counts.items():
            for face in range(1, D6 + 1):
                nxt[total + face] = nxt.get(total + face, 0) + n
        counts = nxt
    return counts


def _band(total: int, bands: tuple[int, int, int], names: tuple[str, ...]) -> str:
    first, second, third = bands
    if total >= first:
        return names[0]
    if total >= second:
        return names[1]
    if total >= third:
        return names[2]
    return names[3]


def miracle_result(total: int, doctrine: int) -> str:
    return _band(total, DOCTRINES[doctrine], MIRACLE_OUTCOMES)


def beneficence_result(total: int) -> str:
    return _band(total, BENEFICENCE, BENEFICENCE_OUTCOMES)


def _odds(relics: int, favour: int, read) -> dict[str, Fraction]:
    if not 0 <= relics <= RELIC_DICE_MAX:
        raise ValueError(f"Relics attuned are 0 to {RELIC_DICE_MAX}")
    if favour < 0:
        raise ValueError("Favour offered is never negative")
    dice = 1 + relics  # "roll a D6, plus an additional D6 for each Relic"
    out: dict[str, Fraction] = {}
    for total, n in _sums(dice).items():
        key = read(total + favour)
        out[key] = out.get(key, Fraction(0)) + Fraction(n, D6 ** dice)
    return out


def miracle_odds(relics: int, doctrine: int, favour: int = 0) -> dict[str, Fraction]:
    """Exact chance of each result: 1 Relic, 1st doctrine, no Favour -> Boon 1/6, Pact 5/12,
    Woe 1/3, Apotheosis 1/12."""
    if doctrine not in DOCTRINES:
        raise ValueError("doctrines are 1 to 5")
    odds = _odds(relics, favour, lambda t: miracle_result(t, doctrine))
    return {name: odds.get(name, Fraction(0)) for name in MIRACLE_OUTCOMES}


def beneficence_odds(relics: int, favour: int = 0) -> dict[str, Fraction]:
    odds = _odds(relics, favour, beneficence_result)
    return {name: odds.get(name, Fraction(0)) for name in BENEFICENCE_OUTCOMES}
