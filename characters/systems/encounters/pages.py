"""The character list's line of an encounter combatant."""

from __future__ import annotations


def summary(character) -> str:
    return (f"Quickness {character.quickness}, Command {character.command}, "
            f"Stamina {character.stamina_max}")
