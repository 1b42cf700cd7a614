"""Campaign reads that build a page's data: what a member can bring (the invitation's
and the Bring page's ways forward), the session page's ritual table (whose turn
it is, a row per character and what each row shows) and the Quests and Level-ups it
reads. Plain reads with a fixed number of queries; the writes are in
campaigns/services.py, whose highlight_turns stays the one source of the turn order.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.db.models import Sum
from django.urls import reverse

from characters.models import Character, XpEntry
from characters.systems.eldritch_gambit.models import EldritchGambitCharacter

from . import services
from .models import Campaign, Highlight, Quest, QuestInvestment, Session


def ways_forward(campaign: Campaign, user) -> dict:
    """What a member can bring to the campaign: each of their characters, with what
    one click does for it (bring a free one, duplicate one that plays elsewhere), and
    the builder's address for a new one that lands here (of the campaign's game system);
    a character of another system is listed, saying why it cannot be brought. Two
    queries."""
    rows = []
    for character in (Character.objects.filter(owner=user).with_progress()
                      .select_related("campaign").order_by("name", "pk")):
        if character.campaign_id == campaign.pk:
            state = "here"
        elif character.system != campaign.system:
            state = "other_system"  # only characters of the campaign's system join
        elif character.campaign_id is None:
            state = "free"
        else:
            state = "elsewhere"
        rows.append({"character": character, "state": state, "key": uuid.uuid4().hex})
    return {
        "rows": rows,
        "build_url": f"{reverse('characters:create')}?campaign={campaign.pk}",
        "free": sum(1 for row in rows if row["state"] == "free"),
        "system": campaign.game_system,
    }


def active_quests(campaign_id: int) -> dict[int, Quest]:
    """Each character's active Quest, with invested_sum (the investments' XP, <= 0)."""
    return {
        quest.character_id: quest
        for quest in Quest.objects.filter(character__campaign_id=campaign_id,
                                          status=Quest.Status.ACTIVE)
        .annotate(invested_sum=Sum("investments__xp_entry__xp_change"))
    }


def session_level_ups(session: Session, character_pks: list[int]) -> dict[int, list[XpEntry]]:
    """The Level-ups (still standing) bought during the session, by character: from its
    start to the next session's start."""
    entries = XpEntry.objects.filter(character_id__in=character_pks,
                                     kind=XpEntry.Kind.LEVEL_SPEND,
                                     reversed_by__isnull=True,
                                     created_at__gte=session.created_at)
    following = (Session.objects.filter(campaign_id=session.campaign_id,
                                        number__gt=session.number)
                 .order_by("number").values_list("created_at", flat=True).first())
    if following is not None:
        entries = entries.filter(created_at__lt=following)
    levelled: dict[int, list[XpEntry]] = {}
    for entry in entries:
        levelled.setdefault(entry.character_id, []).append(entry)
    return levelled


@dataclass
class RitualRow:
    """One character's row of the ritual table."""

    character: Character
    turns: list[Highlight]  # its Highlight turns this session, undone ones included
    turns_left: int
    next_round: int | None  # its open round, None once its turns are told (or absent)
    about_other_needed: bool  # its open round is the final one, about another character
    absent: bool
    investment: QuestInvestment | None  # this session's Quest XP
    quest: Quest | None  # the active Quest, with invested_sum
    invested: int  # the XP invested in that Quest so far
    can_invest: bool  # the viewer may invest for it (its player or an Imp)
    key: str  # the invest form's request key
    current: bool  # its turn now
    # "Level Up?": the Levels bought during this session, and those the XP already pays
    # for while the ritual holds them.
    levels_up: int
    new_level: int | None
    levels_waiting: int


@dataclass
class RitualTurn:
    """Whose turn it is: the round, that character's row, then the others of the round."""

    round: int
    row: RitualRow
    then: list[RitualRow]


@dataclass
class RitualTable:
    rows: list[RitualRow]
    achieved: list[Quest]  # the Quests achieved in this session, with their payouts
    turn: RitualTurn | None  # None when no one is waiting (or the ritual is closed)
    waiting: bool  # someone still has a turn to tell


def ritual_table(session: Session, user, *, runs: bool) -> RitualTable:
    """The session's ritual as `user` sees it (`runs`: as an Imp): a row per character now
    in the campaign (turns, absence, investment, Quest, Level-ups), whose turn it is and
    the Quests achieved. A fixed number of queries, whatever the party."""
    characters = list(EldritchGambitCharacter.objects.filter(campaign_id=session.campaign_id)
                      .with_progress().select_related("owner"))
    highlights = list(session.highlights.select_related("character", "xp_entry__reversed_by"))
    absent = set(session.absences.values_list("character_id", flat=True))
    investments = {i.character_id: i for i in session.investments.select_related(
        "quest", "xp_entry__reversed_by")}
    quests = active_quests(session.campaign_id)
    achieved = list(Quest.objects.filter(ended_in=session, status=Quest.Status.ACHIEVED)
                    .select_related("character", "payout_entry__reversed_by"))
    levelled = session_level_ups(session, [c.pk for c in characters])
    waiting = services.highlight_turns(session)
    open_round = {character.pk: round_number for character, round_number in waiting}
    current = waiting[0][0].pk if waiting else None
    rows = []
    for character in characters:
        turns = [h for h in highlights if h.character_id == character.pk]
        taken = [h for h in turns if h.undone_at is None]
        quest = quests.get(character.pk)
        next_round = open_round.get(character.pk)
        spends = levelled.get(character.pk, [])
        rows.append(RitualRow(
            character=character,
            turns=turns,
            turns_left=max(session.highlight_rounds - len(taken), 0)
            if session.has_ritual else 0,
            next_round=next_round,
            about_other_needed=session.final_round_about_other
            and next_round == session.highlight_rounds,
            absent=character.pk in absent,
            investment=investments.get(character.pk),
            quest=quest,
            invested=-(quest.invested_sum or 0) if quest else 0,
            can_invest=runs or character.owner_id == user.pk,
            key=uuid.uuid4().hex,
            current=character.pk == current,
            levels_up=len(spends),
            new_level=max((1 - spend.xp_change for spend in spends), default=None),
            levels_waiting=services.levels_affordable(character.level_total,
                                                      character.xp_total),
        ))
    turn = None
    if waiting:
        by_pk = {row.character.pk: row for row in rows}
        turn = RitualTurn(round=waiting[0][1], row=by_pk[current],
                          then=[by_pk[c.pk] for c, n in waiting[1:] if n == waiting[0][1]])
    return RitualTable(rows=rows, achieved=achieved, turn=turn, waiting=bool(waiting))
