"""Volleyball Initiative as METTLE plays it (the Scenes chapter, seed 001 > Initiative,
Split Actions; Actions > Defend, Sneak; Resources > Specials, Reach), over the shared
machine (rules/engine/volleyball.py)."""

import pytest

from rules.engine.mettle.initiative import (
    FOES,
    InitiativeError,
    TieError,
    act,
    act_part,
    apply_step,
    defend,
    end,
    fighter,
    interrupt,
    legal_passes,
    new_scene,
    pass_to,
    reach_steal,
    replay,
    split,
    surprise,
    trigger,
    wait,
    who_triggers,
)


def scene():
    return new_scene([
        fighter("viktor", "Viktor", mettle_max=9),
        fighter("kirin", "Kirin", mettle_max=8),
        fighter("thug", "Thug", side=FOES, mettle_max=4),  # an NPC pool 4D
    ])


def started(first="viktor"):
    s = scene()
    return trigger(s, first)


def test_pcs_have_the_privilege_in_an_argument():
    state = scene().state
    assert who_triggers(state, ["thug", "viktor"]) == "viktor"
    with pytest.raises(TieError) as tie:
        who_triggers(state, ["viktor", "kirin", "thug"])
    assert tie.value.tied == ("viktor", "kirin")
    assert who_triggers(state, ["viktor", "kirin"], choice="kirin") == "kirin"
    with pytest.raises(InitiativeError):
        who_triggers(state, ["viktor", "thug"], choice="thug")
    assert who_triggers(state, ["thug"]) == "thug"


def test_the_surprised_side_loses_one_round():
    s = surprise(scene(), FOES)
    s = trigger(s, "viktor")
    assert not s.state.fighter("thug").has_action
    s = act(s, "viktor", ["thug"], "Attack")
    assert legal_passes(s) == ("kirin",)  # the surprised target has no Action
    s = act(pass_to(s, "kirin"), "kirin", [], "Move")
    assert s.state.round == 2  # nobody else had an Action
    assert s.state.fighter("thug").has_action  # Surprise is over


def test_a_split_action_keeps_the_action_and_the_target_goes_next_after_each_part():
    s = split(started(), "viktor", 5, 2, targets=["thug"], action="Attack")
    assert s.parts_left("viktor") == (2,)
    assert "splits 5D into 2 Actions (3D, 2D)" in s.state.log[-1].text
    assert s.state.fighter("viktor").has_action
    assert legal_passes(s) == ("thug",)  # the target goes next
    s = act(pass_to(s, "thug"), "thug", ["viktor"], "Attack")
    assert legal_passes(s) == ("viktor",)  # Viktor still counts as having his Action
    with pytest.raises(InitiativeError):  # a whole Action while parts are left
        act(pass_to(s, "viktor"), "viktor", ["thug"])
    s = act_part(pass_to(s, "viktor"), "viktor", ["thug"], "Attack")
    assert s.parts_left("viktor") == ()
    assert not s.state.fighter("viktor").has_action
    assert legal_passes(s) == ("kirin",)


def test_a_splitter_whose_target_has_no_action_goes_back_to_back():
    s = act(started("thug"), "thug", [], "Move")
    s = pass_to(s, "viktor")
    s = split(s, "viktor", 5, 3, targets=["thug"], action="Attack")
    assert legal_passes(s) == ("kirin", "viktor")
    s = pass_to(s, "viktor")
    assert s.state.holder == "viktor"
    s = act_part(s, "viktor", ["thug"])
    s = act_part(pass_to(s, "viktor"), "viktor", ["thug"])
    assert s.parts_left("viktor") == () and legal_passes(s) == ("kirin",)


def test_split_refusals():
    with pytest.raises(InitiativeError):
        split(started(), "viktor", 2, 3)  # each part needs a die
    with pytest.raises(InitiativeError):
        act_part(started(), "viktor")  # nothing was split


def test_a_new_round_lapses_split_parts():
    s = split(started(), "viktor", 4, 2, targets=["kirin"], action="Rally")
    s = act(pass_to(s, "kirin"), "kirin", [], "Move")
    s = act(pass_to(s, "thug"), "thug", [], "Move")
    s = pass_to(s, "viktor")
    assert s.state.round == 1
    s = act_part(s, "viktor", [])
    assert s.state.round == 2 and s.splits == ()


def test_defend_is_the_very_next_action_after_the_attack():
    s = act(started("thug"), "thug", ["kirin"], "Attack")
    s = defend(s, "kirin")
    assert not s.state.fighter("kirin").has_action
    assert s.state.log[-1].text == "Kirin Defends (their Action this Round)."
    assert legal_passes(s) == ("viktor",)  # the defender spent the Action it would go with
    later = act(pass_to(act(started(), "viktor", [], "Move"), "thug"), "thug", ["kirin"])
    later = pass_to(later, "kirin")
    with pytest.raises(InitiativeError):  # Initiative has moved on
        defend(later, "kirin")


def test_defend_an_ally_replacing_them_as_the_target():
    s = act(started("thug"), "thug", ["kirin"], "Attack")
    s = defend(s, "viktor", ally="kirin")
    assert s.state.attacked == ("viktor",) and s.state.last_targets == ("viktor",)
    assert not s.state.fighter("viktor").has_action
    assert legal_passes(s) == ("kirin",)


def test_a_waited_defend_interrupts():
    s = started("kirin")
    s = wait(s, "kirin", "Defend")
    s = act(pass_to(s, "thug"), "thug", ["viktor"], "Attack")
    s = defend(s, "kirin", ally="viktor")
    assert s.state.fighter("kirin").waiting == "" and s.state.attacked == ("kirin",)
    other = started("kirin")
    other = wait(other, "kirin", "Attack")
    other = act(pass_to(other, "thug"), "thug", ["viktor"])
    with pytest.raises(InitiativeError):  # waited with another Action type
        defend(other, "kirin", ally="viktor")
    # The shared interrupt still takes the declared Action.
    other = interrupt(other, "kirin", "Attack", ["thug"])
    assert not other.state.fighter("kirin").waiting


def test_reach_steals_initiative():
    s = started("thug")  # the Thug is about to Attack Viktor, who holds a spear
    stolen = reach_steal(s, "viktor")
    assert stolen.state.holder == "viktor" and "Reach steals" in stolen.state.log[-1].text
    with pytest.raises(InitiativeError):
        reach_steal(s, "viktor", attacker_has_reach=True)
    spent = act(pass_to(act(started(), "viktor", [], "Move"), "thug"), "thug", [], "Move")
    spent = pass_to(spent, "kirin")
    with pytest.raises(InitiativeError):  # Viktor is out of Actions
        reach_steal(spent, "viktor")


def test_damage_is_mettle_and_staggered_is_left_to_the_sheet():
    s = apply_step(started(), "damage", {"key": "thug", "amount": 4})
    assert s.state.fighter("thug").fallen
    with pytest.raises(InitiativeError):
        apply_step(started(), "damage", {"key": "viktor", "amount": 3, "stagger": True})


def test_a_ledger_replays_into_the_same_scene():
    steps = [
        ("trigger", {"key": "viktor"}),
        ("split", {"actor": "viktor", "dice": 5, "parts": 2, "targets": ["thug"],
                   "action": "Attack"}),
        ("pass", {"to": "thug"}),
        ("act", {"actor": "thug", "targets": ["kirin"], "action": "Attack"}),
        ("defend", {"key": "viktor", "ally": "kirin"}),
        ("statuses", {"key": "kirin", "statuses": ["rattled"]}),
    ]
    s = replay(scene(), steps)
    assert s.parts_left("viktor") == (2,)
    assert s.state.attacked == ("viktor",)
    assert s.state.fighter("kirin").statuses == frozenset({"rattled"})
    with pytest.raises(InitiativeError):
        apply_step(s, "statuses", {"key": "kirin", "statuses": ["grappled"]})


def test_a_split_action_cannot_become_a_wait_and_the_scene_ends():
    s = split(started(), "viktor", 4, 2, targets=["kirin"], action="Rally")
    s = act(pass_to(s, "kirin"), "kirin", [], "Move")
    s = pass_to(s, "viktor")
    with pytest.raises(InitiativeError):
        wait(s, "viktor", "Defend")
    s = end(s)
    assert not s.state.running and "Initiative ends" in s.state.log[-1].text
