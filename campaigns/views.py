"""Campaign pages: my campaigns, create, invitation links, joining, bringing a character,
the party dashboard (the Imp's full view, the players' summary), sessions and their
ritual (Highlights, absences, closing it, undo). The ritual's actions are plain POSTs
that redirect back to the session, so they work without JavaScript. What the game
system adds to the ritual (Eldritch Gambit's Quest XP and payouts) comes from its ritual
hook (campaigns.rituals): its templates fill the pages' slots, its pages are its own.

Non-members get 404 for every campaign page; a member who is not the Imp or a co-Imp
gets 403 for what only they may do (Membership.objects.of_or_404, then the role). The
writes go through campaigns/services.py; the ritual table is read by campaigns/selectors.py.
"""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.core.paginator import Paginator
from django.db.models import Count, Prefetch, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from characters.models import Character, InventoryItem, XpEntry
from config.parsing import parse_id

from . import paging, rituals, selectors, services
from .forms import (
    BringCharacterForm,
    CampaignEditForm,
    CampaignForm,
    CharacterActionForm,
    HandoverForm,
    SessionForm,
    SessionNotesForm,
    TurnForm,
    XpAdjustForm,
    add_service_error,
)
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
from .polling import conditional_poll, party_unchanged, party_version, unchanged_since
from .services import CampaignError

DASHBOARD = "campaigns/campaign_detail.html"
RECENT_SESSIONS = 5


def _require_runs(membership: Membership) -> None:
    if membership.role not in IMP_ROLES:
        raise PermissionDenied("Only the Imp or a co-Imp may do that.")


def _party(campaign: Campaign, *, full: bool) -> list[dict]:
    """One row per character. The Imp's rows carry the rules engine's sheet where the
    system's ritual shows it (its "party_columns": Eldritch Gambit's HP, WP, statuses);
    the players' rows, and every row of a system that shows none, only the summary (a
    sheet no cell reads is not computed, nor its gear and ledgers read). A fixed number
    of queries, whatever the party."""
    system = campaign.game_system
    full = full and bool(rituals.of(campaign.system).templates.get("party_columns"))
    characters = (system.character_model.objects.filter(campaign=campaign)
                  .with_progress().select_related("owner"))
    if full and system.for_sheets is not None:
        characters = system.for_sheets(characters)
    if full:
        characters = characters.prefetch_related(
            Prefetch("items", queryset=InventoryItem.objects.select_related("catalog_item")))
    characters = list(characters)
    # What the system's ritual shows of each character (Eldritch Gambit: its Quest).
    steps = rituals.of(campaign.system).party_context(campaign, characters)
    rows = []
    for character in characters:
        row = {"character": character, "ritual": steps.get(character.pk, {})}
        if full:
            sheet = campaign.game_system.sheet(character, character.items.all())
            row["sheet"] = sheet
            # The statuses the sheet names, if its system has any (Eldritch Gambit's
            # status_rules, from its engine).
            row["statuses"] = [rule.name for rule in getattr(sheet, "status_rules", ())]
        rows.append(row)
    return rows


@login_required
@require_GET
def campaign_list(request: HttpRequest) -> HttpResponse:
    memberships = (Membership.objects.filter(user=request.user).select_related("campaign")
                   .order_by("campaign__name", "campaign_id"))
    return render(request, "campaigns/campaign_list.html", {"memberships": memberships})


@login_required
@require_http_methods(["GET", "POST"])
def campaign_create(request: HttpRequest) -> HttpResponse:
    if request.method == "GET":
        # ?system=<key>: the form with that system's settings (the system select asks
        # for them, htmx swapping its #system-settings in).
        initial = {"request_key": uuid.uuid4().hex}
        if "system" in request.GET:
            initial["system"] = request.GET["system"]
        form = CampaignForm(initial=initial)
    else:
        form = CampaignForm(request.POST)
        if form.is_valid():
            data = dict(form.cleaned_data)
            data["request_key"] = data["request_key"] or None
            try:
                campaign = services.campaign_create(owner=request.user, **data)
            except CampaignError as error:
                add_service_error(form, error)
            else:
                messages.success(request, f"{campaign.name} is ready: invite your players.")
                return redirect(campaign)
    return render(request, "campaigns/campaign_form.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def campaign_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """The campaign's name, pitch and its system's settings, for the Imp and co-Imps."""
    membership = Membership.objects.of_or_404(request.user, pk)
    _require_runs(membership)
    campaign = membership.campaign
    form = CampaignEditForm(request.POST if request.method == "POST" else None,
                            campaign=campaign)
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        try:
            services.campaign_update(campaign=campaign, by=request.user, name=data["name"],
                                     pitch=data["pitch"], settings=data["settings"],
                                     default_highlight_rounds=data.get(
                                         "default_highlight_rounds"))
        except CampaignError as error:
            add_service_error(form, error)
        else:
            messages.success(request, "The campaign's settings are saved.")
            return redirect(campaign)
    return render(request, "campaigns/campaign_edit.html",
                  {"form": form, "campaign": campaign, "membership": membership},
                  status=400 if form.is_bound and form.errors else 200)


@login_required
@require_GET
@conditional_poll
def campaign_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The party dashboard; htmx polls its party-dashboard partial every few seconds
    (304 while the party's data stays the same: campaigns.polling, in one query with
    who asks, before the membership's own check, which refuses the others)."""
    polled = party_unchanged(request, pk) if request.htmx else None
    membership = Membership.objects.of_or_404(request.user, pk)
    campaign = membership.campaign
    runs = membership.role in IMP_ROLES
    if request.htmx:
        # The poll's version, read for the campaign's system (a member's), or now.
        version = polled or party_version(request.user, pk, campaign.system)
        unchanged_since(request, version, label=campaign.system)
    context = {
        "campaign": campaign, "membership": membership, "runs": runs,
        "party": _party(campaign, full=runs),
        "ritual_templates": rituals.of(campaign.system).templates,
        "ritual_labels": rituals.labels(campaign.system),
    }
    if request.htmx:
        return render(request, f"{DASHBOARD}#party-dashboard", context)
    sessions = list(campaign.sessions.order_by("-number")[:RECENT_SESSIONS])
    context["sessions"] = sessions
    context["highlights"] = rituals.of(campaign.system).highlights
    context["invitations"] = (
        list(campaign.invitations.filter(revoked_at=None)) if runs else [])
    context["can_bring"] = True  # the bring page also builds and duplicates
    context["recap_session"] = (campaign.sessions.exclude(recap="").order_by("-number")
                                .only("campaign_id", "number", "date", "recap").first())
    context["mine"] = _my_characters(context["party"], request.user,
                                     sessions[0] if sessions else None)
    return render(request, DASHBOARD, context)


def _my_characters(party: list[dict], user, session: Session | None) -> list[dict]:
    """The user's own characters at the table, each with what it may do in the latest
    session: its turns and what the system's ritual lets it do next (Eldritch Gambit:
    invest one XP in its Quest once its Highlights are told). Three queries at most,
    whatever the party."""
    mine = [dict(row) for row in party if row["character"].owner_id == user.pk]
    if not mine or session is None:
        return mine
    pks = [row["character"].pk for row in mine]
    turns = dict(session.highlights.filter(character_id__in=pks, undone_at__isnull=True)
                 .values("character_id")
                 .annotate(n=Count("pk")).values_list("character_id", "n"))
    absent = set(session.absences.filter(character_id__in=pks)
                 .values_list("character_id", flat=True))
    ritual = rituals.of(session.campaign.system)
    steps = ritual.member_context(session, [row["character"] for row in mine])
    highlights = ritual.highlights and session.has_ritual
    for row in mine:
        character = row["character"]
        taken = turns.get(character.pk, 0)
        row["session"] = session
        row["absent"] = character.pk in absent
        row["closed"] = not session.ritual_open
        row["turns_left"] = max(session.highlight_rounds - taken, 0) if highlights else 0
        row["step"] = steps.get(character.pk, {})
    return mine


@login_required
@require_POST
def invitation_create(request: HttpRequest, pk: int) -> HttpResponse:
    membership = Membership.objects.of_or_404(request.user, pk)
    _require_runs(membership)
    services.invitation_create(campaign=membership.campaign, by=request.user)
    messages.success(request, "A new invitation link is ready: share it with your players.")
    return redirect(reverse("campaigns:detail", args=[pk]) + "#invitations")


@login_required
@require_POST
def invitation_revoke(request: HttpRequest, pk: int, invitation_pk: int) -> HttpResponse:
    membership = Membership.objects.of_or_404(request.user, pk)
    _require_runs(membership)
    invitation = get_object_or_404(Invitation, pk=invitation_pk, campaign_id=pk)
    services.invitation_revoke(invitation=invitation, by=request.user)
    messages.success(request, "The invitation link no longer works.")
    return redirect(reverse("campaigns:detail", args=[pk]) + "#invitations")


@login_required
@require_http_methods(["GET", "POST"])
def campaign_join(request: HttpRequest, code: str) -> HttpResponse:
    """The invitation: join as a player, then, on this same page, every way to bring a
    character (bring, build, duplicate). An Imp or co-Imp goes to the campaign."""
    invitation = get_object_or_404(Invitation.objects.select_related("campaign"), code=code)
    campaign = invitation.campaign
    role = Membership.objects.role_of(request.user, campaign)
    if role in IMP_ROLES:
        return redirect(campaign)
    if request.method == "POST" and role is None:
        try:
            services.invitation_accept(code=code, user=request.user)
        except CampaignError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, f"Welcome to {campaign.name}. Now bring a character "
                                      "to the table.")
            return redirect(invitation)
    elif request.method == "POST":
        return redirect(invitation)  # joined already (a double click): show the way on
    context = {"campaign": campaign, "invitation": invitation, "member": role is not None}
    if role is not None:
        context["ways"] = selectors.ways_forward(campaign, request.user)
    status = 200 if role is not None or invitation.is_active else 410
    return render(request, "campaigns/campaign_join.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def character_bring(request: HttpRequest, pk: int) -> HttpResponse:
    """Bring one of the member's characters (one click per character). The same
    character twice is brought once."""
    membership = Membership.objects.of_or_404(request.user, pk)
    campaign = membership.campaign
    form = BringCharacterForm(request.POST or None, user=request.user, campaign=campaign)
    if request.method == "POST" and form.is_valid():
        try:
            character = services.character_join(
                campaign=campaign, character=form.cleaned_data["character"], by=request.user)
        except CampaignError as error:
            add_service_error(form, error)
        else:
            messages.success(request, f"{character.display_name} joined {campaign.name}.")
            return redirect(campaign)
    return render(request, "campaigns/character_bring.html", {
        "campaign": campaign, "form": form, "ways": selectors.ways_forward(campaign, request.user),
    })


@login_required
@require_POST
def character_duplicate_join(request: HttpRequest, pk: int) -> HttpResponse:
    """A copy of one of the member's characters joins the campaign (the original stays
    where it plays). A double click makes one copy (the form's request key)."""
    membership = Membership.objects.of_or_404(request.user, pk)
    campaign = membership.campaign
    form = CharacterActionForm(request.POST)
    if not form.is_valid():
        raise SuspiciousOperation("Incomplete duplicate form.")
    character = get_object_or_404(Character, pk=form.cleaned_data["character"],
                                  owner=request.user)
    key = form.cleaned_data["request_key"] or None
    try:
        copy = services.character_duplicate_join(
            campaign=campaign, character=character, by=request.user, request_key=key)
    except CampaignError as error:
        # Two clicks at the same instant: the other one made the copy.
        made = key and XpEntry.objects.filter(
            request_key=key, kind=XpEntry.Kind.JOINED, character__owner=request.user,
            character__campaign=campaign).exists()
        if not made:
            messages.error(request, error.message)
            return redirect("campaigns:bring", pk)
        return redirect(campaign)
    messages.success(request, f"{copy.display_name} joined {campaign.name}, a copy of "
                              f"{character.display_name} at its Level and XP.")
    return redirect(campaign)


@login_required
@require_http_methods(["GET", "POST"])
def session_list(request: HttpRequest, pk: int) -> HttpResponse:
    membership = Membership.objects.of_or_404(request.user, pk)
    campaign = membership.campaign
    runs = membership.role in IMP_ROLES
    form = None
    if runs:
        form = SessionForm(system=campaign.system, initial={
            "date": timezone.localdate(), "highlight_rounds": campaign.default_highlight_rounds,
            "request_key": uuid.uuid4().hex,
        })
    if request.method == "POST":
        _require_runs(membership)
        form = SessionForm(request.POST, system=campaign.system)
        if form.is_valid():
            data = dict(form.cleaned_data)
            data["request_key"] = data["request_key"] or None
            try:
                session = services.session_start(campaign=campaign, by=request.user, **data)
            except CampaignError as error:
                add_service_error(form, error)
            else:
                messages.success(request, f"Session {session.number} started.")
                return redirect(session)
    # Newest first, a page at a time (campaigns/paging.py); junk ?page= is still a page.
    page = paging.page_of(campaign.sessions.order_by("-number"), request.GET.get("page"),
                          per_page=paging.LOG_PAGE_SIZE)
    return render(request, "campaigns/session_list.html", {
        "campaign": campaign, "runs": runs, "sessions": page.object_list, "page": page,
        "next_number": (latest.number + 1) if (latest := latest_session(campaign)) else 1,
        "form": form,
    })


@login_required
@require_http_methods(["GET", "POST"])
def session_detail(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The session: the ritual (Highlights, then the system's steps: Eldritch Gambit's
    Quest XP), the recap and the Imp's notes."""
    membership = Membership.objects.of_or_404(request.user, pk)
    campaign = membership.campaign
    session = get_object_or_404(Session, campaign=campaign, number=number)
    session.campaign = campaign
    runs = membership.role in IMP_ROLES
    form = SessionNotesForm(initial={"notes": session.notes, "recap": session.recap}) if runs \
        else None
    if request.method == "POST" and request.POST.get("action") == "draft":
        # Not saved: the Imp edits the draft, then saves.
        _require_runs(membership)
        data = request.POST.copy()
        draft = services.recap_draft(session)
        if draft:
            data["recap"] = draft
            messages.info(request, "The recap is drafted from this session's Highlights: "
                                   "edit it, then save.")
        else:
            messages.info(request, "No Highlight has been told this session yet.")
        form = SessionNotesForm(data)
    elif request.method == "POST":
        _require_runs(membership)
        form = SessionNotesForm(request.POST)
        if form.is_valid():
            try:
                services.session_update(session=session, by=request.user, **form.cleaned_data)
            except CampaignError as error:
                add_service_error(form, error)
            else:
                messages.success(request, "The session was saved.")
                return redirect(session)
    return render(request, "campaigns/session_detail.html", {
        "campaign": campaign, "session": session, "runs": runs, "form": form,
        "ritual": selectors.ritual_table(session, request.user, runs=runs),
        "confirm": parse_id(request.GET.get("confirm", "")),
    })


def session_action(request: HttpRequest, pk: int, number: int, form_class, *,
                    imp_only: bool = True):
    """The session, valid form data and character of a ritual POST (403 for a player
    where only Imps act, 404 for a character not in the campaign, 400 for a broken
    form)."""
    membership = Membership.objects.of_or_404(request.user, pk)
    if imp_only:
        _require_runs(membership)
    session = get_object_or_404(Session, campaign=membership.campaign, number=number)
    session.campaign = membership.campaign
    form = form_class(request.POST)
    if not form.is_valid():
        raise SuspiciousOperation("Incomplete ritual form.")
    character = get_object_or_404(_known_characters(membership.campaign),
                                  pk=form.cleaned_data["character"])
    return session, form.cleaned_data, character


def _known_characters(campaign: Campaign):
    """The characters in the campaign and those who left it (they have a history in
    it, generic or the system's ritual.history): the services refuse to act for the
    latter, with a message. Others are 404. Each comes with its build (they are all of
    the campaign's game system)."""
    return campaign.game_system.character_model.objects.filter(
        Q(campaign=campaign) | rituals.of(campaign.system).history(campaign)
        | Q(pk__in=Highlight.objects.filter(session__campaign=campaign)
            .values("character_id"))
        | Q(pk__in=Absence.objects.filter(session__campaign=campaign)
            .values("character_id"))
    )


def _back(request: HttpRequest, campaign_id: int, default: str) -> str:
    """Where a POST returns: the campaign page it came from (`next`), else `default`."""
    target = request.POST.get("next", "")
    prefix = reverse("campaigns:detail", args=[campaign_id])
    if target.startswith(prefix) and url_has_allowed_host_and_scheme(
            target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return target
    return default


def done(request: HttpRequest, session: Session, action) -> HttpResponse:
    try:
        message = action()
    except CampaignError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, message)
    return redirect(_back(request, session.campaign_id,
                          session.get_absolute_url() + "#ritual"))


@login_required
@require_POST
def highlight_turn(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    session, data, character = session_action(request, pk, number, TurnForm)

    def act():
        if data["action"] == "pass":
            services.highlight_pass(session=session, character=character, by=request.user,
                                    request_key=data["request_key"] or None)
            return f"{character.display_name} passes."
        services.highlight_award(session=session, character=character, by=request.user,
                                 text=data["text"], about_other=data["about_other"],
                                 request_key=data["request_key"] or None)
        message = f"{character.display_name} gets 1 XP."
        return message + rituals.of(character.system).waiting_note(character)

    return done(request, session, act)


@login_required
@require_POST
def absence_set(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    session, _data, character = session_action(request, pk, number, CharacterActionForm)
    absent = request.POST.get("absent") == "1"

    def act():
        services.absence_set(session=session, character=character, absent=absent,
                             by=request.user)
        return f"{character.display_name} is marked {'absent' if absent else 'present'}."

    return done(request, session, act)


@login_required
@require_POST
def ritual_close(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The Imp ends the ritual: what the XP buys, for everyone (Eldritch Gambit's XP
    diagram: "Level Up?"); the system's ritual says what was bought."""
    membership = Membership.objects.of_or_404(request.user, pk)
    _require_runs(membership)
    session = get_object_or_404(Session, campaign=membership.campaign, number=number)

    def act():
        bought = services.ritual_close(session=session, by=request.user)
        return rituals.of(membership.campaign.system).close_message(session, bought)

    return done(request, session, act)


@login_required
@require_POST
def xp_entry_reverse(request: HttpRequest, pk: int, entry_pk: int, *, number: int | None = None,
                     character_pk: int | None = None) -> HttpResponse:
    """Undo an XP entry, the Imps only, from the session's ritual (`number`: an entry of a
    character in the campaign) or from a character's ledger (`character_pk`: one of its
    entries). If it bought a Level, the page it came from asks to confirm undoing the
    Level too (?confirm=<entry>)."""
    if character_pk is None:
        membership = Membership.objects.of_or_404(request.user, pk)
        entries = XpEntry.objects.filter(character__campaign=membership.campaign)
    else:
        membership, character = campaign_character(request, pk, character_pk)
        entries = character.xp_entries.all()
    _require_runs(membership)
    session = None
    if number is not None:
        session = get_object_or_404(Session, campaign=membership.campaign, number=number)
        back, anchor = session.get_absolute_url(), "#ritual"
    else:
        back, anchor = character_url(pk, character_pk), "#ledger"
    entry = get_object_or_404(entries, pk=entry_pk)
    was_closed = session is not None and not session.ritual_open
    try:
        services.xp_entry_reverse(entry=entry, by=request.user,
                                  confirm_level_undo=request.POST.get("confirm_level_undo") == "1")
    except CampaignError as error:
        messages.error(request, error.message)
        if error.code == "level_undo_needed":
            return redirect(f"{back}?confirm={entry.pk}{anchor}")
    else:
        messages.success(request, _undone_message(entry, session, was_closed))
    return redirect(back + anchor)


def _undone_message(entry: XpEntry, session: Session | None, was_closed: bool) -> str:
    """What an undo says; from the session's ritual (`session`), also what reopened."""
    message = f"{entry.get_kind_display()} undone."
    if session is None:
        return message
    if entry.kind == XpEntry.Kind.HIGHLIGHT:
        message += (f" {entry.character.display_name}'s turn is open again: retell it or "
                    "pass.")
    session.refresh_from_db(fields=["ritual_closed_at"])
    if was_closed and session.ritual_open:
        message += f" Session {session.number}'s ritual is open again until you close it."
    return message


# -- the table: members, co-Imps, handing over, leaving ------------------------------------


@login_required
@require_GET
def campaign_members(request: HttpRequest, pk: int) -> HttpResponse:
    """Who sits at the table, their roles and characters. The Imp names and removes
    co-Imps, hands the campaign over and takes players or characters out; a player
    takes their character out or leaves."""
    membership = Membership.objects.of_or_404(request.user, pk)
    campaign = membership.campaign
    members = list(campaign.memberships.select_related("user").order_by("joined_at", "pk"))
    characters: dict[int, list[Character]] = {}
    for character in Character.objects.filter(campaign=campaign).order_by("name", "pk"):
        characters.setdefault(character.owner_id, []).append(character)
    rows = [{"membership": m, "characters": characters.get(m.user_id, [])} for m in members]
    return render(request, "campaigns/campaign_members.html", {
        "campaign": campaign, "membership": membership, "rows": rows,
        "runs": membership.role in IMP_ROLES,
        "is_imp": membership.role == Role.IMP,
    })


def _member_action(request: HttpRequest, pk: int, user_pk: int, action, *,
                   self_ok: bool = False, back: str | None = None) -> HttpResponse:
    """Run a service about one member: the Imp's decision (403 for anyone else), or,
    where self_ok, the member's own. A refusal comes back as a message."""
    membership = Membership.objects.of_or_404(request.user, pk)
    target = get_object_or_404(Membership.objects.select_related("user"), campaign_id=pk,
                               user_id=user_pk)
    if membership.role != Role.IMP and not (self_ok and target.user_id == request.user.pk):
        raise PermissionDenied("Only the campaign's Imp may do that.")
    try:
        message = action(membership.campaign, target.user)
    except CampaignError as error:
        messages.error(request, error.message)
        back = None
    else:
        messages.success(request, message)
    return redirect(back or reverse("campaigns:members", args=[pk]))


@login_required
@require_POST
def co_imp_add(request: HttpRequest, pk: int, user_pk: int) -> HttpResponse:
    def act(campaign, user):
        services.co_imp_add(campaign=campaign, user=user, by=request.user)
        return f"{user.get_username()} is now a co-Imp."

    return _member_action(request, pk, user_pk, act)


@login_required
@require_POST
def co_imp_remove(request: HttpRequest, pk: int, user_pk: int) -> HttpResponse:
    def act(campaign, user):
        services.co_imp_remove(campaign=campaign, user=user, by=request.user)
        return f"{user.get_username()} is a player again."

    return _member_action(request, pk, user_pk, act, self_ok=True)


@login_required
@require_POST
def membership_leave(request: HttpRequest, pk: int, user_pk: int) -> HttpResponse:
    leaving = user_pk == request.user.pk

    def act(campaign, user):
        services.membership_leave(campaign=campaign, user=user, by=request.user)
        if leaving:
            return f"You left {campaign.name}; your characters' history stays with them."
        return f"{user.get_username()} left the table with their characters."

    return _member_action(request, pk, user_pk, act, self_ok=True,
                          back=reverse("campaigns:list") if leaving else None)


@login_required
@require_http_methods(["GET", "POST"])
def imp_handover(request: HttpRequest, pk: int) -> HttpResponse:
    """The Imp hands the campaign to another member and stays on as a co-Imp."""
    membership = Membership.objects.of_or_404(request.user, pk)
    campaign = membership.campaign
    if membership.role != Role.IMP:
        raise PermissionDenied("Only the campaign's Imp may hand it over.")
    form = HandoverForm(request.POST or None, campaign=campaign)
    if request.method == "POST" and form.is_valid():
        new_imp = form.cleaned_data["user"]
        try:
            services.imp_handover(campaign=campaign, to_user=new_imp, by=request.user)
        except CampaignError as error:
            add_service_error(form, error)
        else:
            messages.success(request, f"{new_imp.get_username()} is now the Imp of "
                                      f"{campaign.name}; you stay on as a co-Imp.")
            return redirect(campaign)
    return render(request, "campaigns/imp_handover.html",
                  {"campaign": campaign, "form": form})


# -- one character at the table: Quests, Highlights, XP ledger -----------------------------


def campaign_character(request: HttpRequest, pk: int,
                        character_pk: int) -> tuple[Membership, Character]:
    """The character in (or once in) the campaign, for its player and the Imps: 404 for
    non-members and other characters, 403 for the other players."""
    membership = Membership.objects.of_or_404(request.user, pk)
    character = get_object_or_404(
        _known_characters(membership.campaign).with_progress().select_related("owner"),
        pk=character_pk)
    if membership.role not in IMP_ROLES and character.owner_id != request.user.pk:
        raise PermissionDenied(f"Only its player and the campaign's "
                               f"{membership.campaign.game_system.game_master}s see a "
                               "character's ledger.")
    return membership, character


def latest_session(campaign: Campaign) -> Session | None:
    return campaign.sessions.order_by("-number").first()


def character_page(request: HttpRequest, membership: Membership, character: Character, *,
                   xp_form: XpAdjustForm | None = None, status: int = 200,
                   **forms) -> HttpResponse:
    """The campaign's character page; `forms` are the system's own bound forms, for its
    ritual's character_context (Eldritch Gambit: quest_form)."""
    campaign = membership.campaign
    runs = membership.role in IMP_ROLES
    ritual = rituals.of(campaign.system)
    items = list(character.items.select_related("catalog_item"))
    highlights = list(character.highlights.filter(session__campaign=campaign)
                      .select_related("session", "xp_entry__reversed_by")
                      .order_by("-session__number", "round_number"))
    # The ledger only grows: its newest entries, and "Older" (?before=<pk>) for the rest.
    ledger = paging.page_before(
        character.xp_entries.select_related("created_by", "reversed_by"),
        request.GET.get("before"))
    session = latest_session(campaign)
    party = ritual.party_context(campaign) if character.campaign_id == campaign.pk else {}
    mine = _my_characters([{"character": character,
                            "ritual": party.get(character.pk, {})}],
                          character.owner, session)[0]
    return render(request, "campaigns/character_detail.html", {
        "campaign": campaign, "membership": membership, "runs": runs,
        "character": character, "sheet": campaign.game_system.sheet(character, items),
        "in_campaign": character.campaign_id == campaign.pk,
        "is_owner": character.owner_id == request.user.pk,
        "highlights": highlights, "entries": ledger.rows, "ledger": ledger,
        "reversible": services.REVERSIBLE,
        "mine": mine, "session": session,
        "ritual_templates": ritual.templates,
        **ritual.character_context(character, membership, **forms),
        "xp_form": xp_form or XpAdjustForm(initial={"request_key": uuid.uuid4().hex}),
        "confirm": parse_id(request.GET.get("confirm", "")),
    }, status=status)


@login_required
@require_GET
def character_detail(request: HttpRequest, pk: int, character_pk: int) -> HttpResponse:
    """A character's campaign view: Level and XP from the ledger, the Quest and its
    history, its Highlights, and the XP ledger; the player invests and changes the
    Quest here, the Imp adjusts XP and undoes entries."""
    membership, character = campaign_character(request, pk, character_pk)
    return character_page(request, membership, character)


def character_url(pk: int, character_pk: int) -> str:
    return reverse("campaigns:character", args=[pk, character_pk])


@login_required
@require_POST
def xp_adjust(request: HttpRequest, pk: int, character_pk: int) -> HttpResponse:
    membership, character = campaign_character(request, pk, character_pk)
    _require_runs(membership)
    form = XpAdjustForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            services.xp_adjust(character=character, xp_change=data["xp_change"],
                               note=data["note"], by=request.user,
                               request_key=data["request_key"] or None)
        except CampaignError as error:
            add_service_error(form, error)
        else:
            held = rituals.of(character.system).held_note(character)
            messages.success(request, f"{character.display_name}: {data['xp_change']:+d} XP "
                                      f"({data['note']}).{held}")
            return redirect(character_url(pk, character_pk) + "#ledger")
    return character_page(request, membership, character, xp_form=form)


@login_required
@require_POST
def character_leave(request: HttpRequest, pk: int, character_pk: int) -> HttpResponse:
    """The character leaves the campaign (its player decides, or an Imp)."""
    membership, character = campaign_character(request, pk, character_pk)
    try:
        services.character_leave(character=character, by=request.user)
    except CampaignError as error:
        messages.error(request, error.message)
        return redirect(character_url(pk, character_pk))
    messages.success(request, f"{character.display_name} left {membership.campaign.name}; "
                              "its history stays with it.")
    return redirect(_back(request, pk, membership.campaign.get_absolute_url()))


# -- the Highlights log ---------------------------------------------------------------------

LOG_SESSIONS_PER_PAGE = 10
# A character who tells fewer than two Highlights in three turns is flagged: "if they
# bring up too few, they may not be getting enough chances to shine".
FEW_HIGHLIGHTS_SHARE = 2 / 3


@login_required
@require_GET
def highlight_log(request: HttpRequest, pk: int) -> HttpResponse:
    """Every Highlight ever told at the table, by character (with counts, so the Imp
    sees who brings up too few) and by session (newest first, ten to a page). Imps
    only. A fixed number of queries, whatever the sessions and characters."""
    membership = Membership.objects.of_or_404(request.user, pk)
    _require_runs(membership)
    campaign = membership.campaign
    standing = Q(highlights__awarded=True,
                 highlights__xp_entry__reversed_by__isnull=True)
    in_campaign = Q(highlights__session__campaign=campaign)
    by_character = list(
        Character.objects.filter(Q(campaign=campaign) | Q(
            pk__in=Highlight.objects.filter(session__campaign=campaign).values("character_id")))
        .select_related("owner")
        .annotate(
            told=Count("highlights", filter=in_campaign & standing),
            passed=Count("highlights", filter=in_campaign & Q(highlights__awarded=False)),
            about_other=Count("highlights", filter=in_campaign & standing
                              & Q(highlights__about_other=True)),
            undone=Count("highlights", filter=in_campaign & Q(
                highlights__awarded=True, highlights__xp_entry__reversed_by__isnull=False)),
            sessions_told=Count("highlights__session", filter=in_campaign, distinct=True),
        )
        .order_by("name", "pk"))
    for character in by_character:
        # An undone Highlight gave its turn back (it was retold or passed).
        turns = character.told + character.passed
        character.turns = turns
        character.per_session = (character.told / character.sessions_told
                                 if character.sessions_told else 0)
        character.few = bool(turns) and character.told < FEW_HIGHLIGHTS_SHARE * turns
        character.left = character.campaign_id != campaign.pk
    sessions = campaign.sessions.filter(number__gt=1).order_by("-number")
    paginator = Paginator(sessions, LOG_SESSIONS_PER_PAGE)
    page = paginator.get_page(request.GET.get("page"))
    shown = list(page.object_list)
    turns_by_session: dict[int, list[Highlight]] = {s.pk: [] for s in shown}
    for highlight in (Highlight.objects.filter(session__in=shown)
                      .select_related("character", "xp_entry__reversed_by")
                      .order_by("round_number", "character__name", "pk")):
        turns_by_session[highlight.session_id].append(highlight)
    for session in shown:
        session.turns = turns_by_session[session.pk]
        session.told = sum(1 for h in session.turns if h.awarded
                           and not hasattr(h.xp_entry, "reversed_by"))
    total = sum(c.told for c in by_character)
    return render(request, "campaigns/highlight_log.html", {
        "campaign": campaign, "membership": membership, "by_character": by_character,
        "page": page, "sessions": shown, "total": total,
        "few_share": "two in three",
    })
