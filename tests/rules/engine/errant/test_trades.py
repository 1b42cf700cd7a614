"""DT §Trades: levels, costs, the bonus cap and the exact odds."""

from fractions import Fraction

import pytest

from rules.engine.errant import trades


def test_the_levels_as_the_text_gives_them():
    assert [(lv.key, lv.cost, lv.successes) for lv in trades.LEVELS] == [
        ("apprentice", 2_000, 1), ("journeyman", 4_000, 2), ("master", 8_000, 3)]
    assert trades.next_level(None).key == "apprentice"
    assert trades.next_level("apprentice").key == "journeyman"
    assert trades.next_level("master") is None


def test_extra_expenditure_and_the_cap():
    assert trades.expenditure_bonus(2_000, 499) == 0
    assert trades.expenditure_bonus(2_000, 500) == 1
    assert trades.bonus(2_000, 1_000, 2) == 3  # +2 +2, capped at +3
    with pytest.raises(ValueError):
        trades.bonus(2_000, -1, 0)


def test_the_exact_odds():
    plain = trades.odds(0)
    assert plain[trades.SUCCESS] == Fraction(6, 36)  # 10, 11, 12: 3 + 2 + 1
    assert plain[trades.NEXT_AUTOMATIC] == Fraction(15, 36)  # 7, 8, 9: 6 + 5 + 4
    assert sum(plain.values()) == 1
    assert trades.odds(3)[trades.SUCCESS] == Fraction(21, 36)  # 7+ on 2D6
    assert [trades.outcome(t) for t in (6, 7, 9, 10)] == [
        "no_progress", "next_automatic", "next_automatic", "success"]
