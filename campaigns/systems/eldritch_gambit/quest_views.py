"""Eldritch Gambit's Quest pages, with the paths and names they always had (urls.py):
after a session's Highlights a character invests one XP in its Quest, the Imp marks a
Quest achieved (double the invested XP back), and its player or an Imp changes or
abandons it. Plain POSTs that redirect back, through the generic campaign pages' flow
(campaigns.views); the writes are in quests.py. A campaign of another game system has
no Quests: 404."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from campaigns import rituals
from campaigns.forms import CharacterActionForm, add_service_error
from campaigns.models import Membership, Session
from campaigns.services import CampaignError
from campaigns.views import (
    _require_runs,
    campaign_character,
    character_page,
    character_url,
    done,
    latest_session,
    session_action,
)
from config.parsing import request_key

from . import quests
from .models import Quest
from .quest_forms import QuestChangeForm
from .ritual import RITUAL, level_waits


def _require_quests(campaign) -> None:
    if rituals.of(campaign.system) is not RITUAL:
        raise Http404("This campaign's game system has no Quests.")


@login_required
@require_POST
def quest_invest(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    session, data, character = session_action(request, pk, number, CharacterActionForm,
                                              imp_only=False)
    _require_quests(session.campaign)

    def act():
        investment = quests.quest_invest(session=session, character=character,
                                         by=request.user,
                                         request_key=data["request_key"] or None)
        return f"{character.display_name} invests 1 XP in {investment.quest.text}."

    return done(request, session, act)


@login_required
@require_POST
def quest_complete(request: HttpRequest, pk: int, number: int, quest_pk: int) -> HttpResponse:
    membership = Membership.objects.of_or_404(request.user, pk)
    _require_runs(membership)
    _require_quests(membership.campaign)
    session = get_object_or_404(Session, campaign=membership.campaign, number=number)
    quest = get_object_or_404(Quest, pk=quest_pk, character__campaign=membership.campaign)

    def act():
        achieved = quests.quest_complete(quest=quest, by=request.user, session=session,
                                         request_key=request_key(request.POST))
        paid = achieved.payout_entry.xp_change if achieved.payout_entry else 0
        return f"Quest achieved: {achieved.text} (+{paid} XP).{level_waits(quest.character)}"

    return done(request, session, act)


@login_required
@require_POST
def quest_change(request: HttpRequest, pk: int, character_pk: int) -> HttpResponse:
    """A new Quest; the active one is abandoned and its invested XP lost."""
    membership, character = campaign_character(request, pk, character_pk)
    _require_quests(membership.campaign)
    form = QuestChangeForm(request.POST)
    if form.is_valid():
        try:
            quest = quests.quest_change(character=character, text=form.cleaned_data["text"],
                                        by=request.user,
                                        session=latest_session(membership.campaign))
        except CampaignError as error:
            add_service_error(form, error)
        else:
            messages.success(request, f"{character.display_name}'s Quest is now: {quest.text}")
            return redirect(character_url(pk, character_pk))
    return character_page(request, membership, character, quest_form=form)


@login_required
@require_POST
def quest_abandon(request: HttpRequest, pk: int, character_pk: int) -> HttpResponse:
    membership, character = campaign_character(request, pk, character_pk)
    _require_quests(membership.campaign)
    quest = get_object_or_404(Quest, character=character, status=Quest.Status.ACTIVE)
    try:
        quests.quest_abandon(quest=quest, by=request.user,
                             session=latest_session(membership.campaign))
    except CampaignError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, f"Quest abandoned: {quest.text}. Its XP is lost; it "
                                  "stays in the history.")
    return redirect(character_url(pk, character_pk))
