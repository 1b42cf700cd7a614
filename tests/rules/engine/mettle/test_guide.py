"""The Guide's tools (METTLE Core SRD, Guidance > Faction Tracker, Characters, NPC
Creation; Resources > Mounts)."""

from fractions import Fraction

import pytest

from rules.engine.mettle.attributes import Attributes
from rules.engine.mettle.guide import (
    BACKER,
    FACTION_RELATIONS,
    FACTION_SEEDS,
    RIVAL,
    VILLAIN,
    NpcPool,
    faction_check_odds,
    faction_resources,
    new_character_pool_total,
    out_of_character_difficulty,
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
