"""The Company's services (DT §Debts, §Reputation, §Alignment) and the engine's Company
numbers."""

from fractions import Fraction

import pytest

from campaigns.services import CampaignError
from campaigns.systems.errant import company
from rules.engine.errant.company import (
    most_extreme_alignment,
    p_fame,
    reaction_modifier,
    reputation_band,
    xp_for_waste,
)

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("alignments,extreme", [
    ([], ()), (["N", "N"], ("N",)), (["N", "L1", "C2"], ("C2",)),
    (["L2", "C2", "N"], ("C2", "L2")), (["L3", "C1"], ("L3",))])
def test_most_extreme_alignment(alignments, extreme):
    assert most_extreme_alignment(alignments) == extreme


@pytest.mark.parametrize("alignments,npc,mod", [
    (["C2"], "C", 2), (["C2"], "L", -2), (["L2", "C2"], "L", -2), (["L2", "C2"], "C", -2),
    (["L1", "N"], "L", 1), (["N"], "C", 0)])
def test_reaction_modifier_takes_the_worst_on_a_tie(alignments, npc, mod):
    assert reaction_modifier(alignments, npc) == mod


@pytest.mark.parametrize("score,band", [(2, "Hated"), (3, "Disliked"), (5, "Disliked"),
                                        (6, "Neutral"), (8, "Neutral"), (9, "Accepted"),
                                        (10, "Liked"), (11, "Respected"), (12, "Loved")])
def test_reputation_bands(score, band):
    assert reputation_band(score)[0] == band


def test_fame_odds_and_waste_rates():
    assert [p_fame(r) for r in (1, 5, 9)] == [Fraction(1, 10), Fraction(1, 2), Fraction(9, 10)]
    assert xp_for_waste(2_500, "setback", 2) == 1_250
    assert xp_for_waste(7, "funeral") == 7
    with pytest.raises(ValueError):
        xp_for_waste(1, "nonsense")


def test_debt_owed_doubled_repaid_undone(campaign, guide):
    co = company.company_of(campaign)
    owed = company.debt_change(campaign=campaign, kind="owed", amount=300, by=guide)
    company.debt_change(campaign=campaign, kind="doubled", by=guide)
    assert company.debt(co) == 600
    with pytest.raises(CampaignError) as error:
        company.debt_change(campaign=campaign, kind="repaid", amount=601, by=guide)
    assert error.value.field == "amount"
    repaid = company.debt_change(campaign=campaign, kind="repaid", amount=600, by=guide)
    with pytest.raises(CampaignError) as error:
        company.debt_change(campaign=campaign, kind="doubled", by=guide)
    assert error.value.code == "no_debt"
    with pytest.raises(CampaignError) as error:
        company.debt_undo(campaign=campaign, entry_pk=owed.pk, by=guide)
    assert error.value.code == "negative_debt"
    company.debt_undo(campaign=campaign, entry_pk=repaid.pk, by=guide)
    assert company.debt(co) == 600
    with pytest.raises(CampaignError) as error:
        company.debt_undo(campaign=campaign, entry_pk=repaid.pk, by=guide)
    assert error.value.code == "already_undone"


def test_a_player_changes_nothing(campaign, player):
    with pytest.raises(CampaignError):
        company.debt_change(campaign=campaign, kind="owed", amount=1, by=player)
    with pytest.raises(CampaignError):
        company.faction_add(campaign=campaign, name="X", by=player)


def test_reputation_within_two_to_twelve(campaign, guide):
    faction = company.faction_add(campaign=campaign, name="The Lantern Guild", score=11,
                                  by=guide)
    with pytest.raises(CampaignError) as error:
        company.faction_add(campaign=campaign, name="the lantern guild", by=guide)
    assert error.value.code == "faction_exists"
    with pytest.raises(CampaignError) as error:
        company.reputation_change(campaign=campaign, faction_pk=faction.pk, change=2, by=guide)
    assert error.value.code == "out_of_range"
    entry = company.reputation_change(campaign=campaign, faction_pk=faction.pk, change=-3,
                                      by=guide)
    assert company.reputation(faction) == 8
    company.reputation_undo(campaign=campaign, entry_pk=entry.pk, by=guide)
    assert company.reputation(faction) == 11
    first = faction.entries.order_by("pk").first()
    with pytest.raises(CampaignError) as error:
        company.reputation_undo(campaign=campaign, entry_pk=first.pk, by=guide)
    assert error.value.code == "first_entry"


def test_roles_and_marching_order(campaign, guide, wren, ash):
    company.roles_set(campaign=campaign, roles={"caller": wren.pk, "mapper": None}, by=guide)
    assert company.company_of(campaign).caller_id == wren.pk
    with pytest.raises(CampaignError) as error:
        company.roles_set(campaign=campaign, roles={"timekeeper": 999_999}, by=guide)
    assert error.value.field == "timekeeper"
    assert company.march_move(campaign=campaign, character_pk=ash.pk, direction="up",
                              by=guide) == [ash.pk, wren.pk]
    view = company.company_view(campaign)
    assert [e.pk for e in view["marching"]] == [ash.pk, wren.pk]
    assert view["extreme"] == ("N",)
