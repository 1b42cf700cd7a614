"""The Guide's screen (issue #15): Exploration (Pace, stealth, light, doors, locks, traps,
harvesting), Reactions and Negotiations, Chases, each panel with its exact odds before a
roll and the dice after, every action recorded in the Turn log (screen.py).

Only the Guide (and co-Guides) reach it: a player, a non-member and a campaign of another
system get 404. A POST through htmx answers the whole page and htmx swaps the panel
(hx-select); without htmx it redirects back with a message. Bad input re-renders the
page with the message beside the field and what was typed kept."""

from __future__ import annotations

import uuid
from fractions import Fraction

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from campaigns.forms import add_service_error
from campaigns.models import IMP_ROLES
from campaigns.services import CampaignError
from characters.systems.errant.builds import sheet_for
from rules.engine.errant import archetypes, chases, exploration, reactions
from rules.engine.errant.checks import p_success
from rules.engine.errant.data.downtime_tables import DISPOSITION_DV, DISPOSITION_NAMES

from . import screen, turns
from .access import membership_or_404
from .company import company_of, members
from .screen import odds
from .screen_forms import (
    BandsForm,
    BreakForm,
    ChaseForm,
    DoorForm,
    ExchangeForm,
    HarvestForm,
    LightForm,
    LockForm,
    PickForm,
    ReactionForm,
    RoundForm,
    StartForm,
    StealthForm,
    TrapForm,
)

PAGE = "campaigns/errant/screen.html"


def screen_url(pk: int, anchor: str = "") -> str:
    return reverse("campaigns:errant_screen", args=[pk]) + (f"#{anchor}" if anchor else "")


def guide_or_404(user, pk: int):
    """The Guide's membership; anyone else: 404 (the screen does not exist for them)."""
    membership = membership_or_404(user, pk)
    if membership.role not in IMP_ROLES:
        raise Http404("No such page.")
    return membership


def p_two_fours(dice: int) -> Fraction:
    """At least two 4s on `dice` D4s, in closed form (chases.p_two_fours enumerates)."""
    q = Fraction(3, 4)
    return 1 - q ** dice - dice * Fraction(1, 4) * q ** (dice - 1) if dice >= 2 else Fraction(0)


# -- what each panel shows -------------------------------------------------------------


def _context(campaign, forms: dict) -> dict:
    company = company_of(campaign)
    turn = turns.latest(company)
    errants = members(campaign)
    rows = []
    # A 10 ft door with one helper strong enough (phys twice the DV); a prybar alone.
    helped = exploration.force_door([2 * exploration.STUCK_DOOR_DV], width_ft=10)
    prybar = exploration.force_door(prybar=True)
    for errant in errants:
        sheet = sheet_for(errant)
        value = {n: screen._stat(sheet, n) for n in ("phys", "skill", "mind", "pres",
                                                     "encumbrance", "spd", "movement_dice")}
        rows.append({"errant": errant, **value,
                     "alignment": sheet.stats["alignment"].value,
                     "locksmith": archetypes.has_mastery(sheet.build, "engineering"),
                     "speechcraft": archetypes.has_mastery(sheet.build, "speechcraft"),
                     "stealth": odds(exploration.p_stealth(value["skill"],
                                                           value["encumbrance"])),
                     "force": odds(exploration.p_force_door(value["phys"],
                                                            exploration.force_door())),
                     "helped": odds(exploration.p_force_door(value["phys"], helped)),
                     "prybar": odds(exploration.p_force_door(value["phys"], prybar))})
    group_dv = (exploration.group_stealth_dv([r["encumbrance"] for r in rows])
                if rows else None)
    for row in rows:
        row["group"] = odds(p_success(row["skill"], group_dv)) if rows else ""
    state = turn.state if turn else {}
    secret = turn.secret if turn else {}
    level = (state.get("trap") or secret.get("trap") or {}).get("level", 1)
    for row in rows:
        row["trap"] = {a: odds(exploration.p_avoid_trap(row[a], level))
                       for a in screen.ATTRIBUTES}
    threat = (state.get("harvest") or {}).get("threat", 4)
    harvest_dv = exploration.harvest_dv(threat)
    for row in rows:
        row["harvest"] = odds(p_success(row["skill"], harvest_dv))
    lights = screen.lights(errants)
    all_burn = sum(line.errant_item.uses or 0 for line in lights)
    lock = screen.lock_of(turn)
    locksmiths = [r["errant"].display_name for r in rows if r["locksmith"]]
    bands = screen.bands_of(campaign)
    alignments = [str(r["alignment"]) for r in rows]
    reaction_rows = []
    # ER §The Deviant, Speechcraft mastery: 3D6 with a master (rows shown when one is here).
    speakers = [r["errant"].display_name for r in rows if r["speechcraft"]]
    dice_counts = [reactions.REACTION_DICE] + ([reactions.SPEECHCRAFT_DICE] if speakers else [])
    for dice in dice_counts:
        for npc, label in (("L", "Lawful"), ("N", "Neutral"), ("C", "Chaotic")):
            alignment = reactions.alignment_modifier(alignments, npc)
            chances = reactions.disposition_odds(alignment, bands, dice=dice)
            reaction_rows.append({"npc": label + (f", 3D6 ({', '.join(speakers)})"
                                                  if dice == reactions.SPEECHCRAFT_DICE
                                                  else ""),
                                  "npc_alignment": label, "alignment": alignment,
                                  "dice": dice,
                                  "odds": [(DISPOSITION_NAMES[d], odds(c))
                                           for d, c in chances.items()]})
    reaction_tables = _reaction_tables(reaction_rows, speakers)
    negotiation = screen.negotiation_of(turn)
    chase = state.get("chase")
    chase_sides = []
    if chase:
        for key in ("fugitives", "pursuers"):
            roller = screen._slowest(chase[key])
            chase_sides.append({
                "key": key, "roller": roller, "runners": chase[key],
                "two_fours": odds(p_two_fours(roller["dice"])),
                "sprint": odds(chases.p_sprint(roller["phys"], roller["encumbrance"])),
                "sprint_two_fours": odds(p_two_fours(chases.sprint_dice(roller["dice"])))})
    light_lines = [{"line": line, "owner": line.owner_name} for line in lights]
    return {
        "campaign": campaign, "company": company, "turn": turn, "seen": turns.log_length(
            company), "rows": rows, "group_dv": group_dv, "helped_dv": helped.dv,
        "prybar_dv": prybar.dv, "errants": errants,
        "state": state, "secret": secret,
        "trap_shown": state.get("trap") or secret.get("trap"),
        "reaction_shown": state.get("reaction") or secret.get("reaction"),
        "trap_level": level, "threat": threat,
        "harvest_dv": harvest_dv,
        "light_lines": light_lines, "all_burn": all_burn,
        "all_lit": exploration.illumination(all_burn, len(errants)) if errants else None,
        "lock": lock, "lock_blind": odds(exploration.p_pick_blind(lock[0].modifier))
        if lock else odds(exploration.p_pick_blind()),
        "locksmiths": locksmiths,
        "lock_blind_locksmith": odds(exploration.p_pick_blind(
            lock[0].modifier if lock else exploration.NORMAL, locksmith=True)),
        "bands": [(DISPOSITION_NAMES[n], top, DISPOSITION_DV[n]) for n, top in bands.tops],
        "bands_label": bands.label, "reaction_rows": reaction_rows,
        "reaction_tables": reaction_tables,
        "negotiation": negotiation[0] if negotiation else None,
        "negotiation_secret": negotiation[1] if negotiation else False,
        "chase": chase, "chase_sides": chase_sides,
        "changes": list(turn.changes.order_by("-pk")[:30]) if turn else [],
        "travel": company.turns.filter(kind="travel", undone_at__isnull=True).exists(),
        "keys": {op: uuid.uuid4().hex for op in OPS},
        **_forms(errants, lights, forms, bands),
    }


def _reaction_tables(reaction_rows: list[dict], speakers: list[str]) -> list[dict]:
    """The Reaction odds as the page shows them: a narrow table per dice count (2D6, and
    3D6 when a Speechcraft master is in the Company), a row per disposition and a column
    per NPC Alignment, so that it fits its card on a phone."""
    tables = []
    for dice in dict.fromkeys(row["dice"] for row in reaction_rows):
        rows = [row for row in reaction_rows if row["dice"] == dice]
        caption = (f"{dice}D6, with a Speechcraft master ({', '.join(speakers)})"
                   if dice == reactions.SPEECHCRAFT_DICE else f"{dice}D6")
        tables.append({
            "dice": dice, "caption": caption,
            "columns": [(row["npc_alignment"], row["alignment"]) for row in rows],
            "rows": [(name, [row["odds"][i][1] for row in rows])
                     for i, (name, _) in enumerate(rows[0]["odds"])]})
    return tables


def _forms(errants, lights, given: dict, bands) -> dict:
    made = {
        "start_form": StartForm(errants=errants),
        "stealth_form": StealthForm(errants=errants),
        "light_form": LightForm(errants=errants, lights=lights),
        "door_form": DoorForm(errants=errants),
        "break_form": BreakForm(errants=errants),
        "lock_form": LockForm(errants=errants),
        "pick_form": PickForm(errants=errants),
        "trap_form": TrapForm(errants=errants),
        "harvest_form": HarvestForm(errants=errants),
        "bands_form": BandsForm(errants=errants, initial=dict(bands.tops)),
        "reaction_form": ReactionForm(errants=errants),
        "exchange_form": ExchangeForm(errants=errants),
        "chase_form": ChaseForm(errants=errants),
        "round_form": RoundForm(errants=errants),
    }
    made.update({f"{op}_form": form for op, form in given.items()})
    return made


def _page(request, membership, *, forms=None, status: int = 200, done: str = "",
          panel: str = "") -> HttpResponse:
    context = _context(membership.campaign, forms or {})
    context.update(done=done, done_panel=panel)
    return render(request, PAGE, context, status=status)


@login_required
@require_GET
def screen_page(request: HttpRequest, pk: int) -> HttpResponse:
    return _page(request, guide_or_404(request.user, pk))


# -- the actions ----------------------------------------------------------------------


def _turn(data) -> dict:
    return {"turn_pk": data.get("turn"), "request_key": data.get("request_key") or None}


def _start(campaign, by, data):
    turn = screen.start_exploration(campaign=campaign, by=by, activity=data["activity"],
                                    pace=data["pace"], zoom=data["zoom"], seen=data["seen"],
                                    request_key=data["request_key"] or None)
    return f"Exploration Turn {turn.kind_number} started."


def _stealth(campaign, by, data):
    result = screen.stealth(campaign=campaign, by=by, roller=data["roller"],
                            group=data["group"], secret=data["secret"], **_turn(data))
    if result is None:
        return "Already recorded."
    return (f"Stealth: d20 {result['roll']} vs skill {result['skill']}, DV {result['dv']}: "
            f"{'unnoticed' if result['success'] else 'noticed'}.")


def _light(campaign, by, data):
    result = screen.illuminate(campaign=campaign, by=by, lit=data["lit"],
                               discreet=data["discreet"], **_turn(data))
    return "Already recorded." if result is None else f"The light is {result['level']}."


def _door(campaign, by, data):
    result = screen.force_door(campaign=campaign, by=by, forcer=data["forcer"],
                               helpers=data["helpers"], prybar=data["prybar"],
                               prybar_helper=data["prybar_helper"],
                               width_ft=data["width_ft"], base=data["base"], **_turn(data))
    if result is None:
        return "Already recorded."
    return (f"Forcing the door: d20 {result['roll']} vs phys {result['phys']}, DV "
            f"{result['dv']}: {'open' if result['success'] else 'still stuck'}.")


def _break(campaign, by, data):
    result = screen.break_door(campaign=campaign, by=by, material=data["material"],
                               inappropriate_tools=data["inappropriate_tools"], **_turn(data))
    return "Already recorded." if result is None else (
        "Breaking the door down: one negative Event Die on this Turn's roll.")


def _lock(campaign, by, data):
    result = screen.new_lock(campaign=campaign, by=by, d12s=data["d12s"], **_turn(data))
    return "Already recorded." if result is None else f"A {result['material']} lock."


def _pick(campaign, by, data):
    result = screen.pick_lock(campaign=campaign, by=by, action=data["action"],
                              picker=data["picker"], **_turn(data))
    if result is None:
        return "Already recorded."
    step = result["steps"][-1]
    return f"{step['action'].capitalize()}: {'right' if step['right'] else 'wrong'}."


def _trap(campaign, by, data):
    result = screen.trap(campaign=campaign, by=by, errant=data["errant"],
                         attribute=data["attribute"], level=data["level"],
                         damage=data["damage"] or 0, secret=data["secret"], **_turn(data))
    if result is None:
        return "Already recorded."
    return (f"Trap: d20 {result['roll']} vs {result['attribute']} {result['value']}, DV "
            f"{result['dv']}: {'avoided' if result['success'] else 'sprung'}.")


def _harvest(campaign, by, data):
    result = screen.harvest(campaign=campaign, by=by, errant=data["errant"],
                            threat=data["threat"], held=data["held"] or 0, line=data["line"],
                            **_turn(data))
    if result is None:
        return "Already recorded."
    return (f"Harvesting: d20 {result['roll']} vs skill {result['skill']}, DV {result['dv']}: "
            f"{'harvested' if result['success'] else 'ruined'}.")


def _bands(campaign, by, data):
    screen.set_bands(campaign=campaign, by=by,
                     tops=[data[name] for name in reactions.DISPOSITIONS])
    return "The disposition bands are set."


def _reaction(campaign, by, data):
    result = screen.reaction(campaign=campaign, by=by, npc=data["npc"],
                             npc_alignment=data["npc_alignment"], modifiers=data["modifiers"],
                             secret=data["secret"], negotiate=data["negotiate"],
                             speaker=data["speaker"], **_turn(data))
    if result is None:
        return "Already recorded."
    dice = f"{len(result['dice'])}D6"
    return (f"Reaction ({dice}): {result['value']}, {result['name']} (social DV "
            f"{result['dv']:+d}).")


def _exchange(campaign, by, data):
    success = {"yes": True, "no": False}.get(data["success"])
    result = screen.exchange(campaign=campaign, by=by, kind=data["kind"], success=success,
                             position=data["position"], impact=data["impact"],
                             bribe_change=data["bribe_change"] or 0, **_turn(data))
    if result is None:
        return "Already recorded."
    kind, outcome, change = result["log"][-1]
    ended = " The NPC ends the Negotiation." if result["ended"] else ""
    return f"{kind.capitalize()}: {outcome.replace('_', ' ')} ({change:+d}).{ended}"


def _chase(campaign, by, data):
    result = screen.start_chase(campaign=campaign, by=by, fugitives=data["fugitives"],
                                pursuers=data["pursuers"],
                                fugitive_npcs=data["fugitive_npcs"],
                                pursuer_npcs=data["pursuer_npcs"], **_turn(data))
    return "Already recorded." if result is None else "The Chase begins."


def _round(campaign, by, data):
    result = screen.chase_round(campaign=campaign, by=by,
                                sprint_fugitives=data["sprint_fugitives"],
                                sprint_pursuers=data["sprint_pursuers"], **_turn(data))
    if result is None:
        return "Already recorded."
    return screen._round_label(len(turns.latest(company_of(campaign)).state["chase"]["rounds"]),
                               result) + "."


# op: (form, action, panel)
OPS = {
    "start": (StartForm, _start, "exploration"),
    "stealth": (StealthForm, _stealth, "exploration"),
    "light": (LightForm, _light, "exploration"),
    "door": (DoorForm, _door, "exploration"),
    "break": (BreakForm, _break, "exploration"),
    "lock": (LockForm, _lock, "exploration"),
    "pick": (PickForm, _pick, "exploration"),
    "trap": (TrapForm, _trap, "exploration"),
    "harvest": (HarvestForm, _harvest, "exploration"),
    "bands": (BandsForm, _bands, "social"),
    "reaction": (ReactionForm, _reaction, "social"),
    "exchange": (ExchangeForm, _exchange, "social"),
    "chase": (ChaseForm, _chase, "chase"),
    "round": (RoundForm, _round, "chase"),
}


def _action(op: str):
    form_class, act, panel = OPS[op]

    @login_required
    @require_POST
    def view(request: HttpRequest, pk: int) -> HttpResponse:
        membership = guide_or_404(request.user, pk)
        campaign = membership.campaign
        errants = members(campaign)
        extra = {"lights": screen.lights(errants)} if op == "light" else {}
        form = form_class(request.POST, errants=errants, **extra)
        if form.is_valid():
            try:
                message = act(campaign, request.user, form.cleaned_data)
            except CampaignError as error:
                add_service_error(form, error)
            else:
                if request.htmx and op != "start":
                    return _page(request, membership, done=message, panel=panel)
                messages.success(request, message)
                return redirect(screen_url(pk, panel))
        return _page(request, membership, forms={op: form}, panel=panel)

    view.__name__ = f"screen_{op}"
    return view


ACTIONS = {op: _action(op) for op in OPS}
