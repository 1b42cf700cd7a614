import pytest

from campaigns import services
from characters.systems.errant.apps import KEY
from tests.characters.systems.errant.helpers import make_wren
from tests.factories import CampaignFactory, MembershipFactory


@pytest.fixture
def campaign(db):
    return CampaignFactory(system=KEY)


@pytest.fixture
def guide(campaign):
    return campaign.owner


@pytest.fixture
def player(campaign):
    return MembershipFactory(campaign=campaign).user


@pytest.fixture
def other(campaign):
    return MembershipFactory(campaign=campaign).user


@pytest.fixture
def wren(campaign, player):
    wren = make_wren(player)
    services.character_join(campaign=campaign, character=wren, by=player)
    return wren


@pytest.fixture
def ash(campaign, other):
    ash = make_wren(other, name="Ash", ancestry="cunning")
    services.character_join(campaign=campaign, character=ash, by=other)
    return ash


@pytest.fixture
def session(campaign, guide):
    return services.session_start(campaign=campaign, by=guide)
