"""Campaign reads that build a page's data: what a member can bring (the invitation's
and the Bring page's ways forward) and the session page's ritual table (whose turn
it is, a row per character and what each row shows; the game system's ritual adds its
steps to each row: Eldritch Gambit's Quests and Level-ups). Plain reads with a fixed
number of queries; the writes are in campaigns/services.py, whose highlight_turns stays
the one source of the turn order.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from django.urls import reverse

from characters.models import Character

from . import rituals, services
from .models import Campaign, Highlight, Session


def ways_forward(campaign: Campaign, user) -> dict:
    """What a member can bring to the campaign: each of their characters, with what
    one click does for it (bring a free one, duplicate one that plays elsewhere), and
    the builder's address for a new one that lands here (of the campaign's game system);
    a character of another system, or one the system refuses (GameSystem.join_refusal:
    METTLE Core's Freestyle budget), is listed saying why it cannot be brought. Two
    queries, and what the system's join_refusal reads for each of its characters."""
    rows = []
    refusal = campaign.game_system.join_refusal
    for character in (Character.objects.filter(owner=user).with_progress()
                      .select_related("campaign").order_by("name", "pk")):
        reason = ""
        if character.campaign_id == campaign.pk:
            state = "here"
        elif character.system != campaign.system:
            state = "other_system"  # only characters of the campaign's system join
        elif refusal is not None and (reason := refusal(character, campaign)):
            state = "refused"
        elif character.campaign_id is None:
            state = "free"
        else:
            state = "elsewhere"
        rows.append({"character": character, "state": state, "reason": reason,
                     "key": uuid.uuid4().hex})
    return {
        "rows": rows,
        "build_url": f"{reverse('characters:create')}?campaign={campaign.pk}",
        "free": sum(1 for row in rows if row["state"] == "free"),
        "system": campaign.game_system,
    }


# The ritual section of a system with Highlights and no template of its own.
DEFAULT_RITUAL_TEMPLATE = "campaigns/includes/session_ritual.html"


@dataclass
class RitualRow:
    """One character's row of the ritual table."""

    character: Character
    turns: list[Highlight]  # its Highlight turns this session, undone ones included
    turns_left: int
    next_round: int | None  # its open round, None once its turns are told (or absent)
    about_other_needed: bool  # its open round is the final one, about another character
    absent: bool
    key: str  # the request key of its forms (a turn, the system's step)
    current: bool  # its turn now
    # What the game system's ritual shows of its steps (ritual.session_context: Eldritch
    # Gambit's Quest XP and Level-ups).
    extra: dict = field(default_factory=dict)


@dataclass
class RitualTurn:
    """Whose turn it is: the round, that character's row, then the others of the round."""

    round: int
    row: RitualRow
    then: list[RitualRow]


@dataclass
class RitualTable:
    rows: list[RitualRow]
    turn: RitualTurn | None  # None when no one is waiting (or the ritual is closed)
    waiting: bool  # someone still has a turn to tell
    highlights: bool  # the game system has Highlights (its ritual.highlights)
    template: str  # the system's template of the ritual section ("": none)
    # What the system's ritual adds to the table (Eldritch Gambit: the Quests achieved).
    extra: dict = field(default_factory=dict)


def ritual_table(session: Session, user, *, runs: bool) -> RitualTable:
    """The session's ritual as `user` sees it (`runs`: as an Imp): a row per character now
    in the campaign (turns, absence, and what the system's ritual adds: Eldritch Gambit's
    investment, Quest and Level-ups), whose turn it is and what the ritual adds to the
    table. A fixed number of queries, whatever the party."""
    campaign = session.campaign
    system = campaign.game_system
    ritual = rituals.of(campaign.system)
    characters = list(system.character_model.objects.filter(campaign_id=session.campaign_id)
                      .with_progress().select_related("owner"))
    highlights = list(session.highlights.select_related("character", "xp_entry__reversed_by"))
    absent = set(session.absences.values_list("character_id", flat=True))
    # Whose turn it is, from what this read already: the turns standing, the absences
    # and the party (Character's order).
    taken = services.rounds_taken((h.character_id, h.round_number) for h in highlights
                                  if h.undone_at is None)
    waiting = services.highlight_turns(session, (absent, taken), party=characters)
    open_round = {character.pk: round_number for character, round_number in waiting}
    current = waiting[0][0].pk if waiting else None
    rows = []
    for character in characters:
        turns = [h for h in highlights if h.character_id == character.pk]
        taken = [h for h in turns if h.undone_at is None]
        next_round = open_round.get(character.pk)
        rows.append(RitualRow(
            character=character,
            turns=turns,
            turns_left=max(session.highlight_rounds - len(taken), 0)
            if session.has_ritual and ritual.highlights else 0,
            next_round=next_round,
            about_other_needed=session.final_round_about_other
            and next_round == session.highlight_rounds,
            absent=character.pk in absent,
            key=uuid.uuid4().hex,
            current=character.pk == current,
        ))
    extra = ritual.session_context(session, rows, user=user, runs=runs)
    turn = None
    if waiting:
        by_pk = {row.character.pk: row for row in rows}
        turn = RitualTurn(round=waiting[0][1], row=by_pk[current],
                          then=[by_pk[c.pk] for c, n in waiting[1:] if n == waiting[0][1]])
    return RitualTable(rows=rows, turn=turn, waiting=bool(waiting),
                       highlights=ritual.highlights,
                       template=ritual.templates.get("session") or (
                           DEFAULT_RITUAL_TEMPLATE if ritual.highlights else ""),
                       extra=extra)
