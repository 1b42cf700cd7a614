"""The `tiny` fixture: the tiny system registered for one test (and only then)."""

import pytest

from rules import systems

from .system import KEY, game_system


@pytest.fixture
def tiny():
    system = systems.register(game_system())
    yield system
    systems.unregister(KEY)


def make_tiny(owner, *, name="Pip", grit=3, wits=2, **kwargs):
    """A stored tiny character (through the system's own create, as the builder saves)."""
    from .system import character_create

    character = character_create(owner=owner, data={"name": name, "grit": grit, "wits": wits})
    for field, value in kwargs.items():
        setattr(character, field, value)
    if kwargs:
        character.save()
    return character
