"""compute_sheet(build) -> ErrantSheet: every derived number of an Errant, each with its
explanation from the Errant's own values and the section it comes from.

The build holds only the player's choices (the dice rolled and the swap, or Attributes set by
the Guide with a note; the Renown raises in order; XP; Ancestry, Archetype and its choices;
the items and where they are; Exhaustion, HP lost, coins). The sheet is recomputed from it
and never stored. Rule problems are collected in sheet.issues with stable codes, never raised.

Errant SRD: ER §Creating an Errant, §Record Other Information, §Renown and the Archetypes;
PR §Item Slots ... §Encumbrance; IT §Speed & Movement, §Death & Dying.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple

from ..sheet_lookups import SheetLookups
from . import advancement, archetypes, wounds
from . import slots as item_slots
from .attributes import (
    Attributes,
    Issue,
    Method,
    apply_swap,
    dice_problems,
    extra_languages,
    from_dice,
    guide_problems,
    languages_known,
    lifespan,
    raise_problems,
    rolled_problems,
    starting_alignment,
    swap_problems,
    with_raises,
)
from .data import (
    ALIGNMENTS,
    ANCESTRIES,
    ARCHETYPE_KEYS,
    ARCHETYPE_NAMES,
    ATTRIBUTE_KEYS,
    DEVIANT,
    VIOLENT,
    KitItem,
)
from .gear import die_label, is_destroyed, supply_to_restore


@dataclass(frozen=True)
class Item:
    """One line of the inventory: a size per unit (Fraction of a slot), how many, where."""

    name: str
    slots: Fraction = Fraction(1)
    quantity: int = 1
    location: str = item_slots.BACKPACK
    kind: str = ""  # "container" (a backpack, sack, pouch), "weapon", "shield", "supply" ...
    depletion: int | None = None  # current Depletion (or Burn for a light)
    depletion_max: int | None = None
    quality: int | None = None  # weapons and armour (PR §Quality & Breakage)
    blocks: int | None = None  # armour pieces (PR §Armour)
    magic_bonus: int = 0  # +N: N True Strikes (weapon) or Deflects (armour)

    def carried(self) -> item_slots.Carried:
        return item_slots.Carried(self.name, Fraction(self.slots), self.quantity, self.location)


# Where each kind of starting item goes first (the player then moves them, one action each).
_KIT_LOCATION = {"weapon": item_slots.HAND, "container": item_slots.WORN}
_KIT_LOCATION_BY_NAME = {"Heavy weapon": item_slots.HANDY, "Shield, small": item_slots.HAND,
                         "Shield, large": item_slots.HANDY}


def items_from_kit(kit: Sequence[KitItem]) -> tuple[Item, ...]:
    """The starting kit as inventory lines: the medium weapon and a small shield in hand, a
    heavy weapon or large shield handy, the backpack worn, everything else in the backpack.
    Weapons and shields start average (Quality 2, PR §Quality & Breakage)."""
    items = []
    for kit_item in kit:
        location = _KIT_LOCATION_BY_NAME.get(
            kit_item.name, _KIT_LOCATION.get(kit_item.kind, item_slots.BACKPACK))
        uses = kit_item.depletion if kit_item.depletion is not None else kit_item.burn
        items.append(Item(
            name=kit_item.name, slots=kit_item.slots, quantity=kit_item.quantity,
            location=location, kind=kit_item.kind, depletion=uses, depletion_max=uses,
            quality=2 if kit_item.kind in ("weapon", "shield") else None,
            blocks=kit_item.blocks,
        ))
    return tuple(items)


@dataclass(frozen=True)
class ErrantBuild:
    """The player's choices, as the engine needs them."""

    method: Method = Method.ROLLED
    dice: tuple[tuple[int, ...], ...] = ()  # the 4D4 rolled, in order (ROLLED)
    swap: tuple[str, str] | None = None  # at most one swap (ROLLED)
    guide_attributes: Attributes | None = None  # GUIDE
    guide_note: str = ""
    renown_raises: tuple[tuple[str, str], ...] = ()  # (Company's, player's) per Renown gained
    trained: tuple[str, ...] = ()  # DT §Improving Attributes: +1 per successful attempt
    xp: int = 0
    ancestry: str = "adaptable"
    age: int | None = None
    minimum_age: int | None = None  # the Ancestry's rolled minimum starting age
    archetype: str = VIOLENT
    covenant_alignment: str = ""  # a Zealot's Covenant: "L", "C" or ""
    alignment: str | None = None  # None: the starting Alignment
    extra_languages: tuple[str, ...] = ()  # beyond the common and Ancestry languages
    proficiencies: tuple[tuple[str, int], ...] = ()  # a Deviant's points per Proficiency
    fleet_footed: bool | None = None  # None: from a Deviant's Fitness mastery
    favour_deeds: int = 0  # a Zealot's Favour raised permanently by deeds
    items: tuple[Item, ...] = ()
    coins: int = 0
    coins_location: str = item_slots.BACKPACK
    exhaustion: int = 0
    hp_lost: int = 0
    hp_current: int | None = None  # None: HP as lost by hp_lost (0: full); else HP now
    times_at_zero_hp: int = 0
    keepsake: str = ""
    failed_profession: str = ""
    # The lasting wounds not healed, (table, row) each (IT §Death & Dying; written by the
    # fight's end, campaigns/systems/errant/fight.py; AMB-E-WOUND-1).
    wounds: tuple[tuple[str, int], ...] = ()


class Term(NamedTuple):
    label: str
    value: int | str

    def __str__(self) -> str:
        return f"{self.label} {self.value}" if self.label else str(self.value)


def fraction_label(value: Fraction | int) -> str:
    """5 1/2 slots shown as "5½"; quarters as ¼ and ¾."""
    value = Fraction(value)
    whole, part = divmod(value, 1)
    glyph = {Fraction(0): "", Fraction(1, 4): "¼", Fraction(1, 2): "½", Fraction(3, 4): "¾"}
    if part in glyph:
        text = (str(whole) if whole or not part else "") + glyph[part]
        return text or "0"
    return str(value)


class Stat(NamedTuple):
    """One derived number, able to explain itself."""

    name: str  # stable data-stat name
    label: str
    value: int | str | Fraction | None
    terms: tuple[Term, ...] = ()
    notes: tuple[str, ...] = ()
    source: str = ""

    @property
    def display(self) -> str:
        if self.value is None:
            return "—"
        if isinstance(self.value, Fraction):
            return fraction_label(self.value)
        return str(self.value)

    @property
    def explanation(self) -> str:
        text = f"{self.label} {self.display}"
        for index, term in enumerate(self.terms):
            negative = isinstance(term.value, int) and term.value < 0
            if index == 0:
                text += " = " + str(term)
            elif negative:
                text += f" - {term.label} {-term.value}"
            else:
                text += f" + {term}"
        if self.notes:
            text += " (" + "; ".join(self.notes) + ")"
        return text


# Issue 14's data-stat names, in the sheet's order; the Archetype's own follow them.
DERIVED_NAMES = (
    "phys", "skill", "mind", "pres", "hp_max", "hp_current", "item_slots", "slots_filled",
    "encumbrance", "encumbrance_no_backpack", "spd", "spd_no_backpack", "movement_dice",
    "movement_dice_no_backpack", "renown", "xp", "xp_next", "damage_die", "exhaustion",
)
EXTRA_NAMES = (
    "slots_filled_no_backpack", "shift_distance", "shift_distance_no_backpack",
    "physical_dv", "supply", "languages_known", "alignment", "lifespan",
)
ARCHETYPE_NAMES_BY_KEY = {
    "violent": ("attack_rolls", "feats_known", "combat_dice"),
    "deviant": ("proficiency_points", "jettons", "sneak_attack_dice"),
    "occult": ("prepared_sorceries", "sorcery_depletion", "stabilise", "stabilise_dv",
               "maleficence", "retorts"),
    "zealot": ("favour", "relics_attuned"),
}
# A Deviant's rows with a mastery (ER §The Deviant), in the sheet's order.
MASTERY_NAMES = (
    ("lore", ("sorcery_depletion",)),  # AMB-E-LORE
    ("sleight_of_hand", ("retrieve",)),  # Pack Rat, AMB-E-PACKRAT
    ("survival", ("companion_hp", "companion_spd", "companion_damage_die")),  # AMB-E-BEAST
)
LORE_NAMES = MASTERY_NAMES[0][1]


def archetype_names(build: ErrantBuild) -> tuple[str, ...]:
    """The Archetype's rows of this sheet: a Deviant with Lore mastery adds Sorcery
    Depletion (AMB-E-LORE), with Pack Rat the retrieving (AMB-E-PACKRAT), with Beast Master
    the animal companion's numbers (AMB-E-BEAST) (ER §The Deviant)."""
    extra = tuple(name for key, names in MASTERY_NAMES if archetypes.has_mastery(build, key)
                  for name in names)
    return (*ARCHETYPE_NAMES_BY_KEY.get(build.archetype, ()), *extra)


def _export(value):
    """A derived value for the exchange format: quarter slots are exact as floats."""
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    return value


QUALITY_LABELS = {1: "shoddy", 2: "average", 3: "masterwork"}


@dataclass(frozen=True)
class ItemLine:
    """One inventory line as the sheet shows it (PR §Depletion, §Burn, §Supply, §Armour,
    §Quality & Breakage, §Magic Weapons & Armour)."""

    item: Item
    total: Fraction  # slots the line fills
    supply_to_restore: int | None  # Supply to restore its Depletion (None: nothing to deplete)
    quality_label: str  # shoddy / average / masterwork / destroyed / "" (not tracked)
    destroyed: bool
    true_strikes: int  # a +N weapon's True Strikes
    deflects: int  # a +N armour piece's Deflects


def item_line(item: Item) -> ItemLine:
    tracked = item.depletion_max is not None
    restore_cost = None
    if tracked and item.quantity >= 1 and Fraction(item.slots) >= 0:
        try:
            restore_cost = supply_to_restore(Fraction(item.slots))
        except ValueError:  # a size that is not whole quarters: nothing to compute
            restore_cost = None
    destroyed = item.quality is not None and is_destroyed(item.quality)
    label = "" if item.quality is None else (
        "destroyed" if destroyed else QUALITY_LABELS.get(item.quality, str(item.quality)))
    magic = max(item.magic_bonus, 0)
    return ItemLine(item=item, total=Fraction(item.slots) * item.quantity,
                    supply_to_restore=restore_cost, quality_label=label, destroyed=destroyed,
                    true_strikes=magic if item.kind == "weapon" else 0,
                    deflects=magic if item.kind in ("armour", "shield") else 0)


@dataclass(frozen=True)
class ErrantSheet(SheetLookups):
    build: ErrantBuild
    rolled: Attributes | None  # the Attributes as rolled, before the swap (ROLLED)
    attributes: Attributes  # final: after the swap (or as the Guide set) and the raises
    stats: dict[str, Stat]
    issues: tuple[Issue, ...]
    flags: frozenset[str] = field(default_factory=frozenset)  # "incapable", "dead" ...
    item_lines: tuple[ItemLine, ...] = ()

    def names(self) -> tuple[str, ...]:
        return (*DERIVED_NAMES, *EXTRA_NAMES, *archetype_names(self.build))

    @property
    def archetype_stat_names(self) -> tuple[str, ...]:
        """The Archetype's rows, in order (the sheet's Archetype section)."""
        return archetype_names(self.build)

    def derived(self) -> dict[str, int | str | float | None]:
        """The export's `derived` object: every data-stat name and its value."""
        return {name: _export(self.stats[name].value) for name in self.names()}


# -- the sheet, by section -----------------------------------------------------------------------


def _attributes(build: ErrantBuild) -> tuple[Attributes | None, Attributes, list[Issue]]:
    """ER §Determine Attributes: 4D4 in order, at most one swap; or set by the Guide."""
    issues: list[Issue] = []
    if build.method not in tuple(Method):
        issues.append(Issue("method_invalid", f"{build.method!r} is neither rolled nor set by "
                            "the Guide.", "method"))
    if build.method == Method.GUIDE:
        base = build.guide_attributes or Attributes()
        issues += guide_problems(base, build.guide_note)
        rolled = None
    else:
        issues += dice_problems(build.dice)
        if issues:
            # what can be summed, to show beside the problems
            rolled = Attributes(*(sum(f for f in faces if isinstance(f, int))
                                  for faces in build.dice)) if len(build.dice) == 4 else \
                Attributes()
        else:
            rolled = from_dice(build.dice)
            issues += rolled_problems(rolled)
        problems = swap_problems(build.swap)
        issues += problems
        base = rolled if problems else apply_swap(rolled, build.swap)
    issues += raise_problems(build.renown_raises)
    return rolled, with_raises(with_raises(base, build.renown_raises), [build.trained]), issues


def current_alignment(build: ErrantBuild) -> str:
    """ER §Record Other Information: the Alignment the Errant has moved to, else the one
    it starts at (`starting_alignment`): the sheet's "alignment"."""
    return build.alignment or starting_alignment(build.archetype, build.covenant_alignment)


def compute_sheet(build: ErrantBuild) -> ErrantSheet:
    issues: list[Issue] = []
    stats: dict[str, Stat] = {}
    flags: set[str] = set()

    def add(name, label, value, terms=(), notes=(), source=""):
        stats[name] = Stat(name, label, value, tuple(terms), tuple(notes), source)

    if build.archetype not in ARCHETYPE_KEYS:
        issues.append(Issue("archetype_unknown", f"{build.archetype!r} is not an Archetype.",
                            "archetype"))
    if build.ancestry not in ANCESTRIES:
        issues.append(Issue("ancestry_unknown", f"{build.ancestry!r} is not an Ancestry.",
                            "ancestry"))

    rolled, attrs, problems = _attributes(build)
    issues += problems
    for key in ATTRIBUTE_KEYS:
        terms = []
        if rolled is not None:
            source_key = key
            if build.swap and not swap_problems(build.swap) and key in build.swap:
                source_key = build.swap[1] if key == build.swap[0] else build.swap[0]
            terms.append(Term(f"rolled as {source_key}", rolled[source_key]))
        else:
            base = build.guide_attributes or Attributes()
            terms.append(Term("set by the Guide", base[key]))
        raises = sum(1 for pair in build.renown_raises for k in pair if k == key)
        if raises:
            terms.append(Term("Renown raises", raises))
        trained = build.trained.count(key)
        if trained:
            terms.append(Term("trained", trained))
        add(key, key, attrs[key], terms,
            source="ER §Determine Attributes, §Renown" + (
                "; DT §Improving Attributes" if trained else ""))
    phys = max(attrs.phys, 1)

    # Advancement (ER §Renown).
    xp = max(build.xp, 0)
    if build.xp < 0:
        issues.append(Issue("xp_negative", "XP is never negative.", "xp"))
    renown = advancement.renown_for_xp(xp)
    if len(build.renown_raises) > renown - 1:
        issues.append(Issue("renown_raises_over",
                            f"{len(build.renown_raises)} Renown raises recorded; Renown {renown} "
                            f"gives {renown - 1}.", "renown_raises"))
    elif len(build.renown_raises) < renown - 1:
        issues.append(Issue("renown_raises_pending",
                            f"{renown - 1 - len(build.renown_raises)} Renown raise(s) to "
                            f"choose.", "renown_raises", severity="warning"))
    add("renown", "Renown", renown, [Term("XP", xp)], source="ER §Renown")
    add("xp", "XP", xp, source="ER §Renown")
    next_xp = advancement.xp_next(xp)
    add("xp_next", "Next Renown at", next_xp,
        notes=() if next_xp else ("the table stops at Renown 9",), source="ER §Renown")

    # HP and slots (ER §Record Other Information; PR §Item Slots, §Exhaustion).
    # A lasting "HP halved" wound halves the maximum, rounded down, once per such wound
    # (IT §Death & Dying; AMB-E89, AMB-E-WOUND-1): the stored wounds are an input.
    carried = [wounds.wound_at(column, row) for column, row in build.wounds]
    hp_max = wounds.max_hp_with_wounds(attrs.phys, carried)
    halved = sum(1 for w in carried if w.halves_hp)
    add("hp_max", "HP", hp_max, [Term("phys", attrs.phys)],
        notes=(f"halved by {halved} wound{'s' if halved != 1 else ''}",) if halved else (),
        source="ER §Record Other Information" + ("; IT §Death & Dying" if halved else ""))
    if build.hp_current is not None and build.hp_current > hp_max:
        issues.append(Issue("hp_over_max", f"HP {build.hp_current} is above the maximum, "
                            f"{'halved ' if halved else 'phys '}{hp_max}.", "hp_current"))
    lost = max(build.hp_lost if build.hp_current is None else hp_max - build.hp_current, 0)
    hp_current = hp_max - lost
    add("hp_current", "HP now", max(hp_current, 0),
        [Term("HP", hp_max)] + ([Term("lost", -lost)] if lost else []),
        source="ER §Record Other Information")
    add("item_slots", "Item Slots", attrs.phys, [Term("phys", attrs.phys)],
        source="PR §Item Slots")
    if build.exhaustion < 0:
        issues.append(Issue("exhaustion_negative", "Exhaustion is never negative.",
                            "exhaustion"))
    exhaustion = max(build.exhaustion, 0)
    add("exhaustion", "Exhaustion", exhaustion, notes=("each fills an Item Slot",),
        source="PR §Exhaustion")
    if item_slots.dead_of_exhaustion(exhaustion, attrs.phys):
        flags.add("dead")
        issues.append(Issue("dead_of_exhaustion",
                            f"Exhaustion {exhaustion} has reached phys {attrs.phys}: the Errant "
                            f"dies.", "exhaustion", severity="warning"))

    # Items and Encumbrance (PR §Hand, Handy & Worn, §Containers, §Encumbrance).
    # Lines with a bad size or quantity are reported below and left out of the count.
    carried = [item.carried() for item in build.items
               if item.quantity >= 1 and Fraction(item.slots) >= 0]
    issues += _item_problems(build)
    if build.coins < 0:
        issues.append(Issue("coins_negative", "Coins are never negative.", "coins"))
    coins = item_slots.coin_slots(max(build.coins, 0))
    coins_on = coins
    coins_off = coins if build.coins_location in item_slots.ON_BODY else Fraction(0)
    filled = item_slots.filled_slots(carried, exhaustion, coins_on)
    filled_off = item_slots.filled_slots(carried, exhaustion, coins_off, backpack_on=False)
    add("slots_filled", "Slots filled", filled,
        [Term("items", fraction_label(filled - exhaustion - coins_on)),
         Term("Exhaustion", exhaustion)] + ([Term("coins", fraction_label(coins))] if coins
                                             else []), source="PR §Item Slots, §Exhaustion")
    add("slots_filled_no_backpack", "Slots filled, backpack off", filled_off,
        notes=("worn, hand and handy slots only",), source="PR §Encumbrance")
    enc = item_slots.encumbrance(filled, phys)
    enc_off = item_slots.encumbrance(filled_off, phys)
    thresholds = ", ".join(fraction_label(t) for t in item_slots.encumbrance_thresholds(phys))
    enc_note = f"+1 at {thresholds} slots filled, then +1 per whole slot beyond"
    add("encumbrance", "Encumbrance", enc, [Term("slots filled", fraction_label(filled))],
        (enc_note,), "PR §Encumbrance")
    add("encumbrance_no_backpack", "Encumbrance, backpack off", enc_off,
        [Term("slots filled", fraction_label(filled_off))], (enc_note,), "PR §Encumbrance")
    if item_slots.incapable(enc):
        flags.add("incapable")
        issues.append(Issue("incapable", f"Encumbrance {enc}: at 8 or more the Errant can do "
                            "nothing.", "items", severity="warning"))
    add("physical_dv", "DV on physical Checks", enc, [Term("Encumbrance", enc)],
        notes=("climbing, sneaking, swimming and stabilise Checks",), source="PR §Encumbrance")

    supply = sum(item.quantity for item in build.items
                 if item.kind == "supply" and item.quantity >= 1)
    add("supply", "Supply", supply, notes=("1 p and 1/4 slot each; 1 per quarter slot restores an "
                                           "item; discarded at the next Downtime Turn",),
        source="PR §Supply")

    # SPD and movement (IT §Speed & Movement).
    proficiencies = dict(build.proficiencies)
    fleet = build.fleet_footed
    if fleet is None:
        fleet = build.archetype == DEVIANT and proficiencies.get("fitness", 0) >= 2
    for suffix, e in (("", enc), ("_no_backpack", enc_off)):
        speed = item_slots.spd(attrs.skill, e, fleet_footed=fleet)
        notes = ("Fleet-footed: Encumbrance 4 or less does not reduce SPD",) \
            if fleet and e <= 4 else ()
        add(f"spd{suffix}", "SPD" + (", backpack off" if suffix else ""), speed,
            [Term("skill", attrs.skill)] + ([Term("Encumbrance", -e)] if speed != attrs.skill
                                            else []),
            notes, "IT §Speed & Movement")
        dice = item_slots.movement_dice(speed)
        add(f"movement_dice{suffix}", "Movement dice" + (", backpack off" if suffix else ""),
            dice, [Term("SPD", speed)], ("one D4 per 4 SPD, never below 0",),
            "IT §Speed & Movement")
        shift = item_slots.shift_distance(dice)
        add(f"shift_distance{suffix}", "Shift" + (", backpack off" if suffix else ""), shift,
            [Term("movement dice", dice)] if shift else [],
            notes=("no shift; an action moves 10",) if shift is None else
            ("x 10 feet or yards, a free action, not with a movement roll",),
            source="IT §Speed & Movement")

    # Archetype (ER §The Violent ... §The Zealot).
    if build.archetype in ARCHETYPE_KEYS:
        die = archetypes.damage_die(build.archetype)
        add("damage_die", "Damage die", die_label(die),
            [Term(ARCHETYPE_NAMES[build.archetype], die_label(die))],
            source=f"ER §{ARCHETYPE_NAMES[build.archetype]}")
        for value in archetypes.archetype_values(
                build.archetype, renown, attrs.skill, attrs.pres, enc, build.favour_deeds,
                lore_mastery=archetypes.has_mastery(build, "lore"),
                assassin=archetypes.has_mastery(build, "stealth"),
                pack_rat=archetypes.has_mastery(build, "sleight_of_hand"),
                beast_master=archetypes.has_mastery(build, "survival")):
            add(value.name, value.label, value.value, notes=(value.rule,), source=value.source)
        if build.archetype == DEVIANT:
            issues += archetypes.proficiency_problems(proficiencies, renown)
    else:
        add("damage_die", "Damage die", None)

    # Languages, Alignment, age and lifespan (ER §Note Languages Known, §Record Other
    # Information; IT §Death & Dying).
    allowed = extra_languages(attrs.mind)
    add("languages_known", "Languages", languages_known(attrs.mind),
        [Term("common", 1), Term("Ancestry", 1), Term("mind above 10", allowed)],
        source="ER §Note Languages Known")
    named = [name for name in build.extra_languages if name.strip()]
    if len(named) > allowed:
        issues.append(Issue("languages_over",
                            f"{len(named)} extra languages named; mind {attrs.mind} allows "
                            f"{allowed}.", "extra_languages"))
    alignment = current_alignment(build)
    if alignment not in ALIGNMENTS:
        issues.append(Issue("alignment_invalid", f"{alignment!r} is not on the track "
                            f"{' '.join(ALIGNMENTS)}.", "alignment"))
    add("alignment", "Alignment", alignment, source="ER §Record Other Information")
    if build.ancestry in ANCESTRIES:
        zero_hp = max(build.times_at_zero_hp, 0)
        add("lifespan", "Lifespan", lifespan(build.ancestry, attrs.phys, zero_hp),
            [Term(f"{ANCESTRIES[build.ancestry].name} average",
                  ANCESTRIES[build.ancestry].lifespan), Term("phys", attrs.phys),
             *([Term("times at 0 HP", -zero_hp)] if zero_hp else [])], source="IT §Death & Dying")
        if build.age is not None and build.minimum_age is not None and \
                build.age < build.minimum_age:
            issues.append(Issue("age_below_minimum",
                                f"Age {build.age} is below the rolled minimum starting age "
                                f"{build.minimum_age}.", "age"))
    else:
        add("lifespan", "Lifespan", None)

    return ErrantSheet(build=build, rolled=rolled, attributes=attrs, stats=stats,
                       issues=tuple(issues), flags=frozenset(flags),
                       item_lines=tuple(item_line(item) for item in build.items))


def _item_problems(build: ErrantBuild) -> list[Issue]:
    """Hand slots hold 2, handy slots up to 4; with no container only worn, hand and handy
    slots can be used (PR §Hand, Handy & Worn, §Containers)."""
    issues = []
    for item in build.items:
        if item.location not in item_slots.LOCATIONS:
            issues.append(Issue("item_location_invalid",
                                f"{item.name}: {item.location!r} is not a place for an item.",
                                "items"))
        if item.quantity < 1 or Fraction(item.slots) < 0:
            issues.append(Issue("item_size_invalid",
                                f"{item.name}: a quantity of at least 1 and a size of 0 or "
                                f"more.", "items"))
    totals = item_slots.location_totals(i.carried() for i in build.items)
    if totals[item_slots.HAND] > item_slots.HAND_SLOTS:
        issues.append(Issue("hands_over",
                            f"{fraction_label(totals[item_slots.HAND])} slots in hand; there are "
                            f"{item_slots.HAND_SLOTS} hand item_slots.", "items"))
    if totals[item_slots.HANDY] > item_slots.HANDY_SLOTS_MAX:
        issues.append(Issue("handy_over",
                            f"{fraction_label(totals[item_slots.HANDY])} slots handy; at most "
                            f"{item_slots.HANDY_SLOTS_MAX}.", "items"))
    has_container = any(item.kind == "container" for item in build.items)
    stowed = totals[item_slots.BACKPACK] + totals[item_slots.CONTAINER]
    if not has_container and (stowed or (build.coins and
                                         build.coins_location not in item_slots.ON_BODY)):
        issues.append(Issue("no_container",
                            "With no backpack or other container, only worn, hand and handy "
                            "slots can be used.", "items"))
    return issues
