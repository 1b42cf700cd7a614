"""The ritual hook of a game system (GameSystem.ritual, rules/systems.py documents its
protocol): the generic campaign code asks `of(system_key)` what comes after a session's
Highlights and what the XP buys, and never names a system.

A system without one gets NO_RITUAL: its sessions have no Highlights and its XP buys
nothing by itself (a system whose players spend XP any time does so on its own pages).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.utils.module_loading import import_string

from rules import systems


class NoRitual:
    """The ritual of a system that has none."""

    highlights = False
    templates: dict[str, str] = {}
    # With Highlights: the rounds a session may have (with their labels, for the forms),
    # the campaign's default and the words that explain them (Eldritch Gambit's own: 2 to
    # 4, three as a rule). The database holds any of 1 to 4 (campaigns.models).
    highlight_rounds = ((2, "2 rounds"), (3, "3 rounds"), (4, "4 rounds"))
    default_highlight_rounds = 3
    highlight_rounds_help = "Three as a rule; two for short sessions, four for long ones."
    # The generic pages' words: the link to a character's campaign page, what a
    # character's campaign history holds, and what moves its XP ledger.
    labels = {"character_link": "XP ledger", "history": "XP",
              "ledger_sources": "the Imp's adjustments"}

    def steps_done(self, session, character) -> bool:
        return True

    def took_part(self, session, character) -> bool:
        return False

    def participants(self, session) -> Q:
        return Q(pk__in=[])

    def history(self, campaign) -> Q:
        return Q(pk__in=[])

    def settle(self, character, by) -> list:
        return []

    def waiting_note(self, character) -> str:
        return ""

    def held_note(self, character) -> str:
        return ""

    def close_message(self, session, bought) -> str:
        return f"Session {session.number}'s ritual is closed."

    def session_started(self, session) -> None:
        return None

    def entry_session_id(self, entry_pk: int) -> int | None:
        return None

    def check_undo(self, entry, character, highlight) -> None:
        return None

    def undo(self, entry, character) -> None:
        return None

    def session_context(self, session, rows, *, user, runs) -> dict:
        return {}

    def party_context(self, campaign, characters=None) -> dict:
        return {}

    def party_version_columns(self, character: str) -> tuple[dict, list[str]]:
        return {}, []

    def member_context(self, session, characters) -> dict:
        return {}

    def character_context(self, character, membership, **forms) -> dict:
        return {}


NO_RITUAL = NoRitual()
_resolved: dict[str, Any] = {}


def of(system_key: str) -> Any:
    """The ritual of the game system `system_key` (a key stored on a campaign or a
    character): its hook, imported once if it is named by a dotted path."""
    system = systems.get(system_key)
    hook = system.ritual
    if hook is None:
        return NO_RITUAL
    if not isinstance(hook, str):
        return hook
    if hook not in _resolved:
        _resolved[hook] = import_string(hook)
    return _resolved[hook]


def highlight_rounds(system_key: str) -> tuple[tuple[int, str], ...]:
    """The Highlight rounds a session of the system may have, with their labels."""
    return tuple(getattr(of(system_key), "highlight_rounds", NO_RITUAL.highlight_rounds))


def default_highlight_rounds(system_key: str) -> int:
    return getattr(of(system_key), "default_highlight_rounds",
                   NO_RITUAL.default_highlight_rounds)


def labels(system_key: str) -> dict[str, str]:
    """The words the generic pages use for the system's ritual (the link to a character's
    campaign page: "Quests and XP" in Eldritch Gambit), the defaults filled in."""
    return {**NO_RITUAL.labels, **getattr(of(system_key), "labels", {})}

