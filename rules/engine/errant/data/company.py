"""The Company's tables (DT = 11-downtime-turns.md; ER = 5-errants.md), CC BY-SA 4.0 like
the rest of this package (ATTRIBUTION.md).

DT §Reputation: the Company's reputation with a Faction, 2 to 12, and what each band
means; DT §Conspicuous Consumption; ER §Renown, DT §Setbacks and §Funerals: the sources of
XP, at 1 XP per penny.
"""

from __future__ import annotations

REPUTATION_MIN, REPUTATION_MAX = 2, 12  # DT §Reputation: the table's rows run 2 ... 12
# (lowest score of the band, name, what the Faction does).
REPUTATION_BANDS = (
    (2, "Hated", ""),
    (3, "Disliked", ""),
    (6, "Neutral", ""),
    (9, "Accepted", "Will perform small and costless courtesies."),
    (10, "Liked", "Will perform minor favours, at a cost. The Company gains access to any "
                  "Faction-specific items available for sale."),
    (11, "Respected", "Will perform major favours, at a cost. The Company gains access to any "
                      "Faction-specific trainers."),
    (12, "Loved", "Will undertake great sacrifice, at a cost. The Company gains access to any "
                  "Faction-specific Talents."),
)

# The sources of XP from money (key, label, section). Each gives 1 XP per penny.
WASTE_SOURCES = (
    ("conspicuous", "Conspicuous Consumption", "DT §Conspicuous Consumption"),
    ("waste", "Other money wasted (not an investment, not a necessity)", "ER §Renown"),
    ("investment", "An investment destroyed or unusable", "ER §Renown"),
    ("setback", "A setback to an Estate, Institution, infrastructure project or Domain",
     "DT §Setbacks"),
    ("funeral", "A funeral for a fallen comrade", "DT §Funerals"),
)
# DT §Conspicuous Consumption: the four kinds, each with the Attribute of its Save.
CONSUMPTION_KINDS = (
    ("carousing", "Carousing", "phys"),
    ("frippery", "Frippery", "skill"),
    ("obscurantism", "Obscurantism", "mind"),
    ("do_goodery", "Do-goodery", "pres"),
)

# The table roles of a Company (issue 15; the Guide's roles at the table).
TABLE_ROLES = (
    ("caller", "Caller"),
    ("mapper", "Mapper"),
    ("note_taker", "Note taker"),
    ("quartermaster", "Quartermaster"),
    ("timekeeper", "Timekeeper"),
)
