"""Errant's tables as data, each with the section it comes from.

Source: the web Errant SRD (text commit beca432, see ATTRIBUTION.md beside this file):
ER = 5-errants.md, PR = 3-core-procedures.md, CR = 2-core-rules.md, IT =
10-initiative-turns.md, GS = 4-goods-and-services.md, QR = 0-core-quick-reference.md.
Licence: CC BY-SA 4.0 (this folder only: the engine beside it reads it). Tables whose
headers the SRD lost carry our inferred column names, marked "inferred" (AMB-E19).
The d100 tables and the price lists are JSON files in this folder; the Turn procedures'
tables (Event Die, Pace, weather, locks, mounts, vessels) are in turns_tables.py.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path

ATTRIBUTION = (
    "Text from Errant by Ava Islam, © Kill Jester Publishing, LLP, used under CC BY-SA 4.0 "
    "(https://creativecommons.org/licenses/by-sa/4.0/); SRD text via "
    "github.com/funkaoshi/errantsrd."
)
LICENSE = "CC BY-SA 4.0"
LICENSE_URL = "https://creativecommons.org/licenses/by-sa/4.0/"

_HERE = Path(__file__).resolve().parent

# CR §Attributes; ER §Determine Attributes: rolled "in this order: phys, skill, mind, pres".
PHYS, SKILL, MIND, PRES = "phys", "skill", "mind", "pres"
ATTRIBUTE_KEYS = (PHYS, SKILL, MIND, PRES)
ATTRIBUTE_NAMES = {PHYS: "Physique", SKILL: "Skill", MIND: "Mind", PRES: "Presence"}


@dataclass(frozen=True)
class Ancestry:
    """ER §Choose Ancestry; lifespan from IT §Death & Dying (row read in this order, AMB-E12)."""

    key: str
    name: str
    examples: str
    ability: str
    age_dice: int  # "Minimum starting age: <n>D<sides>+10"
    age_sides: int
    age_bonus: int
    lifespan: int  # the Ancestry's average lifespan, in years


ANCESTRIES = {
    a.key: a
    for a in (
        Ancestry("tough", "Tough", "Dwarves, orcs, etc.",
                 "Once per session, when you would be reduced to 0 HP, you may choose to be "
                 "reduced to 1 HP instead.", 2, 20, 10, 150),
        Ancestry("arcane", "Arcane", "Elves, demons, etc.",
                 "Once per session, attempt a minor magic related to your Ancestry: 2D6 + "
                 "Renown, 10+ success, 7-9 a complication, 6 or lower failure.", 3, 20, 10, 200),
        Ancestry("cunning", "Cunning", "Halflings, goblins, etc.",
                 "Once per session, you may reroll any D20 roll.", 1, 20, 10, 100),
        Ancestry("adaptable", "Adaptable", "Humans, half-humans, etc.",
                 "Once per session, you may use one Attribute for a Check in lieu of "
                 "another.", 1, 10, 10, 50),
    )
}

# ER §Renown: the XP table (Renown, XP needed); it stops at 9.
RENOWN_XP = (
    (1, 0), (2, 2_000), (3, 6_000), (4, 14_000), (5, 30_000),
    (6, 62_000), (7, 126_000), (8, 254_000), (9, 510_000),
)
RENOWN_MIN, RENOWN_MAX = 1, 9

# ER archetype tables; their headers were lost, the meanings inferred from the prose
# (next-games.md AMB-E19). Row r is Renown r.
# The Violent: (Attack Rolls, Feats known, combat dice) -- "inferred" headers.
VIOLENT_TABLE = {
    1: (1, 3, 2), 2: (1, 4, 3), 3: (2, 4, 4), 4: (2, 5, 5), 5: (2, 5, 6),
    6: (3, 6, 7), 7: (3, 6, 8), 8: (3, 7, 9), 9: (4, 7, 10),
}
# The Deviant: (Proficiency points gained at this Renown, Jettons as skill + n) -- inferred.
DEVIANT_TABLE = {1: (2, 2), **{r: (1, 2 * r) for r in range(2, 10)}}
# The Occult: (prepared Sorceries, Sorcery Depletion, stabilise, maleficence, retorts).
OCCULT_TABLE = {
    1: (2, 1, 8, "2D6/1D6", 1), 2: (3, 1, 7, "2D6/1D6", 1), 3: (4, 1, 6, "4D6/2D6", 2),
    4: (5, 2, 5, "4D6/2D6", 2), 5: (6, 2, 4, "4D6/2D6", 2), 6: (7, 2, 3, "6D6/3D6", 3),
    7: (8, 3, 2, "6D6/3D6", 3), 8: (9, 3, 1, "6D6/3D6", 3), 9: (10, 3, 0, "8D6/4D6", 4),
}
# The Zealot: (Favour as pres + n, Relics attuned, the unlabelled last column: AMB-E18).
ZEALOT_TABLE = {
    1: (-8, 1, 1), 2: (-7, 1, 1), 3: (-6, 2, 1), 4: (-5, 2, 1), 5: (-4, 2, 2),
    6: (-3, 3, 2), 7: (-2, 3, 2), 8: (-1, 3, 2), 9: (0, 4, 3),
}

VIOLENT, DEVIANT, OCCULT, ZEALOT = "violent", "deviant", "occult", "zealot"
ARCHETYPE_KEYS = (VIOLENT, DEVIANT, OCCULT, ZEALOT)
ARCHETYPE_NAMES = {VIOLENT: "The Violent", DEVIANT: "The Deviant", OCCULT: "The Occult",
                   ZEALOT: "The Zealot"}
# ER: "Damage Die - D8" (Violent), D6 (Deviant), D4 (Occult), D6 (Zealot).
ARCHETYPE_DAMAGE_DIE = {VIOLENT: 8, DEVIANT: 6, OCCULT: 4, ZEALOT: 6}

# ER §The Violent: the three Feats known at Renown 1 and the list learnt from.
FEATS_STARTING = ("Smite", "Grit", "Dash")
FEATS_LEARNABLE = ("Avenge", "Cleave", "Command", "Exert", "Goad", "Intimidate", "Protect",
                   "Resist", "Strategise", "Surge")
# ER §The Deviant: Proficiency -> its mastery's name ("" where the SRD prints none).
PROFICIENCIES = {
    "anatomy": ("Anatomy", "Chemist"),
    "awareness": ("Awareness", "Alert"),
    "engineering": ("Engineering", "Locksmith"),
    "fitness": ("Fitness", "Fleet-footed"),
    "lore": ("Lore", ""),
    "sleight_of_hand": ("Sleight of hand", "Pack Rat"),
    "speechcraft": ("Speechcraft", ""),
    "stealth": ("Stealth", "Assassin"),
    "survival": ("Survival", "Beast Master"),
}
# CR §Position & Impact: what each sets at stake (Position: the failure; Impact: the
# success), defaults risky and fair; a Proficiency's mastery makes its Checks shaky and
# strong (ER §The Deviant).
POSITIONS = {
    "shaky": ("Shaky", "not as bad as it could have been"),
    "risky": ("Risky", "about what you expected"),
    "dire": ("Dire", "worse than you even imagined"),
}
IMPACTS = {
    "strong": ("Strong", "this went better than expected"),
    "fair": ("Fair", "you got what you wanted"),
    "weak": ("Weak", "not exactly what you hoped"),
}
DEFAULT_POSITION, DEFAULT_IMPACT = "risky", "fair"
MASTERY_POSITION, MASTERY_IMPACT = "shaky", "strong"
EXPERTISE_DV = -2  # ER §The Deviant: "Expertise reduces the DV ... by 2"
FLEET_FOOTED_MAX_ENCUMBRANCE = 4  # "as long as your Encumbrance is not greater than 4"
# ER §The Zealot, Relics: the four kinds.
RELIC_KINDS = ("Blade", "Wand", "Talisman", "Chalice")

# IT §Speed & Movement (and QR §Movement): SPD band -> movement dice. The table ends at 20
# (AMB-E5: beyond it, one die per 4 SPD).
MOVEMENT_DICE_TABLE = ((0, 3, 0), (4, 7, 1), (8, 11, 2), (12, 15, 3), (16, 19, 4), (20, 20, 5))
SPD_PER_MOVEMENT_DIE = 4  # "For every 4 SPD an Errant has, they have 1 movement die"
MOVEMENT_DIE_SIDES = 4  # "which is a D4"
FEET_PER_STEP = 10  # "multiplies the result by 10"; a shift is dice x 10
# IT §Speed & Movement, difficult terrain ratings (x 10 feet or yards off any movement).
DIFFICULT_TERRAIN = (("Muddy", 1), ("Loose rocks", 2), ("Stepping stones", 3),
                     ("Water, waist-deep", 4), ("Swimming", 5), ("Molasses", 6))

# IT §Attack Rolls (and QR §Attacking): "1 - D4 - D6 - D8 - D10 - D12 - D20"; 1 is a flat 1.
DAMAGE_STEPS = (1, 4, 6, 8, 10, 12, 20)

# PR §Quality & Breakage.
QUALITY = {"shoddy": 1, "average": 2, "masterwork": 3}
QUALITY_PRICE = {"shoddy": Fraction(1, 2), "average": Fraction(1), "masterwork": Fraction(2)}
QUALITY_RARITY = {"shoddy": -1, "average": 0, "masterwork": 1}

# PR §Currency: "10 copper pennies makes a silver shilling, and 10 silver shillings makes a
# guilder". Prices are in pennies.
PENNIES_PER_SHILLING = 10
SHILLINGS_PER_GUILDER = 10
PENNIES_PER_GUILDER = PENNIES_PER_SHILLING * SHILLINGS_PER_GUILDER

# PR §Settlement Types (tiers) and §Rarity (AMB-E15: the tiers' names win; AMB-E16: the
# Rarity 2-4 values are linear steps between the two the text gives).
SETTLEMENT_TIERS = {1: "Hamlet", 2: "Village", 3: "Town", 4: "City", 5: "Metropolis"}
RARITY_AVAILABILITY = {1: 90, 2: 80, 3: 70, 4: 60, 5: 50}  # % on a D100; R1 and R5 in PR
RARITY_RESALE = {1: 10, 2: 20, 3: 30, 4: 40, 5: 50}  # % of the price; R1 and R5 in PR
# PR §Inflation, "Supply Available per Downtime Turn" (headers lost; AMB-E26 reading).
SUPPLY_AVAILABLE = {
    1: (10, 20), 2: (20, 40, 80), 3: (40, 80, 160, 320), 4: (80, 160, 320, 640, 1_280),
    5: (160, 320, 640, 1_280, 2_560, 5_120),
}

# ER §Record Other Information; DT §Alignment: the track, Lawful to Chaotic.
ALIGNMENTS = ("L3", "L2", "L1", "N", "C1", "C2", "C3")


@dataclass(frozen=True)
class KitItem:
    """One line of a starting kit (ER §Select Starting Equipment)."""

    name: str
    slots: Fraction
    depletion: int | None = None  # a quiver's or rations' Depletion
    burn: int | None = None  # a light's Burn
    blocks: int | None = None  # a shield's Blocks
    quantity: int = 1
    kind: str = ""  # "weapon", "shield", "supply", "container", "grimoire", "relic"
    damage_steps: int = 0  # heavy +1 damage (PR §Weapons), recorded for the weapon line


# ER §Select Starting Equipment: what every Errant starts with. AMB-E17: the bedroll is 1
# slot and the mess kit 1/4 here (GS prices them 1/2 and 1/2 for purchases).
COMMON_KIT = (
    KitItem("Backpack", Fraction(0), kind="container"),
    KitItem("Medium weapon", Fraction(1), kind="weapon"),
    KitItem("Bedroll", Fraction(1)),
    KitItem("Torch", Fraction(1, 2), burn=2, kind="light"),
    KitItem("Rope, 50'", Fraction(1, 2)),
    KitItem("Mess kit", Fraction(1, 4)),
    KitItem("Tinderbox", Fraction(1, 4)),
    KitItem("Rations", Fraction(1, 4), depletion=1),
    KitItem("Waterskin", Fraction(1, 4)),
    KitItem("Supply", Fraction(1, 4), quantity=4, kind="supply"),
)
QUIVER = KitItem("Quiver of ammunition", Fraction(1), depletion=2, kind="ammunition")
STARTING_SUPPLY = 4

# ER §Select Starting Equipment, by Archetype: the choices (a key -> the items it gives).
ARCHETYPE_KITS = {
    VIOLENT: {
        "heavy_weapon": (KitItem("Heavy weapon", Fraction(2), kind="weapon"),),
        "small_shield": (KitItem("Shield, small", Fraction(1), blocks=4, kind="shield"),),
        "large_shield": (KitItem("Shield, large", Fraction(2), blocks=6, kind="shield"),),
    },
    DEVIANT: {
        "burglars_tools": (KitItem("Burglar's tools", Fraction(1)),),
        "alchemists_kit": (KitItem("Alchemist's kit", Fraction(1)),),
    },
    OCCULT: {
        "grimoires": (KitItem("Grimoire", Fraction(1, 4), quantity=4, kind="grimoire"),),
    },
    ZEALOT: {
        "relic": (KitItem("Relic", Fraction(1), kind="relic"),),
    },
}


@cache
def _json(name: str) -> dict:
    with (_HERE / name).open(encoding="utf-8") as handle:
        return json.load(handle)


def keepsakes() -> tuple[str, ...]:
    """ER §Keepsakes (d100): entry n is keepsakes()[n - 1]."""
    return tuple(_json("keepsakes.json")["entries"])


def failed_professions() -> tuple[str, ...]:
    """ER §Failed Professions (d100)."""
    return tuple(_json("failed_professions.json")["entries"])


def goods_tables() -> tuple[dict, ...]:
    """GS §Price Tables, raw: each {"name", "columns" (inferred), "rows", "notes"?}."""
    return tuple(_json("goods.json")["tables"])

# CM §Doctrines (7-covenants-and-miracles.md): doctrine -> (Boon from, Pact from, Woe from);
# below the Woe band, Apotheosis. The 1st: 10+ Boon, 7-9 Pact, 4-6 Woe, 1-3 Apotheosis.
DOCTRINES = {1: (10, 7, 4), 2: (11, 8, 4), 3: (16, 12, 5), 4: (17, 13, 5), 5: (20, 15, 6)}
# CM, the Blessèd Mother's beneficence: 10+ Boon, 7-9 Mark, 4-6 Woe, 1-3 Apotheosis.
BENEFICENCE = (10, 7, 4)
MIRACLE_OUTCOMES = ("boon", "pact", "woe", "apotheosis")
BENEFICENCE_OUTCOMES = ("boon", "mark", "woe", "apotheosis")
