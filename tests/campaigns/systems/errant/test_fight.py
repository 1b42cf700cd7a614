"""A fight of Initiative Turns (fight.py over fight_state.py): the set-up's dice, the
odd-or-even call, paces and phases, attacks against HP, the 0-HP Save and wounds, Morale,
effects expiring, the Turn log's rows and HP written back, undo, stale pages and double
clicks, who may write."""

import random
import re
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from campaigns import services
from campaigns.services import CampaignError
from campaigns.systems.errant import fight, turns
from campaigns.systems.errant.fight_models import ErrantFightStep
from campaigns.systems.errant.fight_state import FightError, apply, fold
from campaigns.systems.errant.turn_models import ErrantTurn, ErrantTurnChange
from rules.engine.errant import wounds as wo
from rules.engine.errant.checks import p_success
from tests.characters.systems.errant.helpers import make_wren
from tests.factories import MembershipFactory

pytestmark = pytest.mark.django_db

GOBLIN = {"name": "Goblin", "threat": 1, "hp": 4, "att": "spear D6", "mv": "2",
          "morale": 7, "alignment": "Chaotic", "damage_sides": 6, "warband": 0}


class Dice(random.Random):
    """Gives the faces listed, in order (then 1s)."""

    def __init__(self, *faces):
        super().__init__()
        self.faces = list(faces)

    def randint(self, a, b):
        face = self.faces.pop(0) if self.faces else a
        assert a <= face <= b, (face, a, b)
        return face


@pytest.fixture
def started(campaign, guide, wren, ash):
    return fight.start(campaign=campaign, by=guide, name="At the ford",
                       character_pks=[wren.pk, ash.pk], rng=Dice(3, 6))


def go(campaign, guide, f, kind, payload=None, *dice, **kw):
    f.refresh_from_db()
    return fight.step(campaign=campaign, by=guide, fight_pk=f.pk, version=f.version,
                      kind=kind, payload=payload or {}, rng=Dice(*dice), **kw)


def test_set_up_rolls_distance_and_surprise_and_joins_the_errants(started, wren, ash):
    state = fight.state_of(started)
    assert (state.distance_die, state.distance) == (3, 30)
    assert state.surprise_die == 6 and state.surprise == "company"
    assert [f.name for f in state.fighters.values()] == [wren.display_name, ash.display_name]
    errant = state.fighters[f"e{wren.pk}"]
    assert errant.hp == errant.hp_max > 0 and errant.attributes["phys"] == errant.hp_max
    assert "Combat distance: D6 3 x 10 = 30" in started.steps.first().text


def test_the_call_both_dice_and_the_winner_and_a_turn_log_row(campaign, guide, started):
    travel = turns.declare(campaign=campaign, kind="travel", by=guide, turn_of_day=1)
    go(campaign, guide, started, "npc", GOBLIN)
    done = go(campaign, guide, started, "turn", {"call": "odd", "caller": "Wren"}, 2, 5)
    state = done.state
    assert state.order.total == 7 and state.order.winner == "company"
    assert "Wren calls odd; the Errant's d6 2 + the Guide's d6 5 = 7 (odd): the Company " \
           "wins." in done.step.text
    row = ErrantTurn.objects.get(kind="initiative")
    assert row.parent == travel and done.step.payload["errant_turn"] == row.pk
    assert row.changes.filter(what="note", label__contains="calls odd").exists()


def test_phases_in_order_quick_and_slow_and_refusals(campaign, guide, started, wren, ash):
    go(campaign, guide, started, "npc", GOBLIN)
    go(campaign, guide, started, "turn", {"call": "even"}, 1, 1)  # 2: even, Company wins
    w, a = f"e{wren.pk}", f"e{ash.pk}"
    go(campaign, guide, started, "pace", {"key": w, "pace": "quick"})
    go(campaign, guide, started, "pace", {"key": a, "pace": "slow"})
    go(campaign, guide, started, "pace", {"key": "n4", "pace": "quick"})
    with pytest.raises(CampaignError, match="not .*phase"):
        go(campaign, guide, started, "act", {"key": a, "kind": "move"})
    go(campaign, guide, started, "act", {"key": w, "kind": "move"})
    with pytest.raises(CampaignError, match="no actions left"):
        go(campaign, guide, started, "act", {"key": w, "kind": "other"})
    state = go(campaign, guide, started, "next_phase").state
    assert state.phase_label == "The NPCs act quickly"
    go(campaign, guide, started, "next_phase")
    base = {"key": a, "target": "n4", "enhance": 0, "impair": 0, "blocks": 0, "bonus": 0,
            "reduction": 0}
    go(campaign, guide, started, "attack", base, 3)
    with pytest.raises(CampaignError, match="Only one Attack Roll"):
        go(campaign, guide, started, "attack", base, 3)
    go(campaign, guide, started, "act", {"key": a, "kind": "move"})
    with pytest.raises(CampaignError, match=f"{ash.display_name} has no actions left"):
        go(campaign, guide, started, "act", {"key": a, "kind": "other"})


def test_an_attack_kills_an_npc_and_a_morale_roll_shows_its_chance(campaign, guide, started,
                                                                   wren):
    go(campaign, guide, started, "npc", GOBLIN)
    go(campaign, guide, started, "npc", {**GOBLIN, "name": "Boss", "hp": 9, "morale": 9})
    go(campaign, guide, started, "turn", {"call": "even"}, 1, 1)
    w = f"e{wren.pk}"
    go(campaign, guide, started, "pace", {"key": w, "pace": "quick"})
    sides = fight.state_of(started).fighters[w].damage_sides
    done = go(campaign, guide, started, "attack",
              {"key": w, "target": "n4", "enhance": 0, "impair": 0, "blocks": 0, "bonus": 0,
               "reduction": 0}, sides)
    assert done.state.fighters["n4"].dead and "Goblin falls" in done.step.text
    assert "4 to 0 HP" not in done.step.text and "4 to 0 HP" in done.step.guide_text
    assert f"D{sides} rolled {sides}" in done.step.text
    morale = go(campaign, guide, started, "morale", {"key": "n5"}, 6, 5)
    assert morale.state.fighters["n5"].fled
    assert wo.p_morale_breaks(9) == Fraction(1, 6) and "1/6 to break" in morale.step.guide_text
    assert "1/6" not in morale.step.text


def _npc_hits_wren(campaign, guide, started, wren, face, dice=1, key="n4"):
    go(campaign, guide, started, "npc", {**GOBLIN, "damage_sides": 20})
    go(campaign, guide, started, "turn", {"call": "odd"}, 1, 1)  # even: the NPCs win
    go(campaign, guide, started, "pace", {"key": key, "pace": "quick"})
    return go(campaign, guide, started, "attack",
              {"key": key, "target": f"e{wren.pk}", "enhance": 0, "impair": 0, "blocks": 0,
               "bonus": 0, "reduction": 0, "dice": dice}, *face)


def test_zero_hp_save_wound_and_death_clock_counted_down(campaign, guide, started, wren):
    hp = fight.state_of(started).fighters[f"e{wren.pk}"].hp
    done = _npc_hits_wren(campaign, guide, started, wren, [hp + 7])
    errant = done.state.fighters[f"e{wren.pk}"]
    assert errant.hp == 0 and errant.pending_save == hp + 7 and errant.pending_wound == 7
    chance = p_success(errant.attributes["phys"], hp + 7)
    assert f"phys Save against DV {hp + 7} due ({chance.numerator}/{chance.denominator})" \
        in done.step.text
    saved = go(campaign, guide, started, "save", {"key": f"e{wren.pk}"}, 20)
    assert saved.state.fighters[f"e{wren.pk}"].out  # 20 > phys: out of action
    wound = go(campaign, guide, started, "wound", {"key": f"e{wren.pk}", "column": "trauma"})
    errant = wound.state.fighters[f"e{wren.pk}"]
    expected = wo.wound("trauma", 7)
    assert errant.wounds == [("trauma", expected.row, expected.wound.text)]
    clock = wo.clock_for(expected.wound, errant.renown)
    if clock is not None:
        assert errant.clock.turns_left == errant.renown
        go(campaign, guide, started, "end_turn")
        assert fight.state_of(started).fighters[f"e{wren.pk}"].clock.turns_left == \
            errant.renown - 1


def test_effects_expire_at_the_turns_end(campaign, guide, started):
    go(campaign, guide, started, "npc", GOBLIN)
    go(campaign, guide, started, "turn", {"call": "odd"}, 1, 2)
    go(campaign, guide, started, "effect", {"label": "Blinded by dust", "turns": 1})
    go(campaign, guide, started, "effect", {"label": "Paralysed", "turns": 2})
    done = go(campaign, guide, started, "end_turn")
    assert [e.label for e in done.state.expired] == ["Blinded by dust"]
    assert "Expired: Blinded by dust." in done.step.text
    assert [e.label for e in done.state.carried] == ["Paralysed"]
    nxt = go(campaign, guide, started, "turn", {"call": "odd"}, 1, 2).state
    assert [e.label for e in nxt.turn.effects] == ["Paralysed"]


def test_the_end_writes_hp_back_through_the_turn_log_and_undo_puts_it_back(
        campaign, guide, started, wren):
    hp = fight.state_of(started).fighters[f"e{wren.pk}"].hp
    _npc_hits_wren(campaign, guide, started, wren, [3])
    go(campaign, guide, started, "end_turn")
    go(campaign, guide, started, "end")
    wren.refresh_from_db()
    started.refresh_from_db()
    assert wren.hp_current == hp - 3 and started.ended
    change = ErrantTurnChange.objects.get(what="hp")
    assert (change.before, change.after) == (None, hp - 3)
    fight.undo(campaign=campaign, by=guide, fight_pk=started.pk, version=started.version)
    wren.refresh_from_db()
    started.refresh_from_db()
    assert wren.hp_current is None and not started.ended


def test_undo_marks_the_step_and_undoing_the_call_undoes_its_turn_log_row(
        campaign, guide, started):
    go(campaign, guide, started, "npc", GOBLIN)
    go(campaign, guide, started, "turn", {"call": "odd"}, 1, 2)
    started.refresh_from_db()
    last = fight.undo(campaign=campaign, by=guide, fight_pk=started.pk,
                      version=started.version)
    assert last.kind == "turn" and last.undone_by == guide
    assert ErrantTurn.objects.get(kind="initiative").undone
    assert fight.state_of(started).turn is None


def test_a_stale_page_and_a_double_click_step_once(campaign, guide, started):
    started.refresh_from_db()
    version = started.version
    one = fight.step(campaign=campaign, by=guide, fight_pk=started.pk, version=version,
                     kind="npc", payload=GOBLIN, request_key="k1")
    two = fight.step(campaign=campaign, by=guide, fight_pk=started.pk, version=version,
                     kind="npc", payload=GOBLIN, request_key="k1")
    assert one.step.pk == two.step.pk
    with pytest.raises(CampaignError) as stale:
        fight.step(campaign=campaign, by=guide, fight_pk=started.pk, version=version,
                   kind="npc", payload=GOBLIN)
    assert stale.value.code == "stale"
    assert ErrantFightStep.objects.filter(kind="npc").count() == 1


def test_only_the_guide_runs_a_fight(campaign, player, started, wren):
    with pytest.raises(CampaignError, match="Only the Guide"):
        fight.start(campaign=campaign, by=player, name="x", character_pks=[wren.pk])
    with pytest.raises(CampaignError, match="Only the Guide"):
        go(campaign, player, started, "npc", GOBLIN)


def test_one_fight_at_a_time_and_errants_of_the_company_only(campaign, guide, started, wren):
    with pytest.raises(CampaignError, match="already under way"):
        fight.start(campaign=campaign, by=guide, name="x", character_pks=[wren.pk])


@pytest.mark.parametrize("payload,field", [
    ({**GOBLIN, "threat": 11}, "threat"), ({**GOBLIN, "morale": 1}, "morale"),
    ({**GOBLIN, "mv": "fast"}, "mv"), ({**GOBLIN, "name": ""}, "name"),
    ({**GOBLIN, "damage_sides": 7}, "damage_sides"), ({**GOBLIN, "alignment": "Evil"},
                                                      "alignment")])
def test_bad_npcs_are_refused_beside_the_field(campaign, guide, started, payload, field):
    with pytest.raises(CampaignError) as refused:
        go(campaign, guide, started, "npc", payload)
    assert refused.value.field == field


def test_the_fold_refuses_a_turn_before_the_set_up_and_leaves_the_state():
    with pytest.raises(FightError, match="combat distance"):
        apply(fold(()), "turn", {"call": "odd", "errant_die": 1, "guide_die": 2})


def test_a_gambit_shows_the_targets_save_and_its_chance(campaign, guide, started, wren):
    go(campaign, guide, started, "npc", GOBLIN)  # Threat 1: saves on 9
    go(campaign, guide, started, "turn", {"call": "even"}, 1, 1)
    w = f"e{wren.pk}"
    go(campaign, guide, started, "pace", {"key": w, "pace": "quick"})
    sides = fight.state_of(started).fighters[w].damage_sides
    done = go(campaign, guide, started, "attack",
              {"key": w, "target": "n4", "reduction": 2, "gambit": "disarm"}, sides, 12)
    chance = p_success(9, 2)
    assert f"Save d20 12 against DV 2 ({chance.numerator}/{chance.denominator} to save): " \
           "fails, the gambit works" in done.step.text
    assert [e.label for e in done.state.turn.effects] == ["disarm"]
    assert done.state.fighters["n4"].hp == max(0, 4 - (sides - 2))


def test_blocks_impair_the_die_and_a_warband_takes_damage_before_its_leader(
        campaign, guide, started, wren):
    go(campaign, guide, started, "npc", {**GOBLIN, "name": "Chief", "warband": 3,
                                         "armour": "mail", "hp": 5})
    go(campaign, guide, started, "turn", {"call": "even"}, 1, 1)
    w = f"e{wren.pk}"
    go(campaign, guide, started, "pace", {"key": w, "pace": "quick"})
    state = fight.state_of(started)
    assert state.fighters["n4"].band_hp == wo.warband_hp(3, "mail") == 9
    _, _, steps, sides = fight.attack_sides(state, {"key": w, "target": "n4", "blocks": 1})
    assert steps["impair"] == 1  # a small Warband against an individual: impaired 1 step
    wren_sides = state.fighters[w].damage_sides
    assert sides == wo.step_damage_die(wren_sides, 0, 2)  # and 1 more for the Block
    done = go(campaign, guide, started, "attack",
              {"key": w, "target": "n4", "blocks": 1}, sides)
    chief = done.state.fighters["n4"]
    assert chief.band_hp == 9 - sides and chief.hp == 5
    assert f"rolled {sides}" in done.step.text and "1 Block used" in done.step.text


def test_fire_breath_and_falls_hurt_as_hits(campaign, guide, started, wren):
    go(campaign, guide, started, "npc", GOBLIN)
    w = f"e{wren.pk}"
    hp = fight.state_of(started).fighters[w].hp
    fire = go(campaign, guide, started, "hazard",
              {"key": w, "hazard": "fire", "turns": 3, "douse": 1}, 2, 1)
    assert "on fire (Turn 3): 2D6 2 + 1 = 3 damage" in fire.step.text
    assert fire.state.fighters[w].hp == hp - 3
    fall = go(campaign, guide, started, "hazard", {"key": "n4", "hazard": "fall",
                                                   "feet": 25}, 2, 3)
    assert "falls 25 feet: D6 2 x D4 3 = 6 damage" in fall.step.text  # 20' row (AMB-E24)
    assert fall.state.fighters["n4"].dead
    phys = fall.state.fighters[w].attributes["phys"]
    breath = go(campaign, guide, started, "hazard",
                {"key": w, "hazard": "breath", "turns": 1}, 4)
    assert breath.state.fighters[w].hp == hp - 3 - (4 if phys - 10 < 1 else 0)


def test_the_turn_log_leaves_a_fights_turn_to_the_fight_page(campaign, guide, started):
    from campaigns.systems.errant import turns

    go(campaign, guide, started, "npc", GOBLIN)
    go(campaign, guide, started, "turn", {"call": "odd"}, 1, 2)
    row = ErrantTurn.objects.get(kind="initiative")
    with pytest.raises(CampaignError, match="undo it on the fight page"):
        turns.undo_from_log(campaign=campaign, by=guide, turn_pk=row.pk)
    row.refresh_from_db()
    assert not row.undone and fight.state_of(started).turn is not None


def _wren_at_one_hp_wounded(campaign, guide, wren, column, wound_damage, *wound_dice):
    """The auditor's case: Wren at 1 HP takes 1 + `wound_damage`, passes the Save (a d20
    one above the DV, within her phys) and takes the wound from `column`."""
    wren.hp_current = 1
    wren.save(update_fields=["hp_current"])
    f = fight.start(campaign=campaign, by=guide, name="In the mire", character_pks=[wren.pk],
                    rng=Dice(3, 3))
    hit = _npc_hits_wren(campaign, guide, f, wren, [1 + wound_damage], key="n3")
    w = hit.state.fighters[f"e{wren.pk}"]
    dv = 1 + wound_damage
    assert w.pending_save == dv and w.pending_wound == wound_damage
    assert dv + 1 <= w.attributes["phys"]
    saved = go(campaign, guide, f, "save", {"key": w.key}, dv + 1)
    assert "stays in action" in saved.step.text and not saved.state.fighters[w.key].out
    return f, go(campaign, guide, f, "wound", {"key": w.key, "column": column}, *wound_dice)


@pytest.mark.parametrize("column, damage, out", [
    ("trauma", 9, True),  # "Guts hanging out. Consigned to the reaper and out of action."
    ("shock", 2, True),  # "Knocked out. Unconscious (Depletion 1)."
    ("shock", 3, False),  # "Concussed. Knocked out for D12 ...": timed, not out (below)
    ("shock", 6, True),  # "Deep fried. Unconscious (Depletion 1) ..."
    ("trauma", 2, False),  # "Leg mangled. Can't run."
    ("toxic", 2, False),  # "Immune system compromised. HP halved."
])
def test_a_wound_that_puts_the_errant_out_of_action_takes_them_out(
        campaign, guide, wren, column, damage, out):
    f, wound = _wren_at_one_hp_wounded(campaign, guide, wren, column, damage)
    w = f"e{wren.pk}"
    assert wound.state.fighters[w].wounds[0][:2] == (column, damage)
    assert wound.state.fighters[w].out is out
    assert (f"{wren.display_name} is out of action." in wound.step.text) is out
    go(campaign, guide, f, "next_phase")  # the NPCs' quick phase closes: the Company's
    go(campaign, guide, f, "pace", {"key": w, "pace": "quick"})
    attack = {"key": w, "target": "n3"}
    if (column, damage) == ("shock", 3):  # knocked out for the D12 (1 here): this Turn
        with pytest.raises(CampaignError, match="out of action"):
            go(campaign, guide, f, "attack", attack, 1)
        return
    if not out:
        done = go(campaign, guide, f, "attack", attack, 1)
        assert done.state.turn.actions_of(w) == ("attack",)
        return
    with pytest.raises(CampaignError, match="out of action"):
        go(campaign, guide, f, "attack", attack, 1)
    with pytest.raises(CampaignError, match="out of action"):
        go(campaign, guide, f, "act", {"key": w, "kind": "move"})


def test_out_of_action_from_a_wound_lasts_the_fight_and_undo_takes_it_back(
        campaign, guide, wren):
    f, _ = _wren_at_one_hp_wounded(campaign, guide, wren, "shock", 2)  # Unconscious
    w = f"e{wren.pk}"
    go(campaign, guide, f, "end_turn")
    go(campaign, guide, f, "turn", {"call": "even"}, 1, 1)  # the Company wins
    go(campaign, guide, f, "pace", {"key": w, "pace": "quick"})
    with pytest.raises(CampaignError, match="out of action"):
        go(campaign, guide, f, "act", {"key": w, "kind": "move"})
    for _ in range(4):  # the pace, the call, the end of the first Turn, the wound
        f.refresh_from_db()
        fight.undo(campaign=campaign, by=guide, fight_pk=f.pk, version=f.version)
    state = fight.state_of(f)
    assert not state.fighters[w].out and state.fighters[w].pending_wound == 2
    go(campaign, guide, f, "next_phase")
    go(campaign, guide, f, "pace", {"key": w, "pace": "quick"})
    done = go(campaign, guide, f, "act", {"key": w, "kind": "move"})
    assert done.state.fighters[w].hp == 0  # at 0 HP, Save passed: still in action


def test_the_end_writes_a_wounds_exhaustion_back_and_undo_puts_it_back(
        campaign, guide, wren):
    f, wound = _wren_at_one_hp_wounded(campaign, guide, wren, "shock", 3)  # 1 Exhaustion
    assert wound.state.fighters[f"e{wren.pk}"].wound_exhaustion == 1
    go(campaign, guide, f, "end_turn")
    go(campaign, guide, f, "end")
    wren.refresh_from_db()
    assert (wren.hp_current, wren.exhaustion) == (0, 1)
    change = ErrantTurnChange.objects.get(what="exhaustion")
    assert (change.before, change.after) == (0, 1) and "wounds" in change.label
    f.refresh_from_db()
    fight.undo(campaign=campaign, by=guide, fight_pk=f.pk, version=f.version)
    wren.refresh_from_db()
    f.refresh_from_db()
    assert (wren.hp_current, wren.exhaustion) == (1, 0) and not f.ended


def test_undoing_the_end_is_refused_when_the_exhaustion_changed_since(campaign, guide, wren):
    f, _ = _wren_at_one_hp_wounded(campaign, guide, wren, "shock", 3)
    go(campaign, guide, f, "end_turn")
    go(campaign, guide, f, "end")
    wren.refresh_from_db()
    wren.exhaustion = 4
    wren.save(update_fields=["exhaustion"])
    f.refresh_from_db()
    with pytest.raises(CampaignError, match="Exhaustion changed since"):
        fight.undo(campaign=campaign, by=guide, fight_pk=f.pk, version=f.version)
    wren.refresh_from_db()
    f.refresh_from_db()
    assert (wren.hp_current, wren.exhaustion) == (0, 4) and f.ended


def test_an_alert_deviant_acts_in_the_surprise_turn(campaign, guide, wren):
    """ER §The Deviant, Awareness mastery Alert: "you may still act in an Initiative Turn
    even when surprised" (AMB-E-ALERT); the rest of the surprised side still cannot."""
    user = MembershipFactory(campaign=campaign).user
    quill = make_wren(user, name="Quill", archetype="deviant", kit_choice="burglars_tools",
                      proficiencies=[["awareness", 2], ["lore", 1]])
    services.character_join(campaign=campaign, character=quill, by=user)
    f = fight.start(campaign=campaign, by=guide, name="Ambush", rng=Dice(2, 1),
                    character_pks=[wren.pk, quill.pk])  # surprise d6 1: the NPCs surprise
    q, w = f"e{quill.pk}", f"e{wren.pk}"
    state = fight.state_of(f)
    assert state.surprise == "npcs" and state.fighters[q].alert
    assert not state.fighters[w].alert
    assert "Quill joins the fight (Alert: acts even when surprised)." in \
        f.steps.get(kind="errant", payload__character_pk=quill.pk).text
    go(campaign, guide, f, "npc", GOBLIN)
    done = go(campaign, guide, f, "turn", {"surprised": "company"})
    assert "a surprise Turn, the company cannot act (but Quill, Alert, may)." in \
        done.step.text
    for key in (q, w, "n4"):
        go(campaign, guide, f, "pace", {"key": key, "pace": "quick"})
    go(campaign, guide, f, "act", {"key": "n4", "kind": "move"})
    go(campaign, guide, f, "next_phase")
    with pytest.raises(CampaignError, match="surprised"):
        go(campaign, guide, f, "act", {"key": w, "kind": "move"})
    done = go(campaign, guide, f, "act", {"key": q, "kind": "move"})
    assert done.state.turn.actions[-1] == (q, "move")


def test_stunned_for_an_initiative_turn_takes_no_action_that_turn_and_undo_restores(
        campaign, guide, wren):
    """IT §Death & Dying, shock 1: "Zapped. Stunned for an Initiative Turn." The rest of
    the Turn it lands in (AMB-E87, AMB-E-FIGHT-5); the next Turn they act again; undoing
    the wound gives the actions back."""
    f, wound = _wren_at_one_hp_wounded(campaign, guide, wren, "shock", 1)
    w = f"e{wren.pk}"
    assert wound.state.fighters[w].stunned == 1 and not wound.state.fighters[w].out
    assert f"{wren.display_name} is stunned: no action this Initiative Turn." in \
        wound.step.text
    go(campaign, guide, f, "next_phase")
    go(campaign, guide, f, "pace", {"key": w, "pace": "quick"})
    with pytest.raises(CampaignError, match="out of action"):
        go(campaign, guide, f, "attack", {"key": w, "target": "n3"}, 1)
    ended = go(campaign, guide, f, "end_turn")
    assert ended.state.fighters[w].stunned == 0
    assert f"{wren.display_name} is no longer stunned." in ended.step.text
    go(campaign, guide, f, "turn", {"call": "even"}, 1, 1)  # the Company wins
    go(campaign, guide, f, "pace", {"key": w, "pace": "quick"})
    done = go(campaign, guide, f, "act", {"key": w, "kind": "move"})
    assert done.state.turn.actions[-1] == (w, "move")
    for _ in range(6):  # the act, pace, call, end of the Turn, pace, next phase
        f.refresh_from_db()
        fight.undo(campaign=campaign, by=guide, fight_pk=f.pk, version=f.version)
    f.refresh_from_db()
    fight.undo(campaign=campaign, by=guide, fight_pk=f.pk, version=f.version)  # the wound
    state = fight.state_of(f)
    assert state.fighters[w].stunned == 0 and state.fighters[w].pending_wound == 1
    go(campaign, guide, f, "next_phase")
    go(campaign, guide, f, "pace", {"key": w, "pace": "quick"})
    assert go(campaign, guide, f, "act", {"key": w, "kind": "move"}).state.turn.actions[-1] \
        == (w, "move")


def test_a_stun_between_turns_takes_the_next_turn():
    """A stun that lands after a Turn has ended (fire between Turns) takes the next Turn."""
    state = fold([("setup", {"distance_die": 1, "surprise_die": 3, "npc_faces": 2}),
                  ("errant", {"character_pk": 1, "name": "Wren", "hp": 0, "hp_max": 9,
                              "damage_sides": 8, "renown": 1, "phys": 9, "skill": 9,
                              "mind": 9, "pres": 9}),
                  ("npc", {**GOBLIN, "key": "n1"})])
    state.fighters["e1"].pending_wound = 1
    state = apply(state, "wound", {"key": "e1", "column": "shock"})
    assert state.fighters["e1"].stunned == 1
    assert "no action next Initiative Turn" in state.log[-1][0]
    state = apply(state, "turn", {"call": "even", "errant_die": 1, "guide_die": 1})
    assert state.turn.combatant("e1").out_of_action
    state = apply(state, "end_turn", {})
    assert state.fighters["e1"].stunned == 0
    state = apply(state, "turn", {"call": "even", "errant_die": 1, "guide_die": 1})
    assert not state.turn.combatant("e1").out_of_action


def test_hp_halved_halves_the_maximum_in_the_fight_and_undo_restores(campaign, guide, wren):
    """Toxic 2: "Immune system compromised. HP halved." The fight's HP maximum halves,
    rounded down (AMB-E89); undoing the wound restores it."""
    f, wound = _wren_at_one_hp_wounded(campaign, guide, wren, "toxic", 2)
    w = f"e{wren.pk}"
    phys = wound.state.fighters[w].attributes["phys"]
    assert wound.state.fighters[w].hp_max == phys // 2 and wound.state.fighters[w].hp == 0
    assert f"HP maximum is halved: {phys} to {phys // 2}." in wound.step.text
    f.refresh_from_db()
    fight.undo(campaign=campaign, by=guide, fight_pk=f.pk, version=f.version)
    assert fight.state_of(f).fighters[w].hp_max == phys


def _deviant(campaign, name, proficiencies):
    user = MembershipFactory(campaign=campaign).user
    errant = make_wren(user, name=name, archetype="deviant", kit_choice="burglars_tools",
                       proficiencies=proficiencies)
    services.character_join(campaign=campaign, character=errant, by=user)
    return errant


@pytest.mark.parametrize("proficiencies, dice", [
    ([["stealth", 1]], 2),  # ER §The Deviant, Sneak Attack: "rolling two damage dice"
    ([["stealth", 2]], 3),  # Assassin: "you roll three damage dice when making a sneak attack"
])
def test_a_deviants_sneak_attack_rolls_two_dice_three_with_assassin(
        campaign, guide, wren, proficiencies, dice):
    moth = _deviant(campaign, "Moth", proficiencies)
    f = fight.start(campaign=campaign, by=guide, name="Alley", rng=Dice(3, 6),
                    character_pks=[wren.pk, moth.pk])
    m = f"e{moth.pk}"
    assert fight.state_of(f).fighters[m].sneak_dice == dice
    go(campaign, guide, f, "npc", {**GOBLIN, "hp": 30})
    go(campaign, guide, f, "turn", {"call": "even"}, 1, 1)  # the Company wins
    go(campaign, guide, f, "pace", {"key": m, "pace": "quick"})
    done = go(campaign, guide, f, "attack", {"key": m, "target": "n4", "sneak": True,
                                             "dice": 1}, *([5] * dice))
    assert done.step.payload["faces"] == [5] * dice
    assert done.state.fighters["n4"].hp == 30 - 5 * dice
    assert f"Moth sneak attacks Goblin: {dice} D6 rolled" in done.step.text
    # Wren is a Violent: no sneak attack; refused beside the field, nothing rolled
    go(campaign, guide, f, "pace", {"key": f"e{wren.pk}", "pace": "quick"})
    with pytest.raises(CampaignError, match="cannot make a sneak attack") as refused:
        go(campaign, guide, f, "attack", {"key": f"e{wren.pk}", "target": "n4",
                                          "sneak": True})
    assert refused.value.field == "sneak"
    # the fold refuses a sneak step whose dice do not match the attacker's
    state = fight.state_of(f)
    with pytest.raises(FightError, match=f"rolls {dice} damage dice"):
        apply(state, "attack", {"key": m, "target": "n4", "faces": [1], "sneak": True,
                                "immediate": True})


def test_a_beast_masters_companion_joins_acts_sneaks_and_dies_at_0_hp(campaign, guide):
    """ER §The Deviant, Beast Master: the companion "takes its own actions during
    Initiative Turns"; HP equal to the Deviant's skill, a D6, sneak attacks, Checks on
    their skill (a gambit's Save); at 0 HP it dies (AMB-E-BEAST)."""
    fen = _deviant(campaign, "Fen", [["survival", 2], ["stealth", 1]])
    f = fight.start(campaign=campaign, by=guide, name="Wood", rng=Dice(3, 6),
                    character_pks=[fen.pk])
    state = fight.state_of(f)
    c = f"c{fen.pk}"
    companion = state.fighters[c]
    skill = state.fighters[f"e{fen.pk}"].attributes["skill"]
    assert (companion.side, companion.kind, companion.hp, companion.hp_max) == (
        "company", "companion", skill, skill)
    assert companion.damage_die == "D6" and companion.sneak_dice == 2
    assert companion.character_pk is None  # nothing of it is written to a sheet
    assert f"Fen's animal companion joins the fight (HP {skill}, D6, Checks on skill " \
        f"{skill})." in f.steps.get(kind="errant").text
    go(campaign, guide, f, "npc", {**GOBLIN, "hp": 30, "damage_sides": 20})
    go(campaign, guide, f, "turn", {"call": "even"}, 1, 1)
    go(campaign, guide, f, "pace", {"key": c, "pace": "quick"})
    done = go(campaign, guide, f, "attack", {"key": c, "target": "n3", "sneak": True}, 6, 6)
    assert done.state.fighters["n3"].hp == 18
    # the goblin's gambit against it: the companion saves on the Deviant's skill
    go(campaign, guide, f, "next_phase")
    go(campaign, guide, f, "pace", {"key": "n3", "pace": "quick"})
    hit = go(campaign, guide, f, "attack", {"key": "n3", "target": c, "reduction": 1,
                                            "gambit": "trip"}, 20, 20)
    chance = p_success(skill, 1)
    assert f"DV 1 ({chance.numerator}/{chance.denominator} to save)" in hit.step.guide_text
    assert hit.state.fighters[c].dead and hit.state.fighters[c].hp == 0
    assert hit.state.fighters[c].pending_save is None  # it dies, no Save, no wound
    assert "Fen's animal companion falls" in hit.step.text
    f.refresh_from_db()
    fight.undo(campaign=campaign, by=guide, fight_pk=f.pk, version=f.version)
    assert not fight.state_of(f).fighters[c].dead


def test_no_companion_without_the_mastery(campaign, guide):
    fen = _deviant(campaign, "Fen", [["survival", 1]])
    f = fight.start(campaign=campaign, by=guide, name="Wood", rng=Dice(3, 6),
                    character_pks=[fen.pk])
    assert list(fight.state_of(f).fighters) == [f"e{fen.pk}"]


def test_burning_escalates_a_d6_a_turn_and_a_dousing_action_removes_one(
        campaign, guide, started, wren, ash):
    """IT §Drowning, Falling, Burning: "the first Initiative Turn they take 1D6, the second
    2D6, and so on. Taking an action to put out the fire removes 1D6" (AMB-E10, IT over
    QR's flat 1D6). The fight counts the Turns and the dousing (AMB-E-FIRE); one click a
    Turn; undo takes each step back."""
    go(campaign, guide, started, "npc", {**GOBLIN, "hp": 40})
    w, a = f"e{wren.pk}", f"e{ash.pk}"
    with pytest.raises(CampaignError, match="not on fire"):
        go(campaign, guide, started, "fire", {"key": w, "do": "burn"})
    lit = go(campaign, guide, started, "fire", {"key": "n4", "do": "ignite"})
    assert lit.state.fighters["n4"].on_fire and lit.state.fighters["n4"].fire_dice == 1
    assert "Goblin is on fire" in lit.step.text
    first = go(campaign, guide, started, "fire", {"key": "n4", "do": "burn"}, 4)
    assert first.step.payload["faces"] == [4] and first.state.fighters["n4"].hp == 36
    assert "Goblin burns (Turn 1 on fire, 1D6): 1D6 4 = 4 damage" in first.step.guide_text
    assert first.state.fighters["n4"].fire_dice == 2
    with pytest.raises(CampaignError, match="once a Turn"):
        go(campaign, guide, started, "fire", {"key": "n4", "do": "burn"}, 1, 1)
    go(campaign, guide, started, "turn", {"call": "even"}, 1, 1)  # the Company wins
    second = go(campaign, guide, started, "fire", {"key": "n4", "do": "burn"}, 3, 5)
    assert second.state.fighters["n4"].hp == 28 and second.state.fighters["n4"].fire_dice == 3
    # Wren douses the goblin's fire: her action, 1D6 fewer next Turn
    with pytest.raises(CampaignError, match="quickly or slowly"):
        go(campaign, guide, started, "fire", {"key": "n4", "do": "douse", "actor": w})
    go(campaign, guide, started, "pace", {"key": w, "pace": "quick"})
    doused = go(campaign, guide, started, "fire", {"key": "n4", "do": "douse", "actor": w})
    assert doused.state.turn.actions_of(w) == ("other",)
    assert doused.state.fighters["n4"].fire_dice == 2
    assert "next Turn on fire: 2D6" in doused.step.text
    go(campaign, guide, started, "pace", {"key": a, "pace": "quick"})
    again = go(campaign, guide, started, "fire", {"key": "n4", "do": "douse", "actor": a})
    assert again.state.fighters["n4"].fire_dice == 1  # Turn 3: 3D6 less 2 doused
    started.refresh_from_db()
    fight.undo(campaign=campaign, by=guide, fight_pk=started.pk, version=started.version)
    back = fight.state_of(started).fighters["n4"]
    assert back.on_fire and back.fire_dice == 2 and back.doused == 1
    for _ in range(3):  # Ash's pace, Wren's dousing, her pace
        started.refresh_from_db()
        fight.undo(campaign=campaign, by=guide, fight_pk=started.pk, version=started.version)
    back = fight.state_of(started).fighters["n4"]
    assert (back.fire_turns, back.doused, back.fire_dice) == (2, 0, 3)


def test_a_burn_can_kill_and_refused_fire_steps_leave_the_state():
    state = fold([("setup", {"distance_die": 1, "surprise_die": 3, "npc_faces": 2}),
                  ("npc", {**GOBLIN, "key": "n1", "hp": 2})])
    for bad in ({"key": "n1", "do": "smother"}, {"key": "zz", "do": "ignite"},
                {"key": "n1", "do": "douse"}, {"key": "n1", "do": "out"}):
        with pytest.raises(FightError):
            apply(state, "fire", bad)
    state = apply(state, "fire", {"key": "n1", "do": "ignite"})
    with pytest.raises(FightError, match="already on fire"):
        apply(state, "fire", {"key": "n1", "do": "ignite"})
    with pytest.raises(FightError, match="do not match"):
        apply(state, "fire", {"key": "n1", "do": "burn", "faces": [1, 2]})
    with pytest.raises(FightError, match="Start an Initiative Turn"):
        apply(state, "fire", {"key": "n1", "do": "douse"})
    # doused before its first Turn's damage: 1D6 less 1, the fire is out
    state = apply(state, "errant", {"character_pk": 1, "name": "Wren", "hp": 9, "hp_max": 9,
                                    "damage_sides": 8, "renown": 1, "phys": 9, "skill": 9,
                                    "mind": 9, "pres": 9})
    turn = apply(state, "turn", {"call": "even", "errant_die": 1, "guide_die": 1})
    turn = apply(turn, "pace", {"key": "e1", "pace": "quick"})
    out = apply(turn, "fire", {"key": "n1", "do": "douse", "actor": "e1"})
    assert not out.fighters["n1"].on_fire and "Goblin's fire is out" in out.log[-1][0]
    burnt = apply(state, "fire", {"key": "n1", "do": "burn", "faces": [6]})
    assert burnt.fighters["n1"].dead and "Goblin falls" in burnt.log[-1][1]
    assert state.fighters["n1"].hp == 2  # the state before is left as it was


def _undo(campaign, guide, f, times=1):
    for _ in range(times):
        f.refresh_from_db()
        fight.undo(campaign=campaign, by=guide, fight_pk=f.pk, version=f.version)


def test_knocked_out_for_the_d12_rolled_then_comes_to_and_undo_restores(
        campaign, guide, wren):
    """IT §Death & Dying, shock 3: "Concussed. Knocked out for D12 Initiative Turns and 1
    point of Exhaustion." The server rolls the D12 with the wound (kept in the step); the
    Turn it lands in is the first (AMB-E87, AMB-E-FIGHT-6); they come to at the end of the
    last at 0 HP and act again; undoing the wound gives the actions back."""
    f, wound = _wren_at_one_hp_wounded(campaign, guide, wren, "shock", 3, 2)  # D12: 2
    w = f"e{wren.pk}"
    assert wound.step.payload["knocked_out_turns"] == 2
    errant = wound.state.fighters[w]
    assert errant.knocked_out == 2 and not errant.out and errant.wound_exhaustion == 1
    assert (f"{wren.display_name} is knocked out: D12 2, no action for 2 Initiative Turns "
            "from this one.") in wound.step.text
    assert fight.state_of(f).fighters[w].knocked_out == 2  # the replay rolls nothing
    go(campaign, guide, f, "next_phase")
    go(campaign, guide, f, "pace", {"key": w, "pace": "quick"})
    with pytest.raises(CampaignError, match="out of action"):
        go(campaign, guide, f, "act", {"key": w, "kind": "move"})
    first = go(campaign, guide, f, "end_turn")
    assert first.state.fighters[w].knocked_out == 1 and "comes to" not in first.step.text
    go(campaign, guide, f, "turn", {"call": "even"}, 1, 1)  # the Company wins
    go(campaign, guide, f, "pace", {"key": w, "pace": "quick"})
    with pytest.raises(CampaignError, match="out of action"):
        go(campaign, guide, f, "act", {"key": w, "kind": "move"})
    second = go(campaign, guide, f, "end_turn")
    assert f"{wren.display_name} comes to (HP 0): may act again." in second.step.text
    go(campaign, guide, f, "turn", {"call": "even"}, 1, 1)
    go(campaign, guide, f, "pace", {"key": w, "pace": "quick"})
    done = go(campaign, guide, f, "act", {"key": w, "kind": "move"})
    assert done.state.turn.actions[-1] == (w, "move") and done.state.fighters[w].hp == 0
    _undo(campaign, guide, f, 10)  # the nine steps since the wound, then the wound
    state = fight.state_of(f)
    assert state.fighters[w].knocked_out == 0 and state.fighters[w].pending_wound == 3
    go(campaign, guide, f, "next_phase")
    go(campaign, guide, f, "pace", {"key": w, "pace": "quick"})
    assert go(campaign, guide, f, "act", {"key": w, "kind": "move"}).state.turn.actions[-1] \
        == (w, "move")


def test_the_knocked_out_die_is_the_servers_and_a_failed_save_still_holds(
        campaign, guide, wren):
    """A D12 typed into the wound's form is ignored (the server rolls); coming to does not
    undo a failed 0-HP Save (out of action until the fight is over)."""
    wren.hp_current = 1
    wren.save(update_fields=["hp_current"])
    f = fight.start(campaign=campaign, by=guide, name="Mire", character_pks=[wren.pk],
                    rng=Dice(3, 3))
    _npc_hits_wren(campaign, guide, f, wren, [4], key="n3")
    w = f"e{wren.pk}"
    go(campaign, guide, f, "save", {"key": w}, 20)  # fails: out of action
    wound = go(campaign, guide, f, "wound", {"key": w, "column": "shock",
                                             "knocked_out_turns": 12}, 1)
    assert wound.step.payload["knocked_out_turns"] == 1
    ended = go(campaign, guide, f, "end_turn")
    assert "comes to (HP 0) but is still out of action." in ended.step.text
    assert ended.state.fighters[w].out


def _fold_wren(**wren):
    return fold([("setup", {"distance_die": 1, "surprise_die": 3, "npc_faces": 2}),
                 ("errant", {"character_pk": 1, "name": "Wren", "hp": 0, "hp_max": 9,
                             "damage_sides": 8, "renown": 3, "phys": 9, "skill": 9,
                             "mind": 9, "pres": 9, **wren}),
                 ("npc", {**GOBLIN, "key": "n1", "hp": 99})])


def _wounded(state, *cells):
    """Wren takes the wounds given as (column, damage, {payload extras})."""
    for column, damage, *extra in cells:
        state.fighters["e1"].pending_wound = damage
        state = apply(state, "wound", {"key": "e1", "column": column,
                                       **(extra[0] if extra else {})})
    return state


def _company_turn(state):
    state = apply(state, "turn", {"call": "even", "errant_die": 1, "guide_die": 1})
    return apply(state, "pace", {"key": "e1", "pace": "quick"})


@given(st.integers(1, 12), st.booleans())
@hyp_settings(max_examples=30, deadline=None)
def test_knocked_out_lasts_exactly_the_d12_turns(turns, in_turn):
    """For every D12, landing in a Turn or between Turns: no action in exactly that many
    Turns (the current one counted, AMB-E87), then the Errant acts."""
    state = _fold_wren()
    if in_turn:
        state = _company_turn(state)
    state = _wounded(state, ("shock", 3, {"knocked_out_turns": turns}))
    refused = 0
    for _ in range(turns + 1):
        if not state.in_turn:
            state = _company_turn(state)
        try:
            state = apply(state, "act", {"key": "e1", "kind": "ready"})
        except FightError as error:
            assert error.code == "out_of_action"
            refused += 1
        state = apply(state, "end_turn", {})
    assert refused == turns and state.fighters["e1"].knocked_out == 0
    assert "Wren comes to (HP 0): may act again." in " ".join(p for p, _ in state.log)


def test_a_knockout_stored_without_its_die_replays_as_before():
    """A shock-3 wound stored before the D12 was rolled keeps the reading it was taken
    with (out for the fight): the fold of old steps is unchanged."""
    state = _wounded(_fold_wren(), ("shock", 3))
    assert state.fighters["e1"].out and not state.fighters["e1"].knocked_out
    with pytest.raises(FightError) as refused:
        _wounded(_fold_wren(), ("shock", 3, {"knocked_out_turns": 13}))
    assert refused.value.field == "knocked_out_turns"


@pytest.mark.parametrize("cells, kind, message", [
    ([("toxic", 7)], "move", "Wren can't move (nervous system shutdown)"),
    ([("trauma", 2), ("trauma", 5)], "move", "Wren can't walk: both legs are gone"),
    ([("burn", 2)], "sorcery", "Wren is unable to cast Sorceries or Miracles"),
    ([("burn", 2)], "miracle", "Wren is unable to cast Sorceries or Miracles"),
    ([("trauma", 3), ("trauma", 6)], "item", "Wren can't hold anything to use"),
])
@pytest.mark.parametrize("immediate", [False, True])
def test_a_wound_that_forbids_an_action_refuses_it_beside_the_field(cells, kind, message,
                                                                    immediate):
    """IT §Death & Dying (AMB-E-FIGHT-6): refused beside the Action field, in the phase and
    as an immediate action, for the rest of the fight; other kinds are taken."""
    state = _wounded(_fold_wren(), *cells)
    state = _company_turn(state)
    with pytest.raises(FightError) as refused:
        apply(state, "act", {"key": "e1", "kind": kind, "immediate": immediate})
    assert refused.value.field == "kind" and refused.value.code == "wound_forbids"
    assert message in refused.value.message
    assert apply(state, "act", {"key": "e1", "kind": "other"}).turn.actions[-1] == \
        ("e1", "other")
    for _ in range(2):  # the next Turns too
        state = apply(state, "end_turn", {})
        state = _company_turn(state)
        with pytest.raises(FightError, match=re.escape(message)):
            apply(state, "act", {"key": "e1", "kind": kind})


def test_cant_run_moves_as_a_walk_and_both_arms_gone_attacks_unarmed():
    """"Leg mangled. Can't run": the move is taken and logged as a walk of 10 feet or yards
    (IT §Speed & Movement, no movement dice). "If both arms go, you can't hold anything":
    the Attack Roll is unarmed, impaired 2 steps (IT §Attacking)."""
    state = _company_turn(_wounded(_fold_wren(), ("trauma", 2)))
    moved = apply(state, "act", {"key": "e1", "kind": "move"})
    assert "Wren: move (a walk of 10 feet or yards at most: can't run)." in moved.log[-1][0]
    state = _company_turn(_wounded(_fold_wren(), ("trauma", 3), ("trauma", 6)))
    hit = apply(state, "attack", {"key": "e1", "target": "n1", "faces": [4]})  # D8 -> D4
    assert "D4 rolled 4" in hit.log[-1][0]
    assert "unarmed, both arms gone: impaired 2 steps" in hit.log[-1][0]
    with pytest.raises(FightError, match="from 1 to 4"):
        apply(state, "attack", {"key": "e1", "target": "n1", "faces": [5]})


def test_undoing_the_wound_lifts_what_it_forbade(campaign, guide, wren):
    """Through the service: "Nervous system shutdown. Can't move" (toxic 7) refuses the
    move with its reason beside the Action field; undo the wound and the move is taken."""
    f, wound = _wren_at_one_hp_wounded(campaign, guide, wren, "toxic", 7)
    w = f"e{wren.pk}"
    assert wound.state.fighters[w].limits.no_move
    go(campaign, guide, f, "next_phase")
    go(campaign, guide, f, "pace", {"key": w, "pace": "quick"})
    with pytest.raises(CampaignError, match="can't move") as refused:
        go(campaign, guide, f, "act", {"key": w, "kind": "move"})
    assert refused.value.field == "kind"
    _undo(campaign, guide, f, 3)  # the pace, the phase, the wound
    go(campaign, guide, f, "next_phase")
    go(campaign, guide, f, "pace", {"key": w, "pace": "quick"})
    assert go(campaign, guide, f, "act", {"key": w, "kind": "move"}).state.turn.actions[-1] \
        == (w, "move")
