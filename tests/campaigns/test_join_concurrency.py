"""Joining under concurrency (PostgreSQL only): many clicks at once on Bring and on
Duplicate into this campaign."""

import pytest

from campaigns import services
from characters.models import Character, XpEntry
from tests.concurrency import needs_postgresql, run_at_once
from tests.factories import CampaignFactory, CharacterFactory, MembershipFactory

pytestmark = [pytest.mark.django_db(transaction=True), needs_postgresql]


def test_ten_duplicate_clicks_with_one_key_make_one_copy():
    campaign = CampaignFactory(name="The Drowned Crown")
    player = MembershipFactory(campaign=campaign).user
    asphodel = CharacterFactory(owner=player, name="Asphodel", campaign=CampaignFactory())
    results = run_at_once(10, lambda i: services.character_duplicate_join(
        campaign=campaign, character=asphodel, by=player, request_key="one-click"))
    copies = Character.objects.filter(campaign=campaign)
    assert copies.count() == 1
    # The losers of the race were refused, and wrote nothing; the rest got the copy.
    assert all(r.pk == copies.get().pk for r in results if isinstance(r, Character))
    assert all(r.code == "request_key_reused" for r in results
               if isinstance(r, services.CampaignError))
    assert Character.objects.filter(owner=player).count() == 2


def test_ten_bring_clicks_join_once():
    campaign = CampaignFactory()
    player = MembershipFactory(campaign=campaign).user
    bram = CharacterFactory(owner=player, name="Bram")
    results = run_at_once(10, lambda i: services.character_join(
        campaign=campaign, character=bram, by=player))
    assert [r for r in results if isinstance(r, Exception)] == []
    assert XpEntry.objects.filter(character=bram, kind="joined").count() == 1
