"""Who reaches Eldritch Gambit's campaign pages: the members of an Eldritch Gambit
campaign. Their paths are served for every campaign (campaigns.systems), so a campaign of
another system answers 404, as if the page did not exist."""

from __future__ import annotations

from django.http import Http404

from campaigns.models import Membership
from rules.systems import ELDRITCH_GAMBIT


def membership_or_404(user, pk: int) -> Membership:
    """The user's membership of Eldritch Gambit campaign `pk` (no extra query)."""
    membership = Membership.objects.of_or_404(user, pk)
    if membership.campaign.system != ELDRITCH_GAMBIT:
        raise Http404("No such page for this campaign's game system.")
    return membership
