"""{% mettle_roll %} (characters/systems/mettle/templatetags/mettle_rolls.py) renders a
METTLE roll of a log exactly as the included template it replaced did
(data/roll_entry.html, its text as it was): checks and Twists, Surges, Raises, Splits,
Backstories, no dice, a roll by nobody, text that needs escaping, a roll fresh from
create() (its kind the Choices member), in two time zones, with and without the
character's name."""

from pathlib import Path

import pytest
from django.template import engines
from django.utils import timezone

from campaigns import services
from campaigns.systems.mettle.rolls import MettleRoll
from characters.systems.mettle.apps import KEY
from characters.systems.mettle.templatetags.mettle_rolls import mettle_roll
from tests.characters.systems.mettle.helpers import make_viktor
from tests.factories import CampaignFactory, MembershipFactory

pytestmark = pytest.mark.django_db

# The included template the tag replaced, as it was (templates/campaigns/mettle/).
ROLL_ENTRY = (Path(__file__).parent / "data" / "roll_entry.html").read_text()


@pytest.fixture
def table():
    """A METTLE campaign with a session and Viktor, its player's."""
    campaign = CampaignFactory(system=KEY)
    player = MembershipFactory(campaign=campaign).user
    viktor = make_viktor(player)
    services.character_join(campaign=campaign, character=viktor, by=player)
    session = services.session_start(campaign=campaign, by=campaign.owner)
    return {"viktor": viktor, "player": player, "session": session}


def rolls(table) -> list[MettleRoll]:
    viktor, player = table["viktor"], table["player"]

    def made(**changes):
        values = {"character": viktor, "session": table["session"], "rolled_by": player,
                  "kind": MettleRoll.Kind.CHECK, "label": '<b>Evil & "quoted"</b>',
                  "attribute": "nature", "pool": 3, "dice": 3, "difficulty": 3,
                  "faces": [1, 2, 6], "score": 2, "edge": 1, "success": False,
                  "odds": {"success": "1/2", "with_twist": "<3/4>"}}
        values.update(changes)
        return MettleRoll.objects.create(**values)

    surged = made(backstory="Old <war> wound", raises=2, dice=4, faces=[6, 6, 3, 1],
                  surge=2, mettle_before=9, mettle_after=7, success=True,
                  grade="Clean & good")
    plain = made(label="NATURE Check")
    fresh = [
        surged, plain,
        made(split={"part": 1, "of": 2, "shares": [3, 2]}, faces=[], dice=0,
             rolled_by=None, odds={}),
        made(odds=[], surge=1, label="A thousand", faces=[1234, 2]),
        made(kind=MettleRoll.Kind.TWIST, twist_of=plain, rerolled=[4, 5],
             twist_price="Imperil: <friendly> fire", success=True, grade="Great"),
        made(kind=MettleRoll.Kind.TWIST, twist_of=surged, rerolled=[], twist_price=""),
    ]
    loaded = list(MettleRoll.objects.select_related("character", "rolled_by", "twist"))
    return fresh + loaded


@pytest.mark.parametrize("zone", ["UTC", "Pacific/Chatham"])
@pytest.mark.parametrize("show_character", [False, True])
def test_the_tag_renders_what_the_template_did(table, zone, show_character):
    template = engines["django"].from_string(ROLL_ENTRY)
    with timezone.override(zone):
        for roll in rolls(table):
            expected = template.render({"r": roll, "show_character": show_character})
            assert str(mettle_roll(roll, show_character)) == expected
