"""The Downtime Turn at the table (issue 15, "Downtime Turns"): the Guide walks DT's eleven
steps in order, then lifestyle after the last Turn of a run. The rules are the engine's
(rules/engine/errant/downtime.py); this module rolls the dice, writes through the Turn
log (turns.py) and the Company's ledgers, and keeps the walk in `turn.state`.

- A Downtime Turn is declared with `turns.declare(kind="downtime")`; its public state
  holds the settlement, whether it is the last of the run, the steps done (the engine's
  `complete_step` refuses one out of order, AMB-E29), the trackers (carried from the
  previous Downtime Turn, so an undo takes a Turn's progress back with it), the months
  elapsed, the Errants who acted and consumed, and the Company ledger entries it wrote.
- Every write: one transaction, the Company row locked, the Guide only, `seen` (the
  Turn's version the page showed) refuses a stale page, a `request_key` counts a double
  click once.
- What a step changes on a character goes through `turns.change_*` (HP, Supply, money,
  XP), so the Turn log shows it and `undo` puts it back. The Company's debt entries
  (doubling, Conspicuous Consumption on credit) and reputation changes are not Turn
  changes: `undo` reverses them with the Company's own undo (`company.debt_undo`,
  `company.reputation_undo`) in the same transaction.
- Archetype resources, True Strikes and Deflects are not tracked by the app: the recovery
  step names them in the log. Scourges are tracked in the state (carried like trackers);
  the Event Die rolls the malice of those it triggers.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from itertools import product

from django.db import transaction

from campaigns.models import Campaign
from campaigns.services import CampaignError, check_text
from characters.systems.errant.builds import sheet_for
from characters.systems.errant.inventory import carried_lines
from characters.systems.errant.models import ErrantCharacter
from rules.engine.errant import checks, event_die
from rules.engine.errant import downtime as engine
from rules.engine.errant import wounds as wo
from rules.engine.errant.data.downtime_tables import (
    CONSUMPTION_DICE,
    CONSUMPTION_KINDS,
    DOWNTIME_STEPS,
    LIFESTYLE_STEP,
    SETTLEMENTS,
    TRACKER_RUBRIC,
)

from . import advancement, company, turns
from .company_models import ErrantDebtEntry, ErrantFaction
from .turn_models import ErrantTurn, ErrantTurnChange

KIND = ErrantTurn.Kind.DOWNTIME
STEP_NAMES = dict(DOWNTIME_STEPS) | {LIFESTYLE_STEP[0]: LIFESTYLE_STEP[1]}
STEP_TITLES = {
    "declare": "Declare the Downtime Turn", "recover": "Recovery",
    "event_die": "Roll the Event Die", "resolve_event": "Resolve the Event Die",
    "debt": "Debt doubles", "rumour": "A rumour", "free_actions": "Free actions",
    "actions": "Downtime actions", "consumption": "Conspicuous Consumption",
    "factions": "Faction turns", "calendar": "The calendar", "lifestyle": "Lifestyle",
}
TRACKER_SIZES = tuple(size for size, _ in TRACKER_RUBRIC)
MAX_EXTRA_DICE = 3
MAX_MODIFIER = 10  # situational modifiers typed in; the engine caps the total at +/-3
MAX_TIER = 10  # an Institution's tier, far above the text's
MAX_ASSETS = 50
MAX_PENNIES = advancement.MAX_PENNIES
TEXT_LENGTH = 200
_SYSTEM_RANDOM = random.SystemRandom()


def settlement_tier(settlement: str) -> int:
    """PR §Settlement Types: hamlet 1 ... metropolis 5 (the market's tier)."""
    return SETTLEMENTS.index(settlement) + 1


# -- reads ---------------------------------------------------------------------------------


def downtime_turns(company) -> list[ErrantTurn]:
    return list(company.turns.filter(kind=KIND, undone_at__isnull=True).order_by("-number"))


def open_turn(company) -> ErrantTurn | None:
    """The newest Downtime Turn not undone, while its walk is not finished."""
    turn = company.turns.filter(kind=KIND, undone_at__isnull=True).order_by("-number").first()
    if turn is None or next_step(turn) is None:
        return None
    return turn


def steps_of(turn: ErrantTurn) -> tuple[str, ...]:
    keys = engine.STEP_KEYS
    return (*keys, engine.LIFESTYLE_KEY) if turn.state.get("last") else keys


def next_step(turn: ErrantTurn) -> str | None:
    done = turn.state.get("done", [])
    steps = steps_of(turn)
    return steps[len(done)] if len(done) < len(steps) else None


def version(turn: ErrantTurn | None) -> int:
    return turn.state.get("version", 0) if turn is not None else 0


def carried(company) -> dict:
    """What the newest Downtime Turn (not undone) hands on: trackers and the calendar."""
    last = company.turns.filter(kind=KIND, undone_at__isnull=True).order_by("-number").first()
    if last is None:
        return {"trackers": [], "months": 0, "scourges": []}
    return {"trackers": last.state.get("trackers", []), "months": last.state.get("months", 0),
            "scourges": last.state.get("scourges", [])}


@dataclass(frozen=True)
class Odds:
    label: str
    chance: Fraction


def event_odds(extra_positive: int = 0, extra_negative: int = 0) -> list[tuple[str, str,
                                                                                Fraction]]:
    dice = event_die.event_dice(KIND, extra_positive=extra_positive,
                                extra_negative=extra_negative)
    return turns.event_odds(KIND, dice)


def event_face_odds(extra_positive: int = 0, extra_negative: int = 0) -> dict[int, Fraction]:
    return event_die.distribution(extra_positive, extra_negative)


# -- the write wrapper ---------------------------------------------------------------------


def _reused(turn: ErrantTurn, request_key: str | None) -> bool:
    return bool(request_key) and request_key in turn.state.get("keys", [])


@dataclass
class Step:
    """What a step's function gets: the locked Company and Turn, the Guide, the dice."""

    campaign: Campaign
    company: object
    turn: ErrantTurn
    by: object
    rng: random.Random

    @property
    def state(self) -> dict:
        return self.turn.state

    def roll(self, sides: int) -> int:
        return self.rng.randint(1, sides)

    def note(self, label: str, *, character=None, secret: bool = False) -> None:
        turns.note(self.turn, label, character=character, secret=secret)


def _locked_turn(campaign: Campaign, by, turn_pk: int, seen: int | None) -> tuple:
    company.require_guide(campaign, by, "run a Downtime Turn")
    locked = company.lock_company(campaign)
    turn = ErrantTurn.objects.select_for_update().filter(
        company=locked, pk=turn_pk, kind=KIND, undone_at__isnull=True).first()
    if turn is None:
        raise CampaignError("That Downtime Turn is not in this Company's log (undone?).",
                            "no_turn")
    return locked, turn


def _stale() -> CampaignError:
    return CampaignError("This Downtime Turn moved on since the page was loaded (another "
                         "click or another Guide): here it is again.", "stale")


def _save(turn: ErrantTurn, request_key: str | None) -> None:
    turn.state["version"] = version(turn) + 1
    if request_key:
        turn.state["keys"] = [*turn.state.get("keys", []), request_key][-50:]
    turn.save(update_fields=["state", "updated_at"])


@transaction.atomic
def act(*, campaign: Campaign, by, turn_pk: int, step: str, action: str = "finish",
        data: dict | None = None, seen: int | None = None, request_key: str | None = None,
        rng: random.Random | None = None) -> ErrantTurn:
    """One thing done in the step `step` of Downtime Turn `turn_pk`: a single-shot step's
    only action ("finish") completes it; a step of many (free actions, actions,
    consumption, factions) takes its actions one at a time and "finish" completes it."""
    locked, turn = _locked_turn(campaign, by, turn_pk, seen)
    if _reused(turn, request_key):
        return turn
    if seen is not None and seen != version(turn):
        raise _stale()
    expected = next_step(turn)
    if expected is None:
        raise CampaignError("This Downtime Turn is over.", "turn_over")
    if step != expected:
        raise CampaignError(f"Next comes {STEP_TITLES[expected]}, not "
                            f"{STEP_TITLES.get(step, step)} (DT §Downtime Turn Procedure: "
                            "the steps in order).", "out_of_order")
    handlers = HANDLERS[step]
    if action not in handlers:
        raise CampaignError("Unknown action for this step.", "bad_action")
    ctx = Step(campaign, locked, turn, by, rng or _SYSTEM_RANDOM)
    finished = handlers[action](ctx, data or {})
    if finished:
        _complete(turn, step)
    _save(turn, request_key)
    return turn


def _complete(turn: ErrantTurn, step: str) -> None:
    done = tuple(turn.state.get("done", []))
    if step == engine.LIFESTYLE_KEY:
        walked = engine.DowntimeTurn(turn.kind_number, done[:len(engine.STEP_KEYS)])
        if not engine.lifestyle_due(walked, turn.state.get("last", False)):
            raise CampaignError("Lifestyle is paid after the last Downtime Turn.",
                                "not_last")
        turn.state["done"] = [*done, step]
        return
    try:
        walked = engine.complete_step(engine.DowntimeTurn(turn.kind_number, done), step)
    except engine.DowntimeError as error:
        raise CampaignError(str(error), error.code) from error
    turn.state["done"] = list(walked.done)


# -- starting ------------------------------------------------------------------------------


@transaction.atomic
def start(*, campaign: Campaign, by, settlement: str, last: bool = False,
          seen: int | None = None, request_key: str | None = None) -> ErrantTurn:
    """Step 1 (DT §Downtime Turn Procedure: "The Guide declares the Downtime Turn; the
    timekeeper notes its number"): a Downtime Turn in the log, in `settlement`."""
    if request_key:
        earlier = ErrantTurn.objects.filter(request_key=request_key).first()
        if earlier is not None:
            return earlier
    company.require_guide(campaign, by, "run a Downtime Turn")
    if settlement not in SETTLEMENTS:
        raise CampaignError(f"Choose a settlement: {', '.join(SETTLEMENTS)}.",
                            "bad_settlement", field="settlement")
    locked = company.lock_company(campaign)
    if open_turn(locked) is not None:
        raise CampaignError("A Downtime Turn is under way: finish it or undo it first.",
                            "turn_open")
    before = carried(locked)
    number = locked.turns.filter(kind=KIND).count() + 1
    engine.start_downtime(number)
    state = {"settlement": settlement, "last": bool(last), "done": [],
             "trackers": before["trackers"], "months": before["months"],
             "scourges": before["scourges"], "acted": [],
             "consumed": [], "debt_entries": [], "reputation_entries": [], "version": 0}
    turn = turns.declare(campaign=campaign, kind=KIND, by=by, seen=seen,
                         activity=f"Downtime in a {settlement}", state=state,
                         request_key=request_key)
    _complete(turn, "declare")
    turns.note(turn, f"Downtime Turn {turn.kind_number} declared in a {settlement} (tier "
                     f"{settlement_tier(settlement)})"
                     + ("; the last of this run: lifestyle is paid after it" if last else ""))
    _save(turn, None)
    return turn


# -- step 2: recovery ----------------------------------------------------------------------


def _members(campaign) -> list[ErrantCharacter]:
    return list(ErrantCharacter.objects.select_for_update().filter(
        pk__in=company.member_pks(campaign)).order_by("pk"))


def _recover(ctx: Step, data: dict) -> bool:
    """DT §Recovery, step 2: HP to maximum (the maximum the lasting wounds leave; none for
    a wound that says "Can't recover HP", AMB-E89), leftover Supply removed (turns.change_*);
    Archetype resources, True Strikes and Deflects named (the app does not track them)."""
    for errant in _members(ctx.campaign):
        sheet = sheet_for(errant)
        hp_max = sheet.value("hp_max")
        before = errant.hp_current if errant.hp_current is not None else hp_max
        carried = [wo.wound_at(column, row) for column, row in sheet.build.wounds]
        recovers = wo.can_recover_hp(carried)
        after = engine.recover(engine.Member(before, hp_max, {},
                                             can_recover_hp=recovers)).hp
        if recovers:
            turns.change_hp(ctx.turn, errant, after, f"{errant.display_name}: HP restored "
                            f"to {after} (DT §Recovery)", before=before)
        else:
            ctx.note(f"{errant.display_name} can't recover HP (a lasting wound: Blood "
                     f"tainted): HP stays {before}.", character=errant)
        for line in carried_lines(errant):
            if line.errant_item.kind == "supply":
                turns.change_quantity(ctx.turn, line, 0, f"{errant.display_name}: leftover "
                                      f"Supply removed ({line.name}) (DT step 2)")
    ctx.note("Archetype resources, True Strikes and Deflects are restored in full (DT "
             "§Recovery): mark them on the sheets.")
    return True


# -- steps 3-4: the Event Die and its table -------------------------------------------------


def _int(data: dict, key: str, low: int, high: int, default: int | None = None,
         label: str = "") -> int:
    value = data.get(key, default)
    if isinstance(value, str):
        value = value.strip()
        try:
            value = int(value) if value else default
        except ValueError:
            value = "bad"
    if value is None or isinstance(value, bool) or not isinstance(value, int) \
            or not low <= value <= high:
        raise CampaignError(f"{label or key.capitalize()}: a whole number from {low} to "
                            f"{high}.", "bad_number", field=key)
    return value


def _event_die(ctx: Step, data: dict) -> bool:
    """PR §Event Die - Downtime Turns: rolled before any actions; the text lists no dice
    sources for Downtime, so only the Guide's extra dice apply."""
    positive = _int(data, "extra_positive", 0, MAX_EXTRA_DICE, 0, "Positive dice")
    negative = _int(data, "extra_negative", 0, MAX_EXTRA_DICE, 0, "Negative dice")
    dice = event_die.event_dice(KIND, extra_positive=positive, extra_negative=negative)
    roll = turns.roll_event(ctx.turn, dice, rng=ctx.rng)
    ctx.note(f"Event Die: {', '.join(map(str, roll.faces))} → {roll.kept}: {roll.meaning}")
    _malice(ctx, roll.kept)
    return True


def _scourge(row: dict) -> engine.Scourge:
    return engine.Scourge(row["name"], row["peril"])


def _malice(ctx: Step, face: int) -> None:
    """DT §Scourges: the Event Die equal to or lower than an active Scourge's peril
    (AMB-E79) rolls its malice D6: 1-5 it harms the region, 6 its peril rises (7: a
    calamity, no longer active)."""
    rows = ctx.state.setdefault("scourges", [])
    triggered = {s.name for s in engine.scourges_triggered(face, map(_scourge, rows))}
    for row in rows:
        if row["name"] not in triggered:
            continue
        d6 = ctx.roll(6)
        after, harms = engine.malice(_scourge(row), d6)
        row["peril"] = after.peril
        told = ("it harms the region (the Guide says how)" if harms else
                f"its peril rises to {after.peril}"
                + ("" if after.active else ": a calamity (DT §Scourges)"))
        ctx.note(f"Scourge {row['name']} (Event Die {face} ≤ peril): malice D6 {d6}, {told}")


def _roll_sum(ctx: Step, n: int, sides: int) -> list[int]:
    return [ctx.roll(sides) for _ in range(n)]


def _resolve_event(ctx: Step, data: dict) -> bool:
    """PR §Event Die - Downtime Turns: a 2 rolls a complication (2D6), a 4 a trend (2D4)
    (engine.table_for_event; AMB-E78); other results are read as the Event Die says."""
    face = ctx.turn.event_face
    table = engine.table_for_event(face)
    if table == "complication":
        dice = _roll_sum(ctx, 2, 6)
        text = engine.complication(sum(dice))
        ctx.state["event_table"] = {"table": "Downtime Complications", "dice": dice,
                                    "text": text}
        ctx.note(f"Complication, 2D6 {dice[0]} + {dice[1]} = {sum(dice)}: {text}")
    elif table == "trend":
        dice = _roll_sum(ctx, 2, 4)
        text = engine.trend(sum(dice))
        ctx.state["event_table"] = {"table": "Downtime Trends", "dice": dice, "text": text}
        ctx.note(f"Trend, 2D4 {dice[0]} + {dice[1]} = {sum(dice)}: {text}")
    else:
        ctx.note(f"Event Die {face}: {ctx.turn.event_meaning} (no Downtime table to roll)")
    return True


# -- step 5: debt --------------------------------------------------------------------------


def _debt(ctx: Step, data: dict) -> bool:
    """DT §Debts: "At the start of every Downtime Turn, the remaining amount owed by the
    Company doubles" (through the Company's debt ledger; undone with it)."""
    owed = company.debt(ctx.company)
    if owed <= 0:
        ctx.note("The Company owes nothing: no debt doubles (DT §Debts).")
        return True
    entry = company.debt_change(campaign=ctx.campaign, kind=ErrantDebtEntry.Kind.DOUBLED,
                                by=ctx.by)
    ctx.state["debt_entries"].append(entry.pk)
    a, b = ctx.roll(6), ctx.roll(6)
    who = engine.creditor(a, b)
    ctx.note(f"The Company's debt doubles: {owed:,} p → {owed + entry.amount:,} p (DT "
             f"§Debts). The creditor (D6 {a}, D6 {b}): a {who}.")
    return True


# -- step 6: rumour ------------------------------------------------------------------------


def _rumour(ctx: Step, data: dict) -> bool:
    text = check_text(data.get("rumour", ""), field="rumour", length=TEXT_LENGTH,
                      required="Name the rumour the Company hears.")
    secret = bool(data.get("secret"))
    ctx.note(f"Rumour: {text}", secret=secret)
    if secret:
        ctx.note("The Company hears a rumour (the Guide tells it).")
    return True


# -- step 7: free actions ------------------------------------------------------------------


def _member(ctx: Step, data: dict, key: str = "character") -> ErrantCharacter:
    raw = data.get(key)
    try:
        pk = int(raw)
    except (TypeError, ValueError):
        pk = None
    errant = None
    if pk is not None:
        errant = ErrantCharacter.objects.select_for_update().filter(
            pk=pk, pk__in=company.member_pks(ctx.campaign)).first()
    if errant is None:
        raise CampaignError("Choose an Errant of the Company.", "not_member", field=key)
    return errant


RETAINER_TYPES = {"hirelings": "Hirelings", "specialists": "Specialists",
                  "mercenaries": "Mercenaries", "henchmen": "Henchmen"}
MERCENARY_MULTIPLIER = 10  # DT §Hiring Retainers: "D8 x 10 mercenaries"


def morale_odds(pres: int, pay_increase_percent: int = 0) -> dict[int, Fraction]:
    """The exact chance of each Morale a Retainer hired by an Errant of `pres` has, over
    the 36 rolls of 2D6 (engine.retainer_morale)."""
    counts: dict[int, int] = {}
    for a, b in product(range(1, 7), repeat=2):
        morale = engine.retainer_morale(pres, a + b, pay_increase_percent)
        counts[morale] = counts.get(morale, 0) + 1
    return {m: Fraction(n, 36) for m, n in sorted(counts.items())}


def _hire(ctx: Step, data: dict) -> bool:
    """DT §Hiring Retainers: the Settlement's Retainer die for hirelings and specialists,
    the die x 10 mercenaries (10% lieutenants, 5% captains; towns and larger), +1 to the
    roll per 100p advertising (at most the die's size); advertising also attracts one
    henchman per 100p, each with the Settlement's Renown die and a D10 Archetype. Their
    Morale: the employer's pres and 2D6 (+1 per 25% more pay, at most +3). Advertising is
    paid from the hirer's purse (turns.change_money)."""
    errant = _member(ctx, data)
    kind = data.get("retainer_type") or "hirelings"
    if kind not in RETAINER_TYPES:
        raise CampaignError("Choose hirelings, specialists, mercenaries or henchmen.",
                            "bad_retainer_type", field="retainer_type")
    settlement = ctx.state["settlement"]
    dice = engine.retainer_dice(settlement)
    if kind == "mercenaries" and not dice.mercenaries:
        raise CampaignError(f"A {settlement} has no mercenaries (towns and larger).",
                            "no_mercenaries", field="retainer_type")
    advertising = _int(data, "advertising", 0, MAX_PENNIES, 0, "Advertising")
    pay = _int(data, "pay_increase", 0, 1000, 0, "Pay increase")
    bonus = engine.advertising_bonus(settlement, advertising)
    if kind == "henchmen" and bonus < 1:
        raise CampaignError("Henchmen are attracted by advertising: 100p for each.",
                            "no_advertising", field="advertising")
    if advertising > errant.coins_cp:
        raise CampaignError(f"{errant.display_name} has only {errant.coins_cp:,} p.",
                            "not_enough_money", field="advertising")
    if advertising:
        turns.change_money(ctx.turn, errant, -advertising, f"{errant.display_name}: "
                           f"{advertising:,} p advertising for {kind}", by=ctx.by)
    pres = sheet_for(errant).value("pres")
    head = f"{errant.display_name} hires {kind} in a {settlement}: "
    if kind == "henchmen":
        found = []
        for _ in range(bonus):
            renown = ctx.roll(dice.henchman_renown_die) if dice.henchman_renown_die > 1 else 1
            d10 = ctx.roll(10)
            found.append(f"Renown {renown}, {engine.henchman_archetype(d10)} (D10 {d10})")
        ctx.note(head + f"{bonus} interested: " + "; ".join(found) + ". They negotiate "
                 "their share before joining (DT §Hiring Retainers).", character=errant)
        return False
    face = ctx.roll(dice.die)
    roll = face + bonus
    if kind == "mercenaries":
        total = roll * MERCENARY_MULTIPLIER
        answered = (f"{total} mercenaries, of whom {total // 10} lieutenants and "
                    f"{total // 20} captains")
    else:
        answered = f"{roll} {kind}"
    morale_dice = _roll_sum(ctx, 2, 6)
    morale = engine.retainer_morale(pres, sum(morale_dice), pay)
    ctx.note(head + f"D{dice.die} {face}" + (f" + {bonus} advertising" if bonus else "")
             + f": {answered} available; Morale {morale} (pres {pres}, 2D6 "
             f"{morale_dice[0]} + {morale_dice[1]}" + (f", {pay}% more pay" if pay else "")
             + ") (DT §Hiring Retainers)", character=errant)
    return False


def _funeral(ctx: Step, data: dict) -> bool:
    """DT §Funerals: 1 XP per 1p spent commemorating a fallen comrade, paid from the
    purse (turns.change_money) and granted as XP (advancement.waste_grant, source
    funeral; turns.change_xp)."""
    errant = _member(ctx, data)
    pennies = _int(data, "pennies", 1, MAX_PENNIES, None, "Pennies")
    whom = check_text(data.get("note", ""), field="note", length=TEXT_LENGTH)
    if pennies > errant.coins_cp:
        raise CampaignError(f"{errant.display_name} has only {errant.coins_cp:,} p.",
                            "not_enough_money", field="pennies")
    xp = engine.funeral_xp(pennies)
    turns.change_money(ctx.turn, errant, -pennies, f"{errant.display_name}: {pennies:,} p "
                       "for a funeral", by=ctx.by)
    for entry in advancement.waste_grant(campaign=ctx.campaign, characters=[errant],
                                         source="funeral", pennies=pennies, by=ctx.by,
                                         note=whom):
        turns.change_xp(ctx.turn, entry, f"{errant.display_name}: +{xp:,} XP for a funeral "
                        "(DT §Funerals)" + (f": {whom}" if whom else ""))
    return False


# -- step 8: the action --------------------------------------------------------------------


def _action(ctx: Step, data: dict) -> bool:
    """DT §Downtime Turn Actions: one action per Errant, 2D6 + modifiers (+1 per assisting
    Errant; at most +/-3 in total): 10+ success, 7-9 progress banked or a setback, 6-
    nothing. A tracker of 1, 3, 5 or 7 successes is kept across Downtime Turns."""
    errant = _member(ctx, data)
    if errant.pk in ctx.state["acted"]:
        raise CampaignError(f"{errant.display_name} has taken this Turn's action.",
                            "acted", field="character")
    name = check_text(data.get("tracker", ""), field="tracker", length=TEXT_LENGTH,
                      required="Name the goal (its tracker).")
    modifier = engine.action_modifier(
        [_int(data, "modifier", -MAX_MODIFIER, MAX_MODIFIER, 0, "Modifier")],
        _int(data, "assists", 0, 10, 0, "Assists"))
    partial_as = data.get("partial_as") or "progress"
    if partial_as not in ("progress", "setback"):
        raise CampaignError("A 7-9 is progress or a setback.", "bad_partial",
                            field="partial_as")
    trackers = ctx.state["trackers"]
    found = next((t for t in trackers if t["name"].lower() == name.lower()
                  and not t["marked"] >= t["size"]), None)
    if found is None:
        size = _int(data, "size", 1, 7, 1, "Size")
        if size not in TRACKER_SIZES:
            raise CampaignError("A tracker has 1, 3, 5 or 7 successes (DT §Downtime Turn "
                                "Actions).", "bad_size", field="size")
        found = {"name": name, "size": size, "marked": 0, "banked": False,
                 "setback": False, "errant": errant.display_name}
        trackers.append(found)
    tracker = engine.Tracker(found["name"], found["size"], found["marked"], found["banked"],
                             found["setback"])
    if tracker.setback:
        if not data.get("clear_setback"):
            raise CampaignError(f"{tracker.name} has a setback: deal with it first (tick "
                                "'The setback is dealt with').", "setback",
                                field="clear_setback")
        tracker = engine.clear_setback(tracker)
    if tracker.banked:
        after = engine.attempt(tracker, None)
        told = "banked progress: succeeds without a roll"
    else:
        dice = _roll_sum(ctx, 2, 6)
        total = sum(dice) + modifier
        after = engine.attempt(tracker, total, partial_as=partial_as)
        outcome = engine.action_outcome(total)
        told = (f"2D6 {dice[0]} + {dice[1]} {modifier:+d} = {total}: {outcome}"
                + (f" ({partial_as})" if outcome == engine.PARTIAL else ""))
    found.update(marked=after.marked, banked=after.banked, setback=after.setback)
    ctx.state["acted"].append(errant.pk)
    ctx.note(f"{errant.display_name}, {name}: {told}; tracker {after.marked}/{after.size}"
             + (" (complete)" if after.complete else ""), character=errant)
    return False


# -- step 9: Conspicuous Consumption -------------------------------------------------------


def _consume(ctx: Step, data: dict) -> bool:
    """DT §Conspicuous Consumption: the Settlement's die (+ Institution tier - penalty) x
    its multiplier wasted: paid from the purse (turns.change_money), all of it as XP
    (advancement.waste_grant, turns.change_xp; AMB-E80); beyond the purse the surplus is
    the Company's debt and a Save of the kind's Attribute, DV = the roll (AMB-E27); a
    failed Save rolls the D20 trouble table."""
    errant = _member(ctx, data)
    if errant.pk in ctx.state["consumed"]:
        raise CampaignError(f"{errant.display_name} has consumed this Turn.", "consumed",
                            field="character")
    kind = data.get("kind")
    if kind not in CONSUMPTION_KINDS:
        raise CampaignError("Choose the kind of Conspicuous Consumption.", "bad_kind",
                            field="kind")
    tier = _int(data, "institution_tier", 0, MAX_TIER, 0, "Institution tier")
    penalty = _int(data, "penalty", 0, 20, 0, "Penalty")
    doubled = bool(data.get("doubled"))
    settlement = ctx.state["settlement"]
    die, _ = CONSUMPTION_DICE[settlement]
    money = max(errant.coins_cp, 0)
    owed = company.debt(ctx.company)
    if owed > 0:
        raise CampaignError(f"While the Company owes a debt ({owed:,} p), no Errant may "
                            "engage in Conspicuous Consumption (DT §Debts).",
                            "company_in_debt", field="character")
    face = ctx.roll(die)
    spent = engine.consumption(kind, settlement, face, money=money, institution_tier=tier,
                               penalty=penalty, doubled=doubled)
    label = CONSUMPTION_KINDS[kind][0]
    ctx.state["consumed"].append(errant.pk)
    told = (f"{errant.display_name}, {label} in a {settlement}: D{die} {face}"
            + (f" + tier {tier}" if tier else "") + (f" - {penalty}" if penalty else "")
            + (" doubled" if doubled else "") + f" → {spent.amount:,} p wasted")
    if spent.amount <= 0:
        ctx.note(told + ": nothing wasted, no XP", character=errant)
        return False
    paid = spent.amount - spent.debt
    turns.change_money(ctx.turn, errant, -paid, f"{errant.display_name}: {paid:,} p of "
                       f"Conspicuous Consumption ({label})", by=ctx.by)
    for entry in advancement.waste_grant(campaign=ctx.campaign, characters=[errant],
                                         source="conspicuous", consumption=kind,
                                         pennies=spent.amount, by=ctx.by):
        turns.change_xp(ctx.turn, entry, f"{errant.display_name}: +{spent.xp:,} XP for "
                        f"Conspicuous Consumption ({label})")
    ctx.note(told, character=errant)
    if spent.debt:
        entry = company.debt_change(campaign=ctx.campaign, kind=ErrantDebtEntry.Kind.OWED,
                                    amount=spent.debt, by=ctx.by,
                                    note=f"{errant.display_name}'s Conspicuous Consumption "
                                         "beyond the purse")
        ctx.state["debt_entries"].append(entry.pk)
        attribute = spent.save_attribute
        value = sheet_for(errant).value(attribute)
        d20 = ctx.roll(checks.D20)
        saved = checks.succeeds(d20, value, spent.save_dv)
        chance = checks.p_success(value, spent.save_dv)
        text = (f"{errant.display_name} owes {spent.debt:,} p beyond the purse: the Company's "
                f"debt. Save {attribute} {value} vs DV {spent.save_dv} (chance "
                f"{chance.numerator}/{chance.denominator}): d20 {d20}, "
                + ("saved" if saved else "failed"))
        if not saved:
            trouble = ctx.roll(20)
            text += f"; trouble (D20 {trouble}): {engine.consumption_trouble(trouble)}"
        ctx.note(text, character=errant)
    return False


# -- step 10: Faction turns ----------------------------------------------------------------


def _faction(ctx: Step, data: dict) -> bool:
    """DT §Faction Turns: D6 + relevant assets - opposing assets; 6+ a success, 12+ two;
    0 or less loses an asset (AMB-E81). A reputation change for the Company may follow
    (DT §Reputation), through the Company's reputation ledger."""
    name = check_text(data.get("faction", ""), field="faction", length=TEXT_LENGTH,
                      required="Name the Faction.")
    assets = _int(data, "assets", 0, MAX_ASSETS, 0, "Assets")
    opposing = _int(data, "opposing", 0, MAX_ASSETS, 0, "Opposing assets")
    change = _int(data, "reputation", -10, 10, 0, "Reputation change")
    faction = None
    if change:
        faction = ErrantFaction.objects.filter(company=ctx.company, name__iexact=name).first()
        if faction is None:
            raise CampaignError("A reputation change needs a Faction the Company knows "
                                "(add it on the Company page).", "no_such_faction",
                                field="faction")
    d6 = ctx.roll(6)
    total, successes, lost = engine.faction_turn(d6, assets, opposing)
    text = (f"Faction turn, {name}: D6 {d6} + {assets} - {opposing} = {total}: "
            + (f"{successes} success(es)" if successes else
               f"loses {lost} asset(s)" if lost else "no success"))
    if faction is not None:
        entry = company.reputation_change(campaign=ctx.campaign, faction_pk=faction.pk,
                                          change=change, by=ctx.by,
                                          note=f"Downtime Turn {ctx.turn.kind_number}")
        ctx.state["reputation_entries"].append(entry.pk)
        text += f"; the Company's reputation with {faction.name} {change:+d}"
    ctx.note(text)
    return False


def faction_odds(assets: int = 0, opposing: int = 0) -> dict[str, Fraction]:
    """The exact chance of each Faction turn outcome over the D6's faces
    (engine.faction_turn)."""
    counts: dict[str, int] = {}
    for d6 in range(1, 7):
        _, successes, lost = engine.faction_turn(d6, assets, opposing)
        key = (f"{successes} success(es)" if successes else
               f"loses {lost} asset(s)" if lost else "no success")
        counts[key] = counts.get(key, 0) + 1
    return {key: Fraction(n, 6) for key, n in counts.items()}


def consumption_debt_odds(settlement: str, money: int, institution_tier: int = 0
                          ) -> Fraction:
    """The chance that an Errant with `money` goes beyond the purse (into the Company's
    debt, and a Save) in `settlement`: the amounts of engine.consumption_odds above it."""
    return sum((chance for amount, chance in
                engine.consumption_odds(settlement, institution_tier).items()
                if amount > money), Fraction(0))


# -- step 11: the calendar; lifestyle -------------------------------------------------------


def _calendar(ctx: Step, data: dict) -> bool:
    months = engine.advance_calendar(ctx.state.get("months", 0))
    ctx.state["months"] = months
    ctx.note(f"The calendar advances one month: {months} month(s) of downtime so far "
             "(DT step 11).")
    return True


def _lifestyle(ctx: Step, data: dict) -> bool:
    """DT §Lifestyle: after the last Downtime Turn each Errant pays half their money (the
    kept half rounded down), a quarter with an accountant (AMB-E20)."""
    accountants = {int(pk) for pk in data.get("accountants", []) if str(pk).isdigit()}
    for errant in _members(ctx.campaign):
        with_accountant = errant.pk in accountants
        paid, kept = engine.lifestyle(max(errant.coins_cp, 0), accountant=with_accountant)
        turns.change_money(ctx.turn, errant, -paid, f"{errant.display_name}: lifestyle "
                           f"{paid:,} p paid, {kept:,} p kept"
                           + (" (an accountant: a quarter)" if with_accountant else
                              " (half)"), by=ctx.by)
    return True


def _finish(ctx: Step, data: dict) -> bool:
    ctx.note(f"{STEP_TITLES[next_step(ctx.turn)]}: done.")
    return True


def _shop_note(ctx: Step, data: dict) -> bool:
    text = check_text(data.get("note", ""), field="note", length=TEXT_LENGTH,
                      required="Say what was done.")
    ctx.note(f"Free action: {text}")
    return False


HANDLERS = {
    "recover": {"finish": _recover},
    "event_die": {"finish": _event_die},
    "resolve_event": {"finish": _resolve_event},
    "debt": {"finish": _debt},
    "rumour": {"finish": _rumour},
    "free_actions": {"hire": _hire, "funeral": _funeral, "note": _shop_note,
                     "finish": _finish},
    "actions": {"action": _action, "finish": _finish},
    "consumption": {"consume": _consume, "finish": _finish},
    "factions": {"faction": _faction, "finish": _finish},
    "calendar": {"finish": _calendar},
    "lifestyle": {"finish": _lifestyle},
}


# -- Scourges, at any step of an open Turn -----------------------------------------------

SCOURGE_ACTIONS = ("add", "locus", "source")


@transaction.atomic
def scourge(*, campaign: Campaign, by, turn_pk: int, action: str, name: str,
            seen: int | None = None, request_key: str | None = None,
            rng: random.Random | None = None) -> ErrantTurn:
    """DT §Scourges, tracked in the Turn's state and carried to the next Downtime Turn:
    a Scourge arises (peril 1), a locus is dealt with (peril - 1), or its source is dealt
    with (no locus: it ends; with loci, D4 of them removed, never below one, and it
    re-emerges)."""
    locked, turn = _locked_turn(campaign, by, turn_pk, seen)
    if _reused(turn, request_key):
        return turn
    if seen is not None and seen != version(turn):
        raise _stale()
    if next_step(turn) is None:
        raise CampaignError("This Downtime Turn is over.", "turn_over")
    if action not in SCOURGE_ACTIONS:
        raise CampaignError("Unknown Scourge action.", "bad_action")
    name = check_text(name, field="scourge", length=TEXT_LENGTH,
                      required="Name the Scourge.")
    rows = turn.state.setdefault("scourges", [])
    row = next((r for r in rows if r["name"].lower() == name.lower()), None)
    ctx = Step(campaign, locked, turn, by, rng or _SYSTEM_RANDOM)
    try:
        if action == "add":
            if row is not None:
                raise CampaignError(f"{row['name']} is already tracked.", "scourge_exists",
                                    field="scourge")
            rows.append({"name": name, "peril": engine.Scourge(name).peril})
            ctx.note(f"A Scourge arises: {name}, peril 1 (DT §Scourges)")
        elif row is None:
            raise CampaignError("No Scourge of that name is tracked.", "no_scourge",
                                field="scourge")
        elif action == "locus":
            after = engine.locus_destroyed(_scourge(row))
            row["peril"] = after.peril
            ctx.note(f"A locus of {row['name']} is dealt with: peril {after.peril}")
        else:
            current = _scourge(row)
            d4 = ctx.roll(4) if current.loci else None
            after = engine.source_destroyed(current, d4)
            if after is None:
                rows.remove(row)
                ctx.note(f"The source of {row['name']} is dealt with: it ends")
            else:
                row["peril"] = after.peril
                ctx.note(f"The source of {row['name']} is dealt with: D4 {d4} loci removed; it "
                         f"re-emerges at a remaining locus, peril {after.peril}")
    except engine.DowntimeError as error:
        raise CampaignError(str(error), error.code, field="scourge") from error
    _save(turn, request_key)
    return turn


# -- undo ----------------------------------------------------------------------------------


@transaction.atomic
def undo(*, campaign: Campaign, by, turn_pk: int) -> ErrantTurn:
    """Undo the newest Turn (turns.undo_latest puts back HP, Supply, money and XP) and,
    for a Downtime Turn, the Company ledger entries it wrote (debt doubled or owed,
    reputation), newest first, each with the Company's own reversal. XP a Renown raise
    stands on is refused (undo the raise first)."""
    company.require_guide(campaign, by, "undo a Turn")
    locked = company.lock_company(campaign)
    turn = turns.latest(locked)
    if turn is not None and turn.pk == turn_pk:
        for change in turn.changes.filter(what=ErrantTurnChange.What.XP,
                                          xp_entry__isnull=False).select_related("xp_entry"):
            advancement.check_xp_undo(change.xp_entry,
                                      ErrantCharacter.objects.get(pk=change.character_id))
    turn = turns.undo_latest(campaign=campaign, by=by, turn_pk=turn_pk)
    if turn.kind == KIND:
        for pk in reversed(turn.state.get("reputation_entries", [])):
            company.reputation_undo(campaign=campaign, entry_pk=pk, by=by)
        for pk in reversed(turn.state.get("debt_entries", [])):
            company.debt_undo(campaign=campaign, entry_pk=pk, by=by)
    return turn
