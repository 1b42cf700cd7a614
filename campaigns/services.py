"""Campaign writes: the table, its sessions, the XP ledger and the ritual's Highlights
(Characters > Advancement). docs/RULES.md, "Advancement", records the readings. What comes
after the Highlights and what the XP buys are the game system's (GameSystem.ritual,
reached through campaigns.rituals; Eldritch Gambit's Quests and Level-ups live in
campaigns/systems/eldritch_gambit/).

Every function is keyword-only and one transaction. Writes that touch a character's XP
first lock its Character row (select_for_update; on PostgreSQL two calls for the same
character run one after the other), so the sums read afterwards are current; the
ritual's writes lock the session before the character. A
`request_key` makes a call idempotent: the same submission arriving twice is recorded
once and the first result is returned. A refusal raises CampaignError with a stable code;
nothing is written then.
"""

from __future__ import annotations

from datetime import date as Date

from django.db import IntegrityError, transaction
from django.db.models import Max, Q, Sum
from django.utils import timezone

from characters.models import Character, XpEntry
from characters.refusals import Refusal
from characters.services import character_duplicate
from rules import systems

from . import rituals
from .models import (
    IMP_ROLES,
    Absence,
    Campaign,
    Highlight,
    Invitation,
    Membership,
    Role,
    Session,
)

Kind = XpEntry.Kind

HIGHLIGHT_XP = 1  # "Any half-decent answer gets an XP."
# What the Imp may undo: the campaign's own entries. A Level spend follows from the XP
# and is undone with the entry that paid for it; a reversal is never reversed.
REVERSIBLE = (Kind.HIGHLIGHT, Kind.QUEST_INVESTMENT, Kind.QUEST_PAYOUT, Kind.IMP_ADJUSTMENT,
              Kind.MAKE_UP, Kind.WASTE)
NAME_LENGTH = 120
PITCH_LENGTH = 2000
TEXT_LENGTH = 2000
NOTE_LENGTH = 300
NOTES_LENGTH = 10_000


class CampaignError(Refusal):
    """A refused campaign action: a message for the table, a stable code, and the form
    field it belongs to (None: the action as a whole)."""


# -- helpers (the public ones are for the game systems' campaign packages too) ----------


def require_imp(campaign: Campaign | int | None, by, what: str) -> None:
    if Membership.objects.role_of(by, campaign) not in IMP_ROLES:
        raise CampaignError(f"Only the campaign's Imp or a co-Imp may {what}.", "not_imp")


def _require_the_imp(campaign: Campaign, by, what: str) -> None:
    if by is None or campaign.owner_id != by.pk:
        raise CampaignError(f"Only the campaign's Imp may {what}.", "not_the_imp")


def require_owner_or_imp(character: Character, by, what: str) -> None:
    if by is not None and character.owner_id == by.pk:
        return
    if Membership.objects.role_of(by, character.campaign_id) in IMP_ROLES:
        return
    raise CampaignError(
        f"Only {character.display_name}'s player or the campaign's Imp may {what}.",
        "not_your_character",
    )


def lock_character(character: Character | int) -> Character:
    pk = character if isinstance(character, int) else character.pk
    return Character.objects.select_for_update().get(pk=pk)


def _lock_campaign(campaign: Campaign | int) -> Campaign:
    pk = campaign if isinstance(campaign, int) else campaign.pk
    return Campaign.objects.select_for_update().get(pk=pk)


def progress(character: Character | int) -> tuple[int, int]:
    """(Level, XP) read from the ledger now, not from a cached annotation."""
    pk = character if isinstance(character, int) else character.pk
    totals = XpEntry.objects.filter(character_id=pk).aggregate(
        level=Sum("level_change"), xp=Sum("xp_change"))
    return totals["level"] or 0, totals["xp"] or 0


def xp_entry(character: Character, *, kind: str, by, xp_change: int = 0,
              level_change: int = 0, note: str = "", request_key: str | None = None,
              reverses: XpEntry | None = None) -> XpEntry:
    try:
        with transaction.atomic():
            return XpEntry.objects.create(
                character=character, kind=kind, xp_change=xp_change,
                level_change=level_change, note=note[:NOTE_LENGTH], created_by=by,
                request_key=request_key or None, reverses=reverses,
            )
    except IntegrityError as error:
        raise CampaignError("That request was already used for something else.",
                            "request_key_reused") from error


def require_in_campaign(character: Character, session: Session) -> None:
    if character.campaign_id != session.campaign_id:
        raise CampaignError(
            f"{character.display_name} is not in this campaign (any more).",
            "not_in_campaign", field="character",
        )


def lock_session(session: Session | int) -> Session:
    """The session as it is now, locked, with its campaign (read, not locked). The
    ritual's writes lock the session first and the character second, so two clicks in
    one ritual run one after the other."""
    pk = session if isinstance(session, int) else session.pk
    return (Session.objects.select_related("campaign").select_for_update(of=("self",))
            .get(pk=pk))


def is_absent(session: Session, character: Character) -> bool:
    return Absence.objects.filter(session=session, character=character).exists()


def _turns(session: Session):
    """The session's turns still standing (an undone award gave its turn back)."""
    return Highlight.objects.filter(session=session, undone_at__isnull=True)


def turns_taken(session: Session, character: Character) -> int:
    return _turns(session).filter(character=character).count()


def _open_round(rounds: int, taken) -> int | None:
    """The lowest round of 1..rounds without a turn: an undone Highlight leaves its
    round open again, even when later rounds were played."""
    taken = set(taken)
    return next((n for n in range(1, rounds + 1) if n not in taken), None)


def rounds_taken(turns) -> dict[int, list[int]]:
    """The rounds each character's turns took, from (character pk, round) pairs of the
    turns standing (an undone award gave its turn back)."""
    taken: dict[int, list[int]] = {}
    for character_id, round_number in turns:
        taken.setdefault(character_id, []).append(round_number)
    return taken


def _turns_told(session: Session) -> tuple[set[int], dict[int, list[int]]]:
    """The session's absent characters, and the rounds each character's turns standing
    took."""
    absent = set(session.absences.values_list("character_id", flat=True))
    return absent, rounds_taken(_turns(session).values_list("character_id", "round_number"))


def highlight_turns(session: Session, told: tuple | None = None, party=None
                    ) -> list[tuple[Character, int]]:
    """Who is still to speak, in order: (character, its open round) for every present
    character of the campaign with a turn left. The first is the one whose turn it is:
    the lowest open round goes first, then the party's order (by name). Worked out from
    the recorded turns alone (`told`: _turns_told's, when the caller read them), so an
    interrupted ritual resumes where it stopped. `party`: the campaign's characters in
    the party's order (Character's), when the caller read them."""
    if not session.has_ritual or not session.ritual_open:
        return []
    if not rituals.of(session.campaign.system).highlights:
        return []
    absent, taken = told if told is not None else _turns_told(session)
    waiting = []
    if party is None:
        party = Character.objects.filter(campaign_id=session.campaign_id)
    for character in party:
        if character.pk in absent:
            continue
        round_number = _open_round(session.highlight_rounds, taken.get(character.pk, ()))
        if round_number is not None:
            waiting.append((character, round_number))
    # Stable: within a round the party's order stays.
    return sorted(waiting, key=lambda pair: pair[1])


def check_text(text: str, *, field: str, length: int, required: str | None = None) -> str:
    text = (text or "").strip()
    if required and not text:
        raise CampaignError(required, f"{field}_required", field=field)
    if len(text) > length:
        raise CampaignError(f"Keep it to {length} characters.", f"{field}_too_long",
                            field=field)
    return text


def _check_rounds(rounds: int, *, field: str, system: str) -> None:
    """The rounds a session of the game system may have (its ritual's highlight_rounds:
    Eldritch Gambit's 2 to 4, METTLE Core's 1 to 3)."""
    allowed = [n for n, _ in rituals.highlight_rounds(system)]
    if rounds not in allowed:
        raise CampaignError(
            f"Highlights go around the table {min(allowed)} to {max(allowed)} times.",
            "rounds_out_of_range", field=field,
        )


# -- the table ----------------------------------------------------------------------------


def campaign_settings(game_system: systems.GameSystem, settings: dict | None) -> dict:
    """The campaign settings `settings` as the system's campaign_settings_form cleans
    them (None: its fields' initial values); CampaignError on the first field it
    refuses. A system without settings stores none."""
    form_class = game_system.campaign_settings_form
    if form_class is None:
        return {}
    if settings is None:
        blank = form_class()
        settings = {name: blank.get_initial_for_field(field, name)
                    for name, field in blank.fields.items()}
    if not isinstance(settings, dict):
        raise CampaignError("The campaign's settings are not readable.", "settings_invalid")
    form = form_class(data=settings)
    if not form.is_valid():
        name, errors = next(iter(form.errors.as_data().items()))
        error = errors[0]
        raise CampaignError(" ".join(error.messages), error.code or "settings_invalid",
                            field=None if name == "__all__" else name)
    return form.cleaned_data


@transaction.atomic
def campaign_create(*, owner, name: str, pitch: str = "", settings: dict | None = None,
                    default_highlight_rounds: int | None = None,
                    system: str = systems.ELDRITCH_GAMBIT,
                    request_key: str | None = None) -> Campaign:
    """A new campaign with `owner` as its Imp, playing the game system `system`, with
    that system's `settings` (None: its defaults)."""
    if request_key:
        existing = Campaign.objects.filter(request_key=request_key).first()
        if existing is not None:
            return existing
    name = check_text(name, field="name", length=NAME_LENGTH,
                       required="Give the campaign a name.")
    pitch = check_text(pitch, field="pitch", length=PITCH_LENGTH)
    game_system = systems.find(system)
    if game_system is None:
        raise CampaignError("Choose one of the game systems listed.", "unknown_system",
                            field="system")
    if default_highlight_rounds is None:
        default_highlight_rounds = rituals.default_highlight_rounds(system)
    _check_rounds(default_highlight_rounds, field="default_highlight_rounds", system=system)
    settings = campaign_settings(game_system, settings)
    campaign = Campaign.objects.create(
        owner=owner, name=name, pitch=pitch, settings=settings, system=system,
        default_highlight_rounds=default_highlight_rounds, request_key=request_key or None,
    )
    Membership.objects.create(campaign=campaign, user=owner, role=Role.IMP)
    return campaign


@transaction.atomic
def campaign_update(*, campaign: Campaign, by, name: str, pitch: str = "",
                    settings: dict | None = None,
                    default_highlight_rounds: int | None = None) -> Campaign:
    """The Imp (or a co-Imp) renames the campaign, rewrites its pitch, or changes the
    system's settings and the Highlight rounds a new session starts with. The game system
    never changes here (its characters are of it). A change applies from now on: what is
    recorded (sessions, fights, ledgers) stays as it was."""
    require_imp(campaign, by, "change the campaign")
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    campaign.name = check_text(name, field="name", length=NAME_LENGTH,
                               required="Give the campaign a name.")
    campaign.pitch = check_text(pitch, field="pitch", length=PITCH_LENGTH)
    if default_highlight_rounds is not None:
        _check_rounds(default_highlight_rounds, field="default_highlight_rounds",
                      system=campaign.system)
        campaign.default_highlight_rounds = default_highlight_rounds
    campaign.settings = campaign_settings(campaign.game_system,
                                          settings if settings is not None
                                          else campaign.settings)
    campaign.save(update_fields=["name", "pitch", "default_highlight_rounds", "settings"])
    return campaign


@transaction.atomic
def invitation_create(*, campaign: Campaign, by) -> Invitation:
    require_imp(campaign, by, "invite players")
    return Invitation.objects.create(campaign=campaign, created_by=by)


@transaction.atomic
def invitation_revoke(*, invitation: Invitation, by) -> Invitation:
    """The link stops working; revoking it again changes nothing."""
    invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
    require_imp(invitation.campaign_id, by, "revoke invitations")
    if invitation.revoked_at is None:
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
    return invitation


@transaction.atomic
def invitation_accept(*, code: str, user) -> Membership:
    """Join the invitation's campaign as a player. A member keeps the role they have."""
    invitation = Invitation.objects.filter(code=code or "").first()
    if invitation is None:
        raise CampaignError("That invitation link does not exist.", "no_such_invitation")
    campaign = _lock_campaign(invitation.campaign_id)
    membership = Membership.objects.filter(campaign=campaign, user=user).first()
    if membership is not None:
        return membership
    if invitation.revoked_at is not None:
        raise CampaignError("That invitation was revoked: ask the Imp for a new link.",
                            "invitation_revoked")
    return Membership.objects.create(campaign=campaign, user=user, role=Role.PLAYER)


@transaction.atomic
def character_join(*, campaign: Campaign, character: Character, by,
                   request_key: str | None = None) -> Character:
    """A member brings one of their own characters. A character is in at most one
    campaign: it must leave the other first. The ledger records the join (JOINED)."""
    character = lock_character(character)
    if character.owner_id != getattr(by, "pk", None):
        raise CampaignError("You can only bring your own characters.", "not_your_character",
                            field="character")
    if Membership.objects.role_of(by, campaign) is None:
        raise CampaignError("Join the campaign first.", "not_member")
    if character.campaign_id == campaign.pk:
        return character
    if character.campaign_id is not None:
        raise CampaignError(
            f"{character.display_name} already plays in another campaign: leave it first.",
            "already_in_campaign", field="character",
        )
    if character.system != campaign.system:
        raise CampaignError(
            f"{character.display_name} is a {character.game_system.name} character and "
            f"{campaign.name} plays {campaign.game_system.name}: only its characters can join.",
            "wrong_system", field="character",
        )
    refusal = character.game_system.join_refusal
    reason = refusal(character, campaign) if refusal is not None else ""
    if reason:
        raise CampaignError(reason, "refused_by_system", field="character")
    character.campaign = campaign
    character.save(update_fields=["campaign", "updated_at"])
    _campaign_record(character, campaign, kind=Kind.JOINED, by=by, request_key=request_key)
    _campaign_changed(character, campaign, joined=True, by=by)
    return character


def _campaign_changed(character: Character, campaign: Campaign, *, joined: bool, by) -> None:
    """The system's own consequences of joining or leaving (GameSystem.campaign_changed)."""
    hook = character.game_system.campaign_changed
    if hook is not None:
        hook(character, campaign=campaign, joined=joined, by=by)


def _campaign_record(character: Character, campaign: Campaign, *, kind: str, by,
                     request_key: str | None = None) -> XpEntry:
    """The XP ledger's record that the character joined or left the campaign, with its
    Level and XP then: no change, but the Imp reads it in the ledger, and from then on
    the ledger alone sets Level and XP (characters.services.ledger_rules_progress)."""
    level, xp = progress(character)
    verb = "Joined" if kind == Kind.JOINED else "Left"
    return xp_entry(character, kind=kind, by=by,
                     note=f"{verb} {campaign.name} at Level {level} with {xp} XP",
                     request_key=request_key)


@transaction.atomic
def character_duplicate_join(*, campaign: Campaign, character: Character, by,
                             request_key: str | None = None) -> Character:
    """A copy of one of the member's own characters joins the campaign (the original
    stays where it plays). The copy starts at the original's Level and XP, and its
    ledger says where they came from. The same request twice makes one copy."""
    if request_key:
        existing = (XpEntry.objects.filter(request_key=request_key)
                    .select_related("character").first())
        if existing is not None:
            if (existing.kind != Kind.JOINED or existing.character.campaign_id != campaign.pk
                    or existing.character.owner_id != getattr(by, "pk", None)):
                raise CampaignError("That request was already used for something else.",
                                    "request_key_reused")
            return existing.character
    if character.owner_id != getattr(by, "pk", None):
        raise CampaignError("You can only duplicate your own characters.",
                            "not_your_character", field="character")
    if Membership.objects.role_of(by, campaign) is None:
        raise CampaignError("Join the campaign first.", "not_member")
    copy = character_duplicate(character=character, by=by)
    return character_join(campaign=campaign, character=copy, by=by, request_key=request_key)


@transaction.atomic
def character_leave(*, character: Character, by) -> Character:
    """The character leaves its campaign (its player or the Imp decides). Its history
    (Highlights, Quests) stays; it gets no more turns. The ledger records the leave
    (LEFT), and Level and XP stay the ledger's."""
    character = lock_character(character)
    if character.campaign_id is None:
        return character
    require_owner_or_imp(character, by, "take the character out of the campaign")
    campaign = character.campaign
    character.campaign = None
    character.save(update_fields=["campaign", "updated_at"])
    _campaign_record(character, campaign, kind=Kind.LEFT, by=by)
    _campaign_changed(character, campaign, joined=False, by=by)
    return character


@transaction.atomic
def imp_handover(*, campaign: Campaign, to_user, by) -> Campaign:
    """The Imp hands the campaign to another member, and stays on as a co-Imp."""
    campaign = _lock_campaign(campaign)
    _require_the_imp(campaign, by, "hand the campaign over")
    if to_user.pk == campaign.owner_id:
        return campaign
    new = Membership.objects.filter(campaign=campaign, user=to_user).first()
    if new is None:
        raise CampaignError("Hand the campaign to one of its members.", "not_member",
                            field="user")
    Membership.objects.filter(campaign=campaign, role=Role.IMP).update(role=Role.CO_IMP)
    new.role = Role.IMP
    new.save(update_fields=["role"])
    campaign.owner = to_user
    campaign.save(update_fields=["owner"])
    return campaign


@transaction.atomic
def co_imp_add(*, campaign: Campaign, user, by) -> Membership:
    campaign = _lock_campaign(campaign)
    _require_the_imp(campaign, by, "name co-Imps")
    membership = Membership.objects.filter(campaign=campaign, user=user).first()
    if membership is None:
        raise CampaignError("A co-Imp must be a member of the campaign.", "not_member",
                            field="user")
    if membership.role == Role.PLAYER:
        membership.role = Role.CO_IMP
        membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def co_imp_remove(*, campaign: Campaign, user, by) -> Membership:
    """A co-Imp goes back to being a player (the Imp decides, or they step down)."""
    campaign = _lock_campaign(campaign)
    if user.pk != getattr(by, "pk", None):
        _require_the_imp(campaign, by, "remove co-Imps")
    membership = Membership.objects.filter(campaign=campaign, user=user).first()
    if membership is None:
        raise CampaignError("That user is not a member of the campaign.", "not_member",
                            field="user")
    if membership.role == Role.IMP:
        raise CampaignError("The Imp stays the Imp: hand the campaign over instead.",
                            "is_the_imp", field="user")
    if membership.role == Role.CO_IMP:
        membership.role = Role.PLAYER
        membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def membership_leave(*, campaign: Campaign, user, by) -> None:
    """A player or co-Imp leaves the table (they decide, or the Imp does). Their
    characters in the campaign leave with them; the characters' history (Highlights,
    Quests, XP) stays. The Imp hands the campaign over before leaving."""
    campaign = _lock_campaign(campaign)
    if user.pk != getattr(by, "pk", None):
        _require_the_imp(campaign, by, "remove members")
    membership = Membership.objects.filter(campaign=campaign, user=user).first()
    if membership is None:
        return
    if membership.role == Role.IMP:
        raise CampaignError("The Imp hands the campaign over before leaving it.",
                            "is_the_imp", field="user")
    for character in Character.objects.filter(campaign=campaign, owner=user):
        character_leave(character=character, by=by)
    membership.delete()


# -- sessions -----------------------------------------------------------------------------


@transaction.atomic
def session_start(*, campaign: Campaign, by, date: Date | None = None,
                  highlight_rounds: int | None = None, final_round_about_other: bool = False,
                  notes: str = "", request_key: str | None = None) -> Session:
    """The next session, numbered 1, 2, ... The rituals of the sessions before it close
    (ritual_close); then the game system does what a new session does (its ritual's
    session_started: Eldritch Gambit's first session refills every character's WP)."""
    campaign = _lock_campaign(campaign)
    require_imp(campaign, by, "start sessions")
    if request_key:
        existing = Session.objects.filter(request_key=request_key).first()
        if existing is not None:
            return existing
    rounds = campaign.default_highlight_rounds if highlight_rounds is None else highlight_rounds
    _check_rounds(rounds, field="highlight_rounds", system=campaign.system)
    notes = check_text(notes, field="notes", length=NOTES_LENGTH)
    last = Session.objects.filter(campaign=campaign).aggregate(n=Max("number"))["n"] or 0
    # A new session ends the rituals before it: the Level-ups they held are bought.
    for earlier in Session.objects.select_for_update().filter(
            campaign=campaign, ritual_closed_at__isnull=True).order_by("number"):
        _close(earlier, by)
    session = Session.objects.create(
        campaign=campaign, number=last + 1, date=date or timezone.localdate(), notes=notes,
        highlight_rounds=rounds, final_round_about_other=final_round_about_other,
        created_by=by, request_key=request_key or None,
    )
    rituals.of(campaign.system).session_started(session)
    return session


_UNSET = object()


@transaction.atomic
def session_update(*, session: Session, by, notes=_UNSET, recap=_UNSET, date=_UNSET,
                   highlight_rounds=_UNSET, final_round_about_other=_UNSET) -> Session:
    """Change what the Imp may change; what is not passed stays."""
    session = Session.objects.select_for_update().get(pk=session.pk)
    require_imp(session.campaign_id, by, "edit sessions")
    fields = []
    if notes is not _UNSET:
        session.notes = check_text(notes, field="notes", length=NOTES_LENGTH)
        fields.append("notes")
    if recap is not _UNSET:
        session.recap = check_text(recap, field="recap", length=NOTES_LENGTH)
        fields.append("recap")
    if date is not _UNSET and date is not None:
        session.date = date
        fields.append("date")
    if highlight_rounds is not _UNSET:
        _check_rounds(highlight_rounds, field="highlight_rounds",
                      system=session.campaign.system)
        used = _turns(session).aggregate(n=Max("round_number"))["n"] or 0
        if highlight_rounds < used:
            raise CampaignError(f"Round {used} was already played.", "rounds_already_played",
                                field="highlight_rounds")
        session.highlight_rounds = highlight_rounds
        fields.append("highlight_rounds")
    if final_round_about_other is not _UNSET:
        session.final_round_about_other = bool(final_round_about_other)
        fields.append("final_round_about_other")
    if fields:
        session.save(update_fields=fields)
    return session


def recap_draft(session: Session) -> str:
    """The "last time on ..." recap drafted from the Highlights told at the start of the
    session (they recount the session before it), for the Imp to edit: one line per
    Highlight still standing, round by round; "" when none was told."""
    highlights = (session.highlights.filter(awarded=True, xp_entry__reversed_by__isnull=True)
                  .select_related("character").order_by("round_number", "character__name",
                                                        "pk"))
    lines = []
    for highlight in highlights:
        who = highlight.character.display_name
        if highlight.about_other:
            who += " (about another character)"
        what = highlight.text.strip() or "a Highlight told at the table"
        if what[-1] not in ".!?…\"'":
            what += "."
        lines.append(f"- {who}: {what}")
    return "\n".join(lines)


@transaction.atomic
def absence_set(*, session: Session, character: Character, absent: bool = True,
                by) -> Absence | None:
    """Mark a character's player absent from (or back at) the session. An absent
    character has no turn in the session's ritual; nothing else changes."""
    session = lock_session(session)
    character = lock_character(character)
    require_imp(session.campaign_id, by, "take attendance")
    require_in_campaign(character, session)
    if not absent:
        Absence.objects.filter(session=session, character=character).delete()
        return None
    existing = Absence.objects.filter(session=session, character=character).first()
    if existing is not None:
        return existing
    if (Highlight.objects.filter(session=session, character=character).exists()
            or rituals.of(character.system).took_part(session, character)):
        raise CampaignError(
            f"{character.display_name} already took part in this session's ritual.",
            "already_took_part", field="character",
        )
    absence = Absence.objects.create(session=session, character=character, created_by=by)
    settle(character, by)  # an absent player's ritual does not hold their Level-ups
    return absence


# -- Level-ups ----------------------------------------------------------------------------


def ritual_holding(character: Character) -> Session | None:
    """The open ritual that holds what the character's XP buys, if any. A present
    character of a session with Highlights whose ritual is still open buys it once it
    has had all its turns and done its system's steps after them (ritual.steps_done:
    Eldritch Gambit's XP diagram runs Highlights XP, then Quest Invest, then "Level
    Up?"), or when the Imp closes the ritual (or the next session starts, which closes
    it)."""
    if character.campaign_id is None:
        return None
    ritual = rituals.of(character.system)
    if not ritual.highlights:
        return None
    sessions = Session.objects.filter(campaign_id=character.campaign_id, number__gt=1,
                                      ritual_closed_at__isnull=True).order_by("number")
    for session in sessions:
        if is_absent(session, character):
            continue
        done = (turns_taken(session, character) >= session.highlight_rounds
                and ritual.steps_done(session, character))
        if not done:
            return session
    return None


def settle(character: Character, by) -> list[XpEntry]:
    """Buy what the XP pays for (the system's ritual.settle: Eldritch Gambit's Levels),
    unless an open ritual holds it."""
    if ritual_holding(character) is not None:
        return []
    return rituals.of(character.system).settle(character, by)



def _close(session: Session, by) -> dict[Character, list[XpEntry]]:
    """Close a locked session's ritual and buy what it held (the Level-ups)."""
    if session.ritual_closed_at is None:
        session.ritual_closed_at = timezone.now()
        session.ritual_closed_by = by
        session.save(update_fields=["ritual_closed_at", "ritual_closed_by"])
    # The campaign's characters, and those who took part in the ritual and left since.
    characters = Character.objects.filter(
        Q(campaign_id=session.campaign_id) | Q(highlights__session=session)
        | rituals.of(session.campaign.system).participants(session)
    ).distinct().order_by("pk")
    bought = {}
    for character in characters:
        spent = settle(lock_character(character), by)
        if spent:
            bought[character] = spent
    return bought


@transaction.atomic
def ritual_close(*, session: Session, by) -> dict[Character, list[XpEntry]]:
    """The Imp ends the session's ritual: the turns not taken are not told, no more
    steps are done in it (Eldritch Gambit: no more Quest XP), and every character buys
    what its XP pays for (Eldritch Gambit: "Level Up?"). Returns what was bought, by
    character. Closing it again buys what is owed and changes nothing else."""
    session = lock_session(session)
    require_imp(session.campaign_id, by, "close the ritual")
    return _close(session, by)


# -- the ritual: Highlights ---------------------------------------------------------------


def _highlight_turn(*, session: Session, character: Character, by, request_key: str | None,
                    what: str) -> tuple[Character, Session, Highlight | None, int]:
    """The checks every turn shares; returns the locked character, the session, the
    earlier result of the same request (if any) and the round this turn is in."""
    session = lock_session(session)  # its rounds as they are now
    character = lock_character(character)
    require_imp(session.campaign_id, by, what)
    if request_key:
        existing = Highlight.objects.filter(request_key=request_key).first()
        if existing is not None:
            if (existing.session_id, existing.character_id) != (session.pk, character.pk):
                raise CampaignError("That request was already used for something else.",
                                    "request_key_reused")
            return character, session, existing, existing.round_number
    if not rituals.of(session.campaign.system).highlights:
        raise CampaignError(
            f"{session.campaign.game_system.name} has no Highlights.", "no_highlights")
    if not session.has_ritual:
        raise CampaignError(
            "Highlights are told at the start of every game after the first.",
            "first_session",
        )
    if not session.ritual_open:
        raise CampaignError(f"Session {session.number}'s ritual is closed.", "ritual_closed")
    require_in_campaign(character, session)
    told = _turns_told(session)
    absent, taken = told
    if character.pk in absent:
        raise CampaignError(f"{character.display_name}'s player is marked absent.", "absent",
                            field="character")
    round_number = _open_round(session.highlight_rounds, taken.get(character.pk, ()))
    if round_number is None:
        raise CampaignError(
            f"{character.display_name} had all {session.highlight_rounds} turns this session.",
            "no_turns_left", field="character",
        )
    # "The Imp asks each player in turn" (Characters > Advancement > Highlights XP).
    turns = highlight_turns(session, told)
    now = turns[0][0] if turns else None
    if now is None or now.pk != character.pk:
        raise CampaignError(
            f"It is {now.display_name}'s turn (round {turns[0][1]}), not "
            f"{character.display_name}'s.", "not_their_turn", field="character",
        )
    return character, session, None, round_number


@transaction.atomic
def highlight_award(*, session: Session, character: Character, text: str = "",
                    about_other: bool = False, by, request_key: str | None = None) -> Highlight:
    """The character's turn earns a Highlight: 1 XP. Only the character whose turn it
    is (highlight_turns) may be awarded or pass."""
    character, session, existing, round_number = _highlight_turn(
        session=session, character=character, by=by, request_key=request_key,
        what="award Highlights")
    if existing is not None:
        return existing
    text = check_text(text, field="text", length=TEXT_LENGTH)
    if (session.final_round_about_other and round_number == session.highlight_rounds
            and not about_other):
        raise CampaignError(
            "This session's final round is for something another character did.",
            "about_other_required", field="about_other",
        )
    entry = xp_entry(
        character, kind=Kind.HIGHLIGHT, by=by, xp_change=HIGHLIGHT_XP,
        note=f"Session {session.number}, round {round_number}" + (f": {text}" if text else ""),
        request_key=request_key,
    )
    highlight = Highlight.objects.create(
        session=session, character=character, round_number=round_number, text=text,
        awarded=True, about_other=about_other, xp_entry=entry, created_by=by,
        request_key=request_key or None,
    )
    # Nothing bought yet: it comes after the Highlights and the system's steps
    # (ritual_holding).
    return highlight


@transaction.atomic
def highlight_pass(*, session: Session, character: Character, by, text: str = "",
                   request_key: str | None = None) -> Highlight:
    """The character's next turn passes: no XP, and the turn is used."""
    character, session, existing, round_number = _highlight_turn(
        session=session, character=character, by=by, request_key=request_key,
        what="run the Highlights")
    if existing is not None:
        return existing
    return Highlight.objects.create(
        session=session, character=character, round_number=round_number,
        text=check_text(text, field="text", length=TEXT_LENGTH), awarded=False,
        created_by=by, request_key=request_key or None,
    )


# -- the Imp's corrections ----------------------------------------------------------------


@transaction.atomic
def xp_adjust(*, character: Character, xp_change: int, note: str, by,
              request_key: str | None = None) -> XpEntry:
    """An Imp's correction to a character's XP, with a reason; then any Level-ups (held
    while an open ritual holds the character's)."""
    character = lock_character(character)
    require_imp(character.campaign_id, by, "adjust XP")
    if request_key:
        existing = XpEntry.objects.filter(request_key=request_key).first()
        if existing is not None:
            if existing.character_id != character.pk or existing.kind != Kind.IMP_ADJUSTMENT:
                raise CampaignError("That request was already used for something else.",
                                    "request_key_reused")
            return existing
    note = check_text(note, field="note", length=NOTE_LENGTH,
                       required="Say why the XP changes.")
    if not xp_change:
        raise CampaignError("Give a change other than 0.", "zero_change", field="xp_change")
    _, xp = progress(character)
    if xp + xp_change < 0:
        raise CampaignError(f"{character.display_name} has only {xp} XP.", "xp_negative",
                            field="xp_change")
    entry = xp_entry(character, kind=Kind.IMP_ADJUSTMENT, by=by, xp_change=xp_change,
                      note=note, request_key=request_key)
    settle(character, by)
    return entry


def _level_spends_to_undo(character: Character, level: int, xp_after: int) -> list[XpEntry]:
    """The latest Level spends still standing, as many as it takes for XP to stay >= 0."""
    spends: list[XpEntry] = []
    if xp_after >= 0:
        return spends
    candidates = (XpEntry.objects.filter(character=character, kind=Kind.LEVEL_SPEND,
                                         reversed_by__isnull=True)
                  .order_by("-created_at", "-pk"))
    for spend in candidates:
        spends.append(spend)
        xp_after -= spend.xp_change  # a spend's xp_change is -old Level
        if xp_after >= 0:
            return spends
    raise CampaignError(
        f"Undoing it would leave {character.display_name} with negative XP, and no Level "
        "bought in play is left to take back.", "xp_negative",
    )


@transaction.atomic
def xp_entry_reverse(*, entry: XpEntry | int, by, confirm_level_undo: bool = False,
                     note: str = "", request_key: str | None = None) -> XpEntry:
    """The Imp undoes a Highlight, an investment, a payout or an adjustment with a
    REVERSAL pointing at it.

    If the XP already bought a Level, undoing it alone would leave negative XP: the
    caller must pass confirm_level_undo=True, and the Level spend(s) are reversed too
    (the latest first). An undone investment frees the session's investment; an undone
    payout makes the Quest active again (the system's ritual.check_undo and undo do what
    its own rows need). An undone Highlight gives the turn back, to
    retell or pass (refused once the character invested after it: undo that first). A
    turn or investment of a closed ritual opens the ritual again. A reversal is never
    reversed, an entry is reversed once, and afterwards any Level now paid for is bought
    again, unless an open ritual holds it.
    """
    entry_pk = entry if isinstance(entry, int) else entry.pk
    found = XpEntry.objects.filter(pk=entry_pk).values_list(
        "character_id", "character__system").first()
    if found is None:
        raise CampaignError("That XP entry does not exist.", "no_such_entry")
    character_id, system = found
    ritual = rituals.of(system)
    # A turn or a step (an investment) belongs to a session's ritual: lock it first (as
    # the ritual's other writes do), then the character.
    session_id = (Highlight.objects.filter(xp_entry_id=entry_pk).values_list(
        "session_id", flat=True).first() or ritual.entry_session_id(entry_pk))
    session = lock_session(session_id) if session_id else None
    character = lock_character(character_id)
    entry = XpEntry.objects.get(pk=entry_pk)
    require_imp(character.campaign_id, by, "undo XP entries")
    if request_key:
        existing = XpEntry.objects.filter(request_key=request_key).first()
        if existing is not None:
            if existing.reverses_id != entry.pk:
                raise CampaignError("That request was already used for something else.",
                                    "request_key_reused")
            return existing
    if entry.kind == Kind.REVERSAL:
        raise CampaignError("A reversal cannot be reversed: record a new entry instead.",
                            "reversal_of_reversal")
    if XpEntry.objects.filter(reverses=entry).exists():
        raise CampaignError("That entry was reversed already.", "already_reversed")
    if entry.kind == Kind.LEVEL_SPEND:
        raise CampaignError("A Level-up follows from the XP: undo the entry that paid for it.",
                            "level_spend")
    if entry.kind not in REVERSIBLE:
        raise CampaignError("Only Highlights, Quest XP and Imp adjustments can be undone here.",
                            "not_reversible")

    highlight = Highlight.objects.filter(xp_entry=entry, undone_at__isnull=True).first()
    ritual.check_undo(entry, character, highlight)

    level, xp = progress(character)
    spends = _level_spends_to_undo(character, level, xp - entry.xp_change)
    if spends and not confirm_level_undo:
        levels = ", ".join(f"Level {level - i}" for i in range(len(spends)))
        raise CampaignError(
            f"That XP already bought a Level: undoing it takes back {levels}. Confirm to "
            "undo both.", "level_undo_needed", field="confirm_level_undo",
        )

    ritual.undo(entry, character)
    if highlight is not None:
        # The turn is open again, to retell or pass: "the Imp asks each player in turn",
        # and an undone answer is no answer. The row stays, marked undone, as the ledger
        # keeps the award and its reversal.
        highlight.undone_at = timezone.now()
        highlight.save(update_fields=["undone_at"])
    if session is not None and not session.ritual_open:
        # A turn or an investment of a closed ritual is open again: so is the ritual,
        # until the Imp closes it again.
        session.ritual_closed_at = None
        session.ritual_closed_by = None
        session.save(update_fields=["ritual_closed_at", "ritual_closed_by"])

    note = check_text(note, field="note", length=NOTE_LENGTH)
    for spend in spends:
        xp_entry(character, kind=Kind.REVERSAL, by=by, xp_change=-spend.xp_change,
                  level_change=-spend.level_change, reverses=spend,
                  note=f"Undone with {entry.get_kind_display()} #{entry.pk}")
    reversal = xp_entry(character, kind=Kind.REVERSAL, by=by, xp_change=-entry.xp_change,
                         level_change=-entry.level_change, reverses=entry,
                         note=note or f"Undo {entry.get_kind_display()} #{entry.pk}",
                         request_key=request_key)
    settle(character, by)
    return reversal

