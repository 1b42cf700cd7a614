"""Dice notation as the sheet writes it: "1d6+4", "2d8", "1d3-1"."""

import pytest

from rules.engine.dice import Dice


@pytest.mark.parametrize(
    ("text", "dice"),
    [
        ("1d6+4", Dice(1, 6, 4)),
        ("2d8", Dice(2, 8)),
        ("d12", Dice(1, 12)),
        ("1d3-1", Dice(1, 3, -1)),
        (" 1D4 + 1 ", Dice(1, 4, 1)),
    ],
)
def test_parse(text, dice):
    assert Dice.parse(text) == dice


@pytest.mark.parametrize("dice", [Dice(1, 6, 4), Dice(2, 8), Dice(1, 3, -1), Dice(5, 6)])
def test_round_trip(dice):
    assert Dice.parse(str(dice)) == dice


@pytest.mark.parametrize("text", ["", "6", "1d", "0d6", "1d1", "1d6+", "two d6"])
def test_parse_rejects_non_dice(text):
    with pytest.raises(ValueError):
        Dice.parse(text)


def test_maximum_and_plus():
    # "a 1d8+3 roll would give a result of 4-11" (Basics > Modifiers)
    assert Dice(1, 8, 3).maximum == 11
    assert Dice(1, 8).plus(3) == Dice(1, 8, 3)
    assert str(Dice(1, 4).plus(4)) == "1d4+4"
