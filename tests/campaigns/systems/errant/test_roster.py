"""Errant adjutants, rosters and training (issue 14; ER §Adjutants, §Rosters; DT §Improving
Attributes): each rule and refusal, the XP divided and undone together, the swap once a
session, the training's cost, dice, raise on the sheet and undo, double submissions."""

from fractions import Fraction

import pytest

from campaigns import services
from campaigns.services import CampaignError
from campaigns.systems.errant import advancement, roster
from campaigns.transfers import give_as_posted
from characters.models import CoinEntry, XpEntry
from characters.systems.errant.builds import sheet_for
from characters.systems.errant.inventory import carried_lines
from characters.systems.errant.models import (
    ErrantAdjutant,
    ErrantCharacter,
    ErrantRosterSwap,
    ErrantTraining,
    ErrantXpShare,
)
from rules.engine.errant.advancement import adjutant_split, p_training, training_cost
from tests.characters.systems.errant.helpers import make_wren

pytestmark = pytest.mark.django_db


def join(campaign, owner, name, **changes):
    errant = make_wren(owner, name=name, **changes)
    services.character_join(campaign=campaign, character=errant, by=owner)
    return ErrantCharacter.objects.get(pk=errant.pk)


def grant(campaign, guide, characters, pennies, **kw):
    return advancement.waste_grant(campaign=campaign, characters=characters, source="waste",
                                   pennies=pennies, by=guide, **kw)


def fresh(errant):
    return ErrantCharacter.objects.get(pk=errant.pk)


def pay(errant, pennies):
    CoinEntry.objects.create(character=errant, kind=CoinEntry.Kind.ADJUSTMENT,
                             amount_cp=pennies, note="test purse")


@pytest.fixture
def squire(campaign, player):
    return join(campaign, player, "Squire")


@pytest.fixture
def renowned(campaign, guide, wren):
    grant(campaign, guide, [wren], 2_000)  # ER §Renown: Renown 2 at 2,000 XP
    return fresh(wren)


def code_of(call) -> str:
    with pytest.raises(CampaignError) as error:
        call()
    return error.value.code


# -- Adjutants -----------------------------------------------------------------------------

def test_a_renown_2_errant_attracts_a_renown_1_adjutant_of_the_same_player(
        campaign, player, renowned, squire):
    link = roster.adjutant_attach(campaign=campaign, master=renowned, adjutant=squire,
                                  by=player)
    assert (link.master_id, link.adjutant_id) == (renowned.pk, squire.pk)
    assert roster.link_of(squire) == link and roster.link_of(renowned) == link
    # A second click for the same pair finds it.
    assert roster.adjutant_attach(campaign=campaign, master=renowned, adjutant=squire,
                                  by=player) == link
    assert ErrantAdjutant.objects.count() == 1


def test_renown_1_attracts_no_adjutant(campaign, player, wren, squire):
    assert code_of(lambda: roster.adjutant_attach(
        campaign=campaign, master=wren, adjutant=squire, by=player)) == "adjutant_renown"


def test_another_players_errant_is_no_adjutant(campaign, other, player, renowned, ash):
    assert code_of(lambda: roster.adjutant_attach(
        campaign=campaign, master=renowned, adjutant=ash, by=player)) == "adjutant_other_player"


def test_another_player_cannot_choose_for_the_master(campaign, other, renowned, squire):
    assert code_of(lambda: roster.adjutant_attach(
        campaign=campaign, master=renowned, adjutant=squire, by=other)) == "not_allowed"


def test_the_adjutant_starts_at_renown_1(campaign, guide, player, renowned, squire):
    grant(campaign, guide, [squire], 2_000)
    assert code_of(lambda: roster.adjutant_attach(
        campaign=campaign, master=renowned, adjutant=squire, by=player)) == "adjutant_not_new"


def test_one_adjutant_in_a_lifetime_never_replaced(campaign, player, renowned, squire):
    roster.adjutant_attach(campaign=campaign, master=renowned, adjutant=squire, by=player)
    second = join(campaign, player, "Page")
    assert code_of(lambda: roster.adjutant_attach(
        campaign=campaign, master=renowned, adjutant=second, by=player)) == "adjutant_once"
    squire.delete()  # the adjutant perished
    link = ErrantAdjutant.objects.get(master=renowned)
    assert link.adjutant_id is None and link.adjutant_name == "Squire"
    assert roster.link_of(renowned) is None
    assert code_of(lambda: roster.adjutant_attach(
        campaign=campaign, master=renowned, adjutant=second, by=player)) == "adjutant_once"


def test_an_adjutant_is_nobody_elses_and_takes_none_while_attached(
        campaign, guide, player, renowned, squire):
    roster.adjutant_attach(campaign=campaign, master=renowned, adjutant=squire, by=player)
    other_master = join(campaign, player, "Knight")
    grant(campaign, guide, [other_master], 6_000)
    assert code_of(lambda: roster.adjutant_attach(
        campaign=campaign, master=other_master, adjutant=squire, by=player)) == "adjutant_taken"
    assert code_of(lambda: roster.adjutant_attach(
        campaign=campaign, master=renowned, adjutant=renowned, by=player)) == "adjutant_self"


def test_xp_is_divided_three_quarters_and_a_quarter(campaign, guide, player, renowned, squire):
    roster.adjutant_attach(campaign=campaign, master=renowned, adjutant=squire, by=player)
    before_master = services.progress(renowned)[1]
    [entry] = grant(campaign, guide, [renowned], 1_001)
    master_part, adjutant_part = adjutant_split(1_001)
    assert entry.xp_change == master_part and entry.kind == XpEntry.Kind.WASTE
    share = roster.partner_entry(entry)
    assert share.character_id == squire.pk and share.xp_change == adjutant_part
    assert master_part + adjutant_part == 1_001  # AMB-E21: nothing lost
    assert services.progress(renowned)[1] == before_master + master_part
    assert services.progress(squire)[1] == adjutant_part
    # XP the adjutant earns is divided too: the Errant gets ¾ of it.
    [own] = grant(campaign, guide, [squire], 400)
    assert own.xp_change == 400 - adjutant_split(400)[0]
    assert roster.partner_entry(own).xp_change == adjutant_split(400)[0]


def test_divided_xp_is_undone_together(campaign, guide, player, renowned, squire):
    roster.adjutant_attach(campaign=campaign, master=renowned, adjutant=squire, by=player)
    master_xp = services.progress(renowned)[1]
    [entry] = grant(campaign, guide, [renowned], 800)
    share = roster.partner_entry(entry)
    services.xp_entry_reverse(entry=share, by=guide)  # either half undoes both
    assert XpEntry.objects.filter(reverses=entry).exists()
    assert services.progress(renowned)[1] == master_xp
    assert services.progress(squire)[1] == 0
    # Money wasted from the purse comes back with it.
    pay(renowned, 500)
    [paid] = grant(campaign, guide, [renowned], 500, from_purse=True)
    assert fresh(renowned).coins_cp == 0
    services.xp_entry_reverse(entry=paid, by=guide)
    assert fresh(renowned).coins_cp == 500 and services.progress(squire)[1] == 0


def test_the_adjutant_never_reaches_the_errants_renown(campaign, guide, player, renowned,
                                                       squire):
    grant(campaign, guide, [squire], 1_999)  # still Renown 1: may be attached
    roster.adjutant_attach(campaign=campaign, master=renowned, adjutant=squire, by=player)
    # 4 XP to the adjutant: its ¼ (1) brings it to 2,000, Renown 2, while the Errant's ¾ (3)
    # leaves it at 2,003, Renown 2: "can never be the same Renown" refuses it.
    xp = services.progress(renowned)[1], services.progress(squire)[1]
    assert code_of(lambda: grant(campaign, guide, [squire], 4)) == "adjutant_renown_reached"
    assert (services.progress(renowned)[1], services.progress(squire)[1]) == xp
    # 8,000 earned by the Errant: 2,000 + 6,000 (Renown 3), the adjutant 1,999 + 2,000
    # (Renown 2): allowed.
    grant(campaign, guide, [renowned], 8_000)
    assert (roster.renown_of(renowned), roster.renown_of(squire)) == (3, 2)


def test_the_guide_undoes_a_link_only_before_any_division(campaign, guide, player, renowned,
                                                          squire):
    link = roster.adjutant_attach(campaign=campaign, master=renowned, adjutant=squire,
                                  by=player)
    assert code_of(lambda: roster.adjutant_undo(campaign=campaign, link_pk=link.pk,
                                                by=player)) == "not_guide"
    [entry] = grant(campaign, guide, [renowned], 100)
    assert code_of(lambda: roster.adjutant_undo(campaign=campaign, link_pk=link.pk,
                                                by=guide)) == "link_has_shares"
    services.xp_entry_reverse(entry=entry, by=guide)
    roster.adjutant_undo(campaign=campaign, link_pk=link.pk, by=guide)
    assert not ErrantAdjutant.objects.exists() and ErrantXpShare.objects.count() == 0


def test_old_imp_adjustment_entries_of_a_grant_still_answer_its_request_key(
        campaign, guide, wren):
    entry = services.xp_entry(wren, kind=XpEntry.Kind.IMP_ADJUSTMENT, by=guide, xp_change=5,
                              request_key=f"old:{wren.pk}")
    assert grant(campaign, guide, [wren], 5, request_key="old") == [entry]
    assert XpEntry.Kind.WASTE.label == "Money wasted"


# -- Rosters ----------------------------------------------------------------------------------

def test_the_first_choice_is_free_then_one_swap_a_session(campaign, guide, player, wren,
                                                          squire, session):
    first = roster.roster_choose(campaign=campaign, character=wren, by=player)
    assert not first.is_swap and roster.active_of(campaign, player) == wren
    swap = roster.roster_choose(campaign=campaign, character=squire, by=player)
    assert swap.is_swap and swap.session == session and swap.from_character_id == wren.pk
    assert roster.active_of(campaign, player) == squire
    with pytest.raises(CampaignError) as error:
        roster.roster_choose(campaign=campaign, character=wren, by=player)
    assert error.value.code == "swapped_this_session"
    assert "once per game session" in error.value.message
    assert roster.active_of(campaign, player) == squire
    # A new session: one more swap, by the Guide this time.
    services.session_start(campaign=campaign, by=guide)
    roster.roster_choose(campaign=campaign, character=wren, by=guide)
    assert roster.active_of(campaign, player) == wren


def test_a_swap_needs_a_session_and_another_errant(campaign, player, wren, squire):
    roster.roster_choose(campaign=campaign, character=wren, by=player)
    assert code_of(lambda: roster.roster_choose(campaign=campaign, character=wren,
                                                by=player)) == "already_active"
    assert code_of(lambda: roster.roster_choose(campaign=campaign, character=squire,
                                                by=player)) == "no_session"


def test_another_player_cannot_swap_for_you(campaign, other, player, wren, session):
    assert code_of(lambda: roster.roster_choose(campaign=campaign, character=wren,
                                                by=other)) == "not_allowed"
    assert not ErrantRosterSwap.objects.exists()


def test_a_double_submitted_swap_counts_once(campaign, player, wren, squire, session):
    roster.roster_choose(campaign=campaign, character=wren, by=player)
    one = roster.roster_choose(campaign=campaign, character=squire, by=player,
                               request_key="k1")
    assert roster.roster_choose(campaign=campaign, character=squire, by=player,
                                request_key="k1") == one
    assert ErrantRosterSwap.objects.filter(is_swap=True).count() == 1


def test_items_pass_between_the_errants_of_a_roster(campaign, player, wren, squire, session):
    roster.roster_choose(campaign=campaign, character=wren, by=player)
    line = carried_lines(wren)[0]
    name = line.name
    # The inactive Errant gives and receives through the one transfer mechanism.
    message = give_as_posted(character=wren, item=line.pk, by=player,
                             data={"to": squire.pk, "quantity": line.quantity,
                                   "request_key": "give-1"})
    assert "Squire" in message
    assert name in [line.name for line in carried_lines(squire)]
    back = next(line for line in carried_lines(squire) if line.name == name)
    give_as_posted(character=squire, item=back.pk, by=player,
                   data={"to": wren.pk, "quantity": back.quantity, "request_key": "give-2"})
    assert name in [line.name for line in carried_lines(wren)]


# -- Training -----------------------------------------------------------------------------------

def test_training_pays_rolls_and_raises_on_the_sheet(campaign, player, wren, session):
    pay(wren, 10_000)
    before = sheet_for(fresh(wren)).attributes.pres
    attempt = roster.train(campaign=campaign, character=wren, attribute="pres", by=player,
                           dice=(4, 4, 4, 4, 1))
    assert attempt.total == 16 and attempt.raised and attempt.attempt == 1
    assert attempt.cost == training_cost(1) == 1_000
    assert fresh(wren).coins_cp == 9_000
    sheet = sheet_for(fresh(wren))
    assert sheet.attributes.pres == before + 1
    assert ("trained", 1) in [tuple(t) for t in sheet.stats["pres"].terms]


def test_the_cost_doubles_across_all_attributes(campaign, player, wren, session):
    pay(wren, 10_000)
    roster.train(campaign=campaign, character=wren, attribute="pres", by=player,
                 dice=(1, 1, 1, 1, 1))  # 4: no rise
    second = roster.train(campaign=campaign, character=wren, attribute="phys", by=player,
                          dice=(1, 1, 1, 1, 1))
    assert not second.raised and second.attempt == 2 and second.cost == 2_000
    assert fresh(wren).coins_cp == 10_000 - 3_000
    assert roster.next_attempt(fresh(wren)) == (3, 4_000)


def test_training_refusals(campaign, player, other, wren, session):
    pay(wren, 500)
    assert code_of(lambda: roster.train(campaign=campaign, character=wren, attribute="pres",
                                        by=player)) == "not_enough_money"
    pay(wren, 10_000)
    assert code_of(lambda: roster.train(campaign=campaign, character=wren, attribute="luck",
                                        by=player)) == "bad_attribute"
    assert code_of(lambda: roster.train(campaign=campaign, character=wren, attribute="pres",
                                        by=other)) == "not_allowed"
    pres = sheet_for(fresh(wren)).attributes.pres
    assert code_of(lambda: roster.train(campaign=campaign, character=wren, attribute="pres",
                                        trainer=pres, by=player)) == "trainer_reached"
    assert code_of(lambda: roster.train(campaign=campaign, character=wren, attribute="pres",
                                        trainer=99, by=player)) == "bad_trainer"
    assert not ErrantTraining.objects.exists() and fresh(wren).coins_cp == 10_500


def test_the_odds_are_exact_fractions(campaign, wren):
    odds = {o.attribute: o for o in roster.training_odds(wren)}
    attributes = sheet_for(wren).attributes
    for key, row in odds.items():
        assert row.current == attributes[key]
        assert row.chance == p_training(attributes[key])
    assert p_training(15) == Fraction(1, 64)


def test_undo_the_latest_attempt_only(campaign, player, wren, session):
    pay(wren, 10_000)
    first = roster.train(campaign=campaign, character=wren, attribute="pres", by=player,
                         dice=(4, 4, 4, 4, 4))
    second = roster.train(campaign=campaign, character=wren, attribute="mind", by=player,
                          dice=(4, 4, 4, 4, 4))
    assert code_of(lambda: roster.training_undo(campaign=campaign, training_pk=first.pk,
                                                by=player)) == "not_latest"
    roster.training_undo(campaign=campaign, training_pk=second.pk, by=player)
    assert fresh(wren).coins_cp == 10_000 - 1_000
    assert code_of(lambda: roster.training_undo(campaign=campaign, training_pk=second.pk,
                                                by=player)) == "already_undone"
    pres = sheet_for(fresh(wren)).attributes.pres
    roster.training_undo(campaign=campaign, training_pk=first.pk, by=player)
    assert sheet_for(fresh(wren)).attributes.pres == pres - 1
    assert fresh(wren).coins_cp == 10_000
    assert roster.next_attempt(fresh(wren)) == (1, 1_000)


def test_a_double_submitted_training_counts_once(campaign, player, wren, session):
    pay(wren, 10_000)
    one = roster.train(campaign=campaign, character=wren, attribute="pres", by=player,
                       request_key="t1")
    assert roster.train(campaign=campaign, character=wren, attribute="pres", by=player,
                        request_key="t1") == one
    assert ErrantTraining.objects.count() == 1 and fresh(wren).coins_cp == 9_000


# -- Trades (DT §Trades) ---------------------------------------------------------------------

def learn(campaign, player, wren, dice, **kw):
    return roster.learn_trade(campaign=campaign, character=wren, trade="Smithing", by=player,
                              dice=dice, **kw)


def test_a_trade_from_layman_to_journeyman(campaign, player, wren, session):
    from rules.engine.errant import trades

    pay(wren, 50_000)
    first = learn(campaign, player, wren, (6, 5))
    assert (first.level, first.cost, first.outcome) == ("apprentice", 2_000, trades.SUCCESS)
    [standing] = roster.trade_standings(fresh(wren))
    assert standing.certified == "apprentice" and standing.training_for.key == "journeyman"
    # 7-9: the next attempt is an automatic success, paid and not rolled.
    near = learn(campaign, player, wren, (4, 4))
    assert near.outcome == trades.NEXT_AUTOMATIC and near.cost == 4_000
    auto = learn(campaign, player, wren, None)
    assert auto.automatic and auto.dice == [] and auto.outcome == trades.SUCCESS
    standing = roster.trade_standing(fresh(wren), "smithing")  # case-blind
    assert standing.certified == "apprentice" and standing.successes == 1  # of 2
    learn(campaign, player, wren, (6, 4))
    standing = roster.trade_standing(fresh(wren), "SMITHING")
    assert standing.certified == "journeyman" and standing.training_for.key == "master"
    assert fresh(wren).coins_cp == 50_000 - 2_000 - 3 * 4_000


def test_trade_bonus_capped_and_extra_paid(campaign, player, wren, session):
    pay(wren, 10_000)
    attempt = learn(campaign, player, wren, (3, 3), extra=1_000, situational=2)
    assert attempt.bonus == 3 and attempt.outcome == "next_automatic"  # 6 + 3 = 9
    assert fresh(wren).coins_cp == 10_000 - 3_000


def test_trade_refusals_and_undo(campaign, player, other, wren, session):
    assert code_of(lambda: learn(campaign, player, wren, (6, 6))) == "not_enough_money"
    pay(wren, 5_000)
    assert code_of(lambda: roster.learn_trade(campaign=campaign, character=wren, trade=" ",
                                              by=player)) == "bad_trade"
    assert code_of(lambda: learn(campaign, player, wren, (6, 6), situational=4)) == \
        "bad_situational"
    assert code_of(lambda: learn(campaign, other, wren, (6, 6))) == "not_allowed"
    one = learn(campaign, player, wren, (1, 1), request_key="tr")
    assert learn(campaign, player, wren, (6, 6), request_key="tr") == one  # counted once
    roster.trade_undo(campaign=campaign, attempt_pk=one.pk, by=player)
    assert fresh(wren).coins_cp == 5_000 and roster.trade_standings(fresh(wren)) == []
