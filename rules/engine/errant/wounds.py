"""Attacks and what they do: the damage die against HP, Blocks, Quality lost, gambits; 0 HP
and the phys Save; wounds by the damage beyond 0; death's door and the reaper counted in
Turns equal to Renown; burning, breath, falls; NPC Morale; Warbands.

Errant SRD: IT §Attacking, §Gambits, §Enhance & Impair, §Hit Protection & Damage,
§Drowning, Falling, Burning, §Death & Dying, §Warbands, §Morale, §NPC Attributes;
PR §Armour, §Weapons, §Quality & Breakage; CR §Rounding; QR §Attacking, §Death & Dying;
next-games.md E32-E36. docs/RULES.md records the readings (AMB-E10, E11, E24, E25, E73 ...).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import product

from .checks import p_success
from .data.initiative_tables import (
    DEAD_TEXT,
    DEADER_TEXT,
    FALL_TABLE,
    WARBAND_CATEGORIES,
    WARBAND_ORDER,
    WOUND_COLUMNS,
    WOUND_TABLES,
    Wound,
)
from .gear import step_damage_die

D6 = 6
BOTH = 2  # "If both legs go, you can't walk": two of a pair (legs, arms, eyes)
WOUND_ROWS = 9  # IT §Death & Dying: rows 1-9, then 10-15 Dead, 15+ Deader than Dead
DEAD_FROM, DEADER_FROM = 10, 16  # AMB-E11: 15 is Dead, 16 and more Deader than Dead
MORALE_RANGE = (2, 12)  # IT §Morale: "a Morale score between 2 and 12"
BREATH_BASE = 10  # IT: hold breath for "phys minus 10" Initiative Turns
FALL_MINIMUM = 10  # "a distance of 10 feet or greater"
WARBAND_HP_PER_MEMBER = 2  # IT §Warbands: "2 HP per combatant"
WARBAND_ARMOUR_HP = {"none": 0, "mail": 1, "plate": 2}


class CombatError(ValueError):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


def _faces(faces: Sequence[int], sides: int) -> None:
    if not faces:
        raise CombatError("no_dice", "Enter the dice rolled.")
    for f in faces:
        if not isinstance(f, int) or isinstance(f, bool) or not 1 <= f <= sides:
            raise CombatError("bad_die", f"Each die must be a whole number from 1 to {sides}.")


# -- Attack Rolls ----------------------------------------------------------------------------


@dataclass(frozen=True)
class AttackRoll:
    """IT §Attacking and PR §Quality & Breakage, for dice of `sides` faces after steps."""

    sides: int
    faces: tuple[int, ...]
    bonus: int = 0

    @property
    def ones(self) -> int:
        """Dice showing 1; a die impaired to 1 always counts (IT §Enhance & Impair)."""
        return sum(1 for f in self.faces if f == 1)

    @property
    def maxima(self) -> int:
        """Dice showing their highest face; a die impaired to 1 also counts as maximum."""
        return sum(1 for f in self.faces if f == self.sides)

    @property
    def damage(self) -> int:
        """The dice plus the weapon's bonus; a negative bonus never takes it below 1."""
        total = sum(self.faces) + self.bonus
        return max(1, total) if self.bonus < 0 else total

    @property
    def weapon_quality_lost(self) -> int:
        """1 Quality per die showing 1 ("reduce the Quality by 1 for every 1 rolled")."""
        return self.ones

    @property
    def target_may_act(self) -> bool:
        """"Whenever any die in an Attack Roll shows a result of 1, the target may
        immediately make an action"."""
        return self.ones > 0

    @property
    def armour_quality_lost(self) -> int:
        """Against an Errant: 1 armour Quality per die showing its highest face."""
        return self.maxima

    def ammunition_depleted(self, missile: bool) -> int:
        """PR §Weapons: a missile weapon's maximum lowers its ammunition's Depletion by 1,
        "only once per Attack Roll"."""
        return 1 if missile and self.maxima else 0


def attack_roll(sides: int, faces: Sequence[int], *, enhance: int = 0, impair: int = 0,
                blocks: int = 0, bonus: int = 0) -> AttackRoll:
    """`sides` is the unmodified damage die; enhance, impair and the target's Blocks (each
    Block impairs 1 step, PR §Armour) move it along the scale first. A die stepped down to 1
    needs no roll: give the face 1."""
    if blocks < 0 or enhance < 0 or impair < 0:
        raise CombatError("bad_steps", "Steps and Blocks are never negative.")
    stepped = step_damage_die(sides, enhance, impair + blocks)
    faces = tuple(faces)
    _faces(faces, stepped)
    return AttackRoll(stepped, faces, bonus)


def use_blocks(available: int, used: int) -> int:
    """PR §Armour: Blocks used from one armour piece are removed; returns what is left."""
    if used < 0 or used > available:
        raise CombatError("too_many_blocks", f"This armour has {available} Blocks left.")
    return available - used


@dataclass(frozen=True)
class Gambit:
    """IT §Gambits: the attacker reduces the rolled damage by X; the target saves against DV
    X. Fight Dirty and the like change the DV by `dv_modifier`."""

    rolled: int
    reduction: int
    dv_modifier: int = 0

    @property
    def damage(self) -> int:
        return self.rolled - self.reduction

    @property
    def save_dv(self) -> int:
        return self.reduction + self.dv_modifier


def gambit(rolled: int, reduction: int, dv_modifier: int = 0) -> Gambit:
    if not isinstance(reduction, int) or reduction < 0:
        raise CombatError("bad_reduction", "The reduction is a whole number, 0 or more.")
    if reduction > rolled:
        raise CombatError("reduction_too_big", f"The reduction cannot exceed the {rolled} rolled.")
    return Gambit(rolled, reduction, dv_modifier)


def gambit_outcome(save_succeeded: bool, position: str = "risky") -> tuple[bool, bool]:
    """(gambit works, target may act now): a failed Save means it works; a successful one
    lets the target act at once "unless the Saving Throw was made at dire Position"."""
    if save_succeeded:
        return False, position != "dire"
    return True, False


def p_gambit_works(target_attribute: int, gambit_: Gambit) -> Fraction:
    return 1 - p_success(target_attribute, gambit_.save_dv)


# -- HP, 0 HP and wounds ---------------------------------------------------------------------


@dataclass(frozen=True)
class Hit:
    """What `damage` does to an Errant at `hp_before` (IT §Hit Protection & Damage, §Death &
    Dying)."""

    hp_before: int
    damage: int

    @property
    def hp_after(self) -> int:
        return max(0, self.hp_before - self.damage)

    @property
    def save_dv(self) -> int | None:
        """Reduced to 0, or hit again at 0: a phys Save against DV = the damage taken
        (the hit's whole damage, AMB-E73). None when no Save is due."""
        if self.damage > 0 and self.hp_after == 0:
            return self.damage
        return None

    @property
    def wound_damage(self) -> int:
        """Only the damage beyond what brings HP to 0 (4 HP, 7 damage -> a 3-damage wound)."""
        return max(0, self.damage - self.hp_before)


def hit(hp_before: int, damage: int, *, tough: bool = False) -> Hit:
    """`tough`: the Tough Ancestry's once-per-session choice (ER §Choose Ancestry) "when you
    would be reduced to 0 HP ... to be reduced to 1 HP instead": from above 0, the hit
    leaves 1 HP, with no Save and no wound (AMB-E93)."""
    if hp_before < 0:
        raise CombatError("bad_hp", "HP is never below 0.")
    if damage < 0:
        raise CombatError("bad_damage", "Damage is never negative.")
    if tough and hp_before > 0 and damage >= hp_before:
        return Hit(hp_before, hp_before - 1)
    return Hit(hp_before, damage)


def p_stay_in_action(phys: int, hit_: Hit) -> Fraction | None:
    """The exact chance of passing the 0-HP phys Save, or None if no Save is due."""
    return None if hit_.save_dv is None else p_success(phys, hit_.save_dv)


@dataclass(frozen=True)
class WoundResult:
    column: str
    damage: int
    row: int  # 1-9, or 0 when no lower wound was left to take; DEAD_FROM+ for death
    wound: Wound | None
    dead: bool = False
    deader: bool = False

    @property
    def text(self) -> str:
        if self.deader:
            return DEADER_TEXT
        if self.dead:
            return DEAD_TEXT
        return self.wound.text if self.wound else "No wound left to take."


def wound(column: str, damage: int, received: Iterable[int] = (),
          impossible: Iterable[int] = ()) -> WoundResult:
    """The wound for `damage` beyond 0 HP in the chosen table (AMB-E11: the Guide picks the
    column). A wound already received as often as it can be (`limit`: 2 for legs, arms,
    eyes), one of a pair already gone ("losing a leg when both legs have been lost": a leg
    mangled and one destroyed are both legs), or one the Guide marks `impossible`, gives
    way to "the next available lower wound"; with none lower, no new wound (AMB-E74).
    10-15 Dead, 16+ Deader than Dead."""
    if column not in WOUND_TABLES:
        raise CombatError("bad_column", f"Choose one of: {', '.join(WOUND_COLUMNS)}.")
    if damage < 1:
        raise CombatError("no_wound", "Only damage beyond 0 HP causes a wound.")
    if damage >= DEADER_FROM:
        return WoundResult(column, damage, damage, None, dead=True, deader=True)
    if damage >= DEAD_FROM:
        return WoundResult(column, damage, damage, None, dead=True)
    taken = Counter(received)
    blocked = set(impossible)
    table = WOUND_TABLES[column]
    limbs = Counter(table[r - 1].limb for r in taken.elements()
                    if 1 <= r <= WOUND_ROWS and table[r - 1].limb)
    for row in range(damage, 0, -1):
        w = table[row - 1]
        gone = w.limb and limbs[w.limb] >= BOTH  # "losing a leg when both legs have been lost"
        if row not in blocked and taken[row] < w.limit and not gone:
            return WoundResult(column, damage, row, w)
    return WoundResult(column, damage, 0, None)


# -- death's door and the reaper -------------------------------------------------------------

DEATHS_DOOR, REAPER = "deaths_door", "reaper"
INITIATIVE_TURNS, EXPLORATION_TURNS = "initiative", "exploration"


@dataclass(frozen=True)
class DeathClock:
    """IT §Death & Dying: death in Renown Initiative Turns (some wounds count Exploration
    Turns instead). On death's door stops with a healer's kit or HP above 0; consigned to
    the reaper cannot be stopped."""

    kind: str
    unit: str
    turns_left: int
    stopped: bool = False

    @property
    def dead(self) -> bool:
        return not self.stopped and self.turns_left <= 0


def death_clock(kind: str, renown: int, unit: str = INITIATIVE_TURNS) -> DeathClock:
    if kind not in (DEATHS_DOOR, REAPER):
        raise CombatError("bad_clock", "The clock is death's door or the reaper.")
    if unit not in (INITIATIVE_TURNS, EXPLORATION_TURNS):
        raise CombatError("bad_unit", "Count in Initiative or Exploration Turns.")
    if not isinstance(renown, int) or renown < 1:
        raise CombatError("bad_renown", "Renown is at least 1.")
    return DeathClock(kind, unit, renown)


def clock_for(w: Wound, renown: int) -> DeathClock | None:
    """The clock a wound starts: the reaper over death's door when both apply."""
    if w.reaper:
        return death_clock(REAPER, renown)
    if w.deaths_door:
        return death_clock(DEATHS_DOOR, renown)
    if w.deaths_door_exploration:
        return death_clock(DEATHS_DOOR, renown, EXPLORATION_TURNS)
    return None


def tick(clock: DeathClock, unit: str) -> DeathClock:
    """One Turn of `unit` passes; a clock counting the other unit does not move
    (AMB-E75: an Exploration-Turn clock is not hurried by Initiative Turns)."""
    if clock.stopped or clock.dead or unit != clock.unit:
        return clock
    return replace(clock, turns_left=clock.turns_left - 1)


def stabilise(clock: DeathClock) -> DeathClock:
    """A healer's kit, or HP brought above 0, saves an Errant on death's door (no HP
    restored by the kit); the reaper has no remedy."""
    if clock.kind == REAPER:
        raise CombatError("no_remedy", "There is no way to save one consigned to the reaper.")
    if clock.dead:
        raise CombatError("already_dead", "Too late: the Errant is dead.")
    return replace(clock, stopped=True)


def max_hp_with_wounds(max_hp: int, wounds_: Iterable[Wound]) -> int:
    """"HP halved": the maximum halved, rounded down (CR §Rounding), once per such wound."""
    for w in wounds_:
        if w.halves_hp:
            max_hp //= 2
    return max_hp


def can_recover_hp(wounds_: Iterable[Wound]) -> bool:
    return not any(w.no_hp_recovery for w in wounds_)


UNARMED_IMPAIR = 2  # IT §Attacking: "An Errant fighting unarmed has their damage die
# impaired 2 steps"
NO_RUN_MOVE = 10  # IT §Speed & Movement: with no movement dice, "as an action can move 10
# feet or yards" (AMB-E-FIGHT-6: the walk of one who can't run)


@dataclass(frozen=True)
class WoundLimits:
    """What the wounds taken forbid in an Initiative Turn (IT §Death & Dying's tables;
    AMB-E-FIGHT-6). Wounds "without a stated duration are permanent unless seen to by a
    physician": these last the fight."""

    legs: int = 0  # legs mangled or destroyed (trauma 2, 5)
    arms: int = 0  # arms wrecked or destroyed (trauma 3, 6)
    eyes: int = 0  # eyes destroyed (burn 1)
    no_run: bool = False  # "Can't run"
    no_move: bool = False  # "Can't move" (toxic 7)
    no_casting: bool = False  # "unable to cast Sorceries or Miracles" (burn 2)

    @property
    def cannot_walk(self) -> bool:
        """"If both legs go, you can't walk"."""
        return self.legs >= BOTH

    @property
    def cannot_hold(self) -> bool:
        """"If both arms go, you can't hold anything"."""
        return self.arms >= BOTH

    @property
    def blind(self) -> bool:
        """"If both eyes go, you're blind": a Status, its effects the Guide's (IT
        §Statuses)."""
        return self.eyes >= BOTH

    @property
    def walks_only(self) -> bool:
        """Can't run but can still walk: a move is a walk of 10 feet or yards."""
        return self.no_run and not (self.cannot_walk or self.no_move)

    @property
    def attack_impairment(self) -> int:
        """Steps an Attack Roll is impaired: with both arms gone nothing is held, so the
        Errant fights unarmed (2 steps)."""
        return UNARMED_IMPAIR if self.cannot_hold else 0

    def forbids(self, kind: str) -> str | None:
        """Why an action of `kind` (initiative.ACTION_KINDS) is forbidden, or None."""
        if kind == "move" and self.no_move:
            return "can't move (nervous system shutdown)"
        if kind == "move" and self.cannot_walk:
            return "can't walk: both legs are gone"
        if kind in ("sorcery", "miracle") and self.no_casting:
            return "is unable to cast Sorceries or Miracles (mouth melted: can't speak)"
        if kind == "item" and self.cannot_hold:
            return "can't hold anything to use: both arms are gone"
        return None

    @property
    def labels(self) -> tuple[str, ...]:
        """What the table shows beside the combatant."""
        out = []
        if self.no_move:
            out.append("can't move")
        elif self.cannot_walk:
            out.append("can't walk")
        elif self.no_run:
            out.append(f"can't run (moves {NO_RUN_MOVE})")
        if self.no_casting:
            out.append("can't cast")
        if self.cannot_hold:
            out.append("can't hold anything (attacks unarmed)")
        if self.blind:
            out.append("blind")
        return tuple(out)


def wound_limits(wounds_: Iterable[Wound]) -> WoundLimits:
    """The limits of every wound taken together; more wounds never lift a limit."""
    wounds_ = list(wounds_)
    count = Counter(w.limb for w in wounds_ if w.limb)
    return WoundLimits(legs=count["leg"], arms=count["arm"], eyes=count["eye"],
                       no_run=any(w.no_run for w in wounds_),
                       no_move=any(w.no_move for w in wounds_),
                       no_casting=any(w.no_casting for w in wounds_))


# -- wounds that outlast the fight -----------------------------------------------------------

PHYSICIAN, BENEFICENCE = "physician", "beneficence"
HEALS = {PHYSICIAN: "a physician, in a Downtime Turn",
         BENEFICENCE: "a beneficence, 20 of its healing given up"}


def wound_at(column: str, row: int) -> Wound:
    """The wound of `row` (1-9) in the table `column`, or CombatError."""
    if column not in WOUND_TABLES:
        raise CombatError("bad_column", f"Choose one of: {', '.join(WOUND_COLUMNS)}.")
    if not isinstance(row, int) or isinstance(row, bool) or not 1 <= row <= WOUND_ROWS:
        raise CombatError("bad_row", f"A wound's row is 1 to {WOUND_ROWS}.")
    return WOUND_TABLES[column][row - 1]


def lasts(w: Wound) -> bool:
    """"Wounds without a stated duration are permanent unless seen to by a physician":
    every row but those whose every effect has a stated duration (stunned for a Turn,
    Unconscious (Depletion 1), knocked out for D12 Turns: AMB-E-WOUND-1)."""
    return not w.ends_with_fight


def heal_refusal(w: Wound, how: str) -> str | None:
    """Why `how` cannot heal `w`, or None. A physician "can treat one disease or wound per
    Downtime Turn" (GS §Retainers), "though they cannot restore lost body parts" (IT §Death
    & Dying); a beneficence "may reduce the amount healed by 20 in order to cure a wound"
    (CM §Beneficence), no exception stated (AMB-E-WOUND-2)."""
    if how not in HEALS:
        return "Choose a physician or a beneficence."
    if how == PHYSICIAN and w.lost_part:
        return "A physician cannot restore lost body parts (IT §Death & Dying)."
    return None


@dataclass(frozen=True)
class LastingEffects:
    """What the wounds an Errant carries do outside a fight, from the stored rows."""

    limits: WoundLimits
    hp_max: int  # the maximum after "HP halved"
    halved: int  # how many "HP halved" wounds
    can_recover_hp: bool  # False with "Can't recover HP"

    @property
    def labels(self) -> tuple[str, ...]:
        out = list(self.limits.labels)
        if self.halved:
            out.append(f"HP maximum halved ({self.hp_max})")
        if not self.can_recover_hp:
            out.append("can't recover HP")
        return tuple(out)


def lasting_effects(wounds_: Iterable[Wound], max_hp: int) -> LastingEffects:
    wounds_ = list(wounds_)
    return LastingEffects(wound_limits(wounds_), max_hp_with_wounds(max_hp, wounds_),
                          sum(1 for w in wounds_ if w.halves_hp), can_recover_hp(wounds_))


def dead_of_attributes(attributes: Iterable[int]) -> bool:
    """"If any of an Errant's attributes are reduced to 0, they immediately die"."""
    return any(a <= 0 for a in attributes)


# -- hazards ---------------------------------------------------------------------------------


def fall_dice(feet: int) -> tuple[int, int | None] | None:
    """IT fall table: (6, multiplier die or None) for 1D6 [x 1Dn]; below 10' None. Between
    rows, the lower row (AMB-E24); 70' and more, 1D6 x 1D20."""
    if feet < 0:
        raise CombatError("bad_distance", "A fall is never negative.")
    if feet < FALL_MINIMUM:
        return None
    row = None
    for height, die in FALL_TABLE:
        if feet >= height:
            row = die
    return D6, row


def fall_damage(feet: int, d6: int, multiplier: int | None = None) -> int:
    dice = fall_dice(feet)
    if dice is None:
        return 0
    _faces((d6,), D6)
    if dice[1] is None:
        return d6
    if multiplier is None:
        raise CombatError("missing_die", f"Roll the D{dice[1]} too.")
    _faces((multiplier,), dice[1])
    return d6 * multiplier


def fall_distribution(feet: int) -> dict[int, Fraction]:
    """Exact chance of each damage total, over every pair of dice."""
    dice = fall_dice(feet)
    if dice is None:
        return {0: Fraction(1)}
    second = range(1, dice[1] + 1) if dice[1] else (None,)
    outcomes = Counter(fall_damage(feet, a, b) for a, b in product(range(1, D6 + 1), second))
    total = sum(outcomes.values())
    return {k: Fraction(v, total) for k, v in sorted(outcomes.items())}


def share_fall(damage: int, catchers: int) -> tuple[int, ...]:
    """Breaking a fall: the faller and the catchers share the damage equally, rounded down
    (CR §Rounding); the faller takes the remainder (AMB-E76), so none of it is lost."""
    if catchers < 0:
        raise CombatError("bad_catchers", "Catchers are never negative.")
    people = catchers + 1
    share = damage // people
    return (damage - share * catchers, *([share] * catchers))


def burning_dice(turns_on_fire: int, douse_actions: int = 0) -> int:
    """D6s of fire damage in the n-th Initiative Turn on fire: n D6 (IT, over QR's flat 1D6,
    AMB-E10), less 1D6 per action taken to put it out."""
    if turns_on_fire < 1 or douse_actions < 0:
        raise CombatError("bad_turns", "Turns on fire start at 1; actions are never negative.")
    return max(0, turns_on_fire - douse_actions)


def breath_turns(phys: int) -> int:
    """Initiative Turns an Errant holds their breath: phys - 10, at least 0 (AMB-E25)."""
    return max(0, phys - BREATH_BASE)


def suffocation_dice(phys: int, turn_without_air: int) -> int:
    """1D6 in every Turn after the breath runs out, else 0."""
    if turn_without_air < 1:
        raise CombatError("bad_turns", "Turns without air start at 1.")
    return 1 if turn_without_air > breath_turns(phys) else 0


# -- NPCs: the stat line and Morale ----------------------------------------------------------

THREAT_RANGE = (1, 10)  # IT §NPC Attributes: Threat "from 1 to 10"
NPC_ALIGNMENTS = ("Lawful", "Chaotic", "Neutral", "Any")  # "Any": the veteran's stat line


@dataclass(frozen=True)
class Npc:
    """IT §NPC Attributes: Threat, HP, ATT (text), MV (movement dice; "2/4" two kinds),
    Morale, Alignment, Special. An NPC dies at 0 HP (IT §Hit Protection for NPCs)."""

    name: str
    threat: int
    hp: int
    attacks: str
    movement: tuple[int, ...]
    morale: int
    alignment: str
    special: str = ""

    @property
    def save_dv(self) -> int:
        """An Errant's Save against this NPC's effect: DV = Threat (CR §Saving Throws)."""
        return self.threat

    @property
    def check_target(self) -> int:
        """The NPC's own Checks and Saves succeed on at most Threat + 8."""
        return self.threat + 8

    @property
    def p_morale_breaks(self) -> Fraction:
        return p_morale_breaks(self.morale)


def npc_problems(npc: Npc) -> list[tuple[str, str]]:
    """(field, message) for each value outside what the text allows."""
    problems = []
    if not THREAT_RANGE[0] <= npc.threat <= THREAT_RANGE[1]:
        problems.append(("threat", "Threat is 1 to 10."))
    if npc.hp < 1:
        problems.append(("hp", "An NPC has at least 1 HP."))
    if not npc.movement or any(m < 0 for m in npc.movement):
        problems.append(("movement", "MV is one or more numbers of movement dice, 0 or more."))
    if not MORALE_RANGE[0] <= npc.morale <= MORALE_RANGE[1]:
        problems.append(("morale", "Morale is 2 to 12."))
    if npc.alignment not in NPC_ALIGNMENTS:
        problems.append(("alignment", "Alignment is Lawful, Chaotic or Neutral."))
    return problems



def morale_breaks(roll: int, morale: int, penalty: int = 0) -> bool:
    """IT §Morale: 2D6 higher than Morale and the NPC flees, retreats, surrenders or parleys.
    A penalty (the gnoll's Rabid) adds to the roll (AMB-E77)."""
    _morale(morale)
    if not 2 <= roll <= 12:
        raise CombatError("bad_roll", "2D6 is 2 to 12.")
    return roll + penalty > morale


def p_morale_breaks(morale: int, penalty: int = 0) -> Fraction:
    """Exact, over the 36 rolls: ML 7 -> 5/12, ML 9 -> 1/6, ML 12 -> 0."""
    _morale(morale)
    wins = sum(1 for a, b in product(range(1, 7), repeat=2) if a + b + penalty > morale)
    return Fraction(wins, 36)


def _morale(morale: int) -> None:
    if not MORALE_RANGE[0] <= morale <= MORALE_RANGE[1]:
        raise CombatError("bad_morale", "Morale is 2 to 12.")


# -- Warbands --------------------------------------------------------------------------------


def warband_category(combatants: int) -> str:
    """small 1-5, medium 6-10, large 11-20 (the leader not counted); 0 is an individual;
    more than 20 is mass combat."""
    if combatants == 0:
        return "individual"
    for name, low, high in WARBAND_CATEGORIES:
        if low <= combatants <= high:
            return name
    raise CombatError("mass_combat", "More than 20 combatants: use mass combat.")


def warband_hp(combatants: int, armour: str = "none") -> int:
    """2 HP per combatant, +1 each if all wear mail, +2 if all wear plate."""
    warband_category(combatants)
    return combatants * (WARBAND_HP_PER_MEMBER + WARBAND_ARMOUR_HP[armour])


def warband_category_by_hp(hp: int, armour: str = "none") -> str:
    """The category as damage wears it down: a large band "would become a medium Warband once
    it reaches 20 HP or lower" -> the members still standing, rounded up."""
    per = WARBAND_HP_PER_MEMBER + WARBAND_ARMOUR_HP[armour]
    return warband_category(-(-max(hp, 0) // per))


def warband_steps(attacker: str, defender: str) -> int:
    """Steps of the Attack Roll: + enhanced, - impaired, one per category of difference."""
    return WARBAND_ORDER.index(attacker) - WARBAND_ORDER.index(defender)


def damage_warband(band_hp: int, leader_hp: int, damage: int) -> tuple[int, int, int]:
    """"Damage is dealt to the Warband before it is dealt to the leader": returns the
    band's HP, the leader's HP and the damage the leader took."""
    to_band = min(band_hp, damage)
    to_leader = damage - to_band
    return band_hp - to_band, max(0, leader_hp - to_leader), to_leader


# -- mass combat -----------------------------------------------------------------------------


def outnumbering_bonus(ours: int, theirs: int) -> int:
    """IT §Mass Combat: +1 if a side outnumbers the enemy at all, +2 at two to one, +3 at
    three to one, and so on."""
    if ours < 0 or theirs < 0:
        raise CombatError("bad_numbers", "Numbers are never negative.")
    if ours <= theirs:
        return 0
    if theirs == 0:
        raise CombatError("no_enemy", "The other side has nobody to fight.")
    return max(1, ours // theirs)


@dataclass(frozen=True)
class MassSide:
    d6: int
    outnumbering: int
    leader: int  # the highest Renown (Errants) or Threat (NPCs) on the side
    advantages: int = 0  # +1 each: cover, high ground, ambush, relevant magic, ...
    flashpoint: int = 0  # +D6 to the side that won the flashpoint

    @property
    def total(self) -> int:
        return self.d6 + self.outnumbering + self.leader + self.advantages + self.flashpoint


def mass_combat(first: MassSide, second: MassSide) -> tuple[str, int, int]:
    """(winner "first"/"second"/"draw", loser's losses %, winner's losses %): the margin x 10
    for the loser, the loser's roll (its total, AMB-E90) for the winner; a tie is a draw."""
    _faces((first.d6, second.d6), D6)
    a, b = first.total, second.total
    if a == b:
        return "draw", 0, 0
    high, low = max(a, b), min(a, b)
    return ("first" if a > b else "second"), min(100, (high - low) * 10), max(0, min(100, low))
