"""compute_sheet(build) -> CharacterSheet: every derived number of a METTLE character,
each with its explanation from the character's own values.

The build holds only the player's choices (the starting pools and how they were bought,
the XP raises in the order bought, Backstories, Contacts, Credit, gear); the sheet is
recomputed from it and never stored. Rule problems are collected in sheet.issues with
stable codes, never raised.

METTLE Core SRD: Characters (Steps 3-5, Experience), Engine (Mettle, Taking Damage,
Status Effects), Resources (Armor, Weapons); Guidance > Characters (pool total).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from ..sheet_lookups import SheetLookups
from . import advancement
from .attributes import (
    ARRAY,
    FREESTYLE_BUDGET,
    Attributes,
    Issue,
    Method,
    build_problems,
    highest,
    highest_key,
    pool_total,
    rating,
)
from .data import ATTRIBUTE_KEYS, ATTRIBUTE_NAMES, CREDIT_RANKS, FRAME, MOTIVE, POISE, Armor, Weapon
from .statuses import STATUS_EFFECTS, status_issues, status_label

DEFAULT_CREDIT = 2  # CH §Credit: "usually a 2 or 3 for most games"


class ArmorPenaltyReading(StrEnum):
    """AMB-M6: what "if Load exceeds the wearer's FRAME, it lowers POISE by that amount"
    (RS §Armor) measures: all the Load carried (the reading chosen), or the armour's own."""

    TOTAL_LOAD = "total_load"
    ARMOR_LOAD = "armor_load"


class Encumbrance(StrEnum):
    NONE = "none"
    ENCUMBERED = "encumbered"  # Load over FRAME: two Moves per Zone
    INCAPACITATED = "incapacitated"  # Load over twice FRAME (AMB-M5): POISE 0, no Action


# Chosen statuses that change the sheet (EN §Taking Damage, §Status Effects).
FALLEN = "fallen"
STAGGERED = "staggered"
INCAPACITATED = "incapacitated"
POISE_ZERO_STATUSES = (FALLEN, INCAPACITATED)  # "0 POISE" / "POISE drops to zero"


@dataclass(frozen=True)
class Item:
    """One thing the character has. `load` None takes the armour's or weapon's table Load
    (0 for anything else: "Ignore single small items ... as zero Load")."""

    name: str
    load: int | None = None
    quantity: int = 1
    dropped: bool = False
    armor: Armor | None = None
    worn: bool = False  # armour counts only when worn
    weapon: Weapon | None = None
    concept_applies: bool = False  # a martial CONCEPT covers this weapon (CH §CONCEPT)

    @property
    def unit_load(self) -> int:
        if self.load is not None:
            return self.load
        table = self.armor or self.weapon
        return table.load if table else 0


@dataclass(frozen=True)
class CharacterBuild:
    """The player's choices, as the engine needs them."""

    attributes: Attributes = Attributes(*ARRAY)  # starting pools, unmodified
    method: Method = Method.ARRAY
    budget: int = FREESTYLE_BUDGET
    descriptors: tuple[tuple[str, str], ...] = ()  # (attribute key, free text)
    raises: tuple[str, ...] = ()  # Attribute keys raised with XP, in the order bought
    xp_earned: int = 0
    modifiers: tuple[tuple[str, int], ...] = ()  # (attribute key, +/-XD) from circumstance
    backstories: tuple[str, ...] = ()
    contacts: tuple[str, ...] = ()
    credit: int = DEFAULT_CREDIT
    credit_lost: int = 0  # lost temporarily to purchases, back between campaigns
    items: tuple[Item, ...] = ()
    mettle_current: int | None = None  # None: at maximum
    mettle_max_lost: int = 0  # to Afflictions, until they end and Mettle recovers
    statuses: frozenset[str] = frozenset()
    armor_penalty_reading: ArmorPenaltyReading = ArmorPenaltyReading.TOTAL_LOAD


class Term(NamedTuple):
    label: str
    value: int | str

    def __str__(self) -> str:
        return f"{self.label} {self.value}" if self.label else str(self.value)


class Stat(NamedTuple):
    """One derived number, able to explain itself. `modified` is the pool as circumstance
    or equipment change it, shown as "unmodified(modified)" (CH §Step 3: "POISE 4(5)")."""

    name: str  # stable data-stat name
    label: str
    value: int | str | None
    terms: tuple[Term, ...] = ()
    notes: tuple[str, ...] = ()
    source: str = ""
    modified: int | None = None

    @property
    def display(self) -> str:
        if self.value is None:
            return "—"
        if self.modified is not None and self.modified != self.value:
            return f"{self.value}({self.modified})"
        return str(self.value)

    @property
    def explanation(self) -> str:
        text = f"{self.label} {self.display}"
        if self.terms:
            text += " = " + " + ".join(str(t) for t in self.terms)
        if self.notes:
            text += " (" + "; ".join(self.notes) + ")"
        return text


@dataclass(frozen=True)
class WeaponLine:
    """A weapon's Attack pool (the sheet's Hit column, AMB-M13) and its DM."""

    name: str
    pool: int
    dm: int
    specials: tuple[str, ...]
    terms_pool: tuple[Term, ...]
    terms_dm: tuple[Term, ...]

    @property
    def pool_explanation(self) -> str:
        return f"Attack {self.pool}D = " + " + ".join(str(t) for t in self.terms_pool)

    @property
    def dm_explanation(self) -> str:
        return f"DM {self.dm} = " + " + ".join(str(t) for t in self.terms_dm)


# The stable names of every derived number (data-stat attributes, export keys): issue 13's
# names first, then the XP lines.
DERIVED_NAMES = (
    "concept", "frame", "motive", "nature", "poise",
    "mettle_max", "mettle_current", "soak", "load", "load_capacity", "encumbrance",
    "backstories_max", "contacts_max", "credit", "credit_afford", "credit_rank",
    "pool_total", "freestyle_cost", "points_left",
    *(f"raise_cost_{key}" for key in ATTRIBUTE_KEYS),
    "xp_earned", "xp_spent", "xp_left",
)


@dataclass(frozen=True)
class CharacterSheet(SheetLookups):
    build: CharacterBuild
    attributes: Attributes  # unmodified, after the XP raises
    modified: dict[str, int]  # each pool as circumstance and equipment change it
    stats: dict[str, Stat]
    weapons: tuple[WeaponLine, ...]
    armor: Armor | None
    statuses: tuple[str, ...]  # chosen and derived
    issues: tuple[Issue, ...]

    @property
    def attribute_rows(self) -> tuple[Stat, ...]:
        """The five Attributes' stats in the sheet's order (the page's Attributes and
        Descriptors card), without the rest of `stats`."""
        return tuple(stat for key, stat in self.stats.items() if key in ATTRIBUTE_KEYS)

    @property
    def status_effects(self) -> tuple[tuple[str, str, str], ...]:
        """(key, name, what it does) of each status the character has."""
        return tuple((key, status_label(key), STATUS_EFFECTS.get(key, ""))
                     for key in self.statuses)

    def derived(self) -> dict[str, int | str | None]:
        """The export's `derived` object: every data-stat name and its value."""
        return {name: self.stats[name].value for name in DERIVED_NAMES}


# -- rules as small functions ----------------------------------------------------------------


def mettle_max(attrs: Attributes) -> int:
    """EN §Mettle: "MOTIVE plus their highest (unmodified) Attribute"; a MOTIVE that is the
    highest counts twice (AMB-M4)."""
    return attrs.motive + highest(attrs)


def current_mettle(build: CharacterBuild, attrs: Attributes) -> int:
    """The current Mettle: the build's, or when left blank ("at maximum") the maximum less
    what Afflictions have taken (Scenery > Affliction: "if it lowers Mettle to 0 or below
    they still become Staggered or Fallen", AMB-M-STAT-2)."""
    if build.mettle_current is not None:
        return build.mettle_current
    return mettle_max(attrs) - max(build.mettle_max_lost, 0)


def backstories_max(attrs: Attributes) -> int:
    """CH §Step 4: "as many Backstories as their highest unmodified Attribute"."""
    return highest(attrs)


def credit_afford(credit: int) -> int:
    """CH §Credit: items "with up to as many digits in their price as their Credit"
    ($9 at Credit 1 ... $999,999 at 6); nothing at Credit 0."""
    return 10 ** credit - 1 if credit > 0 else 0


def credit_rank(credit: int) -> str | None:
    """CREDIT table ranking; above 6 stays Rich, below 1 has none."""
    if credit < 1:
        return None
    return CREDIT_RANKS[min(credit, max(CREDIT_RANKS))]


class Purchase(StrEnum):
    AFFORDABLE = "affordable"
    COSTS_CREDIT = "costs_credit"  # one digit over: -1 Credit, temporarily
    REFUSED = "refused"  # two or more digits over: not without the Guide (AMB-M14)


def purchase(credit: int, cost_digits: int) -> Purchase:
    """Whether Credit buys an item whose Cost (the tables' Cost column) is in digits."""
    if cost_digits <= credit:
        return Purchase.AFFORDABLE
    if cost_digits == credit + 1 and credit >= 1:  # a digit of Credit to lose
        return Purchase.COSTS_CREDIT
    return Purchase.REFUSED


def price_digits(dollars: int) -> int:
    """Digits in a price: $999 has 3."""
    return len(str(abs(int(dollars))))


def encumbrance(load: int, frame: int) -> Encumbrance:
    """CH §Encumbrance: Load up to FRAME is fine; over it, Encumbered; "over twice their
    FRAME", Incapacitated (AMB-M5: exactly twice is Encumbered)."""
    if load > 2 * frame:
        return Encumbrance.INCAPACITATED
    if load > frame:
        return Encumbrance.ENCUMBERED
    return Encumbrance.NONE


def weapon_line(item: Item, modified: dict[str, int]) -> WeaponLine:
    """RS §Weapons: the Attack pool is NATURE (or a CONCEPT that covers the weapon, if
    higher: CH §CONCEPT) + the weapon's Hit dice; DM is FRAME + k, or a flat number."""
    weapon = item.weapon
    assert weapon is not None
    attack_key = "nature"
    if item.concept_applies and modified["concept"] > modified["nature"]:
        attack_key = "concept"
    terms_pool = (Term(ATTRIBUTE_NAMES[attack_key], modified[attack_key]),
                  Term(f"{weapon.name} Hit", f"{weapon.hit}D"))
    if weapon.dm_adds_frame:
        dm = modified[FRAME] + weapon.dm
        terms_dm = (Term("FRAME", modified[FRAME]), Term(weapon.name, weapon.dm))
    else:
        dm = weapon.dm
        terms_dm = (Term(weapon.name, weapon.dm),)
    return WeaponLine(name=item.name, pool=modified[attack_key] + weapon.hit, dm=dm,
                      specials=weapon.specials, terms_pool=terms_pool, terms_dm=terms_dm)


def _pool_label(key: str, top_key: str) -> str:
    return f"2 x {ATTRIBUTE_NAMES[key]}" if key == top_key else ATTRIBUTE_NAMES[key]


def _count(texts: tuple[str, ...]) -> int:
    return sum(1 for text in texts if text.strip())


# -- the sheet, by SRD section ----------------------------------------------------------------
# Each function below computes one section of the sheet: its Stats in the sheet's order and
# the Issues it finds. compute_sheet calls them in order and gathers both.


class Section(NamedTuple):
    stats: tuple[Stat, ...]
    issues: tuple[Issue, ...] = ()


@dataclass(frozen=True)
class Burden:
    """What Load and armour do to the pools (CH §Encumbrance; RS §Armor)."""

    carried: tuple[Item, ...]
    load: int
    armor_item: Item | None
    modified: dict[str, int]
    modifiers: dict[str, int]
    state: Encumbrance
    statuses: frozenset[str]
    poise_notes: tuple[str, ...]
    issues: tuple[Issue, ...]


def burden(build: CharacterBuild, attrs: Attributes) -> Burden:
    """The modified pools: the build's modifiers, the armour's POISE burden (AMB-M6) and
    POISE 0 while Fallen or Incapacitated; Load against FRAME; the statuses that follow."""
    issues = []
    carried = tuple(item for item in build.items if not item.dropped)
    load = sum(item.unit_load * item.quantity for item in carried)
    worn = [item for item in carried if item.armor is not None and item.worn]
    if len(worn) > 1:
        issues.append(Issue("armor_multiple_worn", "Only one suit of armour counts at a time.",
                            "items"))
    armor_item = max(worn, key=lambda item: item.armor.soak) if worn else None

    modifiers = dict.fromkeys(ATTRIBUTE_KEYS, 0)
    for key, amount in build.modifiers:
        modifiers[key] += amount
    modified = {key: max(attrs[key] + modifiers[key], 0) for key in ATTRIBUTE_KEYS}
    capacity = modified[FRAME]
    state = encumbrance(load, capacity)
    statuses = set(build.statuses)
    if state is not Encumbrance.NONE:
        statuses.add(state.value)
    if current_mettle(build, attrs) <= 0 and STAGGERED not in statuses:
        statuses.add(FALLEN)  # a Felling blow: Fallen unless the player chose Staggered
    poise_notes = []
    if armor_item is not None:
        burden_load = (load if build.armor_penalty_reading is ArmorPenaltyReading.TOTAL_LOAD
                       else armor_item.unit_load)
        penalty = max(burden_load - capacity, 0)
        if penalty:
            modified[POISE] = max(modified[POISE] - penalty, 0)
            poise_notes.append(f"-{penalty} armour burden: Load {burden_load} over FRAME "
                               f"{capacity}")
    zeroing = [status for status in POISE_ZERO_STATUSES if status in statuses]
    if zeroing:
        modified[POISE] = 0
        poise_notes.append(f"0 while {zeroing[0].capitalize()}")
    return Burden(carried=carried, load=load, armor_item=armor_item, modified=modified,
                  modifiers=modifiers, state=state, statuses=frozenset(statuses),
                  poise_notes=tuple(poise_notes), issues=tuple(issues))


def attribute_stats(build: CharacterBuild, attrs: Attributes,
                    bought: tuple[advancement.Raise, ...], worn: Burden) -> Section:
    """The five Attributes, unmodified(modified), with Descriptor and rating (CH §Step 3),
    and the problems of the starting pools under the build's method."""
    descriptors = dict(build.descriptors)
    stats = []
    for key in ATTRIBUTE_KEYS:
        notes = [text for text in (descriptors.get(key, "").strip(), rating(attrs[key])) if text]
        if worn.modifiers[key]:
            notes.append(f"{worn.modifiers[key]:+d}D circumstance")
        if key == POISE:
            notes.extend(worn.poise_notes)
        raised = sum(1 for r in bought if r.key == key)
        terms = ((Term("start", build.attributes[key]), Term("raised", raised))
                 if raised else ())
        stats.append(Stat(key, ATTRIBUTE_NAMES[key], attrs[key], terms, tuple(notes),
                          "Characters > Step 3", modified=worn.modified[key]))
    problems = build_problems(build.attributes, build.method, build.budget)
    return Section(tuple(stats), tuple(problems))


def _highest_term(attrs: Attributes) -> Term:
    top_key = highest_key(attrs)
    return Term(f"highest ({ATTRIBUTE_NAMES[top_key]})", attrs[top_key])


def mettle_and_soak(build: CharacterBuild, attrs: Attributes, worn: Burden) -> Section:
    """Mettle (EN §Mettle; Scenery > Affliction lowers the maximum), Soak (EN §Taking
    Damage; RS §Armor) and a Staggered character's die penalty."""
    issues = ()
    lost = max(build.mettle_max_lost, 0)
    maximum = mettle_max(attrs) - lost
    current = current_mettle(build, attrs)
    if current > maximum:
        issues = (Issue("mettle_over_maximum",
                        f"Current Mettle {current} is over the maximum of {maximum}.",
                        "mettle_current"),)
    mettle_terms = (Term("MOTIVE", attrs[MOTIVE]), _highest_term(attrs))
    if lost:
        mettle_terms += (Term("lost to Afflictions", -lost),)
    frame = worn.modified[FRAME]
    armor_item = worn.armor_item
    soak_terms = (Term("FRAME", frame),)
    if armor_item is not None:
        soak_terms += (Term(armor_item.name, armor_item.armor.soak),)
    stats = [
        Stat("mettle_max", "Mettle", maximum, mettle_terms, ("unmodified pools",),
             "Engine > Mettle"),
        Stat("mettle_current", "Current Mettle", current,
             notes=("at maximum",) if build.mettle_current is None else (),
             source="Engine > Mettle"),
        Stat("soak", "Soak", frame + (armor_item.armor.soak if armor_item else 0), soak_terms,
             source="Engine > Taking Damage; Resources > Armor"),
    ]
    if STAGGERED in worn.statuses and current < 0:
        stats.append(Stat("check_penalty", "Check penalty", -current,
                          notes=(f"Staggered: -1D per point of negative Mettle {current}",),
                          source="Engine > Taking Damage"))
    return Section(tuple(stats), issues)


def load_stats(worn: Burden) -> Section:
    """Load against FRAME (CH §Encumbrance)."""
    capacity = worn.modified[FRAME]
    terms = tuple(Term(item.name + (f" x{item.quantity}" if item.quantity != 1 else ""),
                       item.unit_load * item.quantity)
                  for item in worn.carried if item.unit_load)
    return Section((
        Stat("load", "Load", worn.load, terms, source="Characters > Encumbrance"),
        Stat("load_capacity", "Load capacity", capacity, (Term("FRAME", capacity),),
             (f"Incapacitated over {2 * capacity}",), "Characters > Encumbrance"),
        Stat("encumbrance", "Encumbrance", worn.state.value,
             notes=("two Moves per Zone",) if worn.state is Encumbrance.ENCUMBERED else (),
             source="Characters > Encumbrance"),
    ), worn.issues)


def backstory_stats(build: CharacterBuild, attrs: Attributes) -> Section:
    """Backstories: at most the highest unmodified Attribute; one names the native land
    and language (CH §Step 4)."""
    slots = backstories_max(attrs)
    used = _count(build.backstories)
    issues = ()
    if used > slots:
        top_key = highest_key(attrs)
        issues = (Issue("backstories_over_maximum",
                        f"{used} Backstories, but the highest Attribute "
                        f"({ATTRIBUTE_NAMES[top_key]} {attrs[top_key]}) allows {slots}.",
                        "backstories"),)
    elif used and not any("(" in text and ")" in text for text in build.backstories):
        issues = (Issue("backstory_language_missing",
                        "One Backstory names the native land with its language in "
                        "parentheses, e.g. \"Raised in New York (English)\".",
                        "backstories", severity="warning"),)
    return Section((Stat("backstories_max", "Backstories", slots, (_highest_term(attrs),),
                         (f"{used} written, {slots - used} open",) if used <= slots else (),
                         "Characters > Step 4"),), issues)


def credit_stats(build: CharacterBuild) -> Section:
    """Credit, what it affords and its ranking (CH §Credit); Contacts (CH §Contacts)."""
    issues = []
    credit = build.credit - build.credit_lost
    if build.credit < 0 or build.credit_lost < 0 or credit < 0:
        issues.append(Issue("credit_invalid",
                            f"Credit {build.credit} less {build.credit_lost} lost is below 0.",
                            "credit"))
    credit_terms = (Term("assigned", build.credit),)
    if build.credit_lost:
        credit_terms += (Term("lost until the next campaign", -build.credit_lost),)
    contacts = _count(build.contacts)
    if contacts > build.credit:
        issues.append(Issue("contacts_over_maximum",
                            f"{contacts} Contacts, but Credit {build.credit} allows "
                            f"{max(build.credit, 0)}.", "contacts"))
    return Section((
        Stat("credit", "Credit", credit, credit_terms, source="Characters > Credit"),
        Stat("credit_afford", "Affords", credit_afford(credit),
             notes=(f"prices up to {max(credit, 0)} digits",), source="Characters > Credit"),
        Stat("credit_rank", "Ranking", credit_rank(credit), source="Characters > Credit"),
        Stat("contacts_max", "Contacts", max(build.credit, 0),
             (Term("Credit", build.credit),), (f"{contacts} named",),
             "Characters > Contacts"),
    ), tuple(issues))


def pool_stats(build: CharacterBuild, attrs: Attributes) -> Section:
    """The pool total (GD §Characters) and the Freestyle cost of the starting pools, with
    the points left of a Freestyle build (CH §Step 3)."""
    top_key = highest_key(attrs)
    start = build.attributes
    start_top = highest_key(start)
    cost = pool_total(start)
    freestyle = Method(build.method) is Method.FREESTYLE
    return Section((
        Stat("pool_total", "Pool total", pool_total(attrs),
             tuple(Term(_pool_label(key, top_key), attrs[key]) for key in ATTRIBUTE_KEYS),
             ("highest x 2 + all lesser pools",), "Guidance > Characters"),
        Stat("freestyle_cost", "Points spent", cost,
             tuple(Term(_pool_label(key, start_top), start[key]) for key in ATTRIBUTE_KEYS),
             ("the highest costs double",), "Characters > Step 3"),
        Stat("points_left", "Points left", build.budget - cost if freestyle else None,
             (Term("budget", build.budget), Term("less spent", cost)) if freestyle else (),
             source="Characters > Step 3"),
    ))


def experience_stats(build: CharacterBuild, attrs: Attributes,
                     bought: tuple[advancement.Raise, ...]) -> Section:
    """What each raise would cost now, and the XP earned, spent and left (CH §Experience):
    each raise bought cost what it cost at the time."""
    stats = []
    for key in ATTRIBUTE_KEYS:
        terms = tuple(Term(label, value)
                      for label, value in advancement.raise_cost_terms(attrs, key))
        stats.append(Stat(f"raise_cost_{key}", f"XP to raise {ATTRIBUTE_NAMES[key]}",
                          advancement.raise_cost(attrs, key), terms,
                          (f"{attrs[key]} -> {attrs[key] + 1}",), "Characters > Spending XP"))
    spent = sum(r.cost for r in bought)
    left = build.xp_earned - spent
    issues = ()
    if left < 0:
        issues = (Issue("xp_overspent",
                        f"The raises cost {spent} XP, but only {build.xp_earned} were earned.",
                        "raises"),)
    stats += [
        Stat("xp_earned", "XP earned", build.xp_earned, source="Characters > Getting XP"),
        Stat("xp_spent", "XP spent", spent,
             tuple(Term(f"{ATTRIBUTE_NAMES[r.key]} {r.before}->{r.before + 1}", r.cost)
                   for r in bought), source="Characters > Spending XP"),
        Stat("xp_left", "XP left", left,
             (Term("earned", build.xp_earned), Term("less spent", spent)),
             source="Characters > Spending XP"),
    ]
    return Section(tuple(stats), issues)


def compute_sheet(build: CharacterBuild) -> CharacterSheet:
    """Every derived number of the build, section by section in the sheet's order."""
    attrs, bought = advancement.apply_raises(build.attributes, build.raises)
    worn = burden(build, attrs)
    sections = (
        attribute_stats(build, attrs, bought, worn),
        mettle_and_soak(build, attrs, worn),
        load_stats(worn),
        backstory_stats(build, attrs),
        credit_stats(build),
        pool_stats(build, attrs),
        experience_stats(build, attrs, bought),
    )
    weapons = tuple(weapon_line(item, worn.modified) for item in worn.carried
                    if item.weapon is not None)
    armor = worn.armor_item.armor if worn.armor_item else None
    return CharacterSheet(
        build=build, attributes=attrs, modified=worn.modified,
        stats={stat.name: stat for section in sections for stat in section.stats},
        weapons=weapons, armor=armor, statuses=tuple(sorted(worn.statuses)),
        issues=(*(issue for section in sections for issue in section.issues),
                *status_issues(build.statuses, current_mettle(build, attrs))),
    )
