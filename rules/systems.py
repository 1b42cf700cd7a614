"""The registry of game systems: how the generic parts of the app know a game.

A game system is registered once, by the AppConfig of its package in `characters/systems/`
(listed in INSTALLED_APPS). Generic code (accounts, the character shell, campaigns, the
print pipeline, the exchange envelope) asks this registry for a system by the key stored on
`Character.system` and `Campaign.system`, and calls what the system provides; it never
imports a system's package. README, "Adding a game system", walks through one.

This module sits in the lowest app layer, so it imports no app's models: a system hands
over its classes when it registers.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ImproperlyConfigured

# The key of the one system of every character and campaign made before systems existed
# (the migrations' default).
ELDRITCH_GAMBIT = "eldritch-gambit"
KEY_MAX_LENGTH = 40


@dataclass(eq=False)
class GameSystem:
    """What a game system is to the generic code.

    `key` is stored on characters and campaigns and names the exchange format; `name` and
    `licence` show on every sheet and on the About page. The rest are the system's parts,
    set by its package when it registers (see README, "Adding a game system").
    """

    key: str
    name: str
    # One line: the text's title, author, licence and where it comes from.
    licence: str
    # The model of a character of this system: a multi-table child of characters.Character
    # holding the build's typed columns.
    character_model: Any = None
    # The body of the system's character file (characters/exchange.py holds the envelope):
    # an object with `format`, `version`, `export_body(character)` and
    # `import_body(*, owner, data, version)`.
    exchange: Any = None

    def __str__(self) -> str:
        return self.name


_registry: dict[str, GameSystem] = {}


def register(system: GameSystem) -> GameSystem:
    if not system.key or len(system.key) > KEY_MAX_LENGTH:
        raise ImproperlyConfigured(f"A game system's key must be 1 to {KEY_MAX_LENGTH} "
                                   f"characters: {system.key!r}.")
    known = _registry.get(system.key)
    if known is not None and known is not system:
        raise ImproperlyConfigured(f"Two game systems registered the key {system.key!r}.")
    _registry[system.key] = system
    return system


def unregister(key: str) -> None:
    """For tests that register a system for their own run."""
    _registry.pop(key, None)


def get(key: str) -> GameSystem:
    """The system of a key stored in the database; a key no installed system registers is
    a configuration error, said as such."""
    try:
        return _registry[key]
    except KeyError:
        raise ImproperlyConfigured(
            f"No game system {key!r} is installed; add its package to INSTALLED_APPS."
        ) from None


def find(key: str | None) -> GameSystem | None:
    """The system of a key typed by a user (a form, a query string), or None."""
    return _registry.get(key) if isinstance(key, str) else None


def all_systems() -> Iterator[GameSystem]:
    """Every registered system, by name."""
    return iter(sorted(_registry.values(), key=lambda system: system.name))


def choices() -> list[tuple[str, str]]:
    return [(system.key, system.name) for system in all_systems()]
