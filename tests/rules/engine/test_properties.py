"""Properties over many builds (hypothesis).

From the rules text: an Attribute may hold at most half the Level rounded up, the
points spent may not exceed the Level (negatives give nothing back), and every
Defense grows with the Attributes it is built from: HP = Level + STR + END (armor and
Size only add or multiply), Load capacity = STR + END, AF = 10 + AGI (+ shield),
WP = 10 + WIS (less attuned Materia), Rally = die + END.
"""

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from rules.engine.dice import Dice
from rules.engine.eldritch_gambit import (
    ArmorStats,
    Attributes,
    CharacterBuild,
    Coverage,
    GearPiece,
    Kind,
    Quality,
    ShieldStats,
    TraitChoice,
    compute_sheet,
)

KEYS = ("str", "wis", "dex", "agi", "cha", "end")
ATTRIBUTE_ISSUES = {"attribute_over_maximum", "attribute_points_over_budget"}

GEAR = [
    GearPiece("Leather", Kind.ARMOR, load=1, armor=ArmorStats(5, 6, rank=1), equipped=True),
    GearPiece("Chain mail", Kind.ARMOR, load=2, armor=ArmorStats(10, 8, rank=2),
              equipped=True, coverage=Coverage.PARTIAL),
    GearPiece("Plate mail", Kind.ARMOR, load=4, armor=ArmorStats(20, 12, rank=4),
              equipped=True, quality=Quality.SUPERIOR),
    GearPiece("Target", Kind.SHIELD, load=1, shield=ShieldStats(2, 2), equipped=True),
    GearPiece("Heater", Kind.SHIELD, load=2, shield=ShieldStats(3, 1), equipped=True),
    GearPiece("Dormant Demon", Kind.MATERIA, attuned=True),
    GearPiece("Bag of coins", load=1, quantity=3),
    GearPiece("Sack of gold", load=1, quantity=5, dropped=True),
]
TRAITS = [
    TraitChoice("Size", "Large", load=2),
    TraitChoice("Size", "Small", load=-1),
    TraitChoice("Size", "Tiny", load=-2),
    TraitChoice("Armored", "medium", load=2),
    TraitChoice("Flight", load=2),
]
STATUSES = ["Staggered", "Fallen", "Incapacitated", "Surprised", "Burning", "Poisoned"]


@st.composite
def valid_attributes(draw, level):
    """Attributes within the maximum whose pluses fit the Level's budget."""
    maximum = (level + 1) // 2
    left = level
    values = {}
    for key in draw(st.permutations(KEYS)):
        value = draw(st.integers(min_value=-3, max_value=min(maximum, left)))
        values[key] = value
        left -= max(value, 0)
    return Attributes(**values)


@st.composite
def valid_builds(draw):
    level = draw(st.integers(min_value=1, max_value=40))
    return CharacterBuild(level=level, attributes=draw(valid_attributes(level)))


attribute_values = st.integers(min_value=-4, max_value=25)
any_attributes = st.builds(Attributes, **dict.fromkeys(KEYS, attribute_values))

any_builds = st.builds(
    CharacterBuild,
    level=st.integers(min_value=1, max_value=40),
    attributes=any_attributes,
    gear=st.lists(st.sampled_from(GEAR), max_size=4).map(tuple),
    traits=st.lists(st.sampled_from(TRAITS), max_size=2).map(tuple),
    statuses=st.frozensets(st.sampled_from(STATUSES), max_size=2),
    hp_current=st.none() | st.integers(min_value=-10, max_value=60),
)


def with_attribute(build, key, delta):
    values = build.attributes.as_dict()
    values[key] += delta
    return replace(build, attributes=Attributes(**values))


def pair(build, key):
    return compute_sheet(build), compute_sheet(with_attribute(build, key, 1))


# ---------------------------------------------------------------- legality


@given(valid_builds())
def test_a_valid_build_has_no_attribute_issues(build):
    sheet = compute_sheet(build)
    assert sheet.value("attribute_points_spent") <= sheet.value("attribute_points")
    assert all(build.attributes[key] <= sheet.value("attribute_max") for key in KEYS)
    assert not ATTRIBUTE_ISSUES & {issue.code for issue in sheet.issues}


@given(st.integers(min_value=1, max_value=40), any_attributes)
def test_attribute_issues_exactly_when_the_rules_are_broken(level, attributes):
    maximum = (level + 1) // 2
    spent = sum(max(attributes[key], 0) for key in KEYS)
    over = {key for key in KEYS if attributes[key] > maximum}
    sheet = compute_sheet(CharacterBuild(level=level, attributes=attributes))
    flagged = {i.field for i in sheet.issues if i.code == "attribute_over_maximum"}
    assert flagged == over
    budget = any(i.code == "attribute_points_over_budget" for i in sheet.issues)
    assert budget == (spent > level)


# ---------------------------------------------------------------- monotonicity


@given(any_builds)
def test_hp_and_capacity_grow_with_str(build):
    before, after = pair(build, "str")
    for name in ("hp_base", "hp_armored", "load_capacity"):
        assert after.value(name) >= before.value(name), name


@given(any_builds)
def test_hp_and_capacity_grow_with_end(build):
    before, after = pair(build, "end")
    for name in ("hp_base", "hp_armored", "load_capacity"):
        assert after.value(name) >= before.value(name), name


@given(any_builds)
def test_rally_modifier_grows_with_end(build):
    before, after = pair(build, "end")
    assert Dice.parse(after.value("rally")).modifier >= Dice.parse(before.value("rally")).modifier


@given(any_builds)
def test_af_grows_with_agi(build):
    before, after = pair(build, "agi")
    assert after.value("af") >= before.value("af")


@given(any_builds)
def test_af_is_exactly_one_more_per_agi_when_standing_and_aware(build):
    before, after = pair(build, "agi")
    if any(before.has_status(s) for s in ("fallen", "incapacitated", "surprised")):
        return
    assert after.value("af") == before.value("af") + 1


@given(any_builds)
def test_wp_grows_with_wis(build):
    before, after = pair(build, "wis")
    assert after.value("wp") >= before.value("wp")
    assert after.value("wp_floor") >= before.value("wp_floor")


@given(any_builds)
def test_attributes_outside_a_defense_do_not_move_it(build):
    # CHA and DEX feed no Defense.
    base = compute_sheet(build)
    for key in ("cha", "dex"):
        other = compute_sheet(with_attribute(build, key, 1))
        for name in ("af", "hp_base", "hp_armored", "wp", "load_capacity", "rally"):
            assert other.value(name) == base.value(name), (key, name)


@given(any_builds)
def test_hp_armored_is_never_below_hp_base(build):
    sheet = compute_sheet(build)
    assert sheet.value("hp_armored") >= sheet.value("hp_base")
