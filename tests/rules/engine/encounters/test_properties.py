"""Encounter rules (seed 004): properties of the Action queue (hypothesis).

Random fights (combatants, modes, rolls, the Guide's bonuses, declarations with hastes,
runs and defences) are played by random legal steps: taking any entry at the head,
waiting, stepping in, holding, defending of either kind, knocking out, ending the phase,
over several rounds. Against that play, recomputed from the declarations alone (not
from the engine's queue):
- every slot taken in turn had the highest place (held-over first, then Initiative)
  among everyone's next slot, Initiative = roll + bonus + 2 per haste - 2 per major,
  defence or movement action declared before it (H3, H9, H18, AMB-H4, AMB-H6);
- a combatant's slots are taken in the order it declared them;
- a waiter steps in only ahead of a slot that comes lower than its own Initiative (H15,
  ENC-2), and nothing of a waiter, a holder, an aborted turn or a combatant down is
  ever taken.
"""

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rules.engine.encounters.combatants import EncounterError
from rules.engine.encounters.declaring import DEFEND, PENDING
from rules.engine.encounters.tracker import (
    ACTION,
    EVENTS,
    INITIATIVE,
    RECOVERY,
    apply,
    fold,
)

KEYS = ("a", "b", "c", "d", "e")


@st.composite
def item(draw, skill):
    kind = draw(st.sampled_from(["major", "major", "defend", "haste", "minor", "stand",
                                 "run", "leap"]))
    if kind == "run":
        return {"kind": "run", "yards": draw(st.integers(1, 25))}
    if kind == "major":
        return {"kind": "major", "label": "m", "skill": draw(st.sampled_from([skill, ""]))}
    return {"kind": kind}


def plan(data, mode):
    skill = "physical" if mode == "maneuver" else "mental"
    items = data.draw(st.lists(item(skill), min_size=0, max_size=5), label="items")
    if not any(i["kind"] not in ("haste", "minor") for i in items):
        items.append({"kind": "major", "label": "m", "skill": skill})
    return items


def expected_initiative(turn, slot_index):
    """From the declaration alone: the round's Initiative less 2 per slot before."""
    return (turn.roll or 0) + turn.bonus + 2 * turn.haste - 2 * slot_index


def next_slots(state):
    """Everyone's next slot still to take in turn, recomputed independently."""
    found = {}
    for f in state.fighters:
        turn = f.turn
        if (f.down or turn.waiting or turn.holding or turn.aborted or turn.lost
                or turn.role not in ("", "initiator")):
            continue
        if not turn.declared:
            found[f.key] = (turn.tier, expected_initiative(turn, 0))
            continue
        pending = [s for s in turn.slots if s.status == PENDING and s.kind != DEFEND]
        if pending:
            found[f.key] = (turn.tier, expected_initiative(turn, pending[0].index))
    return found


def act(state, kind, payload):
    try:
        return apply(state, kind, payload), True
    except EncounterError:
        return state, False


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_the_queue_respects_initiative_and_the_waiting_rules(data):
    count = data.draw(st.integers(2, 5), label="combatants")
    events = [("add", {"key": k, "name": k.upper(), "side": "party" if i % 2 else "foes",
                       "stamina": 5, "stamina_max": 5})
              for i, k in enumerate(KEYS[:count])]
    state = fold([*events, ("start", {})])
    for _round in range(data.draw(st.integers(1, 3), label="rounds")):
        assert state.phase == INITIATIVE
        modes = {}
        for f in state.fighters:
            mode = data.draw(st.sampled_from(["maneuver", "concentrate"]))
            roll = None if f.turn.tier and data.draw(st.booleans()) else \
                data.draw(st.integers(-3, 20))
            state = apply(state, "initiative", {"key": f.key, "mode": mode, "roll": roll,
                                                "bonus": data.draw(st.integers(-2, 2))})
            modes[f.key] = mode
            if data.draw(st.booleans()):
                state, _ = act(state, "declare", {"key": f.key,
                                                  "items": plan(data, mode)})
        state = apply(state, "begin_actions", {})
        for _step in range(60):
            if state.phase != ACTION:
                break
            choice = data.draw(st.sampled_from(
                ["take", "take", "take", "wait", "step_in", "step_in", "hold", "defend",
                 "knock_out", "end"]))
            keys = [f.key for f in state.fighters]
            if choice == "take":
                head = state.head()
                if not head:
                    continue
                entry = data.draw(st.sampled_from(head))
                who = state.fighter(entry.actor)
                if not who.turn.declared:
                    state, ok = act(state, "declare", {
                        "key": who.key, "items": plan(data, who.turn.mode)})
                    if not ok:
                        continue
                    if entry.actor not in {e.actor for e in state.head()}:
                        continue  # its haste lifted it; the head is it now or others
                before = next_slots(state)
                taker = state.fighter(entry.actor)
                pending = [s for s in taker.turn.slots if s.status == PENDING
                           and s.kind != DEFEND]
                # Never a waiter, a holder, an aborted turn or a combatant down.
                assert entry.actor in before
                assert not (taker.down or taker.turn.waiting or taker.turn.aborted)
                state = apply(state, "take", {"key": entry.actor})
                event("a slot taken")
                # Highest place among everyone's next slot (ties are the Guide's).
                assert before[entry.actor] == max(before.values())
                # In declared order, at the Initiative recomputed from the declaration.
                done = state.fighter(entry.actor).turn.slots[pending[0].index]
                assert done.status == "done"
                assert f"at Initiative {expected_initiative(taker.turn, done.index)}" in \
                    state.log[-1].text
            elif choice == "step_in":
                waiters = [f for f in state.waiters if not f.turn.holding]
                if not waiters:
                    continue
                waiter = data.draw(st.sampled_from(waiters))
                head = state.head()
                state, ok = act(state, "step_in", {"key": waiter.key})
                lower = [e for e in head if (e.tier, e.initiative) < waiter.rank]
                assert ok == (not head or bool(lower))
                event(f"step in {'taken' if ok else 'refused'}")
            elif choice == "end":
                empty = not next_slots(state)
                state, ok = act(state, "end_actions", {})
                assert ok == empty
                assert state.phase == (RECOVERY if empty else ACTION)
            elif choice == "wait" and state.head():
                entry = data.draw(st.sampled_from(state.head()))
                state, ok = act(state, "wait", {"key": entry.actor})
                if ok:
                    event("a wait")
            else:
                key = data.draw(st.sampled_from(keys))
                payload = {"key": key}
                if choice == "defend":
                    payload["skill"] = data.draw(st.sampled_from(["physical", "mental"]))
                state, _ = act(state, choice, payload)
        if state.phase == ACTION:
            while state.queue():
                head = state.head()[0]
                state = apply(state, "knock_out", {"key": head.actor})
            state = apply(state, "end_actions", {})
        state = apply(state, "recover", {})


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10**15, 10**15) | st.floats(allow_nan=True)
    | st.text(max_size=20) | st.sampled_from(["a", "b", "physical", "mental", "maneuver",
                                                "stamina", "major", "run", "party"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["key", "mode", "roll", "items", "kind", "yards", "skill", "track",
                         "amount", "hits", "bonus", "initiators", "surprised", "name",
                         "side", "round_zero", "label", "stamina"]), inner, max_size=5),
    max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(kind=st.sampled_from([*sorted(EVENTS), "nonsense"]), payload=JSON,
       phase=st.integers(0, 2))
def test_hostile_events_never_crash(kind, payload, phase):
    """Whatever a tampered ledger line holds, applying it changes the state or raises
    EncounterError with a message: never another exception."""
    events = [("add", {"key": "a", "name": "A", "side": "party"}),
              ("add", {"key": "b", "name": "B", "side": "foes"})]
    if phase >= 1:
        events += [("start", {}), ("initiative", {"key": "a", "mode": "maneuver",
                                                  "roll": 4})]
    if phase >= 2:
        events += [("initiative", {"key": "b", "mode": "concentrate", "roll": 6}),
                   ("begin_actions", {})]
    state = fold(events)
    try:
        apply(state, kind, payload)
    except EncounterError as error:
        assert error.message
