"""The Downtime Turn walked step by step (campaigns/systems/errant/downtime.py): DT's order
enforced, each step's writes through the Turn log, exact odds against enumeration,
Conspicuous Consumption beyond the purse (the Company's debt and the Save), lifestyle's
half and quarter, the undo putting every ledger back, stale pages and double clicks."""

import random
from fractions import Fraction
from itertools import product

import pytest

from campaigns import services
from campaigns.services import CampaignError, progress
from campaigns.systems.errant import advancement, company, downtime, roster, turns
from campaigns.systems.errant.turn_models import ErrantTurnChange
from characters.models import CoinEntry, XpEntry
from characters.systems.errant.builds import sheet_for
from characters.systems.errant.inventory import carried_lines
from characters.systems.errant.models import ErrantCharacter
from rules.engine.errant import checks, event_die
from rules.engine.errant import downtime as engine
from rules.engine.errant.advancement import adjutant_split
from rules.engine.errant.data.downtime_tables import CONSUMPTION_DICE
from tests.characters.systems.errant.helpers import make_wren

pytestmark = pytest.mark.django_db


class Dealt(random.Random):
    """Deals the given faces first, then rolls as usual."""

    def __init__(self, *faces):
        super().__init__()
        self.faces = list(faces)

    def randint(self, a, b):
        if self.faces:
            face = self.faces.pop(0)
            assert a <= face <= b, (face, a, b)
            return face
        return super().randint(a, b)


def money(errant, pennies):
    CoinEntry.objects.create(character=errant, kind=CoinEntry.Kind.ADJUSTMENT,
                             amount_cp=pennies)


def go(campaign, guide, turn, step, action="finish", rng=None, **data):
    return downtime.act(campaign=campaign, by=guide, turn_pk=turn.pk, step=step,
                        action=action, data=data, rng=rng or Dealt())


def walk_to(campaign, guide, turn, stop, faces=()):
    """Finish every step before `stop` (the Event Die dealt a 3: nothing to resolve)."""
    rng = Dealt(3, *faces)
    data = {"rumour": {"rumour": "A wyrm under the abbey"}}
    while downtime.next_step(turn) != stop:
        step = downtime.next_step(turn)
        turn = go(campaign, guide, turn, step, rng=rng, **data.get(step, {}))
    return turn


def test_the_steps_come_in_the_texts_order(campaign, guide, wren):
    turn = downtime.start(campaign=campaign, by=guide, settlement="town")
    assert turn.state["done"] == ["declare"] and downtime.next_step(turn) == "recover"
    with pytest.raises(CampaignError) as refused:
        go(campaign, guide, turn, "debt")
    assert refused.value.code == "out_of_order"
    turn = walk_to(campaign, guide, turn, None)
    assert turn.state["done"] == list(engine.STEP_KEYS)
    assert downtime.open_turn(company.company_of(campaign)) is None
    with pytest.raises(CampaignError, match="over"):
        go(campaign, guide, turn, "calendar")
    assert turn.state["months"] == 1
    second = downtime.start(campaign=campaign, by=guide, settlement="city")
    assert second.kind_number == 2 and second.state["months"] == 1


def test_only_the_guide_runs_it(campaign, player, wren):
    with pytest.raises(CampaignError, match="Only the Guide"):
        downtime.start(campaign=campaign, by=player, settlement="town")


def test_recovery_restores_hp_and_removes_supply_and_undo_puts_them_back(campaign, guide,
                                                                          wren):
    ErrantCharacter.objects.filter(pk=wren.pk).update(hp_current=1)
    supply = [line for line in carried_lines(wren) if line.errant_item.kind == "supply"]
    assert supply, "Wren's kit carries Supply"
    turn = downtime.start(campaign=campaign, by=guide, settlement="town")
    go(campaign, guide, turn, "recover")
    wren.refresh_from_db()
    assert wren.hp_current == sheet_for(wren).value("hp_max")
    assert not [line for line in carried_lines(wren) if line.errant_item.kind == "supply"]
    downtime.undo(campaign=campaign, by=guide, turn_pk=turn.pk)
    wren.refresh_from_db()
    assert wren.hp_current == 1
    assert sum(line.quantity for line in carried_lines(wren)
               if line.errant_item.kind == "supply") == sum(s.quantity for s in supply)


@pytest.mark.parametrize("face,table,dice", [(2, "Downtime Complications", (5, 6)),
                                             (4, "Downtime Trends", (1, 2))])
def test_the_event_die_sends_to_its_table(campaign, guide, wren, face, table, dice):
    turn = downtime.start(campaign=campaign, by=guide, settlement="town")
    turn = walk_to(campaign, guide, turn, "event_die")
    turn = go(campaign, guide, turn, "event_die", rng=Dealt(face))
    turn = go(campaign, guide, turn, "resolve_event", rng=Dealt(*dice))
    shown = turn.state["event_table"]
    assert shown["table"] == table and shown["dice"] == list(dice)
    expected = (engine.complication if face == 2 else engine.trend)(sum(dice))
    assert shown["text"] == expected
    assert turn.event_face == face and turn.event_faces == [face]


def test_event_odds_match_enumeration_with_the_guides_dice():
    odds = downtime.event_face_odds(2, 0)
    assert odds == event_die.enumerate_distribution(2, 0)
    assert sum(chance for _, _, chance in downtime.event_odds(0, 1)) == 1


def test_action_odds_match_enumeration():
    for modifier in range(-3, 4):
        counted = dict.fromkeys((engine.SUCCESS, engine.PARTIAL, engine.FAILURE), 0)
        for a, b in product(range(1, 7), repeat=2):
            counted[engine.action_outcome(a + b + modifier)] += 1
        assert engine.action_odds(modifier) == {k: Fraction(v, 36) for k, v in counted.items()}


def test_debt_doubles_through_the_ledger_and_undo_takes_it_back(campaign, guide, wren):
    company.debt_change(campaign=campaign, kind="owed", amount=300, by=guide)
    turn = downtime.start(campaign=campaign, by=guide, settlement="town")
    turn = walk_to(campaign, guide, turn, "debt")
    turn = go(campaign, guide, turn, "debt", rng=Dealt(1, 2))
    co = company.company_of(campaign)
    assert company.debt(co) == 600
    assert any("unctuous merchant" in c.label for c in turn.changes.all())
    downtime.undo(campaign=campaign, by=guide, turn_pk=turn.pk)
    assert company.debt(co) == 300


def test_actions_mark_trackers_kept_across_turns(campaign, guide, wren):
    turn = downtime.start(campaign=campaign, by=guide, settlement="town")
    turn = walk_to(campaign, guide, turn, "actions")
    turn = go(campaign, guide, turn, "actions", "action", rng=Dealt(6, 5), character=wren.pk,
              tracker="Found a chapter house", size="3", modifier="1")
    assert turn.state["trackers"][0]["marked"] == 1
    with pytest.raises(CampaignError) as refused:
        go(campaign, guide, turn, "actions", "action", character=wren.pk, tracker="x")
    assert refused.value.code == "acted"
    walk_to(campaign, guide, turn, None)
    second = downtime.start(campaign=campaign, by=guide, settlement="town")
    second = walk_to(campaign, guide, second, "actions")
    # 4 + 4 = 8: progress banked; the next attempt succeeds without a roll.
    second = go(campaign, guide, second, "actions", "action", rng=Dealt(4, 4),
                character=wren.pk, tracker="found a chapter house")
    assert second.state["trackers"][0] | {} == {**second.state["trackers"][0], "marked": 1,
                                                "banked": True}


def test_consumption_in_the_purse_grants_xp_and_undo_puts_money_and_xp_back(campaign, guide,
                                                                            wren):
    money(wren, 10_000)
    turn = downtime.start(campaign=campaign, by=guide, settlement="town")
    turn = walk_to(campaign, guide, turn, "consumption")
    xp_before, coins_before = progress(wren)[1], wren.coins_cp
    go(campaign, guide, turn, "consumption", "consume", rng=Dealt(5), character=wren.pk,
       kind="carousing")
    amount = 5 * CONSUMPTION_DICE["town"][1]
    assert progress(wren)[1] == xp_before + amount
    assert wren.coins_cp == coins_before - amount
    assert company.debt(company.company_of(campaign)) == 0
    downtime.undo(campaign=campaign, by=guide, turn_pk=turn.pk)
    assert progress(wren)[1] == xp_before and wren.coins_cp == coins_before


def test_consumption_beyond_the_purse_is_debt_and_a_save(campaign, guide, wren):
    coins = wren.coins_cp
    turn = downtime.start(campaign=campaign, by=guide, settlement="metropolis")
    turn = walk_to(campaign, guide, turn, "consumption")
    phys = sheet_for(wren).value("phys")
    # D12 12 -> 12,000 p; the d20 Save of phys against DV 12: a 20 fails (above phys),
    # then the trouble table's D20 reads entry 9 (a brawl).
    turn = go(campaign, guide, turn, "consumption", "consume", rng=Dealt(12, 20, 9),
              character=wren.pk, kind="carousing")
    amount = 12 * CONSUMPTION_DICE["metropolis"][1]
    assert company.debt(company.company_of(campaign)) == amount - coins
    assert wren.coins_cp == 0
    assert progress(wren)[1] >= amount  # all of it as XP, the part on credit too (AMB-E80)
    assert not checks.succeeds(20, phys, 12)
    told = [c.label for c in turn.changes.all() if "Save" in c.label][0]
    chance = checks.p_success(phys, 12)
    assert (f"Save phys {phys} vs DV 12 (chance {chance.numerator}/{chance.denominator}): "
            "d20 20, failed") in told
    assert engine.consumption_trouble(9) in told
    # Ash may not consume now: the Company owes a debt (DT §Debts).
    downtime.undo(campaign=campaign, by=guide, turn_pk=turn.pk)
    assert company.debt(company.company_of(campaign)) == 0 and wren.coins_cp == coins


def test_no_consumption_while_the_company_owes(campaign, guide, wren):
    company.debt_change(campaign=campaign, kind="owed", amount=5, by=guide)
    turn = downtime.start(campaign=campaign, by=guide, settlement="town")
    turn = walk_to(campaign, guide, turn, "consumption")
    with pytest.raises(CampaignError) as refused:
        go(campaign, guide, turn, "consumption", "consume", character=wren.pk,
           kind="frippery")
    assert refused.value.code == "company_in_debt"


@pytest.mark.parametrize("accountant,paid", [(False, 501), (True, 250)])
def test_lifestyle_after_the_last_turn(campaign, guide, wren, accountant, paid):
    money(wren, 1001 - wren.coins_cp)
    turn = downtime.start(campaign=campaign, by=guide, settlement="town", last=True)
    turn = walk_to(campaign, guide, turn, "lifestyle")
    turn = go(campaign, guide, turn, "lifestyle",
              accountants=[str(wren.pk)] if accountant else [])
    assert wren.coins_cp == 1001 - paid
    assert downtime.next_step(turn) is None


def test_funeral_and_hiring(campaign, guide, wren):
    money(wren, 500)
    turn = downtime.start(campaign=campaign, by=guide, settlement="town")
    turn = walk_to(campaign, guide, turn, "free_actions")
    xp = progress(wren)[1]
    go(campaign, guide, turn, "free_actions", "funeral", character=wren.pk, pennies="200",
       note="Tobin")
    assert progress(wren)[1] == xp + 200
    turn = go(campaign, guide, turn, "free_actions", "hire", rng=Dealt(7, 6, 6),
              character=wren.pk)
    pres = sheet_for(wren).value("pres")
    morale = engine.retainer_morale(pres, 12)
    assert any(f"Morale {morale}" in c.label and "D8 7" in c.label
               for c in turn.changes.all())


def test_a_secret_rumour_is_the_guides_only(client, campaign, guide, player, wren):
    from django.urls import reverse
    turn = downtime.start(campaign=campaign, by=guide, settlement="town")
    turn = walk_to(campaign, guide, turn, "rumour")
    go(campaign, guide, turn, "rumour", rumour="The abbot is a ghoul", secret="1")
    url = reverse("campaigns:errant_downtime", args=[campaign.pk])
    client.force_login(player)
    page = client.get(url).content
    assert b"The Company hears a rumour" in page and b"ghoul" not in page
    client.force_login(guide)
    assert b"The abbot is a ghoul" in client.get(url).content


def test_stale_page_and_double_click(campaign, guide, wren):
    turn = downtime.start(campaign=campaign, by=guide, settlement="town", request_key="s1")
    again = downtime.start(campaign=campaign, by=guide, settlement="town", request_key="s1")
    assert again.pk == turn.pk
    seen = downtime.version(turn)
    downtime.act(campaign=campaign, by=guide, turn_pk=turn.pk, step="recover", seen=seen,
                 request_key="r1")
    turn = downtime.act(campaign=campaign, by=guide, turn_pk=turn.pk, step="recover",
                        seen=seen, request_key="r1")
    assert turn.state["done"] == ["declare", "recover"]
    with pytest.raises(CampaignError) as refused:
        downtime.act(campaign=campaign, by=guide, turn_pk=turn.pk, step="event_die",
                     seen=seen)
    assert refused.value.code == "stale"


def test_bad_input_is_refused_beside_its_field(campaign, guide, wren):
    with pytest.raises(CampaignError) as refused:
        downtime.start(campaign=campaign, by=guide, settlement="castle")
    assert refused.value.field == "settlement"
    turn = downtime.start(campaign=campaign, by=guide, settlement="town")
    turn = walk_to(campaign, guide, turn, "event_die")
    with pytest.raises(CampaignError) as refused:
        go(campaign, guide, turn, "event_die", extra_positive="lots")
    assert refused.value.field == "extra_positive"
    turn.refresh_from_db()
    assert turn.event_face is None
    assert not turn.changes.filter(what=ErrantTurnChange.What.XP).exists()


def test_a_renown_raise_stands_on_the_xp(campaign, guide, wren):
    from campaigns.systems.errant import advancement
    money(wren, 20_000)
    turn = downtime.start(campaign=campaign, by=guide, settlement="metropolis")
    turn = walk_to(campaign, guide, turn, "consumption")
    go(campaign, guide, turn, "consumption", "consume", rng=Dealt(10), character=wren.pk,
       kind="frippery")
    assert advancement.renown_of(wren) >= 2
    advancement.renown_pick(character=wren, attribute="phys", by=guide, by_company=True)
    with pytest.raises(CampaignError) as refused:
        downtime.undo(campaign=campaign, by=guide, turn_pk=turn.pk)
    assert refused.value.code == "renown_raised"
    assert turns.latest(company.company_of(campaign)).pk == turn.pk


def test_scourges_are_tracked_triggered_and_carried(campaign, guide, wren):
    turn = downtime.start(campaign=campaign, by=guide, settlement="town")
    turn = downtime.scourge(campaign=campaign, by=guide, turn_pk=turn.pk, action="add",
                            name="The Bone King")
    with pytest.raises(CampaignError) as refused:
        downtime.scourge(campaign=campaign, by=guide, turn_pk=turn.pk, action="add",
                         name="the bone king")
    assert refused.value.code == "scourge_exists"
    turn = walk_to(campaign, guide, turn, "event_die")
    # Event Die 1 <= peril 1: the malice D6 6 raises the peril to 2.
    turn = go(campaign, guide, turn, "event_die", rng=Dealt(1, 6))
    assert turn.state["scourges"] == [{"name": "The Bone King", "peril": 2}]
    assert any("malice D6 6" in c.label for c in turn.changes.all())
    turn = downtime.scourge(campaign=campaign, by=guide, turn_pk=turn.pk, action="locus",
                            name="The Bone King")
    assert turn.state["scourges"][0]["peril"] == 1
    turn = walk_to(campaign, guide, turn, None)
    second = downtime.start(campaign=campaign, by=guide, settlement="town")
    assert second.state["scourges"] == [{"name": "The Bone King", "peril": 1}]
    second = downtime.scourge(campaign=campaign, by=guide, turn_pk=second.pk,
                              action="source", name="The Bone King")
    assert second.state["scourges"] == []
    # Undoing the second Turn brings the Scourge back with the first Turn's state.
    downtime.undo(campaign=campaign, by=guide, turn_pk=second.pk)
    assert downtime.carried(company.company_of(campaign))["scourges"] == [
        {"name": "The Bone King", "peril": 1}]


@pytest.mark.parametrize("kind,faces,expected", [
    ("hirelings", (5, 3, 4), "5 hirelings available"),
    ("mercenaries", (5, 3, 4), "50 mercenaries, of whom 5 lieutenants and 2 captains"),
])
def test_retainer_types(campaign, guide, wren, kind, faces, expected):
    turn = downtime.start(campaign=campaign, by=guide, settlement="town")
    turn = walk_to(campaign, guide, turn, "free_actions")
    turn = go(campaign, guide, turn, "free_actions", "hire", rng=Dealt(*faces),
              character=wren.pk, retainer_type=kind)
    assert any(expected in c.label for c in turn.changes.all())


def test_henchmen_need_advertising_and_mercenaries_a_town(campaign, guide, wren):
    money(wren, 300)
    turn = downtime.start(campaign=campaign, by=guide, settlement="village")
    turn = walk_to(campaign, guide, turn, "free_actions")
    with pytest.raises(CampaignError) as refused:
        go(campaign, guide, turn, "free_actions", "hire", character=wren.pk,
           retainer_type="mercenaries")
    assert refused.value.code == "no_mercenaries"
    with pytest.raises(CampaignError) as refused:
        go(campaign, guide, turn, "free_actions", "hire", character=wren.pk,
           retainer_type="henchmen")
    assert refused.value.field == "advertising"
    coins = wren.coins_cp
    # 200p: two henchmen, Renown D2 (2, 1) and D10 Archetypes (9: Magic user, 1: Warrior).
    turn = go(campaign, guide, turn, "free_actions", "hire", rng=Dealt(2, 9, 1, 1),
              character=wren.pk, retainer_type="henchmen", advertising="200")
    assert wren.coins_cp == coins - 200
    assert any("2 interested: Renown 2, Magic user (D10 9); Renown 1, Warrior (D10 1)"
               in c.label for c in turn.changes.all())


def test_morale_odds_sum_to_one_and_match_the_table():
    odds = downtime.morale_odds(10)
    assert sum(odds.values()) == 1
    assert odds[7] == Fraction(5 + 6 + 5, 36)  # pres 10: Morale 7; 6-8 on 2D6: modifier 0


def test_faction_and_debt_odds_match_enumeration():
    for assets, opposing in [(0, 0), (3, 1), (0, 6), (9, 0)]:
        counted = {}
        for d6 in range(1, 7):
            _, wins, lost = engine.faction_turn(d6, assets, opposing)
            counted[(wins, lost)] = counted.get((wins, lost), 0) + 1
        odds = downtime.faction_odds(assets, opposing)
        assert sum(odds.values()) == 1 and len(odds) == len(counted)
    assert downtime.faction_odds(0, 0) == {"no success": Fraction(5, 6),
                                           "1 success(es)": Fraction(1, 6)}
    # A town: D8 x 600; with 2,000 p the amounts 2,400 ... 4,800 go beyond: 5/8.
    assert downtime.consumption_debt_odds("town", 2_000) == Fraction(5, 8)
    assert downtime.consumption_debt_odds("town", 10_000) == 0


def test_the_turn_logs_undo_takes_a_downtime_turns_debt_back_too(campaign, guide, wren):
    company.debt_change(campaign=campaign, kind="owed", amount=300, by=guide)
    turn = downtime.start(campaign=campaign, by=guide, settlement="town")
    turn = walk_to(campaign, guide, turn, "debt")
    go(campaign, guide, turn, "debt", rng=Dealt(1, 2))
    co = company.company_of(campaign)
    assert company.debt(co) == 600
    turns.undo_from_log(campaign=campaign, by=guide, turn_pk=turn.pk)
    assert company.debt(co) == 300


def _funeral_with_an_adjutant(campaign, guide, player, wren):
    """Wren (Renown 2) with a new adjutant, Squire; a Downtime Turn's funeral of 400 p:
    the XP divided ¾ and ¼ (ER §Adjutants)."""
    advancement.waste_grant(campaign=campaign, characters=[wren], source="waste",
                            pennies=2_000, by=guide)  # ER §Renown: Renown 2 at 2,000 XP
    squire = make_wren(player, name="Squire")
    services.character_join(campaign=campaign, character=squire, by=player)
    roster.adjutant_attach(campaign=campaign, master=wren, adjutant=squire, by=player)
    money(wren, 500)
    before = {e.pk: (progress(e)[1], e.coins_cp) for e in (wren, squire)}
    turn = downtime.start(campaign=campaign, by=guide, settlement="town")
    turn = walk_to(campaign, guide, turn, "free_actions")
    turn = go(campaign, guide, turn, "free_actions", "funeral", character=wren.pk,
              pennies="400", note="Tobin")
    own, share = adjutant_split(400)
    assert progress(wren)[1] == before[wren.pk][0] + own
    assert progress(squire)[1] == before[squire.pk][0] + share
    assert wren.coins_cp == before[wren.pk][1] - 400
    entry = turn.changes.get(what=ErrantTurnChange.What.XP).xp_entry
    return turn, squire, before, entry


def test_undoing_a_turn_with_money_wasted_reverses_both_parts_of_the_xp_and_the_coins(
        campaign, guide, player, wren):
    turn, squire, before, entry = _funeral_with_an_adjutant(campaign, guide, player, wren)
    turns.undo_from_log(campaign=campaign, by=guide, turn_pk=turn.pk)
    for errant in (wren, squire):
        assert (progress(errant)[1], errant.coins_cp) == before[errant.pk]
    partner = roster.partner_entry(entry)
    reversals = XpEntry.objects.filter(kind=XpEntry.Kind.REVERSAL)
    assert {(r.character_id, r.reverses_id, r.xp_change) for r in reversals} == {
        (wren.pk, entry.pk, -entry.xp_change), (squire.pk, partner.pk, -partner.xp_change)}
    assert XpEntry.objects.filter(pk__in=[entry.pk, partner.pk]).count() == 2  # kept
    coin = turn.changes.get(what=ErrantTurnChange.What.MONEY).coin_entry
    assert CoinEntry.objects.filter(reverses=coin, amount_cp=400).count() == 1


def test_money_wasted_undone_on_the_advancement_page_first_refuses_the_turns_undo(
        campaign, guide, player, wren):
    turn, squire, before, entry = _funeral_with_an_adjutant(campaign, guide, player, wren)
    services.xp_entry_reverse(entry=entry, by=guide)
    after = {e.pk: (progress(e)[1], e.coins_cp) for e in (wren, squire)}
    ledgers = XpEntry.objects.count(), CoinEntry.objects.count()
    with pytest.raises(CampaignError, match="changed since this Turn") as refused:
        turns.undo_from_log(campaign=campaign, by=guide, turn_pk=turn.pk)
    assert refused.value.code == "changed_since"
    assert (XpEntry.objects.count(), CoinEntry.objects.count()) == ledgers
    assert {e.pk: (progress(e)[1], e.coins_cp) for e in (wren, squire)} == after
    turn.refresh_from_db()
    assert turn.undone_at is None


def test_coins_paid_back_by_hand_first_refuse_the_turns_undo(campaign, guide, wren):
    money(wren, 500)
    turn = downtime.start(campaign=campaign, by=guide, settlement="town")
    turn = walk_to(campaign, guide, turn, "free_actions")
    turn = go(campaign, guide, turn, "free_actions", "funeral", character=wren.pk,
              pennies="200")
    coin = turn.changes.get(what=ErrantTurnChange.What.MONEY).coin_entry
    CoinEntry.objects.create(character=wren, kind=CoinEntry.Kind.REVERSAL,
                             amount_cp=-coin.amount_cp, reverses=coin)
    xp = progress(wren)[1]
    with pytest.raises(CampaignError) as refused:
        turns.undo_from_log(campaign=campaign, by=guide, turn_pk=turn.pk)
    assert refused.value.code == "changed_since"
    assert progress(wren)[1] == xp and wren.coins_cp == 500
