"""Scenery > Fire and Affliction (seed 001): fire's damage and the SAMPLE AFFLICTIONS'
Dose (rules/engine/mettle/damage.py; docs/RULES.md AMB-M16, AMB-M-HZ-1)."""

from rules.engine.mettle.damage import AFFLICTION_BY_KEY, affliction_dose, fire_damage


def test_fire_is_the_sum_of_its_dice():
    assert fire_damage([3]) == 3 and fire_damage([6, 6, 1]) == 13


def test_disease_dose_is_the_roll_plus_its_modifier_never_below_zero():
    cold = AFFLICTION_BY_KEY["cold"]  # 1d6-3
    assert cold.dose_text == "1d6-3" and cold.interval == "day"
    assert affliction_dose(cold, [6], frame=9) == 3  # FRAME does not count
    assert affliction_dose(cold, [1], frame=0) == 0
    assert affliction_dose(AFFLICTION_BY_KEY["monitor"], [4], frame=3) == 3


def test_poison_and_tranquilizer_subtract_frame():
    curare = AFFLICTION_BY_KEY["curare"]
    assert curare.dose_text == "2d6-FRAME" and curare.interval == "Round"
    assert affliction_dose(curare, [6, 5], frame=3) == 8
    assert affliction_dose(curare, [1, 1], frame=3) == 0
    assert affliction_dose(AFFLICTION_BY_KEY["tranquilizer"], [5], frame=2) == 3
