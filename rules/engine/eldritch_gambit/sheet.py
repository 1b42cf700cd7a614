"""compute_sheet(build) -> CharacterSheet: every derived number, with its reasons.

The build holds only what the player chose; the sheet is recomputed from it on
every request and never stored. Rule problems are collected in sheet.issues with
stable codes, never raised.

compute_sheet composes one small function per SRD section, in the sheet's order:
level_stats (Characters > Level), attribute_scores (Characters > Attributes, LEVEL
BENEFITS), worn_armor (Resources > Armor), hit_points and rally (Characters >
Defenses), load (Characters > Gear > Encumbrance), agility_factor and willpower
(Characters > Defenses), poison_buildup (Status: Poisoned) and check_dice (Basics >
Checks). Weapon and natural-attack lines are made on demand (weapon_line,
natural_attack_line).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

from ..dice import Dice
from ..sheet_lookups import SheetLookups
from . import levels
from .attributes import ATTRIBUTES, NAMES, Attributes, describe, points_spent
from .checks import check_die, modifier
from .gear import (
    UNARMORED,
    WEAPON_BONUS_BY_QUALITY,
    ArmorType,
    GearPiece,
    Kind,
    Quality,
    effective_armor,
    unit_load,
)
from .statuses import BLINDED_PENALTY, STATUS_BY_KEY, normalize_status
from .templates import (
    SIZES,
    NaturalAttack,
    Size,
    TraitChoice,
    armored_trait,
    attack_traits,
    scale_load,
    size_of,
    sized_dice,
)

AF_BASE = 10  # DEFENSES table: AF = 10 + AGI
WP_BASE = 10  # DEFENSES table: WP = 10 + WIS


@dataclass(frozen=True)
class CharacterBuild:
    """The player's choices, as the engine needs them."""

    level: int = levels.STARTING_LEVEL
    xp: int = 0
    attributes: Attributes = field(default_factory=Attributes)
    skills: tuple[str, ...] = ()
    gear: tuple[GearPiece, ...] = ()
    traits: tuple[TraitChoice, ...] = ()
    statuses: frozenset[str] = frozenset()
    poison_buildup: int = 0
    hp_current: int | None = None  # None: at maximum
    wp_current: int | None = None  # None: at maximum
    has_career: bool = False
    has_origin: bool = False


# Term and Stat are named tuples rather than frozen dataclasses: as immutable, and
# built four times faster (a frozen dataclass sets each field through
# object.__setattr__). compute_sheet makes about 30 Stats and 50 Terms per call, and
# the live preview calls it on every keystroke.
class Term(NamedTuple):
    label: str
    value: int | str

    def __str__(self) -> str:
        return f"{self.label} {self.value}" if self.label else str(self.value)


class Stat(NamedTuple):
    """One derived number, able to explain itself."""

    name: str  # stable data-stat name
    label: str
    value: int | str | None
    terms: tuple[Term, ...] = ()
    notes: tuple[str, ...] = ()
    abbr: str = ""
    source: str = ""

    @property
    def explanation(self) -> str:
        head = f"{self.abbr or self.label} {self.display}"
        text = head + (" = " + " + ".join(str(t) for t in self.terms) if self.terms else "")
        if self.notes:
            text += " (" + "; ".join(self.notes) + ")"
        return text

    @property
    def display(self) -> str:
        if self.value is None:
            return "—"
        return str(self.value)


@dataclass(frozen=True)
class Issue:
    code: str
    message: str
    field: str | None = None
    severity: str = "error"  # "error" refuses a save; "warning" is shown only

    @property
    def is_error(self) -> bool:
        return self.severity == "error"


@dataclass(frozen=True)
class WeaponLine:
    name: str
    hit: int | None  # None: no Attack Check (an area Attack Trait hits all in the Zone)
    damage: str
    critical_bonus: int
    range: int | None
    reload: int | None
    tags: tuple[str, ...]
    quality: str
    terms_hit: tuple[Term, ...]
    terms_damage: tuple[Term, ...]
    element: str = ""  # an Attack Trait's Element ("Fire"), shown with the damage
    natural: bool = False  # from an Attack Trait, not a carried weapon

    @property
    def has_attack_check(self) -> bool:
        """Area Attack Traits strike all in the Zone without an Attack Check, so no
        Hit, no Critical and no longer Range on a d12 (docs/RULES.md)."""
        return self.hit is not None

    @property
    def hit_display(self) -> str:
        return f"{self.hit:+d}" if self.hit is not None else "—"

    @property
    def damage_display(self) -> str:
        return f"{self.damage} {self.element}" if self.element else self.damage

    @property
    def title(self) -> str:
        """The name with its Element as a prefix, as Spells take one (Magic > Elements:
        "a Fire Blast"): "Fire Attack (ranged area)"."""
        return f"{self.element} {self.name}" if self.element else self.name

    @property
    def long_range(self) -> int | None:
        """Range doubles when the Attack Check drops to a d12 (Resources > Weapons)."""
        return self.range * 2 if self.range and self.has_attack_check else None

    @property
    def attack_line(self) -> str:
        parts = [f"{self.damage_display} damage"]
        if self.has_attack_check:
            parts = [f"Hit {self.hit:+d}", *parts, f"Critical +{self.critical_bonus}"]
        if self.long_range:
            parts.append(f"Range {self.range} (d12 to {self.long_range})")
        elif self.range:
            parts.append(f"Range {self.range}")
        if self.reload:
            parts.append(f"Reload {self.reload}")
        parts.extend(self.tags)
        return ", ".join(parts)


@dataclass(frozen=True)
class AttributeRow:
    key: str
    abbr: str
    name: str
    value: int
    description: str
    over_maximum: bool
    check_d20: str
    check_d12: str


@dataclass(frozen=True)
class CharacterSheet(SheetLookups):
    build: CharacterBuild
    stats: dict[str, Stat]
    attributes: tuple[AttributeRow, ...]
    statuses: tuple[str, ...]  # keys, chosen and derived
    derived_statuses: tuple[str, ...]
    armor: ArmorType
    armor_source: str
    shield: GearPiece | None
    size: Size
    check_die: int
    issues: tuple[Issue, ...]

    @cached_property
    def weapons(self) -> tuple[WeaponLine, ...]:
        """A line per weapon carried (Resources > Weapons; Size steps damage dice).
        Made when first asked for: the live preview does not show them."""
        return tuple(weapon_line(piece, self.build.attributes, self.size)
                     for piece in carried_pieces(self.build.gear) if piece.weapon is not None)

    @cached_property
    def natural_attacks(self) -> tuple[WeaponLine, ...]:
        """A line per Attack Trait (Bestiary > Templates: "Attack: claws, teeth, horns,
        breath weapons ... Size applies to the damage dice used"), apart from
        `weapons`, which pairs with carried pieces. Made when first asked for."""
        return tuple(natural_attack_line(attack, self.build.attributes, self.size)
                     for attack in attack_traits(self.build.traits))

    @cached_property
    def block(self) -> GearPiece | None:
        """The ready shield (or other Blocking piece) whose Block bonus goes on a Clash
        damage Roll: Resources > Shields, "Shields and other Blocking weapons aid Melee
        clashes/failures: add the Block bonus to the wielder's Clash damage Roll". A
        piece carried ready (equipped, not dropped) with a Block above 0; the largest
        Block if several are (docs/RULES.md); None without one."""
        blocking = [piece for piece in carried_pieces(self.build.gear)
                    if piece.equipped and piece.shield is not None and piece.shield.block > 0]
        return max(blocking, key=lambda piece: piece.shield.block, default=None)

    @property
    def attribute_stats(self) -> tuple[Stat, ...]:
        return tuple(self.stats[row.key] for row in self.attributes)

    @property
    def status_rules(self):
        return tuple(STATUS_BY_KEY[key] for key in self.statuses)

    def has_status(self, key: str) -> bool:
        return key in self.statuses

    def derived(self) -> dict[str, int | str | None]:
        """The export's `derived` object: every data-stat name and its value."""
        return {name: self.stats[name].value for name in DERIVED_NAMES}


# The stable names of every derived number (data-stat attributes, export keys).
DERIVED_NAMES = (
    "level", "tier", "attribute_points", "attribute_points_spent", "attribute_max",
    "str", "wis", "dex", "agi", "cha", "end",
    "af", "hp_base", "hp_armored", "hp_current", "rally",
    "wp", "wp_current", "wp_floor", "load", "load_capacity", "encumbrance",
)

ENCUMBRANCE_NONE = "none"
ENCUMBRANCE_ENCUMBERED = "encumbered"
ENCUMBRANCE_INCAPACITATED = "incapacitated"


def signed(value: int) -> str:
    return f"{value:+d}"


def half_round_up(value: int) -> int:
    """"If halved, always round up" (Basics > Rolls > Modifiers)."""
    return -(-value // 2)


def carried_pieces(gear: tuple[GearPiece, ...]) -> tuple[GearPiece, ...]:
    """Pieces the character bears: not dropped, nor inside anything dropped."""
    by_key = {piece.key: piece for piece in gear if piece.key is not None}

    def is_carried(piece: GearPiece, seen: frozenset = frozenset()) -> bool:
        if piece.dropped:
            return False
        parent = by_key.get(piece.container) if piece.container is not None else None
        if parent is None or parent.key in seen:
            return True
        return is_carried(parent, seen | {piece.key})

    return tuple(piece for piece in gear if is_carried(piece))


def gear_load(gear: tuple[GearPiece, ...]) -> int:
    """Load of everything carried, at human Size (Characters > Gear > Encumbrance)."""
    return load_of(carried_pieces(gear))


def load_of(pieces: tuple[GearPiece, ...]) -> int:
    return sum(unit_load(piece) * piece.quantity for piece in pieces)


def container_contents_load(
    gear: tuple[GearPiece, ...], container: GearPiece, _seen: frozenset = frozenset()
) -> int:
    """Load inside a container: what sits in it (not dropped), nested containers
    with everything they hold."""
    total = 0
    for piece in gear:
        if piece.container != container.key or piece.dropped or piece.key in _seen:
            continue
        total += unit_load(piece) * piece.quantity
        if piece.is_container:
            total += container_contents_load(gear, piece, _seen | {container.key})
    return total


def encumbrance(load: int, capacity: int) -> str:
    """Encumbered with Load over STR + END, Incapacitated over twice that.

    Carrying nothing burdens no one, even with a negative STR + END.
    """
    if load <= 0:
        return ENCUMBRANCE_NONE
    if load > 2 * capacity:
        return ENCUMBRANCE_INCAPACITATED
    if load > capacity:
        return ENCUMBRANCE_ENCUMBERED
    return ENCUMBRANCE_NONE


# ---------------------------------------------------------------- the sheet, by SRD section
#
# Each function below computes one section of the sheet and returns it as a Section:
# its Stats in the order the sheet lists them, the Issues it finds, and the values a
# later section reads (the armor worn, Base HP, the statuses). compute_sheet calls them
# in the sheet's order and gathers their Stats and Issues.


@dataclass(frozen=True, kw_only=True)
class Section:
    """What one SRD section adds to the sheet: Stats in sheet order, and Issues."""

    stats: tuple[Stat, ...] = ()
    issues: tuple[Issue, ...] = ()


@dataclass(frozen=True, kw_only=True)
class AttributeScores(Section):
    """Attribute points and the six Attributes; `rows` waits for the check dice."""

    rows: tuple[tuple[str, str, str, int, str, bool], ...]  # key, abbr, name, value, text, over


@dataclass(frozen=True, kw_only=True)
class WornArmor(Section):
    armor: ArmorType
    source: str  # what the armor is: the piece worn, the Armored Trait, or nothing


@dataclass(frozen=True, kw_only=True)
class HitPoints(Section):
    base: int
    current: int
    derived_statuses: tuple[str, ...]  # Fallen at 0 HP or below


@dataclass(frozen=True, kw_only=True)
class Load(Section):
    derived_statuses: tuple[str, ...]  # Encumbered or Incapacitated by Load


@dataclass(frozen=True, kw_only=True)
class AgilityFactor(Section):
    shield: GearPiece | None


@dataclass(frozen=True, kw_only=True)
class CheckDice(Section):
    with_ocs: int  # with a relevant Origin, Career or Skill
    without_ocs: int


LEVEL_SOURCE = "Characters > Level"


def _pick_best(pieces: list[GearPiece], key) -> GearPiece | None:
    return max(pieces, key=key) if pieces else None


def level_stats(build: CharacterBuild) -> Section:
    """Level, Tier and XP (Characters > Level; Characters > Advancement)."""
    level = build.level
    issues = ()
    if level < levels.MIN_LEVEL:
        issues = (Issue("level_below_minimum", f"Level must be at least {levels.MIN_LEVEL}.",
                        "level"),)
    return Section(stats=(
        Stat("level", "Level", level, source=LEVEL_SOURCE),
        Stat("tier", "Tier", levels.tier(level),
             notes=("Common 5, Heroic 10, Elite 15, Legendary 20",), source=LEVEL_SOURCE),
        Stat("xp", "XP", build.xp, source="Characters > Advancement"),
        Stat("xp_to_next", "XP to next Level", levels.xp_to_next_level(level, build.xp),
             terms=(Term("Level", level), Term("less XP", build.xp)), source=LEVEL_SOURCE),
    ), issues=issues)


def attribute_scores(build: CharacterBuild) -> AttributeScores:
    """Attribute points, the maximum, and the six Attributes (Characters > Level, LEVEL
    BENEFITS: points equal to the Level, at most half the Level rounded up in one;
    Characters > Attributes: negative Attributes give no points back)."""
    attrs, level = build.attributes, build.level
    points = levels.attribute_points(level)
    spent = points_spent(attrs)
    maximum = levels.attribute_max(level)
    stats = [
        Stat("attribute_points", "Attribute points", points, (Term("Level", level),),
             source=LEVEL_SOURCE),
        Stat("attribute_points_spent", "Points spent", spent,
             tuple(Term(abbr, attrs[key]) for key, abbr, _ in ATTRIBUTES if attrs[key] > 0),
             notes=("negative Attributes give no points back",),
             source="Characters > Attributes"),
        Stat("attribute_points_left", "Points left", points - spent,
             (Term("Level", points), Term("less spent", spent)), source=LEVEL_SOURCE),
        Stat("attribute_max", "Attribute maximum", maximum,
             (Term("half of Level", level), Term("rounded up", "")), abbr="Max",
             source=LEVEL_SOURCE),
    ]
    issues = []
    rows = []
    for key, abbr, name in ATTRIBUTES:
        value = attrs[key]
        over = value > maximum
        if over:
            issues.append(Issue(
                "attribute_over_maximum",
                f"{name} {signed(value)} is over the Level {level} maximum of {signed(maximum)}.",
                key,
            ))
        description = describe(value)
        stats.append(Stat(key, name, value, notes=(description,), abbr=abbr,
                          source="Characters > Attributes"))
        rows.append((key, abbr, name, value, description, over))
    if spent > points:
        issues.append(Issue(
            "attribute_points_over_budget",
            f"{spent} Attribute points spent, but Level {level} gives only {points}.",
            "attributes",
        ))
    return AttributeScores(stats=tuple(stats), issues=tuple(issues), rows=tuple(rows))


def chosen_statuses(build: CharacterBuild) -> frozenset[str]:
    """The statuses the player chose, as keys (Characters > Defenses > Status).

    Fallen also follows from HP at zero or below; Encumbered follows from Load alone,
    so a chosen "Encumbered" is ignored.
    """
    return frozenset(
        key for key in (normalize_status(s) for s in build.statuses)
        if key and not STATUS_BY_KEY[key].derived
    )


def size_terms(size: Size) -> tuple[Term, ...]:
    """The "x2 (Large)" term of a number Size multiplies (Bestiary > Templates > Size)."""
    multiplier = SIZES[size].hp_multiplier
    return (Term(f"x{multiplier}", f"({size.value})"),) if multiplier > 1 else ()


def worn_armor(build: CharacterBuild, carried: tuple[GearPiece, ...]) -> WornArmor:
    """The armor that counts (Resources > Armor: one suit worn at a time; Bestiary >
    Templates: the Armored Trait counts as armor, and the better of the two counts)."""
    worn = [p for p in carried if p.equipped and p.armor is not None
            and Kind(p.kind) is Kind.ARMOR]
    issues = ()
    if len(worn) > 1:
        issues = (Issue("armor_multiple_worn",
                        "Only one suit of armor can be worn at a time.", "armor"),)
    worn_piece = _pick_best(worn, key=lambda p: effective_armor(p).ap)
    armor = effective_armor(worn_piece) if worn_piece else UNARMORED
    source = worn_piece.name if worn_piece else "None or clothed"
    if worn_piece and armor.name != worn_piece.name:
        source = f"{worn_piece.name} ({worn_piece.coverage} set, counts as {armor.name})"
    trait_armor = armored_trait(build.traits)
    if trait_armor and trait_armor.ap > armor.ap:
        # Armor points do not stack: the better of worn armor and the Trait counts.
        armor, source = trait_armor, f"Armored Trait (as {trait_armor.name})"
    return WornArmor(issues=issues, armor=armor, source=source)


def hit_points(
    build: CharacterBuild, worn: WornArmor, size: Size, chosen: frozenset[str]
) -> HitPoints:
    """Base HP = Level + STR + END, Armored HP = Base HP + AP (Characters > Defenses >
    Hit Points; Resources > Armor); Size multiplies HP and AP (Bestiary > Size).
    Fallen follows from HP at 0 or below (Characters > Defenses > HP Status Effects)."""
    attrs = build.attributes
    multiplier = SIZES[size].hp_multiplier
    sized = size_terms(size)
    hp_base = (build.level + attrs.str + attrs.end) * multiplier
    ap = worn.armor.ap * multiplier
    hp_armored = hp_base + ap
    hp_current = hp_armored if build.hp_current is None else build.hp_current
    issues = ()
    if build.hp_current is not None and build.hp_current > hp_armored:
        issues = (Issue(
            "hp_current_over_maximum",
            f"Current HP {build.hp_current} is over the Armored HP of {hp_armored}.",
            "hp_current",
        ),)
    fallen = hp_current <= 0 and "fallen" not in chosen and "dead" not in chosen
    return HitPoints(stats=(
        Stat("hp_base", "Base HP", hp_base,
             (Term("Level", build.level), Term("STR", attrs.str), Term("END", attrs.end))
             + sized, abbr="Base HP", source="Characters > Defenses"),
        Stat("armor_ap", "Armor Points", ap, (Term(worn.source, worn.armor.ap),) + sized,
             abbr="AP", source="Resources > Armor"),
        Stat("hp_armored", "Armored HP", hp_armored,
             (Term("Base HP", hp_base), Term("AP", ap)), abbr="Armored HP",
             source="Characters > Defenses"),
        Stat("hp_current", "Current HP", hp_current,
             notes=("at maximum",) if build.hp_current is None else (),
             abbr="HP", source="Characters > Defenses"),
    ), issues=issues, base=hp_base, current=hp_current,
        derived_statuses=("fallen",) if fallen else ())


def rally(build: CharacterBuild, armor: ArmorType, size: Size, chosen: frozenset[str]) -> Section:
    """Rally = the armor's die + END (Characters > Defenses; the die improves with
    armor, Resources > Armor, and steps with Size, Bestiary > Size); Burning: cannot
    Rally (Characters > Defenses > Status)."""
    die = sized_dice(Dice(1, armor.rally_die), size)
    notes = ("Burning: cannot Rally",) if "burning" in chosen else ()
    die_label = f"{armor.name} die" if armor.rank else "unarmored die"
    return Section(stats=(
        Stat("rally", "Rally", str(die.plus(build.attributes.end)),
             (Term(die_label, str(die)), Term("END", build.attributes.end)),
             notes, abbr="Rally", source="Characters > Defenses"),
    ))


def load(
    build: CharacterBuild, carried: tuple[GearPiece, ...], size: Size, chosen: frozenset[str]
) -> Load:
    """Load, Load capacity (STR + END), Encumbrance and the Swim penalty (Characters >
    Gear > Encumbrance; Size scales carried gear, Traits add Load: Bestiary > Templates);
    containers hold at most their capacity (Resources > Containers)."""
    attrs = build.attributes
    raw_gear_load = load_of(carried)
    scaled_gear_load = scale_load(raw_gear_load, size)
    trait_load = sum(trait.load for trait in build.traits)
    total = scaled_gear_load + trait_load
    load_terms = [Term("gear", scaled_gear_load)]
    if scaled_gear_load != raw_gear_load:
        load_terms = [Term(f"gear {raw_gear_load} scaled for {size.value} Size", scaled_gear_load)]
    if trait_load:
        load_terms.append(Term("Traits", trait_load))
    capacity = attrs.str + attrs.end
    burden = encumbrance(total, capacity)
    burden_note = {
        ENCUMBRANCE_NONE: f"Load {total} of {capacity}",
        ENCUMBRANCE_ENCUMBERED: f"Load {total} over {capacity}: two Moves to cross a Zone",
        ENCUMBRANCE_INCAPACITATED: f"Load {total} over twice {capacity}: no Action, AF 0",
    }[burden]
    derived: tuple[str, ...] = ()
    if burden == ENCUMBRANCE_ENCUMBERED:
        derived = ("encumbered",)
    elif burden == ENCUMBRANCE_INCAPACITATED and "incapacitated" not in chosen:
        derived = ("incapacitated",)
    source = "Characters > Gear > Encumbrance"
    return Load(stats=(
        Stat("load", "Load", total, tuple(load_terms), source=source),
        Stat("load_capacity", "Load capacity", capacity,
             (Term("STR", attrs.str), Term("END", attrs.end)), abbr="Load max",
             notes=(f"Incapacitated over {2 * capacity}",), source=source),
        Stat("encumbrance", "Encumbrance", burden, notes=(burden_note,), source=source),
        Stat("swim_penalty", "Swim penalty", -max(total, 0), (Term("-1 per Load", total),),
             source=source),
    ), issues=container_issues(build.gear, carried), derived_statuses=derived)


def container_issues(
    gear: tuple[GearPiece, ...], carried: tuple[GearPiece, ...]
) -> tuple[Issue, ...]:
    """A carried container holding more Load than its capacity."""
    issues = []
    for piece in carried:
        if piece.is_container:
            inside = container_contents_load(gear, piece)
            if inside > piece.capacity:
                issues.append(Issue(
                    "container_over_capacity",
                    f"{piece.name} holds Load {inside}, over its maximum of {piece.capacity}.",
                    "gear",
                ))
    return tuple(issues)


def sheet_statuses(chosen: frozenset[str], derived: tuple[str, ...]) -> tuple[str, ...]:
    """Chosen and derived status keys, in the SRD's order (Characters > Defenses > Status)."""
    return tuple(key for key in STATUS_BY_KEY if key in chosen or key in derived)


def agility_factor(
    attrs: Attributes, carried: tuple[GearPiece, ...], statuses: tuple[str, ...]
) -> AgilityFactor:
    """AF = 10 + AGI, + a shield (Characters > Defenses > Agility Factor; Resources >
    Shields); 0 when Fallen, Dead or Incapacitated, halved when Surprised (Characters >
    Defenses > Status)."""
    shields = [p for p in carried if p.equipped and p.shield is not None]
    issues = ()
    if len(shields) > 1:
        issues = (Issue("shield_multiple_carried", "Only one shield can be carried ready.",
                        "shield"),)
    shield = _pick_best(shields, key=lambda p: p.shield.af)
    af_terms = [Term("", AF_BASE), Term("AGI", attrs.agi)]
    af = AF_BASE + attrs.agi
    # The sheet's AF box holds 10 + AGI; "the +Shield box is for those wielding one"
    # (Characters > Defenses > Agility Factor). The printed sheet shows both.
    af_base = Stat("af_base", "Base AF", af, tuple(af_terms), abbr="AF",
                   notes=("without a shield or Status",), source="Characters > Defenses")
    if shield:
        af += shield.shield.af
        af_terms.append(Term("shield", shield.shield.af))
    af_notes = []
    # Dead counts as Fallen here, as in Initiative: death follows a Fallen character's
    # failed Recovery Check (Characters > Defenses > HP Status Effects).
    downed = [key for key in ("fallen", "dead", "incapacitated") if key in statuses]
    if downed:
        cause = STATUS_BY_KEY[downed[0]].name
        af_notes.append(f"{cause}: AF drops to 0, from {af}")
        af = 0
    elif "surprised" in statuses:
        af_notes.append(f"Surprised: AF {af} halved, rounded up")
        af = half_round_up(af)
    return AgilityFactor(stats=(
        af_base,
        Stat("af", "Agility Factor", af, tuple(af_terms), tuple(af_notes), abbr="AF",
             source="Characters > Defenses"),
    ), issues=issues, shield=shield)


def willpower(build: CharacterBuild) -> Section:
    """WP = 10 + WIS, less a WP per attuned Materia; it can only drop to half
    (Characters > Defenses > Willpower; Magic > Materia).

    Attuned Materia hold their WP down until discarded (deleted from the gear), even
    while set down: dropping is not discarding.
    """
    wis = build.attributes.wis
    attuned = sum(p.quantity for p in build.gear if p.attuned)
    wp_full = WP_BASE + wis
    wp = wp_full - attuned
    wp_terms = [Term("", WP_BASE), Term("WIS", wis)]
    if attuned:
        wp_terms.append(Term("attuned Materia", -attuned))
    wp_floor = half_round_up(wp_full)
    issues = []
    if attuned and wp < wp_floor:
        # Attuning spends a WP (Magic > Materia), and "WP can only drop to half"
        # (Characters > Defenses > Willpower): no more than WP - floor Materia.
        issues.append(Issue(
            "materia_below_floor",
            f"{attuned} attuned Materia take WP to {wp}, below the floor of {wp_floor}: "
            f"WP can only drop to half, so at most {wp_full - wp_floor} can be attuned.",
            "gear", severity="warning",
        ))
    wp_current = wp if build.wp_current is None else build.wp_current
    if build.wp_current is not None:
        if build.wp_current > wp:
            issues.append(Issue("wp_current_over_maximum",
                                f"Current WP {build.wp_current} is over the WP of {wp}.",
                                "wp_current"))
        elif build.wp_current < 0:
            issues.append(Issue("wp_current_negative", "Current WP cannot be below 0.",
                                "wp_current"))
        elif build.wp_current < wp_floor:
            issues.append(Issue(
                "wp_below_floor",
                f"Current WP {build.wp_current} is below the floor of {wp_floor}: "
                "no WP can be spent.", "wp_current", severity="warning",
            ))
    source = "Characters > Defenses > Willpower"
    return Section(stats=(
        Stat("wp", "Willpower", wp, tuple(wp_terms), abbr="WP", source=source),
        Stat("wp_floor", "WP floor", wp_floor,
             (Term("half of", f"10 + WIS = {wp_full}"), Term("rounded up", "")),
             notes=("WP cannot be spent below this",), abbr="WP floor", source=source),
        Stat("wp_current", "Current WP", wp_current,
             notes=("at maximum",) if build.wp_current is None else (), abbr="WP",
             source=source),
        Stat("wp_spendable", "WP to spend", max(wp_current - wp_floor, 0),
             (Term("current", wp_current), Term("less floor", wp_floor)), source=source),
    ), issues=tuple(issues))


def poison_buildup(build: CharacterBuild, hp_base: int, statuses: tuple[str, ...]) -> Section:
    """Poison Buildup takes effect once it exceeds Base HP (Characters > Defenses >
    Status: Poisoned)."""
    issues = ()
    if "poisoned" in statuses and build.poison_buildup > hp_base:
        issues = (Issue(
            "poison_takes_effect",
            f"Poison Buildup {build.poison_buildup} exceeds Base HP {hp_base}: the poison "
            "takes effect.", "poison_buildup", severity="warning",
        ),)
    return Section(stats=(
        Stat("poison_buildup", "Poison Buildup", build.poison_buildup,
             notes=(f"takes effect over Base HP {hp_base}",),
             source="Characters > Defenses > Status"),
    ), issues=issues)


def check_dice(statuses: tuple[str, ...]) -> CheckDice:
    """A d20 with a relevant Origin, Career or Skill, a d12 without; Staggered: all
    Checks on a d12 (Basics > Checks; Characters > Defenses > Status)."""
    staggered = "staggered" in statuses
    with_ocs = check_die(has_ocs=True, staggered=staggered)
    without_ocs = check_die(has_ocs=False, staggered=staggered)
    notes = ["d20 with a relevant Origin, Career or Skill; d12 without"]
    if staggered:
        notes.append("Staggered: all Checks on a d12")
    if "blinded" in statuses:
        notes.append(f"Blinded: {BLINDED_PENALTY} to Checks partly reliant on sight")
    if "confused" in statuses:
        notes.append("Confused: an odd raw roll fails")
    return CheckDice(stats=(
        Stat("check_dice", "Check dice", f"d{with_ocs} / d{without_ocs}",
             notes=tuple(notes), source="Basics > Checks"),
    ), with_ocs=with_ocs, without_ocs=without_ocs)


def attribute_rows(scores: AttributeScores, dice: CheckDice) -> tuple[AttributeRow, ...]:
    """The Attribute rows with their check dice: the die + the Attribute's modifier
    (Basics > Checks)."""
    rows = []
    for key, abbr, name, value, description, over in scores.rows:
        mod = signed(modifier(value))
        rows.append(AttributeRow(key, abbr, name, value, description, over,
                                 f"d{dice.with_ocs}{mod}", f"d{dice.without_ocs}{mod}"))
    return tuple(rows)


def compute_sheet(build: CharacterBuild) -> CharacterSheet:
    """Every derived number of the build, section by section in the sheet's order."""
    carried = carried_pieces(build.gear)
    chosen = chosen_statuses(build)
    size = size_of(build.traits)

    level = level_stats(build)
    scores = attribute_scores(build)
    armor = worn_armor(build, carried)
    hp = hit_points(build, armor, size, chosen)
    rally_stat = rally(build, armor.armor, size, chosen)
    burden = load(build, carried, size, chosen)
    derived_statuses = hp.derived_statuses + burden.derived_statuses
    statuses = sheet_statuses(chosen, derived_statuses)
    af = agility_factor(build.attributes, carried, statuses)
    wp = willpower(build)
    poison = poison_buildup(build, hp.base, statuses)
    dice = check_dice(statuses)

    sections = (level, scores, armor, hp, rally_stat, burden, af, wp, poison, dice)
    return CharacterSheet(
        build=build,
        stats={stat.name: stat for section in sections for stat in section.stats},
        attributes=attribute_rows(scores, dice),
        statuses=statuses,
        derived_statuses=derived_statuses,
        armor=armor.armor,
        armor_source=armor.source,
        shield=af.shield,
        size=size,
        check_die=dice.with_ocs,
        issues=tuple(issue for section in sections for issue in section.issues),
    )


def weapon_line(piece: GearPiece, attrs: Attributes, size: Size) -> WeaponLine:
    """Hit = weapon bonus + DEX + quality; Damage = die (Size-adjusted) + STR + quality.

    A Critical adds the max of one die, the largest (Basics, STANDARD CRITICALS;
    Bestiary > Size: "1d6+1 ... A Critical ... would do 1d6+7").
    """
    weapon = piece.weapon
    assert weapon is not None
    quality = WEAPON_BONUS_BY_QUALITY[Quality(piece.quality)]
    base = Dice.parse(weapon.damage)
    dice = sized_dice(base, size)
    damage = dice.plus(attrs.str + quality)
    hit = weapon.hit + attrs.dex + quality
    terms_hit = [Term("weapon", weapon.hit), Term("DEX", attrs.dex)]
    terms_damage = [Term("die", str(dice)), Term("STR", attrs.str)]
    if quality:
        label = Quality(piece.quality).value
        terms_hit.append(Term(label, quality))
        terms_damage.append(Term(label, quality))
    return WeaponLine(
        name=piece.name, hit=hit, damage=str(damage), critical_bonus=dice.sides,
        range=weapon.range, reload=weapon.reload, tags=tuple(weapon.tags),
        quality=Quality(piece.quality).value, terms_hit=tuple(terms_hit),
        terms_damage=tuple(terms_damage),
    )


def natural_attack_line(attack: NaturalAttack, attrs: Attributes, size: Size) -> WeaponLine:
    """An Attack Trait as a weapon line (Bestiary > Templates, TEMPLATES table).

    Hit = the Trait's +1 + DEX, as a weapon's bonus + DEX; Damage = the Trait's die
    (Size-adjusted) + STR; a Critical adds the max of the largest die. The Bestiary's
    creatures use their Base for every Attribute: the Babblin (Base +1, Medium, Attack
    (close)) has "Claws & Teeth: (Hit +2, 1d6+1 dmg)", the Grue (Base +3, Large,
    Attack(close)) "Maul: (Hit +4, dmg 2d6+3)". The area kinds print no "to hit": they
    strike all in the Zone, like the Burst Spell that "automatically hits everyone in
    the Zone" (Magic > Spells), so the line has no Hit (docs/RULES.md).
    """
    rule = attack.rule
    dice = sized_dice(Dice(1, rule.die), size)
    label = "Attack Trait"
    terms_hit: tuple[Term, ...] = ()
    hit = None
    if rule.hit is not None:
        hit = rule.hit + attrs.dex
        terms_hit = (Term(label, rule.hit), Term("DEX", attrs.dex))
    terms_damage = (Term(f"{label} die", str(dice)), Term("STR", attrs.str))
    return WeaponLine(
        name=f"Attack ({rule.kind})", hit=hit, damage=str(dice.plus(attrs.str)),
        critical_bonus=dice.sides, range=rule.range, reload=None, tags=rule.tags,
        quality=Quality.STANDARD.value, terms_hit=terms_hit, terms_damage=terms_damage,
        element=attack.element, natural=True,
    )


def explain(sheet: CharacterSheet, name: str) -> str:
    return sheet[name].explanation


__all__ = [
    "NAMES",
    "CharacterBuild",
    "CharacterSheet",
    "Issue",
    "Stat",
    "Term",
    "WeaponLine",
    "compute_sheet",
    "DERIVED_NAMES",
]
