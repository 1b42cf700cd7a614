"""Experience (METTLE Core SRD, Characters > Experience; Guidance > Characters)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.mettle.advancement import (
    apply_raises,
    highlight_rounds,
    make_up_xp,
    raise_cost,
)
from rules.engine.mettle.attributes import Attributes
from rules.engine.mettle.data import ATTRIBUTE_KEYS
from rules.engine.mettle.sheet import CharacterBuild, compute_sheet, mettle_max

VIKTOR = Attributes(concept=5, frame=3, motive=4, nature=3, poise=2)
pools = st.integers(min_value=1, max_value=9)
attribute_sets = st.builds(Attributes, pools, pools, pools, pools, pools)


def test_viktors_raise_costs():
    # Highest: 2 x its level; lesser: the highest's level.
    assert raise_cost(VIKTOR, "concept") == 10
    for key in ("frame", "motive", "nature", "poise"):
        assert raise_cost(VIKTOR, key) == 5


def test_a_tied_highest_being_raised_counts_as_the_highest():
    attrs = Attributes(5, 5, 3, 3, 2)
    assert raise_cost(attrs, "concept") == raise_cost(attrs, "frame") == 10


@given(attribute_sets, st.sampled_from(ATTRIBUTE_KEYS))
def test_raise_cost_rule(attrs, key):
    top = max(attrs.values())
    assert raise_cost(attrs, key) == (2 * top if attrs[key] == top else top)


def test_raises_cost_what_they_cost_when_bought_and_the_sheet_follows():
    # NATURE 3 -> 4 -> 5 (5 XP each: CONCEPT 5 is the highest, then tied at 5: the raised
    # one counts as highest, 10 XP) -> 6.
    attrs, bought = apply_raises(VIKTOR, ("nature", "nature", "nature"))
    assert attrs.nature == 6
    assert [r.cost for r in bought] == [5, 5, 10]
    sheet = compute_sheet(CharacterBuild(attributes=VIKTOR, raises=("nature",) * 3,
                                         xp_earned=20))
    assert sheet.value("nature") == 6
    assert sheet.value("xp_spent") == 20 and sheet.value("xp_left") == 0
    # The highest rose: one more Backstory slot, and Mettle = MOTIVE 4 + 6.
    assert sheet.value("backstories_max") == 6
    assert sheet.value("mettle_max") == 10
    assert sheet.value("raise_cost_concept") == 6  # no longer the highest
    assert sheet.value("raise_cost_nature") == 12
    assert sheet.errors == ()


def test_overspent_xp_is_an_error():
    sheet = compute_sheet(CharacterBuild(attributes=VIKTOR, raises=("concept",), xp_earned=9))
    assert [(i.code, i.field) for i in sheet.errors] == [("xp_overspent", "raises")]


def test_raises_keep_the_starting_build_legal():
    # The Array is checked on the starting pools, not on the raised ones.
    sheet = compute_sheet(CharacterBuild(attributes=VIKTOR, raises=("poise",), xp_earned=5))
    assert sheet.errors == () and sheet.value("poise") == 3


@given(attribute_sets, st.lists(st.sampled_from(ATTRIBUTE_KEYS), max_size=6))
def test_mettle_max_is_motive_plus_highest_after_any_raises(attrs, raises):
    raised, _ = apply_raises(attrs, tuple(raises))
    assert mettle_max(raised) == raised.motive + max(raised.values())


@pytest.mark.parametrize(("length", "rounds"), [("short", 1), ("medium", 2), ("long", 3)])
def test_highlight_rounds(length, rounds):
    assert highlight_rounds(length) == rounds


def test_make_up_xp_per_missed_session():
    # AMB-M10: Guidance's "a bonus 'make-up' XP for each missing session".
    assert make_up_xp(3) == 3
    assert make_up_xp(2, per_session=0) == 0
    assert make_up_xp(-1) == 0
