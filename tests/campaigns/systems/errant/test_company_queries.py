"""The Company page reads in a fixed number of queries whatever the party (2 or 8
Errants, an adjutant pair among them) and its history (debt entries, Factions and their
reputation changes), and what it shows stays what the ledgers and the sheets say."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns import services
from campaigns.systems.errant import advancement, company, roster
from characters.systems.errant.builds import alignment_for, sheet_for
from characters.systems.errant.models import ErrantCharacter
from tests.characters.systems.errant.helpers import make_wren
from tests.factories import MembershipFactory

pytestmark = pytest.mark.django_db

# Query count of the Company page for the Guide: the session, the user, the membership,
# the Company, the Errants (with their XP), the debt and its latest entries, the Factions
# (with their reputations) and their latest changes (none without a Faction), the
# adjutant links, the latest session.
COMPANY_QUERIES = 11


def page_queries(client, campaign) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("campaigns:errant_company", args=[campaign.pk]))
    assert response.status_code == 200
    return len(queries), response.content.decode()


def seat(campaign, count: int, **build) -> list:
    errants = []
    for n in range(count):
        player = MembershipFactory(campaign=campaign).user
        errant = make_wren(player, name=f"Member {n}", **build)
        services.character_join(campaign=campaign, character=errant, by=player)
        errants.append(ErrantCharacter.objects.get(pk=errant.pk))
    return errants


def history(campaign, guide, *, debts: int, factions: int, changes: int, name="Faction"
            ) -> None:
    for n in range(debts):
        company.debt_change(campaign=campaign, kind="owed", amount=10 + n, by=guide,
                            note=f"Loan {n}")
    for n in range(factions):
        faction = company.faction_add(campaign=campaign, name=f"{name} {n}", by=guide)
        for k in range(changes):
            company.reputation_change(campaign=campaign, faction_pk=faction.pk,
                                      change=1 if k % 2 == 0 else -1, by=guide)


def test_the_company_page_is_flat_in_party_size_and_history(client, campaign, guide,
                                                             player, wren):
    squire = make_wren(player, name="Squire")
    services.character_join(campaign=campaign, character=squire, by=player)
    advancement.waste_grant(campaign=campaign, characters=[wren], source="waste",
                            pennies=2_000, by=guide)
    roster.adjutant_attach(campaign=campaign, master=wren, adjutant=squire, by=player)
    history(campaign, guide, debts=1, factions=1, changes=0)
    client.force_login(guide)
    two, html = page_queries(client, campaign)
    assert "¾ to Wren" in html
    assert two == COMPANY_QUERIES

    seat(campaign, 6)
    history(campaign, guide, debts=40, factions=4, changes=12, name="Guild")
    eight, html = page_queries(client, campaign)
    assert html.count("data-member=") == 8 and html.count("data-faction=") == 5
    assert "¾ to Wren" in html
    assert eight == COMPANY_QUERIES


def test_the_players_page_costs_the_same(client, campaign, guide, player, wren):
    history(campaign, guide, debts=1, factions=1, changes=0)
    client.force_login(player)
    two, _ = page_queries(client, campaign)
    seat(campaign, 6)
    history(campaign, guide, debts=5, factions=3, changes=8, name="Guild")
    eight, _ = page_queries(client, campaign)
    assert two == eight <= COMPANY_QUERIES


def test_the_reputations_are_their_ledgers_sums_and_the_latest_changes(campaign, guide,
                                                                      wren):
    history(campaign, guide, debts=0, factions=3, changes=7)
    rows = company.company_view(campaign)["factions"]
    assert [row.faction.name for row in rows] == ["Faction 0", "Faction 1", "Faction 2"]
    for row in rows:
        assert row.score == company.reputation(row.faction)
        latest = list(row.faction.entries.order_by("-pk")[:company.RECENT_REPUTATION])
        assert row.entries == latest


@pytest.mark.parametrize("build", [
    {}, {"alignment": "C2"}, {"archetype": "zealot", "covenant_alignment": "L"},
    {"archetype": "zealot", "covenant_alignment": "C", "alignment": "N"}])
def test_the_alignment_shown_is_the_sheets(campaign, build):
    errant = seat(campaign, 1, **build)[0]
    assert alignment_for(errant) == sheet_for(errant).stats["alignment"].value
    view = company.company_view(campaign)
    assert view["alignments"] == [(errant, sheet_for(errant).stats["alignment"].value)]
