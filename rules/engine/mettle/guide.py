"""The Guide's tools: NPC pools, the Faction triangle, new characters in a running game.

METTLE Core SRD, Guidance > Faction Tracker, Characters (a new character's pool total),
NPC Creation; Resources > Hirelings.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .attributes import Attributes, pool_total
from .checks import POOL_MAX, CheckOdds, CheckRoll, check_odds
from .data import ATTRIBUTE_KEYS, ATTRIBUTE_NAMES, FRAME

# -- NPC pools -----------------------------------------------------------------------------


@dataclass(frozen=True)
class NpcPool:
    """GD §NPC Creation: "a single NPC pool will do for Attributes *and* Mettle. Think
    "Stunned Bystander 3D" ... If one of their Attributes is far higher, such as FRAME for
    a large creature, list it in parentheses." """

    name: str
    pool: int
    higher: tuple[tuple[str, int], ...] = ()  # (attribute key, pool) noted in parentheses

    def __post_init__(self) -> None:
        if self.pool < 1:
            raise ValueError("An NPC pool has at least 1 die.")
        for key, _value in self.higher:
            if key not in ATTRIBUTE_KEYS:
                raise ValueError(f"{key!r} is not an Attribute")

    def attribute(self, key: str) -> int:
        return dict(self.higher).get(key, self.pool)

    @property
    def mettle(self) -> int:
        return self.pool

    @property
    def label(self) -> str:
        """"Hostile Village Elder 5D", "Horse 4D (FRAME 7)"."""
        text = f"{self.name} {self.pool}D"
        if self.higher:
            text += " (" + ", ".join(f"{ATTRIBUTE_NAMES[k]} {v}" for k, v in self.higher) + ")"
        return text


def npc_soak(npc: NpcPool, armour_soak: int = 0) -> int:
    """EN §Taking Damage: Soak = FRAME + the armour's Soak (RS §Armor); an NPC's FRAME is
    its pool, or the higher FRAME noted in parentheses."""
    if armour_soak < 0:
        raise ValueError("An armour's Soak is never negative.")
    return npc.attribute(FRAME) + armour_soak


def out_of_character_difficulty(difficulty: int) -> int:
    """"If they try something out of character, double the Difficulty as usual"."""
    return 2 * difficulty


# -- the Faction triangle ----------------------------------------------------------------------

VILLAIN, BACKER, RIVAL = "villain", "backer", "rival"
FACTIONS = (VILLAIN, BACKER, RIVAL)
RESOURCES_BASE = 3  # "Roll 1d6+3 for each Faction, giving the Rival the lowest."

# FACTION SEEDS: d6 -> (Enemy, Backer, Rival).
FACTION_SEEDS = {
    1: ("Zealous Cult", "Secret Society", "Fellow Adventurer"),
    2: ("Sinister Genius", "Government Agency", "Unpredictable Weirdo"),
    3: ("Ruthless Corporation", "Wealthy Philanthropist", "Sly Trickster"),
    4: ("Shadow Conspiracy", "Curious Scholars", "Bumbling Oaf"),
    5: ("Greedy Criminals", "Religious Order", "Vengeful Ex-member"),
    6: ("Aspiring Overlord", "Mysterious Voice", "Suspicious Investigator"),
}

# FACTION RELATIONS: d6 -> (relation, elaboration).
FACTION_RELATIONS = {
    1: ("Colluding", "Working with them as collaborators, secret or open."),
    2: ("Extorting", "Forcing them to do something or face dire consequences."),
    3: ("Undermining", "Subtly deteriorating their power and reach."),
    4: ("Evading", "Hiding, fleeing, defending, and evading conflict."),
    5: ("Attacking", "Hostile and actively trying to destroy by whatever means."),
    6: ("Appeasing", "Giving them what they want, to curry favor or halt attack."),
}
FACTION_TWIST = "deals with the fallout instead of taking part in the next Faction turn"


def faction_resources(dice: Iterable[int]) -> dict[str, int]:
    """Three d6 rolled for the Factions' Resources (1d6+3 each); the lowest goes to the
    Rival, the other two to the Villain and the Backer in the order rolled."""
    rolls = list(dice)
    if len(rolls) != len(FACTIONS) or any(r not in range(1, 7) for r in rolls):
        raise ValueError("Roll one d6 for each of the three Factions.")
    lowest = rolls.index(min(rolls))
    rival = rolls.pop(lowest)
    villain, backer = rolls
    return {VILLAIN: villain + RESOURCES_BASE, BACKER: backer + RESOURCES_BASE,
            RIVAL: rival + RESOURCES_BASE}


FACTION_NAMES = {VILLAIN: "Villain", BACKER: "Backer", RIVAL: "Rival"}

# GD §Faction Tracker: "The sides of the triangle are bidirectional arrows -- jot down their
# relation to each other, above and below." Reading AMB-M-GD-1: each side holds two
# relations, one each way, so the triangle has six, each rolled on its own d6.
RELATION_ARROWS = (
    (VILLAIN, BACKER), (BACKER, VILLAIN),
    (BACKER, RIVAL), (RIVAL, BACKER),
    (RIVAL, VILLAIN), (VILLAIN, RIVAL),
)
# Reading AMB-M-GD-3: Resources "change only from extremely impactful events"; the Guide
# adjusts them by hand, never below 0 (no dice) nor above the largest pool a Check rolls.
RESOURCES_MIN, RESOURCES_MAX = 0, POOL_MAX


def faction_relation(roll: int) -> tuple[str, str]:
    """FACTION RELATIONS: a d6 -> (relation, elaboration)."""
    if roll not in FACTION_RELATIONS:
        raise ValueError("A relation is rolled on one d6.")
    return FACTION_RELATIONS[roll]


def faction_relations(dice: Iterable[int]) -> dict[tuple[str, str], str]:
    """Six d6, one per arrow of RELATION_ARROWS in order -> each arrow's relation."""
    rolls = list(dice)
    if len(rolls) != len(RELATION_ARROWS):
        raise ValueError("Roll one d6 for each of the six arrows.")
    return {arrow: faction_relation(roll)[0]
            for arrow, roll in zip(RELATION_ARROWS, rolls, strict=True)}


def resources_after(current: int, change: int) -> int:
    """Resources after a change, refused outside RESOURCES_MIN..RESOURCES_MAX (AMB-M-GD-3)."""
    after = current + change
    if not RESOURCES_MIN <= after <= RESOURCES_MAX:
        raise ValueError(f"Resources stay between {RESOURCES_MIN} and {RESOURCES_MAX}; "
                         f"{current} {change:+d} would be {after}.")
    return after


def faction_check(actor_resources: int, target_resources: int, faces: Iterable[int],
                  twist_faces: Iterable[int] | None = None) -> CheckRoll:
    """GD §Faction Tracker: "The Rival Checks their Resources vs. a Difficulty of the
    Backers' Resources": one die per point of the actor's Resources, the target's
    Resources as Difficulty, read as any Check (EN §Checks). A Twist rerolls the Edge
    dice as any Twist (EN §Twists, AMB-M9); its default cost is FACTION_TWIST
    (AMB-M-GD-2: the actor sits out the next Faction turn)."""
    faces = tuple(faces)
    if len(faces) != actor_resources:
        raise ValueError(f"Resources {actor_resources} roll {actor_resources} dice, "
                         f"not {len(faces)}.")
    return CheckRoll(faces=faces, difficulty=target_resources,
                     twist_faces=None if twist_faces is None else tuple(twist_faces))


def faction_check_odds(resources: Mapping[str, int], actor: str, target: str) -> CheckOdds:
    """A Faction Checks its Resources against the other's Resources as Difficulty."""
    return check_odds(resources[actor], resources[target])


# -- new characters in a running game ----------------------------------------------------------


def new_character_pool_total(group: Iterable[Attributes]) -> int:
    """GD §Characters: "A new character should start with an Attribute pool total
    (highest x 2 + all lesser pools) equal to the lowest in the group"."""
    totals = [pool_total(attrs) for attrs in group]
    if not totals:
        raise ValueError("A group needs at least one character.")
    return min(totals)
