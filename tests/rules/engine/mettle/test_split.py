"""Split Actions (METTLE Core Scenes chapter, seed 001 > Split Actions; AMB-M7, AMB-M8)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.mettle.checks import split_check_pools, split_pool


@pytest.mark.parametrize(("dice", "parts", "split"), [
    (5, 2, (3, 2)), (5, 3, (2, 2, 1)), (6, 3, (2, 2, 2)), (4, 1, (4,)), (3, 3, (1, 1, 1)),
])
def test_as_evenly_as_possible(dice, parts, split):
    assert split_pool(dice, parts) == split


def test_a_smaller_attribute_caps_its_part():
    # AMB-M7: NATURE 6 with a POISE 1 Move splits 5 and 1.
    assert split_pool(6, 2, caps=[None, 1]) == (5, 1)


def test_each_part_needs_a_die():
    # AMB-M8: more Actions than dice is refused.
    with pytest.raises(ValueError):
        split_pool(2, 3)


def test_dice_no_part_may_take_are_refused():
    with pytest.raises(ValueError):
        split_pool(6, 2, caps=[2, 2])


@given(st.integers(min_value=1, max_value=30), st.integers(min_value=1, max_value=30))
def test_split_properties(dice, parts):
    if parts > dice:
        with pytest.raises(ValueError):
            split_pool(dice, parts)
        return
    split = split_pool(dice, parts)
    assert sum(split) == dice and len(split) == parts
    assert max(split) - min(split) <= 1
    assert split == tuple(sorted(split, reverse=True))


def test_modifiers_apply_after_the_split():
    # A 5D pool split in two is 3 and 2; a Sword's +2D goes on the Attack part only.
    assert split_check_pools(5, 2, modifiers=[2]) == (5, 2)
    assert split_check_pools(5, 2, modifiers=[0, -3]) == (3, 0)
    with pytest.raises(ValueError):
        split_check_pools(5, 2, modifiers=[1, 1, 1])
