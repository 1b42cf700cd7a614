"""Who reaches METTLE Core's campaign pages: the members of a METTLE campaign. Its paths
are served for every campaign (campaigns.systems), so a campaign of another system answers
404, as if the page did not exist."""

from __future__ import annotations

from django.http import Http404

from campaigns.models import Membership

METTLE_CORE = "mettle-core"  # the system's registry key (characters/systems/mettle/apps.py)


def membership_or_404(user, pk: int) -> Membership:
    """The user's membership of METTLE campaign `pk` (no extra query)."""
    membership = Membership.objects.of_or_404(user, pk)
    if membership.campaign.system != METTLE_CORE:
        raise Http404("No such page for this campaign's game system.")
    return membership
