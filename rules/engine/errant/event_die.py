"""The Event Die: a d6 with positive and negative dice, its exact distribution, and what
each result means per Turn type (PR §Event Die; TT; XT; next-games.md E39-E40).

Positive dice keep the highest, negative the lowest; they cancel one for one, and net +-n
rolls n + 1 dice (AMB-E6). Rolls of 5 count as 1 when no watch is kept or the campsite is
Open (TT §Take watch, §Unsuitable Campsites; AMB-E6: applied to the kept result).
Initiative Turns have no Event Die (AMB-E140). The tables live in data.turns_tables.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product

from .data.turns_tables import DOWNTIME, EVENT_RESULTS, EXPLORATION, TRAVEL, EventResult

FACES = 6
ENCUMBRANCE_LIMIT = 4  # PR §Event Die – Travel/Exploration: "Encumbrance greater than 4"
TURN_TYPES = (TRAVEL, EXPLORATION, DOWNTIME)


@dataclass(frozen=True)
class DiceSource:
    label: str
    positive: int = 0
    negative: int = 0


@dataclass(frozen=True)
class EventDice:
    """The dice for one roll, with where each came from."""

    sources: tuple[DiceSource, ...] = ()

    @property
    def positive(self) -> int:
        return sum(s.positive for s in self.sources)

    @property
    def negative(self) -> int:
        return sum(s.negative for s in self.sources)

    @property
    def net(self) -> int:
        return self.positive - self.negative

    @property
    def count(self) -> int:
        """AMB-E6: the Event Die plus the dice left after cancelling."""
        return 1 + abs(self.net)

    @property
    def keep(self) -> str:
        return "highest" if self.net > 0 else "lowest" if self.net < 0 else "single"


def event_dice(turn_type: str, *, encumbrances: tuple[int, ...] = (), pace: str = "normal",
               rested_last_turn: bool = False, breaking_door: bool = False,
               extra_positive: int = 0, extra_negative: int = 0) -> EventDice:
    """The sources the text lists for a Turn of this type.

    - Travel/Exploration: +1 negative die per member with Encumbrance > 4.
    - Moving slowly +1 positive, quickly +1 negative (TT, XT §Pace tables).
    - A Rest result last Turn: +1 negative die (PR: "incurring an additional Event Die on the
      next Turn"; AMB-E141: the Rest result is "+1 negative Event Die").
    - Exploration: breaking down a door, +1 negative (XT §Doors).
    - extra_*: the Guide's situational dice, labelled as such.
    Downtime lists none of these, so only the Guide's extra dice apply there.
    """
    if turn_type not in TURN_TYPES:
        raise ValueError(f"{turn_type!r} Turns have no Event Die (AMB-E140)")
    if pace not in ("slow", "normal", "quick"):
        raise ValueError(f"unknown pace {pace!r}")
    if extra_positive < 0 or extra_negative < 0:
        raise ValueError("extra dice cannot be negative")
    sources: list[DiceSource] = []
    if turn_type in (TRAVEL, EXPLORATION):
        heavy = sum(1 for e in encumbrances if e > ENCUMBRANCE_LIMIT)
        if heavy:
            sources.append(DiceSource(f"{heavy} member(s) with Encumbrance over 4",
                                      negative=heavy))
        if pace == "slow":
            sources.append(DiceSource("moving slowly", positive=1))
        elif pace == "quick":
            sources.append(DiceSource("moving quickly", negative=1))
        if rested_last_turn:
            sources.append(DiceSource("Rest result last Turn", negative=1))
    if breaking_door:
        if turn_type != EXPLORATION:
            raise ValueError("breaking down a door is an Exploration Turn action")
        sources.append(DiceSource("breaking down a door", negative=1))
    if extra_positive:
        sources.append(DiceSource("the Guide's positive dice", positive=extra_positive))
    if extra_negative:
        sources.append(DiceSource("the Guide's negative dice", negative=extra_negative))
    return EventDice(tuple(sources))


def keep(faces: tuple[int, ...] | list[int], net: int) -> int:
    """The kept face of a roll of 1 + |net| dice."""
    if len(faces) != 1 + abs(net) or any(not 1 <= f <= FACES for f in faces):
        raise ValueError(f"{faces} is not a roll of {1 + abs(net)} d6")
    if net > 0:
        return max(faces)
    if net < 0:
        return min(faces)
    return faces[0]


def distribution(positive: int = 0, negative: int = 0) -> dict[int, Fraction]:
    """The exact chance of each kept face: keep highest of k has P(<= f) = (f/6)^k; keep
    lowest of k has P(>= f) = ((7 - f)/6)^k (E39: net -2 -> P(1) = 91/216)."""
    if positive < 0 or negative < 0:
        raise ValueError("dice counts cannot be negative")
    net = positive - negative
    k = 1 + abs(net)
    out: dict[int, Fraction] = {}
    for f in range(1, FACES + 1):
        if net >= 0:
            out[f] = Fraction(f**k - (f - 1) ** k, FACES**k)
        else:
            out[f] = Fraction((FACES + 1 - f) ** k - (FACES - f) ** k, FACES**k)
    return out


def enumerate_distribution(positive: int = 0, negative: int = 0) -> dict[int, Fraction]:
    """The same distribution by listing every roll of the 1 + |net| dice left after
    cancelling and keeping a face with `keep`. Used by the tests to check `distribution`;
    feasible for a few dice only."""
    net = positive - negative
    k = 1 + abs(net)
    counts = dict.fromkeys(range(1, FACES + 1), 0)
    for roll in product(range(1, FACES + 1), repeat=k):
        counts[keep(roll, net)] += 1
    return {f: Fraction(c, FACES**k) for f, c in counts.items()}


def read_face(face: int, *, fives_are_ones: bool = False) -> int:
    """AMB-E6: the swap applies to the kept result (no watch; an Open campsite)."""
    if not 1 <= face <= FACES:
        raise ValueError(f"{face} is not a face of a d6")
    return 1 if fives_are_ones and face == 5 else face


@dataclass(frozen=True)
class EventEffects:
    """What the app can apply for a result; everything else is named for the Guide."""

    result: EventResult
    encounter: bool = False
    rest_or_exhaustion: bool = False  # the Company chooses: Rest (+1 negative next) or +1 Ex
    deplete_rations: bool = False  # per member; no ration -> Supply -1; neither -> starving
    burn_lights: bool = False  # each lit light Burn -1; no lit light -> Supply -1 per member
    deplete_magic: bool = False  # active Sorceries and Miracles Depletion -1
    ongoing_effects_end: bool = False
    weather_resets: bool = False  # TT §Weather: a Deplete (3) returns it to normal
    weather_may_change: bool = False  # TT §Weather: a local effect (4) may change it
    for_the_guide: tuple[str, ...] = field(default_factory=tuple)


def effects(turn_type: str, face: int, *, fives_are_ones: bool = False) -> EventEffects:
    """The meaning of a kept face for a Turn type, as flags the app can apply."""
    if turn_type not in TURN_TYPES:
        raise ValueError(f"{turn_type!r} Turns have no Event Die (AMB-E140)")
    if fives_are_ones and turn_type != TRAVEL:
        raise ValueError("only Travel Turns count 5s as 1s (no watch, Open campsite)")
    face = read_face(face, fives_are_ones=fives_are_ones)
    result = EVENT_RESULTS[turn_type][face]
    key = result.key
    guide = (result.summary,)
    if key == "encounter":
        return EventEffects(result, encounter=True, for_the_guide=guide)
    if key == "rest":
        return EventEffects(result, rest_or_exhaustion=True, for_the_guide=guide)
    if key == "deplete":
        return EventEffects(result, deplete_rations=True, ongoing_effects_end=True,
                            weather_resets=True, for_the_guide=guide)
    if key == "burn":
        return EventEffects(result, burn_lights=True, deplete_magic=True,
                            ongoing_effects_end=True, for_the_guide=guide)
    if key == "expiration":
        return EventEffects(result, ongoing_effects_end=True, for_the_guide=guide)
    if key == "local_effect" and turn_type == TRAVEL:
        return EventEffects(result, weather_may_change=True, for_the_guide=guide)
    return EventEffects(result, for_the_guide=guide)


def result_distribution(turn_type: str, dice: EventDice, *,
                        fives_are_ones: bool = False) -> dict[str, Fraction]:
    """The exact chance of each result key for this Turn (E39-E40)."""
    out: dict[str, Fraction] = {}
    for face, p in distribution(dice.positive, dice.negative).items():
        key = effects(turn_type, face, fives_are_ones=fives_are_ones).result.key
        out[key] = out.get(key, Fraction(0)) + p
    return out
