"""Volleyball Initiative (Scenes > Staging > Initiative and its diagram; Actions; Mobs).

One test per rule, then Hypothesis properties over random legal step sequences.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import volleyball
from rules.engine.eldritch_gambit import initiative as ini
from rules.engine.eldritch_gambit.initiative import (
    ACT,
    ENDED,
    FOES,
    PASS,
    InitiativeError,
    TieError,
)


def scene(**extra):
    """Ana and Bo (party) against Cat (a foe) and a Mob of 3 goblins."""
    fighters = [
        ini.fighter("a", "Ana", hp_max=20, wp=11),
        ini.fighter("b", "Bo", hp_max=15, wp=9),
        ini.fighter("c", "Cat", side=FOES, hp_max=12, wp=11),
        ini.fighter("m", "Goblins", side=FOES, hp_max=6, mob=True, members=3),
    ]
    for key, changes in extra.items():
        fighters = [ini.fighter(f.key, f.name, side=f.side, hp_max=f.hp_max, wp=f.wp,
                                mob=f.mob, members=f.members, **changes)
                    if f.key == key else f for f in fighters]
    return ini.new_scene(fighters)


def started(holder="a", **extra):
    return ini.trigger(scene(**extra), holder)


def test_trigger_holder_takes_first_action():
    state = started("b")
    assert state.phase == ACT and state.holder == "b" and state.round == 1
    with pytest.raises(InitiativeError, match="Only Bo"):
        ini.act(state, "a", ["c"])


def test_trigger_needs_both_sides_and_an_action():
    with pytest.raises(InitiativeError, match="both sides"):
        ini.trigger(ini.new_scene([ini.fighter("a", "Ana", hp_max=5)]), "a")
    with pytest.raises(InitiativeError, match="no Action"):
        ini.trigger(scene(a={"statuses": ["surprised"]}), "a")


def test_who_triggers_highest_wp_tie_imp_decides():
    state = scene()
    assert ini.who_triggers(state, ["b"]) == "b"
    assert ini.who_triggers(state, ["a", "b"]) == "a"
    with pytest.raises(TieError) as tie:
        ini.who_triggers(state, ["a", "b", "c"])
    assert set(tie.value.tied) == {"a", "c"}
    assert ini.who_triggers(state, ["a", "c"], imp_choice="c") == "c"
    with pytest.raises(InitiativeError):
        ini.who_triggers(state, ["a", "c"], imp_choice="b")
    with pytest.raises(InitiativeError):
        ini.who_triggers(state, [])


def test_target_with_action_must_go_next():
    state = ini.act(started("a"), "a", ["c"])
    assert state.phase == PASS
    assert state.legal_passes() == ("c",)
    with pytest.raises(InitiativeError, match="must go next"):
        ini.pass_to(state, "b")
    state = ini.pass_to(state, "c")
    assert state.holder == "c" and state.phase == ACT


def test_target_without_action_hand_to_anyone_else_with_one():
    state = ini.pass_to(ini.act(started("a"), "a", ["c"]), "c")
    state = ini.act(state, "c", ["a"])  # Ana has acted: no Action
    assert set(state.legal_passes()) == {"b", "m"}
    assert state.may_let_imp_decide()  # the Mob is a foe of Cat's? no: Ana and Bo are
    with pytest.raises(InitiativeError, match="no Action"):
        ini.pass_to(state, "a")


def test_several_targets_choose_among_survivors_with_an_action():
    state = ini.act(started("a"), "a", ["c", "m"], "Area attack")
    assert set(state.legal_passes()) == {"c", "m"}
    state = ini.damage(state, "c", 12)  # Cat falls: no longer a choice
    assert state.legal_passes() == ("m",)


def test_felled_single_target_frees_the_pass():
    state = ini.act(started("a"), "a", ["c"])
    state = ini.damage(state, "c", 30)
    assert state.fighter("c").fallen
    assert set(state.legal_passes()) == {"b", "m"}


def test_let_imp_decide_among_foes():
    state = ini.act(started("a"), "a")  # no target: hand to anyone
    assert set(state.legal_passes()) == {"b", "c", "m"}
    assert state.may_let_imp_decide()
    state = ini.let_imp_decide(state)
    assert set(state.legal_passes()) == {"c", "m"}
    with pytest.raises(InitiativeError, match="Imp is choosing"):
        ini.pass_to(state, "b")
    state = ini.pass_to(ini.act(ini.pass_to(state, "c"), "c"), "b")
    state = ini.act(state, "b")
    assert state.legal_passes() == ("m",)
    assert not state.may_let_imp_decide() or state.legal_passes() == ("m",)


def test_imp_decides_refused_when_a_target_is_bound():
    state = ini.act(started("a"), "a", ["c"])
    assert not state.may_let_imp_decide()
    with pytest.raises(InitiativeError):
        ini.let_imp_decide(state)


def _round_one(state):
    state = ini.act(state, "a", ["c"])
    state = ini.pass_to(state, "c")
    state = ini.act(state, "c", ["a"])
    state = ini.pass_to(state, "b")
    state = ini.act(state, "b", ["m"])
    state = ini.pass_to(state, "m")
    return ini.act(state, "m", ["b"])


def test_new_round_when_everyone_spent_last_holder_passes():
    state = _round_one(started("a"))
    assert state.round == 2 and state.phase == PASS and state.holder == "m"
    assert all(f.has_action for f in state.fighters)
    # The Mob targeted Bo: it cannot pass to itself, and Bo is not bound any more.
    assert set(state.legal_passes()) == {"a", "b", "c"}


def test_new_round_self_pass_only_without_target():
    state = ini.act(started("a"), "a", ["c"])
    state = ini.pass_to(state, "c")
    state = ini.act(state, "c", ["b"])
    state = ini.pass_to(state, "b")
    state = ini.act(state, "b", ["m"])
    state = ini.pass_to(state, "m")
    state = ini.act(state, "m")  # targets nobody
    assert state.round == 2
    assert "m" in state.legal_passes()
    state = ini.pass_to(state, "m")
    assert state.holder == "m" and state.phase == ACT


def test_mid_round_no_self_pass():
    state = ini.act(started("a"), "a")
    with pytest.raises(InitiativeError):
        ini.pass_to(state, "a")


def test_wait_then_interrupt_with_same_action_type_only():
    state = ini.wait(started("a"), "a", "ranged Attack")
    assert state.fighter("a").waiting == "ranged Attack"
    assert "a" not in state.legal_passes()
    state = ini.pass_to(state, "c")
    with pytest.raises(InitiativeError, match="cannot change"):
        ini.interrupt(state, "a", "Grapple", ["c"])
    state = ini.interrupt(state, "a", "Ranged attack", ["c"])  # same type, any case
    ana = state.fighter("a")
    assert not ana.waiting and ana.spent
    assert state.holder == "c" and state.phase == ACT  # Initiative stays put
    with pytest.raises(InitiativeError, match="not waiting"):
        ini.interrupt(state, "a", "ranged Attack")


def test_wait_needs_an_action_type():
    with pytest.raises(InitiativeError, match="Name the Action"):
        ini.wait(started("a"), "a", "  ")


def test_interrupt_can_fell_the_holder_who_then_must_pass():
    state = ini.pass_to(ini.wait(started("a"), "a", "melee Attack"), "c")
    state = ini.interrupt(state, "a", "melee Attack", ["c"])
    state = ini.damage(state, "c", 99)
    assert state.phase == PASS and state.holder == "c"
    assert set(state.legal_passes()) == {"b", "m"}


def test_waiter_decides_at_next_round_start():
    state = ini.wait(started("a"), "a", "ranged Attack")
    state = ini.pass_to(state, "c")
    state = ini.act(state, "c")
    state = ini.pass_to(state, "b")
    state = ini.act(state, "b")
    state = ini.pass_to(state, "m")
    state = ini.act(state, "m")
    assert state.round == 2
    assert [f.key for f in state.deciding] == ["a"]
    with pytest.raises(InitiativeError, match="keep waiting or rejoin"):
        ini.pass_to(state, "b")
    kept = ini.keep_waiting(state, "a")
    assert kept.fighter("a").waiting and not kept.fighter("a").has_action
    assert "a" not in kept.legal_passes()
    back = ini.rejoin(state, "a")
    assert back.fighter("a").has_action and "a" in back.legal_passes()
    with pytest.raises(InitiativeError):
        ini.rejoin(back, "a")


def test_round_ends_with_waiters_unspent():
    state = ini.wait(started("a"), "a", "Dodge")
    state = ini.pass_to(state, "c")
    state = ini.act(state, "c")
    state = ini.pass_to(state, "b")
    state = ini.act(state, "b")
    state = ini.pass_to(state, "m")
    state = ini.act(state, "m")
    assert state.round == 2


def test_surprised_lose_first_round_action_only():
    state = started("a", c={"statuses": ["surprised"]}, m={"statuses": ["surprised"]})
    state = ini.act(state, "a", ["c"])
    assert state.legal_passes() == ("b",)  # Cat is Surprised: no Action
    state = ini.act(ini.pass_to(state, "b"), "b", ["m"])
    assert state.round == 2
    assert "surprised" not in state.fighter("c").statuses
    assert state.fighter("c").has_action


def test_grappled_loses_action_until_released():
    state = ini.act(started("a"), "a", ["c"], "Grapple")
    state = ini.set_statuses(state, "c", ["grappled"])
    assert set(state.legal_passes()) == {"b", "m"}
    state = ini.set_statuses(state, "c", [])
    assert state.legal_passes() == ("c",)


def test_stumble_loses_next_action_and_free_move():
    state = ini.act(started("a"), "a", ["c"])
    state = ini.stumble(state, "c")  # Cat still had this Round's Action
    assert not state.fighter("c").has_action and not state.fighter("c").has_free_move
    assert set(state.legal_passes()) == {"b", "m"}
    state = ini.stumble(state, "a")  # Ana has acted: loses next Round's
    state = ini.act(ini.pass_to(state, "b"), "b")
    state = ini.act(ini.pass_to(state, "m"), "m")
    assert state.round == 2
    assert not state.fighter("a").has_action and state.fighter("a").lost == "stumble"
    assert state.fighter("c").has_action


def test_fallen_have_no_action_and_stagger():
    state = started("a")
    state = ini.damage(state, "b", 5, stagger=True)
    bo = state.fighter("b")
    assert bo.hp == 15 and "staggered" in bo.statuses and not bo.has_free_move
    with pytest.raises(InitiativeError, match="already Staggered"):
        ini.damage(state, "b", 1, stagger=True)
    with pytest.raises(InitiativeError, match="Felling"):
        ini.damage(state, "a", 20, stagger=True)
    state = ini.damage(state, "b", 15)
    assert state.fighter("b").fallen and not state.fighter("b").has_action


def test_mob_felling_blow_removes_a_member_instead_of_damage():
    state = started("a")
    state = ini.damage(state, "m", 2)
    assert state.fighter("m").hp == 4
    state = ini.damage(state, "m", 10)
    mob = state.fighter("m")
    assert mob.members == 2 and mob.hp == 4 and not mob.fallen
    state = ini.damage(state, "m", 4, area=True)
    assert state.fighter("m").members == 0 and state.fighter("m").fallen


def test_end_refills_hp_except_fallen_and_burning():
    state = started("a")
    state = ini.damage(state, "a", 5)
    state = ini.damage(state, "b", 20)
    state = ini.damage(state, "c", 3)
    state = ini.set_statuses(state, "c", ["burning"])
    state = ini.end(state)
    assert state.phase == ENDED
    assert state.fighter("a").hp == 20
    assert state.fighter("b").hp == -5
    assert state.fighter("c").hp == 9
    with pytest.raises(InitiativeError, match="ended"):
        ini.act(state, "a")


def test_nobody_can_act_then_next_round_by_hand():
    state = ini.wait(started("a"), "a", "Dodge")
    state = ini.pass_to(state, "c")
    state = ini.set_statuses(state, "b", ["grappled"])
    state = ini.set_statuses(state, "m", ["incapacitated"])
    state = ini.act(state, "c", ["b"])
    assert state.round == 2
    state = ini.keep_waiting(state, "a")
    # Cat targeted Bo, but nobody else has an Action: Cat passes to themselves.
    assert state.legal_passes() == ("c",)
    state = ini.act(ini.pass_to(state, "c"), "c")
    assert state.round == 3
    state = ini.keep_waiting(state, "a")
    state = ini.set_statuses(state, "c", ["incapacitated"])
    assert state.stuck and state.legal_passes() == ()
    state = ini.set_statuses(ini.next_round(state), "c", [])
    assert state.round == 4


def test_hp_validation_and_apply_step_errors():
    with pytest.raises(InitiativeError, match="over the maximum"):
        ini.set_hp(started("a"), "a", 21)
    with pytest.raises(InitiativeError, match="at least 1"):
        ini.damage(started("a"), "a", 0)
    with pytest.raises(InitiativeError, match="Unknown step"):
        ini.apply_step(started("a"), "dance", {})
    with pytest.raises(InitiativeError, match="needs"):
        ini.apply_step(started("a"), "pass", {})
    with pytest.raises(InitiativeError, match="Unknown status"):
        ini.set_statuses(started("a"), "a", ["sleepy"])


def test_replay_matches_direct_calls():
    steps = [("trigger", {"key": "a"}), ("act", {"actor": "a", "targets": ["c"]}),
             ("damage", {"key": "c", "amount": 4}), ("pass", {"to": "c"}),
             ("wait", {"actor": "c", "action": "Dodge"})]
    state = ini.replay(scene(), steps)
    direct = ini.wait(ini.pass_to(ini.damage(ini.act(started("a"), "a", ["c"]), "c", 4),
                                  "c"), "c", "Dodge")
    assert state == direct


# --- properties -------------------------------------------------------------------------
def _moves(state):
    """Every legal step from here, as (kind, payload)."""
    moves = []
    keys = [f.key for f in state.fighters]
    if state.phase == ACT:
        others = [k for k in keys if k != state.holder]
        moves.append(("act", {"actor": state.holder, "targets": []}))
        for k in others:
            moves.append(("act", {"actor": state.holder, "targets": [k]}))
        moves.append(("act", {"actor": state.holder, "targets": others[:2]}))
        moves.append(("wait", {"actor": state.holder, "action": "Dodge"}))
    for f in state.deciding:
        moves += [("keep_waiting", {"key": f.key}), ("rejoin", {"key": f.key})]
    for k in state.legal_passes():
        moves.append(("pass", {"to": k}))
    if state.may_let_imp_decide():
        moves.append(("imp_decides", {}))
    for f in state.waiters:
        if f.can_interrupt:
            moves.append(("interrupt", {"actor": f.key, "action": "Dodge", "targets": []}))
    for k in keys:
        if not state.fighter(k).fallen:
            moves.append(("damage", {"key": k, "amount": 3}))
        moves.append(("stumble", {"key": k}))
        moves.append(("dodge", {"key": k}))
    if state.stuck:
        moves.append(("next_round", {}))
    return moves


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=60))
def test_properties_over_random_fights(choices):
    state = started("a")
    for choice in choices:
        moves = _moves(state)
        if not moves:
            break
        kind, payload = moves[choice % len(moves)]
        try:
            new = ini.apply_step(state, kind, payload)
        except InitiativeError:
            continue  # e.g. stumbling someone fallen: refused, nothing changes
        # Nobody acts twice in a Round.
        assert all(n <= 1 for n in new.acted_this_round().values())
        # The holder is someone with an Action while acting.
        if new.phase == ACT:
            assert new.fighter(new.holder).has_action
        # Rounds only go forward, one at a time.
        assert new.round in (state.round, state.round + 1)
        # Whenever passing, the choices are people with an Action.
        for key in new.legal_passes():
            assert new.fighter(key).has_action
        state = new


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=60))
def test_round_changes_only_when_no_action_was_left(choices):
    """Replaying each step: when the Round number goes up, the step that did it left
    nobody with an Action in the old Round (or was the Imp's next_round when stuck)."""
    state = started("a")
    for choice in choices:
        moves = _moves(state)
        kind, payload = moves[choice % len(moves)]
        try:
            new = ini.apply_step(state, kind, payload)
        except InitiativeError:
            continue
        if new.round > state.round:
            last_round = [e for e in new.log if e.kind == "round"][-1]
            before = new.log[: new.log.index(last_round)]
            assert before  # something happened first
            # Recompute the state just before the refresh: nobody had an Action.
            assert kind == "next_round" or not _with_action_after(state, kind, payload)
        state = new


def _with_action_after(state, kind, payload):
    """Who had an Action right after the step, before any new Round refresh."""
    import dataclasses

    original = volleyball.new_round  # settle() calls the shared module's
    try:
        volleyball.new_round = lambda s: dataclasses.replace(s, round_start=True)
        mid = ini.apply_step(state, kind, payload)
    finally:
        volleyball.new_round = original
    return mid.with_action


def test_combat_af():
    state = scene(c={"statuses": ["surprised"]})
    assert ini.combat_af(11, state.fighter("c")) == 6
    assert ini.combat_af(11, state.fighter("a")) == 11
    state = ini.damage(ini.trigger(state, "a"), "b", 99)
    assert ini.combat_af(11, state.fighter("b")) == 0


def test_dodge_spends_the_targets_action_so_it_does_not_go_next():
    state = ini.act(started("a"), "a", ["c"], "melee Attack")
    assert state.dodgers == ("c",)
    state = ini.dodge(state, "c")
    assert not state.fighter("c").has_action
    assert set(state.legal_passes()) == {"b", "m"}
    with pytest.raises(InitiativeError, match="no Action left to Dodge"):
        ini.dodge(state, "c")
    with pytest.raises(InitiativeError, match="right after being Attacked"):
        ini.dodge(state, "b")


def test_dodge_without_an_action_refused_a_waited_dodge_allowed():
    state = ini.pass_to(ini.act(started("a"), "a", ["c"]), "c")
    state = ini.act(state, "c", ["a"])  # Ana has acted: she cannot Dodge
    assert not state.may_dodge("a")
    with pytest.raises(InitiativeError, match="no Action left"):
        ini.dodge(state, "a")
    state = ini.pass_to(state, "b")
    state = ini.wait(state, "b", "Dodge")
    state = ini.act(ini.pass_to(state, "m"), "m", ["b"])
    assert state.may_dodge("b")
    state = ini.dodge(state, "b")
    assert not state.fighter("b").waiting


def test_dodge_botch_stumble_takes_next_rounds_action():
    state = ini.dodge(ini.act(started("a"), "a", ["c"]), "c")
    state = ini.stumble(state, "c")
    assert state.fighter("c").lose_next == 1
    state = ini.act(ini.pass_to(state, "b"), "b")
    state = ini.act(ini.pass_to(state, "m"), "m")
    assert state.round == 2 and state.fighter("c").lost == "stumble"


def test_waiting_with_another_action_cannot_dodge():
    state = ini.pass_to(ini.wait(started("a"), "a", "ranged Attack"), "c")
    state = ini.act(state, "c", ["a"])
    with pytest.raises(InitiativeError, match="cannot change"):
        ini.dodge(state, "a")


def test_rally_only_when_chosen_by_another_who_did_not_target_you():
    state = started("a")
    assert not state.may_rally  # triggered, not chosen
    state = ini.pass_to(ini.act(state, "a"), "b")
    assert state.may_rally  # Ana chose Bo without targeting him
    state = ini.pass_to(ini.act(state, "b", ["c"]), "c")
    assert not state.may_rally  # Bo targeted Cat before passing
    state = ini.set_statuses(ini.pass_to(ini.act(state, "c"), "m"), "m", ["burning"])
    assert not state.may_rally  # Burning: cannot Rally


def test_rally_borrows_cha_only_from_an_ally_who_passed():
    """Rally: "the rallier may use the CHA of the ally that passed Initiative to them"."""
    state = ini.pass_to(ini.act(started("a"), "a"), "b")
    assert state.may_rally and state.rally_ally == "a"  # Ana (party) chose Bo (party)
    state = ini.pass_to(ini.act(state, "b"), "c")
    assert state.may_rally and state.rally_ally == ""  # Bo is Cat's foe: own END only
    state = ini.pass_to(ini.act(state, "c"), "m")
    assert state.may_rally and state.rally_ally == "c"  # Cat and the Goblins: one side
    state = ini.pass_to(ini.act(state, "m"), "a")
    assert state.may_rally and state.rally_ally == ""  # a foe chose Ana
    assert ini.pass_to(ini.act(started("a"), "a", ["b"]), "b").rally_ally == ""  # targeted


def test_reinforcements_join_with_an_action():
    state = ini.act(started("a"), "a")
    wolf = ini.fighter("w", "Wolf", side=FOES, hp_max=8)
    state = ini.join(state, wolf)
    assert state.fighter("w").has_action and "w" in state.legal_passes()
    with pytest.raises(InitiativeError, match="already"):
        ini.join(state, wolf)
    with pytest.raises(InitiativeError, match="not been triggered"):
        ini.join(scene(), wolf)


def test_damage_to_the_fallen_lowers_hp_for_recovery_but_not_a_fallen_mob():
    state = ini.damage(started("a"), "b", 15)
    state = ini.damage(state, "b", 4)
    assert state.fighter("b").hp == -4
    with pytest.raises(InitiativeError, match="cannot Stagger"):
        ini.damage(state, "b", 1, stagger=True)
    state = ini.damage(state, "m", 6, area=True)
    with pytest.raises(InitiativeError, match="already fallen"):
        ini.damage(state, "m", 1)


# -- armour changed mid-fight (Resources > Armor: "armor only raises max HP, not current") --


def test_a_new_maximum_hp_counts_from_now_and_never_raises_current_hp():
    """Donned mid-fight: the maximum rises, current HP stays ("they still need to Rally
    up to their new max HP"); taken off: HP above the lowered maximum comes down to it.
    Logged; an unchanged maximum or a key not in the fight changes nothing."""
    state = ini.damage(started(), "a", 5)  # Ana 15/20
    donned = ini.follow_hp_maxima(state, {"a": 30, "zz": 40, "b": 15})
    assert (donned.fighter("a").hp, donned.fighter("a").hp_max) == (15, 30)
    assert donned.log[-1].text == "Ana's maximum HP is now 30 (armour changed): 15/30 HP."
    assert len(donned.log) == len(state.log) + 1  # Bo unchanged: nothing logged
    assert ini.heal(donned, "a", 20).fighter("a").hp == 30  # a Rally fills the new max
    doffed = ini.follow_hp_maxima(state, {"a": 12})
    assert (doffed.fighter("a").hp, doffed.fighter("a").hp_max) == (12, 12)
    assert ini.follow_hp_maxima(state, {"a": 20}) == state
    for bad in (0, -3, "20", None, True):
        with pytest.raises(InitiativeError):
            ini.follow_hp_maxima(state, {"a": bad})
