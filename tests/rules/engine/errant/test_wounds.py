"""Attacks, 0 HP, wounds, death clocks, hazards, Morale, Warbands (Errant SRD IT §Attacking,
§Gambits, §Death & Dying, §Drowning, Falling, Burning, §Morale, §Warbands; PR §Armour,
§Quality & Breakage)."""

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.errant import wounds as W
from rules.engine.errant.checks import p_success
from rules.engine.errant.data.initiative_tables import WOUND_TABLES


def test_attack_roll_damage_and_quality():
    roll = W.attack_roll(8, [1])
    assert roll.damage == 1 and roll.weapon_quality_lost == 1 and roll.target_may_act
    roll = W.attack_roll(8, [8])
    assert roll.armour_quality_lost == 1 and roll.ammunition_depleted(missile=True) == 1
    assert roll.ammunition_depleted(missile=False) == 0
    multi = W.attack_roll(6, [1, 6, 6, 1])
    assert multi.weapon_quality_lost == 2 and multi.armour_quality_lost == 2
    assert multi.ammunition_depleted(missile=True) == 1  # once per Attack Roll


def test_blocks_impair_and_a_die_at_1_counts_as_1_and_max():
    roll = W.attack_roll(6, [1], blocks=2)  # D6 -> D4 -> 1
    assert roll.sides == 1
    assert roll.target_may_act and roll.weapon_quality_lost == 1
    assert roll.armour_quality_lost == 1
    assert W.attack_roll(8, [3], enhance=1, blocks=1).sides == 8
    with pytest.raises(W.CombatError):
        W.attack_roll(8, [7], blocks=1)  # a D6 cannot show 7


def test_light_weapon_never_below_1():
    assert W.attack_roll(4, [1], bonus=-1).damage == 1
    assert W.attack_roll(8, [8], bonus=1).damage == 9


def test_use_blocks():
    assert W.use_blocks(6, 2) == 4
    with pytest.raises(W.CombatError):
        W.use_blocks(1, 2)


def test_gambit_trades_damage_for_the_save_dv():
    g = W.gambit(7, 3)
    assert (g.damage, g.save_dv) == (4, 3)
    assert W.gambit(7, 3, dv_modifier=2).save_dv == 5  # goblin's Fight Dirty
    assert W.gambit_outcome(False) == (True, False)
    assert W.gambit_outcome(True, "risky") == (False, True)
    assert W.gambit_outcome(True, "dire") == (False, False)
    assert W.p_gambit_works(10, g) == 1 - p_success(10, 3)
    with pytest.raises(W.CombatError) as err:
        W.gambit(3, 4)
    assert err.value.code == "reduction_too_big"


def test_the_texts_example_4_hp_7_damage_is_a_3_wound():
    h = W.hit(4, 7)
    assert (h.hp_after, h.wound_damage, h.save_dv) == (0, 3, 7)


def test_reduced_exactly_to_0_saves_without_a_wound():
    h = W.hit(5, 5)
    assert (h.hp_after, h.wound_damage, h.save_dv) == (0, 0, 5)
    assert W.p_stay_in_action(12, h) == p_success(12, 5)


def test_damage_at_0_hp_is_all_wound_and_another_save():
    h = W.hit(0, 4)
    assert (h.wound_damage, h.save_dv) == (4, 4)


def test_tough_ancestry_stays_at_1():
    h = W.hit(4, 9, tough=True)
    assert (h.hp_after, h.wound_damage, h.save_dv) == (1, 0, None)
    assert W.hit(4, 2, tough=True).hp_after == 2  # not reduced to 0: nothing to choose
    assert W.hit(0, 3, tough=True).save_dv == 3  # already at 0: no effect


def test_no_save_above_0():
    assert W.hit(10, 3).save_dv is None and W.p_stay_in_action(10, W.hit(10, 3)) is None


@given(st.integers(0, 40), st.integers(0, 60))
def test_hit_invariants(hp, damage):
    h = W.hit(hp, damage)
    assert h.hp_after >= 0
    assert h.hp_after + (damage - h.wound_damage) == hp or h.hp_after == 0
    assert h.wound_damage == max(0, damage - hp)


def test_four_tables_nine_rows():
    assert set(WOUND_TABLES) == {"trauma", "shock", "burn", "toxic"}
    for table in WOUND_TABLES.values():
        assert [w.row for w in table] == list(range(1, 10))
        assert table[8].reaper and table[8].out_of_action
    concussed = WOUND_TABLES["shock"][2]
    assert concussed.knocked_out_die == 12 and not concussed.out_of_action  # timed


@pytest.mark.parametrize(("damage", "dead", "deader"), [
    (9, False, False), (10, True, False), (15, True, False), (16, True, True)])
def test_dead_and_deader(damage, dead, deader):
    r = W.wound("trauma", damage)
    assert (r.dead, r.deader) == (dead, deader)


def test_wound_already_received_takes_the_next_lower():
    assert W.wound("trauma", 4, received=[4]).row == 3
    # a leg can be mangled twice ("If both legs go"), not three times
    assert W.wound("trauma", 2, received=[2]).row == 2
    assert W.wound("trauma", 2, received=[2, 2]).row == 1
    assert W.wound("trauma", 3, impossible=[3, 2]).row == 1
    none = W.wound("shock", 1, received=[1])
    assert none.row == 0 and none.wound is None  # AMB-E74


def test_wound_bad_input():
    with pytest.raises(W.CombatError):
        W.wound("fire", 3)
    with pytest.raises(W.CombatError):
        W.wound("trauma", 0)


@pytest.mark.parametrize("renown", [1, 3, 7])
def test_deaths_door_counts_down_renown_turns(renown):
    clock = W.death_clock(W.DEATHS_DOOR, renown)
    for _ in range(renown - 1):
        clock = W.tick(clock, W.INITIATIVE_TURNS)
        assert not clock.dead
    assert W.tick(clock, W.INITIATIVE_TURNS).dead


def test_deaths_door_can_be_stopped_the_reaper_cannot():
    clock = W.stabilise(W.tick(W.death_clock(W.DEATHS_DOOR, 2), "initiative"))
    assert not W.tick(W.tick(clock, "initiative"), "initiative").dead
    with pytest.raises(W.CombatError) as err:
        W.stabilise(W.death_clock(W.REAPER, 2))
    assert err.value.code == "no_remedy"


def test_exploration_clock_ignores_initiative_turns():
    w = WOUND_TABLES["trauma"][0]
    clock = W.clock_for(w, 1)
    assert clock.unit == W.EXPLORATION_TURNS
    assert not W.tick(clock, W.INITIATIVE_TURNS).dead
    assert W.tick(clock, W.EXPLORATION_TURNS).dead
    assert W.clock_for(WOUND_TABLES["trauma"][8], 2).kind == W.REAPER
    assert W.clock_for(WOUND_TABLES["shock"][0], 2) is None


def test_attribute_at_0_is_death():
    assert W.dead_of_attributes([8, 0, 9, 10]) and not W.dead_of_attributes([1, 1, 1, 1])


@pytest.mark.parametrize(("feet", "dice"), [
    (0, None), (9, None), (10, (6, None)), (19, (6, None)), (20, (6, 4)), (35, (6, 6)),
    (60, (6, 12)), (70, (6, 20)), (300, (6, 20))])
def test_fall_rows(feet, dice):
    assert W.fall_dice(feet) == dice


def test_fall_distribution_is_exact():
    dist = W.fall_distribution(30)
    counts = Counter(a * b for a, b in product(range(1, 7), repeat=2))
    assert dist == {k: Fraction(v, 36) for k, v in counts.items()}
    assert sum(dist.values()) == 1
    assert W.fall_damage(20, 5, 3) == 15 and W.fall_damage(10, 4) == 4
    with pytest.raises(W.CombatError):
        W.fall_damage(20, 5)


@given(st.integers(0, 200), st.integers(0, 6))
def test_shared_fall_loses_nothing(damage, catchers):
    shares = W.share_fall(damage, catchers)
    assert sum(shares) == damage and len(shares) == catchers + 1
    assert max(shares) - min(shares) <= catchers


def test_burning_escalates_and_dousing_removes_a_die():
    assert [W.burning_dice(n) for n in (1, 2, 3)] == [1, 2, 3]
    assert W.burning_dice(3, 1) == 2 and W.burning_dice(1, 2) == 0


def test_breath():
    assert W.breath_turns(14) == 4 and W.breath_turns(8) == 0
    assert [W.suffocation_dice(12, t) for t in (1, 2, 3)] == [0, 0, 1]
    assert W.suffocation_dice(9, 1) == 1


@pytest.mark.parametrize("morale", range(2, 13))
def test_morale_odds_by_enumeration(morale):
    wins = sum(a + b > morale for a, b in product(range(1, 7), repeat=2))
    assert W.p_morale_breaks(morale) == Fraction(wins, 36)


def test_morale_examples():
    assert W.p_morale_breaks(7) == Fraction(5, 12)
    assert W.p_morale_breaks(9) == Fraction(1, 6)
    assert W.morale_breaks(8, 7) and not W.morale_breaks(7, 7)
    assert W.morale_breaks(5, 7, penalty=3)
    with pytest.raises(W.CombatError):
        W.p_morale_breaks(13)


@pytest.mark.parametrize(("n", "cat"), [(0, "individual"), (1, "small"), (5, "small"),
                                        (6, "medium"), (10, "medium"), (11, "large"),
                                        (20, "large")])
def test_warband_categories(n, cat):
    assert W.warband_category(n) == cat


def test_warband_hp_and_shrinking():
    assert W.warband_hp(12) == 24 and W.warband_hp(12, "mail") == 36
    assert W.warband_hp(12, "plate") == 48
    assert W.warband_category_by_hp(22) == "large"
    assert W.warband_category_by_hp(20) == "medium"
    assert W.warband_category_by_hp(1) == "small"
    with pytest.raises(W.CombatError):
        W.warband_category(21)


def test_warband_steps_table():
    assert W.warband_steps("individual", "large") == -3
    assert W.warband_steps("large", "individual") == 3
    assert W.warband_steps("medium", "small") == 1
    assert W.warband_steps("small", "small") == 0


def test_damage_hits_the_band_first():
    assert W.damage_warband(6, 10, 4) == (2, 10, 0)
    assert W.damage_warband(6, 10, 9) == (0, 7, 3)


@given(st.sampled_from(["trauma", "shock", "burn", "toxic"]), st.integers(1, 9),
       st.lists(st.integers(1, 9), max_size=12), st.lists(st.integers(1, 9), max_size=4))
def test_a_wound_is_never_above_the_damage_nor_over_its_limit(column, damage, received,
                                                              impossible):
    r = W.wound(column, damage, received, impossible)
    assert 0 <= r.row <= damage
    table = WOUND_TABLES[column]
    limbs = Counter(table[row - 1].limb for row in received if table[row - 1].limb)
    if r.wound:
        assert r.row not in impossible
        assert received.count(r.row) < r.wound.limit
        assert not r.wound.limb or limbs[r.wound.limb] < 2  # a third leg is never lost
    else:
        # nothing at or below the damage was available
        for row in range(1, damage + 1):
            w = table[row - 1]
            assert (row in impossible or received.count(row) >= w.limit
                    or (w.limb and limbs[w.limb] >= 2))


def test_no_leg_is_lost_when_both_legs_have_been_lost():
    """IT §Death & Dying: "If an Errant would receive a wound they have already received or
    cannot physically take (e.g. losing a leg when both legs have been lost), take the next
    available lower wound." A leg mangled (2) and one destroyed (5) are both legs."""
    assert W.wound("trauma", 5, received=[2]).row == 5  # the other leg
    assert W.wound("trauma", 5, received=[2, 5]).row == 4  # no leg left: on death's door
    assert W.wound("trauma", 2, received=[5, 5]).row == 1
    assert W.wound("trauma", 6, received=[3, 3]).row == 5  # both arms gone: the leg
    assert W.wound("burn", 1, received=[1, 1]).row == 0  # both eyes gone, nothing lower


def _limits(*cells):
    return W.wound_limits(WOUND_TABLES[c][r - 1] for c, r in cells)


def test_wounds_that_forbid_a_kind_of_action():
    """IT §Death & Dying's tables: "Can't move" (toxic 7), "If both legs go, you can't walk"
    (trauma 2, 5), "unable to cast Sorceries or Miracles" (burn 2), "If both arms go, you
    can't hold anything" (trauma 3, 6): AMB-E-FIGHT-6."""
    none = _limits()
    assert all(none.forbids(k) is None for k in ("move", "sorcery", "miracle", "item",
                                                 "ready", "other", "attack"))
    assert "can't move" in _limits(("toxic", 7)).forbids("move")
    one_leg = _limits(("trauma", 2))
    assert one_leg.forbids("move") is None and one_leg.walks_only
    both = _limits(("trauma", 2), ("trauma", 5))
    assert "can't walk" in both.forbids("move") and not both.walks_only
    mute = _limits(("burn", 2))
    assert mute.forbids("sorcery") and mute.forbids("miracle") and not mute.forbids("move")
    one_arm = _limits(("trauma", 3))
    assert one_arm.forbids("item") is None and one_arm.attack_impairment == 0
    no_arms = _limits(("trauma", 3), ("trauma", 6))
    assert "both arms" in no_arms.forbids("item") and no_arms.attack_impairment == 2
    assert no_arms.forbids("attack") is None  # unarmed, IT §Attacking: 2 steps impaired
    assert _limits(("burn", 1), ("burn", 1)).blind and not _limits(("burn", 1)).blind
    assert _limits(("toxic", 7), ("trauma", 2)).labels[0] == "can't move"


CELLS = [(c, r) for c in WOUND_TABLES for r in range(1, 10)]


@given(st.lists(st.sampled_from(CELLS), max_size=6), st.sampled_from(CELLS),
       st.sampled_from(["move", "sorcery", "miracle", "item", "ready", "other", "attack"]))
def test_another_wound_never_lifts_a_limit(cells, more, kind):
    before, after = _limits(*cells), _limits(*cells, more)
    if before.forbids(kind):
        assert after.forbids(kind)
    assert after.attack_impairment >= before.attack_impairment
    assert set(before.labels) - set(after.labels) <= {"can't run (moves 10)", "can't walk"}


def test_npc_stat_line_from_the_bestiary():
    goblin = W.Npc("Goblin", 1, 6, "1 x weapon (D6)", (1,), 7, "Chaotic")
    assert W.npc_problems(goblin) == []
    assert goblin.save_dv == 1 and goblin.check_target == 9
    assert goblin.p_morale_breaks == Fraction(5, 12)
    bad = W.Npc("Thing", 11, 0, "", (), 13, "Evil")
    assert [f for f, _ in W.npc_problems(bad)] == ["threat", "hp", "movement", "morale",
                                                    "alignment"]


def test_wounds_that_halve_hp_or_stop_recovery():
    halved, tainted = WOUND_TABLES["toxic"][1], WOUND_TABLES["toxic"][2]
    assert W.max_hp_with_wounds(13, [halved]) == 6
    assert W.max_hp_with_wounds(13, [halved, WOUND_TABLES["trauma"][0]]) == 6
    assert not W.can_recover_hp([tainted]) and W.can_recover_hp([halved])


@pytest.mark.parametrize(("ours", "theirs", "bonus"), [
    (10, 10, 0), (11, 10, 1), (19, 10, 1), (20, 10, 2), (35, 10, 3), (5, 10, 0)])
def test_outnumbering(ours, theirs, bonus):
    assert W.outnumbering_bonus(ours, theirs) == bonus


def test_mass_combat():
    company = W.MassSide(4, 0, 3, advantages=2)  # 9
    bandits = W.MassSide(5, 1, 2)  # 8
    assert W.mass_combat(company, bandits) == ("first", 10, 8)
    assert W.mass_combat(bandits, company) == ("second", 10, 8)
    assert W.mass_combat(W.MassSide(3, 0, 2), W.MassSide(2, 0, 3)) == ("draw", 0, 0)
    with pytest.raises(W.CombatError):
        W.mass_combat(W.MassSide(7, 0, 0), bandits)


# -- wounds that outlast the fight (AMB-E-WOUND-1, -2) ---------------------------------------

from rules.engine.errant.sheet import ErrantBuild, compute_sheet  # noqa: E402

DICE = ((3, 4, 2, 4), (2, 2, 3, 1), (4, 4, 3, 2), (1, 3, 2, 3))


def test_only_the_rows_with_a_stated_duration_end_with_the_fight():
    """"Wounds without a stated duration are permanent unless seen to by a physician":
    stunned for a Turn, Unconscious (Depletion 1), knocked out for D12 Turns end."""
    ending = {(c, w.row) for c, rows in WOUND_TABLES.items() for w in rows if not W.lasts(w)}
    assert ending == {("shock", 1), ("shock", 2), ("shock", 3)}


@pytest.mark.parametrize("column, row, lost", [
    ("trauma", 2, False), ("trauma", 3, False),  # mangled, wrecked: still there
    ("trauma", 5, True), ("trauma", 6, True),  # severed or hanging by sinews
    ("burn", 1, True), ("burn", 4, True), ("burn", 6, True),  # eye, fingers, nose
    ("burn", 3, False), ("toxic", 3, False),
])
def test_a_physician_cannot_restore_a_lost_body_part_a_beneficence_cures_any(column, row,
                                                                              lost):
    w = W.wound_at(column, row)
    refused = W.heal_refusal(w, W.PHYSICIAN)
    assert (refused is not None) is lost
    if lost:
        assert "cannot restore lost body parts" in refused
    assert W.heal_refusal(w, W.BENEFICENCE) is None
    assert W.heal_refusal(w, "prayer") == "Choose a physician or a beneficence."


@pytest.mark.parametrize("column, row", [("acid", 1), ("trauma", 0), ("trauma", 10),
                                         ("trauma", "2"), ("trauma", True), ("trauma", None)])
def test_wound_at_refuses_what_is_not_a_row(column, row):
    with pytest.raises(W.CombatError):
        W.wound_at(column, row)


def test_lasting_effects_from_the_stored_rows():
    both_legs = W.lasting_effects([W.wound_at("trauma", 2), W.wound_at("trauma", 5)], 13)
    assert both_legs.limits.cannot_walk and both_legs.labels == ("can't walk",)
    assert both_legs.hp_max == 13 and both_legs.can_recover_hp
    sick = W.lasting_effects([W.wound_at("toxic", 2), W.wound_at("toxic", 3)], 13)
    assert sick.hp_max == 6 and not sick.can_recover_hp
    assert sick.labels == ("HP maximum halved (6)", "can't recover HP")
    assert W.lasting_effects([], 13).labels == ()


def test_the_sheet_halves_the_hp_maximum_for_a_carried_wound():
    """"Immune system compromised. HP halved" (toxic 2), rounded down (CR §Rounding)."""
    whole = compute_sheet(ErrantBuild(dice=DICE))
    halved = compute_sheet(ErrantBuild(dice=DICE, wounds=(("toxic", 2),)))
    phys = whole.value("phys")
    assert whole.value("hp_max") == phys
    assert halved.value("hp_max") == phys // 2
    assert halved.stats["hp_max"].notes == ("halved by 1 wound",)
    assert halved.value("hp_current") == phys // 2
    legs = compute_sheet(ErrantBuild(dice=DICE, wounds=(("trauma", 2),)))
    assert legs.value("hp_max") == phys
