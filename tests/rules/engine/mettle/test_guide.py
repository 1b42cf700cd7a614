"""The Guide's tools (METTLE Core SRD, Guidance > Faction Tracker, Characters, NPC
Creation; Resources > Mounts)."""

from fractions import Fraction

import pytest

from rules.engine.mettle.attributes import Attributes
from rules.engine.mettle.guide import (
    BACKER,
    FACTION_RELATIONS,
    FACTION_SEEDS,
    FACTION_TWIST,
    RELATION_ARROWS,
    RESOURCES_MAX,
    RIVAL,
    VILLAIN,
    NpcPool,
    faction_check,
    faction_check_odds,
    faction_relation,
    faction_relations,
    faction_resources,
    new_character_pool_total,
    npc_soak,
    out_of_character_difficulty,
    resources_after,
)


def test_an_npc_pool_serves_every_attribute_and_mettle():
    elder = NpcPool("Hostile Village Elder", 5)
    assert elder.label == "Hostile Village Elder 5D"
    assert elder.attribute("poise") == elder.attribute("motive") == elder.mettle == 5
    horse = NpcPool("Horse", 4, higher=(("frame", 7),))  # RS MOUNTS: Pool 4 (FRAME 7)
    assert horse.label == "Horse 4D (FRAME 7)"
    assert horse.attribute("frame") == 7 and horse.attribute("nature") == 4
    assert out_of_character_difficulty(3) == 6
    with pytest.raises(ValueError):
        NpcPool("Nobody", 0)


def test_the_rival_gets_the_lowest_resources():
    assert faction_resources([5, 2, 6]) == {VILLAIN: 8, BACKER: 9, RIVAL: 5}
    assert faction_resources([1, 4, 4]) == {VILLAIN: 7, BACKER: 7, RIVAL: 4}
    with pytest.raises(ValueError):
        faction_resources([1, 2])


def test_a_faction_check_is_resources_against_resources():
    resources = {VILLAIN: 8, BACKER: 9, RIVAL: 5}
    odds = faction_check_odds(resources, RIVAL, BACKER)
    assert (odds.dice, odds.difficulty) == (5, 9)
    assert 0 < odds.p_success < Fraction(1, 2)


def test_faction_tables():
    assert set(FACTION_SEEDS) == set(FACTION_RELATIONS) == set(range(1, 7))
    assert FACTION_RELATIONS[5][0] == "Attacking"


def test_a_new_character_starts_at_the_lowest_pool_total_in_the_group():
    group = [Attributes(5, 4, 3, 3, 2), Attributes(6, 4, 3, 3, 2), Attributes(5, 5, 3, 3, 2)]
    assert new_character_pool_total(group) == 22


# -- the Guide screen's additions (issue #13, helper mscreen) ---------------------------------



def test_npc_soak_is_frame_plus_armour():
    # EN §Taking Damage: Soak = FRAME + armour; a Horse's FRAME 7 counts, not its pool.
    assert npc_soak(NpcPool("Thug", 3)) == 3
    assert npc_soak(NpcPool("Thug", 3), 2) == 5  # Medium (Chain)
    assert npc_soak(NpcPool("Horse", 4, higher=(("frame", 7),)), 1) == 8
    with pytest.raises(ValueError):
        npc_soak(NpcPool("Thug", 3), -1)


def test_six_arrows_one_relation_each_way():
    # AMB-M-GD-1: every side of the triangle holds a relation each way.
    assert len(RELATION_ARROWS) == 6 == len(set(RELATION_ARROWS))
    assert {frozenset(a) for a in RELATION_ARROWS} == {
        frozenset((VILLAIN, BACKER)), frozenset((BACKER, RIVAL)), frozenset((RIVAL, VILLAIN))}
    rolled = faction_relations([1, 2, 3, 4, 5, 6])
    assert rolled[VILLAIN, BACKER] == "Colluding" and rolled[VILLAIN, RIVAL] == "Appeasing"
    assert faction_relation(5) == ("Attacking",
                                   "Hostile and actively trying to destroy by whatever means.")
    for bad in ([1, 2, 3], [0, 1, 1, 1, 1, 1], [7, 1, 1, 1, 1, 1]):
        with pytest.raises(ValueError):
            faction_relations(bad)


def test_faction_check_rolls_resources_against_resources():
    # Rival 5 vs Backer 8: five dice, Difficulty 8; 3+3+2 = 8 does not beat 8.
    roll = faction_check(5, 8, [3, 3, 2, 4, 6])
    assert (roll.score, roll.edge, roll.success, roll.may_twist) == (8, 2, False, True)
    twisted = faction_check(5, 8, [3, 3, 2, 4, 6], twist_faces=[1, 2])
    assert twisted.score == 11 and twisted.success and twisted.quality == "OK"
    assert "next Faction turn" in FACTION_TWIST
    with pytest.raises(ValueError):
        faction_check(5, 8, [1, 1, 1])  # Resources 5 roll five dice
    with pytest.raises(ValueError):
        faction_check(2, 1, [1, 1], twist_faces=[4])  # a success allows no Twist


def test_resources_stay_in_range():
    assert resources_after(7, -2) == 5
    assert resources_after(1, -1) == 0
    with pytest.raises(ValueError):
        resources_after(1, -2)
    with pytest.raises(ValueError):
        resources_after(RESOURCES_MAX, 1)
