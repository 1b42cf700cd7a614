"""EldritchGambitCharacter: Eldritch Gambit's build in its own table, a multi-table child
of the generic Character (characters/systems/eldritch_gambit/models.py)."""

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from characters.models import Character
from characters.systems.eldritch_gambit.models import EldritchGambitCharacter
from rules import systems
from tests.factories import CampaignFactory, CharacterFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_the_system_registers_the_child_as_its_character_model():
    hero = CharacterFactory()
    assert isinstance(hero, EldritchGambitCharacter)
    assert hero.system == systems.ELDRITCH_GAMBIT
    assert hero.game_system.character_model is EldritchGambitCharacter
    # The shell's row and the build's row share the pk.
    assert Character.objects.get(pk=hero.pk).eldritchgambitcharacter.strength == hero.strength


def test_the_child_inherits_the_shell_queries_each_in_one_query():
    imp, owner = UserFactory(), UserFactory()
    campaign = CampaignFactory(owner=imp)  # with the Imp's Membership
    hero = CharacterFactory(owner=owner, campaign=campaign, progress__level=7,
                            progress__xp=2, progress__coins_cp=40)
    CharacterFactory()  # someone else's
    with CaptureQueriesContext(connection) as queries:
        seen = list(EldritchGambitCharacter.objects.visible_to(imp).with_progress())
        editable = list(EldritchGambitCharacter.objects.editable_by(owner).with_progress())
    assert len(queries) == 2  # Membership is a subquery, the ledgers correlated subqueries
    assert seen == editable == [hero]
    found = seen[0]
    assert (found.level, found.xp, found.coins_cp, found.career) == (7, 2, 40, hero.career)
    assert list(EldritchGambitCharacter.objects.editable_by(imp)) == []


def test_a_character_equals_its_build():
    hero = CharacterFactory()
    shell = Character.objects.get(pk=hero.pk)
    assert shell == hero and hero == shell
    assert {shell, hero} == {hero}
    assert shell != CharacterFactory()


def test_the_database_keeps_the_attributes_in_range():
    hero = CharacterFactory()
    with pytest.raises(IntegrityError), transaction.atomic():
        EldritchGambitCharacter.objects.filter(pk=hero.pk).update(strength=1000)


def test_deleting_the_build_deletes_the_shell_and_back():
    hero, other = CharacterFactory(), CharacterFactory()
    hero.delete()
    Character.objects.get(pk=other.pk).delete()
    assert not Character.objects.exists()
    assert not EldritchGambitCharacter.objects.exists()
