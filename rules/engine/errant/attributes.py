"""The four Attributes (rolled 4D4 in order, at most one swap, or set by the Guide),
Ancestry and starting age, languages, starting Alignment and lifespan.

Errant SRD: ER §Determine Attributes, §Choose Ancestry, §Note Languages Known, §Record Other
Information; IT §Death & Dying (lifespan, inherited Attributes); ER §Renown (+1 to two
different Attributes at each Renown).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from .data import ANCESTRIES, ATTRIBUTE_KEYS, ATTRIBUTE_NAMES, ZEALOT

DICE_PER_ATTRIBUTE = 4  # ER §Determine Attributes: "roll four four-sided dice (4D4)"
DIE_SIDES = 4
ROLLED_MIN = DICE_PER_ATTRIBUTE  # 4D4: 4 ...
ROLLED_MAX = DICE_PER_ATTRIBUTE * DIE_SIDES  # ... 16
GUIDE_SET_MIN, GUIDE_SET_MAX = 1, 40  # "set by the Guide": only to keep input sane
COMMON_LANGUAGES = 2  # ER §Note Languages Known: the region's common tongue + the Ancestry's
LANGUAGE_MIND_THRESHOLD = 10  # "for every point of mind above 10, ... another language"
RENOWN_RAISES_PER_LEVEL = 2  # ER §Renown: "two of their attributes increase by 1"


class Method(StrEnum):
    ROLLED = "rolled"  # 4D4 in order, at most one swap (ER §Determine Attributes)
    GUIDE = "guide"  # set by the Guide, with a note of why (e.g. IT: a child inherits one)


@dataclass(frozen=True)
class Attributes:
    phys: int = 10
    skill: int = 10
    mind: int = 10
    pres: int = 10

    def __getitem__(self, key: str) -> int:
        if key not in ATTRIBUTE_KEYS:
            raise KeyError(key)
        return getattr(self, key)

    def values(self) -> tuple[int, ...]:
        return tuple(self[key] for key in ATTRIBUTE_KEYS)

    def raised(self, key: str, by: int = 1) -> Attributes:
        return Attributes(**{k: self[k] + (by if k == key else 0) for k in ATTRIBUTE_KEYS})

    def swapped(self, first: str, second: str) -> Attributes:
        values = {k: self[k] for k in ATTRIBUTE_KEYS}
        values[first], values[second] = values[second], values[first]
        return Attributes(**values)


@dataclass(frozen=True)
class Issue:
    """A rule problem on one field, with a stable code; "warning" is shown, not refused."""

    code: str
    message: str
    field: str
    severity: str = "error"

    @property
    def is_error(self) -> bool:
        return self.severity == "error"


# -- rolling ---------------------------------------------------------------------------------


def roll_dice(rng: random.Random) -> tuple[tuple[int, ...], ...]:
    """Four 4D4 rolls, in the order phys, skill, mind, pres: the dice themselves, to show."""
    return tuple(tuple(rng.randint(1, DIE_SIDES) for _ in range(DICE_PER_ATTRIBUTE))
                 for _ in ATTRIBUTE_KEYS)


def from_dice(dice: Sequence[Sequence[int]]) -> Attributes:
    """The rolled Attributes: each the sum of its four dice, in order."""
    return Attributes(*(sum(faces) for faces in dice))


def apply_swap(rolled: Attributes, swap: tuple[str, str] | None) -> Attributes:
    """The final Attributes from the rolled ones and at most one swap of two scores."""
    if not swap:
        return rolled
    return rolled.swapped(*swap)


def dice_problems(dice: Sequence[Sequence[int]]) -> list[Issue]:
    """The dice shown must be four rolls of four D4."""
    if len(dice) != len(ATTRIBUTE_KEYS):
        return [Issue("dice_wrong_count",
                      f"4D4 is rolled once for each of the {len(ATTRIBUTE_KEYS)} Attributes; "
                      f"{len(dice)} rolls were given.", "dice")]
    problems = []
    for key, faces in zip(ATTRIBUTE_KEYS, dice, strict=True):
        if len(faces) != DICE_PER_ATTRIBUTE or any(
                not isinstance(f, int) or not 1 <= f <= DIE_SIDES for f in faces):
            problems.append(Issue("dice_not_4d4",
                                  f"{ATTRIBUTE_NAMES[key]} must be four D4 (faces 1-4); got "
                                  f"{', '.join(str(f) for f in faces) or 'none'}.", key))
    return problems


def swap_problems(swap: tuple[str, ...] | None) -> list[Issue]:
    """At most one swap, of two different Attributes."""
    if not swap:
        return []
    if len(swap) != 2 or any(key not in ATTRIBUTE_KEYS for key in swap):
        return [Issue("swap_invalid", "A swap names two of phys, skill, mind and pres.",
                      "swap")]
    if swap[0] == swap[1]:
        return [Issue("swap_same_attribute",
                      f"A swap exchanges two different Attributes, not {swap[0]} with itself.",
                      "swap")]
    return []


def rolled_problems(rolled: Attributes) -> list[Issue]:
    """Rolled Attributes are 4D4: each between 4 and 16."""
    return [Issue("attribute_not_4d4",
                  f"{ATTRIBUTE_NAMES[key]} {rolled[key]} cannot be rolled on 4D4 "
                  f"({ROLLED_MIN}-{ROLLED_MAX}).", key)
            for key in ATTRIBUTE_KEYS if not ROLLED_MIN <= rolled[key] <= ROLLED_MAX]


def is_legal_result(rolled: Attributes, swap: tuple[str, str] | None,
                    final: Attributes) -> bool:
    """Whether `final` comes from `rolled` by at most one swap (what the builder proves)."""
    return not rolled_problems(rolled) and not swap_problems(swap) and \
        apply_swap(rolled, swap) == final


def reachable_by_one_swap(rolled: Attributes, final: Attributes) -> bool:
    """Whether some single swap (or none) turns `rolled` into `final`."""
    if rolled == final:
        return True
    differ = [key for key in ATTRIBUTE_KEYS if rolled[key] != final[key]]
    return len(differ) == 2 and rolled.swapped(*differ) == final


def guide_problems(attrs: Attributes, note: str) -> list[Issue]:
    """Set by the Guide: any whole scores in a sane range, with a note of why."""
    problems = [Issue("attribute_out_of_range",
                      f"{ATTRIBUTE_NAMES[key]} {attrs[key]} is outside {GUIDE_SET_MIN}-"
                      f"{GUIDE_SET_MAX}.", key)
                for key in ATTRIBUTE_KEYS if not GUIDE_SET_MIN <= attrs[key] <= GUIDE_SET_MAX]
    if not note.strip():
        problems.append(Issue("guide_note_missing",
                              "Attributes set by the Guide need a note of why.", "guide_note"))
    return problems


# -- Renown raises -----------------------------------------------------------------------------


def raise_problems(raises: Sequence[Sequence[str]]) -> list[Issue]:
    """Each Renown gained raises two *different* Attributes by 1 (ER §Renown)."""
    problems = []
    for number, pair in enumerate(raises, start=2):
        if len(pair) != RENOWN_RAISES_PER_LEVEL or any(k not in ATTRIBUTE_KEYS for k in pair):
            problems.append(Issue("renown_raise_invalid",
                                  f"Renown {number} raises two of phys, skill, mind and pres.",
                                  "renown_raises"))
        elif pair[0] == pair[1]:
            problems.append(Issue("renown_raise_same",
                                  f"Renown {number}: the player's Attribute must differ from the "
                                  f"Company's ({pair[0]}).", "renown_raises"))
    return problems


def with_raises(attrs: Attributes, raises: Sequence[Sequence[str]]) -> Attributes:
    for pair in raises:
        for key in pair:
            if key in ATTRIBUTE_KEYS:
                attrs = attrs.raised(key)
    return attrs


# -- Ancestry, age, languages, Alignment, lifespan ---------------------------------------------


def minimum_age_range(ancestry: str) -> tuple[int, int]:
    """The range of the minimum starting age roll: Tough 2D20+10 -> (12, 50)."""
    a = ANCESTRIES[ancestry]
    return a.age_dice + a.age_bonus, a.age_dice * a.age_sides + a.age_bonus


def roll_minimum_age(ancestry: str, rng: random.Random) -> tuple[tuple[int, ...], int]:
    """The dice and the minimum starting age (ER §Choose Ancestry)."""
    a = ANCESTRIES[ancestry]
    dice = tuple(rng.randint(1, a.age_sides) for _ in range(a.age_dice))
    return dice, sum(dice) + a.age_bonus


def extra_languages(mind: int) -> int:
    """ER §Note Languages Known: one more language per point of mind above 10."""
    return max(0, mind - LANGUAGE_MIND_THRESHOLD)


def languages_known(mind: int) -> int:
    """The region's common tongue, the Ancestry's language, and the extra ones."""
    return COMMON_LANGUAGES + extra_languages(mind)


def starting_alignment(archetype: str, covenant_alignment: str = "") -> str:
    """ER §Record Other Information: N, except a Zealot of a Lawful or Chaotic Covenant, who
    starts at L1 or C1. `covenant_alignment` is "L" or "C" (anything else: N)."""
    if archetype == ZEALOT and covenant_alignment in ("L", "C"):
        return f"{covenant_alignment}1"
    return "N"


def lifespan(ancestry: str, phys: int, times_at_zero_hp: int = 0) -> int:
    """IT §Death & Dying: the Ancestry's average + phys - 1 per time reduced to 0 HP."""
    return ANCESTRIES[ancestry].lifespan + phys - times_at_zero_hp



ARCANE_SUCCESS, ARCANE_COMPLICATION = 10, 7  # ER §Arcane: "10+ you succeed, on a 7-9 ..."


def arcane_magic_odds(renown: int) -> dict[str, Fraction]:
    """ER §Arcane, the once-per-session minor magic: 2D6 + Renown; 10+ success, 7-9 a
    complication, 6 or lower failure. Exact over the 36 rolls."""
    counts = {"success": 0, "complication": 0, "failure": 0}
    for first in range(1, 7):
        for second in range(1, 7):
            total = first + second + renown
            key = ("success" if total >= ARCANE_SUCCESS else
                   "complication" if total >= ARCANE_COMPLICATION else "failure")
            counts[key] += 1
    return {key: Fraction(n, 36) for key, n in counts.items()}


def roll_d100(rng: random.Random, table: Sequence[str]) -> tuple[int, str]:
    """A d100 roll on a table of 100 entries (ER §Keepsakes, §Failed Professions):
    (the roll, the entry)."""
    if len(table) != 100:
        raise ValueError("a d100 table has 100 entries")
    roll = rng.randint(1, 100)
    return roll, table[roll - 1]
