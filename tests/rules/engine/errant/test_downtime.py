"""Downtime Turns (Errant SRD DT §Downtime Turn Procedure, §Recovery, §Conspicuous
Consumption, §Debts, §Lifestyle, §Hiring Retainers, §Funerals, §Faction Turns, §Scourges,
§Downtime Complications, §Downtime Trends)."""

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.errant import downtime as D
from rules.engine.errant.data.downtime_tables import COMPLICATIONS, TRENDS


def test_eleven_steps_in_order():
    assert D.STEP_KEYS == ("declare", "recover", "event_die", "resolve_event", "debt",
                           "rumour", "free_actions", "actions", "consumption", "factions",
                           "calendar")
    turn = D.start_downtime(1)
    for step in D.STEP_KEYS:
        assert turn.next_step == step
        turn = D.complete_step(turn, step)
    assert turn.over and D.lifestyle_due(turn, last=True)
    assert not D.lifestyle_due(turn, last=False)
    with pytest.raises(D.DowntimeError) as err:
        D.complete_step(turn, "declare")
    assert err.value.code == "turn_over"


def test_steps_out_of_order_are_refused():
    turn = D.complete_step(D.start_downtime(2), "declare")
    with pytest.raises(D.DowntimeError) as err:
        D.complete_step(turn, "consumption")
    assert err.value.code == "out_of_order"
    assert not D.lifestyle_due(turn, last=True)


def test_recovery_restores_everything_and_discards_supply():
    m = D.Member(hp=3, max_hp=12, resources={"Jettons": (1, 5), "Favour": (0, 4)},
                 true_strikes=(0, 2), deflects=(1, 3), supply=7)
    r = D.recover(m)
    assert r.hp == 12 and r.resources == {"Jettons": (5, 5), "Favour": (4, 4)}
    assert r.true_strikes == (2, 2) and r.deflects == (3, 3) and r.supply == 0
    tainted = D.recover(D.Member(hp=3, max_hp=12, resources={}, can_recover_hp=False))
    assert tainted.hp == 3  # "Blood tainted. Can't recover HP." (AMB-E89)


def test_event_results_that_send_to_a_table():
    assert [D.table_for_event(r) for r in range(1, 7)] == [
        None, "complication", None, "trend", None, None]
    with pytest.raises(D.DowntimeError):
        D.table_for_event(7)


def test_complications_read_2d6_as_entries_1_to_11():
    assert D.complication(2) == COMPLICATIONS[0] and D.complication(12) == COMPLICATIONS[10]
    odds = D.complication_odds()
    assert len(odds) == 11 and sum(odds.values()) == 1
    assert odds[COMPLICATIONS[5]] == Fraction(6, 36)  # entry 6 on a total of 7
    with pytest.raises(D.DowntimeError):
        D.complication(1)


def test_trends_read_2d4_as_entries_1_to_7():
    assert D.trend(2) == TRENDS[0] and D.trend(8) == TRENDS[6]
    odds = D.trend_odds()
    counts = Counter(a + b for a, b in product(range(1, 5), repeat=2))
    assert odds == {TRENDS[t - 2]: Fraction(c, 16) for t, c in counts.items()}


def test_scourges_trigger_at_or_below_their_peril():
    low, high = D.Scourge("Bandits", 1), D.Scourge("Rot", 3)
    assert D.scourges_triggered(1, [low, high]) == (low, high)
    assert D.scourges_triggered(3, [low, high]) == (high,)
    assert D.scourges_triggered(4, [low, high]) == ()
    calamity = D.Scourge("Dragon", 7)
    assert D.scourges_triggered(1, [calamity]) == () and not calamity.active


def test_malice_six_grows_the_peril_and_loci():
    s, harm = D.malice(D.Scourge("Rot", 6), 6)
    assert s.peril == 7 and not s.active and not harm
    s, harm = D.malice(D.Scourge("Rot", 2), 3)
    assert s.peril == 2 and harm
    s = D.Scourge("Rot", 4)
    assert s.loci == 3 and D.locus_destroyed(s).peril == 3
    assert D.source_destroyed(s, 4).loci == 1  # never below one locus
    assert D.source_destroyed(D.Scourge("Rot", 6), 2).loci == 3
    with pytest.raises(D.DowntimeError):
        D.locus_destroyed(D.Scourge("New"))
    assert D.source_destroyed(D.Scourge("New")) is None  # no locus: it ends
    with pytest.raises(D.DowntimeError):
        D.source_destroyed(s)  # loci left: the D4 is needed


def test_debt_doubles():
    assert D.double_debt(150) == 300 and D.double_debt(0) == 0


def test_retainers_by_settlement():
    assert D.retainer_dice("hamlet").die == 4 and not D.retainer_dice("village").mercenaries
    assert D.mercenaries("city", 7) == (70, 7, 3)
    with pytest.raises(D.DowntimeError):
        D.mercenaries("village", 3)
    assert D.advertising_bonus("village", 900) == 6  # "up to 600p ... +6" in a village
    assert D.advertising_bonus("town", 250) == 2
    assert D.retainer_dice("metropolis").henchman_renown_die == 5
    assert [D.henchman_archetype(n) for n in (1, 5, 6, 8, 9, 10)] == [
        "Warrior", "Warrior", "Professional", "Professional", "Magic user", "Magic user"]


@pytest.mark.parametrize(("pres", "roll", "pay", "morale"), [
    (3, 7, 0, 5), (4, 2, 0, 3), (8, 12, 0, 8), (13, 5, 0, 6), (16, 9, 0, 9), (18, 6, 0, 9),
    (20, 11, 0, 11), (10, 5, 25, 7), (10, 8, 100, 8), (10, 11, 200, 9)])
def test_retainer_morale(pres, roll, pay, morale):
    assert D.retainer_morale(pres, roll, pay) == morale


def test_funeral_xp_is_pennies():
    assert D.funeral_xp(350) == 350


def test_action_odds_against_enumeration():
    for m in range(-3, 4):
        counts = Counter(("success" if a + b + m >= 10 else "partial" if a + b + m >= 7
                          else "failure") for a, b in product(range(1, 7), repeat=2))
        assert D.action_odds(m) == {k: Fraction(counts[k], 36)
                                    for k in ("success", "partial", "failure")}
    assert D.action_odds(0) == {"success": Fraction(1, 6), "partial": Fraction(5, 12),
                                "failure": Fraction(5, 12)}
    assert D.action_odds(3) == {"success": Fraction(7, 12), "partial": Fraction(1, 3),
                                "failure": Fraction(1, 12)}


def test_modifiers_and_assists_are_capped_at_3():
    assert D.action_modifier([2], assists=2) == 3
    assert D.action_modifier([-5]) == -3
    assert D.action_modifier([1], assists=1) == 2


def test_tracker_progress_partial_and_setback():
    t = D.tracker("Learn Elvish", 3)
    t = D.attempt(t, 11)
    assert t.marked == 1
    t = D.attempt(t, 8)  # partial progress banked
    assert t.banked and t.marked == 1
    t = D.attempt(t, None)  # automatic success
    assert t.marked == 2 and not t.banked
    t = D.attempt(t, 5)
    assert t.marked == 2
    t = D.attempt(t, 9, partial_as="setback")
    with pytest.raises(D.DowntimeError) as err:
        D.attempt(t, 12)
    assert err.value.code == "setback"
    t = D.attempt(D.clear_setback(t), 12)
    assert t.complete
    with pytest.raises(D.DowntimeError):
        D.attempt(t, 12)


def test_consumption_within_means():
    c = D.consumption("carousing", "town", 5, money=5000)
    assert (c.roll, c.amount, c.xp, c.debt, c.save_dv) == (5, 3000, 3000, 0, None)


def test_consumption_beyond_means_is_debt_and_a_save():
    c = D.consumption("obscurantism", "city", 7, money=1000, institution_tier=2)
    assert c.roll == 9 and c.amount == 7200 and c.xp == 7200
    assert c.debt == 6200 and c.save_attribute == "mind" and c.save_dv == 9


def test_no_consumption_while_the_company_owes():
    with pytest.raises(D.DowntimeError) as err:
        D.consumption("frippery", "hamlet", 2, money=5000, company_debt=10)
    assert err.value.code == "company_in_debt"


def test_consumption_penalty_and_notoriety():
    assert D.consumption("do_goodery", "village", 3, money=10 ** 6, penalty=5).amount == 0
    c = D.consumption("do_goodery", "village", 3, money=100, doubled=True)
    assert (c.roll, c.amount, c.save_dv) == (6, 2400, 6)  # the roll itself is doubled


@pytest.mark.parametrize(("settlement", "die", "mult"), [
    ("hamlet", 4, 200), ("village", 6, 400), ("town", 8, 600), ("city", 10, 800),
    ("metropolis", 12, 1000)])
def test_consumption_odds_by_enumeration(settlement, die, mult):
    assert D.consumption_odds(settlement) == {f * mult: Fraction(1, die)
                                              for f in range(1, die + 1)}
    assert D.consumption_odds(settlement, 2) == {(f + 2) * mult: Fraction(1, die)
                                                 for f in range(1, die + 1)}


def test_consumption_bad_input():
    with pytest.raises(D.DowntimeError):
        D.consumption("gambling", "town", 3, money=0)
    with pytest.raises(D.DowntimeError):
        D.consumption("carousing", "town", 9, money=0)  # a D8
    with pytest.raises(D.DowntimeError):
        D.consumption("carousing", "castle", 1, money=0)


@given(st.sampled_from(["carousing", "frippery", "obscurantism", "do_goodery"]),
       st.sampled_from(["hamlet", "village", "town", "city", "metropolis"]),
       st.integers(1, 4), st.integers(0, 20000), st.integers(0, 5))
def test_consumption_invariants(kind, settlement, face, money, tier):
    c = D.consumption(kind, settlement, face, money=money, institution_tier=tier)
    assert c.xp == c.amount >= 0
    assert c.debt == max(0, c.amount - money)
    assert (c.save_dv is None) == (c.debt == 0)


def test_trouble_table():
    assert D.consumption_trouble(1).startswith("Something gets burned down")
    assert D.consumption_trouble(20).startswith("You make an advancement")


@pytest.mark.parametrize(("d6", "assets", "opp", "result"), [
    (5, 0, 0, (5, 0, 0)), (6, 0, 0, (6, 1, 0)), (6, 6, 0, (12, 2, 0)),
    (1, 0, 1, (0, 0, 1)), (1, 0, 6, (-5, 0, 1)), (1, 0, 7, (-6, 0, 2)), (1, 0, 13, (-12, 0, 3))])
def test_faction_turn(d6, assets, opp, result):
    assert D.faction_turn(d6, assets, opp) == result


def test_calendar():
    assert D.advance_calendar(3) == 4


@pytest.mark.parametrize(("money", "accountant", "paid", "kept"), [
    (1001, False, 501, 500), (1000, False, 500, 500), (1001, True, 250, 751), (0, False, 0, 0)])
def test_lifestyle(money, accountant, paid, kept):
    assert D.lifestyle(money, accountant=accountant) == (paid, kept)


@given(st.integers(0, 10 ** 7), st.booleans())
def test_lifestyle_never_loses_money(money, accountant):
    paid, kept = D.lifestyle(money, accountant=accountant)
    assert paid + kept == money and paid >= 0 and kept >= 0


def test_setback_xp_split_among_investors():
    # DT §Setbacks: a tier 3 Institution's setback gives 2,500 XP.
    assert D.setback_xp(2500) == (2500,)
    assert D.setback_xp(2500, 3) == (833, 833, 833)
    with pytest.raises(D.DowntimeError):
        D.setback_xp(2500, 0)


def test_debt_repayment_and_creditors():
    assert D.repay_debt(500, 200) == (300, 0) and D.repay_debt(500, 700) == (0, 200)
    assert D.creditor(1, 2) == "unctuous merchant"
    assert D.creditor(6, 6) == "vainglorious intellectual"


def test_a_downtime_turn_from_first_step_to_lifestyle():
    """Two Errants in a town: recovery, debt doubling from 0, Ava's action, then Conspicuous
    Consumption: Ava within her means, Bo beyond his (debt and a Save), after which the
    Company owes and nobody else may consume; lifestyle after the last Turn."""
    turn = D.start_downtime(1)
    for step in ("declare", "recover", "event_die", "resolve_event"):
        turn = D.complete_step(turn, step)
    debt = D.double_debt(0)
    turn = D.complete_step(turn, "debt")
    for step in ("rumour", "free_actions"):
        turn = D.complete_step(turn, step)
    elvish = D.attempt(D.tracker("Elvish", 1), 10 + D.action_modifier([1]))
    assert elvish.complete
    turn = D.complete_step(turn, "actions")
    ava = D.consumption("carousing", "town", 6, money=4000, company_debt=debt)
    assert (ava.xp, ava.debt) == (3600, 0)
    bo = D.consumption("frippery", "town", 8, money=1000, company_debt=debt)
    assert (bo.xp, bo.debt, bo.save_attribute, bo.save_dv) == (4800, 3800, "skill", 8)
    debt += bo.debt
    with pytest.raises(D.DowntimeError):
        D.consumption("obscurantism", "town", 1, money=10 ** 6, company_debt=debt)
    for step in ("consumption", "factions", "calendar"):
        turn = D.complete_step(turn, step)
    assert D.lifestyle_due(turn, last=True)
    assert D.lifestyle(4000 - ava.amount) == (200, 200)
    assert D.double_debt(debt) == 7600  # the next Downtime Turn's step 5
