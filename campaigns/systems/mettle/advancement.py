"""METTLE Core's advancement writes (issue 13, "Advancement and the Guide's table"): XP
spent on Attribute raises at any time, the make-up XP of a player back after missed
sessions, Downtime Vouchers granted and spent, Contacts lost and regained. The rows are
characters/systems/mettle/ledgers.py's; every number shown is their sum.

As campaigns/services.py: keyword-only, one transaction each, the character's row locked
before anything is read (two clicks run one after the other), a `request_key` makes a
call idempotent (the same submission twice is recorded once and the first result is
returned), a refusal raises CampaignError with a stable code and writes nothing.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone

from campaigns.models import IMP_ROLES, Absence, Membership, Session
from campaigns.services import (
    CampaignError,
    check_text,
    is_absent,
    lock_character,
    lock_session,
    require_in_campaign,
    xp_entry,
)
from characters.models import XpEntry
from characters.systems.mettle.builds import sheet_for
from characters.systems.mettle.campaign_settings import make_up_xp_per_session
from characters.systems.mettle.ledgers import (
    NOTE_LENGTH,
    AttributeRaise,
    ContactEvent,
    MakeUp,
    VoucherEntry,
    contact_states,
    vouchers,
)
from characters.systems.mettle.models import MettleCharacter
from rules.engine.mettle.advancement import make_up_xp, raise_cost
from rules.engine.mettle.data import ATTRIBUTE_KEYS, ATTRIBUTE_NAMES

Kind = XpEntry.Kind
# The exchange format reads at most 100 raises (characters/systems/mettle/exchange.py):
# a character keeps to that, so its file always imports.
MAX_RAISES = 100


# -- who may ------------------------------------------------------------------------------


def is_guide(user, campaign_id: int | None) -> bool:
    return campaign_id is not None and Membership.objects.role_of(user, campaign_id) in IMP_ROLES


def require_guide(character, by, what: str) -> None:
    if not is_guide(by, character.campaign_id):
        raise CampaignError(f"Only the Guide of {character.display_name}'s campaign may "
                            f"{what}.", "not_guide")


def require_player_or_guide(character, by, what: str) -> None:
    if by is not None and character.owner_id == by.pk:
        return
    if is_guide(by, character.campaign_id):
        return
    raise CampaignError(f"Only {character.display_name}'s player or the Guide may {what}.",
                        "not_your_character")


def _lock(character) -> MettleCharacter:
    """The character's rows locked (the generic shell first, as every XP write does),
    read again with its build."""
    lock_character(character.pk)
    return MettleCharacter.objects.select_for_update().get(pk=character.pk)


def _reused() -> CampaignError:
    return CampaignError("That request was already used for something else.",
                         "request_key_reused")


# -- Attribute raises (Characters > Spending XP) ---------------------------------------------


@transaction.atomic
def raise_buy(*, character, attribute: str, by, request_key: str | None = None
              ) -> AttributeRaise:
    """Spend XP on raising `attribute` by one: the engine's cost now (twice the highest,
    else the highest's level; ties count as highest), paid from the XP left. The raise
    is appended to the character's `raises`; the XP ledger gets the spend."""
    character = _lock(character)
    if request_key:
        existing = AttributeRaise.objects.filter(request_key=request_key).first()
        if existing is not None:
            if existing.character_id != character.pk:
                raise _reused()
            return existing
    require_player_or_guide(character, by, "spend its XP")
    if attribute not in ATTRIBUTE_KEYS:
        raise CampaignError("Choose one of the five Attributes.", "unknown_attribute",
                            field="attribute")
    if len(character.raises) >= MAX_RAISES:
        raise CampaignError(f"{character.display_name} has {MAX_RAISES} raises already.",
                            "too_many_raises", field="attribute")
    sheet = sheet_for(character)
    cost = raise_cost(sheet.attributes, attribute)
    left = sheet.stats["xp_left"].value
    name = ATTRIBUTE_NAMES[attribute]
    if cost > left:
        raise CampaignError(
            f"Raising {name} to {sheet.attributes[attribute] + 1} costs {cost} XP; "
            f"{character.display_name} has {left} XP left.", "not_enough_xp",
            field="attribute")
    before = sheet.attributes[attribute]
    entry = xp_entry(character, kind=Kind.ATTRIBUTE_RAISE, by=by, xp_change=-cost,
                     note=f"{name} {before} -> {before + 1}")
    try:
        with transaction.atomic():
            bought = AttributeRaise.objects.create(
                character=character, attribute=attribute, before=before, cost=cost,
                xp_entry=entry, created_by=by, request_key=request_key or None)
    except IntegrityError as error:
        raise _reused() from error
    character.raises = [*character.raises, attribute]
    character.save(update_fields=["raises", "updated_at"])
    return bought


def latest_raise(character) -> AttributeRaise | None:
    """The raise bought in play that an undo takes back: the latest still standing, if
    it is the last of the character's `raises` (a raise bought after it elsewhere, or
    none: nothing to undo here)."""
    latest = (AttributeRaise.objects.filter(character_id=character.pk, undone_at__isnull=True)
              .select_related("xp_entry").order_by("-created_at", "-pk").first())
    if latest is None or not character.raises or character.raises[-1] != latest.attribute:
        return None
    return latest


@transaction.atomic
def raise_undo(*, character, raise_pk: int, by) -> AttributeRaise:
    """Take back the latest raise (only the latest: each raise's cost depends on the ones
    before it), refunding its XP with a reversal in the XP ledger. Undoing it again
    changes nothing."""
    character = _lock(character)
    require_player_or_guide(character, by, "undo its raises")
    bought = AttributeRaise.objects.filter(pk=raise_pk, character_id=character.pk).first()
    if bought is None:
        raise CampaignError("That raise does not exist.", "no_such_raise")
    if bought.undone_at is not None:
        return bought
    latest = latest_raise(character)
    if latest is None or latest.pk != bought.pk:
        raise CampaignError("Only the latest raise can be undone: undo the ones after it "
                            "first.", "not_latest_raise")
    xp_entry(character, kind=Kind.REVERSAL, by=by, xp_change=-bought.xp_entry.xp_change,
             reverses=bought.xp_entry,
             note=f"Undo {ATTRIBUTE_NAMES[bought.attribute]} {bought.before} -> "
                  f"{bought.before + 1}")
    bought.undone_at = timezone.now()
    bought.undone_by = by
    bought.save(update_fields=["undone_at", "undone_by"])
    character.raises = character.raises[:-1]
    character.save(update_fields=["raises", "updated_at"])
    return bought


# -- make-up XP (Guidance > Characters; AMB-M10) ----------------------------------------------


def missed_sessions(session: Session, character) -> list[Absence]:
    """The sessions before `session` the character's player missed and that were not
    made up yet, oldest first."""
    made_up = MakeUp.objects.filter(character_id=character.pk, undone_at__isnull=True)
    return list(Absence.objects.filter(
        character_id=character.pk, session__campaign_id=session.campaign_id,
        session__number__lt=session.number,
    ).exclude(pk__in=made_up.values("absence_id")).select_related("session")
        .order_by("session__number"))


@transaction.atomic
def make_up_award(*, session: Session, character, by, request_key: str | None = None
                  ) -> XpEntry:
    """The Guide awards a returning player the make-up XP of every missed session not
    made up yet: the campaign's make-up XP per session (1 by default, AMB-M10), one XP
    ledger entry, undone with the generic undo (the ritual's undo hook frees the
    sessions). In the ritual of a session after the first, while it is open, for a
    present character."""
    session = lock_session(session)
    character = _lock(character)
    if request_key:
        existing = XpEntry.objects.filter(request_key=request_key).first()
        if existing is not None:
            if existing.character_id != character.pk or existing.kind != Kind.MAKE_UP:
                raise _reused()
            return existing
    if not is_guide(by, session.campaign_id):
        raise CampaignError("Only the Guide may award make-up XP.", "not_guide")
    require_in_campaign(character, session)
    if not session.has_ritual:
        raise CampaignError("Make-up XP is given in the ritual of a session after the first.",
                            "first_session")
    if not session.ritual_open:
        raise CampaignError(f"Session {session.number}'s ritual is closed.", "ritual_closed")
    if is_absent(session, character):
        raise CampaignError(f"{character.display_name}'s player is marked absent.", "absent",
                            field="character")
    per = make_up_xp_per_session(session.campaign)
    if per <= 0:
        raise CampaignError("This campaign gives no make-up XP (its settings).",
                            "make_up_off")
    missed = missed_sessions(session, character)
    if not missed:
        raise CampaignError(f"{character.display_name} missed no session to make up.",
                            "nothing_to_make_up", field="character")
    numbers = ", ".join(str(absence.session.number) for absence in missed)
    entry = xp_entry(character, kind=Kind.MAKE_UP, by=by, xp_change=make_up_xp(len(missed), per),
                     note=f"Session {session.number}: made up session"
                          f"{'s' if len(missed) > 1 else ''} {numbers}",
                     request_key=request_key)
    MakeUp.objects.bulk_create(
        MakeUp(character=character, absence=absence, session=session, xp_entry=entry)
        for absence in missed)
    return entry


def make_up_undone(entry: XpEntry) -> None:
    """The generic undo took back a make-up entry: its sessions may be made up again."""
    MakeUp.objects.filter(xp_entry=entry, undone_at__isnull=True).update(
        undone_at=timezone.now())


# -- Downtime Vouchers (seed 001, Scenes > Downtime) --------------------------------------


def _voucher_request(character, request_key: str | None, kind: str) -> VoucherEntry | None:
    if not request_key:
        return None
    existing = VoucherEntry.objects.filter(request_key=request_key).first()
    if existing is not None and (existing.character_id != character.pk
                                 or existing.kind != kind):
        raise _reused()
    return existing


def _voucher(character, *, kind: str, change: int, note: str, by,
             request_key: str | None, reverses: VoucherEntry | None = None) -> VoucherEntry:
    try:
        with transaction.atomic():
            return VoucherEntry.objects.create(
                character=character, kind=kind, change=change, note=note, created_by=by,
                request_key=request_key or None, reverses=reverses)
    except IntegrityError as error:
        raise _reused() from error


@transaction.atomic
def voucher_grant(*, character, by, note: str = "", request_key: str | None = None
                  ) -> VoucherEntry:
    """The Guide gives the character a Downtime Voucher ("Party members not involved in
    a long Scene may take a Voucher")."""
    character = _lock(character)
    existing = _voucher_request(character, request_key, VoucherEntry.Kind.GRANT)
    if existing is not None:
        return existing
    require_guide(character, by, "grant Downtime Vouchers")
    note = check_text(note, field="note", length=NOTE_LENGTH)
    return _voucher(character, kind=VoucherEntry.Kind.GRANT, change=1, note=note, by=by,
                    request_key=request_key)


@transaction.atomic
def voucher_spend(*, character, note: str, by, request_key: str | None = None
                  ) -> VoucherEntry:
    """The player (or the Guide) spends a Voucher "to reveal something helpful they did",
    said in the note."""
    character = _lock(character)
    existing = _voucher_request(character, request_key, VoucherEntry.Kind.SPEND)
    if existing is not None:
        return existing
    require_player_or_guide(character, by, "spend its Vouchers")
    note = check_text(note, field="note", length=NOTE_LENGTH,
                      required="Say what the Voucher reveals they did.")
    if vouchers(character) < 1:
        raise CampaignError(f"{character.display_name} has no Downtime Voucher to spend.",
                            "no_voucher", field="note")
    return _voucher(character, kind=VoucherEntry.Kind.SPEND, change=-1, note=note, by=by,
                    request_key=request_key)


@transaction.atomic
def voucher_undo(*, character, entry_pk: int, by) -> VoucherEntry:
    """The Guide undoes a grant or a spend with a reversal; an entry is undone once (the
    same undo again returns the first reversal)."""
    character = _lock(character)
    require_guide(character, by, "undo Voucher entries")
    entry = VoucherEntry.objects.filter(pk=entry_pk, character_id=character.pk).first()
    if entry is None:
        raise CampaignError("That Voucher entry does not exist.", "no_such_entry")
    if entry.kind == VoucherEntry.Kind.REVERSAL:
        raise CampaignError("An undo cannot be undone: record a new entry instead.",
                            "reversal_of_reversal")
    done = VoucherEntry.objects.filter(reverses=entry).first()
    if done is not None:
        return done
    if entry.change > 0 and vouchers(character) < 1:
        raise CampaignError("That Voucher was spent since: undo the spend first.",
                            "voucher_spent")
    return _voucher(character, kind=VoucherEntry.Kind.REVERSAL, change=-entry.change,
                    note=f"Undo {entry.get_kind_display().lower()} #{entry.pk}", by=by,
                    request_key=None, reverses=entry)


# -- Contacts lost and regained (Characters > Contacts) --------------------------------------


def _contact(character, contact: str) -> str:
    if not isinstance(contact, str) or contact not in character.contacts:
        raise CampaignError(f"{character.display_name} has no such Contact.",
                            "unknown_contact", field="contact")
    return contact


@transaction.atomic
def contact_lose(*, character, contact: str, note: str, by) -> ContactEvent:
    """The Guide marks a Contact lost ("If a character abuses their Contacts, they may
    lose them"), saying why. Losing a lost Contact again changes nothing."""
    character = _lock(character)
    require_guide(character, by, "mark Contacts lost")
    contact = _contact(character, contact)
    note = check_text(note, field="note", length=NOTE_LENGTH,
                      required="Say how the Contact was lost.")
    state = contact_states(character).get(contact)
    if state is not None and state.kind == ContactEvent.Kind.LOST:
        return state
    return ContactEvent.objects.create(character=character, contact=contact,
                                       kind=ContactEvent.Kind.LOST, note=note,
                                       campaign_id=character.campaign_id, created_by=by)


@transaction.atomic
def contact_regain(*, character, contact: str, note: str = "", by) -> ContactEvent:
    """The Guide brings a lost Contact back ("make amends", or "fall back into good graces
    between campaigns": the Guide of the campaign the character is in now decides,
    AMB-M-ADV-4). Regaining it again changes nothing; one never lost is refused."""
    character = _lock(character)
    require_guide(character, by, "bring Contacts back")
    contact = _contact(character, contact)
    note = check_text(note, field="note", length=NOTE_LENGTH)
    state = contact_states(character).get(contact)
    if state is None:
        raise CampaignError(f"{contact} is not lost.", "contact_not_lost", field="contact")
    if state.kind == ContactEvent.Kind.REGAINED:
        return state  # a double click
    return ContactEvent.objects.create(character=character, contact=contact,
                                       kind=ContactEvent.Kind.REGAINED, note=note,
                                       campaign_id=character.campaign_id, created_by=by)
