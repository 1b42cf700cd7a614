"""The shared Volleyball Initiative (rules/engine/volleyball.py) without a game system:
it takes any status keys, names them itself unless told, and replays a system's own
step table. The rules themselves are tested as Eldritch Gambit plays them
(test_initiative.py)."""

import pytest

from rules.engine import volleyball as vb


def scene():
    return vb.new_scene([
        vb.fighter("a", "Ana", hp_max=10),
        vb.fighter("c", "Cat", side=vb.FOES, hp_max=10, statuses=["rattled"]),
    ])


def test_a_fighter_carries_whatever_statuses_its_system_allows():
    assert scene().fighter("c").statuses == frozenset({"rattled"})


def test_an_action_blocking_status_is_named_from_its_key():
    state = vb.set_statuses(scene(), "a", ["grappled"])
    assert state.fighter("a").action_state == "Grappled: no Action"
    assert state.log[-1].text == "Ana's statuses: Grappled."


def test_a_system_names_the_statuses_in_its_own_order():
    state = vb.set_statuses(scene(), "a", ["surprised", "burning"],
                            {"burning": "On fire", "surprised": "Caught off guard"})
    assert state.log[-1].text == "Ana's statuses: On fire, Caught off guard."


def test_steps_replay_through_the_systems_table():
    table = {**vb.STEPS, "shout": lambda s, p: vb.trigger(s, p["key"])}
    state = vb.replay(scene(), [("shout", {"key": "a"})], table=table)
    assert (state.phase, state.holder, state.round) == (vb.ACT, "a", 1)
    with pytest.raises(vb.InitiativeError, match="Unknown step 'shout'"):
        vb.apply_step(scene(), "shout", {"key": "a"})
