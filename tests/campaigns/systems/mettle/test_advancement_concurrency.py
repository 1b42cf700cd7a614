"""METTLE advancement under concurrency (PostgreSQL only): many clicks at once spend no
more XP and no more Vouchers than the character has, and one request is recorded once."""

import pytest

from campaigns import services
from campaigns.services import CampaignError
from campaigns.systems.mettle import advancement
from characters.models import XpEntry
from characters.systems.mettle.apps import KEY
from characters.systems.mettle.ledgers import AttributeRaise
from characters.systems.mettle.models import MettleCharacter
from tests.characters.systems.mettle.helpers import make_viktor
from tests.concurrency import needs_postgresql, run_at_once
from tests.factories import CampaignFactory, MembershipFactory

pytestmark = [pytest.mark.django_db(transaction=True), needs_postgresql]


@pytest.fixture
def viktor():
    campaign = CampaignFactory(system=KEY)
    player = MembershipFactory(campaign=campaign).user
    viktor = make_viktor(player)
    services.character_join(campaign=campaign, character=viktor, by=player)
    services.xp_adjust(character=viktor, xp_change=12, note="Start", by=campaign.owner)
    return MettleCharacter.objects.select_related("campaign").get(pk=viktor.pk)


def test_ten_raises_at_once_spend_only_the_xp_there_is(viktor):
    # 12 XP: MOTIVE 4 -> 5 costs 5, then MOTIVE 5 (tied highest) -> 6 costs 10: one only.
    results = run_at_once(10, lambda i: advancement.raise_buy(
        character=viktor, attribute="motive", by=viktor.owner, request_key=f"r{i}"))
    bought = [r for r in results if isinstance(r, AttributeRaise)]
    refused = [r for r in results if isinstance(r, CampaignError)]
    assert len(bought) == 1 and len(refused) == 9
    assert {r.code for r in refused} == {"not_enough_xp"}
    assert MettleCharacter.objects.get(pk=viktor.pk).raises == ["motive"]
    assert services.progress(viktor)[1] == 7


def test_the_same_raise_from_ten_threads_is_bought_once(viktor):
    results = run_at_once(10, lambda i: advancement.raise_buy(
        character=viktor, attribute="poise", by=viktor.owner, request_key="same"))
    assert [r for r in results if isinstance(r, Exception)] == []
    assert len({r.pk for r in results}) == 1
    assert XpEntry.objects.filter(kind=XpEntry.Kind.ATTRIBUTE_RAISE).count() == 1


def test_ten_spends_of_three_vouchers_spend_three(viktor):
    guide = viktor.campaign.owner
    for _ in range(3):
        advancement.voucher_grant(character=viktor, by=guide)
    results = run_at_once(10, lambda i: advancement.voucher_spend(
        character=viktor, by=viktor.owner, note=f"Deed {i}"))
    assert sum(not isinstance(r, Exception) for r in results) == 3
    assert advancement.vouchers(viktor) == 0


def test_ten_undos_of_the_latest_raise_refund_once(viktor):
    bought = advancement.raise_buy(character=viktor, attribute="motive", by=viktor.owner)
    results = run_at_once(10, lambda i: advancement.raise_undo(
        character=viktor, raise_pk=bought.pk, by=viktor.owner))
    assert [r for r in results if isinstance(r, Exception)] == []
    assert services.progress(viktor)[1] == 12
    assert XpEntry.objects.filter(kind=XpEntry.Kind.REVERSAL).count() == 1
