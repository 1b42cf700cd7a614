"""METTLE Core's advancement pages (issue 13): a character's Spend XP page (the Attribute
raises with their costs, the Downtime Vouchers and their log, the Contacts lost and
regained), for its player and the Guide(s) of its campaign (anyone else: 404), and the
Guide's make-up XP in the session's ritual. The writes are advancement.py's.

One page, one partial (`advancement`): an htmx POST answers with the partial, a plain
POST redirects back (or re-renders the page with the error beside the field, status
200, what was typed kept)."""

from __future__ import annotations

import uuid

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from campaigns import rituals
from campaigns.forms import CharacterActionForm, add_service_error
from campaigns.services import CampaignError
from campaigns.views import done, session_action
from characters.systems.mettle.builds import sheet_for
from characters.systems.mettle.ledgers import CONTACT_LENGTH, NOTE_LENGTH
from characters.systems.mettle.models import MettleCharacter
from config.parsing import RequestKeyField
from rules.engine.mettle.data import ATTRIBUTE_KEYS, ATTRIBUTE_NAMES

from . import advancement
from .ritual import RITUAL

PAGE = "campaigns/mettle/advancement.html"
VOUCHER_LOG = 50


# -- forms --------------------------------------------------------------------------------


class RaiseForm(forms.Form):
    attribute = forms.ChoiceField(choices=[(key, ATTRIBUTE_NAMES[key]) for key in ATTRIBUTE_KEYS],
                                  error_messages={"invalid_choice": "Choose one of the five "
                                                                    "Attributes."})
    request_key = RequestKeyField()


class VoucherForm(forms.Form):
    note = forms.CharField(max_length=NOTE_LENGTH, required=False, label="Note")
    request_key = RequestKeyField()


class VoucherSpendForm(VoucherForm):
    note = forms.CharField(max_length=NOTE_LENGTH, label="What it reveals they did",
                           error_messages={"required": "Say what the Voucher reveals they "
                                                       "did."})


class ContactForm(forms.Form):
    contact = forms.CharField(max_length=CONTACT_LENGTH, label="Contact",
                              error_messages={"required": "Choose a Contact."})
    note = forms.CharField(max_length=NOTE_LENGTH, required=False, label="Why")


# -- the page -----------------------------------------------------------------------------


def _character(request: HttpRequest, pk: int) -> MettleCharacter:
    """The METTLE character, for its player and the Guides of its campaign (404 else)."""
    return get_object_or_404(
        MettleCharacter.objects.visible_to(request.user).select_related("campaign", "owner"),
        pk=pk)


def page_url(character) -> str:
    return reverse("characters:mettle_advancement", args=[character.pk])


def _raise_rows(character, sheet, xp_left: int) -> list[dict]:
    rows = []
    for key in ATTRIBUTE_KEYS:
        cost = sheet.stats[f"raise_cost_{key}"]
        rows.append({"key": key, "name": ATTRIBUTE_NAMES[key], "pool": sheet.attributes[key],
                     "cost": cost, "affordable": cost.value <= xp_left})
    return rows


def _render(request: HttpRequest, character: MettleCharacter, *, status: int = 200,
            **bound) -> HttpResponse:
    character = MettleCharacter.objects.select_related("campaign", "owner").get(pk=character.pk)
    sheet = sheet_for(character)
    xp_left = sheet.stats["xp_left"].value
    guide = advancement.is_guide(request.user, character.campaign_id)
    states = advancement.contact_states(character)
    key = uuid.uuid4().hex
    contacts = [{"name": name, "event": states.get(name),
                 "lost": states.get(name) is not None and states[name].kind == "lost"}
                for name in character.contacts]
    context = {
        "character": character, "sheet": sheet, "key": key, "xp_left": xp_left, "guide": guide,
        "is_owner": character.owner_id == request.user.pk,
        "raise_rows": _raise_rows(character, sheet, xp_left),
        "raises": list(character.attribute_raises.select_related("created_by", "undone_by")
                       .order_by("-created_at", "-pk")),
        "latest_raise": advancement.latest_raise(character),
        "vouchers": advancement.vouchers(character),
        "voucher_log": list(character.voucher_entries.select_related(
            "created_by", "reversed_by").order_by("-created_at", "-pk")[:VOUCHER_LOG]),
        "contacts": contacts,
        "raise_form": bound.get("raise_form") or RaiseForm(initial={"request_key": key}),
        "grant_form": bound.get("grant_form") or VoucherForm(
            initial={"request_key": f"g{key}"}),
        "spend_form": bound.get("spend_form") or VoucherSpendForm(
            initial={"request_key": f"s{key}"}),
        "contact_form": bound.get("contact_form") or ContactForm(),
        "contact_action": bound.get("contact_action", ""),
    }
    template = f"{PAGE}#advancement" if request.htmx else PAGE
    return render(request, template, context, status=status)


@login_required
@require_GET
def advancement_page(request: HttpRequest, pk: int) -> HttpResponse:
    return _render(request, _character(request, pk))


def _after(request: HttpRequest, character, message: str) -> HttpResponse:
    messages.success(request, message)
    if request.htmx:
        return _render(request, character)
    return redirect(page_url(character))


def _refused(request: HttpRequest, character, error: CampaignError, form: forms.Form,
             name: str, **extra) -> HttpResponse:
    if error.code in ("not_guide", "not_your_character"):
        raise PermissionDenied(error.message)
    add_service_error(form, error)
    return _render(request, character, **{name: form}, **extra)


def _require_guide(request: HttpRequest, character) -> None:
    if not advancement.is_guide(request.user, character.campaign_id):
        raise PermissionDenied("Only the Guide of the character's campaign may do that.")


@login_required
@require_POST
def raise_buy(request: HttpRequest, pk: int) -> HttpResponse:
    character = _character(request, pk)
    form = RaiseForm(request.POST)
    if not form.is_valid():
        return _render(request, character, raise_form=form)
    try:
        bought = advancement.raise_buy(character=character, by=request.user,
                                       attribute=form.cleaned_data["attribute"],
                                       request_key=form.cleaned_data["request_key"] or None)
    except CampaignError as error:
        return _refused(request, character, error, form, "raise_form")
    return _after(request, character,
                  f"{ATTRIBUTE_NAMES[bought.attribute]} is now {bought.before + 1} "
                  f"({bought.cost} XP spent).")


@login_required
@require_POST
def raise_undo(request: HttpRequest, pk: int, raise_pk: int) -> HttpResponse:
    character = _character(request, pk)
    try:
        undone = advancement.raise_undo(character=character, raise_pk=raise_pk, by=request.user)
    except CampaignError as error:
        if error.code in ("not_guide", "not_your_character"):
            raise PermissionDenied(error.message) from error
        if error.code == "no_such_raise":
            raise Http404(error.message) from error
        messages.error(request, error.message)
        return _render(request, character) if request.htmx else redirect(page_url(character))
    return _after(request, character,
                  f"Raise undone: {ATTRIBUTE_NAMES[undone.attribute]} is {undone.before} "
                  f"again ({undone.cost} XP back).")


@login_required
@require_POST
def voucher_grant(request: HttpRequest, pk: int) -> HttpResponse:
    character = _character(request, pk)
    _require_guide(request, character)
    form = VoucherForm(request.POST)
    if not form.is_valid():
        return _render(request, character, grant_form=form)
    try:
        advancement.voucher_grant(character=character, by=request.user,
                                  note=form.cleaned_data["note"],
                                  request_key=form.cleaned_data["request_key"] or None)
    except CampaignError as error:
        return _refused(request, character, error, form, "grant_form")
    return _after(request, character, f"{character.display_name} takes a Downtime Voucher.")


@login_required
@require_POST
def voucher_spend(request: HttpRequest, pk: int) -> HttpResponse:
    character = _character(request, pk)
    form = VoucherSpendForm(request.POST)
    if not form.is_valid():
        return _render(request, character, spend_form=form)
    try:
        advancement.voucher_spend(character=character, by=request.user,
                                  note=form.cleaned_data["note"],
                                  request_key=form.cleaned_data["request_key"] or None)
    except CampaignError as error:
        return _refused(request, character, error, form, "spend_form")
    return _after(request, character, f"{character.display_name} spends a Downtime Voucher.")


@login_required
@require_POST
def voucher_undo(request: HttpRequest, pk: int, entry_pk: int) -> HttpResponse:
    character = _character(request, pk)
    _require_guide(request, character)
    try:
        advancement.voucher_undo(character=character, entry_pk=entry_pk, by=request.user)
    except CampaignError as error:
        if error.code == "no_such_entry":
            raise Http404(error.message) from error
        messages.error(request, error.message)
        return _render(request, character) if request.htmx else redirect(page_url(character))
    return _after(request, character, "Voucher entry undone.")


def _contact_action(request: HttpRequest, pk: int, *, lose: bool) -> HttpResponse:
    character = _character(request, pk)
    _require_guide(request, character)
    form = ContactForm(request.POST)
    action = "lost" if lose else "regained"
    if not form.is_valid():
        return _render(request, character, contact_form=form, contact_action=action)
    service = advancement.contact_lose if lose else advancement.contact_regain
    try:
        event = service(character=character, contact=form.cleaned_data["contact"],
                        note=form.cleaned_data["note"], by=request.user)
    except CampaignError as error:
        return _refused(request, character, error, form, "contact_form",
                        contact_action=action)
    return _after(request, character, f"{event.contact}: {event.get_kind_display().lower()}.")


@login_required
@require_POST
def contact_lose(request: HttpRequest, pk: int) -> HttpResponse:
    return _contact_action(request, pk, lose=True)


@login_required
@require_POST
def contact_regain(request: HttpRequest, pk: int) -> HttpResponse:
    return _contact_action(request, pk, lose=False)


# -- the ritual's make-up XP -------------------------------------------------------------


@login_required
@require_POST
def make_up_award(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    session, data, character = session_action(request, pk, number, CharacterActionForm)
    if rituals.of(session.campaign.system) is not RITUAL:
        raise Http404("This campaign's game system has no make-up XP.")

    def act():
        entry = advancement.make_up_award(session=session, character=character,
                                          by=request.user,
                                          request_key=data["request_key"] or None)
        return f"{character.display_name} gets {entry.xp_change} make-up XP."

    return done(request, session, act)

