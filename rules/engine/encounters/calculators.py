"""Encounter rules (seed 004): the small calculators, each showing its arithmetic.

Pushing Power (H19), charge momentum (H12), range challenge (H21, AMB-H8) and encumbered
pace (H10, AMB-H9), plus the count of movement actions a run or a ride takes (H8), jump
distance (H11) and the yards a chase gains (H13). Each
returns a `Worked`: the number and a sentence of our own with the sum that gave it.
Yards may be fractional (a slowed pace), so they are Fractions throughout.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from .combatants import PACE_IGNORED, PACE_LINEAR, EncounterError, whole

# H8/H10: an unhampered combatant covers 10 yards per movement action ...
BASE_PACE = 10
# ... while it carries less than a tenth of its maximum lift (H10).
UNHAMPERED_BELOW = 10  # percent
# H8: a mounted movement action covers 20 to 40 yards, by the mount's quality.
RIDE_PACE_LOW, RIDE_PACE_HIGH = 20, 40
# H12: one point of damage, dealt and taken, per this many yards of charge.
MOMENTUM_YARDS = 10
# H11: a standing long jump covers the maximum lift / 50 yards; a running start doubles it.
JUMP_DIVISOR = 50
RUNNING_JUMP = 2
# H19: each Stamina hit spent gives this much Strength and Willpower for one round.
PUSH_PER_HIT = 1
MAX_YARDS = 100_000

# H21: range increments in yards, by weapon kind and by sense (the chapter's numbers,
# named in our words). Sorcery increments are entered by the Guide per sorcery type:
# shipping the type names is a product decision still open (next-games.md §3.1).
WEAPON_INCREMENTS = {"thrown": 2, "missile": 10}
SENSE_INCREMENTS = {"smell": 1, "hearing": 10, "vision": 100, "divination": 1000}


@dataclass(frozen=True)
class Worked:
    value: int | Fraction
    text: str


def yards_text(yards: Fraction | int) -> str:
    yards = Fraction(yards)
    if yards.denominator == 1:
        return f"{yards.numerator}"
    whole_part, rest = divmod(yards.numerator, yards.denominator)
    rest_text = f"{rest}/{yards.denominator}"
    return f"{whole_part} {rest_text}" if whole_part else rest_text


def _yards(value, field: str) -> Fraction:
    if isinstance(value, Fraction):
        yards = value
    else:
        yards = Fraction(whole(value, field, low=0, high=MAX_YARDS))
    if not 0 <= yards <= MAX_YARDS:
        raise EncounterError(f"Yards must be between 0 and {MAX_YARDS}.", field)
    return yards


def encumbered_pace(load: int, formula: str = PACE_LINEAR) -> Worked:
    """Yards per movement action on foot for a load (percent of maximum lift).

    AMB-H9, our reading: full pace under a tenth of the maximum lift; from there the
    pace falls in a straight line with the load, 10 x (1 - load), which meets the
    chapter's one worked point (half the lift, half the pace). `ignored` turns it off."""
    load = whole(load, "load", low=0, high=100)
    if formula == PACE_IGNORED:
        return Worked(Fraction(BASE_PACE), f"{BASE_PACE} yd per movement action "
                      "(this campaign ignores encumbrance)")
    if formula != PACE_LINEAR:
        raise EncounterError(f"Unknown pace formula {formula!r}.", "pace_formula")
    if load < UNHAMPERED_BELOW:
        return Worked(Fraction(BASE_PACE), f"load {load}% is under {UNHAMPERED_BELOW}%: "
                      f"full pace, {BASE_PACE} yd per movement action")
    pace = BASE_PACE * (1 - Fraction(load, 100))
    return Worked(pace, f"{BASE_PACE} x (1 - {load}/100) = {yards_text(pace)} yd per "
                  "movement action")


def movement_actions(yards, pace) -> Worked:
    """H8: a run takes one movement action per `pace` yards or part of it."""
    yards = _yards(yards, "yards")
    pace = Fraction(pace)
    if yards <= 0:
        raise EncounterError("Say how many yards.", "yards")
    if pace <= 0:
        raise EncounterError("Carrying the whole maximum lift, it cannot move.", "yards")
    count = math.ceil(yards / pace)
    return Worked(count, f"{yards_text(yards)} yd at {yards_text(pace)} yd per action: "
                  f"{count} movement action{'s' if count != 1 else ''}")


def ride_actions(yards, mount_pace) -> Worked:
    """H8: a mounted movement action covers the mount's 20 to 40 yards."""
    mount_pace = whole(mount_pace, "mount_pace", low=RIDE_PACE_LOW, high=RIDE_PACE_HIGH)
    return movement_actions(yards, mount_pace)


def jump_distance(max_lift, load, *, running: bool, formula: str = PACE_LINEAR) -> Worked:
    """H11: a standing long jump of the maximum lift / 50 yards, twice that with a run-up,
    shortened by encumbrance in the same proportion as the pace (AMB-H9's formula)."""
    max_lift = whole(max_lift, "max_lift", low=0, high=MAX_YARDS)
    pace = encumbered_pace(load, formula).value
    standing = Fraction(max_lift, JUMP_DIVISOR)
    distance = standing * (RUNNING_JUMP if running else 1) * pace / BASE_PACE
    text = f"{max_lift} / {JUMP_DIVISOR} = {yards_text(standing)} yd"
    if running:
        text += f", x {RUNNING_JUMP} with a run-up"
    if pace != BASE_PACE:
        text += f", x {yards_text(pace)}/{BASE_PACE} for the load"
    return Worked(distance, f"{text}: {yards_text(distance)} yd")


def chase_gain(leader: str, leader_roll, other: str, other_roll) -> Worked:
    """H13: in a race or a chase each rolls Quickness every round; the higher roll gains
    a yard on the other per point of difference (0 on a tie)."""
    leader_roll, other_roll = whole(leader_roll, "roll"), whole(other_roll, "roll")
    gain = abs(leader_roll - other_roll)
    if leader_roll == other_roll:
        return Worked(0, f"{leader} {leader_roll}, {other} {other_roll}: no yard gained")
    ahead = leader if leader_roll > other_roll else other
    return Worked(gain, f"{leader} {leader_roll}, {other} {other_roll}: {ahead} gains "
                  f"{gain} yd")


def range_challenge(distance, increment, defence: int | None = None) -> Worked:
    """H21 with AMB-H8: no challenge up to one increment (its boundary included), then
    one more per further increment or part of it; added to the defence of a target that
    evades (a fixed object defends with 0)."""
    distance = _yards(distance, "distance")
    increment = whole(increment, "increment", low=1, high=MAX_YARDS)
    steps = math.ceil(distance / increment)
    challenge = max(0, steps - 1)
    text = (f"{yards_text(distance)} yd at {increment} yd per increment: "
            f"{steps} increment{'s' if steps != 1 else ''}, challenge "
            f"{'0 (within the first)' if challenge == 0 else f'{steps} - 1 = {challenge}'}")
    if defence is None:
        return Worked(challenge, text)
    defence = whole(defence, "defence")
    total = defence + challenge
    return Worked(total, f"{text}; defence {defence} + {challenge} = {total}")


def charge_momentum(yards, *, enabled: bool) -> Worked:
    """H12 (optional): one extra damage per full ten yards moved this round, dealt by the
    charger and taken by it from any melee hit that round (docs/RULES.md, ENC-8: full tens)."""
    if not enabled:
        raise EncounterError("Charge momentum is not used in this campaign.", "yards")
    yards = _yards(yards, "yards")
    bonus = int(yards // MOMENTUM_YARDS)
    return Worked(bonus, f"{yards_text(yards)} yd moved: {bonus} full ten"
                  f"{'s' if bonus != 1 else ''} of yards, +{bonus} damage dealt and "
                  f"+{bonus} to melee damage taken this round")


@dataclass(frozen=True)
class Pushed:
    strength: int
    willpower: int
    stamina: int
    collapsed: bool
    text: str


def pushing_power(*, strength: int, willpower: int, stamina: int, hits: int) -> Pushed:
    """H19: each Stamina hit spent this round gives +1 Strength and +1 Willpower for the
    round. Stamina cannot be spent below 0; at 0 the combatant collapses."""
    stamina = whole(stamina, "stamina", low=0)
    hits = whole(hits, "hits", low=1)
    if hits > stamina:
        raise EncounterError(f"Only {stamina} Stamina left to spend.", "hits")
    strength, willpower = whole(strength, "strength"), whole(willpower, "willpower")
    boost = hits * PUSH_PER_HIT
    left = stamina - hits
    text = (f"{hits} Stamina spent: Strength {strength} + {boost} = {strength + boost}, "
            f"Willpower {willpower} + {boost} = {willpower + boost} this round; "
            f"Stamina {stamina} - {hits} = {left}")
    if left == 0:
        text += ": exhausted, it collapses"
    return Pushed(strength + boost, willpower + boost, left, left == 0, text)
