"""METTLE Core's tables as data, each with the section it comes from.

Source: the METTLE Core SRD at revision 77010da (August 2023): Characters (CH), Engine
(EN), Resources (RS). Licence: CC BY 4.0; the attribution below ships with the tables.
A "-" in a Load or Cost column is stored as 0 or None (no Load, no price).
"""

from __future__ import annotations

from dataclasses import dataclass

ATTRIBUTION = (
    "This work is based on the text of METTLE Core; a product of Planarian Games, "
    "developed, authored, and edited by Jake Eldritch, and licensed for our use under the "
    "Creative Commons Attribution 4.0 International License: "
    "http://creativecommons.org/licenses/by/4.0/"
)
LICENSE = "CC BY 4.0"

# CH §Step 3: the five Attributes, in the sheet's order.
CONCEPT, FRAME, MOTIVE, NATURE, POISE = "concept", "frame", "motive", "nature", "poise"
ATTRIBUTE_KEYS = (CONCEPT, FRAME, MOTIVE, NATURE, POISE)
ATTRIBUTE_NAMES = {key: key.upper() for key in ATTRIBUTE_KEYS}

# CH §Step 3, ATTRIBUTE POOLS: pool -> (rating, cost as the highest, cost as another).
ATTRIBUTE_POOLS = {
    1: ("Poor", 2, 1),
    2: ("Low", 4, 2),
    3: ("Average", 6, 3),
    4: ("High", 8, 4),
    5: ("Great", 10, 5),
    6: ("Amazing", 12, 6),
}

# EN §Checks, DIFFICULTY: (Difficulty, ranking), lowest first.
DIFFICULTY = (
    (1, "Routine"),
    (3, "Challenging"),
    (6, "Daunting"),
    (10, "Formidable"),
    (15, "Nigh Impossible"),
)

# EN §Checks, EDGE: Edge -> quality of success; 5 and more is Legendary.
EDGE = ("OK", "Good", "Great", "Excellent", "Amazing", "Legendary")

# CH §Credit, CREDIT: Credit -> ranking; "Afford" is 10**Credit - 1 dollars ($9 ... $999,999).
CREDIT_RANKS = {
    1: "Needy",
    2: "Struggling",
    3: "Comfortable",
    4: "Prosperous",
    5: "Affluent",
    6: "Rich",
}

# EN §Twists, TWIST SEEDS: (type, what is lost, examples). Delay is the default.
TWIST_SEEDS = (
    ("Confuse", "trust", "mistaken identity, mistranslation, half-truth..."),
    ("Delay", "next Action", "stuck, stalled, distracted, shaken..."),
    ("Dismay", "morale", "lost contact, harm relations with others..."),
    ("Expose", "secret", "cover blown, reveal a secret, leave clues..."),
    ("Imperil", "safety", "friendly fire, obstacle, unwanted attention..."),
    ("Waste", "resources", "use up credit, lose or break items..."),
)
DEFAULT_TWIST = "Delay"

# CH §Encumbrance, COMMON LOADS: (item, Load).
COMMON_LOADS = (
    ("Backpack, small & filled with gear", 1),
    ("Backpack, large & filled with gear", 2),
    ("Footlocker or chest", 3),
    ("Bag of 1000 or so coins", 1),
    ("Body, Medium (man-sized)", 4),
    ("Body, Small (large dog, etc.)", 2),
    ("Body, Large (Pony, etc.)", 8),
)


@dataclass(frozen=True)
class Armor:
    """RS §Armor, ARMOR: Soak adds to FRAME; Cost is in Credit digits."""

    name: str
    soak: int
    load: int
    cost: int
    era: str  # "archaic" or "modern"
    bulletproof: bool = False  # BP: halves the first firearm damage after Soak


ARMOR = (
    Armor("Light (Leather)", 1, 1, 2, "archaic"),
    Armor("Medium (Chain)", 2, 2, 3, "archaic"),
    Armor("Heavy (Plate)", 3, 3, 4, "archaic"),
    Armor("Kevlar vest (BP)", 1, 0, 3, "modern", bulletproof=True),
    Armor("Flak Jacket", 2, 1, 3, "modern"),
    Armor("Riot gear", 3, 2, 4, "modern"),
)


@dataclass(frozen=True)
class Weapon:
    """RS §Weapons, WEAPONS. Hit is +XD on the Attack pool; DM is FRAME + `dm` when
    `dm_adds_frame`, else the flat `dm`. Cost is in Credit digits (None: "-")."""

    name: str
    hit: int
    dm: int
    dm_adds_frame: bool
    specials: tuple[str, ...]
    load: int
    cost: int | None

    @property
    def dm_text(self) -> str:
        if not self.dm_adds_frame:
            return str(self.dm)
        return f"FRAME+{self.dm}" if self.dm else "FRAME"

    @property
    def stun_only(self) -> bool:
        """RS §Specials, Stun: "Stun (only)" (Taser) or "Stun (only!)" (Stun gun)."""
        return any(special.startswith("Stun (only") for special in self.specials)


def _w(name, hit, dm, specials, load, cost):
    frame = isinstance(dm, str)
    value = int(dm.removeprefix("FRAME").removeprefix("+") or 0) if frame else dm
    return Weapon(name, hit, value, frame, tuple(specials), load, cost)


WEAPONS = (
    _w("Axe", 1, "FRAME+3", (), 1, 2),
    _w("Axe, great", 1, "FRAME+4", ("2H",), 2, 3),
    _w("Bow", 0, "FRAME+2", ("2H", "Range 4", "Ammo 12"), 2, 3),
    _w("Brass Knuckles", 0, "FRAME", ("Stun",), 0, 2),
    _w("Bullwhip", 0, "FRAME", ("Reach", "Wrap", "Grapple"), 1, 2),
    _w("Club", 1, "FRAME+1", ("Stun",), 1, 1),
    _w("Crossbow", 0, 6, ("2H", "Range 4", "Ammo 1"), 2, 3),
    _w("Dagger/Knife", 1, "FRAME+1", ("Range 0",), 0, 2),
    _w("Dynamite stick", 0, 7, ("Range 1", "Blast", "Ammo 1"), 0, 2),
    _w("Flail", 1, "FRAME+2", ("Wrap",), 1, 3),
    _w("Flail, great", 1, "FRAME+3", ("2H", "Wrap"), 2, 3),
    _w("Garrote", 0, "FRAME+1", ("Grapple",), 0, 1),
    _w("Grenade, frag.", 0, 8, ("Range 1", "Blast"), 0, 3),
    _w("Hatchet", 1, "FRAME+1", ("Range 0",), 1, 2),
    _w("Lance", 1, "FRAME+3", ("2H", "Reach"), 2, 3),
    _w("Machete", 1, "FRAME+2", ("Tool (+1D Travel)",), 1, 2),
    _w("Net", 0, "FRAME", ("Entangle",), 1, 2),
    _w("Pistol", 0, 6, ("Range 2", "Ammo 6"), 0, 3),
    _w("Polearm", 1, "FRAME+4", ("2H", "Reach"), 2, 3),
    _w("Quarterstaff", 2, "FRAME+2", ("2H", "Stun"), 2, 2),
    _w("Revolver", 0, 6, ("Range 2", "Ammo 9"), 0, 3),
    _w("Rifle", 0, 7, ("2H", "Ammo 5", "Range 6", "Scope"), 1, 3),
    _w("Rifle, assault", 0, 7, ("2H", "Burst", "Ammo 30", "Range 5"), 1, 3),
    _w("Shield, large", 0, "FRAME", ("Shield +2",), 2, 3),
    _w("Shield, medium", 0, "FRAME", ("Defend +1", "Shield +1"), 1, 3),
    _w("Shield, small", 0, "FRAME", ("Defend +2",), 0, 3),
    _w("Shotgun", 2, 8, ("2H", "Range 2"), 1, 3),
    _w("Sling", 0, "FRAME+1", ("Range 3",), 0, 1),
    _w("SMG", 0, 6, ("2H", "Range 3", "Burst", "Ammo 30"), 0, 3),
    _w("Spear", 1, "FRAME+2", ("Range 1", "Reach"), 2, 2),
    _w("Stun gun", 0, 6, ("Stun (only!)",), 0, 3),
    _w("Sword", 2, "FRAME+2", (), 1, 3),
    _w("Sword, great", 2, "FRAME+3", ("2H",), 2, 3),
    _w("Taser", 0, 6, ("Stun (only)", "Reach"), 0, 3),
    _w("Unarmed", 0, "FRAME", ("Stun", "Soft"), 0, None),
)
WEAPON_BY_NAME = {weapon.name: weapon for weapon in WEAPONS}
UNARMED = WEAPON_BY_NAME["Unarmed"]
STUN_ONLY_WEAPONS = tuple(weapon.name for weapon in WEAPONS if weapon.stun_only)

# RS §Weapons > Specials: special -> what it does (for the rules reference).
WEAPON_SPECIALS = {
    "2H": "takes two hands to wield.",
    "Ammo": "the number of shots before reloading with a Use Action.",
    "Blast": "also inflicts 1d6 + DM as Area Attack to others in the target Zone.",
    "Burst": "grants an extra hit for every 5 ammo and 1 Edge spent; damage is the same for "
             "each before Soak, minus the Edge spent to Burst.",
    "Defend": "adds a bonus to Defend Checks when wielded.",
    "Entangle": "Grapples using the weapon's Hit and DM and needs no further Action to keep "
                "the Difficulty increase each round; the target escapes by beating it on a "
                "Move Check.",
    "Grapple": "use the weapon's Hit and DM on Grapple Attacks.",
    "Range": "how many Zones one can shoot or throw the weapon; beyond, +1 Difficulty per "
             "Zone up to twice the Range. Range 0: Difficulty +1 in the next Zone.",
    "Reach": "steals Initiative from an attacker, unless out of Actions or the attacker also "
             "uses a Reach weapon.",
    "Scoped": "adds that many Zones to Range at the cost of an Action.",
    "Shield": "adds a bonus to POISE defense versus incoming Attacks.",
    "Soft": "less-lethal weapons like fists or whips: half damage after Soak.",
    "Stun": "full damage when making Stun attacks; a Stun-only weapon always Stuns on a "
            "Felling blow.",
    "Wrap": "flexible: ignores a foe's Shield Difficulty.",
}


@dataclass(frozen=True)
class Vehicle:
    """RS §Vehicles, VEHICLES: Handling is CONCEPT + `handling`; Cost in Credit digits."""

    name: str
    handling: int
    speed: int
    frame: int
    cost: int


VEHICLES = (
    Vehicle("Bicycle", 2, 2, 1, 3),
    Vehicle("Bus, school", 0, 4, 13, 6),
    Vehicle("Car, compact", 2, 5, 9, 5),
    Vehicle("Car, sedan", 1, 5, 9, 5),
    Vehicle("Car, sports", 2, 6, 9, 6),
    Vehicle("Car, SUV", 1, 5, 10, 5),
    Vehicle("Dirt bike", 2, 3, 4, 4),
    Vehicle("Helicopter, attack", 1, 6, 11, 7),
    Vehicle("Helicopter, light", 2, 5, 8, 6),
    Vehicle("Jet, Fighter", 1, 10, 14, 7),
    Vehicle("Jet, Jumbo", 0, 8, 19, 7),
    Vehicle("Motorcycle", 2, 5, 5, 5),
    Vehicle("Seaplane", 0, 6, 11, 6),
    Vehicle("Tank, combat", 1, 3, 16, 7),
    Vehicle("Truck, garbage", 0, 4, 15, 6),
    Vehicle("Truck, monster", 1, 4, 11, 6),
    Vehicle("Truck, pickup", 1, 5, 10, 5),
)


@dataclass(frozen=True)
class Mount:
    """RS §Mounts, MOUNTS: a simplified NPC Pool with FRAME in parentheses."""

    name: str
    pool: int
    frame: int
    speed: int
    attack: str
    dm: int


MOUNTS = (
    Mount("Camel", 4, 7, 2, "kick", 7),
    Mount("Donkey", 4, 5, 2, "kick", 5),
    Mount("Elephant", 4, 12, 1, "stomp", 12),
    Mount("Horse", 4, 7, 3, "kick", 7),
    Mount("Mule", 4, 7, 2, "kick", 7),
)


@dataclass(frozen=True)
class Gear:
    """RS §Medicine and §Standard Kits: Load and Resources (Cost, Credit digits)."""

    name: str
    load: int
    cost: int
    effect: str


MEDICINE = (
    Gear("Activated charcoal", 0, 1,
         "negates upcoming Affliction damage from most ingested poisons."),
    Gear("Antibiotics", 0, 2, "negates upcoming Affliction damage from bacterial diseases."),
    Gear("Painkillers, over the counter", 0, 1,
         "ignore one die of penalty from negative Mettle."),
    Gear("Painkillers, prescription", 0, 2, "ignore two dice of penalty from negative Mettle."),
    Gear("Stimulant, over the counter", 0, 1,
         "ignore a die of Fatigue drain from CONCEPT. Includes coffee."),
    Gear("Stimulant, prescription", 0, 2,
         "ignore two dice of Fatigue drain from CONCEPT, and one die of penalty from "
         "negative Mettle."),
)

STANDARD_KITS = (
    Gear("Explorer's pack", 1, 2,
         "Small backpack, snacks (1 day of rations), canteen (<1 L), flashlight, sack, "
         "paracord (~10 m), knife, lighter, first aid kit, light blanket, notebook, pen, "
         "and pencil."),
    Gear("Pockets/Purse", 0, 1,
         "Keys, wallet, cash, credit cards, and ID; likely a cell phone in recent settings."),
)


@dataclass(frozen=True)
class Action:
    """Scenes chapter (seed 001) > Actions: each Action's Check and outcomes. `active` is
    the Attribute rolled (a fitting CONCEPT may replace it if higher, on the active side
    only); `passive` what sets the Difficulty. The default Twist is Delay."""

    name: str
    active: str
    passive: str
    success: str
    edge: str
    failure: str


ACTIONS = (
    Action("Aid", CONCEPT, "current Mettle (0 or negative, as positive)",
           "the patient is alive and somewhat stable",
           "each point restores a point of Mettle after a week's rest",
           "the patient succumbs to their wounds and dies"),
    Action("Attack", NATURE, "the target's POISE", "hit and inflict the weapon's DM",
           "adds to DM", "the target dodges or parries"),
    Action("Defend", POISE, "the attacker's NATURE", "+2 to Soak", "adds to Soak",
           "+1 to Soak"),
    Action("Know", CONCEPT, "Difficulty (or MOTIVE if a person)",
           "the Guide answers in line with the character's best understanding",
           "answers more questions or finer details",
           "the Guide tells what their CONCEPT should know outright"),
    Action("Move", POISE, "Difficulty", "overcome obstacle or trap",
           "compare to see who got there first", "stopped by an obstacle or triggered trap"),
    Action("Parley", NATURE, "MOTIVE (or the highest MOTIVE of an audience)",
           "the social situation sways in your favor",
           "adds to the Difficulty to persuade otherwise later",
           "the social situation plays out as it would"),
    Action("Race", CONCEPT, "current Speed (Handling: CONCEPT + the vehicle's)",
           "kept up pace and stayed in control",
           "their lead on other racers in the same Speed group",
           "crash damage to vehicle and occupants"),
    Action("Rally", MOTIVE, "current Mettle", "restore two Mettle and end a Rattle",
           "restore that many extra Mettle", "restore only one point of Mettle"),
    Action("Rattle", NATURE, "current Mettle", "the foe adds +2 Difficulty to Rallies",
           "each Edge further raises Rally Difficulty by one",
           "the foe adds only +1 Difficulty to Rallies"),
    Action("Sneak", POISE, "MOTIVE (or the highest MOTIVE of a group)",
           "remain unnoticed by your foes",
           "adds to DM during Surprise, steal or plant more small items",
           "they notice you"),
    Action("Travel", CONCEPT, "Difficulty (+1 per day without rations)",
           "arrive at destination safely",
           "compare to beat rival parties or foes to destination",
           "arrive at your destination if you survive an encounter"),
    # The Use Check reads "FOCUS vs. Difficulty", a leftover name for CONCEPT (AMB-M17).
    Action("Use", CONCEPT, "Difficulty (a vehicle's repair: its FRAME)",
           "uses the item properly", "quicker, better, with flair",
           "the task is harder than it looks"),
)
ACTION_BY_NAME = {action.name: action for action in ACTIONS}
