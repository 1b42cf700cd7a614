"""Miracle and beneficence rolls with exact odds (Errant SRD, CM §Doctrines)."""

from fractions import Fraction
from itertools import product

import pytest

from rules.engine.errant import miracles as M


def test_the_spec_example_one_relic_first_doctrine():
    assert M.miracle_odds(1, 1) == {"boon": Fraction(1, 6), "pact": Fraction(5, 12),
                                    "woe": Fraction(1, 3), "apotheosis": Fraction(1, 12)}


def test_no_relic_no_favour_cannot_reach_a_boon():
    odds = M.miracle_odds(0, 1)
    assert odds["boon"] == 0 and odds["apotheosis"] == Fraction(1, 2)


@pytest.mark.parametrize("doctrine", range(1, 6))
@pytest.mark.parametrize("relics", range(0, 4))
@pytest.mark.parametrize("favour", (0, 3))
def test_odds_match_enumeration(doctrine, relics, favour):
    counts: dict[str, int] = {}
    for faces in product(range(1, 7), repeat=relics + 1):
        key = M.miracle_result(sum(faces) + favour, doctrine)
        counts[key] = counts.get(key, 0) + 1
    odds = M.miracle_odds(relics, doctrine, favour)
    assert sum(odds.values()) == 1
    for key, n in counts.items():
        assert odds[key] == Fraction(n, 6 ** (relics + 1))


def test_bands():
    assert [M.miracle_result(t, 3) for t in (16, 15, 12, 11, 5, 4)] == [
        "boon", "pact", "pact", "woe", "woe", "apotheosis"]
    assert [M.beneficence_result(t) for t in (10, 9, 6, 3)] == ["boon", "mark", "woe",
                                                                "apotheosis"]
    assert sum(M.beneficence_odds(2, 1).values()) == 1


def test_bad_inputs():
    with pytest.raises(ValueError):
        M.miracle_odds(1, 6)
    with pytest.raises(ValueError):
        M.miracle_odds(-1, 1)
    with pytest.raises(ValueError):
        M.miracle_odds(1, 1, favour=-1)
