"""A Check rolled (rules/engine/errant/checks.py): Position and Impact (CR §Position &
Impact, ER §The Deviant mastery) and the opposed result (CR §Opposed Checks), the latter
checked against opposed_odds over every pair of faces."""

from fractions import Fraction

import pytest

from rules.engine.errant import checks


def test_the_defaults_are_risky_and_fair():
    stakes = checks.stakes()
    assert (stakes.position, stakes.impact) == ("risky", "fair")
    assert stakes.meaning(True) == "Fair Impact: you got what you wanted."
    assert stakes.meaning(False) == "Risky Position: about what you expected."


@pytest.mark.parametrize("position", ["shaky", "risky", "dire"])
@pytest.mark.parametrize("impact", ["strong", "fair", "weak"])
def test_mastery_sets_shaky_and_strong_whatever_was_set(position, impact):
    assert checks.stakes(position, impact, mastery=True) == checks.Stakes("shaky", "strong")
    assert checks.stakes(position, impact) == checks.Stakes(position, impact)


def test_an_unknown_position_or_impact_is_refused():
    with pytest.raises(ValueError):
        checks.stakes("safe", "fair")
    with pytest.raises(ValueError):
        checks.stakes("risky", "huge")


@pytest.mark.parametrize(("first", "second", "result"), [
    ((7, True), (5, True), checks.FIRST),  # both succeed: the higher face wins
    ((5, True), (7, True), checks.SECOND),
    ((6, True), (6, True), checks.TIE),
    ((2, True), (19, False), checks.FIRST),  # a lone success wins, whatever the faces
    ((19, False), (2, True), checks.SECOND),
    ((19, False), (20, False), checks.BOTH_FAIL),
])
def test_the_opposed_result(first, second, result):
    assert checks.opposed_result(first, second) == result


@pytest.mark.parametrize(("a", "b"), [((10, 0), (11, 2)), ((14, -1), (9, 4)),
                                      ((3, 5), (20, 0)), ((24, 2), (24, 2))])
def test_opposed_results_counted_over_the_faces_are_the_odds(a, b):
    counts = {checks.FIRST: 0, checks.SECOND: 0, checks.TIE: 0, checks.BOTH_FAIL: 0}
    for x in range(1, 21):
        for y in range(1, 21):
            counts[checks.opposed_result((x, checks.succeeds(x, *a)),
                                         (y, checks.succeeds(y, *b)))] += 1
    odds = checks.opposed_odds(a, b)
    assert (odds.first_wins, odds.second_wins, odds.tie, odds.both_fail) == tuple(
        Fraction(counts[k], 400) for k in (checks.FIRST, checks.SECOND, checks.TIE,
                                           checks.BOTH_FAIL))


def test_roll_d20_asks_for_a_face_of_the_d20():
    class Source:
        def randint(self, a, b):
            assert (a, b) == (1, 20)
            return 13
    assert checks.roll_d20(Source()) == 13
