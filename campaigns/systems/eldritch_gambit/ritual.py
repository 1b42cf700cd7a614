"""Eldritch Gambit's ritual hook (GameSystem.ritual, whose protocol rules/systems.py
documents): after a session's Highlights each present character invests one XP in its
Quest, then "Level Up?" buys the Levels the XP pays for (quests.py); a new campaign's
first session refills WP. The system's registration names RITUAL by its dotted path."""

from __future__ import annotations

import uuid

from django.db.models import FilteredRelation, Prefetch, Q, Sum
from django.template.defaultfilters import pluralize
from django.utils import timezone

from campaigns.services import CampaignError, progress, ritual_holding
from characters.models import XpEntry
from characters.systems.eldritch_gambit.models import EldritchGambitCharacter
from rules.engine.eldritch_gambit.levels import levels_affordable

from . import quests
from .models import Quest, QuestInvestment


def active_quests(campaign_id: int) -> dict[int, Quest]:
    """Each character's active Quest, with invested_sum (the investments' XP, <= 0)."""
    return {
        quest.character_id: quest
        for quest in Quest.objects.filter(character__campaign_id=campaign_id,
                                          status=Quest.Status.ACTIVE)
        .annotate(invested_sum=Sum("investments__xp_entry__xp_change"))
    }


def session_level_ups(session, character_pks: list[int]) -> dict[int, list[XpEntry]]:
    """The Level-ups (still standing) bought during the session, by character: from its
    start to the next session's start."""
    entries = XpEntry.objects.filter(character_id__in=character_pks,
                                     kind=XpEntry.Kind.LEVEL_SPEND,
                                     reversed_by__isnull=True,
                                     created_at__gte=session.created_at)
    following = (type(session).objects.filter(campaign_id=session.campaign_id,
                                              number__gt=session.number)
                 .order_by("number").values_list("created_at", flat=True).first())
    if following is not None:
        entries = entries.filter(created_at__lt=following)
    levelled: dict[int, list[XpEntry]] = {}
    for entry in entries:
        levelled.setdefault(entry.character_id, []).append(entry)
    return levelled


def level_waits(character) -> str:
    """" The Level-up waits for ..." when an open ritual holds Levels the XP pays for."""
    holding = ritual_holding(character)
    if holding is None or not levels_affordable(*progress(character)):
        return ""
    return (f" The Level-up waits for the end of session {holding.number}'s ritual (after "
            "the Highlights and the Quest XP).")


class EldritchGambitRitual:
    highlights = True
    # Three rounds as a rule, two for a short session, four for a long one.
    highlight_rounds = ((2, "2 rounds"), (3, "3 rounds"), (4, "4 rounds"))
    default_highlight_rounds = 3
    highlight_rounds_help = "Three as a rule; two for short sessions, four for long ones."
    labels = {"character_link": "Quests and XP", "history": "Highlights, Quests, XP",
              "ledger_sources": "Highlights, Quest XP, the Imp's adjustments"}
    templates = {
        "session": "campaigns/eldritch_gambit/session_ritual.html",
        "member": "campaigns/eldritch_gambit/invest.html",
        "party": "campaigns/eldritch_gambit/party_quest.html",
        "party_columns": "campaigns/eldritch_gambit/party_columns.html",
        "progress": "campaigns/eldritch_gambit/character_progress.html",
        "character": "campaigns/eldritch_gambit/character_quest.html",
    }

    # -- the steps after the Highlights: one Quest investment -----------------------------

    def steps_done(self, session, character) -> bool:
        return QuestInvestment.objects.filter(session=session, character=character).exists()

    took_part = steps_done

    def participants(self, session) -> Q:
        return Q(quest_investments__session=session)

    def history(self, campaign) -> Q:
        return Q(pk__in=Quest.objects.filter(campaign=campaign).values("character_id"))

    # -- what the XP buys: Levels ---------------------------------------------------------

    def settle(self, character, by) -> list[XpEntry]:
        return quests.level_ups(character=character, by=by)

    def waiting_note(self, character) -> str:
        if levels_affordable(*progress(character)):
            return " The Level-up comes after the Highlights and the Quest XP."
        return ""

    def held_note(self, character) -> str:
        return level_waits(character)

    def close_message(self, session, bought) -> str:
        if not bought:
            return f"Session {session.number}'s ritual is closed: no one levels up."
        ups = "; ".join(
            f"{character.display_name} +{len(spends)} Level{pluralize(len(spends))}, "
            f"now Level {1 - spends[-1].xp_change}"
            for character, spends in bought.items())
        return f"Session {session.number}'s ritual is closed. Level up: {ups}."

    def session_started(self, session) -> None:
        if session.number == 1:
            # "Starting a new campaign refills it entirely": None is "full"
            # (EldritchGambitCharacter.wp_current).
            EldritchGambitCharacter.objects.filter(campaign_id=session.campaign_id).update(
                wp_current=None, updated_at=timezone.now())

    # -- undoing an entry -----------------------------------------------------------------

    def entry_session_id(self, entry_pk: int) -> int | None:
        return QuestInvestment.objects.filter(xp_entry_id=entry_pk).values_list(
            "session_id", flat=True).first()

    def check_undo(self, entry, character, highlight) -> None:
        if highlight is not None and QuestInvestment.objects.filter(
                session_id=highlight.session_id, character=character,
                xp_entry__reversed_by__isnull=True).exists():
            raise CampaignError(
                f"{character.display_name} already invested in the Quest after these "
                "Highlights: undo the investment first, then the Highlight.", "invested_after",
            )

    def undo(self, entry, character) -> None:
        """An undone investment frees the session's investment; an undone payout makes
        the Quest active again."""
        investment = (QuestInvestment.objects.filter(xp_entry=entry)
                      .select_related("quest").first())
        if investment is not None and investment.quest.status != Quest.Status.ACTIVE:
            raise CampaignError("That Quest has ended: undo its payout first.", "quest_ended")
        paid = Quest.objects.filter(payout_entry=entry).first()
        if paid is not None:
            if quests.active_quest(character) is not None:
                raise CampaignError(
                    f"{character.display_name} has a new Quest: the achieved one cannot "
                    "become active again.", "quest_replaced",
                )
            paid.status = Quest.Status.ACTIVE
            paid.ended_at = None
            paid.ended_in = None
            paid.payout_entry = None
            paid.save(update_fields=["status", "ended_at", "ended_in", "payout_entry"])
        if investment is not None:
            investment.delete()

    # -- what the pages show --------------------------------------------------------------

    def session_context(self, session, rows, *, user, runs) -> dict:
        """Each ritual row's Quest step and Level-ups ("Level Up?"), and the Quests
        achieved in the session. A fixed number of queries, whatever the party."""
        investments = {i.character_id: i for i in session.investments.select_related(
            "quest", "xp_entry__reversed_by")}
        active = active_quests(session.campaign_id)
        levelled = session_level_ups(session, [row.character.pk for row in rows])
        for row in rows:
            character = row.character
            quest = active.get(character.pk)
            spends = levelled.get(character.pk, [])
            row.extra.update(
                took_part=character.pk in investments,
                investment=investments.get(character.pk),
                quest=quest,
                invested=-(quest.invested_sum or 0) if quest else 0,
                can_invest=runs or character.owner_id == user.pk,
                levels_up=len(spends),
                new_level=max((1 - spend.xp_change for spend in spends), default=None),
                levels_waiting=levels_affordable(character.level_total, character.xp_total),
            )
        achieved = list(Quest.objects.filter(ended_in=session, status=Quest.Status.ACHIEVED)
                        .select_related("character", "payout_entry__reversed_by"))
        return {"achieved": achieved}

    def party_context(self, campaign, characters=None) -> dict:
        """Each character's Quest (the active one, else the one written on it) and the XP
        invested in it, for the party's rows (`characters`: the party, read already)."""
        active = active_quests(campaign.pk)
        party = {}
        written = ([(c.pk, c.quest) for c in characters] if characters is not None else
                   EldritchGambitCharacter.objects.filter(campaign=campaign)
                   .values_list("pk", "quest"))
        for pk, text in written:
            quest = active.get(pk)
            party[pk] = {"quest": quest.text if quest else text,
                         "invested": -(quest.invested_sum or 0) if quest else 0}
        return party

    def party_version_columns(self, character: str) -> tuple[dict, list[str]]:
        """Each character's active Quest (at most one: quest_one_active_per_character),
        every column, for the party dashboard's one version query
        (campaigns.polling.party_version); `character` is the path to the character
        from the query's root. Its invested XP moves with the XP ledger, which that
        query follows."""
        quests = f"{character}__quests"
        active = FilteredRelation(quests, condition=Q(**{f"{quests}__status":
                                                        Quest.Status.ACTIVE}))
        return ({"active_quest": active},
                [f"active_quest__{field.attname}" for field in Quest._meta.concrete_fields])

    def member_context(self, session, characters: list) -> dict:
        """What each of its player's characters may do in the latest session: invest one
        XP in its Quest once its Highlights are told. One query."""
        invested = set(session.investments.filter(
            character_id__in=[c.pk for c in characters]).values_list("character_id",
                                                                      flat=True))
        return {c.pk: {"invested_now": c.pk in invested, "key": uuid.uuid4().hex}
                for c in characters}

    def character_context(self, character, membership, *, quest_form=None) -> dict:
        """The campaign character page's Quest card: its active Quest and its history."""
        from .quest_forms import QuestChangeForm

        history = list(
            character.quests.select_related("campaign", "started_in", "ended_in",
                                            "payout_entry")
            .annotate(invested_sum=Sum("investments__xp_entry__xp_change"))
            .prefetch_related(Prefetch(
                "investments", queryset=QuestInvestment.objects.select_related("session")))
            .order_by("-started_at", "-pk"))
        for quest in history:
            quest.invested = -(quest.invested_sum or 0)
        return {
            "active_quest": next((q for q in history if q.status == Quest.Status.ACTIVE),
                                 None),
            "quests": history,
            "quest_form": quest_form or QuestChangeForm(),
        }


RITUAL = EldritchGambitRitual()
