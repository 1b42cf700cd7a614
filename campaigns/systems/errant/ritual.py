"""Errant's ritual hook (GameSystem.ritual, whose protocol rules/systems.py documents).
Errant has no Highlights: XP comes from money wasted (ER §Renown), recorded by the Guide
on the Company page (advancement.waste_grant) into the generic XP ledger and undone with
the generic undo. The hooks here refuse an undo that a chosen Renown raise stands on, and
pay back what came with the XP (the purse's coins, the Company's debt). The campaign's
character page shows the Renown raises, the Fame roll and the Ancestry ability."""

from __future__ import annotations

from django.db.models import Q

from campaigns.rituals import NoRitual

from . import advancement
from .advancement_models import ErrantWaste


class ErrantRitual(NoRitual):
    templates = {"character": "campaigns/errant/character_advancement.html"}
    labels = {"character_link": "XP and Renown", "history": "XP",
              "ledger_sources": "money wasted (recorded by the Guide), the Guide's adjustments"}

    def history(self, campaign) -> Q:
        """Errants who left keep their page: money wasted in this campaign."""
        return Q(pk__in=ErrantWaste.objects.filter(campaign=campaign).values(
            "xp_entry__character_id"))

    def check_undo(self, entry, character, highlight) -> None:
        advancement.check_xp_undo(entry, character)

    def undo(self, entry, character) -> None:
        # The hook is not told who undoes: the reversals name the XP entry instead.
        advancement.waste_undone(entry, None)

    def character_context(self, character, membership, **forms) -> dict:
        from .advancement_views import character_context

        return character_context(character, membership, **forms)


RITUAL = ErrantRitual()
