"""Initiative Turn set-up and phases (Errant SRD IT §Combat Distance, §Surprise,
§Determining Initiative Turn Order, §Initiative Turn Actions, §Speed & Movement)."""

import contextlib
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.errant import initiative as I


@pytest.mark.parametrize("face", range(1, 7))
def test_combat_distance_is_d6_times_10(face):
    assert I.combat_distance(face) == face * 10


@pytest.mark.parametrize("bad", [0, 7, -1, "3", 2.5, True])
def test_dice_outside_the_die_are_refused(bad):
    with pytest.raises(I.InitiativeError) as err:
        I.combat_distance(bad)
    assert err.value.code == "bad_die"


def test_surprise_table():
    assert [I.surprise(f) for f in range(1, 7)] == [
        "npcs", "npcs", "none", "none", "company", "company"]
    assert I.surprise_odds() == {"npcs": Fraction(1, 3), "none": Fraction(1, 3),
                                 "company": Fraction(1, 3)}


def test_gelatinous_cube_surprises_on_1_to_4():
    # IT §Bestiary, Gelatinous Cube: "surprises on a roll of 1-4" (AMB-E71).
    assert [I.surprise(f, npc_faces=4) for f in range(1, 7)] == [
        "npcs"] * 4 + ["company"] * 2
    assert I.surprise_odds(npc_faces=4)["npcs"] == Fraction(2, 3)


@pytest.mark.parametrize(("call", "a", "b", "winner"), [
    ("odd", 1, 2, "company"), ("odd", 3, 3, "npcs"), ("even", 6, 6, "company"),
    ("even", 2, 5, "npcs")])
def test_the_call_shows_both_dice_and_who_won(call, a, b, winner):
    roll = I.order_roll(call, a, b)
    assert (roll.errant_die, roll.guide_die, roll.total) == (a, b, a + b)
    assert roll.winner == winner


def test_a_call_wins_half_the_time_by_enumeration():
    for call in ("odd", "even"):
        wins = sum(((a + b) % 2 == 0) == (call == "even")
                   for a, b in product(range(1, 7), repeat=2))
        assert I.p_call_wins(call) == Fraction(wins, 36) == Fraction(1, 2)


def test_bad_call_refused():
    with pytest.raises(I.InitiativeError) as err:
        I.order_roll("high", 1, 2)
    assert err.value.code == "bad_call"


def _turn(winner_call="odd"):
    roll = I.order_roll(winner_call, 1, 2)  # odd: Company wins on "odd"
    turn = I.start_turn(1, roll, {"ava": "company", "bo": "company", "gob": "npcs",
                                  "ogre": "npcs"})
    turn = I.choose_pace(turn, "ava", "quick")
    turn = I.choose_pace(turn, "bo", "slow")
    turn = I.choose_pace(turn, "gob", "quick")
    return I.choose_pace(turn, "ogre", "slow")


def test_phases_run_winners_quick_losers_quick_winners_slow_losers_slow():
    turn = _turn()
    assert turn.winner == "company"
    order = []
    while not turn.over:
        order.append(turn.acting)
        turn = I.next_phase(turn)
    assert order == [("company", "quick"), ("npcs", "quick"), ("company", "slow"),
                     ("npcs", "slow")]


def test_losers_win_when_the_call_is_wrong():
    turn = _turn("even")
    assert turn.winner == "npcs"
    assert turn.acting == ("npcs", "quick")


def test_quick_is_one_action_slow_is_two():
    turn = _turn()
    turn = I.act(turn, "ava", "attack")
    with pytest.raises(I.InitiativeError) as err:
        I.act(turn, "ava", "move")
    assert err.value.code == "no_actions_left"
    turn = I.next_phase(I.next_phase(turn))  # to winners slow
    turn = I.act(turn, "bo", "move")
    turn = I.act(turn, "bo", "attack")
    with pytest.raises(I.InitiativeError) as err:
        I.act(turn, "bo", "item")
    assert err.value.code == "no_actions_left"


def test_only_one_attack_sorcery_or_miracle_per_turn():
    turn = I.next_phase(I.next_phase(_turn()))
    turn = I.act(turn, "bo", "sorcery")
    for kind in ("attack", "sorcery", "miracle"):
        with pytest.raises(I.InitiativeError) as err:
            I.act(turn, "bo", kind)
        assert err.value.code == "one_attack_or_magic"


def test_immediate_action_on_a_1_is_outside_pace_and_phase():
    turn = I.act(_turn(), "ava", "attack")  # ava rolls a 1: gob may act at once
    turn = I.immediate_action(turn, "gob", "attack")
    assert turn.actions_left("gob") == 1  # its own quick action is still there
    with pytest.raises(I.InitiativeError) as err:
        I.act(I.next_phase(turn), "gob", "attack")  # but not a second Attack Roll
    assert err.value.code == "one_attack_or_magic"
    turn = I.act(I.next_phase(turn), "gob", "move")
    # ava already attacked: a 1 against her grants an action, not a second Attack Roll
    with pytest.raises(I.InitiativeError) as err:
        I.immediate_action(turn, "ava", "attack")
    assert err.value.code == "one_attack_or_magic"
    assert I.immediate_action(turn, "ava", "move").granted[-1] == ("ava", "move")


def test_immediate_action_refused_when_surprised_or_out():
    turn = I.start_turn(1, None, {"ava": "company", "gob": "npcs"}, surprised="npcs")
    with pytest.raises(I.InitiativeError) as err:
        I.immediate_action(turn, "gob", "attack")
    assert err.value.code == "surprised"
    with pytest.raises(I.InitiativeError) as err:
        I.immediate_action(I.set_out_of_action(turn, "ava"), "ava", "attack")
    assert err.value.code == "out_of_action"


def test_out_of_phase_actions_are_refused():
    turn = _turn()
    for key in ("bo", "gob", "ogre"):
        with pytest.raises(I.InitiativeError) as err:
            I.act(turn, key, "attack")
        assert err.value.code == "not_their_phase"


def test_pace_must_be_chosen_and_cannot_change_after_acting():
    turn = I.start_turn(1, I.order_roll("odd", 1, 2), {"ava": "company"})
    with pytest.raises(I.InitiativeError) as err:
        I.act(turn, "ava", "attack")
    assert err.value.code == "no_pace"
    turn = I.act(I.choose_pace(turn, "ava", "quick"), "ava", "attack")
    with pytest.raises(I.InitiativeError) as err:
        I.choose_pace(turn, "ava", "slow")
    assert err.value.code == "pace_fixed"


def test_a_passed_phase_cannot_be_chosen():
    turn = I.next_phase(I.next_phase(_turn()))  # winners slow now
    with pytest.raises(I.InitiativeError) as err:
        I.choose_pace(turn, "gob", "quick")
    assert err.value.code == "phase_passed"


def test_surprised_side_cannot_act_in_the_free_turn():
    turn = I.start_turn(1, None, {"ava": "company", "gob": "npcs"}, surprised="npcs")
    assert turn.winner == "company"
    turn = I.choose_pace(I.choose_pace(turn, "ava", "quick"), "gob", "quick")
    turn = I.act(turn, "ava", "attack")
    turn = I.next_phase(turn)
    with pytest.raises(I.InitiativeError) as err:
        I.act(turn, "gob", "attack")
    assert err.value.code == "surprised"


def test_an_alert_deviant_acts_while_surprised():
    turn = I.start_turn(1, None, {"ava": "company", "gob": "npcs"}, surprised="company",
                        alert=("ava",))
    turn = I.choose_pace(I.choose_pace(turn, "ava", "quick"), "gob", "quick")
    turn = I.act(turn, "gob", "attack")
    turn = I.act(I.next_phase(turn), "ava", "attack")
    assert turn.actions == (("gob", "attack"), ("ava", "attack"))


def test_a_normal_turn_needs_the_order_roll():
    with pytest.raises(I.InitiativeError) as err:
        I.start_turn(1, None, {"ava": "company"})
    assert err.value.code == "no_order"


def test_shift_and_movement_roll_exclude_each_other():
    turn = _turn()
    turn = I.shift(turn, "ava", 2)
    with pytest.raises(I.InitiativeError) as err:
        I.act(turn, "ava", "move")
    assert err.value.code == "shifted"
    with pytest.raises(I.InitiativeError):
        I.shift(turn, "ava", 2)
    turn = I.act(turn, "ava", "attack")
    turn = I.next_phase(I.next_phase(turn))
    turn = I.act(turn, "bo", "move")
    with pytest.raises(I.InitiativeError) as err:
        I.shift(turn, "bo", 1)
    assert err.value.code == "moved"
    with pytest.raises(I.InitiativeError) as err:
        I.shift(turn, "ogre", 0)
    assert err.value.code == "no_movement_dice"


def test_free_actions_at_most_two():
    turn = I.free_action(I.free_action(_turn(), "ava"), "ava")
    with pytest.raises(I.InitiativeError) as err:
        I.free_action(turn, "ava")
    assert err.value.code == "too_many_free_actions"


def test_out_of_action_cannot_act():
    turn = I.set_out_of_action(_turn(), "ava")
    with pytest.raises(I.InitiativeError) as err:
        I.act(turn, "ava", "attack")
    assert err.value.code == "out_of_action"


def test_effects_expire_at_the_end_of_the_turn():
    turn = I.add_effect(_turn(), "Ready to strike", "ava")
    turn = I.add_effect(turn, "Smoke", "gob")
    turn = I.add_effect(turn, "Paralysed", "cube", turns=3)  # 2D4 rolled 3
    closed, expired = I.end_turn(turn)
    assert [e.label for e in expired] == ["Ready to strike", "Smoke"]
    assert [(e.label, e.turns) for e in closed.effects] == [("Paralysed", 2)] and closed.over
    with pytest.raises(I.InitiativeError):
        I.act(closed, "ava", "attack")
    nxt = I.start_turn(2, I.order_roll("even", 1, 1), {"ava": "company"},
                       effects=closed.effects)
    closed, _ = I.end_turn(nxt)
    closed, expired = I.end_turn(I.start_turn(3, I.order_roll("odd", 1, 2), {"ava": "company"},
                                              effects=closed.effects))
    assert [e.label for e in expired] == ["Paralysed"] and closed.effects == ()
    with pytest.raises(I.InitiativeError):
        I.add_effect(turn, "Forever", turns=0)


@pytest.mark.parametrize(("faces", "terrain", "feet"), [
    ((4,), 0, 40), ((3, 2), 2, 30), ((1,), 2, 0), ((), 0, 10), ((4, 4, 4), 6, 60)])
def test_movement_distance_with_difficult_terrain(faces, terrain, feet):
    assert I.movement_distance(faces, terrain) == feet


@given(st.lists(st.tuples(st.sampled_from(["ava", "bo", "gob", "ogre"]),
                          st.sampled_from(I.ACTION_KINDS + ("next",))), max_size=30))
def test_no_sequence_breaks_the_limits(steps):
    """Whatever is attempted, a combatant never exceeds its pace's actions nor takes two of
    Attack Roll/Sorcery/Miracle, and actions happen only in order of the phases."""
    turn = _turn()
    for key, kind in steps:
        with contextlib.suppress(I.InitiativeError):
            turn = I.next_phase(turn) if kind == "next" else I.act(turn, key, kind)
    for c in turn.combatants:
        taken = turn.actions_of(c.key)
        assert len(taken) <= I.ACTIONS_PER_PACE[c.pace]
        assert sum(k in I.EXCLUSIVE_ACTIONS for k in taken) <= 1


def test_duel_right_guess_acts_wrong_guess_gives_the_opponent_the_action():
    duel = I.start_duel_turn({"ava": ["king", "queen", "jack"],
                              "rook": ("jack", "king", "queen")}, "ava")
    duel = I.duel_guess(duel, "jack")  # right: rook's first card is the Jack
    assert duel.acted[-1] == ("ava", I.DUEL_EFFECTS["jack"]) and duel.guesser == "ava"
    duel = I.duel_guess(duel, "queen")  # wrong: it is the King; rook acts and guesses
    assert duel.acted[-1] == ("rook", I.DUEL_EFFECTS["king"]) and duel.guesser == "rook"
    duel = I.duel_guess(duel, "king")  # right: ava's first is the King
    assert duel.revealed == {"ava": 1, "rook": 2}
    duel = I.duel_guess(duel, "queen")
    duel = I.duel_guess(duel, "jack")
    assert duel.over and duel.revealed == {"ava": 3, "rook": 2}
    with pytest.raises(I.InitiativeError):
        I.duel_guess(duel, "king")
    assert I.next_duel_guesser(duel, "ava") == "rook"


def test_duel_bad_lines_and_odds():
    with pytest.raises(I.InitiativeError) as err:
        I.start_duel_turn({"ava": ["king", "king", "jack"], "rook": ["jack", "king", "queen"]},
                          "ava")
    assert err.value.code == "bad_line"
    with pytest.raises(I.InitiativeError):
        I.start_duel_turn({"ava": ["king", "queen", "jack"]}, "ava")
    assert [I.p_duel_guess(n) for n in (3, 2, 1)] == [Fraction(1, 3), Fraction(1, 2), 1]
