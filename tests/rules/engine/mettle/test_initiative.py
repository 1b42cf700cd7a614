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
    damage,
    defend,
    end,
    fighter,
    interrupt,
    join,
    legal_passes,
    move,
    new_scene,
    pass_to,
    reach_steal,
    replay,
    split,
    surprise,
    trigger,
    wait,
    who_triggers,
    worn,
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


def test_damage_is_mettle_and_staggered_only_on_a_felling_blow():
    s = apply_step(started(), "damage", {"key": "thug", "amount": 4})
    assert s.state.fighter("thug").fallen
    with pytest.raises(InitiativeError) as refused:
        apply_step(started(), "damage", {"key": "viktor", "amount": 3, "stagger": True})
    assert refused.value.field == "stagger"


def soaked_scene():
    return new_scene([
        fighter("viktor", "Viktor", mettle_max=9),
        fighter("kirin", "Kirin", mettle_max=8),
        fighter("thug", "Thug", side=FOES, mettle_max=4),
    ], soaks={"viktor": 5, "kirin": 3, "thug": 4}, zones={"viktor": "Hall", "kirin": "Hall",
                                                          "thug": "Stairs"})


def test_damage_goes_through_soak_and_staggered_stands_below_zero():
    """EN §Taking Damage: damage less Soak; Viktor (Mettle 9, Soak 5) hit for 12: 7
    through, Mettle 2; hit for 8 more: 3 through, a Felling blow at -1; Staggered costs one
    more point (-2) and he stays up, with his Action, but loses his Free Move."""
    s = trigger(soaked_scene(), "viktor")
    s = damage(s, "viktor", 12)
    assert s.state.fighter("viktor").hp == 2
    s = damage(s, "viktor", 8, stagger=True)
    viktor = s.state.fighter("viktor")
    assert viktor.hp == -2 and "staggered" in viktor.statuses
    assert not viktor.fallen and viktor.has_action and not viktor.has_free_move
    # Again on a later Felling blow; or Fallen.
    s2 = damage(s, "viktor", 6, stagger=True)
    assert s2.state.fighter("viktor").hp == -4 and not s2.state.fighter("viktor").fallen
    s3 = damage(s, "viktor", 6)
    assert s3.state.fighter("viktor").fallen and s3.state.fighter("viktor").hp == -3
    # A Defend's Soak bonus, Soft halving (rounded up) after Soak.
    s4 = damage(trigger(soaked_scene(), "viktor"), "kirin", 9, soak_bonus=2, soft=True)
    assert s4.state.fighter("kirin").hp == 8 - 2  # (9 - 5) halved
    # A Stun Attack's Felling blow: Incapacitated, Mettle untouched.
    s5 = damage(trigger(soaked_scene(), "viktor"), "thug", 20, stun_attack=True,
                stun_weapon=True)
    thug = s5.state.fighter("thug")
    assert thug.hp == 4 and "incapacitated" in thug.statuses and not thug.has_action


def test_staggered_does_not_change_eldritch_gambits_fighter():
    from rules.engine import volleyball
    eg = volleyball.fighter("a", "A", hp_max=5, hp=0, statuses=["staggered"])
    assert eg.fallen
    mettle = fighter("a", "A", mettle_max=5, mettle=0, statuses=["staggered"])
    assert not mettle.fallen


def test_the_free_move_and_when_it_costs_the_action():
    s = trigger(soaked_scene(), "viktor")
    s = move(s, "viktor", "Stairs")
    assert s.zone("viktor") == "Stairs" and s.state.fighter("viktor").has_action
    assert not s.state.fighter("viktor").has_free_move
    with pytest.raises(InitiativeError):
        move(s, "viktor", "Stairs")
    # A second Move is the Action itself.
    s = move(s, "viktor", "Yard")
    assert s.state.fighter("viktor").spent and s.state.phase == "pass"
    # Hindered: the Move costs the Action at once.
    h = move(trigger(soaked_scene(), "viktor"), "viktor", "Stairs", hindered=True)
    assert h.state.fighter("viktor").spent


def encumbered_scene():
    return new_scene([
        fighter("viktor", "Viktor", mettle_max=9, statuses=["encumbered"]),
        fighter("thug", "Thug", side=FOES, mettle_max=4),
    ], zones={"viktor": "Hall", "thug": "Stairs"})


def test_an_encumbered_fighter_crosses_a_zone_with_two_moves():
    """CH §Encumbrance: "every Zone crossed takes up two Moves": the Free Move and the
    Move Action together; nothing is left for an Attack that Round."""
    s = move(trigger(encumbered_scene(), "viktor"), "viktor", "Stairs")
    viktor = s.state.fighter("viktor")
    assert s.zone("viktor") == "Stairs"
    assert not viktor.has_free_move and viktor.spent and s.state.phase == "pass"
    assert "Encumbered: two Moves" in s.state.log[-1].text


def test_an_encumbered_fighter_cannot_cross_with_one_move_left():
    s = trigger(encumbered_scene(), "viktor")
    with pytest.raises(InitiativeError, match="Encumbered: crossing a Zone takes two Moves"):
        move(s, "viktor", "Stairs", hindered=True)
    assert s.zone("viktor") == "Hall" and s.state.fighter("viktor").has_action
    # Staggered loses the Free Move (EN §Taking Damage): one Move left, not enough.
    staggered = new_scene([
        fighter("viktor", "Viktor", mettle_max=9, mettle=0,
                statuses=["encumbered", "staggered"]),
        fighter("thug", "Thug", side=FOES, mettle_max=4),
    ], zones={"viktor": "Hall", "thug": "Stairs"})
    with pytest.raises(InitiativeError, match="the Free Move is used"):
        move(trigger(staggered, "viktor"), "viktor", "Stairs")


def test_defend_an_ally_only_in_the_same_zone():
    s = trigger(soaked_scene(), "thug")
    s = act(s, "thug", ["kirin"], "Attack")
    s2 = defend(s, "viktor", "kirin")  # both in the Hall
    assert s2.state.attacked == ("viktor",)
    s = trigger(soaked_scene(), "viktor")
    s = move(s, "viktor", "Stairs")
    s = act(s, "viktor", ["thug"], "Attack")
    s = pass_to(s, "thug")
    s = act(s, "thug", ["kirin"], "Attack")
    with pytest.raises(InitiativeError) as refused:
        defend(s, "viktor", "kirin")
    assert "same Zone" in refused.value.message


def test_mettle_refills_at_the_end_only_above_zero():
    """AMB-M-INI-1: the end of Initiative is the new Scene of EN §Mettle."""
    s = trigger(soaked_scene(), "viktor")
    s = damage(s, "viktor", 8)  # 3 through: 6
    s = damage(s, "kirin", 20, stagger=True)  # 17 through: -9, Staggered -10
    s = end(s)
    assert s.state.fighter("viktor").hp == 9
    assert s.state.fighter("kirin").hp == -10
    assert "except for Kirin (Staggered, Mettle -10)" in s.state.log[-1].text


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
    assert s.parts_left("viktor") == ()  # his Defend took the last part (AMB-M-INI-4)
    assert s.state.fighter("viktor").spent
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


def test_a_mob_loses_a_member_on_a_felling_blow_and_cannot_stagger():
    """AMB-M-INI-2: the shared Mob for a crowd of identical NPC pools."""
    s = new_scene([fighter("viktor", "Viktor", mettle_max=9),
                   fighter("rats", "Rats", side=FOES, mettle_max=2, mob=True, members=3)],
                  soaks={"rats": 1})
    s = trigger(s, "viktor")
    s = damage(s, "rats", 4)  # 3 through a pool of 2: a Felling blow
    rats = s.state.fighter("rats")
    assert rats.members == 2 and rats.hp == 2 and not rats.fallen
    with pytest.raises(InitiativeError):
        damage(s, "rats", 4, stagger=True)
    s = damage(s, "rats", 4, area=True)
    assert s.state.fighter("rats").fallen


def test_defend_with_an_unknown_zone_is_the_guides_call():
    """AMB-M-INI-3: only two known, different Zones refuse a Defend for an ally."""
    s = new_scene([fighter("viktor", "Viktor", mettle_max=9),
                   fighter("kirin", "Kirin", mettle_max=8),
                   fighter("thug", "Thug", side=FOES, mettle_max=4)],
                  zones={"kirin": "Hall"})
    s = act(trigger(s, "thug"), "thug", ["kirin"], "Attack")
    assert defend(s, "viktor", "kirin").state.attacked == ("viktor",)


def test_a_splitter_defends_with_the_next_part():
    """AMB-M-INI-4: Viktor split 6D into three; attacked, he Defends with the next part
    (2D) and keeps his Action for the last one."""
    s = split(started(), "viktor", 6, 3, targets=["thug"], action="Attack")
    s = act(pass_to(s, "thug"), "thug", ["viktor"], "Attack")
    s = defend(s, "viktor")
    assert s.parts_left("viktor") == (2,) and s.state.fighter("viktor").has_action
    assert "next part of the Split Action (2D)" in s.state.log[-1].text
    s = act_part(pass_to(s, "viktor"), "viktor", ["thug"], "Attack")
    assert not s.parts_left("viktor") and s.state.fighter("viktor").spent


def bp_scene():
    """Viktor wears a Kevlar vest (BP): FRAME 3 + 1 = Soak 4 (RS §Armor)."""
    return trigger(new_scene([
        fighter("viktor", "Viktor", mettle_max=9),
        fighter("thug", "Thug", side=FOES, mettle_max=4),
    ], soaks={"viktor": 4, "thug": 2}, bulletproof=["viktor"]), "viktor")


def test_bp_armour_halves_the_first_firearm_damage_once_a_fight():
    """RS §Armor: a pistol hit of 7 on Soak 4 leaves 3, halved (rounded up) to 2 by BP;
    the second firearm hit is only Soaked (3 through)."""
    s = bp_scene()
    assert s.bulletproof == ("viktor",) and s.bp_spent == ()
    s = damage(s, "viktor", 7, firearm=True)
    assert s.state.fighter("viktor").hp == 9 - 2
    assert s.bp_spent == ("viktor",)
    assert "BP armour halves its first firearm damage, 2 through" in s.state.log[-1].text
    s = damage(s, "viktor", 7, firearm=True)
    assert s.state.fighter("viktor").hp == 7 - 3
    # A firearm hit on someone without BP, and a blade on the BP wearer: no halving.
    s2 = damage(bp_scene(), "thug", 5, firearm=True)
    assert s2.state.fighter("thug").hp == 4 - 3 and s2.bp_spent == ()
    s3 = damage(bp_scene(), "viktor", 7)
    assert s3.state.fighter("viktor").hp == 9 - 3 and s3.bp_spent == ()
    # AMB-M-BP-1: a firearm hit wholly soaked leaves the vest unspent.
    s4 = damage(bp_scene(), "viktor", 4, firearm=True)
    assert s4.state.fighter("viktor").hp == 9 and s4.bp_spent == ()
    # An NPC whose armour is only a Soak: the hit says it wears BP.
    s5 = damage(bp_scene(), "thug", 5, firearm=True, bulletproof=True)
    assert s5.state.fighter("thug").hp == 4 - 2 and s5.bp_spent == ("thug",)
    s5 = damage(s5, "thug", 3, firearm=True, bulletproof=True)
    assert s5.state.fighter("thug").hp == 2 - 1


def test_bp_first_hit_is_in_the_replay_so_undo_restores_it():
    """The fight is a replayed ledger: without the first hit (an undo), the next firearm
    hit is the first again."""
    steps = [("damage", {"key": "viktor", "amount": 7, "firearm": True}),
             ("damage", {"key": "viktor", "amount": 7, "firearm": True})]
    both = replay(bp_scene(), steps)
    assert both.state.fighter("viktor").hp == 9 - 2 - 3
    undone = replay(bp_scene(), steps[:1])
    assert undone.state.fighter("viktor").hp == 7 and undone.bp_spent == ("viktor",)
    assert replay(bp_scene(), []).bp_spent == ()
    # A newcomer in a vest.
    s = join(bp_scene(), fighter("kirin", "Kirin", mettle_max=8), soak=3, bulletproof=True)
    s = damage(s, "kirin", 8, firearm=True)
    assert s.state.fighter("kirin").hp == 8 - 3  # (8 - 3) = 5, halved up to 3


def test_a_stun_only_weapon_always_stuns_on_a_felling_blow():
    """RS §Specials, Stun: a Taser (DM 6) "does damage but will always Stun on a Felling
    blow": not ticked as a Stun Attack, a hit of 6 on the Thug (Mettle 4, Soak 2) leaves
    4 through, a Felling blow: Incapacitated, Mettle untouched, not Fallen."""
    s = damage(bp_scene(), "thug", 6, stun_only=True)
    thug = s.state.fighter("thug")
    assert thug.hp == 4 and "incapacitated" in thug.statuses and not thug.fallen
    assert "Stun-only weapon's Felling blow" in s.state.log[-1].text
    # Without it, the same hit fells: Fallen at 0.
    fallen = damage(bp_scene(), "thug", 6).state.fighter("thug")
    assert fallen.fallen and fallen.hp == 0
    # It does damage short of a Felling blow, in full (a Stun weapon: not halved).
    s = damage(bp_scene(), "viktor", 8, stun_only=True)
    assert s.state.fighter("viktor").hp == 9 - 4
    s = damage(bp_scene(), "viktor", 8, stun_only=True, stun_attack=True)
    assert s.state.fighter("viktor").hp == 9 - 4
    # Staggered is not a choice against it.
    with pytest.raises(InitiativeError) as refused:
        damage(bp_scene(), "viktor", 20, stun_only=True, stagger=True)
    assert refused.value.field == "stagger"
    via_ledger = apply_step(bp_scene(), "damage", {"key": "thug", "amount": 6,
                                                    "stun_only": True})
    assert "incapacitated" in via_ledger.state.fighter("thug").statuses


def test_a_hit_is_soaked_by_the_armour_recorded_with_it():
    """AMB-M-INI-7: a damage step's recorded `soak` and `wears_bp` (the target's as the
    hit landed) win over the Scene's, which may have been read from a sheet changed
    since; a step without them (recorded before they were kept) reads the Scene's."""
    s = bp_scene()  # Viktor: Soak 4, BP, as the Scene has him now
    assert worn(s, "viktor") == {"soak": 4, "wears_bp": True}
    assert worn(s, "thug") == {"soak": 2, "wears_bp": False}
    assert worn(s, "nobody") == {} and worn(s, ["viktor"]) == {}
    # Hit when he wore nothing (Soak 3, no BP): 7 is 4 through, a pistol is not halved.
    then = {"key": "viktor", "amount": 7, "firearm": True, "soak": 3, "wears_bp": False}
    replayed = replay(s, [("damage", then)])
    assert replayed.state.fighter("viktor").hp == 9 - 4 and replayed.bp_spent == ()
    assert "Soak 3: 4 through" in replayed.state.log[-1].text
    # The Defend's bonus adds to the recorded Soak.
    defended = apply_step(s, "damage", {**then, "soak_bonus": 2, "firearm": False})
    assert defended.state.fighter("viktor").hp == 9 - 2
    # Recorded in the vest: halved, whatever the Scene says now.
    vest = {"key": "viktor", "amount": 7, "firearm": True, "soak": 4, "wears_bp": True}
    bare = scene()  # no Soak, no BP known for Viktor
    assert apply_step(bare, "damage", vest).state.fighter("viktor").hp == 9 - 2
    # An NPC's BP ticked on the hit still counts beside a recorded "no".
    npc = {"key": "thug", "amount": 5, "firearm": True, "bulletproof": True,
           "soak": 2, "wears_bp": False}
    assert apply_step(bp_scene(), "damage", npc).state.fighter("thug").hp == 4 - 2
    # Old steps: the Scene's numbers.
    old = {"key": "viktor", "amount": 7, "firearm": True}
    assert apply_step(s, "damage", old).state.fighter("viktor").hp == 9 - 2


@pytest.mark.parametrize("recorded", [{"soak": -1}, {"soak": 1000}, {"soak": "3"},
                                      {"soak": 2.5}, {"soak": True}, {"wears_bp": "no"},
                                      {"wears_bp": 0}])
def test_a_recorded_soak_that_is_not_one_is_refused(recorded):
    with pytest.raises(InitiativeError) as refused:
        apply_step(bp_scene(), "damage", {"key": "viktor", "amount": 7, **recorded})
    assert refused.value.field in ("soak", "wears_bp")


# -- Burning (Scenery > Fire; AMB-M-FIRE-1) --------------------------------------------------


def fire_scene():
    """A mummy (an NPC pool 6D, FRAME 2 + no armour) and Viktor (Soak 3)."""
    return trigger(new_scene([
        fighter("viktor", "Viktor", mettle_max=9),
        fighter("mummy", "Mummy", side=FOES, mettle_max=6),
    ], soaks={"viktor": 3, "mummy": 2}), "viktor")


def next_round(s):
    """Both act; Round 2 begins."""
    s = act(s, s.state.holder, [], "Move")
    other = next(f.key for f in s.state.fighters if f.has_action)
    s = act(pass_to(s, other), other, [], "Move")
    return pass_to(s, s.state.legal_passes()[0])


def test_a_flammable_target_takes_the_same_fire_damage_each_round():
    """Scenery > Fire: a torch's 1d6 rolled 5 on a mummy (Soak 2): 3 through; Burning, it
    takes the same 5 again each Round, soaked again: 3 more in Round 2, once."""
    s = apply_step(fire_scene(), "damage", {"key": "mummy", "amount": 5, "burning": True})
    mummy = s.state.fighter("mummy")
    assert mummy.hp == 3 and "burning" in mummy.statuses and not mummy.can_rally
    assert s.burn_amount("mummy") == 5 and s.burn_due("mummy") is None  # Round 1's taken
    with pytest.raises(InitiativeError, match="already burned this Round"):
        apply_step(s, "burn", {"key": "mummy"})
    s = next_round(s)
    assert s.state.round == 2 and s.burn_due("mummy") == 5
    assert "Mummy is Burning: 5 fire damage again this Round, through Soak." in [
        e.text for e in s.state.log]
    assert not any("1d6" in e.text for e in s.state.log)  # not Eldritch Gambit's 1d6
    s = apply_step(s, "burn", {"key": "mummy"})
    assert s.state.fighter("mummy").hp == 0 and s.state.fighter("mummy").fallen
    assert s.burn_due("mummy") is None
    with pytest.raises(InitiativeError):
        apply_step(s, "burn", {"key": "mummy"})
    s = next_round(apply_step(s, "set_mettle", {"key": "mummy", "mettle": 0}))
    # "until extinguished or burnt to cinders": Fallen, it still burns.
    assert s.burn_due("mummy") == 5
    assert apply_step(s, "burn", {"key": "mummy"}).state.fighter("mummy").hp == -3


def test_fire_is_soaked_by_the_armour_recorded_with_each_burn():
    """AMB-M-INI-7 with AMB-M-FIRE-1: the igniting hit and each Round's burn are soaked by
    the Soak recorded with their step, not the Scene's (a sheet changed since)."""
    s = apply_step(fire_scene(), "damage",
                   {"key": "mummy", "amount": 5, "burning": True, "soak": 0})
    assert s.state.fighter("mummy").hp == 6 - 5  # recorded Soak 0, not the Scene's 2
    s = apply_step(next_round(s), "burn", {"key": "mummy", "soak": 4, "wears_bp": False})
    assert s.state.fighter("mummy").hp == 1 - 1  # 5 through the recorded Soak 4
    assert worn(s, "mummy") == {"soak": 2, "wears_bp": False}  # what a new step records


def test_extinguished_burning_stops_and_a_burning_status_asks_for_its_damage():
    s = apply_step(fire_scene(), "damage", {"key": "viktor", "amount": 4, "burning": True})
    s = apply_step(s, "statuses", {"key": "viktor", "statuses": []})  # extinguished
    assert s.burn_amount("viktor") is None
    s = next_round(s)
    assert s.burn_due("viktor") is None
    s = apply_step(s, "statuses", {"key": "viktor", "statuses": ["burning"]})
    assert s.burn_due("viktor") is None  # Burning by hand: the fire's damage unknown
    with pytest.raises(InitiativeError, match="no fire damage given"):
        apply_step(s, "burn", {"key": "viktor"})
    s = apply_step(s, "set_burning", {"key": "viktor", "amount": 6})
    assert s.burn_due("viktor") == 6
    s = apply_step(s, "burn", {"key": "viktor", "stagger": False})
    assert s.state.fighter("viktor").hp == 9 - 1 - 3  # 4-3 in Round 1, 6-3 now
    with pytest.raises(InitiativeError):
        apply_step(s, "set_burning", {"key": "viktor", "amount": 0})


def test_a_burning_felling_blow_may_be_staggered():
    s = apply_step(fire_scene(), "set_mettle", {"key": "viktor", "mettle": 2})
    s = apply_step(s, "set_burning", {"key": "viktor", "amount": 6})
    s = apply_step(s, "burn", {"key": "viktor", "stagger": True})
    viktor = s.state.fighter("viktor")
    assert "staggered" in viktor.statuses and viktor.hp == 2 - 3 - 1


# -- an affliction's ticks in the fight (Scenery > Affliction; AMB-M-AFF-4) --------------------


def test_a_poison_tick_lowers_the_fights_maximum_and_mettle_above_it():
    s = apply_step(started(), "affliction", {"key": "viktor", "afflicted": True,
                                             "source": "Curare dart"})
    assert "afflicted" in s.state.fighter("viktor").statuses
    assert s.state.log[-1].text == "Viktor: Curare dart, Afflicted."
    s = apply_step(s, "affliction", {"key": "viktor", "change": -1, "source": "Curare dart"})
    viktor = s.state.fighter("viktor")
    assert (viktor.hp, viktor.hp_max) == (8, 8)
    assert s.state.log[-1].text == "Viktor: Curare dart, max Mettle lowered 9 → 8, Mettle 9 → 8."
    s = apply_step(s, "affliction", {"key": "viktor", "change": 1, "afflicted": False})
    viktor = s.state.fighter("viktor")
    assert (viktor.hp, viktor.hp_max) == (8, 9) and "afflicted" not in viktor.statuses
    # "if it lowers Mettle to 0 or below they still become Staggered or Fallen"
    low = apply_step(started(), "set_mettle", {"key": "thug", "mettle": 1})
    for _ in range(4):
        low = apply_step(low, "affliction", {"key": "thug", "change": -1})
    assert low.state.fighter("thug").hp == 0 and low.state.fighter("thug").fallen
    with pytest.raises(InitiativeError):
        apply_step(started(), "affliction", {"key": "viktor", "change": -2})
