"""Exploration Turns (XT; next-games.md E44, AMB-E7, AMB-E8, AMB-E148..E153)."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.errant import exploration as X
from rules.engine.errant.data.turns_tables import LOCK_SEQUENCES


def test_exploration_pace():
    r = X.exploration_pace(["quick", "explored"])
    assert str(r.pace) == "6/1" and r.no_mapping and r.negative_dice == 1
    assert str(X.exploration_pace(["slow", "huge"]).pace) == "1/4"
    with pytest.raises(ValueError):
        X.exploration_pace(["road"])  # a Travel row


def test_stealth():
    """AMB-E148: DV = Encumbrance; AMB-E149: a group's half total rounds down."""
    assert X.stealth_dv(3) == 3
    assert X.group_stealth_dv([1, 2, 4]) == 3
    assert X.p_stealth(12, X.group_stealth_dv([5, 6])) == Fraction(7, 20)
    for bad in ([], [-1]):
        with pytest.raises(ValueError):
            X.group_stealth_dv(bad)


@pytest.mark.parametrize(("burn", "members", "light"), [
    (4, 4, "bright"), (5, 4, "bright"), (3, 4, "normal"), (2, 4, "normal"),
    (1, 4, "dim"), (0, 1, "dim"), (2, 5, "dim"), (3, 5, "normal"), (1, 1, "bright")])
def test_illumination(burn, members, light):
    """AMB-E7: Burn equal to the members is bright; under half is dim."""
    assert X.illumination(burn, members) == light


@given(st.integers(0, 40), st.integers(1, 20))
def test_illumination_is_monotonic_in_burn(burn, members):
    order = ["dim", "normal", "bright"]
    assert order.index(X.illumination(burn, members)) <= order.index(
        X.illumination(burn + 1, members))


def test_discreet_light():
    assert X.illumination(3, 1, discreet_single=True) == "dim"
    with pytest.raises(ValueError):
        X.illumination(3, 2, discreet_single=True)
    with pytest.raises(ValueError):
        X.illumination(1, 0)


def test_forcing_a_door_with_helpers():
    """AMB-E8: a helper with phys exactly twice the DV counts."""
    door = X.force_door([8, 7, 12], width_ft=15)
    assert door.dv == 4 - 2 - 2 and door.helpers_counted == 2
    assert "helper phys 7 is under 8" in door.refused
    assert X.p_force_door(10, door) == Fraction(10, 20)


def test_door_width_limits_helpers():
    door = X.force_door([10, 10, 10], width_ft=10)
    assert door.helpers_counted == 1 and door.dv == 2
    assert X.force_door([10], width_ft=5).helpers_counted == 0


def test_heavy_door_helpers_need_twice_the_base_dv():
    """AMB-E150: twice the door's DV before the helpers' reductions."""
    door = X.force_door([14, 16], base=8, width_ft=10)
    assert door.helpers_counted == 1 and door.dv == 6


def test_prybar():
    door = X.force_door(prybar=True, prybar_helper_phys=9, width_ft=10)
    assert door.dv == 4 - 4 - 2
    lone = X.force_door([10, 10], prybar=True, width_ft=15)
    assert lone.dv == 0 and lone.helpers_counted == 0 and lone.refused
    with pytest.raises(ValueError):
        X.force_door(prybar_helper_phys=9)


def test_break_door():
    assert X.break_door() == X.BreakDoor(2, 1, 0)
    assert X.break_door("stone", inappropriate_tools=True) == X.BreakDoor(None, 1, 1)
    with pytest.raises(ValueError):
        X.break_door("paper")


def test_lock_table_has_every_sequence_without_repeats():
    seqs = set(LOCK_SEQUENCES.values())
    assert len(seqs) == 12
    assert all(s[0] != s[1] and s[1] != s[2] for s in seqs)


def test_generate_lock():
    lock = X.generate_lock(11, 1, 9)
    assert lock == X.Lock("Tin", ("twist", "tap", "twist"), "normal")
    with pytest.raises(ValueError):
        X.generate_lock(0, 1, 1)


def run(lock, actions):
    state = X.LockState()
    for a in actions:
        state = X.pick(lock, state, a)
    return state


def test_normal_lock_stiffens_then_jams():
    lock = X.generate_lock(12, 2, 9)  # twist, tap, turn
    s = run(lock, ["twist", "turn"])
    assert s.stiff and not s.jammed and s.progress == 1  # AMB-E151: progress kept
    assert run(lock, ["twist", "turn", "tap", "turn"]).open
    assert run(lock, ["tap", "twist", "twist"]).jammed
    with pytest.raises(ValueError):
        X.pick(lock, run(lock, ["tap", "tap"]), "twist")


def test_modifiers():
    seq = 2  # twist, tap, turn
    cracked = X.generate_lock(1, seq, 7)
    assert run(cracked, ["turn", "tap", "turn"]).open
    secured = X.generate_lock(1, seq, 3)
    assert run(secured, ["tap"]).jammed
    weathered = X.generate_lock(1, seq, 5)
    s = run(weathered, ["tap", "turn"])
    assert not s.jammed and s.stiff
    assert run(weathered, ["tap", "turn", "tap"]).jammed
    spiked = X.generate_lock(1, seq, 1)
    assert X.spiked_damage(spiked, run(spiked, ["tap", "twist"]).wrongs) == 1
    assert X.spiked_damage(cracked, 3) == 0


def test_a_locksmith_ignores_the_first_jam():
    """ER §The Deviant, Engineering mastery Locksmith: "you may ignore the first jam"."""
    crude = X.generate_lock(12, 9, 12)  # Crude, turn-twist-tap, normal
    assert crude.sequence == ("turn", "twist", "tap") and crude.modifier == "normal"
    assert run(crude, ["twist", "tap"]).jammed  # anyone else: stiff, then jammed
    state = X.LockState()
    for action in ("twist", "tap"):
        state = X.pick(crude, state, action, locksmith=True)
    assert state.stiff and not state.jammed and state.jams_ignored == 1
    for action in ("turn", "twist", "tap"):
        state = X.pick(crude, state, action, locksmith=True)
    assert state.open
    second = X.pick(crude, X.pick(crude, X.pick(crude, X.LockState(), "twist", locksmith=True),
                                  "tap", locksmith=True), "twist", locksmith=True)
    assert second.jammed  # only the first jam
    secured = X.generate_lock(1, 2, 3)  # its first wrong action would jam it
    assert not X.pick(secured, X.LockState(), "tap", locksmith=True).jammed


def test_a_locksmith_at_a_weathered_lock_ignores_two_jams():
    """AMB-E-LOCKSMITH: the lock's first jam is ignored by the lock, the next one is the
    Locksmith's first jam."""
    weathered = X.generate_lock(1, 2, 5)  # twist, tap, turn
    assert X.jams_ignorable(weathered) == 1
    assert X.jams_ignorable(weathered, locksmith=True) == 2
    state = X.LockState()
    for action in ("tap", "turn", "tap"):
        state = X.pick(weathered, state, action, locksmith=True)
    assert not state.jammed and state.jams_ignored == 2
    assert X.pick(weathered, state, "tap", locksmith=True).jammed


def test_blind_picking_odds_for_a_locksmith():
    """A Locksmith's chance is higher at every kind of lock (one more wrong action is
    survived)."""
    for modifier in ("normal", "secured", "weathered", "cracked", "spiked"):
        assert X.p_pick_blind(modifier, locksmith=True) > X.p_pick_blind(modifier)
    # Secured with a Locksmith picks like a normal lock: its one instant jam is ignored.
    assert X.p_pick_blind("secured", locksmith=True) == X.p_pick_blind("normal")


def test_blind_picking_odds():
    """AMB-E152: uniform among the actions still possible; closed forms by hand."""
    assert X.p_pick_blind("secured") == Fraction(1, 12)  # 1/3 * 1/2 * 1/2
    assert X.p_pick_blind("normal") == Fraction(1, 3)
    assert X.p_pick_blind("spiked") == X.p_pick_blind("normal")
    assert X.p_pick_blind("cracked") > X.p_pick_blind("normal")
    assert X.p_pick_blind("weathered") > X.p_pick_blind("normal")


def test_traps_harvest_dig():
    assert X.p_avoid_trap(10, 3) == Fraction(7, 20)
    assert X.harvest_dv(7) == 3
    assert X.creature_components(7) == 3 and X.creature_components(1) == 1  # AMB-E153
    assert X.kit_room(1, 3) and not X.kit_room(2, 3)
    # ER §The Deviant, Anatomy mastery Chemist: six components rather than four.
    assert X.kit_capacity() == 4 and X.kit_capacity(chemist=True) == 6
    assert X.kit_room(2, 3, chemist=True) and X.kit_room(3, 3, chemist=True)
    assert not X.kit_room(4, 3, chemist=True)
    assert X.dig_turns(11, tools=True) == 3 and X.dig_turns(11, tools=False) == 11
    for f in (lambda: X.trap_dv(-1), lambda: X.harvest_dv(-1), lambda: X.dig_turns(-1, tools=True)):
        with pytest.raises(ValueError):
            f()


def test_burn_result():
    assert X.burn_result([3, 1]) == X.Burn((2, 0), 0)
    assert X.burn_result([]) == X.Burn((), 1)
    assert X.burn_result([0]) == X.Burn((), 1)
    with pytest.raises(ValueError):
        X.burn_result([-1])


actions = st.sampled_from(["twist", "tap", "turn"])


@given(st.integers(1, 12), st.integers(1, 12), st.lists(actions, max_size=8))
def test_lock_invariants(seq, mod, picks):
    lock = X.generate_lock(1, seq, mod)
    state = X.LockState()
    for a in picks:
        if state.jammed or state.open:
            with pytest.raises(ValueError):
                X.pick(lock, state, a)
            break
        before = state
        state = X.pick(lock, state, a)
        assert state.progress >= before.progress  # AMB-E151: never undone
        assert state.stiff >= before.stiff  # stiff until unlocked
        if state.wrongs > before.wrongs:
            assert state.stiff
    allowed = {"normal": 1, "spiked": 1, "cracked": 1, "secured": 0, "weathered": 2}
    if state.jammed:
        assert state.wrongs == allowed[lock.modifier] + 1


@given(st.lists(st.integers(0, 20), max_size=6), st.integers(5, 40), st.integers(0, 10))
def test_force_door_invariants(helpers, width, base):
    door = X.force_door(helpers, base=base, width_ft=width)
    assert door.helpers_counted <= width // 5 - 1
    assert door.dv == base - 2 * door.helpers_counted
    assert door.helpers_counted + len(door.refused) == len(helpers)
    more = X.force_door([*helpers, 2 * base], base=base, width_ft=width)
    assert more.dv <= door.dv
