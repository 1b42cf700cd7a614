"""Encounter rules (seed 004): the calculators (H8, H10, H12, H19, H21), with cases of
our own design, each checking the number and the arithmetic shown."""

from fractions import Fraction

import pytest

from rules.engine.encounters.calculators import (
    SENSE_INCREMENTS,
    WEAPON_INCREMENTS,
    charge_momentum,
    chase_gain,
    encumbered_pace,
    jump_distance,
    movement_actions,
    pushing_power,
    range_challenge,
    ride_actions,
)
from rules.engine.encounters.combatants import PACE_IGNORED, EncounterError


class TestRangeChallenge:
    @pytest.mark.parametrize(("distance", "increment", "challenge"), [
        (0, 2, 0),  # point blank
        (1, 2, 0),
        (4, 2, 1),
        (5, 2, 2),
        (37, 2, 18),
        (3, 1, 2),
        (250, 100, 2),
        (999, 1000, 0),
        (3001, 1000, 3),
    ])
    def test_one_more_per_increment_past_the_first(self, distance, increment, challenge):
        assert range_challenge(distance, increment).value == challenge

    def test_amb_h8_the_boundary_belongs_to_the_nearer_band(self):
        """AMB-H8: exactly one increment away is still within it: challenge 0."""
        assert range_challenge(2, 2).value == 0
        assert range_challenge(200, 100).value == 1

    def test_added_to_an_evading_targets_defence(self):
        worked = range_challenge(23, 10, defence=5)
        assert worked.value == 5 + 2
        assert worked.text.endswith("defence 5 + 2 = 7")

    def test_a_fixed_object_defends_with_zero(self):
        assert range_challenge(23, 10, defence=0).value == 2

    def test_the_arithmetic_is_shown(self):
        assert range_challenge(37, 2).text == (
            "37 yd at 2 yd per increment: 19 increments, challenge 19 - 1 = 18")
        assert "challenge 0 (within the first)" in range_challenge(1, 2).text

    def test_increments_by_weapon_kind_and_sense(self):
        assert WEAPON_INCREMENTS == {"thrown": 2, "missile": 10}
        assert SENSE_INCREMENTS["vision"] == 100
        assert range_challenge(450, SENSE_INCREMENTS["vision"]).value == 4

    @pytest.mark.parametrize(("distance", "increment"), [
        (-1, 10), ("far", 10), (10, 0), (10, -3), (10**12, 10), (None, 10), (True, 10),
    ])
    def test_hostile_numbers_are_refused(self, distance, increment):
        with pytest.raises(EncounterError):
            range_challenge(distance, increment)


class TestPace:
    @pytest.mark.parametrize(("load", "pace"), [
        (0, 10), (9, 10), (10, 9), (30, 7), (50, 5), (75, Fraction(5, 2)), (100, 0),
    ])
    def test_amb_h9_linear_pace(self, load, pace):
        """AMB-H9: full pace under a tenth of the lift, then 10 x (1 - load)."""
        assert encumbered_pace(load).value == pace

    def test_the_arithmetic_is_shown(self):
        assert encumbered_pace(75).text == "10 x (1 - 75/100) = 2 1/2 yd per movement action"
        assert "full pace" in encumbered_pace(4).text

    def test_a_campaign_may_ignore_encumbrance(self):
        assert encumbered_pace(80, PACE_IGNORED).value == 10

    @pytest.mark.parametrize("load", [-1, 101, "heavy", 2.5])
    def test_hostile_loads(self, load):
        with pytest.raises(EncounterError):
            encumbered_pace(load)


class TestJump:
    def test_standing_running_and_laden(self):
        assert jump_distance(120, 0, running=False).value == Fraction(12, 5)
        running = jump_distance(120, 0, running=True)
        assert running.value == Fraction(24, 5)
        assert running.text == "120 / 50 = 2 2/5 yd, x 2 with a run-up: 4 4/5 yd"
        laden = jump_distance(200, 40, running=True)  # pace 6 of 10
        assert laden.value == Fraction(24, 5)
        assert laden.text.endswith("x 6/10 for the load: 4 4/5 yd")

    @pytest.mark.parametrize(("lift", "load"), [(-5, 0), ("strong", 0), (100, 120)])
    def test_hostile(self, lift, load):
        with pytest.raises(EncounterError):
            jump_distance(lift, load, running=False)


class TestChase:
    def test_a_yard_per_point_of_difference(self):
        assert chase_gain("Hare", 14, "Hound", 9).text == "Hare 14, Hound 9: Hare gains 5 yd"
        assert chase_gain("Hare", 6, "Hound", 8).value == 2
        assert chase_gain("Hare", 7, "Hound", 7).value == 0

    def test_hostile(self):
        with pytest.raises(EncounterError):
            chase_gain("Hare", "fast", "Hound", 3)


class TestMovementActions:
    @pytest.mark.parametrize(("yards", "pace", "count"), [
        (1, 10, 1), (10, 10, 1), (11, 10, 2), (31, 10, 4), (6, Fraction(5, 2), 3),
    ])
    def test_one_per_pace_or_part(self, yards, pace, count):
        assert movement_actions(yards, pace).value == count

    def test_no_movement_at_full_load(self):
        with pytest.raises(EncounterError, match="cannot move"):
            movement_actions(5, 0)

    def test_a_ride_uses_the_mounts_pace(self):
        assert ride_actions(70, 25).value == 3
        with pytest.raises(EncounterError):
            ride_actions(70, 50)


class TestChargeMomentum:
    @pytest.mark.parametrize(("yards", "bonus"), [(0, 0), (9, 0), (10, 1), (27, 2), (60, 6)])
    def test_one_per_full_ten_yards(self, yards, bonus):
        worked = charge_momentum(yards, enabled=True)
        assert worked.value == bonus
        assert f"+{bonus} damage dealt and +{bonus} to melee damage taken" in worked.text

    def test_only_when_the_campaign_uses_it(self):
        with pytest.raises(EncounterError, match="not used"):
            charge_momentum(30, enabled=False)


class TestPushingPower:
    def test_each_hit_adds_one_to_strength_and_willpower(self):
        pushed = pushing_power(strength=3, willpower=6, stamina=9, hits=3)
        assert (pushed.strength, pushed.willpower, pushed.stamina) == (6, 9, 6)
        assert not pushed.collapsed
        assert pushed.text == ("3 Stamina spent: Strength 3 + 3 = 6, Willpower 6 + 3 = 9 "
                               "this round; Stamina 9 - 3 = 6")

    def test_spending_the_last_hit_collapses(self):
        pushed = pushing_power(strength=2, willpower=2, stamina=4, hits=4)
        assert pushed.stamina == 0 and pushed.collapsed
        assert "collapses" in pushed.text

    @pytest.mark.parametrize("hits", [0, -2, 5, "lots", 10**9])
    def test_refused(self, hits):
        with pytest.raises(EncounterError) as error:
            pushing_power(strength=2, willpower=2, stamina=4, hits=hits)
        assert error.value.field == "hits"
