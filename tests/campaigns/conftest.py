import pytest

from tests.factories import CampaignFactory, CharacterFactory, MembershipFactory, UserFactory


@pytest.fixture
def imp(db):
    return UserFactory()


@pytest.fixture
def campaign(imp):
    return CampaignFactory(owner=imp)


@pytest.fixture
def seat(campaign):
    """seat(name=..., level=..., xp=...): a new player joins the campaign with a
    character of that Level and XP."""

    def make(*, name: str = "", level: int = 10, xp: int = 0,
             quest: str = "Win the ostrich wing-eating competition", **fields):
        player = MembershipFactory(campaign=campaign).user
        extra = {"name": name} if name else {}
        return CharacterFactory(owner=player, campaign=campaign, quest=quest,
                                progress__level=level, progress__xp=xp, **extra, **fields)

    return make
