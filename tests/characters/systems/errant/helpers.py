"""Shared by the Errant character tests: a stored Errant through the system's own create
(as the builder saves), the builder's posted data, and the data-stat reader."""

from __future__ import annotations

import re

from characters.systems.errant import services
from characters.systems.errant.demo import wren
from characters.systems.errant.forms import item_initial


def stats(response) -> dict[str, str]:
    return dict(re.findall(r'data-stat="(\w+)"[^>]*>([^<]*)<', response.content.decode()))


def make_wren(owner, **changes):
    return services.character_create(owner=owner, data={**wren(), **changes})


def posted(*, gear=None, **changes) -> dict[str, str]:
    """Wren as the builder posts her (every field a string)."""
    lines = wren()["gear"] if gear is None else gear
    data = {
        "system": "errant", "name": "Wren", "method": "rolled",
        "dice_phys": "3 4 2 4", "dice_skill": "2 2 3 1", "dice_mind": "4 4 3 2",
        "dice_pres": "1 3 2 3", "swap": "skill-mind", "guide_note": "", "renown_raises": "",
        "ancestry": "tough", "minimum_age": "31", "age": "34", "keepsake": "",
        "failed_profession": "", "archetype": "violent", "kit_choice": "small_shield",
        "covenant_alignment": "", "favour_deeds": "0", "alignment": "", "extra_languages": "",
        "hp_current": "", "exhaustion": "0", "item_rows": str(len(lines)),
    }
    for row, line in enumerate(lines):
        data.update({key: "" if value is None else str(value)
                     for key, value in item_initial(row, line).items()})
    data.update({key: str(value) for key, value in changes.items()})
    return data
