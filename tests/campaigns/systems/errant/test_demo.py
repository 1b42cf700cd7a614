"""The demo Errant campaign (manage.py seed_demo through GameSystem.demo)."""

import pytest

from campaigns.models import Campaign
from campaigns.systems.errant import company, demo
from characters.systems.errant.models import ErrantCharacter

pytestmark = pytest.mark.django_db


def test_the_demo_seeds_the_company_once():
    answer = demo.seed()
    assert {u[0] for u in answer["users"]} >= {"imp", "player1", "player2"}
    campaign = Campaign.objects.get(request_key=demo.REQUEST_KEY)
    assert campaign.owner.username == "imp"
    names = {e.name: e for e in ErrantCharacter.objects.filter(campaign=campaign)}
    assert set(names) == {"Ash", "Wren"}
    assert names["Ash"].owner.username == "player1"
    view = company.company_view(campaign)
    assert view["debt"] == demo.DEBT and view["factions"][0].score == demo.FACTION[1]
    assert campaign.sessions.count() == 1
    assert names["Ash"].xp == demo.ASH_CAROUSING
    demo.seed()
    assert Campaign.objects.filter(request_key=demo.REQUEST_KEY).count() == 1
    assert ErrantCharacter.objects.filter(name="Ash").count() == 1



def test_the_demo_has_a_downtime_turn_under_way_once():
    from campaigns.systems.errant import downtime

    demo.seed()
    campaign = Campaign.objects.get(request_key=demo.REQUEST_KEY)
    co = company.company_of(campaign)
    turn = downtime.open_turn(co)
    assert downtime.next_step(turn) == "debt"
    assert company.debt(co) == demo.DEBT and turn.event_face is not None
    assert turn.state["scourges"][0]["name"] == "The Drowned Abbot"
    demo.seed()
    assert co.turns.filter(kind="downtime").count() == 1
