"""Level, Attribute points and Tiers.

Eldritch Gambit SRD, Characters > Level ("LEVEL BENEFITS" table) and
Characters > Attributes.
"""

from __future__ import annotations

MIN_LEVEL = 1
STARTING_LEVEL = 10  # "Most groups start at Level 10." (Characters > Level)

# Tiers are bands: the table marks the Level each Tier starts at, and a Level
# inside a band keeps that band's Tier (a Level 12 character is still Heroic).
# Below Level 5 there is no Tier. See docs/RULES.md, "Tiers".
TIERS = ((20, "Legendary"), (15, "Elite"), (10, "Heroic"), (5, "Common"))


def attribute_points(level: int) -> int:
    """Attribute points ("pluses") to distribute equal Level."""
    return max(level, 0)


def attribute_max(level: int) -> int:
    """The most one Attribute may hold: half the Level, rounded up."""
    return -(-max(level, 0) // 2)


def tier(level: int) -> str | None:
    for start, name in TIERS:
        if level >= start:
            return name
    return None


def xp_to_next_level(level: int, xp: int) -> int:
    """XP still needed: a Level rises when XP reaches the current Level."""
    return max(level - xp, 0)


def after_level_ups(level: int, xp: int) -> tuple[int, int]:
    """The Level and XP once the XP has bought every Level it pays for: "Levels raise
    when the character has as many XP as their current Level. The player then erases
    the spent XP, keeping any leftovers" (Characters > Advancement), one Level after the
    other, each costing the Level it leaves."""
    while level >= MIN_LEVEL and xp >= level:
        xp -= level
        level += 1
    return level, xp


def levels_affordable(level: int, xp: int) -> int:
    """How many Levels `xp` buys from `level` (after_level_ups)."""
    return after_level_ups(level, xp)[0] - level
