"""The Initiative tracker's pages, the half every system's tracker shares (volleyball
Initiative, rules/engine/volleyball.py): the list of fights and its create form, the
tracker (the game master's) and the live view (the players', polled: campaigns.polling),
adding the party, taking a combatant out, the steps of the fight, a combatant's row
forms, undo.

The game master and co-GMs write; every POST goes through the system's tracker service
(one locked transaction, checked against the page's version) and redirects back.
Non-members and other systems' campaigns get 404; a player gets 403 for every write.

A system configures it with a subclass of InitiativeViews (its models, forms, service,
engine and templates; what its tracker shows: `context`) and serves the instance's
views (campaigns/systems/<system>/initiative_views.py). Generic: imports no game system
(pyproject.toml, import-linter).
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from types import ModuleType

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.decorators import method_decorator
from django.views.decorators.http import require_http_methods, require_POST

from config.parsing import parse_id
from rules.engine.volleyball import FOES, InitiativeError, TieError

from . import paging
from .forms import add_service_error
from .models import IMP_ROLES
from .polling import conditional_poll, member_row, members_of, unchanged_since
from .services import CampaignError
from .views import _require_runs

_reads = method_decorator([login_required, require_http_methods(["GET", "POST"])])
_writes = method_decorator([login_required, require_POST])


def version_of(request: HttpRequest) -> int | None:
    """The tracker's version the page was drawn at (None when not a number)."""
    try:
        return int(request.POST.get("version", ""))
    except ValueError:  # also a digit string too long for int()
        return None


def back(encounter, anchor: str = "") -> HttpResponse:
    return redirect(encounter.get_absolute_url() + (f"#{anchor}" if anchor else ""))


def keys(values) -> list[str]:
    """The posted combatant keys that can be one (ids)."""
    return [v for v in values if parse_id(v) is not None]


# The newest lines of a fight's log a page shows; "Older" (?before=N) pages back.
LOG_SHOWN = paging.FOLD_AT


def log_page(events, before=None) -> paging.Slice:
    """The newest LOG_SHOWN of `events` (the fight's log, oldest first) older than line
    `before` (its 1-based place in `events`; junk or None: the newest), newest first."""
    numbered = list(enumerate(events, 1))[::-1]
    page = paging.slice_before(numbered, before, size=LOG_SHOWN, key=lambda line: line[0])
    return replace(page, rows=[event for _, event in page.rows])


def tracker_context(membership, encounter, tracker, *, passes, urls: str,
                    templates: str) -> dict:
    """What every tracker shows: the fight, its rows and who may do what now; where its
    URLs (`urls`: the names' common start) and its partial templates are
    (templates/campaigns/initiative/: the shared partials include the system's)."""
    state = tracker.state
    return {
        "initiative_urls": urls, "initiative_templates": templates,
        "campaign": membership.campaign, "membership": membership, "encounter": encounter,
        "tracker": tracker, "state": state, "runs": membership.role in IMP_ROLES,
        "rows": tracker.rows, "holder": tracker.holder,
        "passes": [tracker.row(k) for k in passes],
        "bound": [tracker.row(k) for k in state.bound_targets],
        "deciding": [tracker.row(f.key) for f in state.deciding],
        "waiters": [tracker.row(f.key) for f in state.waiters],
        "with_action": [tracker.row(f.key) for f in state.with_action],
        # The whole log, for encounter_detail to page (a player's view hides some lines
        # first); "log" and "log_page" are its newest page.
        "log_all": list(state.log), **_with_log(log_page(state.log)),
        "steps": encounter.steps.count(),
    }


def _with_log(page: paging.Slice) -> dict:
    return {"log": page.rows, "log_page": page}


def missing_party(tracker, characters) -> list:
    """The characters (a queryset of the campaign's) not yet in the fight."""
    present = {row.combatant.character_id for row in tracker.rows}
    return [c for c in characters.order_by("name", "pk") if c.pk not in present]


@cache
def _live_rows(encounter_model, system: str):
    """A live view's poll (campaigns.polling.members_of): the member's role in a campaign
    of game system `system`, the encounter and its version."""
    return members_of(encounter_model.objects.all(), system=system).values_list(
        "poll_role", "pk", "version")


class InitiativeViews:
    """One system's tracker pages. A subclass names:

    - encounter_model, tracker_service (create, load, add_characters, remove, step,
      undo), engine (who_triggers), membership_or_404 (the system's campaign or 404);
    - encounter_form (EncounterForm: name, session), foe_form (its foes' or NPCs' form),
      foe_form_name (its name in the context), foe_anchor (where an added foe shows);
    - templates (list, tracker, live; template_dir: its partials), url_prefix (its URL
      names' common start), poll_key (what sets its polls apart), system (its key),
      hp_events (the log lines with numbers the players do not see of a foe),
      trigger_choice (the posted name of the game master's pick in a tie), typed (the
      step form's fields kept as typed on a refusal);
    and writes context(), party(), add_foe() and step_payload().
    """

    encounter_model: type
    tracker_service: ModuleType
    engine: ModuleType
    encounter_form: type
    foe_form: type
    foe_form_name: str
    foe_anchor: str
    list_template: str
    tracker_template: str
    live_template: str
    url_prefix: str
    template_dir: str
    poll_key: tuple = ()
    system: str
    hp_events: tuple[str, ...]
    trigger_choice: str
    typed: tuple[str, ...] = ("action",)

    # -- the system's part -------------------------------------------------------------

    def membership_or_404(self, user, pk: int):
        raise NotImplementedError

    def context(self, request, membership, encounter, **extra) -> dict:
        """Everything the tracker shows (tracker_context and the system's own)."""
        raise NotImplementedError

    def party(self, campaign):
        """The campaign's characters that may join the party side."""
        raise NotImplementedError

    def add_foe(self, encounter, version, data: dict, by):
        """Add a foe (or NPC) from the foe form's cleaned data; the new combatant."""
        raise NotImplementedError

    def step_payload(self, post, kind: str, one: str) -> dict:
        """The engine step's payload from the posted form (numbers checked here, the
        rules by the engine); raises CampaignError with the field, Http404 for no such
        step."""
        raise NotImplementedError

    def tracker_context(self, membership, encounter, tracker, *, passes) -> dict:
        return tracker_context(membership, encounter, tracker, passes=passes,
                               urls=self.url_prefix, templates=self.template_dir)

    # -- reading -----------------------------------------------------------------------

    def encounter(self, membership, encounter_pk: int):
        return get_object_or_404(self.encounter_model, pk=encounter_pk,
                                 campaign=membership.campaign)

    def write(self, request, pk, encounter_pk):
        membership = self.membership_or_404(request.user, pk)
        _require_runs(membership)
        return membership, self.encounter(membership, encounter_pk)

    def refused(self, request, membership, encounter, error: CampaignError,
                **extra) -> HttpResponse:
        if error.code == "stale":
            messages.warning(request, error.message)
            return back(encounter)
        context = self.context(request, membership, encounter, **extra)
        context.setdefault("step_error", {"message": error.message, "field": error.field})
        return render(request, self.tracker_template, context, status=400)

    def again(self, request, membership, encounter, **extra) -> HttpResponse:
        """The tracker with a form as typed and its errors."""
        context = self.context(request, membership, encounter, **extra)
        return render(request, self.tracker_template, context, status=400)

    # -- the pages ---------------------------------------------------------------------

    @_reads
    def encounter_list(self, request: HttpRequest, pk: int) -> HttpResponse:
        membership = self.membership_or_404(request.user, pk)
        campaign = membership.campaign
        form = self.encounter_form(campaign=campaign)
        if request.method == "POST":
            _require_runs(membership)
            form = self.encounter_form(request.POST, campaign=campaign)
            if form.is_valid():
                try:
                    encounter = self.tracker_service.create(
                        campaign=campaign, by=request.user, name=form.cleaned_data["name"],
                        session=form.cleaned_data["session"])
                except CampaignError as error:
                    add_service_error(form, error)
                else:
                    messages.success(request,
                                     f"{encounter.name}: add the party and the foes.")
                    return redirect(encounter)
        encounters = (self.encounter_model.objects.filter(campaign=campaign)
                      .select_related("holder", "session").order_by("-created_at", "-pk"))
        return render(request, self.list_template, {
            "campaign": campaign, "membership": membership,
            "runs": membership.role in IMP_ROLES, "form": form, "encounters": encounters,
        }, status=400 if form.errors else 200)

    @method_decorator([login_required, require_http_methods(["GET"]), conditional_poll])
    def encounter_detail(self, request: HttpRequest, pk: int,
                         encounter_pk: int) -> HttpResponse:
        """The game master's tracker; the players' live view (htmx asks for its partial
        every 2 s: 304 while the fight's version stays the same, campaigns.polling)."""
        if request.htmx:  # the poll: the user's role and the fight's version, one query
            row = member_row(_live_rows(self.encounter_model, self.system), request.user,
                             pk=encounter_pk, campaign_id=pk)
            if row is not None and (
                    row[0] not in IMP_ROLES or request.GET.get("view") == "player"):
                unchanged_since(request, *self.poll_key, row[1], row[2], row[0])
        membership = self.membership_or_404(request.user, pk)
        encounter = self.encounter(membership, encounter_pk)
        context = self.context(request, membership, encounter)
        if context["runs"] and request.GET.get("view") == "player":
            context.update(runs=False, preview=True)  # what the players see
        if not context["runs"]:
            # The players see a foe's numbers only as Fallen (or a Mob's members): the
            # log lines with them stay with the game master.
            foes = {row.key for row in context["rows"] if row.fighter.side == FOES}
            context["log_all"] = [event for event in context["log_all"]
                                  if not (event.kind in self.hp_events
                                          and event.actor in foes)]
        context.update(_with_log(log_page(context["log_all"], request.GET.get("before"))))
        if not context["runs"]:
            if request.htmx:
                return render(request, f"{self.live_template}#live", context)
            return render(request, self.live_template, context)
        return render(request, self.tracker_template, context)

    # -- writing -----------------------------------------------------------------------

    @_writes
    def party_add(self, request: HttpRequest, pk: int, encounter_pk: int) -> HttpResponse:
        membership, encounter = self.write(request, pk, encounter_pk)
        characters = self.party(membership.campaign)
        chosen = request.POST.getlist("character")
        if chosen:
            characters = characters.filter(pk__in=[n for c in chosen
                                                   if (n := parse_id(c)) is not None])
        try:
            added = self.tracker_service.add_characters(
                encounter_id=encounter.pk, version=version_of(request),
                characters=list(characters), by=request.user)
        except CampaignError as error:
            return self.refused(request, membership, encounter, error)
        messages.success(request, "Joined the party side: "
                         + ", ".join(c.name for c in added) + ".")
        return back(encounter, "combatants")

    @_writes
    def foe_add(self, request: HttpRequest, pk: int, encounter_pk: int) -> HttpResponse:
        membership, encounter = self.write(request, pk, encounter_pk)
        form = self.foe_form(request.POST)
        if form.is_valid():
            try:
                combatant = self.add_foe(encounter, version_of(request), form.cleaned_data,
                                         request.user)
            except CampaignError as error:
                if error.code == "stale":
                    return self.refused(request, membership, encounter, error)
                add_service_error(form, error)
            else:
                messages.success(request, f"{combatant.name} joined the fight.")
                return back(encounter, self.foe_anchor)
        return self.again(request, membership, encounter, **{self.foe_form_name: form})

    @_writes
    def combatant_remove(self, request: HttpRequest, pk: int, encounter_pk: int,
                         combatant_pk: int) -> HttpResponse:
        membership, encounter = self.write(request, pk, encounter_pk)
        try:
            self.tracker_service.remove(encounter_id=encounter.pk,
                                        version=version_of(request),
                                        combatant_id=combatant_pk)
        except CampaignError as error:
            return self.refused(request, membership, encounter, error)
        messages.success(request, "Taken out of the fight.")
        return back(encounter, "combatants")

    @_writes
    def step(self, request: HttpRequest, pk: int, encounter_pk: int) -> HttpResponse:
        """A step of the fight: the trigger (the engine settles who, the game master
        breaks a tie), or one step_payload() reads."""
        membership, encounter = self.write(request, pk, encounter_pk)
        post = request.POST
        kind = post.get("kind", "")
        one = post.get("key", "")
        typed = {name: post.get(name, "") for name in self.typed}
        try:
            if kind == "trigger":
                state = self.tracker_service.load(encounter).state
                try:
                    key = self.engine.who_triggers(state, keys(post.getlist("claimants")),
                                                   post.get(self.trigger_choice) or None)
                except TieError as tie:
                    return self.refused(
                        request, membership, encounter,
                        CampaignError(tie.message, "tie", field="claimants"),
                        tied=[self.tracker_service.load(encounter).row(k) for k in tie.tied],
                        chosen=post.getlist("claimants"))
                except InitiativeError as error:
                    raise CampaignError(error.message, "trigger",
                                        field="claimants") from None
                payload = {"key": key}
            else:
                payload = self.step_payload(post, kind, one)
            self.tracker_service.step(encounter_id=encounter.pk, version=version_of(request),
                                      kind=kind, payload=payload, by=request.user)
        except CampaignError as error:
            return self.refused(request, membership, encounter, error,
                                step_error={"message": error.message, "field": error.field,
                                            "kind": kind, "key": one, **typed})
        return back(encounter, "next")

    def combatant(self, encounter, combatant_pk: int):
        return get_object_or_404(encounter.combatants, pk=combatant_pk)

    def combatant_view(self, change):
        """Decorate change(request, membership, encounter, combatant) into a POST view of
        one combatant's row (the game master's; 404 for another fight's combatant)."""
        @login_required
        @require_POST
        def view(request: HttpRequest, pk: int, encounter_pk: int,
                 combatant_pk: int) -> HttpResponse:
            membership, encounter = self.write(request, pk, encounter_pk)
            return change(request, membership, encounter,
                          self.combatant(encounter, combatant_pk))
        view.__name__ = view.__qualname__ = change.__name__
        view.__doc__ = change.__doc__
        view.__module__ = change.__module__
        return view

    def combatant_step(self, request, membership, encounter, combatant, form, *, step,
                       row_forms, error_field: str | None = None) -> HttpResponse:
        """A valid `form` becomes the tracker step `step(cleaned_data)` returns, as
        (kind, payload); a refused step's message goes beside its field (`error_field`
        when the form has no such field), and the tracker comes back with the row's
        forms as typed (`row_forms`, as the system's context reads them)."""
        if form.is_valid():
            kind, payload = step(form.cleaned_data)
            try:
                self.tracker_service.step(encounter_id=encounter.pk,
                                          version=version_of(request), kind=kind,
                                          payload=payload, by=request.user)
            except CampaignError as error:
                if error.code == "stale":
                    return self.refused(request, membership, encounter, error)
                form.add_error(error.field if error.field in form.fields else error_field,
                               error.message)
            else:
                return back(encounter, f"edit-{combatant.pk}")
        return self.again(request, membership, encounter,
                          row_forms={combatant.pk: row_forms})

    @_writes
    def undo(self, request: HttpRequest, pk: int, encounter_pk: int) -> HttpResponse:
        membership, encounter = self.write(request, pk, encounter_pk)
        try:
            last = self.tracker_service.undo(encounter_id=encounter.pk,
                                             version=version_of(request))
        except CampaignError as error:
            return self.refused(request, membership, encounter, error)
        messages.success(request, f"Undone: {last.text or last.kind}")
        return back(encounter, "log")

