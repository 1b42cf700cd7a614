"""characters.models.get_built: one character as its game system's model, read as its
system's row joined to the shell (after its system's name), not as the join of every
game's table that `with_builds` makes for a list."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from characters.models import Character, as_built, get_built
from characters.systems.eldritch_gambit.models import EldritchGambitCharacter
from tests.factories import CharacterFactory, UserFactory

pytestmark = pytest.mark.django_db


def fields(character) -> dict:
    return {name: value for name, value in vars(character).items() if not name.startswith("_")}


def test_the_character_comes_as_its_systems_model_with_what_with_builds_gives():
    character = CharacterFactory(progress__level=12, progress__xp=3, progress__coins_cp=70)
    built = get_built(character.pk, lambda characters: characters.with_progress())
    assert type(built) is EldritchGambitCharacter
    joined = as_built(Character.objects.with_progress().with_builds().get(pk=character.pk))
    assert fields(built) == fields(joined)
    assert (built.level_total, built.xp_total, built.coins_total) == (12, 3, 70)


def test_two_queries_and_no_other_games_table():
    character = CharacterFactory()
    with CaptureQueriesContext(connection) as queries:
        get_built(character.pk, lambda characters: characters.editable_by(character.owner))
    assert len(queries) == 2
    read = queries.captured_queries[1]["sql"]
    assert "eldritch_gambit" in read
    assert not any(other in read for other in ("mettle", "errant", "encounter"))


def test_narrowed_out_or_missing_is_does_not_exist():
    character = CharacterFactory()
    stranger = UserFactory()
    with pytest.raises(Character.DoesNotExist):
        get_built(character.pk, lambda characters: characters.editable_by(stranger))
    with pytest.raises(Character.DoesNotExist):
        get_built(character.pk + 1000)


def test_a_character_of_a_system_no_longer_installed_stays_a_shell():
    shell = Character.objects.create(owner=UserFactory(), system="gone-game", name="Old")
    built = get_built(shell.pk)
    assert type(built) is Character and built.name == "Old"
