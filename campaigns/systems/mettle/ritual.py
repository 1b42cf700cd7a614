"""METTLE Core's ritual hook (GameSystem.ritual, whose protocol rules/systems.py
documents): the Highlights at the start of each session after the first, 1 XP per
Highlight per round, 1 to 3 rounds by the session's length (Characters > Experience,
next-games.md M15). The rounds, turns, awards, passes and undo are the generic ones
(campaigns/services.py); nothing follows the Highlights (no Quest step) and the XP buys
nothing by itself: a METTLE character spends it on Attribute raises at any time (M17),
so settle() is NoRitual's. The system's registration names RITUAL by its dotted path."""

from __future__ import annotations

from campaigns.rituals import NoRitual


class MettleRitual(NoRitual):
    highlights = True
    # The generic pages' words, in METTLE's: the Guide runs the table, and the XP ledger
    # is what a character's campaign page holds (no Quests, no Levels).
    labels = {"character_link": "XP ledger", "history": "Highlights, XP",
              "ledger_sources": "Highlights, the Guide's adjustments"}


RITUAL = MettleRitual()
