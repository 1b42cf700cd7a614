"""The d66 seed tables of character creation, for the random helpers.

METTLE Core SRD, Characters > Step 2 (APPEARANCE SEEDS), Step 3 (DESCRIPTOR SEEDS) and
Step 4 (BACKGROUND SEEDS); CC BY 4.0 (data.ATTRIBUTION). "To use a d66 table, roll one
six-sided die and then another. For example, if you roll a 6 and a 2, go to ... the row
for \"6, 2.\"" Generated from the SRD text: each table is keyed by (first die, second die).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from .attributes import ARRAY, Attributes
from .data import ATTRIBUTE_KEYS, ATTRIBUTE_NAMES, CONCEPT, FRAME, MOTIVE, NATURE, POISE

APPEARANCE_SEEDS = {
    (1, 1): "Bestial (leonine, mousy, bird-like...)",
    (1, 2): "Birthmark (animal-shaped, patchy...)",
    (1, 3): "Cheeks (sunken, ruddy, puffed...)",
    (1, 4): "Chin (cleft, pointy, broad...)",
    (1, 5): "Complexion (freckles, acne, smooth, ruddy ...)",
    (1, 6): "Ears (pointed, cauliflower, huge...)",
    (2, 1): "Eye color (vivid blue, dichromatic, tiger...)",
    (2, 2): "Eye shape (close-set, piercing, wide...)",
    (2, 3): "Eyebrows (patchy, fierce, bushy, none...)",
    (2, 4): "Face (wide, narrow, oval, heart-shaped...)",
    (2, 5): "Facial hair (mustache, goatee, lip fuzz...)",
    (2, 6): "Filthy (bad breath, unwashed, greasy...)",
    (3, 1): "Forehead (sweaty, broad, furrowed...)",
    (3, 2): "Gaudy (polka dots, pastels, paisley....)",
    (3, 3): "Growth (horn, hump, tumor...)",
    (3, 4): "Habit (superstition, nervous tic...)",
    (3, 5): "Hair color (blue, white, red...)",
    (3, 6): "Hair style (pompadour, bald, frizzy...)",
    (4, 1): "Hands (extra finger, webbed, huge...)",
    (4, 2): "Laugh (snorts, honks, comforting...)",
    (4, 3): "Makeup (luxurious, clownish, fierce...)",
    (4, 4): "Mole (beauty mark, distracting...)",
    (4, 5): "Motto (exclamation, meme, curse...)",
    (4, 6): "Mouth (wide, full, luscious, pursed...)",
    (5, 1): "Neck (long, crooked, stubby...)",
    (5, 2): "Noise (creaky, silent, belching...)",
    (5, 3): "Nose (aquiline, flat, long, red...)",
    (5, 4): "Odor (floral, body, ozone, garbage...)",
    (5, 5): "Piercing (eyebrow, nose, tongue...)",
    (5, 6): "Scar (facial burns, old wounds...)",
    (6, 1): "Style (Sporty, punk, business, Boho...)",
    (6, 2): "Tattoo (artistic, tribal, prison...)",
    (6, 3): "Teeth (missing, gap, filed to a point...)",
    (6, 4): "Trinket (lucky hat, jewelry, stuffed animal...)",
    (6, 5): "Unkempt (poorly fit clothes, messy hair...)",
    (6, 6): "Voice (gruff, flat, high-pitched...)",
}

# Columns in the SRD order: CONCEPT, MOTIVE, NATURE, POISE, FRAME.
DESCRIPTOR_SEEDS = {
    CONCEPT: {
        (1, 1): "Acrobat",
        (1, 2): "Artist",
        (1, 3): "Assassin",
        (1, 4): "Athlete",
        (1, 5): "Boxer",
        (1, 6): "Burglar",
        (2, 1): "Butler",
        (2, 2): "Celebrity",
        (2, 3): "Clown",
        (2, 4): "Cowboy",
        (2, 5): "Criminal",
        (2, 6): "Detective",
        (3, 1): "Dilettante",
        (3, 2): "Doctor",
        (3, 3): "Drifter",
        (3, 4): "Driver",
        (3, 5): "Engineer",
        (3, 6): "Explorer",
        (4, 1): "Fencer",
        (4, 2): "Gambler",
        (4, 3): "Hacker",
        (4, 4): "Laborer",
        (4, 5): "Martial artist",
        (4, 6): "Mercenary",
        (5, 1): "Occultist",
        (5, 2): "Pilot",
        (5, 3): "Royalty",
        (5, 4): "Sailor",
        (5, 5): "Scholar",
        (5, 6): "Scientist",
        (6, 1): "Socialite",
        (6, 2): "Soldier",
        (6, 3): "Spy",
        (6, 4): "Student",
        (6, 5): "Vagrant",
        (6, 6): "Vigilante",
    },
    MOTIVE: {
        (1, 1): "Achieve",
        (1, 2): "Afflict",
        (1, 3): "Atone",
        (1, 4): "Avenge",
        (1, 5): "Conceal",
        (1, 6): "Conquer",
        (2, 1): "Control",
        (2, 2): "Create",
        (2, 3): "Desire",
        (2, 4): "Destroy",
        (2, 5): "Devote",
        (2, 6): "Endure",
        (3, 1): "Enforce",
        (3, 2): "Enjoy",
        (3, 3): "Enrich",
        (3, 4): "Escape",
        (3, 5): "Explore",
        (3, 6): "Honor",
        (4, 1): "Imitate",
        (4, 2): "Impress",
        (4, 3): "Learn",
        (4, 4): "Obtain",
        (4, 5): "Outwit",
        (4, 6): "Praise",
        (5, 1): "Promise",
        (5, 2): "Protect",
        (5, 3): "Pursue",
        (5, 4): "Recruit",
        (5, 5): "Redeem",
        (5, 6): "Rescue",
        (6, 1): "Reveal",
        (6, 2): "Revive",
        (6, 3): "Serve",
        (6, 4): "Steal",
        (6, 5): "Survive",
        (6, 6): "Uplift",
    },
    NATURE: {
        (1, 1): "Aloof",
        (1, 2): "Blunt",
        (1, 3): "Cheerful",
        (1, 4): "Cryptic",
        (1, 5): "Curious",
        (1, 6): "Daring",
        (2, 1): "Eager",
        (2, 2): "Elegant",
        (2, 3): "Erratic",
        (2, 4): "Fearful",
        (2, 5): "Friendly",
        (2, 6): "Gloomy",
        (3, 1): "Intense",
        (3, 2): "Kindly",
        (3, 3): "Loyal",
        (3, 4): "Mellow",
        (3, 5): "Mirthful",
        (3, 6): "Perky",
        (4, 1): "Polite",
        (4, 2): "Proud",
        (4, 3): "Quaint",
        (4, 4): "Quiet",
        (4, 5): "Reckless",
        (4, 6): "Saucy",
        (5, 1): "Serious",
        (5, 2): "Shifty",
        (5, 3): "Shy",
        (5, 4): "Sincere",
        (5, 5): "Sinister",
        (5, 6): "Stoic",
        (6, 1): "Stubborn",
        (6, 2): "Suave",
        (6, 3): "Uncouth",
        (6, 4): "Uplifting",
        (6, 5): "Weird",
        (6, 6): "Zealous",
    },
    POISE: {
        (1, 1): "Brutish",
        (1, 2): "Casual",
        (1, 3): "Creaky",
        (1, 4): "Drowsy",
        (1, 5): "Feral",
        (1, 6): "Fidgety",
        (2, 1): "Formal",
        (2, 2): "Frantic",
        (2, 3): "Gentle",
        (2, 4): "Graceful",
        (2, 5): "Hasty",
        (2, 6): "Jerky",
        (3, 1): "Jittery",
        (3, 2): "Leaning",
        (3, 3): "Lively",
        (3, 4): "Looming",
        (3, 5): "Loose",
        (3, 6): "Perky",
        (4, 1): "Quivering",
        (4, 2): "Regal",
        (4, 3): "Relaxed",
        (4, 4): "Shaky",
        (4, 5): "Shifting",
        (4, 6): "Shuffling",
        (5, 1): "Slinky",
        (5, 2): "Slouching",
        (5, 3): "Sluggish",
        (5, 4): "Smooth",
        (5, 5): "Steady",
        (5, 6): "Stiff",
        (6, 1): "Stilted",
        (6, 2): "Swaggering",
        (6, 3): "Tense",
        (6, 4): "Tranquil",
        (6, 5): "Waddling",
        (6, 6): "Wiggly",
    },
    FRAME: {
        (1, 1): "Athletic",
        (1, 2): "Burly",
        (1, 3): "Burly",
        (1, 4): "Chunky",
        (1, 5): "Curvy",
        (1, 6): "Gaunt",
        (2, 1): "Giant",
        (2, 2): "Healthy",
        (2, 3): "Husky",
        (2, 4): "Imposing",
        (2, 5): "Lanky",
        (2, 6): "Leggy",
        (3, 1): "Medium",
        (3, 2): "Petite",
        (3, 3): "Plump",
        (3, 4): "Portly",
        (3, 5): "Robust",
        (3, 6): "Rugged",
        (4, 1): "Shapely",
        (4, 2): "Short",
        (4, 3): "Slender",
        (4, 4): "Slight",
        (4, 5): "Squat",
        (4, 6): "Stocky",
        (5, 1): "Stout",
        (5, 2): "Stubby",
        (5, 3): "Stunted",
        (5, 4): "Svelte",
        (5, 5): "Tall",
        (5, 6): "Thick",
        (6, 1): "Thickset",
        (6, 2): "Thin",
        (6, 3): "Trim",
        (6, 4): "Waifish",
        (6, 5): "Wide",
        (6, 6): "Wiry",
    },
}

# "One Backstory must describe your native land and language. You won't find those
# on the chart below."
BACKGROUND_SEEDS = {
    (1, 1): "Allied with a ragtag group of rebels...",
    (1, 2): "Barely survived a disaster...",
    (1, 3): "Betrayed by allies or superior...",
    (1, 4): "Betrayed erstwhile allies or superior...",
    (1, 5): "Curated a notable collection of...",
    (1, 6): "Cut their sporting career short...",
    (2, 1): "Ejected from the military...",
    (2, 2): "Elected to public office...",
    (2, 3): "Embroiled in a protest movement...",
    (2, 4): "Failed to achieve their dream...",
    (2, 5): "Formed a music band...",
    (2, 6): "Fought as a soldier in the war...",
    (3, 1): "Found oneself after years of isolation...",
    (3, 2): "Inducted into a secret society...",
    (3, 3): "Invented amazing gadgets...",
    (3, 4): "Joined an expedition to a faraway land...",
    (3, 5): "Learned a foreign language...",
    (3, 6): "Lived a pampered and wealthy life...",
    (4, 1): "Nearly lost it all to their vices...",
    (4, 2): "Obsessed over trivia...",
    (4, 3): "Ostracized for your heretical ideas...",
    (4, 4): "Performed in a traveling circus...",
    (4, 5): "Ran away from home...",
    (4, 6): "Resigned after a great scandal...",
    (5, 1): "Saved a life and changed your own...",
    (5, 2): "Smuggled contraband for a living...",
    (5, 3): "Spent some time in jail...",
    (5, 4): "Started a business...",
    (5, 5): "Stowed away on a passing ship...",
    (5, 6): "Struggled in a great contest...",
    (6, 1): "Survived on a deserted island...",
    (6, 2): "Taught a valuable skill...",
    (6, 3): "Took care of an ailing relative...",
    (6, 4): "Lost something or someone precious...",
    (6, 5): "Took something up as a hobby.",
    (6, 6): "Whiled away their time with cards...",
}


@dataclass(frozen=True)
class SeedRoll:
    """A d66 roll and the row it lands on, so the page can show the dice."""

    dice: tuple[int, int]
    text: str


def roll_d66(rng: random.Random) -> tuple[int, int]:
    return rng.randint(1, 6), rng.randint(1, 6)


def appearance_seed(rng: random.Random) -> SeedRoll:
    dice = roll_d66(rng)
    return SeedRoll(dice, APPEARANCE_SEEDS[dice])


def descriptor_seed(rng: random.Random, attribute: str) -> SeedRoll:
    dice = roll_d66(rng)
    return SeedRoll(dice, DESCRIPTOR_SEEDS[attribute][dice])


def background_seed(rng: random.Random) -> SeedRoll:
    dice = roll_d66(rng)
    return SeedRoll(dice, BACKGROUND_SEEDS[dice])


def random_array(rng: random.Random, locked: Mapping[str, int] | None = None) -> Attributes:
    """The array 5, 4, 3, 3, 2 placed at random, keeping the locked Attributes where they
    are: always legal, so the locked values must be a part of the array."""
    locked = dict(locked or {})
    left = Counter(ARRAY) - Counter(locked.values())
    if sum(left.values()) != len(ATTRIBUTE_KEYS) - len(locked) or any(
            key not in ATTRIBUTE_KEYS for key in locked):
        names = ", ".join(f"{ATTRIBUTE_NAMES.get(k, k)} {v}" for k, v in locked.items())
        raise ValueError(f"The locked pools ({names}) are not part of the array 5, 4, 3, 3, 2.")
    values = list(left.elements())
    rng.shuffle(values)
    free = iter(values)
    return Attributes(**{key: locked[key] if key in locked else next(free)
                         for key in ATTRIBUTE_KEYS})
