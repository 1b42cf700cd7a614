"""Errant's Turn-procedure tables as data (CC BY-SA 4.0, see ATTRIBUTION.md beside this file).

Source: the web Errant SRD: PR = 3-core-procedures.md (§Event Die, §Event Die – Travel
Turns, – Exploration Turns, – Downtime Turns), TT = 8-travel-turns.md (§Travel Turn
Actions, §Navigation & Getting Lost, §Pace, §Weather), XT = 9-exploration-turns.md (§Pace,
§Lockpicking). Short labels are the SRD's; columns the SRD lost are inferred (AMB-E13).
The engine modules event_die, travel, weather and exploration read these tables.
"""

from __future__ import annotations

from dataclasses import dataclass

TRAVEL, EXPLORATION, DOWNTIME = "travel", "exploration", "downtime"


@dataclass(frozen=True)
class EventResult:
    """One face of the Event Die for one Turn type (PR §Event Die – <type> Turns)."""

    face: int
    key: str
    name: str
    summary: str


# PR §Event Die – Travel Turns
_TRAVEL = (
    EventResult(1, "encounter", "Encounter", "the Company encounters an NPC(s)."),
    EventResult(2, "rest", "Rest", "Rest (+1 negative Event Die) or gain 1 Exhaustion."),
    EventResult(3, "deplete", "Deplete",
                "Deplete all rations or lower all Supply by 1; ongoing effects or "
                "conditions end."),
    EventResult(4, "local_effect", "Local effect",
                "an effect particular to the region; perhaps the weather changes."),
    EventResult(5, "encounter_sign", "Encounter sign",
                "a clue as to what the next encounter might be."),
    EventResult(6, "free", "Free", "nothing happens!"),
)
# PR §Event Die – Exploration Turns
_EXPLORATION = (
    EventResult(1, "encounter", "Encounter", "the Company encounters an NPC(s)."),
    EventResult(2, "rest", "Rest", "Rest (+1 negative Event Die) or gain 1 Exhaustion."),
    EventResult(3, "burn", "Burn",
                "Burn all light sources or lower all Supply by 1. Deplete active Sorceries "
                "and Miracles by 1; ongoing effects or conditions end."),
    EventResult(4, "local_effect", "Local effect",
                "an effect particular to the area the Company is in."),
    EventResult(5, "encounter_sign", "Encounter sign",
                "a clue as to what the next encounter might be."),
    EventResult(6, "free", "Free", "nothing happens!"),
)
# PR §Event Die – Downtime Turns
_DOWNTIME = (
    EventResult(1, "encounter", "Encounter", "the Company encounters an NPC(s)."),
    EventResult(2, "complication", "Complication",
                "a negative issue affects the region; roll on the Downtime Complications "
                "table."),
    EventResult(3, "expiration", "Expiration",
                "any ongoing complications end; other temporary situations, arrangements, "
                "or benefits end."),
    EventResult(4, "trend", "Trend",
                "a positive or novel issue affects the region; roll on the Downtime Trends "
                "table."),
    EventResult(5, "intimation", "Intimation", "the Company receives some clue."),
    EventResult(6, "free", "Free", "nothing happens!"),
)
EVENT_RESULTS = {
    TRAVEL: {r.face: r for r in _TRAVEL},
    EXPLORATION: {r.face: r for r in _EXPLORATION},
    DOWNTIME: {r.face: r for r in _DOWNTIME},
}


@dataclass(frozen=True)
class PaceModifier:
    """A row of a Pace table: +locations/x and x/+Turns, navigation DV, Event Dice."""

    key: str
    name: str
    locations: int = 0  # "+n/x"
    turns: int = 0  # "x/+n"
    navigation_dv: int = 0
    positive_dice: int = 0
    negative_dice: int = 0
    cannot_get_lost: bool = False
    detects: bool = False  # "Automatically detect any points of interests or hazards"
    overlooks: bool = False
    no_mapping: bool = False
    exhaustion_unless_camping: bool = False


# TT §Pace (the Pace table)
TRAVEL_PACE = {
    m.key: m
    for m in (
        PaceModifier("mounted", "Appropriate mount/vehicle", locations=1),
        PaceModifier("road", "Road", locations=1, cannot_get_lost=True),
        PaceModifier("slow", "Moving slowly", turns=1, positive_dice=1, detects=True),
        PaceModifier("quick", "Moving quickly", locations=1, negative_dice=1, overlooks=True),
        PaceModifier("rough", "Deserts, forests, hills, broken land", turns=1,
                     navigation_dv=2),
        PaceModifier("wild", "Jungle, mountain, swamps", turns=2, navigation_dv=4),
        PaceModifier("night", "Night-time/Darkness", turns=1, navigation_dv=4),
        PaceModifier("inclement", "Inclement weather", turns=1, navigation_dv=2),
        PaceModifier("severe", "Severe weather", turns=2, navigation_dv=4,
                     exhaustion_unless_camping=True),
        PaceModifier("detailed_map", "Detailed map", navigation_dv=-4),
        PaceModifier("general_map", "General map or specific directions", navigation_dv=-2),
    )
}
# TT §Pace: "Vague, confusing, misleading map or directions: Navigation DV +2 to +4"
MISLEADING_MAP_DV = (2, 4)
# TT §Travel Turn Actions, Orient: "the DV of the next navigation Check is reduced by 4"
ORIENT_DV = -4
# TT §Marine Travel: "A navigator on the crew reduces the DV of navigation Checks by 4"
NAVIGATOR_DV = -4

# XT §Pace (the Pace table)
EXPLORATION_PACE = {
    m.key: m
    for m in (
        PaceModifier("slow", "Moving slowly", turns=1, positive_dice=1, detects=True),
        PaceModifier("quick", "Moving quickly", locations=2, negative_dice=1, overlooks=True,
                     no_mapping=True),
        PaceModifier("large", "Large areas", turns=1),
        PaceModifier("huge", "Huge areas", turns=2),
        PaceModifier("explored", "Explored areas", locations=3),
    )
}


@dataclass(frozen=True)
class TravelAction:
    key: str
    name: str
    summary: str
    navigation_check: str  # "" none, "pathfinder", "each Errant"


# TT §Travel Turn Actions
TRAVEL_ACTIONS = {
    a.key: a
    for a in (
        TravelAction("peregrinate", "Peregrinate",
                     "the Company moves from one location on the map to another.",
                     "pathfinder"),
        TravelAction("explore", "Explore",
                     "the Company reconnoiters the location they are in; a check only when "
                     "searching for a specific location not visited before.", "pathfinder"),
        TravelAction("orient", "Orient",
                     "the DV of the next navigation Check is reduced by 4.", ""),
        TravelAction("forage", "Forage",
                     "each Errant may make a navigation Check; on a success they gain 2 "
                     "Supply.", "each Errant"),
        TravelAction("make_camp", "Make camp",
                     "the pathfinder makes a navigation Check to find a suitable campsite; "
                     "Errants may take watch or sleep.", "pathfinder"),
        TravelAction("take_watch", "Take watch",
                     "keep lookout while others sleep: one watcher for a whole Turn gains 1 "
                     "Exhaustion, two none; with no watch, Event Die 5s count as 1s.", ""),
        TravelAction("sleep", "Sleep",
                     "two full Travel Turns sleeping give the effects of a full night's "
                     "Rest.", ""),
    )
}
FORAGE_SUPPLY = 2  # TT §Travel Turn Actions, Forage

# TT §Navigation & Getting Lost: "1 means they move north, 2 ... north-east, 3 ...
# south-east, and so on (corresponding to the faces of a hex)".
HEX_DIRECTIONS = {1: "N", 2: "NE", 3: "SE", 4: "S", 5: "SW", 6: "NW"}

# TT §Weather. The columns lost their headers; read as the seasons (AMB-E13). Each cell:
# (severity, label, modifier to the next weather roll, Travel Turns of sleep for a Rest).
SEASONS = ("spring", "summer", "autumn", "winter")
WEATHER_BANDS = ((2, 2), (3, 5), (6, 8), (9, 11), (12, 12))
NORMAL_BAND = 2  # index of 6-8: "Weather conditions begin in the middle range (6-8)"


@dataclass(frozen=True)
class WeatherCell:
    severity: str  # "fair", "inclement", "severe"
    label: str
    next_roll: int = 0
    sleep_turns: int = 2


_C, _I, _S = "fair", "inclement", "severe"
WEATHER_TABLE = {
    "spring": (
        WeatherCell(_I, "Inclement weather (e.g. downpour)"),
        WeatherCell(_C, "Cosmetic change (e.g. drizzle)"),
        WeatherCell(_C, "Cloudy"),
        WeatherCell(_C, "Clear skies", next_roll=2),
        WeatherCell(_C, "Beautiful day", sleep_turns=1),
    ),
    "summer": (
        WeatherCell(_S, "Severe weather (e.g. thunderstorm)"),
        WeatherCell(_I, "Inclement weather (e.g. heat wave)"),
        WeatherCell(_C, "Sunny"),
        WeatherCell(_C, "Clear skies", next_roll=2),
        WeatherCell(_C, "Beautiful day", sleep_turns=1),
    ),
    "autumn": (
        WeatherCell(_S, "Severe weather (e.g. hurricane)"),
        WeatherCell(_I, "Inclement weather (e.g. fog)"),
        WeatherCell(_C, "Overcast", next_roll=-2),
        WeatherCell(_C, "Cloudy"),
        WeatherCell(_C, "Clear skies", next_roll=2),
    ),
    "winter": (
        WeatherCell(_S, "Severe weather (e.g. blizzard)"),
        WeatherCell(_S, "Severe weather (e.g. hail storm)"),
        WeatherCell(_I, "Inclement weather (e.g. sleet)"),
        WeatherCell(_C, "Overcast", next_roll=-2),
        WeatherCell(_C, "Clear skies", next_roll=2),
    ),
}

# XT §Lockpicking: "To generate a lock, roll a D12 for each column." Columns inferred:
# material, sequence, modifier.
TWIST, TAP, TURN = "twist", "tap", "turn"
LOCK_ACTIONS = (TWIST, TAP, TURN)
LOCK_MATERIALS = {
    1: "Strange", 2: "Adamantine", 3: "Mythril", 4: "Diamond", 5: "Dwarven", 6: "Elvish",
    7: "Steel", 8: "Iron", 9: "Brass", 10: "Copper", 11: "Tin", 12: "Crude",
}
LOCK_SEQUENCES = {
    1: (TWIST, TAP, TWIST), 2: (TWIST, TAP, TURN), 3: (TWIST, TURN, TWIST),
    4: (TWIST, TURN, TAP), 5: (TAP, TWIST, TAP), 6: (TAP, TWIST, TURN),
    7: (TAP, TURN, TWIST), 8: (TAP, TURN, TAP), 9: (TURN, TWIST, TAP),
    10: (TURN, TWIST, TURN), 11: (TURN, TAP, TWIST), 12: (TURN, TAP, TURN),
}
CRACKED, WEATHERED, SECURED, SPIKED, NORMAL = (
    "cracked", "weathered", "secured", "spiked", "normal")
LOCK_MODIFIERS = {
    1: SPIKED, 2: SPIKED, 3: SECURED, 4: SECURED, 5: WEATHERED, 6: WEATHERED,
    7: CRACKED, 8: CRACKED, 9: NORMAL, 10: NORMAL, 11: NORMAL, 12: NORMAL,
}

# TT §Marine Travel: the wind and water rows of the marine Pace table ("Becalmed: no
# sailing possible"; gales and storms carry the water-damage and sinking chances).
MARINE_PACE = {
    m.key: m
    for m in (
        PaceModifier("upriver", "Upriver", turns=1),
        PaceModifier("downriver", "Downriver", locations=1),
        PaceModifier("becalmed", "Becalmed"),
        PaceModifier("weak", "Weak winds", turns=1),
        PaceModifier("normal", "Normal winds"),
        PaceModifier("fair", "Fair winds", locations=1),
        PaceModifier("strong", "Strong winds", locations=2),
        PaceModifier("gales", "Inclement weather (gales)", locations=2),
        PaceModifier("storms", "Severe weather (storms)", locations=3),
        PaceModifier("water_damaged", "Water damaged", turns=1),
    )
}
# TT §Marine Travel: "At the start of each day, roll to see wind conditions" (2D6 bands).
WIND_BANDS = ((2, 2, "becalmed"), (3, 5, "weak"), (6, 8, "normal"), (9, 11, "fair"),
              (12, 12, "strong"))


@dataclass(frozen=True)
class Vessel:
    key: str
    name: str
    oarsmen: int | None  # None: cannot be rowed ("-")
    sailors: int | None  # None: cannot be sailed
    rowing: tuple[int, int] | None  # Pace locations/Turns
    sailing: tuple[int, int] | None
    waters: str
    passengers: int
    deep_water: bool  # for the gale chances; a longship counts as shallow


# TT §Marine Travel (vessel table and the passenger list)
VESSELS = {
    v.key: v
    for v in (
        Vessel("canoe", "Canoe", 1, None, (1, 1), None, "Shallow water.", 2, False),
        Vessel("galley", "Galley", 60, 20, (2, 1), (3, 1), "Shallow water.", 240, False),
        Vessel("longship", "Longship", 0, 0, (1, 1), (4, 1), "Shallow water, deep water.",
               0, False),
        Vessel("raft", "Raft", 1, None, (1, 2), None, "Shallow water.", 10, False),
        Vessel("riverboat", "Riverboat", 10, 1, (2, 1), (3, 1), "Shallow water.", 25, False),
        Vessel("sailing_ship", "Sailing ship", None, 20, None, (4, 1), "Deep water.", 100,
               True),
        Vessel("warship", "Warship", None, 40, None, (3, 1), "Deep water.", 360, True),
    )
}
# TT §Marine Travel: gales water-damage shallow vessels 2-in-6, deep 1-in-6; a storm sinks a
# rowed vessel 4-in-6; a sailed vessel driven into land is wrecked 4-in-6.
GALE_DAMAGE_IN_6 = {False: 2, True: 1}
STORM_SINK_IN_6 = 4
SHIPWRECK_IN_6 = 4


@dataclass(frozen=True)
class Mount:
    """TT §Mounts & Vehicles, the mount table. Headers lost; inferred (AMB-E30): Item
    Slots, SPD, appropriate terrain, notes."""

    key: str
    name: str
    slots: int
    spd: int
    terrain: str
    note: str = ""


MOUNTS = {
    m.key: m
    for m in (
        Mount("cattle", "Cattle", 100, 4, "None",
              "Can only be used for carrying packs or pulling vehicles."),
        Mount("horse_draft", "Horse, draft", 100, 8, "Flat lands, forests, roads.",
              "No SPD reduction when pulling vehicles."),
        Mount("horse_riding", "Horse, riding", 80, 12, "Flat lands, forests, roads."),
        Mount("horse_war", "Horse, war", 60, 16, "Flat lands, forests, roads."),
        Mount("mule", "Mule", 80, 1, "Flat lands, forests, roads."),
    )
}
MOUNT_HEADERS_INFERRED = True  # AMB-E30: show a warning beside these numbers
