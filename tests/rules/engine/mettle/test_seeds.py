"""The d66 seed tables and the random helpers (METTLE Core SRD, Characters > Steps 2-4)."""

import random
from collections import Counter
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.mettle.attributes import ARRAY, Method, build_problems
from rules.engine.mettle.data import ATTRIBUTE_KEYS
from rules.engine.mettle.seeds import (
    APPEARANCE_SEEDS,
    BACKGROUND_SEEDS,
    DESCRIPTOR_SEEDS,
    appearance_seed,
    background_seed,
    descriptor_seed,
    random_array,
)

ROWS = set(product(range(1, 7), repeat=2))


def test_every_d66_row_is_there():
    assert set(APPEARANCE_SEEDS) == set(BACKGROUND_SEEDS) == ROWS
    assert set(DESCRIPTOR_SEEDS) == set(ATTRIBUTE_KEYS)
    assert all(set(column) == ROWS for column in DESCRIPTOR_SEEDS.values())


def test_rows_read_as_the_srd_prints_them():
    # "if you roll a 6 and a 2, go to the distinctive feature in the row for 6, 2."
    assert APPEARANCE_SEEDS[6, 2].startswith("Tattoo")
    assert DESCRIPTOR_SEEDS["concept"][4, 2] == "Gambler"  # Viktor's roll
    assert DESCRIPTOR_SEEDS["frame"][5, 4] == "Svelte"
    assert BACKGROUND_SEEDS[6, 6] == "Whiled away their time with cards..."


def test_seed_rolls_show_their_dice():
    rng = random.Random(3)
    for roll in (appearance_seed(rng), descriptor_seed(rng, "motive"), background_seed(rng)):
        assert roll.dice in ROWS and roll.text


@given(st.integers(min_value=0, max_value=2**32), st.data())
def test_a_random_array_is_always_legal_and_keeps_its_locks(seed, data):
    keys = data.draw(st.lists(st.sampled_from(ATTRIBUTE_KEYS), unique=True, max_size=5))
    values = data.draw(st.permutations(ARRAY))
    locked = {key: values[i] for i, key in enumerate(keys)}
    attrs = random_array(random.Random(seed), locked)
    assert build_problems(attrs, Method.ARRAY) == []
    assert all(attrs[key] == value for key, value in locked.items())


def test_locks_outside_the_array_are_refused():
    with pytest.raises(ValueError):
        random_array(random.Random(1), {"concept": 5, "frame": 5})
    with pytest.raises(ValueError):
        random_array(random.Random(1), {"concept": 6})


def test_every_placement_can_come_up():
    rng = random.Random(0)
    seen = Counter(random_array(rng).values() for _ in range(400))
    assert len(seen) == 60  # 5! / 2! orders of 5, 4, 3, 3, 2
