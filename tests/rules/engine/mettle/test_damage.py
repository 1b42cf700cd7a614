"""Damage, Mettle and hazards (METTLE Core SRD, Engine > Mettle; Scenes > Actions,
Scenery; docs/RULES.md # METTLE Core)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.mettle import damage
from rules.engine.mettle.damage import Felled, OffDescriptorReading, Surface
from rules.engine.mettle.data import ACTION_BY_NAME, ACTIONS, ATTRIBUTE_KEYS


def test_halving_rounds_up_and_rolls_stop_at_zero():
    assert [damage.halve(n) for n in (0, 1, 2, 3, 7)] == [0, 1, 1, 2, 4]
    assert damage.roll_total(3, -4) == 0  # "2d6-4 ... from 0"


def test_viktors_sword_cane_against_a_soak_of_three():
    # DM 5 + 2 Edge = 7, Soak 3: 4 Mettle lost.
    through = damage.damage_through_soak(damage.attack_damage(5, 2), 3)
    assert through == 4


def test_soft_and_stun_halve_after_soak():
    assert damage.damage_through_soak(8, 3, soft=True) == 3  # 5 halved, rounded up
    assert damage.damage_through_soak(8, 3, stun_attack=True) == 3
    assert damage.damage_through_soak(8, 3, stun_attack=True, stun_weapon=True) == 5
    assert damage.damage_through_soak(2, 3, soft=True) == 0


def test_defend_raises_soak():
    assert damage.defend_soak_bonus(True, 2) == 4
    assert damage.defend_soak_bonus(False, 3) == 1


def test_felling_blows():
    assert damage.take_damage(9, 4) == damage.DamageResult(5, None)
    assert damage.take_damage(3, 0).felled is None
    fallen = damage.take_damage(3, 3)
    assert (fallen.mettle, fallen.felled) == (0, Felled.FALLEN)
    staggered = damage.take_damage(3, 4, stagger=True)
    assert (staggered.mettle, staggered.felled) == (-2, Felled.STAGGERED)
    again = damage.take_damage(-2, 1, stagger=True)  # Staggered again: another point
    assert (again.mettle, again.felled) == (-4, Felled.STAGGERED)
    stunned = damage.take_damage(3, 5, stun_attack=True)  # "instead of damage"
    assert (stunned.mettle, stunned.felled) == (3, Felled.INCAPACITATED)
    assert damage.staggered_check_penalty(-4) == 4 and damage.staggered_check_penalty(2) == 0


def test_mettle_refills_at_a_new_scene_only_above_zero():
    assert damage.mettle_at_new_scene(2, 9) == 9
    assert damage.mettle_at_new_scene(0, 9) == 0
    assert damage.mettle_at_new_scene(-3, 9) == -3


@given(st.integers(min_value=1, max_value=8), st.integers(min_value=-5, max_value=20),
       st.integers(min_value=0, max_value=8))
def test_a_surge_never_passes_motive_nor_empties_mettle(motive, mettle, spent):
    limit = damage.surge_limit(motive, mettle, spent)
    assert 0 <= limit <= max(motive - spent, 0)
    assert limit == 0 or mettle - limit >= 1


def test_surge_examples():
    assert damage.surge_limit(4, 9) == 4  # at most MOTIVE
    assert damage.surge_limit(4, 3) == 2  # never to 0
    assert damage.surge_limit(4, 9, spent_this_round=3) == 1


def test_rally_and_rattle():
    assert damage.rally(3, 9, success=True, edge=2) == 7
    assert damage.rally(3, 9, success=False) == 4
    assert damage.rally(8, 9, success=True, edge=3) == 9  # up to the maximum
    assert damage.rally(-1, 9, success=True) == -1  # "cannot restore negative Mettle"
    assert damage.rattle_increase(True, 1) == 3 and damage.rattle_increase(False) == 1
    assert damage.rally_difficulty(5, [3, 1]) == 8  # rattlers do not stack


def test_aid_difficulty():
    assert damage.aid_difficulty(-3) == 3
    assert damage.aid_difficulty(0) == 0
    assert damage.aid_difficulty(-3, self_aid=True) == 6


def test_off_descriptor_concept():
    # AMB-M12: double Difficulty, unless a Backstory applies; GD's half pool as an option.
    assert damage.concept_check(5, 3, on_descriptor=True) == (5, 3)
    assert damage.concept_check(5, 3, on_descriptor=False) == (5, 6)
    assert damage.concept_check(5, 3, on_descriptor=False, backstory_applies=True) == (5, 3)
    assert damage.concept_check(
        5, 3, on_descriptor=False, reading=OffDescriptorReading.HALF_POOL) == (3, 3)


def test_swim_surprise_cover_and_visibility():
    assert damage.swim_difficulty(3, 2) == 5  # AMB-M15
    assert damage.SURPRISE_ROUNDS == 1  # AMB-M11b
    assert damage.PARTIAL_COVER_DIFFICULTY == 2
    assert (damage.DIM_LIGHT_DIFFICULTY, damage.DARKNESS_DIFFICULTY) == (1, 3)


@pytest.mark.parametrize(("zones", "surface", "jumped", "modifier"), [
    (0, Surface.NORMAL, False, 0),  # a trench: 1d6
    (2, Surface.NORMAL, False, 4),  # a second-story window: 1d6+4
    (4, Surface.NORMAL, False, 8),  # several floors: 1d6+8
    (4, Surface.HARD, False, 9),
    (4, Surface.WATER, True, 4),
    (30, Surface.HARD, False, 20),  # terminal velocity: 1d6+20
])
def test_falls(zones, surface, jumped, modifier):
    assert damage.fall_modifier(zones, surface, jumped=jumped) == modifier


def test_a_fall_never_deals_negative_damage():
    assert damage.fall_damage(1, 0, Surface.WATER, jumped=True) == 0


def test_poison_dose_subtracts_frame_once():
    # AMB-M16: Curare "2d6-FRAME": a 9 on FRAME 3 takes 6 max Mettle, one a Round.
    assert damage.poison_dose(9, 3) == 6
    assert damage.poison_dose(2, 3) == 0


def test_actions_table():
    pairs = {a.name: a.active for a in ACTIONS}
    assert pairs["Attack"] == "nature" and ACTION_BY_NAME["Attack"].passive.endswith("POISE")
    assert pairs["Defend"] == "poise" and pairs["Parley"] == "nature"
    assert pairs["Rally"] == "motive" and pairs["Use"] == "concept"
    assert {a.active for a in ACTIONS} <= set(ATTRIBUTE_KEYS) - {"frame"}  # FRAME: no Checks


def test_area_damage():
    assert damage.area_damage(4, 7) == 11  # a Dynamite stick: 1d6 + 7
    assert damage.area_damage(4, 7, partial_cover=True) == 6


def test_deprivation():
    assert damage.deprivation_modifiers(weeks_without_food=1, days_without_water=2) == (
        ("frame", -1), ("poise", -2))
    assert damage.deprivation_modifiers() == ()
    assert damage.deprivation_kills(2, 2) and not damage.deprivation_kills(3, 2)


def test_crashes_and_rams():
    assert damage.crash_damage(3, 5) == 8  # the vehicle, no Soak
    assert damage.crash_damage(3, 5, occupant=True, seatbelt=False) == 13
    assert damage.ram_damage(9, 5, 2) == 16
    assert damage.ram_damage(9, 5, 2, head_on_speed=5) == 21
    assert damage.ram_return_damage(9, 5, 10, 1) == 3
    assert damage.ram_return_damage(1, 2, 10, 0) == 0


def test_bp_armour_halves_the_first_firearm_damage_after_soak():
    """RS §Armor: BP "halves the first firearm damage it takes after Soak. Afterward, it
    only functions as regular armor"; halved rounded up (EN §Rolls)."""
    through = damage.damage_through_soak(7, 4)
    assert through == 3
    assert damage.bulletproof_through(through, firearm=True, bulletproof=True) == (2, True)
    assert damage.bulletproof_through(4, firearm=True, bulletproof=True) == (2, True)
    # Afterward: regular armour.
    assert damage.bulletproof_through(3, firearm=True, bulletproof=True,
                                      spent=True) == (3, True)
    # Not a firearm, or no BP: nothing halved, nothing spent.
    assert damage.bulletproof_through(3, firearm=False, bulletproof=True) == (3, False)
    assert damage.bulletproof_through(3, firearm=True, bulletproof=False) == (3, False)
    # AMB-M-BP-1: a hit wholly soaked takes no damage and leaves the BP unspent.
    assert damage.bulletproof_through(0, firearm=True, bulletproof=True) == (0, False)
    assert damage.bulletproof_through(1, firearm=True, bulletproof=True) == (1, True)


def test_stun_only_weapons_always_stun_on_a_felling_blow():
    """RS §Specials, Stun: "If it *only* Stuns, it does damage but will always Stun on a
    Felling blow"."""
    assert damage.stuns_on_felling(stun_only=True)
    assert damage.stuns_on_felling(stun_attack=True)
    assert not damage.stuns_on_felling()


def test_an_affliction_lowers_max_mettle_up_to_its_dose():
    # Scenery > Affliction: "lower the victim's maximum Mettle by one each day, up to the
    # result": a Dose of 3 allows three ticks, then it has run out.
    assert [damage.affliction_ticks_left(3, taken) for taken in range(5)] == [3, 2, 1, 0, 0]
    assert damage.affliction_ticks_left(0, 0) == 0  # a poison that FRAME resisted


def test_mettle_above_the_lowered_maximum_comes_down_to_it():
    assert damage.mettle_under_lowered_maximum(9, 8) == 8
    assert damage.mettle_under_lowered_maximum(5, 8) == 5
    assert damage.mettle_under_lowered_maximum(-2, 0) == -2
    assert damage.mettle_under_lowered_maximum(None, 8) is None  # "at maximum" follows it


# -- a tranquilizer's Difficulty (Scenery > Affliction; AMB-M-AFF-7) -------------------------


def test_only_the_tranquilizer_raises_difficulty():
    assert [a.key for a in damage.AFFLICTIONS if a.raises_difficulty] == ["tranquilizer"]


def test_a_tranquilizer_raises_difficulty_by_its_dose_result():
    # Tranquilizer dart 1d6-FRAME: a 6 against FRAME 3 is Dose 3, every Check +3.
    dose = damage.affliction_dose(damage.AFFLICTION_BY_KEY["tranquilizer"], [6], 3)
    assert damage.tranquilizer_difficulty([dose]) == 3
    assert damage.tranquilizer_difficulty([]) == 0


@given(st.lists(st.integers(-5, 20), max_size=6))
def test_tranquilizer_difficulty_adds_the_positive_doses(doses):
    raised = damage.tranquilizer_difficulty(doses)
    assert raised == sum(d for d in doses if d > 0) and raised >= 0
    assert damage.tranquilizer_difficulty([*doses, 0]) == raised  # "If positive"
