"""Downtime Turns: the eleven steps in order, recovery, complications and trends, Scourges,
debt, Retainers, funerals, the 2D6 action with trackers, Conspicuous Consumption, Faction
turns, the calendar and lifestyle.

Errant SRD: DT §Downtime Turn Actions, §Setbacks, §Recovery, §Hiring Retainers, §Funerals,
§Conspicuous Consumption, §Debts, §Lifestyle, §Faction Turns, §Scourges, §Downtime
Complications, §Downtime Trends, §Downtime Turn Procedure; PR §Event Die - Downtime Turns;
QR §Downtime Turn Quick Reference; next-games.md E40, E45. The Event Die itself is rolled
elsewhere (event_die): functions here take its result. docs/RULES.md: AMB-E20, E27, E29,
E78 ...
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import product

from .data.downtime_tables import (
    COMPLICATIONS,
    CONSUMPTION_DICE,
    CONSUMPTION_KINDS,
    CONSUMPTION_TROUBLE,
    CREDITOR_ADJECTIVES,
    CREDITOR_FIGURES,
    DOWNTIME_STEPS,
    HENCHMAN_ARCHETYPES,
    HENCHMAN_RENOWN_DIE,
    LIFESTYLE_STEP,
    MERCENARIES,
    RETAINER_DIE,
    RETAINER_MORALE_BY_PRES,
    RETAINER_MORALE_ROLL,
    SETTLEMENTS,
    TRENDS,
)

STEP_KEYS = tuple(key for key, _ in DOWNTIME_STEPS)
# PR §Event Die - Downtime Turns: the results that send the Guide to a table.
EVENT_COMPLICATION, EVENT_TREND = 2, 4
ACTION_MODIFIER_CAP = 3  # DT §Downtime Turn Actions: "should not exceed in total +/-3"
ACTION_SUCCESS, ACTION_PARTIAL = 10, 7  # 10+ success, 7-9 setback or partial, 6- nothing
ASSIST_BONUS = 1
SCOURGE_CALAMITY = 7  # DT §Scourges: "If a Scourge ever reaches peril 7 ... a calamity"
SCOURGE_GROWS = 6  # the malice table's 6: peril +1
ADVERTISING_STEP = 100  # DT §Hiring Retainers: "+1 ... for each 100p spent"
PAY_BONUS_STEP, PAY_BONUS_CAP = 25, 3  # "For each 25% increase ... +1 ... up to max of +3"
FACTION_STEP = 6  # DT §Faction Turns: 6+ one success, 12+ two; 0 lose one, -6 two
LIFESTYLE_DIVISOR, ACCOUNTANT_DIVISOR = 2, 4  # DT §Lifestyle: halved; a quarter paid
MONTHS_PER_TURN = 1  # step 11: "advances the in-game calendar by one month"


class DowntimeError(ValueError):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


def _die(value: int, sides: int, name: str = "die") -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= sides:
        raise DowntimeError("bad_die", f"The {name} must be a whole number from 1 to {sides}.")


def _settlement(settlement: str) -> None:
    if settlement not in SETTLEMENTS:
        raise DowntimeError("bad_settlement", f"Choose one of: {', '.join(SETTLEMENTS)}.")


# -- the procedure ---------------------------------------------------------------------------


@dataclass(frozen=True)
class DowntimeTurn:
    """The checklist the Guide walks: `done` holds the steps finished, in order."""

    number: int
    done: tuple[str, ...] = ()

    @property
    def next_step(self) -> str | None:
        return STEP_KEYS[len(self.done)] if len(self.done) < len(STEP_KEYS) else None

    @property
    def over(self) -> bool:
        return self.next_step is None


def start_downtime(number: int) -> DowntimeTurn:
    if not isinstance(number, int) or number < 1:
        raise DowntimeError("bad_number", "Downtime Turns are numbered from 1.")
    return DowntimeTurn(number)


def complete_step(turn: DowntimeTurn, step: str) -> DowntimeTurn:
    """Mark `step` done; refuses a step out of DT's order (AMB-E29)."""
    if step not in STEP_KEYS:
        raise DowntimeError("bad_step", f"Unknown step {step!r}.")
    if turn.over:
        raise DowntimeError("turn_over", "This Downtime Turn is over.")
    if step != turn.next_step:
        raise DowntimeError("out_of_order", f"Next comes {turn.next_step}, not {step}.")
    return replace(turn, done=(*turn.done, step))


def lifestyle_due(turn: DowntimeTurn, last: bool) -> bool:
    """Lifestyle is paid once, after the last of a run of Downtime Turns (LIFESTYLE_STEP)."""
    return turn.over and last


LIFESTYLE_KEY = LIFESTYLE_STEP[0]


# -- step 2: recovery ------------------------------------------------------------------------


@dataclass(frozen=True)
class Member:
    hp: int
    max_hp: int
    resources: Mapping[str, tuple[int, int]]  # name -> (now, full): Jettons, Favour, dice
    true_strikes: tuple[int, int] = (0, 0)
    deflects: tuple[int, int] = (0, 0)
    supply: int = 0
    can_recover_hp: bool = True  # False with a wound that says "Can't recover HP"


def recover(member: Member) -> Member:
    """DT §Recovery and step 2: HP to maximum, Archetype resources full, True Strikes and
    Deflects recharged, leftover Supply removed. A wound that forbids recovering HP (toxic
    3, "Blood tainted") keeps the HP where it is (AMB-E89)."""
    hp = member.max_hp if member.can_recover_hp else member.hp
    return Member(hp, member.max_hp,
                  {k: (full, full) for k, (_, full) in member.resources.items()},
                  (member.true_strikes[1],) * 2, (member.deflects[1],) * 2, 0,
                  member.can_recover_hp)


# -- steps 3-4: the Event Die's tables and Scourges ------------------------------------------


def table_for_event(event_result: int) -> str | None:
    """PR §Event Die - Downtime Turns: a 2 sends the Guide to the complications (2D6), a 4 to
    the trends (2D4); other results use no table here (the Event Die is rolled elsewhere)."""
    _die(event_result, 6, "Event Die")
    return {EVENT_COMPLICATION: "complication", EVENT_TREND: "trend"}.get(event_result)


def complication(total_2d6: int) -> str:
    """DT §Downtime Complications says "Roll 2D6" over eleven entries: the total 2-12 reads
    entry total - 1 (AMB-E78)."""
    if not 2 <= total_2d6 <= 12:
        raise DowntimeError("bad_roll", "2D6 is 2 to 12.")
    return COMPLICATIONS[total_2d6 - 2]


def trend(total_2d4: int) -> str:
    """DT §Downtime Trends says "Roll 2D4" over seven entries: total 2-8 reads entry
    total - 1 (AMB-E78)."""
    if not 2 <= total_2d4 <= 8:
        raise DowntimeError("bad_roll", "2D4 is 2 to 8.")
    return TRENDS[total_2d4 - 2]


def _sum_odds(n: int, sides: int) -> dict[int, Fraction]:
    c = Counter(sum(r) for r in product(range(1, sides + 1), repeat=n))
    return {k: Fraction(v, sides ** n) for k, v in sorted(c.items())}


def complication_odds() -> dict[str, Fraction]:
    return {complication(t): p for t, p in _sum_odds(2, 6).items()}


def trend_odds() -> dict[str, Fraction]:
    return {trend(t): p for t, p in _sum_odds(2, 4).items()}


@dataclass(frozen=True)
class Scourge:
    name: str
    peril: int = 1  # "A newly active Scourge begins with peril 1"

    @property
    def active(self) -> bool:
        return self.peril < SCOURGE_CALAMITY

    @property
    def loci(self) -> int:
        """One locus for each peril above 1."""
        return max(0, self.peril - 1)


def scourges_triggered(event_result: int, scourges: Iterable[Scourge]) -> tuple[Scourge, ...]:
    """DT §Scourges: the Event Die "equal to or lower than the peril" of an active Scourge
    triggers its malice table (the text over the spec's "less than", AMB-E79)."""
    _die(event_result, 6, "Event Die")
    return tuple(s for s in scourges if s.active and event_result <= s.peril)


def malice(scourge: Scourge, d6: int) -> tuple[Scourge, bool]:
    """The malice D6: a 6 raises the peril by 1 (7: a calamity, no longer active). Returns
    the Scourge and whether the result is the region-harming 1-5."""
    _die(d6, 6, "malice die")
    if d6 == SCOURGE_GROWS:
        return replace(scourge, peril=scourge.peril + 1), False
    return scourge, True


def locus_destroyed(scourge: Scourge) -> Scourge:
    """Dealing with a locus lowers the peril by 1."""
    if scourge.loci == 0:
        raise DowntimeError("no_locus", "This Scourge has no locus.")
    return replace(scourge, peril=scourge.peril - 1)


def source_destroyed(scourge: Scourge, d4: int | None = None) -> Scourge | None:
    """The source dealt with: with no locus the Scourge ends (None); with loci, remove D4 of
    them, never below one, and the Scourge re-emerges at a remaining locus."""
    if scourge.loci == 0:
        return None
    if d4 is None:
        raise DowntimeError("missing_die", "Roll a D4 for the loci removed.")
    _die(d4, 4, "D4")
    return replace(scourge, peril=1 + max(1, scourge.loci - d4))


def setback_xp(base_investment_cost: int, investors: int = 1) -> tuple[int, ...]:
    """DT §Setbacks: an Estate, Institution, infrastructure project or Domain's setback gives
    XP equal to its current base investment cost, divided equally among the Errants invested
    (rounded down, CR §Rounding: the remainder is not given, AMB-E85)."""
    if base_investment_cost < 0 or investors < 1:
        raise DowntimeError("bad_setback", "A cost of 0 or more and at least one investor.")
    return (base_investment_cost // investors,) * investors


# -- step 5: debt ----------------------------------------------------------------------------


def double_debt(debt: int) -> int:
    """DT §Debts: "At the start of every Downtime Turn, the remaining amount owed by the
    Company doubles"."""
    if debt < 0:
        raise DowntimeError("bad_debt", "Debt is never negative.")
    return debt * 2


def repay_debt(debt: int, paid: int) -> tuple[int, int]:
    """(debt left, change returned): paying more than is owed clears it."""
    if debt < 0 or paid < 0:
        raise DowntimeError("bad_amount", "Debt and payments are never negative.")
    return max(0, debt - paid), max(0, paid - debt)


def creditor(adjective_d6: int, figure_d6: int) -> str:
    """DT §Debts: the creditor table for inspiration, one D6 per column."""
    _die(adjective_d6, 6, "first D6")
    _die(figure_d6, 6, "second D6")
    return f"{CREDITOR_ADJECTIVES[adjective_d6 - 1]} {CREDITOR_FIGURES[figure_d6 - 1]}"


# -- step 7: free actions --------------------------------------------------------------------


@dataclass(frozen=True)
class RetainerDice:
    settlement: str
    die: int  # hirelings and specialists: one roll each of this die
    mercenaries: bool  # D x 10 mercenaries, 10% lieutenants, 5% captains
    henchman_renown_die: int  # 1: always Renown 1


def retainer_dice(settlement: str) -> RetainerDice:
    _settlement(settlement)
    return RetainerDice(settlement, RETAINER_DIE[settlement], MERCENARIES[settlement],
                        HENCHMAN_RENOWN_DIE[settlement])


def mercenaries(settlement: str, roll: int) -> tuple[int, int, int]:
    """(mercenaries, lieutenants, captains): roll x 10, of whom 10% and 5% (rounded down)."""
    dice = retainer_dice(settlement)
    if not dice.mercenaries:
        raise DowntimeError("no_mercenaries", "Hamlets and villages have no mercenaries.")
    _die(roll, dice.die)
    total = roll * 10
    return total, total // 10, total // 20


def advertising_bonus(settlement: str, pennies: int) -> int:
    """+1 per 100p spent, up to the Settlement's Retainer die size."""
    if pennies < 0:
        raise DowntimeError("bad_amount", "Money spent is never negative.")
    return min(pennies // ADVERTISING_STEP, retainer_dice(settlement).die)


def henchman_archetype(d10: int) -> str:
    _die(d10, 10, "D10")
    return next(name for top, name in HENCHMAN_ARCHETYPES if d10 <= top)


def retainer_morale(employer_pres: int, roll_2d6: int, pay_increase_percent: int = 0) -> int:
    """The employer's pres gives the base Morale; 2D6 (+1 per 25% more pay, at most +3)
    gives the modifier. Pres below 3 reads as the first row, above 20 as the last."""
    if not 2 <= roll_2d6 <= 12:
        raise DowntimeError("bad_roll", "2D6 is 2 to 12.")
    if pay_increase_percent < 0:
        raise DowntimeError("bad_pay", "A pay increase is never negative.")
    base = next((m for top, m in RETAINER_MORALE_BY_PRES if employer_pres <= top),
                RETAINER_MORALE_BY_PRES[-1][1])
    roll = roll_2d6 + min(PAY_BONUS_CAP, pay_increase_percent // PAY_BONUS_STEP)
    modifier = next((m for top, m in RETAINER_MORALE_ROLL if roll <= top),
                    RETAINER_MORALE_ROLL[-1][1])
    return base + modifier


def funeral_xp(pennies: int) -> int:
    """DT §Funerals: 1 XP for every 1p spent commemorating a fallen comrade."""
    if pennies < 0:
        raise DowntimeError("bad_amount", "Money spent is never negative.")
    return pennies


# -- step 8: the action ----------------------------------------------------------------------

SUCCESS, PARTIAL, FAILURE = "success", "partial", "failure"


def action_modifier(modifiers: Iterable[int] = (), assists: int = 0) -> int:
    """Situational modifiers plus +1 per assisting Errant, capped at +/-3 in total."""
    if assists < 0:
        raise DowntimeError("bad_assists", "Assists are never negative.")
    total = sum(modifiers) + assists * ASSIST_BONUS
    return max(-ACTION_MODIFIER_CAP, min(ACTION_MODIFIER_CAP, total))


def action_outcome(total: int) -> str:
    if total >= ACTION_SUCCESS:
        return SUCCESS
    return PARTIAL if total >= ACTION_PARTIAL else FAILURE


def action_odds(modifier: int) -> dict[str, Fraction]:
    """Exact over 36 rolls: +0 -> 1/6, 5/12, 5/12; +3 -> 7/12, 1/3, 1/12."""
    m = max(-ACTION_MODIFIER_CAP, min(ACTION_MODIFIER_CAP, modifier))
    c = Counter(action_outcome(a + b + m) for a, b in product(range(1, 7), repeat=2))
    return {k: Fraction(c[k], 36) for k in (SUCCESS, PARTIAL, FAILURE)}


@dataclass(frozen=True)
class Tracker:
    """A tracker of `size` successes (rubric 1, 3, 5, 7); `banked` is the partial progress
    that makes the next attempt succeed automatically."""

    name: str
    size: int
    marked: int = 0
    banked: bool = False
    setback: bool = False  # a 7-9 read as a setback blocks progress until dealt with

    @property
    def complete(self) -> bool:
        return self.marked >= self.size


def tracker(name: str, size: int) -> Tracker:
    if not isinstance(size, int) or size < 1:
        raise DowntimeError("bad_size", "A tracker needs at least 1 success.")
    return Tracker(name, size)


def attempt(t: Tracker, total: int | None, *, partial_as: str = "progress") -> Tracker:
    """One Downtime action on the tracker. `total` is 2D6 + modifier (None when banked
    progress makes it succeed without a roll). A 7-9 is either "progress" (banked) or
    "setback" as the Guide rules."""
    if t.complete:
        raise DowntimeError("complete", "This tracker is already complete.")
    if t.setback:
        raise DowntimeError("setback", "Deal with the setback before further progress.")
    if t.banked:
        return replace(t, marked=t.marked + 1, banked=False)
    if total is None:
        raise DowntimeError("no_roll", "Roll 2D6 for this action.")
    outcome = action_outcome(total)
    if outcome == SUCCESS:
        return replace(t, marked=t.marked + 1)
    if outcome == PARTIAL:
        if partial_as not in ("progress", "setback"):
            raise DowntimeError("bad_partial", "A 7-9 is progress or a setback.")
        return replace(t, banked=partial_as == "progress", setback=partial_as == "setback")
    return t


def clear_setback(t: Tracker) -> Tracker:
    return replace(t, setback=False)


# -- step 9: Conspicuous Consumption ---------------------------------------------------------


@dataclass(frozen=True)
class Consumption:
    kind: str
    settlement: str
    face: int
    roll: int  # the face + Institution tier - penalties, at least 0
    amount: int  # money wasted = XP gained
    debt: int  # the surplus over what the Errant had
    save_attribute: str | None  # the kind's Attribute when a Save is due
    save_dv: int | None

    @property
    def xp(self) -> int:
        return self.amount


def consumption(kind: str, settlement: str, face: int, *, money: int, company_debt: int = 0,
                institution_tier: int = 0, penalty: int = 0,
                doubled: bool = False) -> Consumption:
    """DT §Conspicuous Consumption: the Settlement's die (+ an invoked Institution's tier,
    - a burned-down penalty) x its multiplier is wasted and gained as XP (all of it, the part
    on credit too: AMB-E80). Beyond what the Errant has, the surplus is debt and a Save of the
    kind's Attribute is due, DV = the roll (AMB-E27). Refused while the Company owes a debt
    (DT §Debts). `doubled`: the gadabout's notoriety doubles this roll."""
    if kind not in CONSUMPTION_KINDS:
        raise DowntimeError("bad_kind", f"Choose one of: {', '.join(CONSUMPTION_KINDS)}.")
    _settlement(settlement)
    die, multiplier = CONSUMPTION_DICE[settlement]
    _die(face, die, f"D{die}")
    if company_debt > 0:
        raise DowntimeError("company_in_debt",
                            "While the Company owes a debt, no Errant may engage in "
                            "Conspicuous Consumption.")
    if money < 0 or institution_tier < 0 or penalty < 0 or company_debt < 0:
        raise DowntimeError("bad_amount", "Money, tier and penalty are never negative.")
    roll = max(0, face + institution_tier - penalty) * (2 if doubled else 1)
    amount = roll * multiplier
    debt = max(0, amount - money)
    attribute = CONSUMPTION_KINDS[kind][1] if debt else None
    return Consumption(kind, settlement, face, roll, amount, debt, attribute,
                       roll if debt else None)


def consumption_odds(settlement: str, institution_tier: int = 0) -> dict[int, Fraction]:
    """The exact chance of each amount wasted (= XP)."""
    _settlement(settlement)
    die, _ = CONSUMPTION_DICE[settlement]
    c = Counter(consumption("carousing", settlement, f, money=10 ** 9,
                            institution_tier=institution_tier).amount
                for f in range(1, die + 1))
    return {k: Fraction(v, die) for k, v in sorted(c.items())}


def consumption_trouble(d20: int) -> str:
    _die(d20, 20, "D20")
    return CONSUMPTION_TROUBLE[d20 - 1]


# -- step 10: Faction turns ------------------------------------------------------------------


def faction_turn(d6: int, assets: int = 0, opposing: int = 0) -> tuple[int, int, int]:
    """(total, successes, assets lost): D6 + relevant assets - opposing assets; 6+ one
    success, 12+ two, ...; 0 or less loses one asset, -6 or less two, ... (AMB-E81)."""
    _die(d6, 6, "D6")
    if assets < 0 or opposing < 0:
        raise DowntimeError("bad_assets", "Assets are never negative.")
    total = d6 + assets - opposing
    successes = total // FACTION_STEP if total > 0 else 0
    lost = 1 + (-total) // FACTION_STEP if total <= 0 else 0
    return total, successes, lost


# -- step 11 and after: calendar, lifestyle --------------------------------------------------


def advance_calendar(months_elapsed: int) -> int:
    return months_elapsed + MONTHS_PER_TURN


def lifestyle(money: int, *, accountant: bool = False) -> tuple[int, int]:
    """(paid, kept): half the money goes, the kept half rounded down (1001 -> keeps 500);
    with an accountant a quarter is paid, rounded down (1001 -> pays 250) (AMB-E20)."""
    if money < 0:
        raise DowntimeError("bad_amount", "Money is never negative.")
    if accountant:
        paid = money // ACCOUNTANT_DIVISOR
        return paid, money - paid
    kept = money // LIFESTYLE_DIVISOR
    return money - kept, kept
