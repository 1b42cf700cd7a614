"""Shared by the METTLE Core character tests: a stored character through the system's own
create (as the builder saves), the builder's posted data, and the data-stat reader."""

from __future__ import annotations

import re

from characters.systems.mettle import services
from characters.systems.mettle.demo import VIKTOR


def stats(response) -> dict[str, str]:
    return dict(re.findall(r'data-stat="(\w+)"[^>]*>([^<]*)<', response.content.decode()))


def make_viktor(owner, **changes):
    return services.character_create(owner=owner, data={**VIKTOR, **changes})


def posted(**changes) -> dict[str, str]:
    """Viktor as the builder posts him (every field a string)."""
    data = {
        "system": "mettle-core", "name": "Viktor", "appearance": "", "background": "",
        "method": "array", "budget": "22",
        "concept": "5", "frame": "3", "motive": "4", "nature": "3", "poise": "2",
        "concept_descriptor": "Itinerant gambler", "frame_descriptor": "Svelte but wiry",
        "motive_descriptor": "Competition", "nature_descriptor": "Curmudgeon",
        "poise_descriptor": "Old leg injury",
        "backstories": "", "contacts": "Oleg\nSamuelson", "credit": "2",
        "mettle_current": "", "armor": "",
        "weapon_1": "Sword", "weapon_1_name": "Sword cane",
        "gear": "Brown suit\nModest apartment\nDeck of cards\nPocket knife\n"
                "Pocket watch and fob",
    }
    data.update({key: str(value) for key, value in changes.items()})
    return data
