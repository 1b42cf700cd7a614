"""campaigns/models.py: Membership.objects, the one place a member is looked up (the
campaign pages, the stash, the printed party, the builder's campaign, the services'
role checks)."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import Http404

from campaigns.models import Membership
from tests.factories import CampaignFactory, CoImpMembershipFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def player(campaign):
    return MembershipFactory(campaign=campaign).user


def test_role_of_each_member(campaign, imp, player):
    co_imp = CoImpMembershipFactory(campaign=campaign).user

    assert Membership.objects.role_of(imp, campaign) == "imp"
    assert Membership.objects.role_of(co_imp, campaign) == "co_imp"
    assert Membership.objects.role_of(player, campaign) == "player"
    # The campaign or its id.
    assert Membership.objects.role_of(player, campaign.pk) == "player"


@pytest.mark.parametrize("who", ["stranger", "anonymous", "nobody"])
def test_role_of_a_non_member_is_none(campaign, who):
    user = {"stranger": UserFactory(), "anonymous": AnonymousUser(), "nobody": None}[who]

    assert Membership.objects.role_of(user, campaign) is None


def test_role_of_no_campaign_is_none(player, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert Membership.objects.role_of(player, None) is None


def test_a_membership_is_of_its_own_campaign_only(campaign, player):
    elsewhere = CampaignFactory()

    assert list(Membership.objects.of(player, campaign)) == [
        Membership.objects.get(campaign=campaign, user=player)]
    assert not Membership.objects.of(player, elsewhere).exists()
    assert not Membership.objects.of(AnonymousUser(), campaign).exists()


def test_of_or_404_gives_the_membership_with_its_campaign(campaign, player,
                                                          django_assert_num_queries):
    with django_assert_num_queries(1):
        membership = Membership.objects.of_or_404(player, campaign.pk)
        assert membership.campaign == campaign
        assert membership.role == "player"


@pytest.mark.parametrize("who", ["stranger", "anonymous"])
def test_of_or_404_hides_the_campaign_from_non_members(campaign, who):
    user = UserFactory() if who == "stranger" else AnonymousUser()

    with pytest.raises(Http404, match="No such campaign."):
        Membership.objects.of_or_404(user, campaign.pk)


def test_of_or_404_for_a_campaign_that_does_not_exist(player, campaign):
    with pytest.raises(Http404, match="No such campaign."):
        Membership.objects.of_or_404(player, campaign.pk + 1000)
