"""Who reaches the encounter tracker: the members of a campaign of these rules. Its paths
are served for every campaign (campaigns.systems), so a campaign of another system
answers 404, as if the page did not exist."""

from __future__ import annotations

from django.http import Http404

from campaigns.models import Membership
from characters.systems.encounters.apps import KEY


def membership_or_404(user, pk: int) -> Membership:
    membership = Membership.objects.of_or_404(user, pk)
    if membership.campaign.system != KEY:
        raise Http404("No such page for this campaign's game system.")
    return membership
