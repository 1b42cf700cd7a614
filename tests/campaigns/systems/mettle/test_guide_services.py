"""The Guide's tools as services (campaigns/systems/mettle/guide.py; GD §NPC Creation,
§Faction Tracker; next-games.md M49, M50): NPC pools, the Faction triangle rolled once,
Resources as a reversible ledger, Faction Checks with their Twist and the sit-out."""

import random

import pytest

from campaigns.services import CampaignError
from campaigns.systems.mettle import guide
from campaigns.systems.mettle.guide_models import (
    MettleFaction,
    MettleRelation,
    MettleResourcesEntry,
    MettleTriangle,
)
from characters.systems.mettle.apps import KEY
from rules.engine.mettle import guide as engine
from tests.factories import CampaignFactory, MembershipFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign(db):
    return CampaignFactory(system=KEY)


@pytest.fixture
def gm(campaign):
    return campaign.owner


class Dice(random.Random):
    """Hands out the given faces in order."""

    def __init__(self, faces):
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a, b):
        assert (a, b) == (1, 6)
        return self.faces.pop(0)


def rolled(campaign, gm, *faces):
    return guide.triangle_roll(campaign=campaign, by=gm, rng=Dice(faces))


# Resources dice 5, 2, 4 (Rival takes the 2); seeds 1, 2, 3; relations 1..6.
TRIANGLE_DICE = (5, 2, 4, 1, 2, 3, 1, 2, 3, 4, 5, 6)


def test_npc_pool_saved_and_computed(campaign, gm):
    npc = guide.npc_create(campaign=campaign, by=gm, name="Horse", pool=4,
                           higher_attribute="frame", higher_pool=7,
                           armour="Light (Leather)", notes="Skittish")
    line = guide.npc_line(npc)
    assert line.pool.label == "Horse 4D (FRAME 7)"
    assert line.mettle == 4 and line.soak == 7 + 1  # FRAME 7 + Leather's Soak 1
    again = guide.npc_create(campaign=campaign, by=gm, name="Horse", pool=4,
                             request_key="k1")
    assert guide.npc_create(campaign=campaign, by=gm, name="Other", pool=2,
                            request_key="k1") == again  # a double click saves once
    npc = guide.npc_update(npc=npc, by=gm, name="Old horse", pool=3)
    assert guide.npc_line(npc).pool.label == "Old horse 3D"
    guide.npc_delete(npc=npc, by=gm)
    guide.npc_delete(npc=npc, by=gm)  # twice is once
    assert campaign.mettle_npcs.count() == 1


@pytest.mark.parametrize(("values", "code", "field"), [
    ({"name": "", "pool": 3}, "name_required", "name"),
    ({"name": "x" * 121, "pool": 3}, "name_too_long", "name"),
    ({"name": "X", "pool": 0}, "pool_range", "pool"),
    ({"name": "X", "pool": 61}, "pool_range", "pool"),
    ({"name": "X", "pool": 3, "higher_attribute": "luck", "higher_pool": 5},
     "no_such_attribute", "higher_attribute"),
    ({"name": "X", "pool": 3, "higher_attribute": "frame"}, "higher_incomplete",
     "higher_pool"),
    ({"name": "X", "pool": 3, "higher_attribute": "frame", "higher_pool": 3},
     "higher_not_higher", "higher_pool"),
    ({"name": "X", "pool": 3, "armour": "Mithril"}, "no_such_armour", "armour"),
])
def test_npc_refusals(campaign, gm, values, code, field):
    with pytest.raises(CampaignError) as refused:
        guide.npc_create(campaign=campaign, by=gm, **values)
    assert (refused.value.code, refused.value.field) == (code, field)
    assert not campaign.mettle_npcs.exists()


def test_only_the_guide_writes(campaign):
    player = MembershipFactory(campaign=campaign).user
    for call in (lambda: guide.npc_create(campaign=campaign, by=player, name="X", pool=2),
                 lambda: guide.triangle_roll(campaign=campaign, by=player)):
        with pytest.raises(CampaignError) as refused:
            call()
        assert refused.value.code == "not_imp"


def test_the_triangle_is_rolled_once_from_the_text(campaign, gm):
    triangle = rolled(campaign, gm, *TRIANGLE_DICE)
    assert guide.resources_of(triangle) == {"villain": 8, "backer": 7, "rival": 5}
    names = dict(MettleFaction.objects.values_list("role", "name"))
    assert names == {"villain": "Zealous Cult", "backer": "Government Agency",
                     "rival": "Sly Trickster"}  # FACTION SEEDS rows 1, 2, 3
    view = guide.triangle_view(campaign)
    assert [(r.source, r.target, r.name) for r in view["relations"]] == [
        ("villain", "backer", "Colluding"), ("backer", "villain", "Extorting"),
        ("backer", "rival", "Undermining"), ("rival", "backer", "Evading"),
        ("rival", "villain", "Attacking"), ("villain", "rival", "Appeasing")]
    rival_entry = MettleResourcesEntry.objects.get(faction__role="rival")
    assert (rival_entry.die, rival_entry.change) == (2, 5)
    assert rolled(campaign, gm, *TRIANGLE_DICE) == triangle  # again: the same triangle
    assert MettleTriangle.objects.count() == 1 and MettleRelation.objects.count() == 6
    odds = {(o["actor"], o["target"]): o for o in view["odds"]}
    exact = engine.faction_check_odds({"villain": 8, "backer": 7, "rival": 5},
                                      "rival", "backer")
    assert odds["rival", "backer"]["p"] == exact.p_success
    assert odds["rival", "backer"]["dice"] == 5 and odds["rival", "backer"]["difficulty"] == 7


def test_resources_ledger_adjust_and_undo(campaign, gm):
    triangle = rolled(campaign, gm, *TRIANGLE_DICE)
    entry = guide.resources_adjust(campaign=campaign, by=gm, role="villain", change=-3,
                                   note="The lab burned", request_key="r1")
    assert guide.resources_adjust(campaign=campaign, by=gm, role="villain", change=-3,
                                  request_key="r1") == entry
    assert guide.resources_of(triangle)["villain"] == 5
    undo = guide.resources_undo(campaign=campaign, by=gm, entry_pk=entry.pk)
    assert guide.resources_undo(campaign=campaign, by=gm, entry_pk=entry.pk) == undo
    assert guide.resources_of(triangle)["villain"] == 8
    with pytest.raises(CampaignError) as refused:
        guide.resources_undo(campaign=campaign, by=gm, entry_pk=undo.pk)
    assert refused.value.code == "reversal"
    with pytest.raises(CampaignError) as refused:
        guide.resources_adjust(campaign=campaign, by=gm, role="rival", change=-6)
    assert (refused.value.code, refused.value.field) == ("resources_range", "change")
    with pytest.raises(CampaignError) as refused:
        guide.resources_adjust(campaign=campaign, by=gm, role="rival", change=0)
    assert refused.value.code == "no_change"
    with pytest.raises(CampaignError) as refused:
        guide.resources_undo(campaign=campaign, by=gm, entry_pk=10**12)
    assert refused.value.code == "no_such_entry"
    # Undoing the roll itself is allowed and leaves 0 Resources.
    roll = MettleResourcesEntry.objects.get(faction__role="rival", kind="roll")
    guide.resources_undo(campaign=campaign, by=gm, entry_pk=roll.pk)
    assert guide.resources_of(triangle)["rival"] == 0


def test_faction_check_twist_and_sit_out(campaign, gm):
    triangle = rolled(campaign, gm, *TRIANGLE_DICE)
    # The Rival (5 dice) against the Backer (Difficulty 7): 3+3+1 = 7 fails, 2 Edge.
    check = guide.faction_check_make(campaign=campaign, by=gm, actor="rival",
                                     target="backer", rng=Dice([3, 3, 1, 4, 6]),
                                     request_key="c1")
    assert guide.faction_check_make(campaign=campaign, by=gm, actor="rival",
                                    target="backer", request_key="c1") == check
    roll = guide.check_roll(check)
    assert (roll.score, roll.edge, roll.success, roll.may_twist) == (7, 2, False, True)
    check = guide.faction_check_twist(campaign=campaign, by=gm, check_pk=check.pk,
                                      rng=Dice([2, 5]))
    assert check.twist_faces == [2, 5] and guide.check_roll(check).success
    assert guide.faction_check_twist(campaign=campaign, by=gm, check_pk=check.pk).twist_faces \
        == [2, 5]  # one Twist per Check
    guide.faction_turn_next(campaign=campaign, by=gm, turn=1)
    guide.faction_turn_next(campaign=campaign, by=gm, turn=1)  # the same page's second click
    triangle.refresh_from_db()
    assert triangle.turn == 2 and guide.sitting_out(triangle) == {"rival"}
    with pytest.raises(CampaignError) as refused:
        guide.faction_check_make(campaign=campaign, by=gm, actor="rival", target="villain")
    assert (refused.value.code, refused.value.field) == ("sits_out", "actor")
    guide.faction_turn_next(campaign=campaign, by=gm, turn=2)
    guide.faction_check_make(campaign=campaign, by=gm, actor="rival", target="villain",
                             rng=Dice([1] * 5))


def test_no_twist_on_a_success_or_without_edge(campaign, gm):
    rolled(campaign, gm, *TRIANGLE_DICE)
    win = guide.faction_check_make(campaign=campaign, by=gm, actor="villain",
                                   target="rival", rng=Dice([3] * 8))
    with pytest.raises(CampaignError) as refused:
        guide.faction_check_twist(campaign=campaign, by=gm, check_pk=win.pk)
    assert refused.value.code == "no_twist"
    for actor, target in (("villain", "villain"), ("villain", "dragon")):
        with pytest.raises(CampaignError):
            guide.faction_check_make(campaign=campaign, by=gm, actor=actor, target=target)


def test_faction_writes_before_the_triangle_are_refused(campaign, gm):
    for call in (
        lambda: guide.resources_adjust(campaign=campaign, by=gm, role="rival", change=1),
        lambda: guide.faction_check_make(campaign=campaign, by=gm, actor="rival",
                                         target="backer"),
        lambda: guide.faction_turn_next(campaign=campaign, by=gm, turn=1),
        lambda: guide.faction_rename(campaign=campaign, by=gm, role="rival", name="X"),
    ):
        with pytest.raises(CampaignError) as refused:
            call()
        assert refused.value.code == "no_triangle"
