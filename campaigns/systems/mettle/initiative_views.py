"""METTLE Core's Initiative tracker pages (the Scenes chapter, seed 001 > Initiative).

As Eldritch Gambit's (its initiative_views.py): the Guide and co-Guides create a fight, add
the party and NPC pools, trigger Initiative and drive it with buttons that offer only the
legal next steps; every POST goes through initiative.py (one locked transaction, checked
against the page's version) and redirects back. Players of the campaign get a read-only
page that htmx refreshes every 2 s, answered 304 while nothing changed
(campaigns.polling). Non-members and other systems' campaigns get 404; a player gets 403
for every write.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse

from campaigns.forms import add_service_error
from campaigns.initiative_views import (
    InitiativeViews,
    back,
    keys,
    missing_party,
    version_of,
)
from campaigns.services import CampaignError
from characters.systems.mettle.apps import KEY
from characters.systems.mettle.models import MettleCharacter
from config.parsing import parse_id
from rules.engine.mettle import initiative as engine
from rules.engine.volleyball import ACT, ENDED, SETUP, SIDES

from . import initiative as tracker_service
from .access import membership_or_404
from .encounters import SIDES as SIDE_CHOICES
from .encounters import MettleEncounter
from .initiative_forms import (
    DamageForm,
    EncounterForm,
    MettleForm,
    NpcForm,
    StatusForm,
    ZoneForm,
    clean_text,
)

BASE = "campaigns/mettle/initiative/"


def _number(post, name: str, low: int, high: int) -> int:
    value = parse_id(post.get(name, "").strip(), high=high)
    if value is None or value < low:
        raise CampaignError(f"A whole number from {low} to {high}.", "number", field=name)
    return value


def _step_payload(post, kind: str, one: str) -> dict:
    """act, split and its parts, move, wait, interrupt, Defend, Reach, pass, keep
    waiting, rejoin, Surprise, next Round, end (InitiativeViews.step_payload)."""
    if kind in ("act", "act_part", "interrupt"):
        return {"actor": one, "targets": keys(post.getlist("targets")),
                "action": clean_text(post.get("action", ""))}
    if kind == "split":
        return {"actor": one, "dice": _number(post, "dice", 1, tracker_service.MAX_POOL),
                "parts": _number(post, "parts", 2, tracker_service.MAX_POOL),
                "targets": keys(post.getlist("targets")),
                "action": clean_text(post.get("action", ""))}
    if kind == "wait":
        return {"actor": one, "action": clean_text(post.get("action", ""))}
    if kind == "pass":
        return {"to": post.get("to", "")}
    if kind == "move":
        return {"actor": one, "zone": clean_text(post.get("zone", "")),
                "hindered": post.get("hindered") == "on"}
    if kind == "defend":
        # "<defender>-<the attacked>": the attacked themselves, or an ally stepping in.
        defender, _, attacked = post.get("defense", "").partition("-")
        if parse_id(defender) is None or parse_id(attacked) is None:
            raise CampaignError("Choose who Defends whom.", "defense")
        return {"key": defender, "ally": attacked if attacked != defender else None}
    if kind == "reach":
        return {"key": one, "attacker_has_reach": post.get("attacker_has_reach") == "on"}
    if kind == "surprise":
        side = post.get("side", "")
        if side not in SIDES:
            raise CampaignError("Choose the surprised side.", "side", field="side")
        return {"side": side}
    if kind == "burn":  # a Burning combatant's fire damage again (Scenery > Fire)
        return {"key": one, "stagger": post.get("stagger") == "on"}
    if kind == "set_burning":
        return {"key": one, "amount": _number(post, "amount", 1, engine.MAX_DAMAGE)}
    if kind in ("keep_waiting", "rejoin", "stumble", "free_move"):
        return {"key": one}
    if kind in ("imp_decides", "next_round", "end"):
        return {}
    raise Http404("No such step.")


class MettleInitiative(InitiativeViews):
    """The generic tracker (campaigns/initiative_views.py) with METTLE's NPC pools, its
    Damage, Mettle, Status and Zone forms and its steps (Split, Move, Defend, Reach,
    Surprise)."""

    encounter_model = MettleEncounter
    tracker_service = tracker_service
    engine = engine
    encounter_form = EncounterForm
    foe_form = NpcForm
    foe_form_name = "npc_form"
    foe_anchor = "add-npc"
    template_dir = BASE
    url_prefix = "campaigns:mettle_initiative_"
    list_template = BASE + "list.html"
    tracker_template = BASE + "tracker.html"
    live_template = BASE + "live.html"
    poll_key = ("mettle",)
    system = KEY
    hp_events = ("damage", "set_hp")
    trigger_choice = "choice"
    typed = ("action", "dice", "parts", "zone", "amount")

    def membership_or_404(self, user, pk: int):
        return membership_or_404(user, pk)

    def party(self, campaign):
        return MettleCharacter.objects.filter(campaign=campaign)

    def add_foe(self, encounter, version, data, by):
        return tracker_service.add_npc(
            encounter_id=encounter.pk, version=version, name=data["name"],
            pool=data["pool"], higher=data["higher"], armor_soak=data["armor_soak"],
            is_mob=data["is_mob"], members=data["members"] or 1, side=data["side"],
            zone=data["zone"], by=by)

    def step_payload(self, post, kind: str, one: str) -> dict:
        return _step_payload(post, kind, one)

    def context(self, request, membership, encounter, **extra) -> dict:
        tracker = tracker_service.load(encounter)
        scene, state = tracker.scene, tracker.state
        holder = tracker.holder
        context = self.tracker_context(membership, encounter, tracker,
                                  passes=engine.legal_passes(scene))
        context.update(scene=scene, sides=SIDE_CHOICES)
        if state.running:
            # Burning (Scenery > Fire): the fire's damage due this Round, one click each;
            # or, Burning with no damage given yet, the field to give it.
            context["burns_due"] = [row for row in tracker.rows if row.burn_due is not None]
            context["burns_unknown"] = [
                row for row in tracker.rows if "burning" in row.fighter.statuses
                and row.burn_amount is None and "dead" not in row.fighter.statuses]
        if state.phase == ACT and holder:
            context["targets"] = [row for row in tracker.rows if row.key != state.holder]
            context["parts_left"] = scene.parts_left(state.holder)
        if state.running:
            # Defend: right after an Attack, before Initiative passes on (SC §Defend):
            # the attacked themselves, or an ally of theirs stepping in.
            attacked = [tracker.row(k) for k in state.attacked]
            context["defenses"] = [
                (row, target) for target in attacked for row in tracker.rows
                if row.fighter.side == target.fighter.side and not row.fighter.fallen
                and (row.fighter.has_action or row.fighter.waiting.casefold() == "defend")
                and (row.key == target.key or not (row.zone and target.zone
                                                   and row.zone != target.zone))]
            if state.phase == ACT and holder:
                context["reachers"] = [row for row in tracker.rows
                                       if row.fighter.side != holder.fighter.side
                                       and row.fighter.has_action]
        if state.phase == SETUP:
            context["claimants"] = [row for row in tracker.rows if row.fighter.has_action]
        if not context["runs"]:
            # A player's live view (its poll, every 2 s): none of the Guide's forms, nor
            # the party still to add (live.html shows neither).
            context.update(extra)
            return context
        if state.phase != ENDED:
            context["npc_form"] = extra.pop("npc_form", None) or NpcForm()
            context["party_missing"] = missing_party(
                tracker, MettleCharacter.objects.filter(campaign=membership.campaign))
        forms_for = extra.pop("row_forms", {})
        for row in tracker.rows:
            pk = row.combatant.pk
            given = forms_for.get(pk, {})
            row.damage_form = given.get("damage") or DamageForm(
                prefix=f"d{pk}", mob=row.fighter.mob, pc=row.combatant.character_id is not None)
            row.mettle_form = given.get("mettle") or MettleForm(prefix=f"m{pk}")
            row.status_form = given.get("statuses") or StatusForm(
                prefix=f"s{pk}", initial={"statuses": sorted(row.fighter.statuses)})
            row.zone_form = given.get("zone") or ZoneForm(prefix=f"z{pk}",
                                                          initial={"zone": row.zone})
            row.open = pk in forms_for
        context.update(extra)
        return context


VIEWS = MettleInitiative()
encounter_list = VIEWS.encounter_list
encounter_detail = VIEWS.encounter_detail
party_add = VIEWS.party_add
npc_add = VIEWS.foe_add
combatant_remove = VIEWS.combatant_remove
step = VIEWS.step
undo = VIEWS.undo


@VIEWS.combatant_view
def combatant_damage(request: HttpRequest, membership, encounter, combatant) -> HttpResponse:
    """A hit through Soak: Felling blow, Staggered or Fallen (EN §Taking Damage); a
    Stun-only weapon's Felling blow Stuns, BP armour halves the first firearm damage (RS
    §Specials, Stun; §Armor)."""
    form = DamageForm(request.POST, prefix=f"d{combatant.pk}", mob=combatant.is_mob,
                      pc=combatant.character_id is not None)

    def payload(data):
        return "damage", {"key": combatant.key, "amount": data["amount"],
                          "soak_bonus": data.get("soak_bonus") or 0,
                          "soft": data["soft"], "stun_attack": data["stun_attack"],
                          "stun_weapon": data["stun_weapon"], "stun_only": data["stun_only"],
                          "firearm": data["firearm"],
                          "bulletproof": bool(data.get("bulletproof")),
                          "area": bool(data.get("area")), "stagger": bool(data.get("stagger")),
                          "burning": data["burning"]}
    return VIEWS.combatant_step(request, membership, encounter, combatant, form,
                                step=payload, row_forms={"damage": form})


@VIEWS.combatant_view
def combatant_mettle(request: HttpRequest, membership, encounter, combatant) -> HttpResponse:
    form = MettleForm(request.POST, prefix=f"m{combatant.pk}")
    return VIEWS.combatant_step(request, membership, encounter, combatant, form,
                                step=lambda data: ("set_mettle", {"key": combatant.key,
                                                                  "mettle": data["mettle"]}),
                                row_forms={"mettle": form})


@VIEWS.combatant_view
def combatant_statuses(request: HttpRequest, membership, encounter,
                       combatant) -> HttpResponse:
    form = StatusForm(request.POST, prefix=f"s{combatant.pk}")
    return VIEWS.combatant_step(request, membership, encounter, combatant, form,
                                step=lambda data: ("statuses", {"key": combatant.key,
                                                                "statuses": data["statuses"]}),
                                row_forms={"statuses": form})


@VIEWS.combatant_view
def combatant_zone(request: HttpRequest, membership, encounter, combatant) -> HttpResponse:
    """Where a combatant starts (before the trigger; later they Move)."""
    form = ZoneForm(request.POST, prefix=f"z{combatant.pk}")
    if form.is_valid():
        try:
            tracker_service.set_zone(encounter_id=encounter.pk, version=version_of(request),
                                     combatant_id=combatant.pk, zone=form.cleaned_data["zone"])
        except CampaignError as error:
            if error.code in ("stale", "not_setup", "combatant"):  # no zone form to show
                return VIEWS.refused(request, membership, encounter, error)
            add_service_error(form, error)
        else:
            return back(encounter, f"edit-{combatant.pk}")
    return VIEWS.again(request, membership, encounter, row_forms={combatant.pk: {"zone": form}})
