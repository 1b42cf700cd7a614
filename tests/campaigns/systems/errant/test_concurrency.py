"""Errant advancement under concurrency (PostgreSQL only): many clicks at once record one
Renown pick, one grant per request, and never repay more debt than is owed."""

import pytest

from campaigns import services
from campaigns.systems.errant import advancement, company
from campaigns.systems.errant.advancement_models import ErrantRenownPick
from characters.models import XpEntry
from characters.systems.errant.apps import KEY
from characters.systems.errant.models import ErrantCharacter
from tests.characters.systems.errant.helpers import make_wren
from tests.concurrency import needs_postgresql, run_at_once
from tests.factories import CampaignFactory, MembershipFactory

pytestmark = [pytest.mark.django_db(transaction=True), needs_postgresql]


@pytest.fixture
def table():
    campaign = CampaignFactory(system=KEY)
    player = MembershipFactory(campaign=campaign).user
    wren = make_wren(player)
    services.character_join(campaign=campaign, character=wren, by=player)
    return campaign, campaign.owner, player, wren


def test_ten_grants_of_one_request_are_recorded_once(table):
    campaign, guide, _, wren = table
    results = run_at_once(10, lambda i: advancement.waste_grant(
        campaign=campaign, characters=[wren], source="waste", pennies=2_000, by=guide,
        request_key="same"))
    assert [r for r in results if isinstance(r, Exception)] == []
    assert XpEntry.objects.filter(character=wren, kind="waste").count() == 1
    assert services.progress(wren)[1] == 2_000


def test_ten_picks_at_once_record_one_raise(table):
    campaign, guide, player, wren = table
    advancement.waste_grant(campaign=campaign, characters=[wren], source="waste",
                            pennies=2_000, by=guide)
    run_at_once(10, lambda i: advancement.renown_pick(
        character=wren, attribute=("phys", "skill", "mind", "pres")[i % 4], by=guide,
        by_company=True))
    assert ErrantRenownPick.objects.filter(character=wren, undone_at__isnull=True).count() == 1
    company_attribute = ErrantRenownPick.objects.get(character=wren).attribute
    other = next(a for a in ("phys", "skill", "mind", "pres") if a != company_attribute)
    results = run_at_once(10, lambda i: advancement.renown_pick(
        character=wren, attribute=other, by=player, by_company=False))
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert ErrantCharacter.objects.get(pk=wren.pk).renown_raises == [[company_attribute,
                                                                      other]]


def test_ten_repayments_repay_only_what_is_owed(table):
    campaign, guide, _, _ = table
    company.debt_change(campaign=campaign, kind="owed", amount=300, by=guide)
    results = run_at_once(10, lambda i: company.debt_change(
        campaign=campaign, kind="repaid", amount=100, by=guide))
    assert sum(not isinstance(r, Exception) for r in results) == 3
    assert company.debt(company.company_of(campaign)) == 0
