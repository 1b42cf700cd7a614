"""Eldritch Gambit's Quests and Level-ups (Characters > Advancement): the steps after a
session's Highlights and what the XP buys. The XP diagram runs Highlights XP, then Quest
Invest, then "Level Up?"; the Highlights, the ledger and the ritual's order are generic
(campaigns/services.py), which calls this package through its ritual (ritual.py).

Every write is keyword-only, one transaction, and locks as the generic services do: the
session first, then the character. A refusal raises campaigns.services.CampaignError.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from campaigns.models import Session
from campaigns.services import (
    CampaignError,
    Kind,
    check_text,
    is_absent,
    lock_character,
    lock_session,
    progress,
    require_imp,
    require_in_campaign,
    require_owner_or_imp,
    settle,
    turns_taken,
    xp_entry,
)
from characters.models import Character, XpEntry
from characters.systems.eldritch_gambit.models import EldritchGambitCharacter
from rules.engine.eldritch_gambit.levels import levels_affordable

from .models import Quest, QuestInvestment

INVESTMENT_XP = 1  # "Players can bid or Invest *one* XP in their character's Quest."
QUEST_PAYOUT_FACTOR = 2  # "If they accomplish it, they get double the invested XP back!"
QUEST_LENGTH = 200


def _lock_build(character: Character | int) -> EldritchGambitCharacter:
    """The character's row locked (as campaigns.services._lock_character), with its
    Eldritch Gambit build (its Quest, its WP)."""
    pk = character if isinstance(character, int) else character.pk
    return EldritchGambitCharacter.objects.select_for_update().get(pk=pk)


# -- Level-ups ----------------------------------------------------------------------------


@transaction.atomic
def level_ups(*, character: Character, by=None) -> list[XpEntry]:
    """Buy Levels while XP >= Level: each is one LEVEL_SPEND entry (XP -Level, Level +1),
    "keeping any leftovers" (Characters > Advancement). The new Level's Attribute point
    shows up in the engine as attribute_points_left. Callers in a campaign go through
    campaigns.services.settle, which waits for the ritual's "Level Up?" step."""
    character = lock_character(character)
    level, xp = progress(character)
    spent = []
    for _ in range(levels_affordable(level, xp)):
        spent.append(xp_entry(
            character, kind=Kind.LEVEL_SPEND, by=by, xp_change=-level, level_change=1,
            note=f"Level {level} -> {level + 1}",
        ))
        xp -= level
        level += 1
    return spent


# -- the ritual: Quests -------------------------------------------------------------------


def active_quest(character: Character) -> Quest | None:
    return Quest.objects.filter(character=character, status=Quest.Status.ACTIVE).first()


def invested_xp(quest: Quest) -> int:
    """The XP in a Quest: the sum of its investment entries (a reversed investment
    is no longer one of them)."""
    total = XpEntry.objects.filter(quest_investment__quest=quest).aggregate(
        t=Sum("xp_change"))["t"]
    return -(total or 0)


@transaction.atomic
def quest_invest(*, session: Session, character: Character, by,
                 request_key: str | None = None) -> QuestInvestment:
    """After the Highlights, put exactly one XP into the character's current Quest
    (its active Quest, or a new one from the Quest written on the character); then the
    Level-ups its XP pays for, unless another open ritual still holds them."""
    session = lock_session(session)  # its rounds as they are now
    character = _lock_build(character)
    require_owner_or_imp(character, by, "invest its XP")
    if request_key:
        entry = XpEntry.objects.filter(request_key=request_key).first()
        if entry is not None:
            investment = QuestInvestment.objects.filter(xp_entry=entry).first()
            if investment is None or investment.session_id != session.pk:
                raise CampaignError("That request was already used for something else.",
                                    "request_key_reused")
            return investment
    require_in_campaign(character, session)
    if not session.ritual_open:
        raise CampaignError(f"Session {session.number}'s ritual is closed: Quest XP is "
                            "invested before it closes.", "ritual_closed", field="character")
    if is_absent(session, character):
        raise CampaignError(f"{character.display_name}'s player is marked absent.", "absent",
                            field="character")
    if QuestInvestment.objects.filter(session=session, character=character).exists():
        raise CampaignError(
            f"{character.display_name} already invested in a Quest this session: one XP "
            "per session.", "already_invested", field="character",
        )
    if session.has_ritual and turns_taken(session, character) < session.highlight_rounds:
        raise CampaignError(
            "Quest XP comes after the Highlights: finish (or pass) this character's turns.",
            "highlights_first", field="character",
        )
    _, xp = progress(character)
    if xp < INVESTMENT_XP:
        raise CampaignError(f"{character.display_name} has no XP to invest.", "no_xp",
                            field="character")
    quest = active_quest(character)
    if quest is None:
        text = (character.quest or "").strip()
        if not text:
            raise CampaignError(f"{character.display_name} has no Quest to invest in.",
                                "no_quest", field="character")
        quest = Quest.objects.create(character=character, campaign_id=session.campaign_id,
                                     text=text[:QUEST_LENGTH], started_in=session)
    entry = xp_entry(character, kind=Kind.QUEST_INVESTMENT, by=by, xp_change=-INVESTMENT_XP,
                      note=f"Session {session.number}: {quest.text}", request_key=request_key)
    investment = QuestInvestment.objects.create(quest=quest, session=session,
                                                character=character, xp_entry=entry,
                                                created_by=by)
    settle(character, by)  # its Highlights and its Quest step are done: "Level Up?"
    return investment


def _locked_quest(quest: Quest) -> tuple[Character, Quest]:
    character = lock_character(quest.character_id)
    return character, Quest.objects.select_for_update().get(pk=quest.pk)


def _check_session(session: Session | None, character: Character) -> None:
    if session is not None and session.campaign_id != character.campaign_id:
        raise CampaignError("That session is not in the character's campaign.",
                            "wrong_session", field="session")


@transaction.atomic
def quest_complete(*, quest: Quest, by, session: Session | None = None,
                   request_key: str | None = None) -> Quest:
    """The Imp marks the Quest achieved: double the invested XP comes back as one
    QUEST_PAYOUT entry, then any Level-ups (held while an open ritual holds the
    character's). Completing it again changes nothing."""
    character, quest = _locked_quest(quest)
    require_imp(character.campaign_id, by, "mark Quests achieved")
    if quest.status == Quest.Status.ACHIEVED:
        return quest
    if quest.status != Quest.Status.ACTIVE:
        raise CampaignError("That Quest was abandoned: its investment is lost.",
                            "quest_ended")
    _check_session(session, character)
    payout = QUEST_PAYOUT_FACTOR * invested_xp(quest)
    if payout:
        quest.payout_entry = xp_entry(
            character, kind=Kind.QUEST_PAYOUT, by=by, xp_change=payout,
            note=f"Quest achieved: {quest.text}", request_key=request_key,
        )
    quest.status = Quest.Status.ACHIEVED
    quest.ended_at = timezone.now()
    quest.ended_in = session
    quest.save(update_fields=["payout_entry", "status", "ended_at", "ended_in"])
    settle(character, by)  # the diagram's "Achieve: x2 XP!" leads to "Level Up?"
    return quest


def _abandon(quest: Quest, session: Session | None) -> None:
    quest.status = Quest.Status.ABANDONED
    quest.ended_at = timezone.now()
    quest.ended_in = session
    quest.save(update_fields=["status", "ended_at", "ended_in"])


@transaction.atomic
def quest_abandon(*, quest: Quest, by, session: Session | None = None) -> Quest:
    """The Quest is given up: its invested XP is lost, its history stays."""
    character, quest = _locked_quest(quest)
    require_owner_or_imp(character, by, "abandon its Quest")
    if quest.status == Quest.Status.ABANDONED:
        return quest
    if quest.status != Quest.Status.ACTIVE:
        raise CampaignError("That Quest was achieved already.", "quest_ended")
    _check_session(session, character)
    _abandon(quest, session)
    return quest


@transaction.atomic
def quest_change(*, character: Character, text: str, by,
                 session: Session | None = None) -> Quest:
    """A new Quest: the active one is abandoned ("If they abandon the Quest for
    another, they get nothing"), and the character's Quest reads the new text."""
    character = _lock_build(character)
    require_owner_or_imp(character, by, "change its Quest")
    text = check_text(text, field="quest", length=QUEST_LENGTH,
                       required="Write the new Quest.")
    _check_session(session, character)
    current = active_quest(character)
    if current is not None:
        if current.text == text:
            return current
        _abandon(current, session)
    quest = Quest.objects.create(character=character, campaign_id=character.campaign_id,
                                 text=text, started_in=session)
    if character.quest != text:
        character.quest = text
        character.save(update_fields=["quest", "updated_at"])
    return quest
