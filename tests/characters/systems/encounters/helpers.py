"""Shared by the encounter character tests: a stored combatant through the system's own
create, the builder's posted data, and the data-stat reader."""

from __future__ import annotations

import re

from characters.systems.encounters import services
from characters.systems.encounters.demo import SABLE


def stats(response) -> dict[str, str]:
    body = response if isinstance(response, str) else response.content.decode()
    return dict(re.findall(r'data-stat="(\w+)"[^>]*>([^<]*)<', body))


def make_sable(owner, **changes):
    return services.character_create(owner=owner, data={**SABLE, **changes})


def posted(**changes) -> dict[str, str]:
    """Sable as the builder posts her (every field a string)."""
    data = {"system": "encounters", **{key: str(value) for key, value in SABLE.items()}}
    data.update({key: str(value) for key, value in changes.items()})
    return data
