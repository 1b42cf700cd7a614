"""Travel Turns at the table (issue 15; TT §Travel Turn Actions, §Travel Turn Procedure,
§Day & Night, §Navigation & Getting Lost, §Pace, §Resting, §Unsuitable Campsites,
§Eating & Drinking, §Weather; PR §Event Die – Travel Turns, §Depletion), and the Event
Die of the other Turns the log zooms into (Exploration's Burn, PR §Event Die –
Exploration Turns).

One POST runs one Travel Turn in one transaction, in the order of TT §Travel Turn
Procedure: the Turn is declared and counted (six a day, night from the fourth:
rules.engine.errant.travel.day_and_turn / is_night), the Company's action, Pace and
navigation Check (its DV secret), the Event Die with the sources the app counts, then the
die's result and the action resolved (or forgone for a Rest taken: AMB-E-REST-1). The
Guide states beforehand what the Company does if the die says Rest (Rest or 1 Exhaustion
each) and whether a local effect is the weather: the whole Turn is then one ledger step
that the Turn log's undo puts back.

What every member reads is in `turn.state`; the navigation DV, the pathfinder's d20 and
the direction of a wrong turn are in `turn.secret` and in notes marked secret (TT
§Navigation: "the Guide will not inform them whether they succeed or fail"), unless the
Guide chooses to tell the Company. Everything changed on an Errant goes through
turns.change_* so the log shows it and the undo puts it back. Rules come from the engine
(rules.engine.errant.travel, weather, event_die, exploration, checks); nothing here
re-derives them.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from fractions import Fraction

from django.db import transaction

from campaigns.models import Campaign
from campaigns.services import CampaignError, check_text
from characters.models import InventoryItem
from characters.systems.errant.builds import sheet_for
from characters.systems.errant.inventory import carried_lines, new_line
from characters.systems.errant.models import ErrantCharacter
from rules.engine.errant import checks, event_die, exploration, weather
from rules.engine.errant import travel as rules
from rules.engine.errant.data import ARCHETYPE_DAMAGE_DIE
from rules.engine.errant.data.turns_tables import (
    FORAGE_SUPPLY,
    MISLEADING_MAP_DV,
    SEASONS,
    TRAVEL_ACTIONS,
    WEATHER_BANDS,
)

from . import turns
from .company import company_of, lock_company, members, require_guide
from .turn_models import ACTIVITY_LENGTH, ErrantTurn, ErrantTurnChange

ACTIONS = tuple(TRAVEL_ACTIONS)
CAMPING = ("make_camp", "take_watch", "sleep")  # TT: watch and sleep are camp's Turns
SPEEDS = ("normal", "slow", "quick")
TERRAINS = ("", "rough", "wild")
MAPS = ("", "detailed_map", "general_map")
CAMPSITES = ("suitable", "uncomfortable", "open")  # TT §Unsuitable Campsites
ATTRIBUTES = ("skill", "phys", "mind", "pres")  # TT §Navigation: "generally a skill Check"
MAX_BASE_DV = 20
MAX_EXTRA_DICE = 6
INCLEMENT_SAVE_ATTRIBUTE = "phys"  # TT §Weather: "a DV 2 phys Saving Throw"
RATION_NAME = re.compile(r"^\s*rations?\b", re.IGNORECASE)


def _rng() -> random.Random:
    """The dice (tests replace this function to script them)."""
    return random.SystemRandom()


# -- The Guide's choices for one Travel Turn -----------------------------------------------

@dataclass(frozen=True)
class TravelPlan:
    action: str = "peregrinate"
    activity: str = ""
    season: str = "spring"
    terrain: str = ""
    speed: str = "normal"
    mounted: bool = False
    road: bool = False
    map: str = ""
    misleading: int = 0
    landmark: bool = False
    searching: bool = False  # Explore: looking for a place not visited before
    base_dv: int = 0
    pathfinder: int | None = None
    attribute: str = "skill"
    watchers: tuple[int, ...] = ()
    sleepers: tuple[int, ...] = ()
    campsite_if_failed: str = "uncomfortable"
    shelter: bool = False
    safe_bed: bool = False  # a warm, safe bed in a Settlement (TT §Resting)
    unoutfitted: tuple[int, ...] = ()
    extra_positive: int = 0
    extra_negative: int = 0
    extra_reason: str = ""
    rest_choice: str = "rest"
    weather_changes: bool = True
    weather_persists: bool = False
    reveal_navigation: bool = False


def _no(message: str, field: str) -> CampaignError:
    """A refusal shown beside its field (the field's name is its code)."""
    return CampaignError(message, field, field=field)


def check_plan(plan: TravelPlan, errants: list[ErrantCharacter]) -> None:
    """Refuse what the engine would refuse, naming the field."""
    if plan.action not in ACTIONS:
        raise _no("Choose one of the Travel Turn actions.", "action")
    if plan.season not in SEASONS:
        raise _no("Choose a season.", "season")
    if plan.terrain not in TERRAINS:
        raise _no("Choose the terrain.", "terrain")
    if plan.speed not in SPEEDS:
        raise _no("Choose normal, slow or quick.", "speed")
    if plan.map not in MAPS:
        raise _no("Choose the map.", "map")
    if plan.misleading and not MISLEADING_MAP_DV[0] <= plan.misleading <= MISLEADING_MAP_DV[1]:
        raise _no("A misleading map adds +2 to +4.", "misleading")
    if not 0 <= plan.base_dv <= MAX_BASE_DV:
        raise _no(f"The base DV is 0 to {MAX_BASE_DV}.", "base_dv")
    if plan.attribute not in ATTRIBUTES:
        raise _no("Choose phys, skill, mind or pres.", "attribute")
    for name in ("extra_positive", "extra_negative"):
        if not 0 <= getattr(plan, name) <= MAX_EXTRA_DICE:
            raise _no(f"0 to {MAX_EXTRA_DICE} extra dice.", name)
    if plan.campsite_if_failed not in CAMPSITES[1:]:
        raise _no("Choose Uncomfortable or Open.", "campsite_if_failed")
    if plan.rest_choice not in ("rest", "exhaustion"):
        raise _no("Choose Rest or 1 Exhaustion each.", "rest_choice")
    known = {e.pk for e in errants}
    for name in ("watchers", "sleepers", "unoutfitted"):
        if not set(getattr(plan, name)) <= known:
            raise _no("Choose Errants of the Company.", name)
    if set(plan.watchers) & set(plan.sleepers):
        raise _no("An Errant either takes watch or sleeps in one Turn.", "sleepers")
    if (plan.watchers or plan.sleepers) and plan.action not in CAMPING:
        raise _no("Errants take watch or sleep on the Turns the Company makes "
                            "camp, takes watch or sleeps.", "sleepers")
    if plan.pathfinder is not None and plan.pathfinder not in known:
        raise _no("Choose an Errant of the Company.", "pathfinder")
    if plan.speed != "normal" and plan.action != "peregrinate":
        raise _no("Moving slowly or quickly is a Pace: peregrinate.", "speed")
    check_text(plan.activity, field="activity", length=ACTIVITY_LENGTH)
    check_text(plan.extra_reason, field="extra_reason", length=200)


# -- Where the Company is ------------------------------------------------------------------

def latest_travel(company) -> ErrantTurn | None:
    return (company.turns.filter(kind=ErrantTurn.Kind.TRAVEL, undone_at__isnull=True)
            .order_by("-number").first())


def _weather_of(state: dict, season: str) -> weather.Weather:
    saved = state.get("weather") or {}
    if saved.get("season") != season:
        return weather.start(season)
    return weather.Weather(season, saved.get("band", weather.start(season).band))


def weather_dict(w: weather.Weather) -> dict:
    lo, hi = WEATHER_BANDS[w.band]
    return {"season": w.season, "band": w.band, "label": w.cell.label,
            "severity": w.severity, "next_roll": w.next_roll_modifier,
            "rows": f"{lo}-{hi}" if lo != hi else str(lo), "sleep_turns": w.sleep_turns}


@dataclass
class Preview:
    """Everything the Travel Turn form shows before the roll, and what `run` uses."""

    day: int
    turn_of_day: int
    night: bool
    new_day: bool
    weather: weather.Weather
    pace: rules.PaceResult
    nav: rules.NavigationDv
    check: str  # "" none, "pathfinder", "each Errant"
    pathfinder: ErrantCharacter | None
    p_lost: Fraction | None
    dice: event_die.EventDice
    fives_are_ones: bool
    odds: list
    camping: bool
    campsite: str
    oriented: bool
    rested_last_turn: bool
    errants: list = field(default_factory=list)
    sheets: dict = field(default_factory=dict)
    previous: dict = field(default_factory=dict)


def preview(campaign: Campaign, plan: TravelPlan, *, errants=None) -> Preview:
    """The next Travel Turn as the plan would run it: its day and Turn, weather, Pace,
    navigation DV and the chance to get lost, the Event Die's sources and exact odds."""
    company = company_of(campaign)
    errants = members(campaign) if errants is None else errants
    check_plan(plan, errants)
    last = latest_travel(company)
    previous = dict(last.state) if last else {}
    if last is None:
        newest = turns.latest(company)
        day, turn_of_day = (newest.day if newest else 1), 1
    elif last.turn_of_day is None or last.turn_of_day >= rules.TURNS_PER_DAY:
        day, turn_of_day = last.day + 1, 1
    else:
        day, turn_of_day = last.day, last.turn_of_day + 1
    new_day = last is not None and turn_of_day == 1
    now = _weather_of(previous, plan.season)
    if new_day:
        now = weather.new_day(now, persists=plan.weather_persists)
    keys = rules.turn_conditions(turn_of_day, now.pace_key, plan.terrain or None)
    if plan.action == "peregrinate":
        keys += [k for k, on in (("mounted", plan.mounted), ("road", plan.road)) if on]
        if plan.speed != "normal":
            keys.append(plan.speed)
    if plan.map:
        keys.append(plan.map)
    pace = rules.travel_pace(keys)
    oriented = bool(previous.get("oriented"))
    nav = rules.navigation_dv(plan.base_dv, pace, oriented=oriented,
                              misleading=plan.misleading, landmark=plan.landmark)
    check = TRAVEL_ACTIONS[plan.action].navigation_check
    if plan.action == "explore" and not plan.searching:
        check = ""
    if plan.action in ("peregrinate", "make_camp", "explore") and not nav.needed:
        check = ""
    by_pk = {e.pk: e for e in errants}
    pathfinder = by_pk.get(plan.pathfinder) if plan.pathfinder else None
    if check == "pathfinder" and pathfinder is None:
        pathfinder = errants[0] if errants else None
    sheets = {e.pk: sheet_for(e) for e in errants}
    p_lost = None
    if check == "pathfinder" and pathfinder is not None:
        p_lost = rules.p_lost(sheets[pathfinder.pk].stats[plan.attribute].value, nav)
    newest = turns.latest(company)
    rested = bool(newest and newest.state.get("rest_taken"))
    dice = event_die.event_dice(
        "travel", encumbrances=tuple(sheets[e.pk].stats["encumbrance"].value for e in errants),
        pace=plan.speed if plan.action == "peregrinate" else "normal",
        rested_last_turn=rested, extra_positive=plan.extra_positive,
        extra_negative=plan.extra_negative)
    if plan.extra_reason and (plan.extra_positive or plan.extra_negative):
        dice = event_die.EventDice(tuple(
            event_die.DiceSource(f"{s.label}: {plan.extra_reason}", s.positive, s.negative)
            if s.label.startswith("the Guide's") else s for s in dice.sources))
    camping = plan.action in CAMPING
    campsite = previous.get("campsite", "suitable") if plan.action != "make_camp" else "suitable"
    fives = camping and rules.watch(len(plan.watchers),
                                    open_campsite=campsite == "open").fives_are_ones
    if camping and plan.action != "make_camp" and not plan.sleepers:
        fives = campsite == "open"  # nobody sleeps: nobody needs a watch
    odds = turns.event_odds("travel", dice, fives_are_ones=fives)
    return Preview(day, turn_of_day, rules.is_night(turn_of_day), new_day, now, pace, nav,
                   check, pathfinder, p_lost, dice, fives, odds, camping, campsite, oriented,
                   rested, errants, sheets, previous)


# -- Running the Turn -----------------------------------------------------------------------

def _lock_errants(errants) -> dict[int, ErrantCharacter]:
    pks = [e.pk for e in errants]
    return {e.pk: e for e in ErrantCharacter.objects.select_for_update().filter(pk__in=pks)
            .order_by("pk")}


def is_ration(line: InventoryItem) -> bool:
    """A ration (docs/RULES.md, issue 15): a line named "Ration(s)..." with Depletion left
    (ER's kit: "Rations", Depletion 1), or without a Depletion, a quantity."""
    if not RATION_NAME.match(line.name) or line.quantity < 1:
        return False
    side = getattr(line, "errant_item", None)
    return side is None or side.uses is None or side.uses > 0


def _supply_lines(lines) -> list[InventoryItem]:
    return [line for line in lines if getattr(line, "errant_item", None) is not None
            and line.errant_item.kind == "supply" and line.quantity > 0]


def _eat(turn, errant, plentiful: bool = False) -> str:
    """PR §Event Die – Travel, Deplete, for one member (travel.deplete_member)."""
    lines = carried_lines(errant)
    rations = [line for line in lines if is_ration(line)]
    supply = _supply_lines(lines)
    outcome = rules.deplete_member(bool(rations), sum(s.quantity for s in supply),
                                   plentiful=plentiful)
    name = errant.display_name
    if outcome.outcome == "ration":
        line = rations[0]
        side = getattr(line, "errant_item", None)
        if side is not None and side.uses is not None:
            turns.change_depletion(turn, line, side.uses - 1,
                                   f"{name} eats: {line.name} Depletion {side.uses} to "
                                   f"{side.uses - 1}")
        else:
            turns.change_quantity(turn, line, line.quantity - 1,
                                  f"{name} eats: {line.name} {line.quantity} to "
                                  f"{line.quantity - 1}")
    elif outcome.outcome == "supply":
        line = supply[0]
        turns.change_quantity(turn, line, line.quantity - 1,
                              f"{name}: no ration, Supply {line.quantity} to "
                              f"{line.quantity - 1}")
    else:
        turns.change_exhaustion(turn, errant, outcome.exhaustion,
                                f"{name} has neither rations nor Supply and starves: "
                                f"+{outcome.exhaustion} Exhaustion (TT §Eating & Drinking)")
    return outcome.outcome


def _add_supply(turn, errant, amount: int, label: str) -> None:
    """Forage's Supply onto the Errant's Supply line, or a new one (put back by an undo:
    a QUANTITY change from 0 removes the line, turns._put_back)."""
    supply = _supply_lines(carried_lines(errant))
    if supply:
        line = supply[0]
        turns.change_quantity(turn, line, line.quantity + amount, label)
        return
    line = new_line(errant, {"name": "Supply", "quarters": 1, "kind": "supply",
                             "quantity": amount})
    ErrantTurnChange.objects.create(turn=turn, what=ErrantTurnChange.What.QUANTITY,
                                    character_id=errant.pk, item=line, before=0,
                                    after=amount, label=label[:300])


def _roll_check(rng, attribute: int, dv: int) -> tuple[int, bool]:
    face = checks.roll_d20(rng)
    return face, checks.succeeds(face, attribute, dv)


@transaction.atomic
def run(*, campaign: Campaign, plan: TravelPlan, by, seen: int | None = None,
        request_key: str | None = None, rng: random.Random | None = None) -> ErrantTurn:
    """Run the next Travel Turn (TT §Travel Turn Procedure) and record all it changes."""
    earlier = turns._earlier(request_key)
    if earlier is not None:
        return earlier
    require_guide(campaign, by, "run a Travel Turn")
    lock_company(campaign)
    earlier = turns._earlier(request_key)  # a twin click that waited for the lock
    if earlier is not None:
        return earlier
    errants = members(campaign)
    if not errants:
        raise _no("No Errant has joined the Company yet.", "action")
    p = preview(campaign, plan, errants=errants)
    rng = rng or _rng()
    locked = _lock_errants(errants)
    action = TRAVEL_ACTIONS[plan.action]
    activity = action.name + (f": {plan.activity}" if plan.activity else "")
    state = {"action": plan.action, "action_name": action.name,
             "pace": str(p.pace.pace), "pace_rows": [m.name for m in p.pace.modifiers],
             "weather_before": weather_dict(p.weather), "campsite": p.campsite,
             "new_day": p.new_day, "sleep": dict(p.previous.get("sleep", {})),
             "starving": list(p.previous.get("starving", [])),
             "watchers": list(plan.watchers), "sleepers": list(plan.sleepers),
             "oriented": bool(p.previous.get("oriented")) and not p.check}
    secret: dict = {}
    turn = turns.declare(campaign=campaign, kind=ErrantTurn.Kind.TRAVEL, by=by,
                         activity=activity, day=p.day, turn_of_day=p.turn_of_day,
                         night=p.night, state=state, secret=secret, seen=seen,
                         request_key=request_key)
    if p.new_day:
        turns.note(turn, f"Day {p.day} begins; the weather "
                   + ("persists" if plan.weather_persists else "returns to normal")
                   + f": {p.weather.cell.label} (TT §Weather).")
    if p.turn_of_day == rules.NIGHT_TURN:
        turns.note(turn, "Night falls (the fourth Travel Turn, TT §Day & Night).")
    # The day without food (TT §Eating & Drinking; AMB-E154): on a new day, 1 more each.
    if p.new_day:
        for pk in state["starving"]:
            if pk in locked:
                turns.change_exhaustion(turn, locked[pk], 1,
                                        f"{locked[pk].display_name}: a day without food, "
                                        "+1 Exhaustion (TT §Eating & Drinking)")

    _navigate(turn, plan, p, locked, rng, state, secret)

    # The Event Die (PR §Event Die – Travel Turns).
    rolled = turns.roll_event(turn, p.dice, fives_are_ones=p.fives_are_ones, rng=rng)
    after = p.weather
    effects = rolled.effects
    if effects.rest_or_exhaustion:
        if plan.rest_choice == "rest":
            state["rest_taken"] = True
            turns.note(turn, "The Company Rests: +1 negative Event Die next Turn "
                             "(PR §Event Die; AMB-E141).")
        else:
            for errant in locked.values():
                turns.change_exhaustion(turn, errant, 1, f"{errant.display_name}: the "
                                        "Company does not Rest, +1 Exhaustion")
    if effects.deplete_rations:
        for errant in locked.values():
            outcome = _eat(turn, errant)
            if outcome == "starving":
                if errant.pk not in state["starving"]:
                    state["starving"].append(errant.pk)
            elif errant.pk in state["starving"]:
                state["starving"].remove(errant.pk)
        turns.note(turn, "Ongoing effects and conditions end (PR §Event Die).")
        after = weather.on_event(after, 3)
        if after != p.weather:
            turns.note(turn, f"The weather returns to normal: {after.cell.label}.")
    if rolled.result == "local_effect":
        if plan.weather_changes:
            a, b = rng.randint(1, 6), rng.randint(1, 6)
            before = after
            after = weather.on_event(after, 4, a + b)
            state["weather_roll"] = {"dice": [a, b], "modifier": before.next_roll_modifier,
                                     "total": a + b + before.next_roll_modifier}
            turns.note(turn, f"Local effect: the weather changes. 2d6 {a} + {b}"
                       + (f" {before.next_roll_modifier:+d}" if before.next_roll_modifier
                          else "")
                       + f" = {a + b + before.next_roll_modifier}: {after.cell.label}"
                       f" (was {before.cell.label}).")
        else:
            turns.note(turn, "Local effect: the Guide names an effect of the region.")
    if rolled.result == "encounter":
        turns.note(turn, "Encounter: the Guide decides who or what (and the Reaction).")
    elif rolled.result == "encounter_sign":
        turns.note(turn, "Encounter sign: the Guide gives a clue to the next encounter.")
    state["weather"] = weather_dict(after)

    if state.get("rest_taken"):
        _forgo_action(turn, plan, p, state)
    else:
        _resolve_action(turn, plan, p, locked, rng, state, secret)
    _weather_exhaustion(turn, plan, p, locked, rng, state)

    secret["plan"] = {name: getattr(plan, name) for name in KEPT_CHOICES}
    turn.state, turn.secret = state, secret
    turn.save(update_fields=["state", "secret", "updated_at"])
    return turn


# What the Travel form offers again on the next Turn (the Guide's, kept in turn.secret):
# the land, the maps and the navigator stay; the action, the dice and who sleeps change.
KEPT_CHOICES = ("season", "terrain", "map", "misleading", "base_dv", "pathfinder",
                "attribute", "campsite_if_failed", "rest_choice", "weather_changes",
                "reveal_navigation")


def last_choices(company) -> dict:
    """The Guide's choices of the latest Travel Turn, for the next one's form."""
    last = latest_travel(company)
    kept = (last.secret.get("plan") or {}) if last else {}
    return {name: kept[name] for name in KEPT_CHOICES if name in kept}


def _navigate(turn, plan, p: Preview, locked, rng, state, secret) -> None:
    """The pathfinder's navigation Check (peregrinate, make camp, explore when searching),
    its DV secret; lost: the d6 of the hex direction (TT §Navigation & Getting Lost)."""
    terms = ", ".join(f"{name} {value:+d}" for name, value in p.nav.terms)
    if plan.action == "orient":
        state["oriented"] = True
        turns.note(turn, "The Company orients itself: the next navigation Check's DV -4.")
        return
    if p.check != "pathfinder":
        if plan.action in ("peregrinate", "make_camp") or plan.searching:
            state["navigation"] = {"made": False, "why": "on a road or by a landmark"}
            turns.note(turn, "No navigation Check: on a road or by an obvious landmark "
                             "(TT §Navigation).")
        return
    pathfinder = locked.get(p.pathfinder.pk) if p.pathfinder else None
    if pathfinder is None:
        return
    value = p.sheets[pathfinder.pk].stats[plan.attribute].value
    face, success = _roll_check(rng, value, p.nav.dv)
    secret.update({"navigation_dv": p.nav.dv, "dv_terms": terms, "d20": face,
                   "attribute": plan.attribute, "attribute_value": value,
                   "success": success, "p_lost": str(p.p_lost)})
    outcome = "on course" if success else "lost"
    if plan.action == "make_camp":
        outcome = "a suitable campsite" if success else "no suitable campsite"
        state["campsite"] = "suitable" if success else plan.campsite_if_failed
    elif plan.action == "explore":
        outcome = "found" if success else "not found"
    direction = None
    if plan.action == "peregrinate" and not success:
        d6 = rng.randint(1, 6)
        direction = rules.lost_direction(d6)
        secret.update({"lost_d6": d6, "direction": direction})
    turns.note(turn, f"Navigation Check: {pathfinder.display_name} {plan.attribute} "
               f"{value} against DV {p.nav.dv} ({terms}): d20 {face}, {outcome}"
               + (f"; the d6 gives {secret['lost_d6']}: they move {direction} instead"
                  if direction else "") + ".", secret=True)
    state["navigation"] = {"made": True, "by": pathfinder.display_name,
                           "revealed": plan.reveal_navigation}
    if plan.reveal_navigation:
        state["navigation"].update(outcome=outcome, direction=direction)
        turns.note(turn, f"The Guide tells the Company: {outcome}"
                   + (f", they went {direction}" if direction else "") + ".")
    else:
        turns.note(turn, f"{pathfinder.display_name} makes the navigation Check; the "
                         "Guide keeps its result (TT §Navigation).")
    if plan.action == "make_camp" and not success:
        turns.note(turn, f"No suitable campsite: the Company takes an {state['campsite']} "
                         "one (TT §Unsuitable Campsites).")
    state["oriented"] = False


def _forgo_action(turn, plan, p: Preview, state) -> None:
    """PR §Event Die – Travel Turns: "Rest - the Company must spend the Turn Resting,
    forgoing their declared action". Nothing of the action is resolved (no march counted,
    no Forage, no watch or sleep); an Orient gives no -4; the navigation Check, made before
    the die (TT §Travel Turn Procedure), stays in the log (AMB-E-REST-1)."""
    state["action_forgone"] = True
    if plan.action == "orient":
        state["oriented"] = bool(p.previous.get("oriented"))
    turns.note(turn, f"Resting, the Company forgoes its declared action ({state['action_name']})"
               + ("; it does not move" if plan.action == "peregrinate" else "")
               + " (PR §Event Die – Travel Turns).")


def _resolve_action(turn, plan, p: Preview, locked, rng, state, secret) -> None:
    """The action's own effects: over-marching, Forage, watch and sleep (TT §Day & Night,
    §Travel Turn Actions, §Resting). A march forgone for a Rest does not count."""
    errants = list(locked.values())
    if plan.action == "peregrinate":
        earlier = (turn.company.turns.filter(kind=ErrantTurn.Kind.TRAVEL, day=p.day,
                                             undone_at__isnull=True,
                                             state__action="peregrinate")
                   .exclude(pk=turn.pk).values_list("state", flat=True))
        before = sum(1 for kept in earlier if not kept.get("action_forgone"))
        state["peregrinations_today"] = before + 1
        extra = rules.march_exhaustion_this_turn(before)
        for errant in errants if extra else ():
            turns.change_exhaustion(turn, errant, extra, f"{errant.display_name}: "
                                    f"peregrinating a {_ordinal(before + 1)} Turn today, "
                                    f"+{extra} Exhaustion (TT §Day & Night)")
    if plan.action == "forage":
        rolls = []
        for errant in errants:
            value = p.sheets[errant.pk].stats[plan.attribute].value
            face, success = _roll_check(rng, value, p.nav.dv)
            rolls.append(f"{errant.display_name} d20 {face}")
            if success:
                _add_supply(turn, errant, FORAGE_SUPPLY,
                            f"{errant.display_name} forages: +{FORAGE_SUPPLY} Supply")
            else:
                turns.note(turn, f"{errant.display_name} forages and finds nothing.",
                           character=errant)
        secret.update({"navigation_dv": p.nav.dv, "forage": rolls})
        turns.note(turn, f"Forage against DV {p.nav.dv}: " + "; ".join(rolls) + ".",
                   secret=True)
    if p.camping:
        watch = rules.watch(len(plan.watchers), open_campsite=state["campsite"] == "open")
        for pk in plan.watchers if watch.exhaustion_per_watcher else ():
            errant = locked[pk]
            turns.change_exhaustion(turn, errant, watch.exhaustion_per_watcher,
                                    f"{errant.display_name} keeps watch alone: +1 Exhaustion "
                                    "(TT Take watch)")
        if plan.sleepers and not plan.watchers:
            turns.note(turn, "No watch is kept: an Event Die 5 counts as 1.")
        _sleep(turn, plan, p, locked, state, rng)


def _weather_exhaustion(turn, plan, p: Preview, locked, rng, state) -> None:
    """The weather's Exhaustion, whatever the Company did (TT §Weather)."""
    errants = list(locked.values())
    sheltered = plan.shelter or (p.camping and state["campsite"] == "suitable")
    severity = p.weather.severity
    for errant in errants:
        save = None
        if severity == "inclement" and not sheltered:
            phys = p.sheets[errant.pk].stats[INCLEMENT_SAVE_ATTRIBUTE].value
            face, save = _roll_check(rng, phys, rules.INCLEMENT_SAVE_DV)
            turns.note(turn, f"{errant.display_name}: {p.weather.cell.label}, DV "
                       f"{rules.INCLEMENT_SAVE_DV} phys Saving Throw: d20 {face} against phys "
                       f"{phys}, {'saved' if save else 'failed'}.", character=errant)
        ex = rules.weather_exhaustion(severity, sheltered=sheltered, save_passed=save,
                                      extreme_climate=errant.pk in plan.unoutfitted,
                                      outfitted=False)
        if ex:
            turns.change_exhaustion(turn, errant, ex, f"{errant.display_name}: the weather, "
                                    f"+{ex} Exhaustion (TT §Weather)")


def _sleep(turn, plan, p: Preview, locked, state, rng) -> None:
    """TT §Resting: two Travel Turns' sleep (one on a Beautiful day) since the last Rest
    give a night's Rest: -1 Exhaustion unless the campsite is Uncomfortable; in a warm,
    safe bed in a Settlement, HP back equal to a roll of the damage die (up to the
    maximum), without a healer's kit."""
    sleep = state["sleep"]
    for pk in plan.sleepers:
        key = str(pk)
        sleep[key] = sleep.get(key, 0) + 1
        errant = locked[pk]
        rest = rules.nights_rest(sleep[key], beautiful_day=p.weather.sleep_turns == 1,
                                 uncomfortable=state["campsite"] == "uncomfortable",
                                 safe_bed=plan.safe_bed)
        if not rest.full:
            turns.note(turn, f"{errant.display_name} sleeps ({sleep[key]} of "
                             f"{p.weather.sleep_turns} Turns for a night's Rest).",
                       character=errant)
            continue
        sleep[key] = 0
        turns.note(turn, f"{errant.display_name} has a full night's Rest: resources that "
                   "return with a night's Rest return"
                   + ("; a healer's kit heals a roll of the damage die" if rest.heal_with_kit
                      else "; the Uncomfortable campsite gives no Exhaustion back and no HP")
                   + " (TT §Resting).", character=errant)
        if rest.exhaustion_removed:
            turns.change_exhaustion(turn, errant, -rest.exhaustion_removed,
                                    f"{errant.display_name}: a night's Rest, "
                                    f"-{rest.exhaustion_removed} Exhaustion")
        if rest.heal_without_kit:
            _heal(turn, errant, p.sheets[pk], rng)


def _heal(turn, errant, sheet, rng) -> None:
    """A roll of the Errant's damage die in HP, up to the maximum (TT §Resting)."""
    hp_max = sheet.stats["hp_max"].value
    if errant.hp_current is None or errant.archetype not in ARCHETYPE_DAMAGE_DIE:
        return  # full HP (None), or no Archetype and so no damage die
    die = ARCHETYPE_DAMAGE_DIE[errant.archetype]
    face = rng.randint(1, die)
    after = min(hp_max, errant.hp_current + face)
    turns.change_hp(turn, errant, after, f"{errant.display_name}: a safe bed, d{die} "
                    f"{face}: HP {errant.hp_current} to {after}", before=errant.hp_current)


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth",
            6: "sixth"}.get(n, f"{n}th")


# -- Other Turns (zooming in: Exploration, Initiative, Downtime) ---------------------------

@dataclass(frozen=True)
class OtherPlan:
    kind: str = "exploration"
    activity: str = ""
    parent: int | None = None
    speed: str = "normal"
    breaking_door: bool = False
    lit: tuple[int, ...] | None = None  # light lines lit; None: those in hand or handy
    extra_positive: int = 0
    extra_negative: int = 0
    rest_choice: str = "rest"


def light_lines(errants) -> list[tuple[ErrantCharacter, InventoryItem]]:
    """Every member's lights (kind "light"), with their bearer."""
    return [(e, line) for e in errants for line in carried_lines(e)
            if getattr(line, "errant_item", None) is not None
            and line.errant_item.kind == "light"]


def lit_by_default(line: InventoryItem) -> bool:
    """A light in hand or handy with Burn left is lit unless the Guide says otherwise."""
    return line.errant_item.location in ("hand", "handy") and (line.errant_item.uses or 0) > 0


def other_dice(campaign, plan: OtherPlan, errants=None) -> event_die.EventDice | None:
    if plan.kind == ErrantTurn.Kind.INITIATIVE:
        return None
    errants = members(campaign) if errants is None else errants
    newest = turns.latest(company_of(campaign))
    rested = bool(newest and newest.state.get("rest_taken"))
    if plan.kind == ErrantTurn.Kind.DOWNTIME:
        return event_die.event_dice("downtime", extra_positive=plan.extra_positive,
                                    extra_negative=plan.extra_negative)
    return event_die.event_dice(
        plan.kind, encumbrances=tuple(sheet_for(e).stats["encumbrance"].value
                                      for e in errants),
        pace=plan.speed, rested_last_turn=rested, breaking_door=plan.breaking_door,
        extra_positive=plan.extra_positive, extra_negative=plan.extra_negative)


def check_other(plan: OtherPlan) -> None:
    if plan.kind not in (ErrantTurn.Kind.EXPLORATION, ErrantTurn.Kind.INITIATIVE,
                         ErrantTurn.Kind.DOWNTIME):
        raise _no("Choose an Exploration, Initiative or Downtime Turn.", "kind")
    if plan.speed not in SPEEDS:
        raise _no("Choose normal, slow or quick.", "speed")
    if plan.breaking_door and plan.kind != ErrantTurn.Kind.EXPLORATION:
        raise _no("Breaking down a door is an Exploration Turn's.", "breaking_door")
    if plan.speed != "normal" and plan.kind != ErrantTurn.Kind.EXPLORATION:
        raise _no("Moving slowly or quickly is an Exploration Pace.", "speed")
    for name in ("extra_positive", "extra_negative"):
        if not 0 <= getattr(plan, name) <= MAX_EXTRA_DICE:
            raise _no(f"0 to {MAX_EXTRA_DICE} extra dice.", name)
    if plan.rest_choice not in ("rest", "exhaustion"):
        raise _no("Choose Rest or 1 Exhaustion each.", "rest_choice")


@transaction.atomic
def run_other(*, campaign: Campaign, plan: OtherPlan, by, seen: int | None = None,
              request_key: str | None = None, rng: random.Random | None = None
              ) -> ErrantTurn:
    """An Exploration, Initiative or Downtime Turn (zooming in from `parent`), its Event
    Die rolled and what the app can apply applied: Rest, Exploration's Burn (each lit
    light Burn -1, or Supply -1 each without one: exploration.burn_result), the rest
    named for the Guide. Initiative Turns have no Event Die (AMB-E140)."""
    earlier = turns._earlier(request_key)
    if earlier is not None:
        return earlier
    require_guide(campaign, by, "declare a Turn")
    check_other(plan)
    company = lock_company(campaign)
    earlier = turns._earlier(request_key)  # a twin click that waited for the lock
    if earlier is not None:
        return earlier
    errants = members(campaign)
    dice = other_dice(campaign, plan, errants)
    parent = None
    if plan.parent is not None:
        parent = company.turns.filter(pk=plan.parent, undone_at__isnull=True).first()
    turn = turns.declare(campaign=campaign, kind=plan.kind, by=by, activity=plan.activity,
                         parent=plan.parent, day=parent.day if parent else None,
                         seen=seen, request_key=request_key)
    if dice is None:
        return turn
    rng = rng or _rng()
    locked = _lock_errants(errants)
    rolled = turns.roll_event(turn, dice, rng=rng)
    state: dict = {}
    if rolled.effects.rest_or_exhaustion:
        if plan.rest_choice == "rest":
            state["rest_taken"] = True
            turns.note(turn, "The Company Rests: +1 negative Event Die next Turn.")
        else:
            for errant in locked.values():
                turns.change_exhaustion(turn, errant, 1, f"{errant.display_name}: the "
                                        "Company does not Rest, +1 Exhaustion")
    if rolled.effects.burn_lights:
        lights = [(bearer, line) for bearer, line in light_lines(locked.values())
                  if (line.pk in plan.lit if plan.lit is not None else lit_by_default(line))
                  and (line.errant_item.uses or 0) > 0]
        burn = exploration.burn_result([line.errant_item.uses for _, line in lights])
        for bearer, line in lights:
            uses = line.errant_item.uses
            turns.change_depletion(turn, line, uses - 1, f"{bearer.display_name}'s "
                                   f"{line.name}: Burn {uses} to {uses - 1}")
        for errant in locked.values() if burn.supply_each else ():
            supply = _supply_lines(carried_lines(errant))
            if supply:
                turns.change_quantity(turn, supply[0], supply[0].quantity - burn.supply_each,
                                      f"{errant.display_name}: no light lit, Supply "
                                      f"{supply[0].quantity} to "
                                      f"{supply[0].quantity - burn.supply_each}")
        turns.note(turn, "Active Sorceries and Miracles: Depletion -1 each; ongoing "
                         "effects or conditions end (PR §Event Die – Exploration).")
    elif rolled.effects.ongoing_effects_end:
        turns.note(turn, "Ongoing effects, complications or arrangements end.")
    if rolled.result not in ("free", "rest", "burn"):
        turns.note(turn, f"{rolled.meaning[0].upper()}{rolled.meaning[1:]} The Guide "
                   "decides what.")
    if state:
        turn.state = state
        turn.save(update_fields=["state", "updated_at"])
    return turn


def current_weather(company) -> dict | None:
    last = latest_travel(company)
    return last.state.get("weather") if last else None
