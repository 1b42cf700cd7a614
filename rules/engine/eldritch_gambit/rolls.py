"""Rolls from the sheet: weapon damage, Rally, falls, fire, poison Buildup; Rerolls with
Willpower; Roll-offs.

Eldritch Gambit SRD, Basics > Rolls (Modifiers, Roll-offs, Rerolls); Scenes > Actions >
Attack, Melee (Critical bonus damage); Scenes > Scenery (Falling, Fire, Poison);
Characters > Defenses (Rally; Willpower: "WP can only drop to half").
docs/RULES.md, "Checks and Rolls", records the readings.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..dice import Dice
from ..rolling import roll
from .templates import SIZES, Size

# Scenes > Scenery > Falling: "Falls inflict 1d6 damage per 5-meter zone fallen, up to
# 10d6 ... Multiply the falling damage by their HP multiple in the Size chart."
FALL_DIE = 6
FALL_MAX_DICE = 10
FALL_ZONE_METERS = 5
MAX_FALL_ZONES = 100  # input bound only; the damage stops growing at 10 zones

# Scenes > Scenery > Fire: "A small fire like a torch does 1d6 damage; A medium one like a
# campfire does 2d6; A large one the size of a bonfire does 3d6." Burning: "it takes 1d6
# damage again at the top of each Round."
FIRES = {
    "small": ("Small fire (a torch)", Dice(1, 6)),
    "medium": ("Medium fire (a campfire)", Dice(2, 6)),
    "large": ("Large fire (a bonfire)", Dice(3, 6)),
    "burning": ("Burning, at the top of the Round", Dice(1, 6)),
}

# Scenes > Scenery > Poison: "Buildup is usually 1d6."
DEFAULT_BUILDUP = Dice(1, 6)

# Basics > Rolls > Rerolls: "Rerolling costs a temporary Willpower ... point. One may only
# spend a single WP on a given Roll and cannot Reroll Checks."
REROLL_WP_COST = 1


def floor_at_zero(total: int) -> int:
    """Basics > Rolls > Modifiers: a Modifier "can reduce the result to zero but not into
    the negatives"."""
    return max(total, 0)


@dataclass(frozen=True)
class RollSpec:
    """A Roll of the sheet: dice, a flat modifier, a bonus (a Critical's), a multiplier
    (a larger Size's falls). Total = (dice + modifier + bonus) x multiplier, at least 0."""

    label: str
    count: int
    sides: int
    modifier: int = 0
    bonus: int = 0
    multiplier: int = 1
    rerollable: bool = True
    note: str = ""
    halved: bool = False  # after the multiplier, rounded up (the Jump Trait's falls)

    @property
    def expression(self) -> str:
        text = f"{self.count}d{self.sides}" if self.count else "0"
        if self.modifier:
            text += f"{self.modifier:+d}"
        if self.bonus:
            text += f"+{self.bonus}"
        if self.multiplier != 1:
            text = f"({text})x{self.multiplier}"
        if self.halved:
            text += " halved"
        return text

    def total_for(self, dice_total: int) -> int:
        total = floor_at_zero((dice_total + self.modifier + self.bonus) * self.multiplier)
        # Basics > Rolls > Modifiers: "If halved, always round up."
        return -(-total // 2) if self.halved else total


@dataclass(frozen=True)
class RollResult:
    spec: RollSpec
    dice: tuple[int, ...]
    dice_total: int
    total: int


def roll_spec(spec: RollSpec, rng: random.Random | None = None) -> RollResult:
    dice: tuple[int, ...] = ()
    if spec.count:
        dice = roll(f"{spec.count}d{spec.sides}", rng).dice
    dice_total = sum(dice)
    return RollResult(spec, dice, dice_total, spec.total_for(dice_total))


def weapon_damage(name: str, damage: str, critical_bonus: int, *, critical: bool = False,
                  ) -> RollSpec:
    """A weapon line's damage ("1d8+3": Size-adjusted dice + STR + quality). A Critical
    adds the max of the largest die (Scenes > Actions > Attack, Melee: "the extra damage
    is equal to the highest possible result on their largest damage die")."""
    dice = Dice.parse(damage)
    bonus = critical_bonus if critical else 0
    label = f"{name} damage" + (" (Critical)" if critical else "")
    note = f"Critical: + {critical_bonus}, the max of the largest die" if critical else ""
    return RollSpec(label, dice.count, dice.sides, dice.modifier, bonus, note=note)


def clash_damage(name: str, damage: str, *, block: int = 0, block_name: str = "") -> RollSpec:
    """A weapon line's damage in a clash (Scenes > Actions > Attack, Melee: "Failure:
    clash, both sides Roll damage + mods"), with the Block bonus of the wielder's ready
    shield (Resources > Shields: "add the Block bonus to the wielder's Clash damage
    Roll"; Legend: "The Clash damage Roll itself can rely on a different weapon")."""
    dice = Dice.parse(damage)
    note = f"Clash: + {block} Block ({block_name})" if block else "Clash: no shield ready, no Block"
    return RollSpec(f"{name} clash damage", dice.count, dice.sides, dice.modifier,
                    max(block, 0), note=note)


def rally(rally_dice: str) -> RollSpec:
    """The sheet's Rally: armor die (Size-adjusted) + END (Characters > Defenses)."""
    dice = Dice.parse(rally_dice)
    return RollSpec("HP recovered", dice.count, dice.sides, dice.modifier)


def rally_with_cha(rally_dice: str, end: int, cha: int, ally: str) -> RollSpec:
    """The sheet's Rally with an ally's CHA in place of the rallier's END (Scenes >
    Actions > Rally: "instead of their own END, the rallier may use the CHA of the ally
    that passed Initiative to them"): the same die (armor, Size), END taken off, the
    ally's CHA added."""
    dice = Dice.parse(rally_dice)
    return RollSpec(f"HP recovered with {ally}'s CHA", dice.count, dice.sides,
                    dice.modifier - end + cha,
                    note=f"{ally}'s CHA {cha:+d} instead of END {end:+d}: {ally} passed "
                         "Initiative")


def fall(zones: int, size: Size = Size.MEDIUM, *, plummet: bool = False,
         jump: bool = False) -> RollSpec:
    """1d6 per 5 m Zone fallen, at most 10d6; x the Size's HP multiple. A Plummet onto a
    foe below subtracts a die from the faller's own damage. The Jump Trait "also halves
    fall damage" (Bestiary > LIST OF TRAITS), rounded up."""
    if zones < 1:
        raise ValueError("A fall is at least one Zone.")
    count = min(zones, FALL_MAX_DICE)
    if plummet:
        count -= 1
    multiplier = SIZES[size].hp_multiplier
    parts = [f"{zones} Zone{'s' if zones != 1 else ''} ({zones * FALL_ZONE_METERS} m)"]
    if zones > FALL_MAX_DICE:
        parts.append(f"at most {FALL_MAX_DICE}d6")
    if plummet:
        parts.append("Plummet: one die less")
    if multiplier > 1:
        parts.append(f"x{multiplier} for {size.value} Size")
    if jump:
        parts.append("Jump: halved, rounded up")
    return RollSpec("Fall damage", count, FALL_DIE, multiplier=multiplier, rerollable=False,
                    note="; ".join(parts), halved=jump)


def fire(kind: str) -> RollSpec:
    label, dice = FIRES[kind]
    return RollSpec(label, dice.count, dice.sides, rerollable=False)


def buildup(dice: Dice = DEFAULT_BUILDUP) -> RollSpec:
    return RollSpec("Poison Buildup", dice.count, dice.sides, dice.modifier, rerollable=False)


# -- Rerolls ------------------------------------------------------------------------------


def reroll_keep(first: int, second: int) -> int:
    """"rolls it again, choosing the best result. If the result is the same, add the two!"
    Compared and added are the dice (the result picked up); modifiers count once."""
    if first == second:
        return first + second
    return max(first, second)


def reroll(result: RollResult, rng: random.Random | None = None) -> RollResult:
    """Roll the same dice again and keep the better (both on a tie)."""
    again = roll_spec(result.spec, rng)
    kept = reroll_keep(result.dice_total, again.dice_total)
    return RollResult(result.spec, again.dice, kept, result.spec.total_for(kept))


def can_spend_wp(wp_current: int, wp_floor: int, cost: int = REROLL_WP_COST) -> bool:
    """Characters > Defenses > Willpower: "WP can only drop to half": spending is refused
    when it would take current WP below the floor (half of 10 + WIS, rounded up)."""
    return wp_current - cost >= wp_floor


# -- Roll-offs ----------------------------------------------------------------------------

ATTACKER = "attacker"
DEFENDER = "defender"


@dataclass(frozen=True)
class RollOff:
    attacker: int
    defender: int

    @property
    def winner(self) -> str:
        """Basics > Rolls > Roll-offs: "The highest result is the winner ... ties go to
        the attacker"."""
        return ATTACKER if self.attacker >= self.defender else DEFENDER

    @property
    def excess(self) -> int:
        """Clash: "winner inflicts excess on the loser" (3 against 1 does 2)."""
        return abs(self.attacker - self.defender)
