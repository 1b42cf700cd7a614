"""Level, Attribute points, maximum and Tier.

Eldritch Gambit SRD, Characters > Level: "The most ("max") you can put into an
Attribute is half the Level, rounded up", "A character gets Attribute points or
"pluses" to distribute equal to their Level", and the LEVEL BENEFITS table.
Tiers are bands (team decision): the table marks where each Tier starts.
"""

import pytest

from rules.engine.eldritch_gambit import levels

# LEVEL BENEFITS, copied row by row: Level, Attribute Points, (max), Tier as a band.
LEVEL_BENEFITS = [
    (1, 1, 1, None),
    (2, 2, 1, None),
    (3, 3, 2, None),
    (4, 4, 2, None),
    (5, 5, 3, "Common"),
    (6, 6, 3, "Common"),
    (7, 7, 4, "Common"),
    (8, 8, 4, "Common"),
    (9, 9, 5, "Common"),
    (10, 10, 5, "Heroic"),
    (11, 11, 6, "Heroic"),
    (12, 12, 6, "Heroic"),
    (13, 13, 7, "Heroic"),
    (14, 14, 7, "Heroic"),
    (15, 15, 8, "Elite"),
    (16, 16, 8, "Elite"),
    (17, 17, 9, "Elite"),
    (18, 18, 9, "Elite"),
    (19, 19, 10, "Elite"),
    (20, 20, 10, "Legendary"),
]


@pytest.mark.parametrize(("level", "points", "maximum", "tier"), LEVEL_BENEFITS)
def test_level_benefits_table(level, points, maximum, tier):
    assert levels.attribute_points(level) == points
    assert levels.attribute_max(level) == maximum
    assert levels.tier(level) == tier


@pytest.mark.parametrize("level", range(21, 41))
def test_levels_past_the_table_keep_the_rules(level):
    # Past the table the prose still holds: points equal Level, max is half rounded up,
    # and the last band (Legendary, from 20) carries on.
    assert levels.attribute_points(level) == level
    assert levels.attribute_max(level) == (level + 1) // 2
    assert levels.tier(level) == "Legendary"


@pytest.mark.parametrize(
    ("level", "tier"),
    [(4, None), (5, "Common"), (9, "Common"), (10, "Heroic"), (14, "Heroic"),
     (15, "Elite"), (19, "Elite"), (20, "Legendary")],
)
def test_tier_band_edges(level, tier):
    assert levels.tier(level) == tier


def test_level_zero_has_no_points_and_no_tier():
    assert levels.attribute_points(0) == 0
    assert levels.attribute_max(0) == 0
    assert levels.tier(0) is None


def test_most_groups_start_at_level_10():
    # "Most groups start at Level 10."
    assert levels.STARTING_LEVEL == 10


@pytest.mark.parametrize(
    ("level", "xp", "needed"),
    [
        (10, 0, 10),
        (10, 3, 7),
        (10, 9, 1),
        (10, 10, 0),  # "add a Level whenever they earn as many XP as their current Level"
        (10, 12, 0),
        (1, 0, 1),
    ],
)
def test_xp_to_next_level(level, xp, needed):
    assert levels.xp_to_next_level(level, xp) == needed


@pytest.mark.parametrize(
    ("level", "xp", "after"),
    [
        (10, 9, (10, 9)),  # not yet
        (10, 10, (11, 0)),  # "as many XP as their current Level"
        (10, 15, (11, 5)),  # "keeping any leftovers"
        (1, 4, (3, 1)),  # Level 2 for 1, Level 3 for 2, 1 left
        (10, 21, (12, 0)),
        (0, 5, (0, 5)),  # below Level 1 nothing is bought
    ],
)
def test_after_level_ups(level, xp, after):
    assert levels.after_level_ups(level, xp) == after
    assert levels.levels_affordable(level, xp) == after[0] - level
