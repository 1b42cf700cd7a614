"""compute_sheet's sections, each called on its own (rules/engine/eldritch_gambit/sheet.py).

Each section function returns the Stats of one SRD section in sheet order and the
Issues it finds. Numbers from the SRD: Characters > Level (LEVEL BENEFITS), Characters >
Attributes, Characters > Defenses (the worked Hit Points example: "a Level 10 character
with 2 STR and 4 END gets 16 Base HP. They can Rally for 1d4+4 HP. If they wear leather
armor granting 5 AP, their Armored HP jumps to 21 and their Rally to 1d6+4"; Willpower;
Status), Characters > Gear > Encumbrance, Resources > Armor and Shields, Bestiary >
Templates (Size: HP and AP x2 for Large), Basics > Checks.
"""

import pytest

from rules.engine.eldritch_gambit import (
    ArmorStats,
    Attributes,
    CharacterBuild,
    GearPiece,
    Kind,
    ShieldStats,
    Size,
    TraitChoice,
)
from rules.engine.eldritch_gambit.gear import UNARMORED
from rules.engine.eldritch_gambit.sheet import (
    agility_factor,
    attribute_rows,
    attribute_scores,
    carried_pieces,
    check_dice,
    chosen_statuses,
    container_issues,
    hit_points,
    level_stats,
    load,
    poison_buildup,
    rally,
    sheet_statuses,
    size_terms,
    willpower,
    worn_armor,
)
from tests.rules.engine.srd_examples import ASPHODEL, CHAIN

EXAMPLE = Attributes(str=2, end=4)  # the Hit Points example
LEATHER = GearPiece("Leather", Kind.ARMOR, load=1, armor=ArmorStats(5, 6, rank=1),
                    equipped=True)
TARGET = GearPiece("Target", Kind.SHIELD, load=1, shield=ShieldStats(2, 2), equipped=True)
HEATER = GearPiece("Heater", Kind.SHIELD, load=2, shield=ShieldStats(3, 1), equipped=True)


def build(attributes=EXAMPLE, level=10, **kwargs):
    return CharacterBuild(level=level, attributes=attributes, **kwargs)


def names(section):
    return [stat.name for stat in section.stats]


def values(section):
    return {stat.name: stat.value for stat in section.stats}


def codes(section):
    return [issue.code for issue in section.issues]


# ---------------------------------------------------------------- Level and Attributes


def test_level_stats():
    section = level_stats(build(level=10, xp=3))
    assert names(section) == ["level", "tier", "xp", "xp_to_next"]
    assert values(section)["tier"] == "Heroic"  # "Heroic 10"
    assert values(section)["xp_to_next"] == 7  # Level 10 less 3 XP
    assert not section.issues


def test_level_stats_below_the_minimum():
    assert codes(level_stats(build(level=0))) == ["level_below_minimum"]


def test_attribute_scores_of_asphodel():
    # Level 10: 10 points, at most +5 in one; Asphodel spends all 10.
    scores = attribute_scores(build(ASPHODEL))
    assert names(scores)[:4] == [
        "attribute_points", "attribute_points_spent", "attribute_points_left", "attribute_max"]
    assert names(scores)[4:] == ["str", "wis", "dex", "agi", "cha", "end"]
    assert values(scores)["attribute_points_spent"] == 10
    assert values(scores)["attribute_points_left"] == 0
    assert values(scores)["attribute_max"] == 5
    assert [row[:4] for row in scores.rows][0] == ("str", "STR", "Strength", 3)
    assert not scores.issues


def test_attribute_scores_over_the_maximum_then_over_budget():
    scores = attribute_scores(build(Attributes(str=6, end=5), level=10))
    assert codes(scores) == ["attribute_over_maximum", "attribute_points_over_budget"]
    assert scores.issues[0].field == "str"


def test_attribute_rows_take_the_check_dice():
    scores = attribute_scores(build(ASPHODEL))
    rows = attribute_rows(scores, check_dice(()))
    assert (rows[0].key, rows[0].check_d20, rows[0].check_d12) == ("str", "d20+3", "d12+3")
    staggered = attribute_rows(scores, check_dice(("staggered",)))
    assert staggered[0].check_d20 == "d12+3"  # Staggered: all Checks on a d12


# ---------------------------------------------------------------- statuses and Size


def test_chosen_statuses_normalise_and_ignore_derived_and_unknown():
    chosen = chosen_statuses(build(statuses=frozenset({"Staggered", "Encumbered", "Sleepy"})))
    assert chosen == frozenset({"staggered"})


def test_sheet_statuses_keep_the_srd_order():
    assert sheet_statuses(frozenset({"surprised", "staggered"}), ("fallen",)) == (
        "staggered", "fallen", "surprised")


def test_size_terms():
    assert size_terms(Size.MEDIUM) == ()
    assert [str(term) for term in size_terms(Size.LARGE)] == ["x2 (Large)"]


# ---------------------------------------------------------------- Defenses


def test_worn_armor_unarmored_and_in_leather():
    assert worn_armor(build(), ()).armor == UNARMORED
    worn = worn_armor(build(), (LEATHER,))
    assert (worn.armor.ap, worn.source, worn.stats) == (5, "Leather", ())


def test_worn_armor_two_suits_the_better_counts():
    worn = worn_armor(build(), (LEATHER, CHAIN))
    assert worn.armor.ap == 10
    assert codes(worn) == ["armor_multiple_worn"]


def test_worn_armor_the_armored_trait_counts_when_better():
    worn = worn_armor(build(traits=(TraitChoice("Armored", "heavy"),)), (LEATHER,))
    assert worn.armor.ap == 15
    assert worn.source.startswith("Armored Trait")


def test_hit_points_worked_example():
    b = build(gear=(LEATHER,))
    hp = hit_points(b, worn_armor(b, (LEATHER,)), Size.MEDIUM, frozenset())
    assert names(hp) == ["hp_base", "armor_ap", "hp_armored", "hp_current"]
    assert (hp.base, values(hp)["hp_armored"], hp.current) == (16, 21, 21)
    assert hp.derived_statuses == ()


def test_hit_points_large_doubles_hp_and_ap():
    b = build(gear=(LEATHER,))
    hp = hit_points(b, worn_armor(b, (LEATHER,)), Size.LARGE, frozenset())
    assert (hp.base, values(hp)["armor_ap"], values(hp)["hp_armored"]) == (32, 10, 42)


@pytest.mark.parametrize(("hp_current", "chosen", "derived"), [
    (0, frozenset(), ("fallen",)),
    (-3, frozenset(), ("fallen",)),
    (1, frozenset(), ()),
    (0, frozenset({"dead"}), ()),  # Dead already: not Fallen too
])
def test_hit_points_fallen_at_zero(hp_current, chosen, derived):
    b = build(hp_current=hp_current)
    assert hit_points(b, worn_armor(b, ()), Size.MEDIUM, chosen).derived_statuses == derived


def test_hit_points_current_over_armored():
    b = build(hp_current=17)
    assert codes(hit_points(b, worn_armor(b, ()), Size.MEDIUM, frozenset())) == [
        "hp_current_over_maximum"]


@pytest.mark.parametrize(("armor", "expected"), [(UNARMORED, "1d4+4"), (LEATHER, "1d6+4")])
def test_rally_worked_example(armor, expected):
    if armor is LEATHER:
        armor = worn_armor(build(), (LEATHER,)).armor
    assert values(rally(build(), armor, Size.MEDIUM, frozenset())) == {"rally": expected}


def test_rally_burning_cannot_rally():
    section = rally(build(), UNARMORED, Size.MEDIUM, frozenset({"burning"}))
    assert section.stats[0].notes == ("Burning: cannot Rally",)


def test_agility_factor_with_a_shield():
    af = agility_factor(Attributes(agi=1), (TARGET,), ())
    assert values(af) == {"af_base": 11, "af": 13}
    assert af.shield is TARGET


def test_agility_factor_two_shields_the_better_counts():
    af = agility_factor(Attributes(), (TARGET, HEATER), ())
    assert (af.shield, values(af)["af"], codes(af)) == (HEATER, 13, ["shield_multiple_carried"])


@pytest.mark.parametrize(("statuses", "af"), [
    (("fallen",), 0), (("dead",), 0), (("incapacitated",), 0), (("surprised",), 7)])
def test_agility_factor_statuses(statuses, af):
    # 10 + AGI 3 = 13; Surprised halves it, rounding up.
    assert values(agility_factor(Attributes(agi=3), (), statuses))["af"] == af


def test_willpower_of_asphodel():
    section = willpower(build(ASPHODEL))
    assert names(section) == ["wp", "wp_floor", "wp_current", "wp_spendable"]
    assert values(section) == {"wp": 11, "wp_floor": 6, "wp_current": 11, "wp_spendable": 5}


def test_willpower_attuned_materia_and_the_floor():
    section = willpower(build(Attributes(), gear=(GearPiece(
        "Dormant Demon", Kind.MATERIA, attuned=True, quantity=6),)))
    assert (values(section)["wp"], values(section)["wp_floor"]) == (4, 5)
    assert codes(section) == ["materia_below_floor"]


@pytest.mark.parametrize(("wp_current", "code"), [
    (11, "wp_current_over_maximum"), (-1, "wp_current_negative"), (4, "wp_below_floor")])
def test_willpower_current_issues(wp_current, code):
    assert codes(willpower(build(Attributes(), wp_current=wp_current))) == [code]


def test_poison_buildup_takes_effect_over_base_hp():
    assert codes(poison_buildup(build(poison_buildup=17), 16, ("poisoned",))) == [
        "poison_takes_effect"]
    assert codes(poison_buildup(build(poison_buildup=16), 16, ("poisoned",))) == []
    assert codes(poison_buildup(build(poison_buildup=17), 16, ())) == []


# ---------------------------------------------------------------- Load


def test_load_of_asphodel_in_chain():
    b = build(ASPHODEL, gear=(CHAIN,))
    section = load(b, carried_pieces(b.gear), Size.MEDIUM, frozenset())
    assert names(section) == ["load", "load_capacity", "encumbrance", "swim_penalty"]
    assert values(section) == {"load": 2, "load_capacity": 5, "encumbrance": "none",
                               "swim_penalty": -2}
    assert section.derived_statuses == ()


@pytest.mark.parametrize(("quantity", "burden", "derived"), [
    (6, "encumbered", ("encumbered",)),  # over STR + END = 5
    (11, "incapacitated", ("incapacitated",)),  # over twice that
])
def test_load_encumbrance(quantity, burden, derived):
    b = build(ASPHODEL, gear=(GearPiece("Rock", load=1, quantity=quantity),))
    section = load(b, b.gear, Size.MEDIUM, frozenset())
    assert (values(section)["encumbrance"], section.derived_statuses) == (burden, derived)


def test_load_large_halves_gear_and_adds_trait_load():
    # "a Large one would count 2 Load as 1"; the Trait's own Load is added unscaled.
    b = build(ASPHODEL, gear=(GearPiece("Rock", load=1, quantity=4),),
              traits=(TraitChoice("Size", "Large", load=2),))
    assert values(load(b, b.gear, Size.LARGE, frozenset()))["load"] == 4


def test_container_issues():
    sack = GearPiece("Sack", load=0, key=1, capacity=2)
    gear = (sack, GearPiece("Rock", load=1, quantity=3, container=1))
    assert [issue.code for issue in container_issues(gear, gear)] == ["container_over_capacity"]
    assert container_issues(gear, gear[1:]) == ()  # the sack is not carried


# ---------------------------------------------------------------- Checks


def test_check_dice():
    plain = check_dice(())
    assert (plain.with_ocs, plain.without_ocs, values(plain)) == (
        20, 12, {"check_dice": "d20 / d12"})
    staggered = check_dice(("staggered", "blinded"))
    assert values(staggered) == {"check_dice": "d12 / d12"}
    assert "Blinded: -4 to Checks partly reliant on sight" in staggered.stats[0].notes
