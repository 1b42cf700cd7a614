"""Weather carried from Travel Turn to Travel Turn (TT §Weather; next-games.md E43).

A state is (season, band); its cell's "+2/-2 to next weather roll" modifies only the next
2D6 roll. A new roll happens when the Guide takes a local effect (4) as a weather change; a
Deplete (3) returns the weather to normal, the middle band (6-8); a new day returns it to
normal unless the Guide lets it persist (AMB-E146). The columns are the seasons (AMB-E13).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .data.turns_tables import NORMAL_BAND, SEASONS, WEATHER_BANDS, WEATHER_TABLE, WeatherCell

ROLL_MIN, ROLL_MAX = 2, 12


@dataclass(frozen=True)
class Weather:
    season: str
    band: int = NORMAL_BAND  # index into WEATHER_BANDS

    def __post_init__(self) -> None:
        if self.season not in SEASONS:
            raise ValueError(f"unknown season {self.season!r}")
        if not 0 <= self.band < len(WEATHER_BANDS):
            raise ValueError("no such weather band")

    @property
    def cell(self) -> WeatherCell:
        return WEATHER_TABLE[self.season][self.band]

    @property
    def severity(self) -> str:
        return self.cell.severity

    @property
    def next_roll_modifier(self) -> int:
        return self.cell.next_roll

    @property
    def pace_key(self) -> str | None:
        """The travel Pace row this weather adds ("inclement"/"severe"), if any."""
        return self.severity if self.severity != "fair" else None

    @property
    def sleep_turns(self) -> int:
        return self.cell.sleep_turns


def start(season: str) -> Weather:
    """TT §Weather: "Weather conditions begin in the middle range (6-8) for each season"."""
    return Weather(season)


def band_of(total: int) -> int:
    """The band of a modified 2D6 total; totals past the table read as its ends (AMB-E147)."""
    total = max(ROLL_MIN, min(ROLL_MAX, total))
    for i, (lo, hi) in enumerate(WEATHER_BANDS):
        if lo <= total <= hi:
            return i
    raise AssertionError("bands cover 2-12")


def roll(state: Weather, dice_total: int) -> Weather:
    """A weather roll: 2D6 (2-12) plus the current weather's carry-over."""
    if not ROLL_MIN <= dice_total <= ROLL_MAX:
        raise ValueError(f"{dice_total} is not a 2D6 total")
    return Weather(state.season, band_of(dice_total + state.next_roll_modifier))


def reset(state: Weather) -> Weather:
    """A Deplete (3) on a Travel Event Die, or a new day: back to normal."""
    return Weather(state.season)


def on_event(state: Weather, face: int, dice_total: int | None = None) -> Weather:
    """Apply a Travel Turn's kept Event Die face: 3 resets; 4 rolls again only when the
    Guide chooses the weather as the local effect (dice_total given); others keep it."""
    if not 1 <= face <= 6:
        raise ValueError(f"{face} is not a face of a d6")
    if face == 3:
        return reset(state)
    if face == 4 and dice_total is not None:
        return roll(state, dice_total)
    return state


def new_day(state: Weather, *, persists: bool = False) -> Weather:
    return state if persists else reset(state)


def two_d6() -> dict[int, Fraction]:
    return {t: Fraction(6 - abs(t - 7), 36) for t in range(ROLL_MIN, ROLL_MAX + 1)}


def next_distribution(state: Weather) -> dict[Weather, Fraction]:
    """The exact chance of each next state from a weather roll."""
    out: dict[Weather, Fraction] = {}
    for total, p in two_d6().items():
        nxt = roll(state, total)
        out[nxt] = out.get(nxt, Fraction(0)) + p
    return out
