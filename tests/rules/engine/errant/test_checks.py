"""Checks: d20 above the DV and at most the Attribute, exact odds against an enumeration of
the d20 for every Attribute 1-24 and DV -1..20 (Errant SRD, CR §Checks; next-games.md E12)."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine.errant import checks as C


@pytest.mark.parametrize(("attribute", "dv", "p"), [
    (10, 0, Fraction(1, 2)), (10, 4, Fraction(3, 10)), (10, 8, Fraction(1, 10)),
    (8, 8, Fraction(0)), (12, -1, Fraction(1)), (24, 2, Fraction(9, 10))])
def test_the_spec_examples(attribute, dv, p):
    assert C.p_success(attribute, dv) == p


@pytest.mark.parametrize("attribute", range(1, 25))
@pytest.mark.parametrize("dv", range(-1, 21))
def test_odds_match_the_enumerated_d20(attribute, dv):
    # CR §Checks "lower or equal to a relevant Attribute and above a difficulty value";
    # "If a DV would be reduced below 0, the Check automatically succeeds".
    wins = sum(1 for roll in range(1, 21) if dv < 0 or (dv < roll <= attribute))
    assert C.p_success(attribute, dv) == Fraction(wins, 20)
    assert all(C.succeeds(roll, attribute, dv) == (dv < 0 or dv < roll <= attribute)
               for roll in range(1, 21))


def test_dv_zero_is_rolled_not_automatic():
    # AMB-E2: only below 0 is automatic; a roll of 1 beats DV 0.
    assert not C.automatic(0) and C.automatic(-1)
    assert C.succeeds(1, 10, 0)
    assert not C.succeeds(11, 10, 0)


def test_rolling_exactly_the_attribute_succeeds():
    # AMB-E1: "lower or equal" (CR, Glossary) over QR's "<".
    assert C.succeeds(10, 10, 4)
    assert not C.succeeds(4, 10, 4)  # not above the DV


def test_a_face_off_the_d20_is_refused():
    with pytest.raises(ValueError):
        C.succeeds(21, 10, 0)


def test_dv_modifiers_where_the_rules_say():
    # Encumbrance on physical and stabilise Checks only (PR §Encumbrance).
    assert C.check_dv(2, encumbrance=3).value == 2
    assert C.check_dv(2, encumbrance=3, physical=True).value == 5
    assert C.check_dv(2, encumbrance=3, stabilise=True).value == 5
    # Expertise -2, not on Saving Throws; Jettons -1 each, Saving Throws included.
    assert C.check_dv(4, expertise=True).value == 2
    assert C.check_dv(4, expertise=True, saving_throw=True).value == 4
    assert C.check_dv(4, jettons=3, saving_throw=True).value == 1
    dv = C.check_dv(4, encumbrance=2, physical=True, expertise=True, jettons=1)
    assert dv.value == 3
    assert dv.explanation == "DV 3 = base 4 + 2 Encumbrance - 2 expertise - 1 Jettons"
    # below 0: automatic
    assert C.p_success(5, C.check_dv(1, expertise=True).value) == 1
    with pytest.raises(ValueError):
        C.check_dv(4, jettons=-1)


def test_saving_throws_and_npc_checks():
    assert C.saving_throw_dv(3) == 3  # CR §Saving Throws: the causer's Renown or Threat
    assert C.npc_attribute(2) == 10  # IT: roll at most Threat + 8
    assert C.p_success(C.npc_attribute(2), C.saving_throw_dv(4)) == Fraction(3, 10)


@settings(max_examples=60)
@given(st.integers(1, 24), st.integers(-1, 20), st.integers(1, 24), st.integers(-1, 20))
def test_opposed_odds_sum_to_one_and_match_enumeration(a1, d1, a2, d2):
    odds = C.opposed_odds((a1, d1), (a2, d2))
    assert odds.first_wins + odds.second_wins + odds.tie + odds.both_fail == 1
    assert odds.both_fail == (1 - C.p_success(a1, d1)) * (1 - C.p_success(a2, d2))


def test_opposed_check_higher_success_wins():
    # Both need 1-10 over DV 0: of the 100 pairs both succeed, 10 tie, 45 each way; one
    # succeeding alone wins: 10 x 10 each; both fail 100.
    odds = C.opposed_odds((10, 0), (10, 0))
    assert odds.tie == Fraction(10, 400)
    assert odds.first_wins == odds.second_wins == Fraction(145, 400)
    assert odds.both_fail == Fraction(100, 400)


def test_wager_and_fame():
    assert C.p_wager(5) == Fraction(1, 2)  # ER: "5 Jettons ... 5-in-10"
    assert C.p_wager(12) == 1
    assert C.p_fame(1) == Fraction(1, 10) and C.p_fame(9) == Fraction(9, 10)
