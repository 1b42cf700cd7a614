"""compute_sheet: Viktor's sheet (Characters > Example Character, Viktor.png as read in
next-games.md §1.2 M14) and the rules behind each derived number."""

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.mettle.attributes import Attributes, Method
from rules.engine.mettle.damage import deprivation_modifiers, fall_soak
from rules.engine.mettle.data import ARMOR, ATTRIBUTE_KEYS, WEAPON_BY_NAME
from rules.engine.mettle.sheet import (
    DERIVED_NAMES,
    ArmorPenaltyReading,
    CharacterBuild,
    Item,
    Purchase,
    compute_sheet,
    credit_afford,
    credit_rank,
    encumbrance,
    price_digits,
    purchase,
)

ARMOR_BY_NAME = {armor.name: armor for armor in ARMOR}
VIKTOR = CharacterBuild(
    attributes=Attributes(concept=5, frame=3, motive=4, nature=3, poise=2),
    method=Method.ARRAY,
    descriptors=(("concept", "Itinerant gambler"), ("frame", "Svelte but wiry"),
                 ("motive", "Competition"), ("nature", "Curmudgeon"),
                 ("poise", "Old leg injury")),
    backstories=("Master Fencer who Lost his Dream after a Leg Injury",
                 "Struggling Baltimorean Bachelor (English)",
                 "Raised by Russian Immigrants (Russian)"),
    contacts=("Oleg", "Samuelson"),
    credit=2,
    items=(Item("Brown suit"), Item("Deck of cards"), Item("Pocket knife", load=0),
           Item("Pocket watch & fob"), Item("Sword cane", weapon=WEAPON_BY_NAME["Sword"])),
)


def test_viktors_sheet():
    sheet = compute_sheet(VIKTOR)
    assert sheet.issues == ()
    expected = {
        "concept": 5, "frame": 3, "motive": 4, "nature": 3, "poise": 2,
        "mettle_max": 9, "mettle_current": 9, "soak": 3, "load": 1, "load_capacity": 3,
        "encumbrance": "none", "backstories_max": 5, "contacts_max": 2, "credit": 2,
        "credit_afford": 99, "credit_rank": "Struggling", "pool_total": 22,
        "freestyle_cost": 22, "points_left": None,
        "raise_cost_concept": 10, "raise_cost_frame": 5, "raise_cost_motive": 5,
        "raise_cost_nature": 5, "raise_cost_poise": 5,
        "xp_earned": 0, "xp_spent": 0, "xp_left": 0,
    }
    assert sheet.derived() == expected
    # The Sword Cane: Hit 5 (NATURE 3 + Sword +2D), DM 5 (FRAME 3 + 2).
    (cane,) = sheet.weapons
    assert (cane.name, cane.pool, cane.dm) == ("Sword cane", 5, 5)
    assert cane.pool_explanation == "Attack 5D = NATURE 3 + Sword Hit 2D"
    assert cane.dm_explanation == "DM 5 = FRAME 3 + Sword 2"


def test_explanations_use_the_characters_values():
    sheet = compute_sheet(VIKTOR)
    assert sheet["mettle_max"].explanation == (
        "Mettle 9 = MOTIVE 4 + highest (CONCEPT) 5 (unmodified pools)")
    assert sheet["backstories_max"].explanation == (
        "Backstories 5 = highest (CONCEPT) 5 (3 written, 2 open)")
    assert sheet["raise_cost_concept"].explanation == (
        "XP to raise CONCEPT 10 = 2 x CONCEPT (the highest) 5 (5 -> 6)")
    assert sheet["pool_total"].explanation.startswith(
        "Pool total 22 = 2 x CONCEPT 5 + FRAME 3 + MOTIVE 4 + NATURE 3 + POISE 2")
    assert "Old leg injury" in sheet["poise"].explanation


def test_every_derived_name_is_on_the_sheet():
    sheet = compute_sheet(VIKTOR)
    assert set(DERIVED_NAMES) <= set(sheet.stats)
    assert len(set(DERIVED_NAMES)) == len(DERIVED_NAMES)


def test_motive_as_the_highest_counts_twice():
    # AMB-M4.
    sheet = compute_sheet(CharacterBuild(attributes=Attributes(4, 3, 5, 3, 2)))
    assert sheet.value("mettle_max") == 10


@given(st.builds(Attributes, *[st.integers(min_value=1, max_value=8)] * 5))
def test_mettle_max_is_motive_plus_highest(attrs):
    sheet = compute_sheet(CharacterBuild(attributes=attrs, method=Method.FREESTYLE,
                                         budget=100))
    assert sheet.value("mettle_max") == attrs.motive + max(attrs.values())
    assert sheet.value("backstories_max") == max(attrs.values())


def test_mettle_uses_the_unmodified_pools():
    sheet = compute_sheet(replace(VIKTOR, modifiers=(("concept", 2), ("motive", -1))))
    assert sheet.value("mettle_max") == 9
    assert sheet["concept"].display == "5(7)"
    assert sheet["motive"].display == "4(3)"


def test_current_mettle_over_the_maximum():
    sheet = compute_sheet(CharacterBuild(mettle_current=12))
    assert [(i.code, i.field) for i in sheet.errors] == [("mettle_over_maximum",
                                                          "mettle_current")]


@pytest.mark.parametrize(("load", "frame", "state"), [
    (0, 3, "none"), (3, 3, "none"), (4, 3, "encumbered"), (6, 3, "encumbered"),
    (7, 3, "incapacitated"),
])
def test_encumbrance(load, frame, state):
    # AMB-M5: exactly twice FRAME is Encumbered; over it, Incapacitated.
    assert encumbrance(load, frame) == state


def with_items(*items, **changes):
    return CharacterBuild(**{"attributes": Attributes(5, 3, 4, 3, 2), "items": items,
                             **changes})


def test_load_and_incapacitated_zero_poise():
    sheet = compute_sheet(with_items(Item("Chest", load=3), Item("Body, Medium", load=4)))
    assert sheet.value("load") == 7
    assert sheet.value("encumbrance") == "incapacitated"
    assert "incapacitated" in sheet.statuses
    assert sheet["poise"].display == "2(0)"


def test_dropped_items_carry_no_load():
    sheet = compute_sheet(with_items(Item("Chest", load=3, dropped=True),
                                     Item("Large pack", load=2, quantity=2)))
    assert sheet.value("load") == 4 and sheet.value("encumbrance") == "encumbered"
    assert "Large pack x2 4" in sheet["load"].explanation


def test_armour_adds_to_soak():
    chain = Item("Chain shirt", armor=ARMOR_BY_NAME["Medium (Chain)"], worn=True)
    sheet = compute_sheet(with_items(chain))
    assert sheet.value("soak") == 5
    assert sheet["soak"].explanation == "Soak 5 = FRAME 3 + Chain shirt 2"
    carried = compute_sheet(with_items(Item("Chain shirt", armor=chain.armor)))
    assert carried.value("soak") == 3 and carried.value("load") == 2


def test_armour_burden_lowers_poise_by_the_load_over_frame():
    # RS §Armor, AMB-M6: Plate (Load 3) and a large pack (2) on FRAME 3: POISE -2.
    plate = Item("Plate", armor=ARMOR_BY_NAME["Heavy (Plate)"], worn=True)
    build = with_items(plate, Item("Large pack", load=2),
                       attributes=Attributes(5, 3, 3, 3, 4), method=Method.FREESTYLE)
    sheet = compute_sheet(build)
    assert sheet.value("poise") == 4 and sheet.modified["poise"] == 2
    assert sheet["poise"].display == "4(2)"
    # The other reading counts the armour's own Load only: 3 is not over FRAME 3.
    armour_only = compute_sheet(replace(
        build, armor_penalty_reading=ArmorPenaltyReading.ARMOR_LOAD))
    assert armour_only["poise"].display == "4"
    # Without armour worn, a heavy load encumbers but does not lower POISE.
    unworn = compute_sheet(with_items(Item("Plate", armor=plate.armor), Item("Pack", load=2),
                                      attributes=Attributes(5, 3, 3, 3, 4),
                                      method=Method.FREESTYLE))
    assert unworn["poise"].display == "4" and unworn.value("encumbrance") == "encumbered"


def test_one_suit_of_armour():
    leather = Item("Leather", armor=ARMOR_BY_NAME["Light (Leather)"], worn=True)
    riot = Item("Riot gear", armor=ARMOR_BY_NAME["Riot gear"], worn=True)
    sheet = compute_sheet(with_items(leather, riot))
    assert sheet.value("soak") == 6
    assert "armor_multiple_worn" in {i.code for i in sheet.errors}


def test_fallen_is_zero_poise_and_staggered_a_die_penalty():
    fallen = compute_sheet(CharacterBuild(statuses=frozenset({"fallen"}), mettle_current=0))
    assert fallen.modified["poise"] == 0
    staggered = compute_sheet(CharacterBuild(statuses=frozenset({"staggered"}),
                                             mettle_current=-2))
    assert staggered.value("check_penalty") == 2


def test_a_concept_that_covers_the_weapon_replaces_nature_if_higher():
    sword = WEAPON_BY_NAME["Sword"]
    sheet = compute_sheet(with_items(Item("Rapier", weapon=sword, concept_applies=True),
                                     Item("Revolver", weapon=WEAPON_BY_NAME["Revolver"])))
    rapier, revolver = sheet.weapons
    assert rapier.pool == 7 and rapier.terms_pool[0].label == "CONCEPT"
    assert (revolver.pool, revolver.dm) == (3, 6)  # NATURE 3, flat DM 6
    assert sheet.value("load") == 1  # a Sword is Load 1, a Revolver 0


def test_backstories_at_most_the_highest():
    sheet = compute_sheet(CharacterBuild(backstories=("a (English)",) * 6))
    assert [(i.code, i.field) for i in sheet.errors] == [("backstories_over_maximum",
                                                          "backstories")]
    blank = compute_sheet(CharacterBuild(backstories=("", " ")))
    assert blank.issues == ()  # Backstories may be left blank


def test_a_backstory_names_the_native_language():
    sheet = compute_sheet(CharacterBuild(backstories=("Jiu-Jitsu practitioner",)))
    assert [(i.code, i.severity) for i in sheet.issues] == [("backstory_language_missing",
                                                             "warning")]


def test_contacts_at_most_credit():
    sheet = compute_sheet(CharacterBuild(credit=1, contacts=("Oleg", "Samuelson")))
    assert [(i.code, i.field) for i in sheet.errors] == [("contacts_over_maximum",
                                                          "contacts")]


@pytest.mark.parametrize(("credit", "afford", "rank"), [
    (0, 0, None), (1, 9, "Needy"), (2, 99, "Struggling"), (3, 999, "Comfortable"),
    (4, 9_999, "Prosperous"), (5, 99_999, "Affluent"), (6, 999_999, "Rich"),
])
def test_credit_table(credit, afford, rank):
    assert credit_afford(credit) == afford
    assert credit_rank(credit) == rank


def test_credit_lost_temporarily():
    sheet = compute_sheet(CharacterBuild(credit=3, credit_lost=1, contacts=("a", "b", "c")))
    assert (sheet.value("credit"), sheet.value("credit_afford")) == (2, 99)
    assert sheet.value("contacts_max") == 3  # Contacts follow the assigned Credit
    assert sheet.errors == ()


@pytest.mark.parametrize(("credit", "cost", "verdict"), [
    (2, 1, Purchase.AFFORDABLE), (2, 2, Purchase.AFFORDABLE), (2, 3, Purchase.COSTS_CREDIT),
    (2, 4, Purchase.REFUSED),  # AMB-M14
])
def test_purchases(credit, cost, verdict):
    assert purchase(credit, cost) == verdict


def test_price_digits():
    assert [price_digits(p) for p in (9, 99, 999, 1000)] == [1, 2, 3, 4]


def test_freestyle_points_left_and_the_issue_message():
    sheet = compute_sheet(CharacterBuild(attributes=Attributes(3, 2, 6, 1, 1),
                                         method=Method.FREESTYLE))
    assert sheet.value("freestyle_cost") == 19 and sheet.value("points_left") == 3
    (over,) = sheet.issues_for("motive")
    assert over.message == "MOTIVE 6 costs 12, over half of the 22 points."


@given(st.sampled_from(ATTRIBUTE_KEYS))
def test_a_modifier_shows_unmodified_then_modified(key):
    sheet = compute_sheet(CharacterBuild(modifiers=((key, 1),)))
    value = sheet.value(key)
    assert sheet[key].display == f"{value}({value + 1})"


def test_mettle_at_zero_is_fallen_unless_staggered():
    fallen = compute_sheet(CharacterBuild(mettle_current=0))
    assert "fallen" in fallen.statuses and fallen.modified["poise"] == 0
    staggered = compute_sheet(CharacterBuild(mettle_current=-1,
                                             statuses=frozenset({"staggered"})))
    assert "fallen" not in staggered.statuses
    assert staggered.modified["poise"] == staggered.value("poise")


def test_afflictions_lower_the_maximum():
    sheet = compute_sheet(replace(VIKTOR, mettle_max_lost=3))
    assert sheet.value("mettle_max") == 6 and sheet.value("mettle_current") == 6
    assert sheet["mettle_max"].explanation == (
        "Mettle 6 = MOTIVE 4 + highest (CONCEPT) 5 + lost to Afflictions -3 "
        "(unmodified pools)")


def test_afflictions_taking_the_maximum_to_zero_fell_a_character_at_maximum():
    # Scenery > Affliction: "if it lowers Mettle to 0 or below they still become Staggered
    # or Fallen"; a blank current Mettle is the maximum, 9 - 9 = 0 (AMB-M-STAT-2).
    build = CharacterBuild(attributes=Attributes(5, 3, 4, 3, 2), mettle_max_lost=9)
    sheet = compute_sheet(build)
    assert sheet.value("mettle_max") == 0 and sheet.value("mettle_current") == 0
    assert sheet.statuses == ("fallen",)
    assert sheet.modified["poise"] == 0
    assert sheet.statuses == compute_sheet(replace(build, mettle_current=0)).statuses


def test_afflictions_below_zero_at_maximum_may_be_staggered():
    build = CharacterBuild(attributes=Attributes(5, 3, 4, 3, 2), mettle_max_lost=11,
                           statuses=frozenset({"staggered"}))
    sheet = compute_sheet(build)
    assert sheet.statuses == ("staggered",) and sheet.modified["poise"] == 2
    assert sheet.value("check_penalty") == 2  # -1D per point of negative Mettle -2
    assert not [issue for issue in sheet.issues if issue.code == "staggered_above_zero"]


def test_afflictions_leaving_mettle_above_zero_at_maximum_do_not_fell():
    sheet = compute_sheet(CharacterBuild(attributes=Attributes(5, 3, 4, 3, 2),
                                         mettle_max_lost=8))
    assert sheet.value("mettle_current") == 1
    assert sheet.statuses == () and sheet.modified["poise"] == 2


def test_a_fall_soaks_with_the_poise_armour_and_fallen_leave():
    # Scenery > Falls: POISE instead of FRAME; RS §Armor: plate's Load 3 over FRAME 2 lowers
    # POISE 3 to 2; plate Soak 3 still counts: 2 + 3 = 5 (the unlowered POISE gave 6).
    plate = Item("Plate", armor=ARMOR_BY_NAME["Heavy (Plate)"], worn=True)
    build = CharacterBuild(attributes=Attributes(concept=5, frame=2, motive=4, nature=3,
                                                 poise=3), items=(plate,))
    sheet = compute_sheet(build)
    assert sheet.modified["poise"] == 2 and sheet.armor.soak == 3
    assert fall_soak(sheet.modified["poise"], sheet.armor.soak) == 5
    # Fallen: POISE 0 (EN §Status Effects), the armour only.
    fallen = compute_sheet(replace(build, mettle_current=0))
    assert fallen.statuses == ("encumbered", "fallen")  # Load 3 over FRAME 2
    assert fall_soak(fallen.modified["poise"], fallen.armor.soak) == 3
    assert fall_soak(2) == 2  # no armour


def test_no_credit_to_lose():
    assert purchase(0, 1) == Purchase.REFUSED


def test_deprivation_lowers_the_modified_pools():
    sheet = compute_sheet(replace(VIKTOR, modifiers=deprivation_modifiers(weeks_without_food=1)))
    assert sheet["frame"].display == "3(2)"
    assert sheet.value("soak") == 2 and sheet.value("load_capacity") == 2
    assert sheet.value("mettle_max") == 9  # Mettle uses the unmodified pools
