"""The Initiative tracker's pages (Scenes > Staging > Initiative).

The Imp and co-Imps create a fight, add the party and the foes, trigger Initiative and
drive it with buttons that offer only the legal next steps; every POST goes through
initiative.py (one locked transaction, checked against the page's version)
and redirects back. Players of the campaign get a read-only page that htmx refreshes
every 2 s from the database alone. Non-members get 404; a player gets 403 for writes.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse

from campaigns.initiative_views import InitiativeViews, keys, missing_party
from characters.models import Character
from rules.engine.eldritch_gambit import initiative as engine
from rules.systems import ELDRITCH_GAMBIT

from . import initiative as tracker_service
from .access import membership_or_404
from .initiative_forms import EncounterForm, FoeForm, HpForm, StatusForm, clean_action
from .models import Combatant, Encounter

BASE = "campaigns/eldritch_gambit/initiative/"


class EldritchGambitInitiative(InitiativeViews):
    """The generic tracker (campaigns/initiative_views.py) with Eldritch Gambit's foes
    (HP, AF, WP), its HP and Status forms and its steps (Dodge)."""

    encounter_model = Encounter
    tracker_service = tracker_service
    engine = engine
    encounter_form = EncounterForm
    foe_form = FoeForm
    foe_form_name = "foe_form"
    foe_anchor = "add-foe"
    template_dir = BASE
    url_prefix = "campaigns:initiative_"
    list_template = BASE + "list.html"
    tracker_template = BASE + "tracker.html"
    live_template = BASE + "live.html"
    hp_events = ("damage", "heal", "set_hp")
    system = ELDRITCH_GAMBIT
    trigger_choice = "imp_choice"

    def membership_or_404(self, user, pk: int):
        return membership_or_404(user, pk)

    def party(self, campaign):
        return campaign.game_system.character_model.objects.filter(campaign=campaign)

    def add_foe(self, encounter, version, data, by):
        return tracker_service.add_foe(
            encounter_id=encounter.pk, version=version, name=data["name"],
            hp_max=data["hp_max"], af=data["af"], wp=data["wp"], is_mob=data["is_mob"],
            members=data["members"] or 1, side=data["side"], by=by)

    def context(self, request, membership, encounter, **extra) -> dict:
        tracker = tracker_service.load(encounter)
        state = tracker.state
        context = self.tracker_context(membership, encounter, tracker,
                                       passes=state.legal_passes())
        context["dodgers"] = [tracker.row(k) for k in state.dodgers]
        context["passer"] = tracker.row(state.passed_by) if state.passed_by else None
        if state.phase == engine.ACT and tracker.holder:
            context["targets"] = [row for row in tracker.rows if row.key != state.holder]
        if state.phase == engine.SETUP:
            context["claimants"] = [row for row in tracker.rows if row.fighter.has_action]
        if state.phase != engine.ENDED:
            context["foe_form"] = extra.pop("foe_form", None) or FoeForm()
            context["party_missing"] = missing_party(
                tracker, Character.objects.filter(campaign=membership.campaign))
        forms_for = extra.pop("row_forms", {})
        for row in tracker.rows:
            row.hp_form, row.status_form = forms_for.get(row.combatant.pk, (None, None))
            if row.hp_form is None:
                row.hp_form = HpForm(prefix=f"c{row.combatant.pk}", mob=row.fighter.mob,
                                     initial={"change": "damage"})
            if row.status_form is None:
                row.status_form = StatusForm(
                    prefix=f"s{row.combatant.pk}",
                    initial={"statuses": sorted(row.fighter.statuses)})
            row.open = row.combatant.pk in forms_for
        context.update(extra)
        return context

    def step_payload(self, post, kind: str, one: str) -> dict:
        """act, wait, interrupt, pass, keep waiting, rejoin, let the Imp pick a foe,
        stumble, lose a Free Move, Dodge, next Round, end."""
        if kind in ("act", "interrupt"):
            return {"actor": one, "targets": keys(post.getlist("targets")),
                    "action": clean_action(post.get("action", ""))}
        if kind == "wait":
            return {"actor": one, "action": clean_action(post.get("action", ""))}
        if kind == "pass":
            return {"to": post.get("to", "")}
        if kind in ("keep_waiting", "rejoin", "stumble", "free_move", "dodge"):
            return {"key": one}
        if kind in ("imp_decides", "next_round", "end"):
            return {}
        raise Http404("No such step.")


VIEWS = EldritchGambitInitiative()
encounter_list = VIEWS.encounter_list
encounter_detail = VIEWS.encounter_detail
party_add = VIEWS.party_add
foe_add = VIEWS.foe_add
combatant_remove = VIEWS.combatant_remove
step = VIEWS.step
undo = VIEWS.undo


def _hp_step(combatant: Combatant, data: dict) -> tuple[str, dict]:
    key = str(combatant.pk)
    if data["change"] == "damage":
        return "damage", {"key": key, "amount": data["amount"], "area": bool(data.get("area")),
                          "stagger": bool(data.get("stagger"))}
    if data["change"] == "heal":
        return "heal", {"key": key, "amount": data["amount"]}
    return "set_hp", {"key": key, "hp": data["amount"], "members": data.get("members")}


@VIEWS.combatant_view
def combatant_hp(request: HttpRequest, membership, encounter, combatant) -> HttpResponse:
    """Damage, healing or a set HP for one combatant; errors next to the field."""
    form = HpForm(request.POST, prefix=f"c{combatant.pk}", mob=combatant.is_mob)
    return VIEWS.combatant_step(request, membership, encounter, combatant, form,
                                step=lambda data: _hp_step(combatant, data),
                                error_field="amount", row_forms=(form, None))


@VIEWS.combatant_view
def combatant_statuses(request: HttpRequest, membership, encounter,
                       combatant) -> HttpResponse:
    """The Statuses of one combatant, set as ticked."""
    form = StatusForm(request.POST, prefix=f"s{combatant.pk}")
    return VIEWS.combatant_step(
        request, membership, encounter, combatant, form,
        step=lambda data: ("statuses", {"key": str(combatant.pk),
                                        "statuses": data["statuses"]}),
        error_field="statuses", row_forms=(None, form))
