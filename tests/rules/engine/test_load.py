"""Load, capacity and Encumbrance.

Eldritch Gambit SRD, Characters > Gear > Encumbrance: "One can bear up to STR + END in
Load before becoming Encumbered ... If carrying more than twice STR + END, they are
Incapacitated instead." "Swim (Move) Checks are at -1 for each Load." Resources >
Armor: Superior armor is "one Load less", Inferior "one Load more"; MISCELLANEOUS
ITEMS: "before the slash is empty, after is maximum Load". Bestiary > Size: "A Tiny
creature would count 1 Load as 3, a Large one would count 2 Load as 1, and so on."
Team decisions: capacity is not scaled by Size; Trait Load is added unscaled; Load 0
or less is never a burden.
"""

import pytest

from rules.engine.eldritch_gambit import (
    ArmorStats,
    Attributes,
    CharacterBuild,
    Coverage,
    GearPiece,
    Kind,
    Quality,
    TraitChoice,
    WeaponStats,
    compute_sheet,
)
from tests.rules.engine.srd_examples import ASPHODEL


def bundle(load, name="Rope (10m)", **kwargs):
    """`load` items of Load 1 each, as one stack."""
    return GearPiece(name, Kind.ITEM, load=1, quantity=load, **kwargs)


def chain_mail(**kwargs):
    return GearPiece("Chain mail", Kind.ARMOR, load=2, armor=ArmorStats(10, 8, rank=2),
                     cost_cp=300, **kwargs)


def sheet_for(attributes=ASPHODEL, **kwargs):
    return compute_sheet(CharacterBuild(level=10, attributes=attributes, **kwargs))


# ---------------------------------------------------------------- capacity


@pytest.mark.parametrize(
    ("attributes", "capacity"),
    [
        (ASPHODEL, 5),
        (Attributes(str=2, end=4), 6),
        (Attributes(), 0),
        (Attributes(str=-1, end=-2), -3),
        (Attributes(str=5, wis=5), 5),  # only STR and END count
    ],
)
def test_capacity_is_str_plus_end(attributes, capacity):
    assert sheet_for(attributes).value("load_capacity") == capacity


# ---------------------------------------------------------------- encumbrance boundaries


@pytest.mark.parametrize(
    ("load", "burden"),
    [
        (0, "none"),
        (4, "none"),
        (5, "none"),  # "bear up to STR + END" - exactly at capacity is fine
        (6, "encumbered"),
        (10, "encumbered"),  # exactly twice is not "more than twice"
        (11, "incapacitated"),
        (20, "incapacitated"),
    ],
)
def test_encumbrance_boundaries(load, burden):
    sheet = sheet_for(gear=(bundle(load),))
    assert sheet.value("load") == load
    assert sheet.value("encumbrance") == burden


def test_encumbered_is_a_derived_status_and_leaves_af_alone():
    sheet = sheet_for(gear=(bundle(6),))
    assert sheet.has_status("encumbered")
    assert "encumbered" in sheet.derived_statuses
    assert sheet.value("af") == 11


def test_overburdened_is_incapacitated_with_af_zero():
    # "Incapacitated: paralyzed, drugged, or overburdened. They lose their Action and AF
    # drops to zero."
    sheet = sheet_for(gear=(bundle(11),))
    assert sheet.has_status("incapacitated")
    assert not sheet.has_status("encumbered")
    assert sheet.value("af") == 0


def test_unburdened_has_no_load_status():
    sheet = sheet_for(gear=(bundle(5),))
    assert not sheet.has_status("encumbered")
    assert not sheet.has_status("incapacitated")


@pytest.mark.parametrize(
    "attributes", [Attributes(str=-1, end=-1), Attributes(), Attributes(str=-3)]
)
def test_carrying_nothing_burdens_no_one(attributes):
    # Team decision: Load 0 or less is "none" even with a capacity of 0 or below.
    assert sheet_for(attributes).value("encumbrance") == "none"


def test_any_load_over_twice_a_zero_capacity_incapacitates():
    assert sheet_for(Attributes(), gear=(bundle(1),)).value("encumbrance") == "incapacitated"


def test_any_load_over_twice_a_negative_capacity_incapacitates():
    # capacity -2, twice that is -4; Load 1 is more than -4.
    sheet = sheet_for(Attributes(str=-1, end=-1), gear=(bundle(1),))
    assert sheet.value("encumbrance") == "incapacitated"


# ---------------------------------------------------------------- what counts


def test_load_adds_quantities():
    gear = (
        GearPiece("Torches (3)", load=1, quantity=2),
        GearPiece("Bedroll", load=1),
        GearPiece("Dagger", Kind.WEAPON, load=0, weapon=WeaponStats(1, "1d6", range=1)),
        GearPiece("Spear", Kind.WEAPON, load=1, weapon=WeaponStats(2, "1d8", range=1)),
    )
    assert sheet_for(gear=gear).value("load") == 4


def test_dropped_items_do_not_count():
    # "Adventurers may ditch bulky items such as backpacks or sacks of gold before a fight
    # to avoid encumbrance."
    gear = (bundle(3, name="Sack of gold", dropped=True), bundle(2))
    assert sheet_for(gear=gear).value("load") == 2


def test_contents_of_a_dropped_container_do_not_count():
    # "If a character trades or drops the container, the player can pass the card to
    # easily transfer the lot."
    gear = (
        GearPiece("Backpack", load=0, key="pack", capacity=4, dropped=True),
        GearPiece("Rations (3 days)", load=1, container="pack"),
        GearPiece("Rope (10m)", load=1, container="pack"),
        GearPiece("Lantern", load=1),
    )
    assert sheet_for(gear=gear).value("load") == 1


def test_contents_of_a_nested_container_inside_a_dropped_one_do_not_count():
    gear = (
        GearPiece("Backpack", load=0, key="pack", capacity=4, dropped=True),
        GearPiece("Sack, small", load=0, key="sack", capacity=3, container="pack"),
        GearPiece("Bag of coins", load=1, container="sack"),
        GearPiece("Lantern", load=1),
    )
    assert sheet_for(gear=gear).value("load") == 1


def test_contents_of_a_carried_container_count():
    gear = (
        GearPiece("Backpack", load=0, key="pack", capacity=4),
        GearPiece("Rations (3 days)", load=1, container="pack"),
        GearPiece("Rope (10m)", load=1, container="pack"),
    )
    assert sheet_for(gear=gear).value("load") == 2


def _pack(contents_load):
    return (
        GearPiece("Backpack", load=0, key="pack", capacity=4),
        GearPiece("Bedroll", load=1, quantity=contents_load, container="pack"),
    )


def test_container_at_its_maximum_is_fine():
    sheet = sheet_for(Attributes(str=5, end=5), gear=_pack(4))
    assert "container_over_capacity" not in {issue.code for issue in sheet.issues}


def test_container_over_its_maximum_is_an_issue():
    sheet = sheet_for(Attributes(str=5, end=5), gear=_pack(5))
    issues = [issue for issue in sheet.issues if issue.code == "container_over_capacity"]
    assert len(issues) == 1
    assert issues[0].field == "gear"
    assert "Backpack" in issues[0].message


# ---------------------------------------------------------------- quality and armor Load


@pytest.mark.parametrize(
    ("quality", "load"),
    [(Quality.STANDARD, 2), (Quality.SUPERIOR, 1), (Quality.INFERIOR, 3)],
)
def test_armor_quality_changes_load(quality, load):
    assert sheet_for(gear=(chain_mail(equipped=True, quality=quality),)).value("load") == load


def test_superior_leather_weighs_nothing():
    leather = GearPiece("Leather", Kind.ARMOR, load=1, armor=ArmorStats(5, 6, rank=1),
                        quality=Quality.SUPERIOR, equipped=True)
    assert sheet_for(gear=(leather,)).value("load") == 0


def test_superior_chain_shirt_counts_as_superior_leather():
    piece = chain_mail(equipped=True, quality=Quality.SUPERIOR, coverage=Coverage.PARTIAL)
    assert sheet_for(gear=(piece,)).value("load") == 0


def test_armor_in_the_pack_still_weighs():
    assert sheet_for(gear=(chain_mail(equipped=False),)).value("load") == 2


@pytest.mark.parametrize("quality", list(Quality))
def test_weapon_quality_does_not_change_load(quality):
    sword = GearPiece("Sword", Kind.WEAPON, load=1, quality=quality,
                      weapon=WeaponStats(2, "1d8"))
    assert sheet_for(gear=(sword,)).value("load") == 1


# ---------------------------------------------------------------- swimming


@pytest.mark.parametrize(("load", "penalty"), [(0, 0), (1, -1), (3, -3), (7, -7)])
def test_swim_penalty_is_minus_one_per_load(load, penalty):
    assert sheet_for(gear=(bundle(load),) if load else ()).value("swim_penalty") == penalty


# ---------------------------------------------------------------- Size and Traits


@pytest.mark.parametrize(
    ("size", "gear_load", "scaled"),
    [
        ("Medium", 5, 5),
        ("Large", 2, 1),  # "a Large one would count 2 Load as 1"
        ("Large", 5, 2),  # rounding down (team decision)
        ("Large", 1, 0),
        ("Small", 3, 6),
        ("Tiny", 1, 3),  # "A Tiny creature would count 1 Load as 3"
        ("Tiny", 2, 6),
        ("Huge", 6, 2),  # "and so on": the Rolls column, 3d
    ],
)
def test_carried_load_scales_with_size(size, gear_load, scaled):
    sheet = sheet_for(Attributes(str=5, end=5), gear=(bundle(gear_load),),
                      traits=(TraitChoice("Size", size),))
    assert sheet.value("load") == scaled


def test_capacity_does_not_scale_with_size():
    sheet = sheet_for(ASPHODEL, traits=(TraitChoice("Size", "Large", load=2),))
    assert sheet.value("load_capacity") == 5


def test_trait_load_is_added_unscaled():
    # "Traits are treated as special equipment ... they inflict or relieve Load"
    sheet = sheet_for(
        Attributes(str=5, end=5),
        gear=(bundle(5),),
        traits=(TraitChoice("Size", "Large", load=2), TraitChoice("Flight", load=2)),
    )
    assert sheet.value("load") == 2 + 2 + 2


def test_drawback_traits_relieve_load():
    sheet = sheet_for(gear=(bundle(3),), traits=(TraitChoice("Slow", load=-1),))
    assert sheet.value("load") == 2


def test_trait_load_alone_can_encumber():
    # Asphodel capacity 5: Flight 2 + Armored heavy 3 + Jump 1 = 6.
    traits = (TraitChoice("Flight", load=2), TraitChoice("Armored", "heavy", load=3),
              TraitChoice("Jump", load=1))
    assert sheet_for(traits=traits).value("encumbrance") == "encumbered"


def test_nested_contents_count_against_the_outer_container():
    # Backpack (max 4) holds a small sack with Load 3 inside plus Load 2 of rope: Load 5.
    gear = (
        GearPiece("Backpack", load=0, key="pack", capacity=4),
        GearPiece("Sack, small", load=0, key="sack", capacity=3, container="pack"),
        GearPiece("Bag of coins", load=1, quantity=3, container="sack"),
        GearPiece("Rope (10m)", load=1, quantity=2, container="pack"),
    )
    sheet = sheet_for(Attributes(str=5, end=5), gear=gear)
    assert sheet.value("load") == 5
    assert "container_over_capacity" in {issue.code for issue in sheet.issues}


def test_dropped_item_no_longer_fills_its_container():
    gear = (
        GearPiece("Backpack", load=0, key="pack", capacity=4),
        GearPiece("Bag of coins", load=1, quantity=3, container="pack"),
        GearPiece("Sack of gold", load=1, quantity=2, container="pack", dropped=True),
    )
    sheet = sheet_for(Attributes(str=5, end=5), gear=gear)
    assert sheet.value("load") == 3
    assert "container_over_capacity" not in {issue.code for issue in sheet.issues}
