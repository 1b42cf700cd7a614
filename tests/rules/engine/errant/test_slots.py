"""Item Slots, Encumbrance in quarter slots, SPD and movement dice (Errant SRD, PR §Item
Slots ... §Encumbrance; IT §Speed & Movement)."""

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine.errant import slots as S


@pytest.mark.parametrize(("filled", "enc"), [
    (F(0), 0), (F(11, 4), 0), (F(3), 1), (F(23, 4), 1), (F(6), 2), (F(9), 3), (F(47, 4), 3),
    (F(12), 4), (F(51, 4), 4), (F(13), 5), (F(27, 2), 5), (F(14), 6), (F(16), 8)])
def test_the_text_example_phys_12(filled, enc):
    # PR §Encumbrance: "less than 3 ... 0; once 3 ... 1, 2 when 6, 3 when 9, 4 when all";
    # AMB-E3: 13 1/2 filled -> 5.
    assert S.encumbrance(filled, 12) == enc


def test_the_text_example_phys_13():
    # "1 Encumbrance when 3 and 1/4 ... 2 ... 6 and 1/2 ... 3 ... 9 and 3/4 ... 4 ... 13".
    assert S.encumbrance_thresholds(13) == (F(13, 4), F(13, 2), F(39, 4), F(13))
    assert [S.encumbrance(f, 13) for f in (F(3), F(13, 4), F(25, 4), F(13, 2), F(19, 2),
                                           F(39, 4), F(51, 4), F(13))] == [0, 1, 1, 2, 2, 3, 3, 4]


def test_incapable_at_8():
    assert not S.incapable(7) and S.incapable(8)


@settings(max_examples=80)
@given(st.integers(4, 20), st.integers(0, 30 * 4), st.integers(0, 30 * 4))
def test_encumbrance_is_monotone_in_filled_slots(phys, a, b):
    low, high = sorted((F(a, 4), F(b, 4)))
    assert S.encumbrance(low, phys) <= S.encumbrance(high, phys)


@pytest.mark.parametrize("phys", range(4, 21))
def test_encumbrance_exact_at_every_quarter(phys):
    # Every quarter slot from empty to 2 x phys + 2, against the rule read directly: the
    # number of quarter-thresholds of phys reached, then +1 per whole slot beyond full.
    thresholds = [F(phys * k, 4) for k in (1, 2, 3, 4)]
    for q in range(0, (2 * phys + 2) * 4 + 1):
        filled = F(q, 4)
        if filled <= phys:
            expected = sum(1 for t in thresholds if filled >= t)
        else:
            expected = 4 + sum(1 for extra in range(1, 100) if filled >= phys + extra)
        assert S.encumbrance(filled, phys) == expected, (phys, filled)
        # one quarter less never has more
        if q:
            assert S.encumbrance(F(q - 1, 4), phys) <= S.encumbrance(filled, phys)


def test_bad_inputs_are_refused():
    with pytest.raises(ValueError):
        S.encumbrance(F(1), 0)
    with pytest.raises(ValueError):
        S.encumbrance(F(-1), 10)
    with pytest.raises(ValueError):
        S.quarters(F(1, 3))


@pytest.mark.parametrize(("spd", "dice"), [
    (-3, 0), (0, 0), (3, 0), (4, 1), (7, 1), (8, 2), (11, 2), (12, 3), (15, 3), (16, 4),
    (19, 4), (20, 5), (23, 5), (24, 6)])
def test_movement_dice_at_every_boundary(spd, dice):
    # IT table 0-3 0 ... 20 5; AMB-E5 beyond 20 and below 0.
    assert S.movement_dice(spd) == dice


@settings(max_examples=60)
@given(st.integers(-10, 40))
def test_movement_dice_is_one_per_4_spd(spd):
    assert S.movement_dice(spd) == max(0, spd // 4)
    assert S.movement_dice(spd + 1) >= S.movement_dice(spd)


def test_shift_and_movement_range():
    assert S.shift_distance(2) == 20  # IT: "2 movement dice, they could shift ... 20'"
    assert S.shift_distance(0) is None  # "no movement dice cannot shift"
    assert S.movement_range(0) == (10, 10)  # "as an action can move 10 feet or yards"
    assert S.movement_range(3) == (30, 120)


def test_spd_and_fleet_footed():
    assert S.spd(12, 3) == 9
    assert S.spd(12, 4, fleet_footed=True) == 12  # Enc not greater than 4
    assert S.spd(12, 5, fleet_footed=True) == 7
    assert S.spd(3, 6) == -3 and S.movement_dice(S.spd(3, 6)) == 0


@settings(max_examples=60)
@given(st.integers(4, 20), st.integers(4, 20), st.integers(0, 30 * 4))
def test_spd_never_rises_with_more_filled(phys, skill, q):
    a = S.spd(skill, S.encumbrance(F(q, 4), phys))
    b = S.spd(skill, S.encumbrance(F(q + 1, 4), phys))
    assert b <= a


def test_backpack_on_and_off():
    items = [S.Carried("Sword", F(1), location=S.HAND),
             S.Carried("Torch", F(1, 2), location=S.HANDY),
             S.Carried("Helmet", F(2), location=S.WORN),
             S.Carried("Bedroll", F(1)),
             S.Carried("Supply", F(1, 4), quantity=4)]
    assert S.filled_slots(items) == F(11, 2)
    assert S.filled_slots(items, backpack_on=False) == F(7, 2)
    assert S.filled_slots(items, exhaustion=2, backpack_on=False) == F(11, 2)


def test_coins_in_quarters_rounded_down():
    # PR §Item Slots: 100 coins to a slot; CR §Rounding: round down (AMB-E31).
    assert S.coin_slots(24) == 0
    assert S.coin_slots(25) == F(1, 4)
    assert S.coin_slots(100) == 1
    assert S.coin_slots(250) == F(5, 2)


def test_exhaustion_kills_at_phys():
    assert not S.dead_of_exhaustion(9, 10)
    assert S.dead_of_exhaustion(10, 10)


def test_retrieving_from_the_backpack():
    assert [S.p_retrieve(n) for n in (1, 2, 3, 4, 5)] == [F(1, 4), F(1, 2), F(3, 4), 1, 1]
    assert S.p_retrieve(1, from_body=True) == 1
    # ER §The Deviant, Pack Rat: "any item in any Item Slot as if it were a handy slot"
    assert S.p_retrieve(1, pack_rat=True) == 1
    assert [S.retrieve_is_free(place) for place in (S.HAND, S.HANDY, S.WORN, S.BACKPACK,
                                                    S.CONTAINER)] == [1, 1, 0, 0, 0]
    assert all(S.retrieve_is_free(place, pack_rat=True) for place in S.LOCATIONS)
    with pytest.raises(ValueError):
        S.p_retrieve(0)
