"""Encounter rules (seed 004): what a combatant's numbers give, before any round.

The character of this system is the handful of numbers a combatant needs (combatants.py);
this is the derived view the builder's preview, the page, the print and the export show:
the skill each Initiative mode rolls and the roll the campaign's formula makes of it
(H2, AMB-H1), the pace on foot with the campaign's encumbrance formula and the farthest
run in one round (H8, H10, AMB-H9), what a Stamina hit of Pushing Power gives (H19), and,
when the campaign uses it, the charge momentum of that farthest run (H12). Every number
comes with a sentence of our own showing its arithmetic. Pure Python: no Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .calculators import charge_momentum, encumbered_pace, yards_text
from .combatants import (
    CONCENTRATE,
    INITIATIVE_SKILL,
    MANEUVER,
    MAX_SCORE,
    SKILL_TOKEN,
    TRACKS,
    Combatant,
    Settings,
    combatant,
)
from .declaring import HASTE_BONUS, MAX_MOVES, skill_penalty

# The numbers a build holds, with their bounds (those the engine's `combatant` checks).
SKILLS = ("quickness", "command", "strength", "willpower")
MAXIMA = tuple(f"{track}_max" for track in TRACKS)
NUMBERS = (*SKILLS, *MAXIMA, "load")
BOUNDS = {**dict.fromkeys(SKILLS, (-MAX_SCORE, MAX_SCORE)),
          **dict.fromkeys(MAXIMA, (1, MAX_SCORE)), "load": (0, 100)}
LABELS = {"quickness": "Quickness", "command": "Command", "strength": "Strength",
          "willpower": "Willpower", "stamina_max": "Stamina", "health_max": "Health",
          "sanity_max": "Sanity", "load": "Load (percent of maximum lift)"}


@dataclass(frozen=True)
class Stat:
    name: str  # the data-stat name
    label: str
    value: int | str
    how: str  # our sentence with the arithmetic


@dataclass(frozen=True)
class EncounterSheet:
    combatant: Combatant
    settings: Settings
    stats: tuple[Stat, ...]

    def __getitem__(self, name: str) -> Stat:
        for stat in self.stats:
            if stat.name == name:
                return stat
        raise KeyError(name)

    def __contains__(self, name: str) -> bool:
        return any(stat.name == name for stat in self.stats)

    def derived(self) -> dict:
        """Every number keyed by its data-stat name (the export's `derived`)."""
        return {stat.name: stat.value for stat in self.stats}


def compute_sheet(numbers: Mapping, settings: Settings | None = None) -> EncounterSheet:
    """The derived view of a build's numbers (EncounterError if one is out of bounds)."""
    settings = settings or Settings()
    who = combatant("sheet", "combatant", "party",
                    **{key: numbers.get(key, 0 if key in SKILLS or key == "load" else 1)
                       for key in NUMBERS})
    stats: list[Stat] = []
    for mode in (MANEUVER, CONCENTRATE):
        skill = who.skill_for(mode)
        rolled = roll_text(settings.skill_roll, skill)
        stats.append(Stat(
            f"initiative_{mode}", f"Initiative when you {mode}", rolled,
            f"{'a physical' if mode == MANEUVER else 'a mental'} round rolls "
            f"{INITIATIVE_SKILL[mode]} {skill} with the campaign's skill roll "
            f"{settings.skill_roll}: {rolled}"))
    second = skill_penalty(2)  # AMB-H2: two counted actions
    stats.append(Stat("second_action", "A second action", second,
                      f"every skill this round {second} for one action past the first "
                      f"(and {HASTE_BONUS:+d} Initiative per haste)"))
    pace = encumbered_pace(who.load, settings.pace_formula)
    stats.append(Stat("pace", "Pace on foot (yd per movement action)", yards_text(pace.value),
                      pace.text))
    run = pace.value * MAX_MOVES
    stats.append(Stat("run_max", "Farthest run in a round (yd)", yards_text(run),
                      f"{MAX_MOVES} movement actions x {yards_text(pace.value)} yd = "
                      f"{yards_text(run)} yd"))
    if settings.charge_momentum:
        momentum = charge_momentum(run, enabled=True)
        stats.append(Stat("charge_max", "Charge momentum of that run", momentum.value,
                          momentum.text))
    stats.append(Stat("push_strength", "Strength with one Stamina hit pushed",
                      who.strength + 1,
                      f"Pushing Power: Strength {who.strength} + 1 = {who.strength + 1} and "
                      f"Willpower {who.willpower} + 1 = {who.willpower + 1} for one round"))
    most = who.stamina_max - 1
    stats.append(Stat("push_most", "Stamina hits to push before collapsing", most,
                      f"Stamina {who.stamina_max} - 1 = {most} (spending the last one, "
                      "it collapses): Strength up to "
                      f"{who.strength} + {most} = {who.strength + most}"))
    for track in TRACKS:
        top = getattr(who, f"{track}_max")
        stats.append(Stat(f"{track}_max", f"{track.capitalize()} (maximum)", top,
                          f"{track.capitalize()} {top}, entered by the player"))
    return EncounterSheet(who, settings, tuple(stats))


def roll_text(formula: str, skill: int) -> str:
    """The campaign's skill roll with the skill's number in it: "2d6+skill" and 3 give
    "2d6+3", and -2 gives "2d6-2"."""
    at = formula.lower().find(SKILL_TOKEN)
    if at < 0:
        return formula
    before, after = formula[:at], formula[at + len(SKILL_TOKEN):]
    sign = before.rstrip()[-1:] if before.rstrip() else ""
    if skill < 0 and sign in "+-" and sign:
        before = before.rstrip()[:-1] + ("-" if sign == "+" else "+")
        return f"{before}{-skill}{after}"
    return f"{before}{skill}{after}"
