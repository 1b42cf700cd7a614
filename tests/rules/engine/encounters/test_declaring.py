"""Encounter rules (seed 004): a declared round -> Initiative slots and skill penalty
(H3, H8, H9, H18; AMB-H2, H3, H4, H6, H11). Cases of our own design."""

import pytest

from rules.engine.encounters.combatants import (
    CONCENTRATE,
    MANEUVER,
    ONE_FOR_ALL,
    PACE_IGNORED,
    EncounterError,
    Settings,
    combatant,
)
from rules.engine.encounters.declaring import counted_actions, declare, skill_penalty

SETTINGS = Settings()
HERO = combatant("tam", "Tamsin", "party", quickness=4, command=2)


def offsets(made):
    return [(s.label, s.offset) for s in made.slots]


def major(label="strike", skill="physical", **more):
    return {"kind": "major", "label": label, "skill": skill, **more}


class TestSequence:
    def test_each_later_major_is_two_lower(self):
        made = declare(HERO, MANEUVER, [major("thrust"), major("slash"), major("kick")],
                       SETTINGS)
        assert offsets(made) == [("thrust", 0), ("slash", -2), ("kick", -4)]

    def test_a_declared_defence_holds_its_place(self):
        made = declare(HERO, MANEUVER, [major("lunge"), {"kind": "defend"}], SETTINGS)
        assert offsets(made) == [("lunge", 0), ("defence", -2)]

    def test_movement_before_an_action_lowers_it(self):
        made = declare(HERO, MANEUVER, [{"kind": "stand"}, {"kind": "run", "yards": 14},
                                        major("shove")], SETTINGS)
        assert offsets(made) == [("stand up", 0), ("run 14 yd (1 of 2)", -2),
                                 ("run 14 yd (2 of 2)", -4), ("shove", -6)]

    def test_amb_h6_movement_between_actions_lowers_every_later_one(self):
        made = declare(HERO, MANEUVER, [major("parry-cut"), {"kind": "leap"},
                                        major("stab")], SETTINGS)
        assert offsets(made) == [("parry-cut", 0), ("leap", -2), ("stab", -4)]

    def test_amb_h4_haste_takes_no_place_in_the_sequence(self):
        """AMB-H4: two hastes raise the round by 4 and are not themselves slots."""
        made = declare(HERO, MANEUVER, [{"kind": "haste"}, {"kind": "haste"},
                                        major("cut"), major("cut again")], SETTINGS)
        assert made.haste == 2
        assert offsets(made) == [("cut", 0), ("cut again", -2)]

    def test_minor_actions_cost_no_slot(self):
        made = declare(HERO, MANEUVER, [{"kind": "minor", "label": "unsling shield"},
                                        major("throw")], SETTINGS)
        assert made.minors == ("unsling shield",)
        assert offsets(made) == [("throw", 0)]

    def test_a_round_of_minor_actions_only_still_takes_its_turn(self):
        made = declare(HERO, MANEUVER, [{"kind": "minor", "label": "drop prone"}], SETTINGS)
        assert [(s.kind, s.label) for s in made.slots] == [("minor", "drop prone")]

    def test_running_uses_the_encumbered_pace(self):
        laden = combatant("oxa", "Oxa", "party", load=60)  # 10 x 0.4 = 4 yd per action
        made = declare(laden, MANEUVER, [{"kind": "run", "yards": 9}], SETTINGS)
        assert len(made.slots) == 3
        made = declare(laden, MANEUVER, [{"kind": "run", "yards": 9}],
                       Settings(pace_formula=PACE_IGNORED))
        assert len(made.slots) == 1

    def test_a_ride_uses_the_mounts_pace(self):
        made = declare(HERO, MANEUVER, [{"kind": "mount"},
                                        {"kind": "ride", "yards": 55, "mount_pace": 30}],
                       SETTINGS)
        assert [s.label for s in made.slots] == ["mount or dismount", "ride 55 yd (1 of 2)",
                                                 "ride 55 yd (2 of 2)"]
        assert [s.yards for s in made.slots] == [0, 30, 25]
        with pytest.raises(EncounterError, match="mount's pace"):
            declare(HERO, MANEUVER, [{"kind": "ride", "yards": 55}], SETTINGS)


class TestPenalty:
    @pytest.mark.parametrize(("counted", "penalty"), [(0, 0), (1, 0), (2, -2), (3, -4),
                                                        (6, -10)])
    def test_amb_h2_minus_two_per_action_past_the_first(self, counted, penalty):
        assert skill_penalty(counted) == penalty

    def test_amb_h3_movement_adds_no_skill_penalty(self):
        made = declare(HERO, MANEUVER, [{"kind": "run", "yards": 25}, major("swing")],
                       SETTINGS)
        assert counted_actions(made.slots, made.haste, SETTINGS) == 1

    def test_amb_h3_a_second_major_does(self):
        made = declare(HERO, MANEUVER, [{"kind": "run", "yards": 25}, {"kind": "defend"},
                                        major("swing")], SETTINGS)
        assert skill_penalty(counted_actions(made.slots, made.haste, SETTINGS)) == -2

    def test_amb_h4_haste_counts_toward_the_penalty(self):
        made = declare(HERO, MANEUVER, [{"kind": "haste"}, {"kind": "haste"},
                                        major("cut"), {"kind": "defend"}], SETTINGS)
        assert skill_penalty(counted_actions(made.slots, made.haste, SETTINGS)) == -6

    def test_amb_h11_defences_each_count_by_default(self):
        items = [major("cut"), {"kind": "defend"}, {"kind": "defend"}, {"kind": "defend"}]
        made = declare(HERO, MANEUVER, items, SETTINGS)
        assert skill_penalty(counted_actions(made.slots, 0, SETTINGS)) == -6
        cinematic = Settings(defence_counting=ONE_FOR_ALL)
        assert skill_penalty(counted_actions(made.slots, 0, cinematic)) == -2


class TestRefusals:
    def test_more_than_four_movement_actions(self):
        with pytest.raises(EncounterError, match="At most 4 movement actions") as error:
            declare(HERO, MANEUVER, [{"kind": "stand"}, {"kind": "run", "yards": 35}],
                    SETTINGS)
        assert error.value.field == "items"

    def test_four_are_fine(self):
        made = declare(HERO, MANEUVER, [{"kind": "stand"}, {"kind": "run", "yards": 30}],
                       SETTINGS)
        assert len(made.slots) == 4

    def test_skills_of_both_kinds(self):
        with pytest.raises(EncounterError, match="both kinds"):
            declare(HERO, MANEUVER, [major("cut"), major("ward", "mental")], SETTINGS)
        with pytest.raises(EncounterError, match="both kinds"):
            declare(HERO, CONCENTRATE, [major("cut")], SETTINGS)

    def test_a_major_without_a_skill_fits_either_mode(self):
        made = declare(HERO, CONCENTRATE, [major("hold the door", ""), major("curse",
                                                                            "mental")],
                       SETTINGS)
        assert len(made.slots) == 2

    def test_haste_needs_an_action_to_hurry(self):
        with pytest.raises(EncounterError, match="Haste"):
            declare(HERO, MANEUVER, [{"kind": "haste"}], SETTINGS)

    def test_round_zero_bystanders_only_defend(self):
        made = declare(HERO, MANEUVER, [{"kind": "defend"}], SETTINGS, defences_only=True)
        assert [s.kind for s in made.slots] == ["defend"]
        with pytest.raises(EncounterError, match="only defend"):
            declare(HERO, MANEUVER, [major()], SETTINGS, defences_only=True)

    @pytest.mark.parametrize("item", [
        {"kind": "fly"}, {"kind": "major", "skill": "spiritual"},
        {"kind": "major", "label": "x" * 61}, {"kind": "run", "yards": -4},
        {"kind": "run", "yards": "far"}, {"kind": "major", "rounds": 0},
        {"kind": "major", "rounds": 10**6}, {"kind": "major", "rating": "high"},
        {"kind": "defend", "rounds": 3}, "strike", {"kind": "major", "engrossing": "yes"},
        {"kind": "run", "yards": 0},
    ])
    def test_hostile_items(self, item):
        with pytest.raises(EncounterError):
            declare(HERO, MANEUVER, [item], SETTINGS)

    def test_bounds(self):
        with pytest.raises(EncounterError, match="At most 30 entries"):
            declare(HERO, MANEUVER, [{"kind": "minor"}] * 31, SETTINGS)
        with pytest.raises(EncounterError, match="At most 8"):
            declare(HERO, MANEUVER, [major()] * 9, SETTINGS)
        with pytest.raises(EncounterError, match="hastes"):
            declare(HERO, MANEUVER, [{"kind": "haste"}] * 7 + [major()], SETTINGS)
