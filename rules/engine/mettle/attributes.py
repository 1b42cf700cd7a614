"""The five Attributes and the two ways to build them: the Array and Freestyle.

METTLE Core SRD, Characters > Step 3: Attributes (the ATTRIBUTE POOLS table) and
Guidance > Characters (pool total: "highest x 2 + all lesser pools").
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import StrEnum

from .data import ATTRIBUTE_KEYS, ATTRIBUTE_NAMES, ATTRIBUTE_POOLS

ARRAY = (5, 4, 3, 3, 2)  # CH §Step 3: "a set starting array of [5, 4, 3, 3, 2]"
FREESTYLE_BUDGET = 22  # CH §Step 3: "take 22 points"; a campaign setting
POOL_MIN, POOL_MAX = 1, 6  # CH §Step 3: "Attributes range from 1 to 6 for starting characters"
HIGHEST_COST_MULTIPLIER = 2  # ATTRIBUTE POOLS: the highest costs double


class Method(StrEnum):
    ARRAY = "array"
    FREESTYLE = "freestyle"


@dataclass(frozen=True)
class Attributes:
    """Five unmodified pools, in dice."""

    concept: int = 3
    frame: int = 3
    motive: int = 3
    nature: int = 3
    poise: int = 3

    def __getitem__(self, key: str) -> int:
        if key not in ATTRIBUTE_KEYS:
            raise KeyError(key)
        return getattr(self, key)

    def values(self) -> tuple[int, ...]:
        return tuple(self[key] for key in ATTRIBUTE_KEYS)

    def raised(self, key: str, by: int = 1) -> Attributes:
        return Attributes(**{k: self[k] + (by if k == key else 0) for k in ATTRIBUTE_KEYS})


def highest(attrs: Attributes) -> int:
    return max(attrs.values())


def highest_key(attrs: Attributes) -> str:
    """The Attribute that counts as the highest: of tied pools, the first in sheet order
    (only one pool doubles, docs/RULES.md AMB-M1)."""
    top = highest(attrs)
    return next(key for key in ATTRIBUTE_KEYS if attrs[key] == top)


def attribute_costs(attrs: Attributes) -> dict[str, int]:
    """Each Attribute's Freestyle cost: the highest (one pool) doubled, the others their
    pool (ATTRIBUTE POOLS: 1D costs 2 as the highest and 1 otherwise ... 6D 12 / 6)."""
    top = highest_key(attrs)
    return {key: attrs[key] * (HIGHEST_COST_MULTIPLIER if key == top else 1)
            for key in ATTRIBUTE_KEYS}


def pool_total(attrs: Attributes) -> int:
    """"Highest x 2 + all lesser pools" (GD §Characters): the Freestyle cost of the pools."""
    return sum(attribute_costs(attrs).values())


def rating(pool: int) -> str | None:
    """ATTRIBUTE POOLS rating: 1D Poor ... 6D Amazing; None off the table."""
    entry = ATTRIBUTE_POOLS.get(pool)
    return entry[0] if entry else None


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


def _dice_list(values) -> str:
    return ", ".join(str(v) for v in values)


def array_problems(attrs: Attributes) -> list[Issue]:
    """The Array method: the pools must be exactly 5, 4, 3, 3, 2 in any order."""
    if Counter(attrs.values()) == Counter(ARRAY):
        return []
    problems = [
        Issue("array_value_not_in_array",
                f"{ATTRIBUTE_NAMES[key]} {attrs[key]} is not in the array {_dice_list(ARRAY)}.",
                key)
        for key in ATTRIBUTE_KEYS if attrs[key] not in ARRAY
    ]
    given = Counter(attrs.values())
    wanted = Counter(ARRAY)
    extra = sorted((given - wanted).elements(), reverse=True)
    missing = sorted((wanted - given).elements(), reverse=True)
    problems.append(Issue(
        "array_not_permutation",
        f"The array is {_dice_list(ARRAY)} in any order; these pools are "
        f"{_dice_list(sorted(attrs.values(), reverse=True))}"
        f" ({_dice_list(extra)} too many, {_dice_list(missing)} missing).",
        "attributes",
    ))
    return problems


def freestyle_problems(attrs: Attributes, budget: int = FREESTYLE_BUDGET) -> list[Issue]:
    """Freestyle: the cost within the budget, no Attribute costing more than half of it
    (AMB-M3: measured in points), unspent points a warning (AMB-M2)."""
    problems = []
    costs = attribute_costs(attrs)
    for key in ATTRIBUTE_KEYS:
        if costs[key] * 2 > budget:
            problems.append(Issue(
                "freestyle_over_half",
                f"{ATTRIBUTE_NAMES[key]} {attrs[key]} costs {costs[key]}, over half of the "
                f"{budget} points.",
                key,
            ))
    spent = sum(costs.values())
    if spent > budget:
        problems.append(Issue(
            "freestyle_over_budget",
            f"These pools cost {spent} points, {spent - budget} over the {budget} to spend.",
            "attributes",
        ))
    elif spent < budget:
        problems.append(Issue(
            "freestyle_points_unspent",
            f"{budget - spent} of the {budget} points are unspent.",
            "attributes", severity="warning",
        ))
    return problems


def range_problems(attrs: Attributes) -> list[Issue]:
    """Starting pools are 1D to 6D."""
    return [
        Issue("attribute_out_of_range",
                f"{ATTRIBUTE_NAMES[key]} {attrs[key]} is outside the starting range "
                f"{POOL_MIN} to {POOL_MAX}.",
                key)
        for key in ATTRIBUTE_KEYS if not POOL_MIN <= attrs[key] <= POOL_MAX
    ]


def build_problems(
    attrs: Attributes, method: Method | str, budget: int = FREESTYLE_BUDGET
) -> list[Issue]:
    """Every problem of the starting pools under `method`, each on its field."""
    method = Method(method)
    if method is Method.ARRAY:
        return array_problems(attrs)  # the array's values are all in range
    if budget < 1:
        return [Issue("freestyle_budget_invalid",
                        f"A Freestyle budget of {budget} points buys nothing.", "budget")]
    return range_problems(attrs) + freestyle_problems(attrs, budget)
