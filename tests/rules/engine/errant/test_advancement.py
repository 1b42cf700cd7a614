"""Renown from XP, the adjutant's share, training (Errant SRD, ER §Renown, §Adjutants; DT
§Improving Attributes)."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine.errant import advancement as V
from rules.engine.errant.data import RENOWN_XP


@pytest.mark.parametrize(("renown", "xp"), RENOWN_XP)
def test_renown_at_each_threshold(renown, xp):
    assert V.renown_for_xp(xp) == renown
    if xp:
        assert V.renown_for_xp(xp - 1) == renown - 1
    assert V.renown_for_xp(xp + 1) == renown


def test_the_table():
    assert [xp for _, xp in RENOWN_XP] == [0, 2_000, 6_000, 14_000, 30_000, 62_000, 126_000,
                                           254_000, 510_000]


def test_xp_next():
    assert V.xp_next(0) == 2_000
    assert V.xp_next(2_000) == 6_000
    assert V.xp_next(509_999) == 510_000
    assert V.xp_next(510_000) is None  # the table stops at 9
    assert V.renown_for_xp(10**9) == 9


@settings(max_examples=80)
@given(st.integers(0, 10**7), st.integers(0, 10**6))
def test_renown_is_monotone_in_xp(xp, more):
    assert V.renown_for_xp(xp) <= V.renown_for_xp(xp + more)


def test_negative_xp_is_refused():
    with pytest.raises(ValueError):
        V.renown_for_xp(-1)


@settings(max_examples=60)
@given(st.integers(0, 10**7))
def test_adjutant_split_loses_nothing(xp):
    master, adjutant = V.adjutant_split(xp)
    assert master + adjutant == xp
    assert master == xp * 3 // 4  # AMB-E21


def test_training():
    assert [V.training_cost(n) for n in (1, 2, 3, 4)] == [1_000, 2_000, 4_000, 8_000]
    assert V.p_training(15) == Fraction(1, 64)  # E22
    assert V.p_training(16) == 0
    assert V.p_training(2) == 1
    assert V.p_training(12, trainer=12) == 0
    assert V.p_training(12, trainer=15) == V.p_training(12)
