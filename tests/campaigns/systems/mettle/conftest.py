"""The Hazards card's tests share a METTLE Core campaign, its Guide (`gm`), a player and
the player's Viktor, seated in the campaign (a module may define its own instead)."""

import pytest

from campaigns import services
from characters.systems.mettle.apps import KEY
from characters.systems.mettle.models import MettleCharacter
from tests.characters.systems.mettle.helpers import make_viktor
from tests.factories import CampaignFactory, MembershipFactory


@pytest.fixture
def campaign(db):
    return CampaignFactory(system=KEY)


@pytest.fixture
def gm(campaign):
    return campaign.owner


@pytest.fixture
def player(campaign):
    user = MembershipFactory(campaign=campaign).user
    services.character_join(campaign=campaign, character=make_viktor(user), by=user)
    return user


@pytest.fixture
def viktor(player):
    return MettleCharacter.objects.get(owner=player)
