"""The four Archetypes: damage die, starting kits and each resource from Renown and the
Attributes, computed by formula and checked against the ER tables in the tests.

Errant SRD: ER §The Violent, §The Deviant, §The Occult, §The Zealot (tables whose headers
were lost: meanings from the prose, next-games.md E14-E17 and AMB-E18/E19), §Select Starting
Equipment.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .attributes import Issue
from .data import (
    ARCHETYPE_DAMAGE_DIE,
    ARCHETYPE_KITS,
    ARCHETYPE_NAMES,
    COMMON_KIT,
    DEVIANT,
    OCCULT,
    PROFICIENCIES,
    QUIVER,
    VIOLENT,
    ZEALOT,
    ZEALOT_TABLE,
    KitItem,
)

EXPERTISE_POINTS, MASTERY_POINTS = 1, 2  # ER §The Deviant: 1 point expertise, another mastery
STABILISE_BASE = 9  # ER §The Occult table: stabilise 8 at Renown 1 ... 0 at 9
FAVOUR_OFFSET = -9  # ER §The Zealot table: "pres-8" at Renown 1 ... "pres" at 9


def every_third(renown: int) -> int:
    """"When you reach Renown 3, and every third time your Renown increases thereafter":
    +1 at 3, 6, 9 (CR §Rounding: divisions round down)."""
    return renown // 3


# The Violent (D8) ------------------------------------------------------------------------------


def attack_rolls(renown: int) -> int:
    """1 + 1 at Renown 3, 6, 9 (ER §The Violent, Extra Attacks)."""
    return 1 + every_third(renown)


def feats_known(renown: int) -> int:
    """Smite, Grit and Dash, + 1 at every even Renown (ER §The Violent, Feats)."""
    return 3 + renown // 2


def combat_dice(renown: int) -> int:
    """2 at Renown 1, + 1 each time Renown increases."""
    return renown + 1


# The Deviant (D6) ------------------------------------------------------------------------------


def proficiency_points(renown: int) -> int:
    """2 at Renown 1, + 1 each time Renown increases."""
    return renown + 1


def has_mastery(build, key: str) -> bool:
    """ER §The Deviant: "Spending an additional Proficiency point on a Proficiency grants
    you mastery" (2 points), with its special ability (Chemist, Locksmith, ...)."""
    return (build.archetype == DEVIANT
            and dict(build.proficiencies).get(key, 0) >= MASTERY_POINTS)


LORE_SORCERY_DEPLETION = 1  # ER §The Deviant, Lore mastery: "your Sorcery Depletion is 1"
# ER §The Deviant, Sneak Attack: "rolling two damage dice"; Stealth mastery Assassin: "you
# roll three damage dice when making a sneak attack".
SNEAK_ATTACK_DICE, ASSASSIN_SNEAK_ATTACK_DICE = 2, 3
# Survival mastery Beast Master: the animal companion's "damage die of D6".
COMPANION_DAMAGE_DIE = 6


def sneak_attack_dice(build) -> int:
    """The damage dice of a Deviant's sneak attack (an Attack Roll against someone unaware
    of them): 2, 3 with the Assassin mastery; 0 for the other Archetypes, who have none."""
    if build.archetype != DEVIANT:
        return 0
    return ASSASSIN_SNEAK_ATTACK_DICE if has_mastery(build, "stealth") else SNEAK_ATTACK_DICE


@dataclass(frozen=True)
class Companion:
    """ER §The Deviant, Survival mastery Beast Master: "It has HP and SPD equal to your
    skill, a damage die of D6, and can perform sneak attacks"; "All Checks made by your
    animal companion are resolved using your skill"; it "receives the benefits of any of
    your proficiencies, if applicable": its sneak attacks roll the Deviant's sneak dice
    (3 with Assassin, AMB-E-BEAST)."""

    hp: int
    spd: int
    damage_sides: int
    sneak_dice: int
    check_attribute: int  # the Deviant's skill


def animal_companion(build, skill: int) -> Companion | None:
    """The Beast Master's animal companion, or None without the mastery."""
    if not has_mastery(build, "survival"):
        return None
    skill = max(skill, 0)
    return Companion(skill, skill, COMPANION_DAMAGE_DIE, sneak_attack_dice(build), skill)


def jettons(skill: int, renown: int) -> int:
    """The table's "Skill+2" ... "Skill+18": skill + 2 x Renown."""
    return skill + 2 * renown


def proficiency_problems(spent: Mapping[str, int], renown: int) -> list[Issue]:
    """Points spent: 1 (expertise) or 2 (mastery) per Proficiency, within the points owned.
    Proficiencies of the Errant's own devising are allowed with the Guide (any key)."""
    problems = []
    for key, points in spent.items():
        if points not in (EXPERTISE_POINTS, MASTERY_POINTS):
            name = PROFICIENCIES.get(key, (key, ""))[0]
            problems.append(Issue("proficiency_points_invalid",
                                  f"{name} takes 1 point (expertise) or 2 (mastery), not "
                                  f"{points}.", "proficiencies"))
    total, owned = sum(spent.values()), proficiency_points(renown)
    if total > owned:
        problems.append(Issue("proficiency_points_over",
                              f"{total} Proficiency points spent, {owned} owned at Renown "
                              f"{renown}.", "proficiencies"))
    elif total < owned:
        problems.append(Issue("proficiency_points_unspent",
                              f"{owned - total} Proficiency points unspent.", "proficiencies",
                              severity="warning"))
    return problems


# The Occult (D4) -------------------------------------------------------------------------------


def prepared_sorceries(renown: int) -> int:
    """The table's second column: 2 at Renown 1 ... 10 at 9 (Renown + 1)."""
    return renown + 1


def sorcery_depletion(renown: int) -> int:
    """The table's third column: 1, 1, 1, 2, 2, 2, 3, 3, 3 (Renown / 3, rounded up)."""
    return -(-renown // 3)


def stabilise(renown: int) -> int:
    """The table's fourth column: 8 at Renown 1 ... 0 at 9."""
    return STABILISE_BASE - renown


def stabilise_dv(renown: int, encumbrance: int) -> int:
    """"A mind Check with a DV equal to your stabilise value plus your Encumbrance"."""
    return stabilise(renown) + encumbrance


def maleficence_dice(renown: int) -> tuple[int, int]:
    """(D6 for the first Sorcery made unstable, D6 for each further one): 2D6/1D6, 4D6/2D6
    at Renown 3, 6D6/3D6 at 6, 8D6/4D6 at 9."""
    each = 1 + every_third(renown)
    return 2 * each, each


def maleficence_label(renown: int) -> str:
    first, further = maleficence_dice(renown)
    return f"{first}D6/{further}D6"


def retorts(renown: int) -> int:
    """One retort per Initiative Turn, + 1 at Renown 3, 6, 9."""
    return 1 + every_third(renown)


# The Zealot (D6) -------------------------------------------------------------------------------


def favour(pres: int, renown: int, deeds: int = 0) -> int:
    """The table's "pres-8" at Renown 1 ... "pres" at 9, + Favour gained permanently by deeds
    that please the Covenant. May be 0 or less (AMB-E22: nothing to spend then)."""
    return pres + FAVOUR_OFFSET + renown + deeds


def favour_available(value: int) -> int:
    return max(0, value)


def relics_attuned(renown: int) -> int:
    """One Relic at Renown 1, + 1 at Renown 3, 6, 9."""
    return 1 + every_third(renown)


def zealot_unlabelled(renown: int) -> int:
    """The Zealot table's last column, shown raw: the text does not say what it counts
    (AMB-E18)."""
    return ZEALOT_TABLE[min(max(renown, 1), 9)][2]


# Damage die and starting kits ------------------------------------------------------------------


def damage_die(archetype: str) -> int:
    return ARCHETYPE_DAMAGE_DIE[archetype]


@dataclass(frozen=True)
class ArchetypeValue:
    name: str  # data-stat name
    label: str
    value: int | str
    source: str
    rule: str = ""  # the rule in words, for the explanation


def archetype_values(archetype: str, renown: int, skill: int, pres: int,
                     encumbrance: int = 0, deeds: int = 0, *,
                     lore_mastery: bool = False, assassin: bool = False,
                     pack_rat: bool = False, beast_master: bool = False
                     ) -> tuple[ArchetypeValue, ...]:
    """The Archetype's resources at this Renown, in the sheet's order. A Deviant with Lore
    mastery (ER §The Deviant: "you can cast Sorceries from Grimoires ...; your Sorcery
    Depletion is 1") also has a Sorcery Depletion, 1 at every Renown (AMB-E-LORE). Every
    Deviant has sneak attack dice (2, 3 with Assassin); Pack Rat retrieves from any slot as
    from a handy one (AMB-E-PACKRAT); a Beast Master's animal companion has HP and SPD equal
    to skill and a D6 (AMB-E-BEAST)."""
    src = f"ER §{ARCHETYPE_NAMES[archetype]}"
    if archetype == VIOLENT:
        return (
            ArchetypeValue("attack_rolls", "Attack Rolls", attack_rolls(renown), src,
                           "1 + 1 at Renown 3, 6 and 9"),
            ArchetypeValue("feats_known", "Feats known", feats_known(renown), src,
                           "Smite, Grit, Dash + 1 at each even Renown"),
            ArchetypeValue("combat_dice", "Combat dice", combat_dice(renown), src,
                           "Renown + 1, the size of the damage die"),
        )
    if archetype == DEVIANT:
        return (
            ArchetypeValue("proficiency_points", "Proficiency points",
                           proficiency_points(renown), src,
                           "2 at Renown 1, + 1 per Renown"),
            ArchetypeValue("jettons", "Jettons", jettons(skill, renown), src,
                           f"skill {skill} + 2 x Renown {renown}"),
            ArchetypeValue("sneak_attack_dice", "Sneak attack dice",
                           ASSASSIN_SNEAK_ATTACK_DICE if assassin else SNEAK_ATTACK_DICE, src,
                           "Assassin (Stealth mastery): three damage dice" if assassin else
                           "two damage dice against someone unaware of you"),
        ) + ((ArchetypeValue("sorcery_depletion", "Sorcery Depletion",
                             LORE_SORCERY_DEPLETION, src,
                             "Lore mastery: 1 at every Renown; casts Sorceries from "
                             "Grimoires, Renown halved for their effects"),)
             if lore_mastery else ()) + ((ArchetypeValue(
                 "retrieve", "Retrieving an item", "free action", src,
                 "Pack Rat (Sleight of hand mastery): any item in any Item Slot as if it "
                 "were a handy slot, not an action at 1-in-4"),) if pack_rat else ()) + ((
                 ArchetypeValue("companion_hp", "Animal companion HP", max(skill, 0), src,
                                f"Beast Master (Survival mastery): skill {skill}"),
                 ArchetypeValue("companion_spd", "Animal companion SPD", max(skill, 0), src,
                                f"skill {skill}; it takes its own actions and makes its "
                                "Checks with your skill"),
                 ArchetypeValue("companion_damage_die", "Animal companion damage die",
                                f"D{COMPANION_DAMAGE_DIE}", src,
                                "can perform sneak attacks; a new one at the next Downtime "
                                "Turn if it dies"),
             ) if beast_master else ())
    if archetype == OCCULT:
        return (
            ArchetypeValue("prepared_sorceries", "Prepared Sorceries",
                           prepared_sorceries(renown), src,
                           "Renown + 1"),
            ArchetypeValue("sorcery_depletion", "Sorcery Depletion", sorcery_depletion(renown),
                           src,
                           "1 at Renown 1-3, 2 at 4-6, 3 at 7-9"),
            ArchetypeValue("stabilise", "Stabilise", stabilise(renown), src,
                           "9 - Renown"),
            ArchetypeValue("stabilise_dv", "Stabilise DV", stabilise_dv(renown, encumbrance),
                           src,
                           f"stabilise {stabilise(renown)} + Encumbrance {encumbrance}"),
            ArchetypeValue("maleficence", "Maleficence", maleficence_label(renown), src,
                           "first Sorcery made unstable / each further one"),
            ArchetypeValue("retorts", "Retorts", retorts(renown), src,
                           "1 + 1 at Renown 3, 6 and 9, per Initiative Turn"),
        )
    if archetype == ZEALOT:
        return (
            ArchetypeValue("favour", "Favour", favour(pres, renown, deeds), src,
                           f"pres {pres} - 9 + Renown {renown} + deeds {deeds}"),
            ArchetypeValue("relics_attuned", "Relics attuned", relics_attuned(renown), src,
                           "1 + 1 at Renown 3, 6 and 9"),
        )
    raise KeyError(archetype)


def starting_kit(archetype: str, choice: str, *, quiver: bool = False) -> tuple[KitItem, ...]:
    """ER §Select Starting Equipment: the common kit (5 slots; AMB-E17), a quiver if needed,
    and the Archetype's kit choice."""
    kits = ARCHETYPE_KITS[archetype]
    if choice not in kits:
        raise KeyError(f"{ARCHETYPE_NAMES[archetype]} starts with one of {', '.join(kits)}")
    return COMMON_KIT + ((QUIVER,) if quiver else ()) + kits[choice]
