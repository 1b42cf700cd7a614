"""Rolling dice notation with the d20 library (PyPI `d20`, by Avrae), from a chosen
random source.

d20 parses and evaluates notation ("1d8+3", "2d6", "4d6kh3"), but its dice draw from
the `random` module's shared generator. `DiceRoller` plugs a random source in: its dice
draw from the `random.Random` it is given. Production uses `random.SystemRandom()` (the
operating system's source); a test passes a seeded `random.Random(7)` and gets the same
dice every time. `rules.engine.dice.Dice` still *describes* the sheet's dice; this module
*rolls* them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import d20

# An expression typed at the table stays short and rolls a sane number of dice.
MAX_EXPRESSION_LENGTH = 60
MAX_DICE = 100
# No Roll at the table comes near a billion; a total beyond a 32-bit integer (what the
# roll log stores) is refused, like too many dice.
MAX_TOTAL = 2**31 - 1


class RollError(ValueError):
    """Notation that cannot be rolled, with a message for the player."""


class _Context(d20.RollContext):
    """d20's per-roll context, carrying the random source to every die."""

    def __init__(self, rng: random.Random, max_rolls: int = MAX_DICE):
        super().__init__(max_rolls=max_rolls)
        self.rng = rng


class _Die(d20.Die):
    def _add_roll(self) -> None:
        if self.size != "%" and self.size < 1:
            raise d20.RollValueError("Cannot roll a 0-sided die.")
        context = self._context
        context.count_roll()
        if self.size == "%":
            value = context.rng.randrange(0, 100, 10)
        else:
            value = context.rng.randrange(self.size) + 1
        self.values.append(d20.Literal(value))


class _Dice(d20.Dice):
    @classmethod
    def new(cls, num, size, context=None):
        return cls(num, size, [_Die.new(size, context=context) for _ in range(num)],
                   context=context)

    def roll_another(self) -> None:  # exploding dice
        self.values.append(_Die.new(self.size, context=self._context))


class DiceRoller(d20.Roller):
    """A d20 Roller whose dice come from `rng` (SystemRandom unless given)."""

    def __init__(self, rng: random.Random | None = None):
        super().__init__(context=_Context(rng if rng is not None else random.SystemRandom()))

    def _eval_dice(self, node):
        return _Dice.new(node.num, node.size, context=self.context)


class _Stringifier(d20.SimpleStringifier):
    """d20's plain text ("1d8 (5) + 3 = 8"), knowing our dice classes."""

    def __init__(self):
        super().__init__()
        self._nodes[_Dice] = self._str_dice
        self._nodes[_Die] = self._str_die


@dataclass(frozen=True)
class Rolled:
    expression: str
    total: int  # d20's total, before any floor the rules put on it
    dice: tuple[int, ...]  # every die kept, in order
    text: str  # "1d8 (5) + 3 = 8"


def _kept_dice(node) -> list[int]:
    if isinstance(node, d20.Die):
        return [int(node.number)] if node.kept else []
    found: list[int] = []
    if isinstance(node, d20.Dice):
        for die in node.keptset:
            found.extend(_kept_dice(die))
        return found
    for child in node.children:
        found.extend(_kept_dice(child))
    return found


def roll(expression: str, rng: random.Random | None = None) -> Rolled:
    """Roll notation; RollError (a ValueError) with a readable message when it cannot."""
    text = (expression or "").strip()
    if not text:
        raise RollError("Type dice to roll, like 1d8+3.")
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise RollError(f"Dice notation is at most {MAX_EXPRESSION_LENGTH} characters.")
    roller = DiceRoller(rng)
    try:
        result = roller.roll(text, stringifier=_Stringifier())
        total, shown = result.total, result.result
    except d20.TooManyRolls as error:
        raise RollError(f"{text!r} rolls more than {MAX_DICE} dice.") from error
    except d20.RollSyntaxError as error:
        raise RollError(f"{text!r} is not dice notation like 1d8+3 or 2d6.") from error
    except (d20.RollError, ZeroDivisionError, ValueError) as error:
        reason = str(error).rstrip(".").lower()
        raise RollError(f"{text!r} cannot be rolled: {reason}.") from error
    if not -MAX_TOTAL <= total <= MAX_TOTAL:
        raise RollError(f"{text!r} totals more than {MAX_TOTAL:,}: roll smaller numbers.")
    if total != int(total):
        raise RollError(f"{text!r} gives a fraction; dice totals are whole numbers.")
    return Rolled(text, int(total), tuple(_kept_dice(result.expr)), shown)


def validate(expression: str) -> str:
    """The notation stripped, or RollError: parses without rolling anything."""
    text = (expression or "").strip()
    if not text:
        raise RollError("Type dice to roll, like 1d8+3.")
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise RollError(f"Dice notation is at most {MAX_EXPRESSION_LENGTH} characters.")
    try:
        d20.Roller().parse(text)
    except d20.RollSyntaxError as error:
        raise RollError(f"{text!r} is not dice notation like 1d8+3 or 2d6.") from error
    return text
