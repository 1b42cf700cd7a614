"""The Array and Freestyle builds (METTLE Core SRD, Characters > Step 3; docs/RULES.md,
AMB-M1...M3)."""

from collections import Counter
from itertools import permutations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.mettle.attributes import (
    ARRAY,
    Attributes,
    Method,
    attribute_costs,
    build_problems,
    pool_total,
)
from rules.engine.mettle.data import ATTRIBUTE_KEYS, ATTRIBUTE_POOLS

pools = st.integers(min_value=1, max_value=6)
attribute_sets = st.builds(Attributes, pools, pools, pools, pools, pools)


def codes(problems):
    return {p.code for p in problems}


@pytest.mark.parametrize("order", sorted(set(permutations(ARRAY))))
def test_every_order_of_the_array_is_legal(order):
    assert build_problems(Attributes(*order), Method.ARRAY) == []


@given(attribute_sets)
def test_array_legality_is_a_permutation_check(attrs):
    legal = Counter(attrs.values()) == Counter(ARRAY)
    assert (build_problems(attrs, Method.ARRAY) == []) is legal


def test_array_problems_name_the_field_and_the_difference():
    problems = build_problems(Attributes(5, 5, 3, 3, 6), Method.ARRAY)
    by_field = {p.field: p for p in problems}
    assert by_field["poise"].code == "array_value_not_in_array"
    assert by_field["poise"].message == "POISE 6 is not in the array 5, 4, 3, 3, 2."
    assert by_field["attributes"].code == "array_not_permutation"
    assert "6, 5 too many, 4, 2 missing" in by_field["attributes"].message


def test_the_array_costs_exactly_22():
    # "Both methods are equivalent."
    assert pool_total(Attributes(*ARRAY)) == 22
    assert build_problems(Attributes(*ARRAY), Method.FREESTYLE) == []


def test_the_pools_table_is_the_cost_rule():
    for pool, (_rating, as_highest, as_other) in ATTRIBUTE_POOLS.items():
        assert (as_highest, as_other) == (2 * pool, pool)
        assert attribute_costs(Attributes(pool, 1, 1, 1, 1))["concept"] == as_highest
        assert attribute_costs(Attributes(6, pool, 1, 1, 1))["frame"] == as_other


def test_tied_highest_doubles_once():
    # AMB-M1: [5, 5, 4, 1, 1] costs 21.
    assert pool_total(Attributes(5, 5, 4, 1, 1)) == 21


def test_the_issue_message_for_an_attribute_over_half_the_points():
    problems = build_problems(Attributes(3, 2, 6, 1, 1), Method.FREESTYLE)
    over = [p for p in problems if p.code == "freestyle_over_half"]
    assert [(p.field, p.message) for p in over] == [
        ("motive", "MOTIVE 6 costs 12, over half of the 22 points.")]


def test_six_dice_need_a_larger_budget():
    # AMB-M3: 6D as the highest costs 12 > 11 with 22 points; with 24 it is legal.
    attrs = Attributes(6, 2, 2, 2, 2)  # 20 points
    assert "freestyle_over_half" in codes(build_problems(attrs, Method.FREESTYLE))
    assert codes(build_problems(attrs, Method.FREESTYLE, budget=24)) == {
        "freestyle_points_unspent"}


def test_exactly_half_is_allowed():
    assert "freestyle_over_half" not in codes(
        build_problems(Attributes(5, 3, 3, 3, 3), Method.FREESTYLE, budget=20))


def test_over_budget_is_an_error_and_unspent_points_a_warning():
    over = build_problems(Attributes(5, 5, 5, 4, 1), Method.FREESTYLE)
    assert [(p.code, p.severity) for p in over] == [("freestyle_over_budget", "error")]
    assert over[0].message == "These pools cost 25 points, 3 over the 22 to spend."
    under = build_problems(Attributes(3, 3, 3, 3, 3), Method.FREESTYLE)
    assert [(p.code, p.severity) for p in under] == [("freestyle_points_unspent", "warning")]
    assert under[0].message == "4 of the 22 points are unspent."


def test_pools_outside_one_to_six_are_refused():
    problems = build_problems(Attributes(0, 3, 3, 3, 3), Method.FREESTYLE)
    assert ("attribute_out_of_range", "concept") in {(p.code, p.field) for p in problems}


def test_a_budget_that_buys_nothing():
    assert codes(build_problems(Attributes(), Method.FREESTYLE, budget=0)) == {
        "freestyle_budget_invalid"}


@given(attribute_sets, st.sampled_from(ATTRIBUTE_KEYS))
def test_freestyle_cost_is_monotone(attrs, key):
    assert pool_total(attrs.raised(key)) > pool_total(attrs)


@given(attribute_sets)
def test_freestyle_cost_is_highest_twice_plus_the_rest(attrs):
    assert pool_total(attrs) == sum(attrs.values()) + max(attrs.values())


@given(attribute_sets, st.integers(min_value=10, max_value=40))
def test_freestyle_legality(attrs, budget):
    problems = build_problems(attrs, Method.FREESTYLE, budget)
    errors = {p.code for p in problems if p.severity == "error"}
    cost = pool_total(attrs)
    assert ("freestyle_over_budget" in errors) is (cost > budget)
    assert ("freestyle_over_half" in errors) is (2 * max(attrs.values()) * 2 > budget)
    assert any(p.code == "freestyle_points_unspent" for p in problems) is (cost < budget)
