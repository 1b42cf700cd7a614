"""Who reaches Errant's campaign pages: the members of an Errant campaign. Their paths
are served for every campaign (campaigns.systems), so a campaign of another system answers
404, as if the page did not exist."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404

from campaigns.models import IMP_ROLES, Membership
from characters.systems.errant.apps import KEY
from characters.systems.errant.models import ErrantCharacter


def membership_or_404(user, pk: int) -> Membership:
    """The user's membership of Errant campaign `pk` (no extra query)."""
    membership = Membership.objects.of_or_404(user, pk)
    if membership.campaign.system != KEY:
        raise Http404("No such page for this campaign's game system.")
    return membership


def errant_or_404(membership: Membership, character_pk: int) -> ErrantCharacter:
    """An Errant of the campaign, for its player and the Guides; another player's: 404."""
    errant = get_object_or_404(ErrantCharacter.objects.select_related("owner", "campaign"),
                               pk=character_pk, campaign_id=membership.campaign_id)
    if membership.role not in IMP_ROLES and errant.owner_id != membership.user_id:
        raise Http404("No such Errant.")
    return errant
