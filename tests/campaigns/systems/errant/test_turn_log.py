"""The Turn log's core (turns.py): declaring Turns, the Event Die as rolled, changes put
back by an undo, stale pages and double clicks, who may write."""

from fractions import Fraction

import pytest

from campaigns.services import CampaignError
from campaigns.systems.errant import turns
from campaigns.systems.errant.turn_models import ErrantTurn, ErrantTurnChange
from characters.models import CoinEntry
from characters.systems.errant.inventory import carried_lines, new_line
from rules.engine.errant import event_die

pytestmark = pytest.mark.django_db


def test_turns_are_numbered_in_the_log_and_by_kind(campaign, guide, session):
    first = turns.declare(campaign=campaign, kind="travel", by=guide, turn_of_day=1,
                          activity="Peregrinate north")
    second = turns.declare(campaign=campaign, kind="exploration", by=guide, parent=first.pk)
    third = turns.declare(campaign=campaign, kind="travel", by=guide, turn_of_day=2)
    assert [(t.number, t.kind_number) for t in (first, second, third)] == [(1, 1), (2, 1),
                                                                          (3, 2)]
    assert second.parent == first and first.session == session and third.day == 1


def test_only_the_guide_declares(campaign, player, wren):
    with pytest.raises(CampaignError, match="Only the Guide"):
        turns.declare(campaign=campaign, kind="travel", by=player)


@pytest.mark.parametrize("kwargs,code", [
    ({"kind": "nap"}, "turn_kind"), ({"kind": "travel", "turn_of_day": 7}, "turn_of_day"),
    ({"kind": "travel", "day": 0}, "turn_day"), ({"kind": "travel", "parent": 999},
                                                 "turn_parent"),
    ({"kind": "travel", "activity": "x" * 301}, "activity_too_long")])
def test_bad_input_is_refused_with_its_reason(campaign, guide, kwargs, code):
    with pytest.raises(CampaignError) as refused:
        turns.declare(campaign=campaign, by=guide, **kwargs)
    assert refused.value.code == code
    assert not ErrantTurn.objects.exists()


def test_a_stale_page_and_a_double_click_record_once(campaign, guide):
    once = turns.declare(campaign=campaign, kind="travel", by=guide, seen=0, request_key="k1")
    again = turns.declare(campaign=campaign, kind="travel", by=guide, seen=0, request_key="k1")
    assert once.pk == again.pk
    with pytest.raises(CampaignError, match="changed since"):
        turns.declare(campaign=campaign, kind="travel", by=guide, seen=0)
    assert ErrantTurn.objects.count() == 1


def test_event_die_keeps_the_lowest_of_negative_dice_and_reads_fives_as_ones(campaign, guide):
    turn = turns.declare(campaign=campaign, kind="travel", by=guide, turn_of_day=1)
    dice = event_die.event_dice("travel", encumbrances=(5, 6), pace="slow")
    assert (dice.positive, dice.negative, dice.count) == (1, 2, 2)
    roll = turns.roll_event(turn, dice, faces=(6, 5), fives_are_ones=True)
    turn.refresh_from_db()
    assert roll.kept == 1 and turn.event_face == 1 and turn.event_faces == [6, 5]
    assert turn.event_result == event_die.effects("travel", 1).result.key
    assert [s["label"] for s in turn.event_sources] == [
        "2 member(s) with Encumbrance over 4", "moving slowly"]
    with pytest.raises(CampaignError, match="already rolled"):
        turns.roll_event(turn, dice, faces=(1, 1))


def test_event_odds_are_exact_and_sum_to_one(campaign):
    odds = turns.event_odds("travel", event_die.event_dice("travel", extra_negative=2))
    assert sum(chance for _, _, chance in odds) == 1
    assert {key: chance for key, _, chance in odds}[
        event_die.effects("travel", 1).result.key] == Fraction(91, 216)


def test_initiative_turns_have_no_event_die(campaign, guide):
    turn = turns.declare(campaign=campaign, kind="initiative", by=guide)
    with pytest.raises(CampaignError, match="no Event Die"):
        turns.roll_event(turn, event_die.EventDice(), faces=(3,))


def test_undo_puts_every_change_back(campaign, guide, wren):
    torch = new_line(wren, {"name": "Torch", "quarters": 1, "kind": "light", "uses": 2,
                            "uses_max": 2})
    supply = new_line(wren, {"name": "Supply", "quarters": 1, "kind": "supply",
                             "quantity": 1})
    turn = turns.declare(campaign=campaign, kind="travel", by=guide, turn_of_day=1)
    turns.change_depletion(turn, torch, 1, "Torch: Burn 2 to 1")
    turns.change_quantity(turn, supply, 0, "Wren eats the last Supply")
    turns.change_exhaustion(turn, wren, 1, "Wren: +1 Exhaustion")
    turns.change_money(turn, wren, -5, "Toll", by=guide)
    wren.refresh_from_db()
    assert wren.exhaustion == 1
    names = [line.name for line in carried_lines(wren)]
    assert "Torch" in names and names[-1] != "Supply"
    turns.undo_latest(campaign=campaign, by=guide, turn_pk=turn.pk)
    wren.refresh_from_db()
    torch.errant_item.refresh_from_db()
    assert wren.exhaustion == 0 and torch.errant_item.uses == 2
    lines = carried_lines(wren)
    assert [(line.name, line.quantity) for line in lines][-2:] == [("Torch", 1), ("Supply", 1)]
    assert sum(CoinEntry.objects.filter(character=wren).values_list("amount_cp", flat=True)) \
        == sum(CoinEntry.objects.filter(character=wren).exclude(
            kind=CoinEntry.Kind.REVERSAL).exclude(note__startswith="Toll").values_list(
            "amount_cp", flat=True))
    turn.refresh_from_db()
    assert turn.undone and turn.undone_by == guide


def test_undo_refuses_a_value_changed_since_and_keeps_everything(campaign, guide, wren):
    turn = turns.declare(campaign=campaign, kind="travel", by=guide, turn_of_day=1)
    turns.change_exhaustion(turn, wren, 2, "Wren: +2 Exhaustion")
    wren.exhaustion = 3
    wren.save()
    with pytest.raises(CampaignError, match="changed since this Turn"):
        turns.undo_latest(campaign=campaign, by=guide, turn_pk=turn.pk)
    turn.refresh_from_db()
    assert not turn.undone


def test_only_the_newest_turn_is_undone(campaign, guide, player, wren):
    first = turns.declare(campaign=campaign, kind="travel", by=guide, turn_of_day=1)
    turns.declare(campaign=campaign, kind="travel", by=guide, turn_of_day=2)
    with pytest.raises(CampaignError, match="Only the newest"):
        turns.undo_latest(campaign=campaign, by=guide, turn_pk=first.pk)
    with pytest.raises(CampaignError, match="Only the Guide"):
        turns.undo_latest(campaign=campaign, by=player, turn_pk=first.pk)


def test_players_do_not_see_secret_changes(campaign, guide, wren):
    turn = turns.declare(campaign=campaign, kind="travel", by=guide, turn_of_day=1,
                         secret={"navigation_dv": 12})
    turns.note(turn, "Navigation DV 12", secret=True)
    turns.note(turn, "The Company is lost", character=wren)
    company = turn.company
    assert [c.label for c in turns.log_rows(company, guide=False)[0].shown_changes] == [
        "The Company is lost"]
    assert len(turns.log_rows(company, guide=True)[0].shown_changes) == 2
    assert ErrantTurnChange.objects.count() == 2
    before = turns.log_version(company.campaign_id)
    turns.note(turn, "more")
    assert turns.log_version(company.campaign_id) != before
    before = turns.log_version(company.campaign_id)
    wren.name = "Wren the Lost"
    wren.save()  # the log names her: a poll shows the new name
    assert turns.log_version(company.campaign_id) != before
