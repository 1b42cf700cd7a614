"""The campaign dashboard for `manage.py bench`: campaigns of a given size, built fast
with bulk inserts of the rows the services write (a Highlight and its XP entry per turn,
the Level-ups they buy, one Quest investment per session), and the two requests that
show the dashboard: the page, and the poll htmx sends every 5 s while it is open.

The command times them and counts their queries, for 2 characters with 2 sessions and
for 8 characters with 200 sessions (tests pin that the counts are the same).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaigns import services
from campaigns.models import Campaign, Highlight, Membership, Role, Session
from characters.models import Character, InventoryItem, XpEntry
from characters.systems.eldritch_gambit.models import EldritchGambitCharacter

from .models import Quest, QuestInvestment

ROUNDS = 3
ITEMS_PER_CHARACTER = 5
RECAP = "- Ash: The bell tower climb.\n- Bram: The rope trick."


@dataclass
class DashboardSize:
    key: str
    label: str
    characters: int
    sessions: int
    campaign: Campaign | None = field(default=None, repr=False)

    def as_dict(self) -> dict:
        return {"campaign": self.key, "characters": self.characters,
                "sessions": self.sessions}


DASHBOARD_SIZES = (
    DashboardSize("small", "New table", characters=2, sessions=2),
    DashboardSize("table", "Table of 8", characters=8, sessions=200),
)


def build_campaign(*, imp, size: DashboardSize) -> Campaign:
    """A campaign run by `imp` with size.characters players' characters (Level 10,
    five items each) and size.sessions sessions: from the second on, three rounds of
    Highlights for everyone, and one XP invested in each character's Quest."""
    campaign = services.campaign_create(owner=imp, name=f"Bench {size.label}")
    User = get_user_model()
    players = User.objects.bulk_create(
        User(username=f"bench-{size.key}-{n}") for n in range(size.characters))
    Membership.objects.bulk_create(
        Membership(campaign=campaign, user=player, role=Role.PLAYER) for player in players)
    # One by one: bulk_create cannot write a multi-table child (at most 8 of them).
    characters = [
        EldritchGambitCharacter.objects.create(
            owner=player, campaign=campaign, name=f"Hero {n}", career="Grave robber",
            quest="Find the drowned library", strength=2, wisdom=1, dexterity=2, agility=1,
            charisma=1, endurance=3)
        for n, player in enumerate(players)]
    InventoryItem.objects.bulk_create(
        InventoryItem(character=character, name=f"Trinket {n}", load=0, position=n)
        for character in characters for n in range(ITEMS_PER_CHARACTER))
    sessions = Session.objects.bulk_create(
        # Each session's start closed the ritual before it (services.session_start).
        Session(campaign=campaign, number=n, highlight_rounds=ROUNDS, created_by=imp,
                recap=RECAP if n > 1 else "",
                ritual_closed_at=timezone.now() if n < size.sessions else None)
        for n in range(1, size.sessions + 1))
    quests = Quest.objects.bulk_create(
        Quest(character=character, campaign=campaign, text=character.quest,
              started_in=sessions[0]) for character in characters)

    # The ledgers, in the order the services write them.
    entries: list[XpEntry] = []
    turns: list[tuple[Session, Character, int]] = []  # one per Highlight entry
    invested: list[tuple[Session, Character, Quest]] = []  # one per investment entry
    for character, quest in zip(characters, quests, strict=True):
        level, xp = 10, 0
        entries.append(XpEntry(character=character, kind=XpEntry.Kind.CREATION,
                               level_change=level, note="Character created"))
        for session in sessions:
            for round_number in range(1, ROUNDS + 1) if session.number > 1 else ():
                entries.append(XpEntry(character=character, kind=XpEntry.Kind.HIGHLIGHT,
                                       xp_change=1, created_by=imp))
                turns.append((session, character, round_number))
                xp += 1
                while xp >= level:
                    entries.append(XpEntry(character=character, kind=XpEntry.Kind.LEVEL_SPEND,
                                           xp_change=-level, level_change=1))
                    xp, level = xp - level, level + 1
            if xp >= 1:
                entries.append(XpEntry(character=character,
                                       kind=XpEntry.Kind.QUEST_INVESTMENT, xp_change=-1))
                invested.append((session, character, quest))
                xp -= 1
    entries = XpEntry.objects.bulk_create(entries, batch_size=2000)
    highlight_entries = iter(e for e in entries if e.kind == XpEntry.Kind.HIGHLIGHT)
    investment_entries = iter(e for e in entries if e.kind == XpEntry.Kind.QUEST_INVESTMENT)
    Highlight.objects.bulk_create(
        (Highlight(session=session, character=character, round_number=round_number,
                   text="A deed", xp_entry=next(highlight_entries), created_by=imp)
         for session, character, round_number in turns), batch_size=2000)
    QuestInvestment.objects.bulk_create(
        (QuestInvestment(quest=quest, session=session, character=character,
                         xp_entry=next(investment_entries))
         for session, character, quest in invested), batch_size=2000)
    return campaign


def dashboard_requests(client: Client, campaign: Campaign) -> dict[str, Callable]:
    """The dashboard as the Imp opens it, and the poll htmx sends while it is open."""
    url = reverse("campaigns:detail", args=[campaign.pk])
    poll = {"HX-Request": "true", "HX-Target": "party-dashboard",
            "HX-Current-URL": f"http://testserver{url}"}
    return {
        "dashboard": lambda: client.get(url),
        "poll": lambda: client.get(url, headers=poll),
    }
