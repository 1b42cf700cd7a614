"""Random helpers from the Characters chapter: Name Seeds, Description Seeds,
starting coins. Each returns the dice it rolled so the page can show them."""

from __future__ import annotations

import random
from dataclasses import dataclass

# NAME SEEDS (Characters > Concept > Name): 5d6 -> initial.
NAME_SEEDS = {
    5: ("U", "Utrid, Uriah, Ulthar"),
    6: ("Z", "Zack, Zeno, Zelda"),
    7: ("O", "Oleg, Oliver, Ondine"),
    8: ("V", "Vonn, Vincent, Vera"),
    9: ("N", "Nisha, Negan, Nemo"),
    10: ("W", "Wash, Wei, Will"),
    11: ("G", "Geralt, Gina, Gort"),
    12: ("T", "Topaz, Terra, Thane"),
    13: ("B", "Bina, Bahb, Brutus"),
    14: ("S", "Selena, Stavros, Simm"),
    15: ("C", "Cullen, Cora, Cran"),
    16: ("R", "Reba, Rhett, Ruprekt"),
    17: ("J", "Jona, Jerm, Jubal"),
    18: ("M", "Marik, Merina, Mordo"),
    19: ("D", "Dorf, Deren, Dagnert"),
    20: ("A", "Alistair, Arok, Ainu"),
    21: ("L", "Lemuel, Lear, Lana"),
    22: ("E", "Egon, Eva, Einz"),
    23: ("K", "Ketch, Kroma, Kavon"),
    24: ("P", "Pike, Palla, Portia"),
    25: ("H", "Heff, Hali, Habra"),
    26: ("F", "Finn, Fianna, Fenty"),
    27: ("I", "Iggy, Irina, Islington"),
    28: ("Y", "Yg, Yelen, Yakov"),
    29: ("Q", "Q, Quint, Qera"),
    30: ("X", "Xul, Xena, Xavier"),
}

# DESCRIPTION SEEDS (Characters > Concept > Description): d20 -> quirk.
DESCRIPTION_SEEDS = {
    1: ("Ailment", "chronic sneeze, cough"),
    2: ("Atavism", "catlike, mousy, caveman"),
    3: ("Bearing", "twitchy, regal, shifty"),
    4: ("Dress", "snappy, slovenly, antiquated"),
    5: ("Ears", "pointed, cauliflower, huge"),
    6: ("Eyes", "close-set, piercing, wide, blue"),
    7: ("Face", "pinched, cherubic, floppy"),
    8: ("Fear", "abandonment, ham, bridges"),
    9: ("Gait", "stiff, serpentine, trembling"),
    10: ("Growth", "horn, hump, benign tumor"),
    11: ("Habit", "catchphrase, nervous tic"),
    12: ("Hair", "pompadour, bald, blue"),
    13: ("Hands", "extra finger, webbed, huge"),
    14: ("Item", "trinket, lucky hat, handcuffs"),
    15: ("Mouth", "wide, full, toothy grin"),
    16: ("Nose", "broad, flat, long, red"),
    17: ("Physique", "short, tall, skinny, stout"),
    18: ("Skin", "birthmarks, scars, acne"),
    19: ("Tattoo", "artistic, tribal, prison"),
    20: ("Voice", "gruff, flat, high-pitched"),
}

# Starting Gear: "500 (or 2d4x100) copper pieces".
STARTING_COINS_CP = 500


@dataclass(frozen=True)
class SeedRoll:
    dice: tuple[int, ...]
    total: int
    result: str
    examples: str


def roll_name_initial(rng: random.Random | None = None) -> SeedRoll:
    rng = rng or random.Random()
    dice = tuple(rng.randint(1, 6) for _ in range(5))
    initial, examples = NAME_SEEDS[sum(dice)]
    return SeedRoll(dice, sum(dice), initial, examples)


def roll_quirk(rng: random.Random | None = None) -> SeedRoll:
    rng = rng or random.Random()
    die = rng.randint(1, 20)
    quirk, examples = DESCRIPTION_SEEDS[die]
    return SeedRoll((die,), die, quirk, examples)


def roll_starting_coins(rng: random.Random | None = None) -> SeedRoll:
    """The 2d4 x 100 cp alternative to a flat 500 cp."""
    rng = rng or random.Random()
    dice = (rng.randint(1, 4), rng.randint(1, 4))
    total = sum(dice) * 100
    return SeedRoll(dice, total, f"{total} cp", "2d4 x 100 cp")
