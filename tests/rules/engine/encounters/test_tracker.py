"""Encounter rules (seed 004): the round tracker (H1-H7, H15-H20; AMB-H1, H5, H7, H10,
H11), driven through its events as the tracker stores them. Cases of our own design."""

import random

import pytest

from rules.engine.encounters.combatants import (
    ONE_FOR_ALL,
    OUR_SKILL_ROLL,
    EncounterError,
    Settings,
    check_skill_roll,
    combatant,
    roll_skill,
)
from rules.engine.encounters.tracker import (
    ACTION,
    INITIATIVE,
    RECOVERY,
    apply,
    fold,
    roll_initiative,
)

PEOPLE = [
    ("add", {"key": "tam", "name": "Tamsin", "side": "party", "quickness": 4,
             "command": 1, "stamina": 5, "stamina_max": 8}),
    ("add", {"key": "ivo", "name": "Ivo", "side": "party", "quickness": 1, "command": 5,
             "stamina": 6, "stamina_max": 6}),
    ("add", {"key": "grell", "name": "Grell", "side": "foes", "quickness": 3,
             "stamina": 3, "stamina_max": 9}),
    ("add", {"key": "skur", "name": "Skur", "side": "foes", "quickness": 2,
             "stamina": 2, "stamina_max": 4}),
]


def strike(label="strike", skill="physical", **more):
    return {"kind": "major", "label": label, "skill": skill, **more}


def rolled(tam=13, ivo=9, grell=11, skur=6, *, modes=None, settings=None, more=()):
    modes = modes or {}
    events = [*PEOPLE, ("start", {})]
    for key, roll in (("tam", tam), ("ivo", ivo), ("grell", grell), ("skur", skur)):
        mode = modes.get(key, "concentrate" if key == "ivo" else "maneuver")
        events.append(("initiative", {"key": key, "mode": mode, "roll": roll}))
    return fold([*events, *more], settings)


def acting(*more, settings=None, **rolls):
    return run(rolled(settings=settings, **rolls), ("begin_actions", {}), *more)


def run(state, *events):
    for kind, payload in events:
        state = apply(state, kind, payload)
    return state


def order(state):
    return [(e.actor, e.label, e.initiative) for e in state.queue()]


def said(state):
    return state.log[-1].text


class TestInitiativePhase:
    def test_the_mode_names_the_skill_rolled(self):
        state = rolled()
        assert "Tamsin will maneuver (Quickness): rolls 13" in state.log[-4].text
        assert "Ivo will concentrate (Command): rolls 9" in state.log[-3].text

    def test_amb_h1_rolled_with_the_campaign_formula(self):
        """AMB-H1: the dice are the campaign's; our default is 2d6 plus the skill."""
        state = fold([*PEOPLE, ("start", {})])
        payload = roll_initiative(state, "ivo", "concentrate", random.Random(11))
        again = roll_initiative(state, "ivo", "concentrate", random.Random(11))
        assert payload == again
        assert payload["dice"].startswith("2d6 (") and payload["dice"].endswith(
            f"+ (5) = {payload['roll']}")
        assert 7 <= payload["roll"] <= 17
        state = apply(state, "initiative", payload)
        assert f"rolls {payload['roll']} [2d6" in said(state)

    def test_a_campaign_formula_of_its_own(self):
        state = fold([*PEOPLE, ("start", {})], Settings(skill_roll="1d20 + skill"))
        payload = roll_initiative(state, "tam", "maneuver", random.Random(2))
        assert payload["dice"].startswith("1d20")
        assert 5 <= payload["roll"] <= 24

    @pytest.mark.parametrize("formula", ["", "skill+skill", "2d6+", "d", "x" * 70, None])
    def test_bad_formulas(self, formula):
        with pytest.raises(EncounterError) as error:
            check_skill_roll(formula)
        assert error.value.field == "skill_roll"

    def test_our_default_formula(self):
        assert OUR_SKILL_ROLL == "2d6+skill"
        assert roll_skill(OUR_SKILL_ROLL, -3, random.Random(1)).text.startswith("2d6")

    def test_the_guides_bonus_or_penalty(self):
        state = rolled(more=[("initiative", {"key": "skur", "mode": "maneuver", "roll": 6,
                                             "bonus": -2})])
        assert "Guide's penalty -2" in said(state)
        state = run(state, ("begin_actions", {}))
        assert [e for e in state.queue() if e.actor == "skur"][0].initiative == 4

    def test_changing_mode_clears_the_declaration(self):
        state = rolled(more=[("declare", {"key": "tam", "items": [strike()]}),
                             ("initiative", {"key": "tam", "mode": "concentrate",
                                             "roll": 7})])
        assert not state.fighter("tam").turn.declared

    def test_the_action_phase_needs_every_roll(self):
        state = fold([*PEOPLE, ("start", {}),
                      ("initiative", {"key": "tam", "mode": "maneuver", "roll": 5})])
        with pytest.raises(EncounterError, match="Ivo has no mode"):
            apply(state, "begin_actions", {})
        with pytest.raises(EncounterError, match="Enter the Initiative roll") as error:
            apply(state, "initiative", {"key": "ivo", "mode": "concentrate"})
        assert error.value.field == "roll"


class TestQueue:
    def test_highest_first_with_each_later_action_two_lower(self):
        state = acting(("declare", {"key": "tam", "items": [strike("cut"),
                                                            strike("cut again")]}))
        # Tied at 11: join order until the Guide picks (AMB-H5).
        assert order(state) == [("tam", "cut", 13), ("tam", "cut again", 11),
                                ("grell", "to declare", 11), ("ivo", "to declare", 9),
                                ("skur", "to declare", 6)]

    def test_haste_and_a_run_move_the_slots(self):
        state = acting(("declare", {"key": "skur", "items": [
            {"kind": "haste"}, {"kind": "haste"}, {"kind": "haste"},
            {"kind": "run", "yards": 7}, strike("bite", rating=5)]}), tam=10)
        mine = [(e.label, e.initiative) for e in state.queue() if e.actor == "skur"]
        assert mine == [("run 7 yd", 12), ("bite", 10)]
        assert state.penalty("skur") == -6
        state = run(state, ("take", {"key": "skur"}), ("declare", {"key": "tam", "items": [
            strike()]}))
        with pytest.raises(EncounterError, match="Not Tamsin's turn"):
            apply(state, "take", {"key": "tam"})

    def test_each_initiative_shows_its_arithmetic(self):
        state = rolled(more=[
            ("initiative", {"key": "skur", "mode": "maneuver", "roll": 6, "bonus": -1}),
            ("declare", {"key": "skur", "items": [
                {"kind": "haste"}, {"kind": "stand"}, strike("bite"), strike("rake")]})])
        turn = state.fighter("skur").turn
        assert [turn.explain(s) for s in turn.slots] == [
            "roll 6 - Guide 1 + haste 2 x 1 = 7",
            "roll 6 - Guide 1 + haste 2 x 1 - 2 x 1 earlier = 5",
            "roll 6 - Guide 1 + haste 2 x 1 - 2 x 2 earlier = 3"]
        assert state.fighter("tam").turn.explain() == "roll 13"

    def test_the_skill_penalty_is_shown_when_a_skill_is_used(self):
        state = acting(("declare", {"key": "tam", "items": [
            {"kind": "haste"}, strike("cut", rating=6)]}), ("take", {"key": "tam"}))
        assert said(state) == ("Tamsin: cut at Initiative 15, physical skill -2 "
                               "(6 -2 = 4) (with 1 haste).")

    def test_amb_h5_the_guide_orders_ties(self):
        """AMB-H5: tied Initiatives are all at the head; the Guide takes either first."""
        state = acting(grell=13, more=())
        state = run(state, ("declare", {"key": "tam", "items": [strike()]}),
                    ("declare", {"key": "grell", "items": [strike("claw")]}))
        assert {e.actor for e in state.head()} == {"tam", "grell"}
        state = run(state, ("take", {"key": "grell"}), ("take", {"key": "tam"}))
        assert [e.actor for e in state.log[-2:]] == ["grell", "tam"]

    def test_declare_before_taking_and_the_declaration_then_stands(self):
        state = acting()
        with pytest.raises(EncounterError, match="must declare") as error:
            apply(state, "take", {"key": "tam"})
        assert error.value.field == "items"
        state = run(state, ("declare", {"key": "tam", "items": [strike(), strike()]}),
                    ("take", {"key": "tam"}))
        with pytest.raises(EncounterError, match="declaration stands"):
            apply(state, "declare", {"key": "tam", "items": [strike()]})

    def test_the_phase_ends_when_the_queue_is_empty(self):
        state = acting()
        with pytest.raises(EncounterError, match="still has"):
            apply(state, "end_actions", {})
        for key in ("tam", "grell", "ivo", "skur"):
            items = [strike("hex", "mental")] if key == "ivo" else [strike()]
            state = run(state, ("declare", {"key": key, "items": items}),
                        ("take", {"key": key}))
        state = run(state, ("end_actions", {}))
        assert state.phase == RECOVERY


class TestWaiting:
    def test_step_in_mid_action_ahead_of_a_lower_roll(self):
        """H15: the waiter goes between the slots of someone who rolled lower."""
        state = acting(("wait", {"key": "tam"}), ("declare", {"key": "grell", "items": [
            {"kind": "run", "yards": 18}, strike("claw")]}), ("take", {"key": "grell"}),
            ivo=5)
        assert state.may_step_in("tam")
        state = run(state, ("step_in", {"key": "tam"}))
        assert said(state) == "Tamsin stops waiting and acts, before Grell's run 18 yd (2 of 2)."
        state = run(state, ("declare", {"key": "tam", "items": [strike()]}),
                    ("take", {"key": "tam"}), ("take", {"key": "grell"}),
                    ("take", {"key": "grell"}))
        assert [e.actor for e in state.log if e.kind == "take"] == [
            "grell", "tam", "grell", "grell"]

    def test_where_a_waiter_may_step_in(self):
        state = acting(("declare", {"key": "grell", "items": [strike(), strike()]}),
                       ("take", {"key": "grell"}), ("wait", {"key": "ivo"}), tam=10,
                       grell=14, ivo=13, skur=3)
        # Ivo waited at 13: every slot left comes lower, even Grell's second strike
        # (Grell rolled 14, but that strike comes at 12): waiting costs nothing (ENC-2).
        assert [(e.actor, e.initiative) for e in state.queue()] == [
            ("grell", 12), ("tam", 10), ("skur", 3)]
        assert [e.actor for e in state.step_in_points("ivo")] == ["grell", "tam", "skur"]
        assert state.may_step_in("ivo")
        assert state.step_in_points("tam") == ()  # not waiting

    def test_never_ahead_of_an_equal_initiative(self):
        state = acting(grell=13)
        state = run(state, ("wait", {"key": "tam"}))
        assert not state.may_step_in("tam")  # Grell's turn is at 13, as high as Tamsin's
        state = run(state, ("declare", {"key": "grell", "items": [strike(), strike()]}))
        with pytest.raises(EncounterError, match="comes at 13") as error:
            apply(state, "step_in", {"key": "tam"})
        assert error.value.field == "key"
        # Grell's second strike comes at 11: lower than Tamsin's 13.
        state = run(state, ("take", {"key": "grell"}), ("step_in", {"key": "tam"}))
        assert said(state) == "Tamsin stops waiting and acts, before Grell's strike."

    def test_held_over_combatants_go_ahead_of_any_roll(self):
        state = acting(("wait", {"key": "tam"}), ("hold", {"key": "tam"}),
                       ("wait", {"key": "grell"}))
        for key in ("ivo", "skur"):
            items = [strike("hex", "mental")] if key == "ivo" else [strike()]
            state = run(state, ("declare", {"key": key, "items": items}),
                        ("take", {"key": key}))
        state = run(state, ("end_actions", {}), ("recover", {}))
        # Tamsin and Grell held (a waiting game); Skur rolls 25, still behind them.
        state = run(state, ("initiative", {"key": "tam", "mode": "maneuver", "roll": 1}),
                    ("initiative", {"key": "grell", "mode": "maneuver", "roll": 2}),
                    ("initiative", {"key": "ivo", "mode": "concentrate", "roll": 3}),
                    ("initiative", {"key": "skur", "mode": "maneuver", "roll": 25}),
                    ("begin_actions", {}))
        assert [e.actor for e in state.queue()] == ["grell", "tam", "skur", "ivo"]
        state = run(state, ("declare", {"key": "grell", "items": [strike()]}),
                    ("take", {"key": "grell"}), ("declare", {"key": "tam", "items": [
                        strike()]}), ("take", {"key": "tam"}), ("wait", {"key": "skur"}))
        assert state.may_step_in("skur")  # before Ivo's 3

    def test_wait_only_at_ones_turn_and_before_acting(self):
        state = acting()
        with pytest.raises(EncounterError, match="Not Skur's turn"):
            apply(state, "wait", {"key": "skur"})
        state = run(state, ("declare", {"key": "tam", "items": [strike(), strike()]}),
                    ("take", {"key": "tam"}),
                    ("declare", {"key": "grell", "items": [strike()]}))
        with pytest.raises(EncounterError, match="begun its turn"):
            run(state, ("take", {"key": "grell"}), ("wait", {"key": "tam"}))

    def test_with_everyone_else_done_a_waiter_acts_when_it_likes(self):
        state = acting(("wait", {"key": "tam"}))
        for key in ("grell", "ivo", "skur"):
            items = [strike("hex", "mental")] if key == "ivo" else [strike()]
            state = run(state, ("declare", {"key": key, "items": items}),
                        ("take", {"key": key}))
        assert state.queue() == () and state.may_step_in("tam")

    def test_a_lone_waiter_that_does_not_hold_loses_its_action(self):
        state = acting(("wait", {"key": "tam"}))
        for key in ("grell", "ivo", "skur"):
            items = [strike("hex", "mental")] if key == "ivo" else [strike()]
            state = run(state, ("declare", {"key": key, "items": items}),
                        ("take", {"key": key}))
        state = run(state, ("end_actions", {}))
        assert "Tamsin waited without acting" in state.log[-2].text

    def test_hold_into_the_next_round_goes_first_without_a_roll(self):
        state = acting(("wait", {"key": "tam"}),
                       ("hold", {"key": "tam"}))
        assert not state.may_step_in("tam")
        for key in ("grell", "ivo", "skur"):
            items = [strike("hex", "mental")] if key == "ivo" else [strike()]
            state = run(state, ("declare", {"key": key, "items": items}),
                        ("take", {"key": key}))
        state = run(state, ("end_actions", {}), ("recover", {}))
        assert state.round == 2 and state.phase == INITIATIVE
        state = run(state, ("initiative", {"key": "tam", "mode": "maneuver"}),
                    ("initiative", {"key": "grell", "mode": "maneuver", "roll": 30}),
                    ("initiative", {"key": "ivo", "mode": "concentrate", "roll": 2}),
                    ("initiative", {"key": "skur", "mode": "maneuver", "roll": 3}),
                    ("begin_actions", {}))
        assert state.queue()[0].actor == "tam"
        # No extra actions: one turn, like everyone's.
        state = run(state, ("declare", {"key": "tam", "items": [strike()]}))
        assert [e.actor for e in state.queue()].count("tam") == 1

    def test_amb_h10_several_hold_overs_go_by_their_new_rolls(self):
        state = acting(("wait", {"key": "tam"}), ("hold", {"key": "tam"}),
                       ("declare", {"key": "grell", "items": [strike()]}),
                       ("wait", {"key": "grell"}), ("hold", {"key": "grell"}))
        for key in ("ivo", "skur"):
            items = [strike("hex", "mental")] if key == "ivo" else [strike()]
            state = run(state, ("declare", {"key": key, "items": items}),
                        ("take", {"key": key}))
        state = run(state, ("end_actions", {}), ("recover", {}),
                    ("initiative", {"key": "tam", "mode": "maneuver", "roll": 8}),
                    ("initiative", {"key": "grell", "mode": "maneuver", "roll": 10}),
                    ("initiative", {"key": "ivo", "mode": "concentrate", "roll": 40}),
                    ("initiative", {"key": "skur", "mode": "maneuver", "roll": 3}),
                    ("begin_actions", {}))
        assert [e.actor for e in state.queue()] == ["grell", "tam", "ivo", "skur"]

    def test_the_waiting_game(self):
        """H16: everyone left waits: the round ends; OK participants get a Stamina hit
        (even one who defended: AMB reading ENC-4) and go first next round."""
        state = acting(
            ("declare", {"key": "tam", "items": [strike(), {"kind": "defend"}]}),
            ("wait", {"key": "tam"}), ("wait", {"key": "grell"}))
        for key in ("ivo", "skur"):
            items = [strike("hex", "mental")] if key == "ivo" else [strike()]
            state = run(state, ("declare", {"key": key, "items": items}),
                        ("take", {"key": key}))
        state = run(state, ("defend", {"key": "tam", "skill": "physical"}),
                    ("end_actions", {}))
        assert "The waiting game: Tamsin, Grell" in state.log[-2].text
        state = run(state, ("recover", {}))
        assert state.fighter("tam").combatant.stamina == 6
        assert state.fighter("grell").combatant.stamina == 4
        assert {f.key for f in state.fighters if f.turn.tier} == {"tam", "grell"}


class TestDefenceOutOfTurn:
    def test_same_kind_declares_first_then_uses_a_declared_defence(self):
        state = acting()
        with pytest.raises(EncounterError, match="must declare all") as error:
            apply(state, "defend", {"key": "skur", "skill": "physical"})
        assert error.value.field == "items"
        state = run(state, ("declare", {"key": "skur", "items": [
            {"kind": "defend"}, strike("bite")]}),
                    ("defend", {"key": "skur", "skill": "physical"}))
        assert said(state) == "Skur defends out of turn: Defense -2."
        # Its bite still comes at its Initiative, two lower.
        assert [(e.label, e.initiative) for e in state.queue() if e.actor == "skur"] == [
            ("bite", 4)]
        with pytest.raises(EncounterError, match="no defence left"):
            apply(state, "defend", {"key": "skur", "skill": "physical"})

    def test_amb_h11_one_for_all(self):
        state = acting(("declare", {"key": "skur", "items": [
            {"kind": "defend"}, strike("bite")]}),
            ("defend", {"key": "skur", "skill": "physical"}),
            ("defend", {"key": "skur", "skill": "physical"}),
            ("defend", {"key": "skur", "skill": "physical"}),
            settings=Settings(defence_counting=ONE_FOR_ALL))
        assert state.penalty("skur") == -2

    def test_other_kind_aborts_the_rest_of_the_turn(self):
        state = acting(("declare", {"key": "ivo", "items": [strike("hex", "mental"),
                                                            strike("curse", "mental")]}),
                       ("defend", {"key": "ivo", "skill": "physical"}))
        assert said(state) == ("Ivo defends out of turn: Defense +0, of the other kind: "
                               "aborts hex, curse.")
        assert all(e.actor != "ivo" for e in state.queue())
        assert state.fighter("ivo").turn.mode == "maneuver"

    def test_other_kind_before_declaring_aborts_the_turn(self):
        state = acting(("defend", {"key": "ivo", "skill": "physical"}))
        assert "aborts its turn" in said(state)
        assert all(e.actor != "ivo" for e in state.queue())

    def test_after_an_abort_further_defences_count(self):
        state = acting(("defend", {"key": "ivo", "skill": "physical"}),
                       ("defend", {"key": "ivo", "skill": "physical"}))
        assert state.penalty("ivo") == -2

    def test_an_engrossing_action_allows_no_defence(self):
        state = acting(("declare", {"key": "tam", "items": [
            strike("turn the winch", "", rounds=3, engrossing=True)]}),
            ("take", {"key": "tam"}))
        with pytest.raises(EncounterError, match="engrossed"):
            apply(state, "defend", {"key": "tam", "skill": "physical"})

    def test_after_an_abort_the_other_kind_is_refused(self):
        """Seed 004's Marcos: concentrating, he defends against a sword and aborts his
        spell; his round is physical now, so no Defiance after that (H2: never both)."""
        state = acting(("declare", {"key": "ivo", "items": [strike("psiblast", "mental")]}),
                       ("defend", {"key": "ivo", "skill": "physical"}))
        with pytest.raises(EncounterError, match="never both") as error:
            apply(state, "defend", {"key": "ivo", "skill": "mental"})
        assert error.value.field == "skill"
        state = run(state, ("defend", {"key": "ivo", "skill": "physical"}))
        assert said(state) == "Ivo defends out of turn: Defense -2."

    def test_after_its_turn_began_the_other_kind_is_refused(self):
        """Maneuvering, Tamsin strikes at her Initiative; a spell then comes at her: she has
        used a physical skill this round and cannot defend with a mental one (the abort
        is for a combatant attacked before its turn)."""
        state = acting(("declare", {"key": "tam", "items": [strike("slash")]}),
                       ("take", {"key": "tam"}))
        with pytest.raises(EncounterError, match="already used physical skills"):
            apply(state, "defend", {"key": "tam", "skill": "mental"})
        assert [s.status for s in state.fighter("tam").turn.slots] == ["done"]

    def test_a_same_kind_defence_then_no_other_kind(self):
        state = acting(("declare", {"key": "skur", "items": [
            {"kind": "defend"}, {"kind": "defend"}, strike("bite")]}),
            ("defend", {"key": "skur", "skill": "physical"}))
        with pytest.raises(EncounterError, match="never both"):
            apply(state, "defend", {"key": "skur", "skill": "mental"})

    def test_a_one_round_engrossing_action_allows_no_defence_once_taken(self):
        state = acting(("declare", {"key": "tam", "items": [
            {"kind": "defend"}, strike("lift the portcullis", "", engrossing=True)]}),
            ("defend", {"key": "tam", "skill": "physical"}))
        state = run(state, ("take", {"key": "tam"}))
        assert "lift the portcullis" in said(state)
        with pytest.raises(EncounterError, match="engrossed in lift the portcullis"):
            apply(state, "defend", {"key": "tam", "skill": "physical"})

    @pytest.mark.parametrize("skill", ["", "spiritual", None, 3])
    def test_hostile_skill(self, skill):
        with pytest.raises(EncounterError):
            apply(acting(), "defend", {"key": "tam", "skill": skill})


class TestHarm:
    def test_knocked_out_before_its_turn_loses_it(self):
        state = acting(("declare", {"key": "skur", "items": [strike("bite")]}),
                       ("knock_out", {"key": "skur"}))
        assert said(state) == "Skur is knocked out and loses bite."
        assert all(e.actor != "skur" for e in state.queue())
        with pytest.raises(EncounterError, match="down"):
            apply(state, "defend", {"key": "skur", "skill": "physical"})

    def test_revived_the_same_round_it_does_not_get_its_turn_back(self):
        state = acting(("knock_out", {"key": "skur"}), ("revive", {"key": "skur"}))
        assert all(e.actor != "skur" for e in state.queue())
        with pytest.raises(EncounterError, match="lost its turn"):
            apply(state, "declare", {"key": "skur", "items": [strike()]})
        with pytest.raises(EncounterError, match="lost its turn"):
            apply(state, "defend", {"key": "skur", "skill": "physical"})
        state = run(state, ("knock_out", {"key": "tam"}), ("knock_out", {"key": "ivo"}),
                    ("knock_out", {"key": "grell"}), ("end_actions", {}), ("recover", {}),
                    ("initiative", {"key": "skur", "mode": "maneuver", "roll": 2}),
                    ("begin_actions", {}))
        assert [e.actor for e in state.queue()] == ["skur"]

    def test_undeclared_and_knocked_to_zero_health(self):
        state = acting(("damage", {"key": "skur", "track": "health", "amount": 1}))
        assert said(state) == "Skur is down and loses its turn."

    def test_a_multi_round_action_fails_on_any_damage(self):
        state = acting(("declare", {"key": "tam", "items": [
            strike("force the chest open", "", rounds=2)]}), ("take", {"key": "tam"}))
        assert state.fighter("tam").project.last_round == 2
        state = run(state, ("damage", {"key": "tam", "track": "stamina", "amount": 1}))
        assert state.fighter("tam").project is None
        assert "force the chest open fails" in said(state)

    def test_a_multi_round_action_fails_when_knocked_out(self):
        state = acting(("declare", {"key": "tam", "items": [
            strike("force the chest open", "", rounds=2)]}), ("take", {"key": "tam"}),
            ("knock_out", {"key": "tam"}))
        assert state.fighter("tam").project is None
        assert said(state) == ("Tamsin's force the chest open fails: knocked out before "
                               "it was done.")

    def test_a_multi_round_action_completes_at_its_last_recovery(self):
        state = acting(("declare", {"key": "tam", "items": [
            strike("force the chest open", "", rounds=2)]}), ("take", {"key": "tam"}))
        for key in ("grell", "ivo", "skur"):
            items = [strike("hex", "mental")] if key == "ivo" else [strike()]
            state = run(state, ("declare", {"key": key, "items": items}),
                        ("take", {"key": key}))
        state = run(state, ("end_actions", {}), ("recover", {}))
        assert state.fighter("tam").project is not None
        state = run(state, *[("initiative", {"key": k, "mode": "maneuver", "roll": 5})
                             for k in ("tam", "grell", "ivo", "skur")],
                    ("begin_actions", {}), ("wait", {"key": "tam"}),
                    ("wait", {"key": "grell"}), ("wait", {"key": "ivo"}),
                    ("wait", {"key": "skur"}), ("end_actions", {}), ("recover", {}))
        assert state.fighter("tam").project is None
        assert any("Tamsin completes force the chest open" in e.text for e in state.log)

    def test_pushing_power_lasts_one_round(self):
        state = acting(("push", {"key": "tam", "hits": 2}))
        tam = state.fighter("tam")
        assert (tam.strength, tam.willpower, tam.combatant.stamina) == (2, 2, 3)
        assert "Strength 0 + 2 = 2" in said(state)
        state = run(state, ("push", {"key": "tam", "hits": 1}))
        assert state.fighter("tam").strength == 3
        state = run(state, ("knock_out", {"key": "grell"}), ("knock_out", {"key": "ivo"}),
                    ("knock_out", {"key": "skur"}), ("wait", {"key": "tam"}),
                    ("end_actions", {}), ("recover", {}))
        assert state.fighter("tam").strength == 0

    def test_pushing_to_zero_collapses(self):
        state = acting(("declare", {"key": "skur", "items": [strike()]}),
                       ("push", {"key": "skur", "hits": 2}))
        assert state.fighter("skur").down
        assert said(state) == "Skur is exhausted and loses strike."
        with pytest.raises(EncounterError, match="down"):
            apply(state, "push", {"key": "skur", "hits": 1})

    def test_charge_yards_count_what_was_run(self):
        state = acting(("declare", {"key": "tam", "items": [
            {"kind": "run", "yards": 23}, strike()]}), ("take", {"key": "tam"}))
        assert state.charge_yards("tam") == 10
        state = run(state, ("declare", {"key": "grell", "items": [strike()]}),
                    ("take", {"key": "tam"}))
        assert state.charge_yards("tam") == 20
        with pytest.raises(EncounterError, match="not used"):
            state.momentum("tam")

    def test_charge_momentum_when_the_campaign_uses_it(self):
        state = acting(("declare", {"key": "tam", "items": [
            {"kind": "run", "yards": 34}, strike()]}),
            settings=Settings(charge_momentum=True), tam=30)
        for _ in range(4):
            state = run(state, ("take", {"key": "tam"}))
        assert state.momentum("tam").value == 3


class TestRecovery:
    def test_who_recovers_a_stamina_hit(self):
        """H20 with AMB-H7: no action, OK on Health and Sanity, no damage: +1 Stamina."""
        events = [*PEOPLE,
                  ("add", {"key": "vey", "name": "Vey", "side": "party", "stamina": 1,
                           "stamina_max": 5, "health": 3, "health_max": 4}),
                  ("start", {})]
        events += [("initiative", {"key": k, "mode": "maneuver", "roll": r}) for k, r in (
            ("tam", 9), ("ivo", 8), ("grell", 7), ("skur", 6), ("vey", 5))]
        state = fold([*events, ("begin_actions", {}),
                      ("declare", {"key": "tam", "items": [strike()]}),
                      ("take", {"key": "tam"}),  # acted: no recovery
                      ("declare", {"key": "ivo", "items": []}),  # passes; at maximum
                      ("wait", {"key": "grell"}), ("hold", {"key": "grell"}),
                      ("damage", {"key": "skur", "track": "sanity", "amount": 1}),
                      ])
        # Skur was hurt; Vey is not OK on Health; Grell held and is OK: recovers.
        state = run(state, ("knock_out", {"key": "skur"}), ("declare", {"key": "vey",
                                                                          "items": []}),
                    ("end_actions", {}))
        assert [f.key for f in state.fighters if state.recovers(f.key)] == ["grell"]
        state = run(state, ("recover", {}))
        assert said(state) == "Round 2 begins: Initiative."
        assert state.log[-2].text == "Recovery: Grell recovers a Stamina hit."
        assert state.fighter("grell").combatant.stamina == 4
        assert state.fighter("tam").combatant.stamina == 5
        assert state.fighter("vey").combatant.stamina == 1

    def test_recovery_stops_at_the_maximum(self):
        state = acting(("damage", {"key": "ivo", "track": "stamina", "amount": 1}))
        assert not state.recovers("ivo")  # damaged (and at its maximum anyway)
        state = run(state, ("heal", {"key": "ivo", "track": "stamina", "amount": 1}))
        assert state.fighter("ivo").combatant.stamina == 6
        state = run(state, ("knock_out", {"key": "tam"}), ("knock_out", {"key": "grell"}),
                    ("knock_out", {"key": "skur"}), ("wait", {"key": "ivo"}),
                    ("end_actions", {}), ("recover", {}))
        assert state.fighter("ivo").combatant.stamina == 6  # already at its maximum


class TestRoundZero:
    def zero(self, surprised=(), before=()):
        return fold([*PEOPLE, ("start", {"round_zero": True, "initiators": ["grell"],
                                         "surprised": list(surprised)}),
                     ("initiative", {"key": "grell", "mode": "maneuver"}),
                     ("declare", {"key": "grell", "items": [strike("ambush")]}),
                     *before, ("begin_actions", {})])

    def test_only_the_initiators_act_without_rolling(self):
        state = self.zero()
        assert [e.actor for e in state.queue()] == ["grell"]
        assert "Round zero: Grell starts the fight." in state.log[-4].text

    def test_the_others_may_defend(self):
        state = run(self.zero(), ("defend", {"key": "tam", "skill": "physical"}))
        assert "Tamsin defends out of turn" in said(state)

    def test_a_declared_defence_is_used_not_doubled(self):
        state = self.zero(before=[
            ("initiative", {"key": "ivo", "mode": "concentrate"}),
            ("declare", {"key": "ivo", "items": [{"kind": "defend"}]})])
        state = run(state, ("defend", {"key": "ivo", "skill": "mental"}))
        assert state.penalty("ivo") == 0
        with pytest.raises(EncounterError, match="no defence left"):
            apply(state, "defend", {"key": "ivo", "skill": "mental"})

    def test_the_others_declare_nothing_but_defences(self):
        with pytest.raises(EncounterError, match="only defend"):
            self.zero(before=[("initiative", {"key": "tam", "mode": "maneuver"}),
                              ("declare", {"key": "tam", "items": [strike()]})])

    def test_a_completely_surprised_side_may_not_even_defend(self):
        state = self.zero(surprised=["party"])
        with pytest.raises(EncounterError, match="not even a defence"):
            apply(state, "defend", {"key": "tam", "skill": "physical"})
        with pytest.raises(EncounterError, match="surprised"):
            apply(state, "declare", {"key": "ivo", "items": []})
        assert "party completely surprised" in state.log[-4].text

    def test_round_one_follows_with_rolls_for_everyone(self):
        state = run(self.zero(surprised=["party"]), ("take", {"key": "grell"}),
                    ("end_actions", {}), ("recover", {}))
        assert state.round == 1
        with pytest.raises(EncounterError, match="Enter the Initiative roll"):
            apply(state, "initiative", {"key": "grell", "mode": "maneuver"})

    @pytest.mark.parametrize(("payload", "message"), [
        ({"round_zero": True}, "Name who starts"),
        ({"round_zero": True, "initiators": ["nobody"]}, "No combatant"),
        ({"round_zero": True, "initiators": ["grell"], "surprised": ["foes"]},
         "cannot be surprised"),
        ({"round_zero": True, "initiators": ["grell"], "surprised": ["elves"]}, "No side"),
        ({"initiators": ["grell"]}, "round zero"),
        ({"round_zero": True, "initiators": "grell"}, "list of names"),
        ({"round_zero": "yes", "initiators": ["grell"]}, "yes or no"),
    ])
    def test_refusals(self, payload, message):
        with pytest.raises(EncounterError, match=message):
            fold([*PEOPLE, ("start", payload)])


class TestEvents:
    SCRIPT = [*PEOPLE, ("start", {}),
              ("initiative", {"key": "tam", "mode": "maneuver", "roll": 12}),
              ("initiative", {"key": "ivo", "mode": "concentrate", "roll": 10}),
              ("initiative", {"key": "grell", "mode": "maneuver", "roll": 8}),
              ("initiative", {"key": "skur", "mode": "maneuver", "roll": 4}),
              ("begin_actions", {}),
              ("declare", {"key": "tam", "items": [strike()]}),
              ("take", {"key": "tam"})]

    def test_state_is_the_fold_of_its_events_and_undo_drops_the_last(self):
        state = fold(self.SCRIPT)
        assert fold(self.SCRIPT) == state
        undone = fold(self.SCRIPT[:-1])
        assert undone.fighter("tam").turn.started is False
        assert undone.queue()[0].actor == "tam"

    @pytest.mark.parametrize(("kind", "payload"), [
        ("teleport", {}),
        ("take", {}),
        ("take", {"key": 7}),
        ("take", {"key": "nobody"}),
        ("damage", {"key": "tam", "track": "luck", "amount": 1}),
        ("damage", {"key": "tam", "track": "health", "amount": 10**9}),
        ("damage", {"key": "tam", "track": "health", "amount": "1; drop"}),
        ("damage", {"key": "tam", "track": "health", "amount": 0}),
        ("push", {"key": "tam", "hits": 99}),
        ("declare", {"key": "ivo", "items": "strike"}),
        ("declare", {"key": "ivo", "items": [{"kind": "major", "skill": "physical"}]}),
        ("initiative", {"key": "tam", "mode": "maneuver", "roll": 3}),
        ("add", {"key": "tam", "name": "Tamsin again", "side": "party"}),
        ("recover", {}),
        ("take", None),
        ("take", ["tam"]),
        (None, {}),
    ])
    def test_hostile_events_are_refused_with_a_message(self, kind, payload):
        with pytest.raises(EncounterError) as error:
            apply(fold(self.SCRIPT), kind, payload)
        assert error.value.message

    def test_numbers_typed_as_text(self):
        assert combatant("x", "X", "foes", quickness=" -3 ", command="+4").command == 4
        assert combatant("x", "X", "foes", quickness=" -3 ").quickness == -3

    @pytest.mark.parametrize("numbers", [
        {"quickness": "--5"}, {"quickness": "+"}, {"quickness": "1e3"},
        {"quickness": "١٢"}, {"quickness": 2.0}, {"quickness": None},
        {"stamina": 9, "stamina_max": 4}, {"stamina_max": 0}, {"quickness": "fast"},
        {"load": 140}, {"luck": 3}, {"health": 10**7}, {"stamina": -1},
    ])
    def test_hostile_combatants(self, numbers):
        with pytest.raises(EncounterError):
            combatant("x", "X", "foes", **numbers)

    @pytest.mark.parametrize("fields", [{"name": ""}, {"side": " "}, {"name": "n" * 61}])
    def test_names_and_sides(self, fields):
        data = {"key": "x", "name": "X", "side": "foes", **fields}
        with pytest.raises(EncounterError):
            combatant(data.pop("key"), data.pop("name"), data.pop("side"))

    @pytest.mark.parametrize("settings", [
        {"defence_counting": "never"}, {"pace_formula": "cubic"}, {"charge_momentum": "yes"},
        {"skill_roll": "9d"},
    ])
    def test_hostile_settings(self, settings):
        with pytest.raises(EncounterError):
            Settings(**settings)

    def test_settings_live_in_the_ledger(self):
        state = fold([("configure", {"defence_counting": "one_for_all",
                                     "charge_momentum": True}), *self.SCRIPT])
        assert state.settings == Settings(defence_counting=ONE_FOR_ALL,
                                          charge_momentum=True)
        assert state.log[0].text == ("Settings: skill roll 2d6+skill, defences one for "
                                     "all, charge momentum on, pace linear.")
        with pytest.raises(EncounterError, match="Setup phase"):
            apply(state, "configure", {"charge_momentum": False})
        with pytest.raises(EncounterError, match="Unknown setting"):
            fold([("configure", {"luck": 3})])
        with pytest.raises(EncounterError, match="Defence counting"):
            fold([("configure", {"defence_counting": "never"})])

    def test_at_most_sixty_combatants(self):
        events = [("add", {"key": f"k{n}", "name": f"N{n}", "side": "foes"})
                  for n in range(60)]
        state = fold(events)
        with pytest.raises(EncounterError, match="At most 60"):
            apply(state, "add", {"key": "one more", "name": "More", "side": "foes"})

    def test_phases(self):
        state = fold(self.SCRIPT)
        assert state.phase == ACTION
        with pytest.raises(EncounterError, match="Initiative phase"):
            apply(state, "initiative", {"key": "tam", "mode": "maneuver", "roll": 1})
        with pytest.raises(EncounterError, match="Setup phase"):
            apply(state, "remove", {"key": "tam"})
        ended = apply(state, "end", {})
        with pytest.raises(EncounterError):
            apply(ended, "take", {"key": "ivo"})


class TestView:
    def test_a_combatants_numbers_for_the_screen(self):
        state = acting(("declare", {"key": "skur", "items": [
            {"kind": "haste"}, {"kind": "stand"}, strike("bite", rating=3)]}),
            ("push", {"key": "skur", "hits": 1}), skur=5)
        view = state.view("skur")
        assert (view.mode, view.initiative_skill, view.skill) == ("maneuver", "Quickness", 2)
        assert (view.initiative, view.arithmetic) == (7, "roll 5 + haste 2 x 1 = 7")
        assert view.penalty == -2
        assert [(s.label, s.initiative, s.arithmetic) for s in view.slots] == [
            ("stand up", 7, "roll 5 + haste 2 x 1 = 7"),
            ("bite", 5, "roll 5 + haste 2 x 1 - 2 x 1 earlier = 5")]
        assert (view.strength, view.willpower, view.pushed) == (1, 1, 1)
        assert view.stamina == (1, 4) and view.ok
        assert view.standing == "to act"

    @pytest.mark.parametrize(("events", "standing"), [
        ((), "to declare"),
        ((("wait", {"key": "tam"}),), "waiting"),
        ((("wait", {"key": "tam"}), ("hold", {"key": "tam"})), "holds its action"),
        ((("defend", {"key": "tam", "skill": "mental"}),), "aborted"),
        ((("knock_out", {"key": "tam"}),), "out"),
        ((("declare", {"key": "tam", "items": [strike()]}), ("take", {"key": "tam"})),
         "done"),
        ((("declare", {"key": "tam", "items": []}),), "no action"),
    ])
    def test_where_its_round_stands(self, events, standing):
        assert acting(*events).view("tam").standing == standing

    def test_before_a_roll(self):
        state = fold([*PEOPLE, ("start", {})])
        view = state.view("ivo")
        assert (view.mode, view.initiative, view.skill, view.arithmetic) == ("", None, None,
                                                                           "")
