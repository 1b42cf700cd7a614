"""Travel Turns: the day, Pace, navigation, getting lost, Exhaustion, the night's Rest
(TT §Travel Turn Actions, §Day & Night, §Navigation & Getting Lost, §Pace, §Resting,
§Unsuitable Campsites, §Eating & Drinking, §Mounts & Vehicles; next-games.md E41-E42).
The tables live in data.turns_tables; exact odds use checks.p_success.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .checks import p_success
from .data.turns_tables import (
    FORAGE_SUPPLY,
    GALE_DAMAGE_IN_6,
    HEX_DIRECTIONS,
    MARINE_PACE,
    MISLEADING_MAP_DV,
    NAVIGATOR_DV,
    ORIENT_DV,
    STORM_SINK_IN_6,
    TRAVEL_ACTIONS,
    TRAVEL_PACE,
    VESSELS,
    WIND_BANDS,
    PaceModifier,
)

TURNS_PER_DAY = 6  # TT §Day & Night: "six Travel Turns in a full, twenty-four hour day"
NIGHT_TURN = 4  # TT §Travel Turn Procedure: "if it is the fourth Travel Turn ... night-time"
MARCH_TURNS = 4  # TT §Day & Night: "only peregrinate for four Travel Turns a day"
SLEEP_TURNS = 2  # TT §Resting: "two Travel Turns sleeping"
MOUNT_EXHAUSTION = 10  # TT §Mounts & Vehicles: "10 times as much Exhaustion"
RIDER_SLOTS = 20  # TT §Mounts & Vehicles: "A rider ... counts for 20 Item Slots"


@dataclass(frozen=True)
class Pace:
    """Locations / Turns, kept unreduced (AMB-E28): 2/2 is not 1/1."""

    locations: int = 1
    turns: int = 1

    def __str__(self) -> str:
        return f"{self.locations}/{self.turns}"

    @property
    def rate(self) -> Fraction:
        return Fraction(self.locations, self.turns)


@dataclass(frozen=True)
class PaceResult:
    pace: Pace
    navigation_dv: int  # the terms' sum, before the Guide's base and maps
    positive_dice: int
    negative_dice: int
    cannot_get_lost: bool
    detects: bool
    overlooks: bool
    no_mapping: bool
    exhaustion_unless_camping: bool
    modifiers: tuple[PaceModifier, ...]


def pace_from(table: dict[str, PaceModifier], keys: tuple[str, ...] | list[str]) -> PaceResult:
    """Sum the Pace table rows (TT/XT §Pace: "Effects that modify Pace are additive")."""
    unknown = [k for k in keys if k not in table]
    if unknown:
        raise ValueError(f"unknown Pace modifier(s): {', '.join(unknown)}")
    if len(set(keys)) != len(keys):
        raise ValueError("a Pace modifier is counted once")
    if "slow" in keys and "quick" in keys:
        raise ValueError("the Company cannot move both slowly and quickly")
    mods = tuple(table[k] for k in keys)
    return PaceResult(
        pace=Pace(1 + sum(m.locations for m in mods), 1 + sum(m.turns for m in mods)),
        navigation_dv=sum(m.navigation_dv for m in mods),
        positive_dice=sum(m.positive_dice for m in mods),
        negative_dice=sum(m.negative_dice for m in mods),
        cannot_get_lost=any(m.cannot_get_lost for m in mods),
        detects=any(m.detects for m in mods),
        overlooks=any(m.overlooks for m in mods),
        no_mapping=any(m.no_mapping for m in mods),
        exhaustion_unless_camping=any(m.exhaustion_unless_camping for m in mods),
        modifiers=mods,
    )


def travel_pace(keys: tuple[str, ...] | list[str] = ()) -> PaceResult:
    """TT §Pace: e.g. ("road", "quick") -> 3/1, one negative Event Die."""
    return pace_from(TRAVEL_PACE, keys)


def is_night(turn_of_day: int) -> bool:
    """AMB-E142: Turns 4, 5 and 6 of a day are night-time (the fourth Turn is when night
    falls; the Guide may shift it by season)."""
    _check_turn(turn_of_day)
    return turn_of_day >= NIGHT_TURN


def _check_turn(turn_of_day: int) -> None:
    if not 1 <= turn_of_day <= TURNS_PER_DAY:
        raise ValueError(f"a day has Travel Turns 1 to {TURNS_PER_DAY}")


def day_and_turn(turn_number: int) -> tuple[int, int]:
    """The timekeeper's running Travel Turn number (1, 2, ...) -> (day, turn of day)."""
    if turn_number < 1:
        raise ValueError("Travel Turns are counted from 1")
    return (turn_number - 1) // TURNS_PER_DAY + 1, (turn_number - 1) % TURNS_PER_DAY + 1


def over_march_exhaustion(peregrinate_turns_today: int) -> int:
    """TT §Day & Night: 1 Exhaustion each per Travel Turn peregrinated beyond four."""
    if peregrinate_turns_today < 0:
        raise ValueError("a count of Turns cannot be negative")
    return max(0, peregrinate_turns_today - MARCH_TURNS)


@dataclass(frozen=True)
class NavigationDv:
    needed: bool  # False on a road or by an obvious landmark: no Check, cannot get lost
    dv: int
    terms: tuple[tuple[str, int], ...]
    secret: bool = True  # TT §Navigation: kept secret when it decides getting lost


def navigation_dv(base: int, pace: PaceResult | None = None, *, oriented: bool = False,
                  misleading: int = 0, navigator: bool = False,
                  landmark: bool = False) -> NavigationDv:
    """The Guide's base DV plus the Pace table's terms (terrain, night, weather, maps),
    Orient's -4 for the next Check, a misleading map's +2 to +4, a ship's navigator -4."""
    if base < 0:
        raise ValueError("the base DV cannot be negative")
    if misleading and not MISLEADING_MAP_DV[0] <= misleading <= MISLEADING_MAP_DV[1]:
        raise ValueError("a misleading map adds +2 to +4")
    terms: list[tuple[str, int]] = [("base", base)]
    if pace is not None:
        terms += [(m.name, m.navigation_dv) for m in pace.modifiers if m.navigation_dv]
    if oriented:
        terms.append(("Orient", ORIENT_DV))
    if misleading:
        terms.append(("Vague, confusing, misleading map or directions", misleading))
    if navigator:
        terms.append(("navigator on the crew", NAVIGATOR_DV))
    needed = not (landmark or (pace is not None and pace.cannot_get_lost))
    return NavigationDv(needed, sum(v for _, v in terms), tuple(terms))


def p_lost(attribute: int, nav: NavigationDv) -> Fraction:
    """The chance that peregrinating gets the Company lost: a failed navigation Check."""
    if not nav.needed:
        return Fraction(0)
    return 1 - p_success(attribute, nav.dv)


def lost_direction(d6: int) -> str:
    """TT §Navigation & Getting Lost: the d6 names a face of the hex, 1 = N, clockwise."""
    if d6 not in HEX_DIRECTIONS:
        raise ValueError(f"{d6} is not a face of a d6")
    return HEX_DIRECTIONS[d6]


def forage_expected_supply(attributes: tuple[int, ...] | list[int], dv: int) -> Fraction:
    """TT Forage: each Errant's navigation Check gives 2 Supply on a success."""
    return sum((FORAGE_SUPPLY * p_success(a, dv) for a in attributes), Fraction(0))


def action(key: str):
    if key not in TRAVEL_ACTIONS:
        raise ValueError(f"unknown Travel action {key!r}")
    return TRAVEL_ACTIONS[key]


@dataclass(frozen=True)
class Watch:
    exhaustion_per_watcher: int
    fives_are_ones: bool


def watch(watchers: int, *, open_campsite: bool = False) -> Watch:
    """TT Take watch: one watcher for a whole Turn gains 1 Exhaustion; two (or more,
    AMB-E143) none; no watch -> 5s count as 1s. An Open campsite counts 5s as 1s even with a
    watch (§Unsuitable Campsites)."""
    if watchers < 0:
        raise ValueError("watchers cannot be negative")
    return Watch(1 if watchers == 1 else 0, watchers == 0 or open_campsite)


@dataclass(frozen=True)
class Rest:
    full: bool
    exhaustion_removed: int
    heal_with_kit: bool  # a healer's kit heals a roll of the damage die
    heal_without_kit: bool  # a warm, safe bed in a Settlement
    resources: bool  # other resources that recover with a night's Rest


def nights_rest(sleep_turns: int, *, beautiful_day: bool = False,
                uncomfortable: bool = False, safe_bed: bool = False) -> Rest:
    """TT §Resting: two Travel Turns' sleep (one on a Beautiful day, TT §Weather) give a full
    night's Rest: -1 Exhaustion, resources, a healer's kit heals a damage die roll; a safe
    bed heals without a kit. An Uncomfortable campsite: no Exhaustion removed, no HP
    (AMB-E144: the other resources still return)."""
    if sleep_turns < 0:
        raise ValueError("sleep Turns cannot be negative")
    needed = 1 if beautiful_day else SLEEP_TURNS
    if sleep_turns < needed:
        return Rest(False, 0, False, False, False)
    return Rest(True, 0 if uncomfortable else 1, not uncomfortable,
                safe_bed and not uncomfortable, True)


@dataclass(frozen=True)
class Deplete:
    outcome: str  # "ration", "supply", "starving"
    exhaustion: int


def deplete_member(has_ration: bool, supply: int, *, plentiful: bool = False) -> Deplete:
    """PR §Event Die – Travel, Deplete; TT §Eating & Drinking: a ration, else 1 Supply
    (also when food is plentiful), else the member starves: +1 Exhaustion."""
    if supply < 0:
        raise ValueError("Supply cannot be negative")
    if has_ration and not plentiful:
        return Deplete("ration", 0)
    if supply >= 1:
        return Deplete("supply", 0)
    if has_ration:  # plentiful food but no Supply: eat the ration (AMB-E145)
        return Deplete("ration", 0)
    return Deplete("starving", 1)


def weather_exhaustion(severity: str, *, sheltered: bool, save_passed: bool | None = None,
                       extreme_climate: bool = False, outfitted: bool = True) -> int:
    """TT §Weather: inclement -> a DV 2 phys Save or +1 Exhaustion per Turn not resting in
    shelter; severe -> +1 automatically; extreme heat/cold unoutfitted -> +1 per Turn."""
    ex = 0
    if severity == "inclement" and not sheltered:
        if save_passed is None:
            raise ValueError("inclement weather needs the DV 2 phys Saving Throw's result")
        ex += 0 if save_passed else 1
    elif severity == "severe" and not sheltered:
        ex += 1
    elif severity not in ("fair", "inclement", "severe"):
        raise ValueError(f"unknown weather severity {severity!r}")
    if extreme_climate and not outfitted:
        ex += 1
    return ex


INCLEMENT_SAVE_DV = 2  # TT §Weather: "a DV 2 phys Saving Throw"


def mount_exhaustion(person_exhaustion: int) -> int:
    return person_exhaustion * MOUNT_EXHAUSTION


def rider_slots(filled_slots: Fraction | int) -> Fraction:
    return Fraction(RIDER_SLOTS) + Fraction(filled_slots)


def march_exhaustion_this_turn(peregrinations_before_today: int) -> int:
    """The ledger's step: this Turn's peregrination is beyond the fourth -> 1 each."""
    if peregrinations_before_today < 0:
        raise ValueError("a count of Turns cannot be negative")
    return 1 if peregrinations_before_today >= MARCH_TURNS else 0


def starvation_exhaustion(depletions_without_food: int, days_without_food: int) -> int:
    """TT §Eating & Drinking: 1 Exhaustion when a Deplete finds neither rations nor Supply,
    then another for each such Deplete and for each day without food (AMB-E154: the days
    are whole days past the first starving Deplete)."""
    if depletions_without_food < 0 or days_without_food < 0:
        raise ValueError("counts cannot be negative")
    return depletions_without_food + days_without_food


def disease_dv(hp: int, max_hp: int) -> int:
    """TT §Disease & Infection: a phys Check, DV = maximum HP - current HP."""
    if max_hp < 0 or not 0 <= hp <= max_hp:
        raise ValueError("HP must be between 0 and the maximum")
    return max_hp - hp


MONSTER_COOKING_RUSHED = 4  # TT §Eating Monsters: "+4 if you cannot spend a full Travel Turn"


def eating_monster_dv(threat: int, *, clean_water: bool = False, cooking_gear: bool = False,
                      fire: bool = False, spices: bool = False, rushed: bool = False) -> int:
    """TT §Eating Monsters: a skill Check vs Threat, -1 for each of clean water, cooking
    equipment (not a mess kit), fire, salt or spices; +4 if not a full Travel Turn."""
    if threat < 0:
        raise ValueError("Threat cannot be negative")
    return (threat - sum((clean_water, cooking_gear, fire, spices))
            + (MONSTER_COOKING_RUSHED if rushed else 0))


VOYAGE_CAP = 3  # TT §Voyages: situational modifiers "should not exceed either -3 or +3"


def voyage_odds(modifier: int = 0) -> dict[str, Fraction]:
    """TT §Voyages: 2D6 + modifier (-3..+3): 10+ arrives, 7-9 a complication, 6- fails."""
    if not -VOYAGE_CAP <= modifier <= VOYAGE_CAP:
        raise ValueError("a voyage's modifiers total -3 to +3")
    out = {"arrives": Fraction(0), "complication": Fraction(0), "fails": Fraction(0)}
    for a in range(1, 7):
        for b in range(1, 7):
            t = a + b + modifier
            key = "arrives" if t >= 10 else "complication" if t >= 7 else "fails"
            out[key] += Fraction(1, 36)
    return out


def wind(dice_total: int) -> str:
    """TT §Marine Travel: the day's 2D6 wind roll -> a MARINE_PACE key."""
    for lo, hi, key in WIND_BANDS:
        if lo <= dice_total <= hi:
            return key
    raise ValueError(f"{dice_total} is not a 2D6 total")


def marine_pace(vessel: str, *, sailing: bool, conditions: tuple[str, ...] | list[str] = (),
                ) -> Pace | None:
    """The vessel's rowing or sailing Pace plus the wind/water rows; None when it cannot
    move that way (no oars, no sails, or becalmed under sail). A weather effect replaces
    the wind (TT), so pass "gales"/"storms" instead of the day's wind."""
    if vessel not in VESSELS:
        raise ValueError(f"unknown vessel {vessel!r}")
    unknown = [c for c in conditions if c not in MARINE_PACE]
    if unknown:
        raise ValueError(f"unknown condition(s): {', '.join(unknown)}")
    base = VESSELS[vessel].sailing if sailing else VESSELS[vessel].rowing
    if base is None or (sailing and "becalmed" in conditions):
        return None
    winds = {"becalmed", "weak", "normal", "fair", "strong", "gales", "storms"}
    rows = [MARINE_PACE[c] for c in conditions if sailing or c not in winds]
    return Pace(base[0] + sum(r.locations for r in rows), base[1] + sum(r.turns for r in rows))


def p_gale_damage(vessel: str) -> Fraction:
    return Fraction(GALE_DAMAGE_IN_6[VESSELS[vessel].deep_water], 6)


def p_storm_sinking(*, rowed: bool) -> Fraction:
    """A storm sinks a rowed vessel 4-in-6; a sailed one drifts (shipwreck 4-in-6 on land)."""
    return Fraction(STORM_SINK_IN_6 if rowed else 0, 6)


def turn_conditions(turn_of_day: int, weather_pace_key: str | None = None,
                    terrain: str | None = None) -> list[str]:
    """The Pace rows the day and the weather impose on a Travel Turn (the Company adds its
    own: road, mounted, slow or quick, maps): night from the fourth Turn, the weather's
    inclement/severe row, and the terrain's row ("rough" or "wild")."""
    keys = []
    if terrain is not None:
        if terrain not in ("rough", "wild"):
            raise ValueError(f"unknown terrain {terrain!r}")
        keys.append(terrain)
    if is_night(turn_of_day):
        keys.append("night")
    if weather_pace_key is not None:
        if weather_pace_key not in ("inclement", "severe"):
            raise ValueError(f"unknown weather row {weather_pace_key!r}")
        keys.append(weather_pace_key)
    return keys


def mount_load(mount_slots: int, riders_filled: tuple[Fraction | int, ...] | list,
               cargo: Fraction | int = 0) -> Fraction:
    """TT §Mounts & Vehicles: each rider counts 20 + their filled slots, plus cargo."""
    if mount_slots < 0 or cargo < 0 or any(f < 0 for f in riders_filled):
        raise ValueError("slots cannot be negative")
    return sum((rider_slots(f) for f in riders_filled), Fraction(cargo))


def mount_overloaded(mount_slots: int, load: Fraction) -> bool:
    """More items than slots: SPD 0 and no Pace bonus (TT §Mounts & Vehicles)."""
    return load > mount_slots


def mounted_pace(all_mounted: bool, any_overloaded: bool) -> bool:
    """Whether the "mounted" +1/x row applies: everyone appropriately mounted or in a
    vehicle for the terrain, and no mount or vehicle overloaded."""
    return all_mounted and not any_overloaded
