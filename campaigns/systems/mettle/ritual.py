"""METTLE Core's ritual hook (GameSystem.ritual, whose protocol rules/systems.py
documents): the Highlights at the start of each session after the first, 1 XP per
Highlight per round, 1 to 3 rounds by the session's length (Characters > Experience,
next-games.md M15). The rounds, turns, awards, passes and undo are the generic ones
(campaigns/services.py). Beside the Highlights, the Guide gives a returning player the
make-up XP of the sessions they missed (M16, AMB-M10: advancement.make_up_award), undone
with the generic undo. The XP buys nothing by itself: a METTLE character spends it on
Attribute raises at any time (M17, advancement.raise_buy), so settle() is NoRitual's.
The system's registration names RITUAL by its dotted path."""

from __future__ import annotations

from django.db.models import Q

from campaigns.models import Absence
from campaigns.rituals import NoRitual
from campaigns.services import CampaignError, progress
from characters.models import XpEntry
from characters.systems.mettle.campaign_settings import make_up_xp_per_session
from characters.systems.mettle.ledgers import MakeUp
from rules.engine.mettle.advancement import HIGHLIGHT_ROUNDS, SessionLength, make_up_xp

from . import advancement


class MettleRitual(NoRitual):
    highlights = True
    # Characters > Experience (M15): one to three rounds by the session's length.
    highlight_rounds = tuple((rounds, f"{rounds} round{'s' if rounds > 1 else ''} "
                              f"({length.value} session)")
                             for length, rounds in HIGHLIGHT_ROUNDS.items())
    default_highlight_rounds = HIGHLIGHT_ROUNDS[SessionLength.MEDIUM]
    highlight_rounds_help = ("By the session's length: one round for a short session, two "
                             "for a medium one, three for a long one.")
    templates = {"session": "campaigns/mettle/session_ritual.html",
                 # The campaign's character page: XP left and the link to Spend XP.
                 "character": "campaigns/mettle/character_advancement.html"}
    # The generic pages' words, in METTLE's: the Guide runs the table, and the XP ledger
    # is what a character's campaign page holds (no Quests, no Levels).
    labels = {"character_link": "XP ledger", "history": "Highlights, XP",
              "ledger_sources": "Highlights, make-up XP, raises, the Guide's adjustments"}

    def took_part(self, session, character) -> bool:
        """Made up missed sessions in this one: then present."""
        return MakeUp.objects.filter(session=session, character_id=character.pk,
                                     undone_at__isnull=True).exists()

    def participants(self, session) -> Q:
        return Q(pk__in=MakeUp.objects.filter(session=session).values("character_id"))

    def entry_session_id(self, entry_pk: int) -> int | None:
        return (MakeUp.objects.filter(xp_entry_id=entry_pk).values_list("session_id", flat=True)
                .first())

    def check_undo(self, entry, character, highlight) -> None:
        """XP already spent on a raise comes back only with the raise: undo it first."""
        _, xp = progress(character)
        if entry.xp_change > 0 and xp - entry.xp_change < 0:
            raise CampaignError(
                f"{character.display_name} spent that XP on a raise: undo the raise first "
                "(the character's Spend XP page).", "xp_spent")

    def undo(self, entry, character) -> None:
        if entry.kind == XpEntry.Kind.MAKE_UP:
            advancement.make_up_undone(entry)

    def session_context(self, session, rows, *, user, runs) -> dict:
        """Each row's make-up XP: the sessions missed and not made up yet, and the make-up
        given in this session (with its entry, for the undo). Three queries, whatever the
        party."""
        per = make_up_xp_per_session(session.campaign)
        pks = [row.character.pk for row in rows]
        given = {}
        for make_up in MakeUp.objects.filter(session=session, character_id__in=pks,
                                             undone_at__isnull=True).select_related(
                "xp_entry__reversed_by"):
            given.setdefault(make_up.character_id, make_up.xp_entry)
        missed: dict[int, list[int]] = {}
        standing = MakeUp.objects.filter(character_id__in=pks, undone_at__isnull=True)
        for character_id, number in (Absence.objects.filter(
                character_id__in=pks, session__campaign_id=session.campaign_id,
                session__number__lt=session.number)
                .exclude(pk__in=standing.values("absence_id"))
                .order_by("session__number").values_list("character_id", "session__number")):
            missed.setdefault(character_id, []).append(number)
        for row in rows:
            sessions = missed.get(row.character.pk, [])
            row.extra.update(
                took_part=row.character.pk in given,
                make_up_entry=given.get(row.character.pk),
                missed=sessions,
                make_up_xp=make_up_xp(len(sessions), per),
            )
        return {"make_up_per_session": per}


RITUAL = MettleRitual()
