"""The Guide's screen of a METTLE Core campaign (next-games.md §1.8, §1.10): the Check
procedure's tables, the Actions' Check pairs, the party at a glance, the NPC pools and the
Faction triangle. The Guide and co-Guides (the campaign's Imp roles) only: a player of the
campaign gets 403, anyone else 404 (as for a campaign of another system). Every POST goes
through guide.py. With htmx (the screen's forms) the answer is the section that changed
(the NPC pools or the Faction triangle, a template partial of the screen) with a notice of
what was done or refused, and a refused form's message beside its field, what was typed
kept; without JavaScript a success redirects back to the screen and a refused form
re-renders it (400). The party card polls every 5 s, answered 304 while nothing it shows
changed (campaigns.polling): the characters, their XP, Credit and raises, their gear."""

from __future__ import annotations

import uuid
from functools import cache

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count, OuterRef, Subquery
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns.forms import add_service_error
from campaigns.models import IMP_ROLES, Campaign, Membership
from campaigns.polling import by_ids, conditional_poll, members_of, unchanged_since
from campaigns.services import CampaignError
from characters.models import Character, InventoryItem, XpEntry
from characters.systems.mettle.builds import for_sheets
from characters.systems.mettle.ledgers import AttributeRaise
from characters.systems.mettle.models import CreditEntry, MettleCharacter
from config.parsing import parse_id
from rules.engine.mettle.data import ACTIONS, ATTRIBUTE_NAMES, DIFFICULTY, EDGE, TWIST_SEEDS
from rules.engine.mettle.guide import FACTION_NAMES, FACTION_TWIST

from . import guide, hazards
from .guide_forms import FactionCheckForm, FactionNameForm, NpcForm, ResourcesForm
from .guide_models import MettleNpc

SCREEN = "campaigns/mettle/guide_screen.html"
METTLE = "mettle-core"


def _key() -> str:
    return uuid.uuid4().hex


def guide_membership(user, pk: int) -> Membership:
    """The Guide's (or a co-Guide's) membership of METTLE campaign `pk`: 404 for a
    non-member or another system's campaign, 403 for a player."""
    membership = Membership.objects.of_or_404(user, pk)
    if membership.campaign.system != METTLE:
        raise Http404("No such page for this campaign's game system.")
    if membership.role not in IMP_ROLES:
        raise PermissionDenied("Only the Guide may open the Guide's screen.")
    return membership


def _screen_url(campaign, anchor: str = "") -> str:
    return reverse("campaigns:mettle_guide", args=[campaign.pk]) + (f"#{anchor}" if anchor
                                                                     else "")


def _party(campaign) -> list[dict]:
    """Each character's Mettle, Soak, Credit and statuses, from the engine's sheet."""
    system = campaign.game_system
    rows = []
    characters = for_sheets(system.character_model.objects.filter(campaign=campaign),
                            xp=True)
    for character in characters.order_by("name", "pk"):
        sheet = system.sheet(character, None)
        rows.append({"character": character, "mettle": sheet.value("mettle_current"),
                     "mettle_max": sheet.value("mettle_max"), "soak": sheet.value("soak"),
                     "credit": sheet.value("credit"), "credit_rank": sheet.value("credit_rank"),
                     "statuses": sheet.status_effects})
    return rows


def _difficulty_ladder() -> list[dict]:
    rungs = []
    for i, (low, name) in enumerate(DIFFICULTY):
        high = DIFFICULTY[i + 1][0] - 1 if i + 1 < len(DIFFICULTY) else None
        rungs.append({"low": low, "high": high, "name": name})
    return rungs


def _render(request, membership, *, status: int = 200, section: str | None = None,
            notice: dict | None = None, **forms) -> HttpResponse:
    """The screen, or only `section` ("npcs", "factions", "party") for htmx."""
    campaign = membership.campaign
    forms.setdefault("npc_form", NpcForm(initial={"request_key": _key()}))
    forms.setdefault("name_form", FactionNameForm(prefix="name"))
    forms.setdefault("resources_form",
                     ResourcesForm(prefix="res", initial={"request_key": _key()}))
    forms.setdefault("check_form",
                     FactionCheckForm(prefix="check", initial={"request_key": _key()}))
    party = _party(campaign)
    forms.setdefault("hazard_form", hazards.HazardForm(
        prefix="hz", party=[row["character"] for row in party],
        initial={"request_key": _key()}))
    factions = guide.triangle_view(campaign)
    template = f"{SCREEN}#{section}" if section and request.htmx else SCREEN
    return render(request, template, {
        "campaign": campaign, "membership": membership,
        "difficulty": _difficulty_ladder(), "edge": list(enumerate(EDGE)),
        "actions": [{"action": a, "active": ATTRIBUTE_NAMES[a.active]} for a in ACTIONS],
        "twist_seeds": TWIST_SEEDS, "faction_twist": FACTION_TWIST,
        "party": party,
        "hazards": campaign.mettle_hazards.select_related("character")[:10],
        "afflictions": _afflictions(campaign),
        "npcs": [guide.npc_line(npc) for npc in campaign.mettle_npcs.all()],
        "factions": factions, "faction_names": FACTION_NAMES, "notice": notice,
        **forms,
    }, status=status)


def _afflictions(campaign) -> list[dict]:
    """The afflictions not undone of the party's characters whose ticks the Guide may
    still click: not yet ended, or max Mettle still to recover (hazards.affliction_state),
    each with its buttons' request keys."""
    rows = []
    afflictions = campaign.mettle_hazards.filter(kind="affliction", undone_at__isnull=True,
                                                 character__campaign=campaign)
    for row in (hazards.with_live_ticks(afflictions)
                .select_related("character__mettlecharacter").order_by("-pk")[:20]):
        state = hazards.affliction_state(row)
        lost = row.character.mettlecharacter.mettle_max_lost
        if state["ended"] and not lost:
            continue
        rows.append({"hazard": row, "lost": lost, "lower_key": _key(),
                     "recover_key": _key(), **state})
    return rows


def _done(request, membership, section: str, text: str) -> HttpResponse:
    """A write went through: the section again (htmx) or back to the screen."""
    if request.htmx:
        return _render(request, membership, section=section,
                       notice={"where": section, "text": text})
    messages.success(request, text)
    return redirect(_screen_url(membership.campaign, section))


def _invalid(request, membership, section: str, **forms) -> HttpResponse:
    """A refused form: its section with the errors beside the fields (htmx swaps only a
    200) or the whole screen, 400."""
    if request.htmx:
        return _render(request, membership, section=section, **forms)
    return _render(request, membership, status=400, **forms)


def _newest(model, **live) -> Subquery:
    """The newest row of a party character's ledger (`live`: only those not undone)."""
    return Subquery(model.objects.filter(character=OuterRef("characters__pk"), **live)
                    .order_by("-pk").values("pk")[:1])


@cache
def _party_rows():
    """The party card's version query (campaigns.polling.members_of), the same for every
    poll, so built once: the member's role in a METTLE campaign and a row per gear line
    of each character (a character without any has one row), each row the character's
    whole row (its Mettle, statuses and pools, also when the Initiative or a Hazard writes
    them directly), its newest XP and Credit entries and raises (the ledgers only grow:
    an undone purchase is a reversing entry, an undone raise keeps its row, so the live
    ones are counted), the line's row and its weapon row (the armour worn gives Soak);
    and the rows' sort key (by character and line: campaigns.polling.by_ids)."""
    character_columns = [f"characters__{field.attname}"
                         for field in Character._meta.concrete_fields]
    mettle_columns = [f"characters__mettlecharacter__{field.attname}"
                      for field in MettleCharacter._meta.local_concrete_fields]
    item_columns = [f"characters__items__{field.attname}"
                    for field in InventoryItem._meta.concrete_fields]
    ledgers = ["newest_xp", "newest_credit", "newest_raise", "raises_live"]
    order = by_ids(1, 1 + len(character_columns) + len(mettle_columns) + len(ledgers))
    return members_of(Campaign.objects.annotate(
        newest_xp=_newest(XpEntry), newest_credit=_newest(CreditEntry),
        newest_raise=_newest(AttributeRaise),
        raises_live=Subquery(AttributeRaise.objects.filter(
            character=OuterRef("characters__pk"), undone_at__isnull=True).order_by()
            .values("character").annotate(n=Count("pk")).values("n")),
    ), "", system=METTLE).values_list(
        "poll_role", *character_columns, *mettle_columns, *ledgers, *item_columns,
        "characters__items__mettle_weapon__weapon",
        "characters__items__mettle_weapon__concept"), order


def _party_version(user, pk: int) -> list[tuple]:
    """Who asks, and what the party card shows, as data (_party_rows), in ONE query
    whatever the party and its history; empty unless the user runs METTLE campaign
    `pk`. Its rows are put in order here, as campaigns.polling.party_version's (ORDER
    BY over some sixty columns costs more to write than the sort)."""
    rows, order = _party_rows()
    rows = sorted(rows.filter(poll_member=user.pk, pk=pk), key=order)
    return rows if rows and rows[0][0] in IMP_ROLES else []


@login_required
@require_GET
@conditional_poll
def guide_screen(request: HttpRequest, pk: int) -> HttpResponse:
    if request.htmx and request.htmx.target == "party":
        version = _party_version(request.user, pk)
        if version:  # the Guide's (or a co-Guide's): else guide_membership refuses
            unchanged_since(request, version)
        # Something changed: the party card alone, which shows nothing of the screen's
        # forms, NPCs or Factions (so those are neither built nor read).
        membership = guide_membership(request.user, pk)
        return render(request, f"{SCREEN}#party", {
            "campaign": membership.campaign, "membership": membership,
            "party": _party(membership.campaign)})
    return _render(request, guide_membership(request.user, pk))


def _npc_values(form) -> dict:
    data = form.cleaned_data
    return {"name": data["name"], "pool": data["pool"],
            "higher_attribute": data["higher_attribute"], "higher_pool": data["higher_pool"],
            "armour": data["armour"], "notes": data["notes"]}


@login_required
@require_POST
def npc_add(request: HttpRequest, pk: int) -> HttpResponse:
    membership = guide_membership(request.user, pk)
    form = NpcForm(request.POST)
    if form.is_valid():
        try:
            npc = guide.npc_create(campaign=membership.campaign, by=request.user,
                                   request_key=form.cleaned_data["request_key"] or None,
                                   **_npc_values(form))
        except CampaignError as error:
            add_service_error(form, error)
        else:
            return _done(request, membership, "npcs", f"Saved {guide.npc_line(npc).pool.label}.")
    return _invalid(request, membership, "npcs", npc_form=form)


@login_required
@require_http_methods(["GET", "POST"])
def npc_edit(request: HttpRequest, pk: int, npc_pk: int) -> HttpResponse:
    membership = guide_membership(request.user, pk)
    npc = get_object_or_404(MettleNpc, pk=npc_pk, campaign=membership.campaign)
    if request.method == "POST":
        form = NpcForm(request.POST)
        if form.is_valid():
            try:
                npc = guide.npc_update(npc=npc, by=request.user, **_npc_values(form))
            except CampaignError as error:
                add_service_error(form, error)
            else:
                messages.success(request, f"Saved {guide.npc_line(npc).pool.label}.")
                return redirect(_screen_url(membership.campaign, "npcs"))
    else:
        form = NpcForm(initial={field: getattr(npc, field) for field in (
            "name", "pool", "higher_attribute", "higher_pool", "armour", "notes")})
    return render(request, "campaigns/mettle/npc_edit.html", {
        "campaign": membership.campaign, "npc": npc, "form": form,
    }, status=400 if form.errors else 200)


@login_required
@require_POST
def npc_delete(request: HttpRequest, pk: int, npc_pk: int) -> HttpResponse:
    membership = guide_membership(request.user, pk)
    npc = get_object_or_404(MettleNpc, pk=npc_pk, campaign=membership.campaign)
    guide.npc_delete(npc=npc, by=request.user)
    return _done(request, membership, "npcs", f"Deleted {npc.name}.")


def _refused(request, membership, error: CampaignError, section: str) -> HttpResponse:
    """A refused button (no field to put the message beside): the section with the
    reason (htmx), or back to the screen with it."""
    if request.htmx:
        return _render(request, membership, section=section,
                       notice={"where": section, "text": error.message, "error": True})
    messages.error(request, error.message)
    return redirect(_screen_url(membership.campaign, section))


@login_required
@require_POST
def factions_roll(request: HttpRequest, pk: int) -> HttpResponse:
    membership = guide_membership(request.user, pk)
    guide.triangle_roll(campaign=membership.campaign, by=request.user)
    return _done(request, membership, "factions", "The Faction triangle is rolled.")


@login_required
@require_POST
def faction_name(request: HttpRequest, pk: int) -> HttpResponse:
    membership = guide_membership(request.user, pk)
    form = FactionNameForm(request.POST, prefix="name")
    if form.is_valid():
        try:
            faction = guide.faction_rename(campaign=membership.campaign, by=request.user,
                                           role=form.cleaned_data["role"],
                                           name=form.cleaned_data["name"])
        except CampaignError as error:
            add_service_error(form, error)
        else:
            return _done(request, membership, "factions",
                         f"The {faction.get_role_display()} is now {faction.name}.")
    return _invalid(request, membership, "factions", name_form=form)


@login_required
@require_POST
def resources_change(request: HttpRequest, pk: int) -> HttpResponse:
    membership = guide_membership(request.user, pk)
    form = ResourcesForm(request.POST, prefix="res")
    if form.is_valid():
        data = form.cleaned_data
        try:
            entry = guide.resources_adjust(
                campaign=membership.campaign, by=request.user, role=data["role"],
                change=data["change"], note=data["note"],
                request_key=data["request_key"] or None)
        except CampaignError as error:
            add_service_error(form, error)
        else:
            return _done(request, membership, "factions",
                         f"{entry.faction.get_role_display()}'s Resources {entry.change:+d}.")
    return _invalid(request, membership, "factions", resources_form=form)


@login_required
@require_POST
def resources_undo(request: HttpRequest, pk: int, entry_pk: int) -> HttpResponse:
    membership = guide_membership(request.user, pk)
    try:
        guide.resources_undo(campaign=membership.campaign, by=request.user, entry_pk=entry_pk)
    except CampaignError as error:
        if error.code == "no_such_entry":
            raise Http404(error.message) from error
        return _refused(request, membership, error, "factions")
    return _done(request, membership, "factions", "Undone.")


@login_required
@require_POST
def faction_check(request: HttpRequest, pk: int) -> HttpResponse:
    membership = guide_membership(request.user, pk)
    form = FactionCheckForm(request.POST, prefix="check")
    if form.is_valid():
        data = form.cleaned_data
        try:
            check = guide.faction_check_make(campaign=membership.campaign, by=request.user,
                                             actor=data["actor"], target=data["target"],
                                             request_key=data["request_key"] or None)
        except CampaignError as error:
            add_service_error(form, error)
        else:
            return _done(request, membership, "factions", _check_text(check))
    return _invalid(request, membership, "factions", check_form=form)


def _check_text(check) -> str:
    roll = guide.check_roll(check)
    result = f"{roll.quality} success" if roll.success else "failure"
    return (f"{check.get_actor_display()} vs {check.get_target_display()}: Score "
            f"{roll.score}, Edge {roll.edge}, {result}.")


@login_required
@require_POST
def faction_twist(request: HttpRequest, pk: int, check_pk: int) -> HttpResponse:
    membership = guide_membership(request.user, pk)
    try:
        check = guide.faction_check_twist(campaign=membership.campaign, by=request.user,
                                          check_pk=check_pk)
    except CampaignError as error:
        if error.code == "no_such_check":
            raise Http404(error.message) from error
        return _refused(request, membership, error, "factions")
    return _done(request, membership, "factions", f"Twist: {_check_text(check)}")


@login_required
@require_POST
def faction_turn(request: HttpRequest, pk: int) -> HttpResponse:
    membership = guide_membership(request.user, pk)
    turn = parse_id(request.POST.get("turn", ""))
    if turn is None:
        return _refused(request, membership, CampaignError(
            "Reload the page: it did not say which Faction turn it showed.", "no_turn"),
            "factions")
    try:
        triangle = guide.faction_turn_next(campaign=membership.campaign, by=request.user,
                                           turn=turn)
    except CampaignError as error:
        return _refused(request, membership, error, "factions")
    return _done(request, membership, "factions", f"Faction turn {triangle.turn}.")




@login_required
@require_POST
def hazard_apply(request: HttpRequest, pk: int) -> HttpResponse:
    """The Hazards card: roll a hazard and apply it to a character (hazards.py)."""
    membership = guide_membership(request.user, pk)
    party = (membership.campaign.game_system.character_model.objects
             .filter(campaign=membership.campaign).order_by("name", "pk"))
    form = hazards.HazardForm(request.POST, prefix="hz", party=party)
    if form.is_valid():
        try:
            hazard = hazards.apply(campaign=membership.campaign, by=request.user,
                                   data=form.cleaned_data)
        except CampaignError as error:
            add_service_error(form, error)
        else:
            return _done(request, membership, "hazards", hazard.summary)
    return _invalid(request, membership, "hazards", hazard_form=form)


@login_required
@require_POST
def hazard_undo(request: HttpRequest, pk: int, hazard_pk: int) -> HttpResponse:
    membership = guide_membership(request.user, pk)
    try:
        hazard = hazards.undo(campaign=membership.campaign, by=request.user,
                              hazard_pk=hazard_pk)
    except CampaignError as error:
        if error.code == "no_such_hazard":
            raise Http404(error.message) from error
        return _refused(request, membership, error, "hazards")
    return _done(request, membership, "hazards", f"Undone: {hazard.summary}")


@login_required
@require_POST
def affliction_tick(request: HttpRequest, pk: int, hazard_pk: int) -> HttpResponse:
    """An affliction's tick on the Hazards card: lower max Mettle by 1 or recover 1
    (hazards.affliction_tick); a refusal is the card's notice."""
    membership = guide_membership(request.user, pk)
    form = hazards.TickForm(request.POST)
    if not form.is_valid():
        errors = "; ".join(" ".join(e) for e in form.errors.values())
        return _refused(request, membership, CampaignError(
            f"Reload the page and click again ({errors})", "bad_tick"), "hazards")
    try:
        tick = hazards.affliction_tick(campaign=membership.campaign, by=request.user,
                                       affliction_pk=hazard_pk, step=form.cleaned_data["step"],
                                       request_key=form.cleaned_data["request_key"] or None)
    except CampaignError as error:
        if error.code == "no_such_hazard":
            raise Http404(error.message) from error
        return _refused(request, membership, error, "hazards")
    return _done(request, membership, "hazards", tick.summary)
