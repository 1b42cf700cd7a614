"""The Turn log's writes and reads (turn_models.py): declare a Turn, roll its Event Die,
record what it changed, undo the newest Turn.

Conventions (as company.py): the Guide writes (the Guide and co-Guides), every member of
the campaign reads; each write runs in one transaction with the Company's row locked, so
two clicks land one after the other, and a `request_key` makes a double submission
count once. `seen` is the log's length the Guide's page showed: a Turn declared from a
stale page is refused, never recorded twice.

What a Turn changes goes through `change_*` below, each writing the new value and an
`ErrantTurnChange` with the value before, so `undo_latest` can put it back. Each Turn
type's procedure (travel, exploration, initiative, downtime) builds on these.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from django.db import transaction
from django.db.models import Max, OuterRef, Q, Subquery
from django.utils import timezone

from campaigns import paging
from campaigns.models import Campaign, Session
from campaigns.services import CampaignError, check_text
from characters.models import CoinEntry, InventoryItem, XpEntry
from characters.systems.errant.inventory import line_dict, new_line
from characters.systems.errant.models import ErrantCharacter, ErrantItem
from rules.engine.errant import event_die
from rules.engine.errant.data.turns_tables import EVENT_RESULTS

from . import advancement
from .company import lock_company, require_guide
from .company_models import ErrantCompany
from .turn_models import ACTIVITY_LENGTH, LABEL_LENGTH, ErrantTurn, ErrantTurnChange

KINDS = tuple(ErrantTurn.Kind.values)
EVENT_KINDS = (ErrantTurn.Kind.TRAVEL, ErrantTurn.Kind.EXPLORATION, ErrantTurn.Kind.DOWNTIME)
TURNS_PER_DAY = 6  # TT §Travel Turns: "six Travel Turns in a day"


def latest(company: ErrantCompany) -> ErrantTurn | None:
    """The newest Turn not undone."""
    return company.turns.filter(undone_at__isnull=True).order_by("-number").first()


def log_length(company: ErrantCompany) -> int:
    return company.turns.count()


def _current_session(campaign: Campaign) -> Session | None:
    return Session.objects.filter(campaign=campaign).order_by("-number").first()


def _earlier(request_key: str | None) -> ErrantTurn | None:
    if not request_key:
        return None
    return ErrantTurn.objects.filter(request_key=request_key).first()


@transaction.atomic
def declare(*, campaign: Campaign, kind: str, by, activity: str = "", parent: int | None = None,
            day: int | None = None, turn_of_day: int | None = None, night: bool = False,
            state: dict | None = None, secret: dict | None = None, seen: int | None = None,
            request_key: str | None = None) -> ErrantTurn:
    """A new Turn at the end of the log. `day` defaults to the latest Turn's day; a Travel
    Turn's `turn_of_day` (1-6) is the caller's (travel.py counts them). `parent` is the
    Turn this one zooms in from, which must be the Company's and not undone."""
    earlier = _earlier(request_key)
    if earlier is not None:
        return earlier
    require_guide(campaign, by, "declare a Turn")
    if kind not in KINDS:
        raise CampaignError("Choose a Travel, Exploration, Initiative or Downtime Turn.",
                            "turn_kind")
    activity = check_text(activity, field="activity", length=ACTIVITY_LENGTH)
    company = lock_company(campaign)
    if seen is not None and seen != log_length(company):
        raise CampaignError("The Turn log changed since this page was loaded (another "
                            "click or another Guide): here it is again.", "stale")
    last = latest(company)
    parent_turn = None
    if parent is not None:
        parent_turn = company.turns.filter(pk=parent, undone_at__isnull=True).first()
        if parent_turn is None:
            raise CampaignError("That Turn is not in this Company's log.", "turn_parent")
    if day is None:
        day = last.day if last else 1
    if day < 1:
        raise CampaignError("Days are counted from 1.", "turn_day")
    if turn_of_day is not None and not 1 <= turn_of_day <= TURNS_PER_DAY:
        raise CampaignError("A day has six Travel Turns (1 to 6).", "turn_of_day")
    numbers = company.turns.aggregate(all=Max("number"),
                                      kind=Max("kind_number", filter=Q(kind=kind)))
    return ErrantTurn.objects.create(
        company=company, session=_current_session(campaign),
        number=(numbers["all"] or 0) + 1, kind=kind,
        kind_number=(numbers["kind"] or 0) + 1, parent=parent_turn, day=day,
        turn_of_day=turn_of_day, night=night, activity=activity, state=state or {},
        secret=secret or {}, created_by=by, request_key=request_key or None)


@dataclass(frozen=True)
class EventRoll:
    faces: tuple[int, ...]
    kept: int  # the face kept, after fives counting as ones
    result: str
    meaning: str
    effects: event_die.EventEffects


def event_odds(kind: str, dice: event_die.EventDice, *,
               fives_are_ones: bool = False) -> list[tuple[str, str, Fraction]]:
    """The chance of each result before rolling, exactly: (key, name, chance), by face
    order of first appearance."""
    names = {r.key: r.name for r in EVENT_RESULTS[kind].values()}
    odds = event_die.result_distribution(kind, dice, fives_are_ones=fives_are_ones)
    return [(key, names[key], chance) for key, chance in odds.items()]


def roll_event(turn: ErrantTurn, dice: event_die.EventDice, *, fives_are_ones: bool = False,
               rng: random.Random | None = None, faces: tuple[int, ...] | None = None
               ) -> EventRoll:
    """Roll the Turn's Event Die (1 + |net| d6, keep the highest or the lowest) and write
    the dice, the kept face and its meaning on the Turn. Call inside the transaction that
    declared or locked the Turn. `faces` are given only by tests."""
    if turn.kind not in EVENT_KINDS:
        raise CampaignError("Initiative Turns have no Event Die.", "no_event_die")
    if turn.event_face is not None:
        raise CampaignError("This Turn's Event Die is already rolled.", "event_rolled")
    if faces is None:
        rng = rng or random.SystemRandom()
        faces = tuple(rng.randint(1, event_die.FACES) for _ in range(dice.count))
    face = event_die.keep(faces, dice.net)
    effects = event_die.effects(turn.kind, face, fives_are_ones=fives_are_ones)
    kept = event_die.read_face(face, fives_are_ones=fives_are_ones)
    turn.event_sources = [{"label": s.label, "positive": s.positive, "negative": s.negative}
                          for s in dice.sources]
    turn.event_positive, turn.event_negative = dice.positive, dice.negative
    turn.event_faces = list(faces)
    turn.event_face = kept
    turn.fives_are_ones = fives_are_ones
    turn.event_result = effects.result.key
    turn.event_meaning = effects.result.summary[:LABEL_LENGTH]
    turn.save(update_fields=["event_sources", "event_positive", "event_negative",
                             "event_faces", "event_face", "fives_are_ones", "event_result",
                             "event_meaning", "updated_at"])
    return EventRoll(tuple(faces), kept, effects.result.key, turn.event_meaning, effects)


# -- What a Turn changes -------------------------------------------------------------------

def _record(turn: ErrantTurn, what: str, label: str, **fields) -> ErrantTurnChange:
    return ErrantTurnChange.objects.create(turn=turn, what=what, label=label[:LABEL_LENGTH],
                                           **fields)


def note(turn: ErrantTurn, label: str, *, character=None, secret: bool = False
         ) -> ErrantTurnChange:
    """Something the Guide decides or should know, named in the log; nothing applied."""
    return _record(turn, ErrantTurnChange.What.NOTE, label, character=character,
                   secret=secret)


def change_exhaustion(turn: ErrantTurn, errant: ErrantCharacter, by: int, label: str
                      ) -> ErrantTurnChange | None:
    """+/- Exhaustion (never below 0). `errant` should be locked by the caller."""
    before = errant.exhaustion
    after = max(0, before + by)
    if after == before:
        return None
    errant.exhaustion = after
    errant.save(update_fields=["exhaustion", "updated_at"])
    return _record(turn, ErrantTurnChange.What.EXHAUSTION, label, character=errant,
                   before=before, after=after)


def change_hp(turn: ErrantTurn, errant: ErrantCharacter, after: int, label: str,
              *, before: int) -> ErrantTurnChange | None:
    """Set current HP (the caller computes it from the sheet's maximum); `before` is the
    value the caller read (hp_current may be None, meaning full)."""
    if after == before:
        return None
    errant.hp_current = after
    errant.save(update_fields=["hp_current", "updated_at"])
    return _record(turn, ErrantTurnChange.What.HP, label, character=errant, before=before,
                   after=after)


def change_depletion(turn: ErrantTurn, line: InventoryItem, after: int, label: str
                     ) -> ErrantTurnChange | None:
    """An item's Depletion (its ErrantItem.uses; Burn for a light)."""
    side: ErrantItem = line.errant_item
    before = side.uses or 0
    if after == before:
        return None
    side.uses = after
    side.save(update_fields=["uses"])
    return _record(turn, ErrantTurnChange.What.DEPLETION, label, character_id=line.character_id,
                   item=line, before=before, after=after)


def change_quantity(turn: ErrantTurn, line: InventoryItem, after: int, label: str
                    ) -> ErrantTurnChange | None:
    """A line's quantity (Supply, rations, ammunition); at 0 the line is removed and kept in
    the change to be put back by an undo."""
    before = line.quantity
    if after == before:
        return None
    if after <= 0:
        kept = {**line_dict(line), "position": line.position}
        character_id = line.character_id
        line.delete()
        return _record(turn, ErrantTurnChange.What.REMOVED, label, character_id=character_id,
                       line=kept, before=before, after=0)
    line.quantity = after
    line.save(update_fields=["quantity"])
    return _record(turn, ErrantTurnChange.What.QUANTITY, label, character_id=line.character_id,
                   item=line, before=before, after=after)


def change_money(turn: ErrantTurn, errant: ErrantCharacter, pennies: int, label: str, *,
                 by, kind: str = CoinEntry.Kind.PURCHASE) -> ErrantTurnChange | None:
    """Money in or out of the Errant's purse, as a coin ledger entry (pennies)."""
    if not pennies:
        return None
    entry = CoinEntry.objects.create(character=errant, kind=kind, amount_cp=pennies,
                                     note=label[:300], created_by=by)
    return _record(turn, ErrantTurnChange.What.MONEY, label, character=errant,
                   coin_entry=entry, before=None, after=pennies)


def change_xp(turn: ErrantTurn, entry: XpEntry, label: str) -> ErrantTurnChange:
    """An XP entry the Turn wrote (e.g. advancement.waste_grant's, for money wasted)."""
    return _record(turn, ErrantTurnChange.What.XP, label, character_id=entry.character_id,
                   xp_entry=entry, before=None, after=entry.xp_change)


# -- Undo ------------------------------------------------------------------------------------

@transaction.atomic
def undo_latest(*, campaign: Campaign, by, turn_pk: int) -> ErrantTurn:
    """Undo the newest Turn not undone (it must be `turn_pk`, as the page showed), and
    every Turn zoomed in from it first: each change put back, newest first. A value
    changed since (by hand, or by another page) is refused, naming it."""
    require_guide(campaign, by, "undo a Turn")
    company = lock_company(campaign)
    turn = latest(company)
    if turn is None or turn.pk != turn_pk:
        raise CampaignError("Only the newest Turn can be undone, and this page was out of "
                            "date: here is the log again.", "stale")
    for change in turn.changes.order_by("-pk").select_related("item", "coin_entry",
                                                              "xp_entry"):
        _put_back(change, by)
    turn.undone_at = timezone.now()
    turn.undone_by = by
    turn.save(update_fields=["undone_at", "undone_by", "updated_at"])
    return turn


def undo_from_log(*, campaign: Campaign, by, turn_pk: int) -> ErrantTurn:
    """The Turn log page's undo of the newest Turn: through downtime.undo, which also
    reverses a Downtime Turn's Company entries (debt, reputation) and refuses XP a Renown
    raise stands on. An Initiative Turn of a fight is the fight page's to undo (the fight's
    own steps go back with it)."""
    from .downtime import undo
    from .fight_models import ErrantFightStep

    if ErrantFightStep.objects.filter(payload__errant_turn=turn_pk,
                                      undone_at__isnull=True).exists():
        raise CampaignError("This Initiative Turn is a fight's: undo it on the fight page, "
                            "where the fight goes back with it.", "fight_turn")
    return undo(campaign=campaign, by=by, turn_pk=turn_pk)


def _changed_since(change: ErrantTurnChange) -> CampaignError:
    return CampaignError(f"{change.label}: changed since this Turn, so it cannot be put "
                         "back. Set it by hand, or undo the later change first.",
                         "changed_since")


def _put_back(change: ErrantTurnChange, by) -> None:
    what = ErrantTurnChange.What
    if change.what in (what.HP, what.EXHAUSTION):
        errant = ErrantCharacter.objects.select_for_update().get(pk=change.character_id)
        field = "hp_current" if change.what == what.HP else "exhaustion"
        if getattr(errant, field) != change.after:
            raise _changed_since(change)
        setattr(errant, field, change.before)
        errant.save(update_fields=[field, "updated_at"])
    elif change.what in (what.DEPLETION, what.QUANTITY):
        if change.item_id is None:
            raise _changed_since(change)
        line = InventoryItem.objects.select_for_update(of=("self",)).select_related(
            "errant_item").get(pk=change.item_id)
        if change.what == what.DEPLETION:
            if (line.errant_item.uses or 0) != change.after:
                raise _changed_since(change)
            line.errant_item.uses = change.before
            line.errant_item.save(update_fields=["uses"])
        else:
            if line.quantity != change.after:
                raise _changed_since(change)
            if change.before == 0:  # a line the Turn added (travel.py: Forage's Supply)
                line.delete()
                return
            line.quantity = change.before
            line.save(update_fields=["quantity"])
    elif change.what == what.REMOVED:
        errant = ErrantCharacter.objects.get(pk=change.character_id)
        kept = dict(change.line)
        position = kept.pop("position", None)
        new_line(errant, {**kept, "quantity": change.before or kept.get("quantity", 1)},
                 position=position)
    elif change.what == what.MONEY and change.coin_entry_id:
        entry = change.coin_entry
        if CoinEntry.objects.filter(reverses=entry).exists():  # reversed on its ledger
            raise _changed_since(change)
        CoinEntry.objects.create(character_id=entry.character_id, kind=CoinEntry.Kind.REVERSAL,
                                 amount_cp=-entry.amount_cp, reverses=entry,
                                 note=f"Undone: {entry.note}"[:300], created_by=by)
    elif change.what == what.XP and change.xp_entry_id:
        # As the advancement page's undo (the ritual's hook): the entry reversed, and with
        # money wasted the adjutant's part and what the waste paid (advancement.waste_undone).
        # Undone there already: refused, never reversed twice.
        entry = change.xp_entry
        if XpEntry.objects.filter(reverses=entry).exists():
            raise _changed_since(change)
        advancement.waste_undone(entry, by)
        XpEntry.objects.create(character_id=entry.character_id, kind=XpEntry.Kind.REVERSAL,
                               xp_change=-entry.xp_change, level_change=-entry.level_change,
                               reverses=entry, note=f"Undone: {entry.note}"[:300],
                               created_by=by)


# -- Reads -----------------------------------------------------------------------------------

def _log_turns(company: ErrantCompany):
    return (company.turns.select_related("parent", "created_by", "undone_by")
            .prefetch_related("changes__character"))


def _with_shown_changes(turns: list[ErrantTurn], guide: bool) -> list[ErrantTurn]:
    for turn in turns:
        turn.shown_changes = [c for c in turn.changes.all() if guide or not c.secret]
    return turns


LOG_VERSION = ("log_turns", "log_stamp", "log_change", "log_characters")


def log_version_of(campaign: str = "pk") -> dict:
    """What the log shows, cheaply, as annotations of a row whose `campaign` is the
    campaign's id (a poll's version, campaigns/polling.py: read with the user's role in
    one query): the Turns' count and newest change stamp, the newest change, and the
    change stamp of the characters the changes name (a renamed Errant shows renamed)."""
    turns = (ErrantTurn.objects.filter(company__campaign_id=OuterRef(campaign)).order_by()
             .values("company"))
    changes = (ErrantTurnChange.objects.filter(turn__company__campaign_id=OuterRef(campaign))
               .order_by().values("turn__company"))
    return {"log_turns": Subquery(turns.annotate(v=Max("number")).values("v")),
            "log_stamp": Subquery(turns.annotate(v=Max("updated_at")).values("v")),
            "log_change": Subquery(changes.annotate(v=Max("pk")).values("v")),
            "log_characters": Subquery(changes.annotate(v=Max("character__updated_at"))
                                       .values("v"))}


def log_version(campaign_pk: int) -> tuple:
    """The log's version (log_version_of) of campaign `campaign_pk`."""
    return Campaign.objects.filter(pk=campaign_pk).annotate(**log_version_of()).values_list(
        *LOG_VERSION).get()


def log_rows(company: ErrantCompany, *, guide: bool) -> list[ErrantTurn]:
    """The log, newest first, each Turn with `shown_changes` (a player's view leaves out
    the Guide's secrets; `secret` itself is read only in the Guide's templates)."""
    return _with_shown_changes(list(_log_turns(company).order_by("-number")), guide)


def log_page(company: ErrantCompany, *, guide: bool, before=None, size: int) -> paging.Slice:
    """`size` Turns of the log older than Turn number `before` (the raw ?before= value;
    junk or None: the newest), newest first, as log_rows shows them."""
    page = paging.page_before(_log_turns(company), before, size=size, key="number")
    _with_shown_changes(page.rows, guide)
    return page
