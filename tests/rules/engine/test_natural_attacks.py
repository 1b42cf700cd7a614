"""Natural attacks: the Attack Traits as weapon lines (sheet.natural_attacks).

Eldritch Gambit SRD, Bestiary > Templates > LIST OF TRAITS: "Attack: claws, teeth,
horns, breath weapons ... Size applies to the damage dice used, and Elements can be
chosen just as with Spells." TEMPLATES table: Attack (area) "d6 +STR dmg to all in
current Zone"; (close) "+1 to hit, d6 +STR dmg, Grapple"; (melee) "+1 to hit, d8 +STR
dmg"; (ranged area) "d6 +STR dmg to all in target Zone, Range 2"; (ranged) "+1 to hit,
d8 +STR dmg, Range 2"; (reach) "+1 to hit, d6 +STR dmg, Reach". Bestiary creatures use
their Base for every Attribute: Babblin (Base +1, Medium, Attack (close)) "Claws &
Teeth: (Hit +2, 1d6+1 dmg)"; Grue (Base +3, Large, Attack(close)) "Maul: (Hit +4, dmg
2d6+3)". Our reading for the area kinds (no Hit, no Critical) is in docs/RULES.md.
"""

import pytest

from rules.engine.dice import Dice
from rules.engine.eldritch_gambit import (
    Attributes,
    CharacterBuild,
    GearPiece,
    Kind,
    TraitChoice,
    WeaponStats,
    compute_sheet,
)
from rules.engine.eldritch_gambit.rolls import weapon_damage
from rules.engine.eldritch_gambit.templates import attack_of


def base(value):
    """A Bestiary creature: its Base in every Attribute."""
    return Attributes(str=value, wis=value, dex=value, agi=value, cha=value, end=value)


def sheet_for(attributes, *traits, **kwargs):
    return compute_sheet(CharacterBuild(level=10, attributes=attributes, traits=traits,
                                        **kwargs))


def attack(kind, element=""):
    """As the Template page stores a catalog Attack: the group, the kind as its value."""
    return TraitChoice("Attack", kind + (f", {element}" if element else ""), 1)


def test_babblin_claws_and_teeth():
    (line,) = sheet_for(base(1), attack("close"), TraitChoice("Innate Spell", "Confuse", 1),
                        TraitChoice("Speechless", "", -1)).natural_attacks
    assert (line.name, line.hit, line.damage) == ("Attack (close)", 2, "1d6+1")
    assert line.tags == ("Grapple",)
    assert line.attack_line == "Hit +2, 1d6+1 damage, Critical +6, Grapple"


def test_grue_maul():
    (line,) = sheet_for(base(3), TraitChoice("Nightvision", "", 1), attack("close"),
                        TraitChoice("Size", "Large", 2)).natural_attacks
    assert (line.hit, line.damage, line.critical_bonus) == (4, "2d6+3", 6)
    # "A Critical works as usual, adding the max of one die to the Roll."
    critical = weapon_damage(line.name, line.damage, line.critical_bonus, critical=True)
    assert critical.expression == "2d6+3+6"


@pytest.mark.parametrize(
    ("kind", "hit", "damage", "critical", "range_", "long_range", "tags", "text"),
    [
        ("area", None, "1d6+2", 6, None, None, ("Area: all in current Zone",),
         "1d6+2 damage, Area: all in current Zone"),
        ("close", 2, "1d6+2", 6, None, None, ("Grapple",),
         "Hit +2, 1d6+2 damage, Critical +6, Grapple"),
        ("melee", 2, "1d8+2", 8, None, None, (), "Hit +2, 1d8+2 damage, Critical +8"),
        ("ranged area", None, "1d6+2", 6, 2, None, ("Area: all in target Zone",),
         "1d6+2 damage, Range 2, Area: all in target Zone"),
        ("ranged", 2, "1d8+2", 8, 2, 4, (),
         "Hit +2, 1d8+2 damage, Critical +8, Range 2 (d12 to 4)"),
        ("reach", 2, "1d6+2", 6, None, None, ("Reach",),
         "Hit +2, 1d6+2 damage, Critical +6, Reach"),
    ],
)
def test_each_attack_kind(kind, hit, damage, critical, range_, long_range, tags, text):
    (line,) = sheet_for(Attributes(str=2, dex=1), attack(kind)).natural_attacks
    assert (line.hit, line.damage, line.critical_bonus) == (hit, damage, critical)
    assert (line.range, line.long_range, line.tags) == (range_, long_range, tags)
    assert line.attack_line == text
    assert line.natural and line.reload is None


def test_terms_explain_hit_and_damage():
    (line,) = sheet_for(Attributes(str=2, dex=1), attack("melee")).natural_attacks
    assert [str(term) for term in line.terms_hit] == ["Attack Trait 1", "DEX 1"]
    assert [str(term) for term in line.terms_damage] == ["Attack Trait die 1d8", "STR 2"]
    assert line.hit_display == "+2"


def test_area_attack_has_no_hit_terms():
    (line,) = sheet_for(Attributes(str=2, dex=5), attack("area")).natural_attacks
    assert line.terms_hit == ()
    assert line.hit_display == "—"
    assert not line.has_attack_check


@pytest.mark.parametrize(
    ("size", "melee", "close"),
    [
        ("Large", "2d8+1", "2d6+1"),  # "Rolls 2d"
        ("Huge", "3d8+1", "3d6+1"),
        ("Small", "1d6+1", "1d4+1"),  # "1 die type smaller"
        ("Tiny", "1d4+1", "1d3+1"),  # "2 die types smaller"
    ],
)
def test_size_steps_the_attack_dice_not_the_hit(size, melee, close):
    sheet = sheet_for(Attributes(str=1, dex=1), TraitChoice("Size", size), attack("melee"),
                      attack("close"))
    lines = sheet.natural_attacks
    assert [line.damage for line in lines] == [melee, close]
    assert [line.hit for line in lines] == [2, 2]
    assert lines[0].critical_bonus == Dice.parse(melee).sides


def test_negative_str_lowers_damage_but_the_roll_stops_at_zero():
    (line,) = sheet_for(Attributes(str=-3, dex=-1), attack("close")).natural_attacks
    assert (line.hit, line.damage) == (0, "1d6-3")
    spec = weapon_damage(line.name, line.damage, line.critical_bonus)
    assert spec.total_for(1) == 0  # "can reduce the result to zero but not into the negatives"


def test_element_is_shown_with_the_damage():
    # The young Dragon: "Attack (ranged area, Fire)", "Fiery Breath: (2d6+5 Fire dmg to
    # Zone, Rng 2)" (Base +4, Large; its STR 5 here to match the printed damage).
    (line,) = sheet_for(Attributes(str=5), TraitChoice("Size", "Large"),
                        TraitChoice("Attack (ranged area, Fire)", "", 2)).natural_attacks
    assert (line.damage, line.element, line.damage_display) == ("2d6+5", "Fire", "2d6+5 Fire")
    assert line.attack_line == "2d6+5 Fire damage, Range 2, Area: all in target Zone"


@pytest.mark.parametrize(
    ("name", "value", "kind", "element"),
    [
        ("Attack", "melee", "melee", ""),  # the Template page's catalog row
        ("attack", "RANGED AREA", "ranged area", ""),
        ("Attack (melee)", "", "melee", ""),  # the SRD's table name, as a custom Trait
        ("Attack(close)", "", "close", ""),  # the Grue's spelling
        ("Attack (reach)", "fire", "reach", "Fire"),  # a custom Trait's value: the Element
        ("Attack", "ranged, Cold", "ranged", "Cold"),
        ("Attack", "ranged-area", "ranged area", ""),
        ("ATTACK (Ranged Area, Void)", "", "ranged area", "Void"),
    ],
)
def test_attack_traits_as_stored(name, value, kind, element):
    found = attack_of(TraitChoice(name, value))
    assert (found.rule.kind, found.element) == (kind, element)


@pytest.mark.parametrize(
    ("name", "value"),
    [("Attack", ""), ("Attack", "Fire"), ("Attacker", "melee"), ("Resistance", "melee"),
     ("Venomous", "")],
)
def test_other_traits_give_no_attack(name, value):
    assert attack_of(TraitChoice(name, value)) is None
    assert sheet_for(Attributes(), TraitChoice(name, value)).natural_attacks == ()


def test_natural_attacks_stay_apart_from_weapons():
    dagger = GearPiece("Dagger", Kind.WEAPON, weapon=WeaponStats(1, "1d6", range=1))
    sheet = sheet_for(Attributes(str=1, dex=1), attack("melee"), gear=(dagger,))
    assert [line.name for line in sheet.weapons] == ["Dagger"]
    assert [line.name for line in sheet.natural_attacks] == ["Attack (melee)"]
    assert not sheet.weapons[0].natural


def test_natural_attacks_are_made_only_when_asked_for():
    sheet = sheet_for(Attributes(), attack("melee"))
    assert "natural_attacks" not in sheet.__dict__
    first = sheet.natural_attacks
    assert sheet.natural_attacks is first
