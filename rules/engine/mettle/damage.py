"""Damage, Mettle and the Scenery hazards that deal it.

METTLE Core SRD, Engine > Rolls, Mettle (Taking Damage, Mettle Surges, Status Effects);
the Scenes chapter (seed 001) > Actions (Aid, Attack, Defend, Rally, Rattle, Sneak) and
Scenery (Affliction, Cover, Falls, Fire, Visibility).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum


def halve(value: int) -> int:
    """EN §Rolls: "If halved, the general halving rule in this game is to round up"."""
    return -(-value // 2)


def roll_total(faces_sum: int, modifier: int = 0) -> int:
    """EN §Roll Modifiers: "A penalty can only drop a result to zero, never into the
    negative"."""
    return max(faces_sum + modifier, 0)


# -- taking damage -----------------------------------------------------------------------------


def attack_damage(dm: int, edge: int) -> int:
    """Attack: "they inflict the weapon's DM plus any Edge as damage"."""
    return dm + edge


def defend_soak_bonus(success: bool, edge: int = 0) -> int:
    """Defend: success "raise Soak by two ... plus one for every Edge"; "Even a failed
    Defend raises Soak by one"."""
    return 2 + edge if success else 1


def damage_through_soak(
    damage: int,
    soak: int,
    *,
    soft: bool = False,
    stun_attack: bool = False,
    stun_weapon: bool = False,
) -> int:
    """Mettle lost to a hit: the damage left after Soak, halved (rounded up) for Soft and
    unarmed attacks, and for Stun Attacks with a weapon without the Stun feature (Attack >
    Stun Attacks, Unarmed Attacks; RS §Specials, Soft). Halving once covers both."""
    through = max(damage - soak, 0)
    if soft or (stun_attack and not stun_weapon):
        through = halve(through)
    return through


def bulletproof_through(through: int, *, firearm: bool, bulletproof: bool,
                        spent: bool = False) -> tuple[int, bool]:
    """RS §Armor: "BP armor is "bulletproof," meaning it halves the first firearm damage it
    takes after Soak. Afterward, it only functions as regular armor." (the damage left
    after Soak, halved rounded up: EN §Rolls, `halve`). Returns (damage, BP now spent).
    AMB-M-BP-1: the first firearm hit with damage left after Soak spends it (a hit wholly
    soaked takes no damage); AMB-M-BP-2: it halves again after a Soft or Stun halving."""
    if spent or not (firearm and bulletproof) or through <= 0:
        return through, spent
    return halve(through), True


def stuns_on_felling(*, stun_attack: bool = False, stun_only: bool = False) -> bool:
    """A Felling blow Incapacitates (Stuns) for a Stun Attack (Attack > Stun Attacks), and
    always for a Stun-only weapon (RS §Specials, Stun: "If it *only* Stuns, it does damage
    but will always Stun on a Felling blow")."""
    return stun_attack or stun_only


class Felled(StrEnum):
    FALLEN = "fallen"
    STAGGERED = "staggered"
    INCAPACITATED = "incapacitated"  # a Felling blow of a Stun Attack


@dataclass(frozen=True)
class DamageResult:
    mettle: int
    felled: Felled | None  # a Felling blow and what it inflicts; None: still standing

    @property
    def felling_blow(self) -> bool:
        return self.felled is not None


STAGGER_COST = 1  # EN: Staggered "inflicts a further point of damage"


def take_damage(
    mettle: int, through: int, *, stagger: bool = False, stun_attack: bool = False
) -> DamageResult:
    """Lower current Mettle by the damage through Soak. "A hit that drops their Mettle to
    zero or lower is a Felling blow": Fallen, or Staggered at one more point of damage if
    the player chooses (again on each later Felling blow), or Incapacitated "instead of
    damage" for a Stun Attack (Attack > Stun Attacks: the Mettle is left as it was)."""
    if through <= 0:
        return DamageResult(mettle, None)
    after = mettle - through
    if after > 0:
        return DamageResult(after, None)
    if stun_attack:
        return DamageResult(mettle, Felled.INCAPACITATED)
    if stagger:
        return DamageResult(after - STAGGER_COST, Felled.STAGGERED)
    return DamageResult(after, Felled.FALLEN)


def staggered_check_penalty(mettle: int) -> int:
    """Staggered: "a die penalty to Checks equal to their negative Mettle"."""
    return max(-mettle, 0)


def mettle_at_new_scene(current: int, maximum: int) -> int:
    """EN §Mettle: "If above zero, Mettle refills upon starting a new Scene"."""
    return maximum if current > 0 else current


def surge_limit(motive: int, mettle: int, spent_this_round: int = 0) -> int:
    """EN §Mettle Surges: +1D per point of Mettle spent, at most MOTIVE in a Round, never
    lowering Mettle to zero."""
    return max(min(motive - spent_this_round, mettle - 1), 0)


# -- Rally and Rattle ------------------------------------------------------------------------


def rattle_increase(success: bool, edge: int = 0) -> int:
    """Rattle: success +2 Rally Difficulty, +1 per Edge; failure +1."""
    return 2 + edge if success else 1


def rally_difficulty(mettle: int, rattles: Iterable[int] = ()) -> int:
    """Rally is MOTIVE vs. current Mettle, plus the worst Rattle of the Scene:
    "Difficulty increases from multiple rattlers do not stack"."""
    return mettle + max(rattles, default=0)


def rally(mettle: int, maximum: int, *, success: bool, edge: int = 0) -> int:
    """Mettle after a Rally: success restores two plus the Edge, failure one. "This cannot
    restore negative Mettle": nothing is restored at zero or below. Reading: a Rally
    restores lost Mettle only, up to the maximum (docs/RULES.md)."""
    if mettle <= 0:
        return mettle
    return min(mettle + (2 + edge if success else 1), max(maximum, mettle))


# -- Aid, CONCEPT, Scenery ---------------------------------------------------------------------


def aid_difficulty(mettle: int, *, self_aid: bool = False) -> int:
    """Aid: CONCEPT vs. current (0 or negative) Mettle "treating it as positive"; alone,
    MOTIVE at double Difficulty."""
    difficulty = abs(min(mettle, 0))
    return 2 * difficulty if self_aid else difficulty


class OffDescriptorReading(StrEnum):
    """AMB-M12: CONCEPT off its Descriptor: CH's double Difficulty (the rule), or GD's
    "about half their dice pool" (a Guide's option)."""

    DOUBLE_DIFFICULTY = "double_difficulty"
    HALF_POOL = "half_pool"


def concept_check(
    pool: int,
    difficulty: int,
    *,
    on_descriptor: bool,
    backstory_applies: bool = False,
    reading: OffDescriptorReading = OffDescriptorReading.DOUBLE_DIFFICULTY,
) -> tuple[int, int]:
    """(dice, Difficulty) of a CONCEPT Check. Off the Descriptor it is at double
    Difficulty, unless a relevant Backstory applies (CH §CONCEPT, §Step 4); a Backstory
    rolls the CONCEPT pool (AMB-M11)."""
    if on_descriptor or backstory_applies:
        return pool, difficulty
    if reading is OffDescriptorReading.HALF_POOL:
        return halve(pool), difficulty
    return pool, 2 * difficulty


SWIM_DIFFICULTY_PER_LOAD = 1  # AMB-M15, a house reading: "Every point of Load penalizes Swim"


def swim_difficulty(difficulty: int, load: int) -> int:
    return difficulty + SWIM_DIFFICULTY_PER_LOAD * max(load, 0)


SURPRISE_ROUNDS = 1  # AMB-M11b: Sneak's "goes a Round without an Action", not EN's Scene

# Cover (Scenery > Cover) and visibility (Scenery > Visibility): Difficulty increases.
PARTIAL_COVER_DIFFICULTY = 2
DIM_LIGHT_DIFFICULTY = 1
DARKNESS_DIFFICULTY = 3


class Surface(StrEnum):
    NORMAL = "normal"
    HARD = "hard"  # "Hard ground like concrete or rubble may inflict +1"
    WATER = "water"  # "water may be -2"


SURFACE_MODIFIER = {Surface.NORMAL: 0, Surface.HARD: 1, Surface.WATER: -2}
FALL_PER_ZONE = 2  # "1d6, plus 2 for every full building story or ~5-meter vertical Zone"
FALL_CAP = 20  # "Terminal velocity limits damage to 1d6+20"
JUMP_MODIFIER = -2  # "jumping purposefully instead of falling grants -2"
PLUMMET_DM_PER_ZONE = 2


def fall_modifier(zones: int, surface: Surface = Surface.NORMAL, *, jumped: bool = False) -> int:
    """The +N of a fall's 1d6+N damage (soaked by POISE, not FRAME), never above +20."""
    modifier = FALL_PER_ZONE * max(zones, 0) + SURFACE_MODIFIER[Surface(surface)]
    if jumped:
        modifier += JUMP_MODIFIER
    return min(modifier, FALL_CAP)


def fall_damage(die: int, zones: int, surface: Surface = Surface.NORMAL, *,
                jumped: bool = False) -> int:
    """A fall's damage for the 1d6 rolled, a Roll that never goes below zero."""
    return roll_total(die, fall_modifier(zones, surface, jumped=jumped))


def fall_soak(poise: int, armor_soak: int = 0) -> int:
    """Scenery > Falls: "This damage Soaks with POISE instead of FRAME" (AMB-M-HZ-1: worn
    armour still counts). `poise` is the modified pool: lowered by the armour's burden (RS
    §Armor: "if Load exceeds the wearer's FRAME, it lowers POISE by that amount") and 0
    while Fallen or Incapacitated (EN §Status Effects), as the sheet's `modified`."""
    return max(poise, 0) + max(armor_soak, 0)


def poison_dose(dose_roll: int, frame: int) -> int:
    """Max Mettle a poison (or tranquilizer) takes, one per Round: the Dose Roll less the
    victim's FRAME, if positive. AMB-M16: the table's "2d6-FRAME" is this same subtraction,
    made once."""
    return max(dose_roll - frame, 0)


def area_damage(die: int, dm: int, *, partial_cover: bool = False) -> int:
    """Attack > Area Attacks: "Damage is 1d6 + DM for each target", no Check; "Area Attacks
    do half damage in Partial Cover" (Scenery > Cover; Total Cover: no damage at all)."""
    total = die + dm
    return halve(total) if partial_cover else total


# -- deprivation (Scenery > Deprivation) -----------------------------------------------------


def deprivation_modifiers(*, weeks_without_food: int = 0, days_without_water: int = 0,
                          days_without_rest: int = 0) -> tuple[tuple[str, int], ...]:
    """The pool losses of deprivation, as the sheet's modifiers: Hunger -1 FRAME a week,
    Thirst -1 POISE a day, Fatigue -1 CONCEPT a day. At zero the character dies."""
    losses = (("frame", weeks_without_food), ("poise", days_without_water),
              ("concept", days_without_rest))
    return tuple((key, -n) for key, n in losses if n > 0)


def deprivation_kills(pool: int, loss: int) -> bool:
    """"At zero, the character has starved [dies from dehydration, exhaustion]"."""
    return pool - loss <= 0


HOLD_BREATH_DICE = 1  # "hold their breath in strenuous conditions for 1d6 rounds"
HOLD_BREATH_DICE_DEEP = 2  # "or 2d6 if they have time for deep breaths beforehand"


# -- vehicles (Resources > Vehicles: Crashes, Ramming) -----------------------------------------


def crash_damage(die: int, speed: int, *, occupant: bool = False, seatbelt: bool = True) -> int:
    """A Crash: 1d6 + current Speed to the vehicle, with no Soak; occupants Roll the same,
    soaked by their FRAME and armour, with Speed counted double without a seatbelt."""
    if occupant and not seatbelt:
        speed *= 2
    return die + speed


def ram_damage(frame: int, speed: int, edge: int, *, head_on_speed: int = 0) -> int:
    """Ram: "FRAME + Speed + Edge, soaked by the target's FRAME"; head-on, both Speeds."""
    return frame + speed + head_on_speed + edge


def ram_return_damage(target_frame: int, target_speed: int, own_frame: int, edge: int) -> int:
    """The rammer's collateral damage: the target's FRAME + Speed, "soaked by their FRAME +
    Edge"; what gets through."""
    return max(target_frame + target_speed - (own_frame + edge), 0)


# -- fire and afflictions (Scenery > Fire, Affliction) -----------------------------------------

FIRE_DICE_MAX = 5  # "a torch ... 1d6 or so, a raging Bonfire 2d6, and a forge or lava flow 3d6
# or more": the form's ceiling, a house limit


def fire_damage(faces: Iterable[int]) -> int:
    """Fire: "1d6 or more damage each round", soaked by FRAME and armour."""
    return roll_total(sum(faces))


@dataclass(frozen=True)
class Affliction:
    """A row of Scenery > Affliction's SAMPLE AFFLICTIONS: Dose = dice + modifier, less the
    victim's FRAME for poisons and tranquilizers; disease 1/day, poison 1/Round."""

    key: str
    source: str
    type: str  # "Disease", "Poison", "Tranquilizer"
    dice: int
    modifier: int
    minus_frame: bool
    symptoms: str

    @property
    def dose_text(self) -> str:
        tail = "-FRAME" if self.minus_frame else f"{self.modifier:+d}" if self.modifier else ""
        return f"{self.dice}d6{tail}"

    @property
    def interval(self) -> str:
        return "day" if self.type == "Disease" else "Round"

    @property
    def raises_difficulty(self) -> bool:
        """"Tranquilizers: as poison, but the Dose result also raises the victim's Check
        Difficulties" (Scenery > Affliction)."""
        return self.type == "Tranquilizer"


AFFLICTIONS = (
    Affliction("cold", "Common cold", "Disease", 1, -3, False, "Cough, sneezing"),
    Affliction("monitor", "Monitor lizard bite", "Disease", 1, -1, False,
               "Swelling, gangrene"),
    Affliction("curare", "Curare dart", "Poison", 2, 0, True, "Shortness of breath"),
    Affliction("cobra", "Cobra venom", "Poison", 2, 0, True, "Fatigue, swelling"),
    Affliction("tranquilizer", "Tranquilizer dart", "Tranquilizer", 1, 0, True,
               "Fatigue, clumsiness"),
)
AFFLICTION_BY_KEY = {a.key: a for a in AFFLICTIONS}


def affliction_dose(affliction: Affliction, faces: Iterable[int], frame: int) -> int:
    """The secret Dose: the most max Mettle the affliction takes, one a day (disease) or a
    Round (poison, tranquilizer). A Roll never goes below zero (EN §Roll Modifiers)."""
    rolled = roll_total(sum(faces), affliction.modifier)
    return poison_dose(rolled, frame) if affliction.minus_frame else rolled


def affliction_ticks_left(dose: int, taken: int) -> int:
    """Scenery > Affliction: "lower the victim's maximum Mettle by one each day [a disease]
    / each Round [a poison], up to the result": how many more it may take once `taken`
    have been; 0 when "the result runs out" (AMB-M-AFF-1)."""
    return max(dose - max(taken, 0), 0)


def mettle_under_lowered_maximum(current: int | None, maximum: int) -> int | None:
    """The current Mettle once Afflictions lower the maximum to `maximum`: Mettle above it
    comes down to it; a blank ("at maximum") stays blank, the sheet reading it as the
    lowered maximum (AMB-M-STAT-2, AMB-M-AFF-3). "Unaffected by Rallies": nothing raises it
    when the maximum recovers."""
    if current is None or current <= maximum:
        return current
    return maximum


def tranquilizer_difficulty(doses: Iterable[int]) -> int:
    """What the victim's every Check Difficulty is raised by: the Dose result of each
    tranquilizer that has not ended (Scenery > Affliction: "the Dose result also raises
    the victim's Check Difficulties"; AMB-M-AFF-7). The text says nothing of several
    darts not stacking (as it says of Rattles), so their Doses add; a Dose of 0 raises
    nothing ("If positive")."""
    return sum(max(dose, 0) for dose in doses)
