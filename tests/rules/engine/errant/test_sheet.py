"""compute_sheet: a worked Errant from the dice to SPD with the backpack on and off, the
data-stat names of issue 14, explanations, and rule problems collected, never raised
(Errant SRD, ER §Creating an Errant; PR §Encumbrance; IT §Speed & Movement)."""

from dataclasses import replace
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine.errant import ErrantBuild, Item, Method, compute_sheet, items_from_kit
from rules.engine.errant.advancement import xp_for_renown
from rules.engine.errant.archetypes import starting_kit
from rules.engine.errant.attributes import Attributes
from rules.engine.errant.sheet import ARCHETYPE_NAMES_BY_KEY, DERIVED_NAMES
from rules.engine.errant.slots import HANDY

DICE = ((3, 3, 3, 3), (2, 2, 2, 2), (4, 4, 3, 3), (1, 2, 3, 4))  # 12, 8, 14, 10


def violent(**changes):
    build = ErrantBuild(dice=DICE, swap=("skill", "mind"), archetype="violent",
                        ancestry="adaptable",
                        items=items_from_kit(starting_kit("violent", "heavy_weapon")))
    return replace(build, **changes)


def test_the_worked_errant():
    sheet = compute_sheet(violent())
    assert sheet.errors == ()
    assert sheet.rolled == Attributes(12, 8, 14, 10)
    assert sheet.attributes == Attributes(12, 14, 8, 10)  # skill and mind swapped
    assert sheet["skill"].explanation == "skill 14 = rolled as mind 14"
    v = sheet.value
    assert (v("hp_max"), v("hp_current"), v("item_slots")) == (12, 12, 12)
    # Kit: 5 common + heavy weapon 2 = 7 slots; phys 12 -> Encumbrance 2 (6 reached, 9 not).
    assert v("slots_filled") == 7 and v("encumbrance") == 2
    # Backpack off: medium weapon in hand 1 + heavy weapon handy 2 + backpack 0 = 3 -> 1.
    assert v("slots_filled_no_backpack") == 3 and v("encumbrance_no_backpack") == 1
    assert (v("spd"), v("movement_dice"), v("shift_distance")) == (12, 3, 30)
    assert (v("spd_no_backpack"), v("movement_dice_no_backpack")) == (13, 3)
    assert v("damage_die") == "D8"
    assert (v("attack_rolls"), v("feats_known"), v("combat_dice")) == (1, 3, 2)
    assert (v("renown"), v("xp"), v("xp_next")) == (1, 0, 2_000)
    assert v("languages_known") == 2 and v("alignment") == "N"
    assert v("lifespan") == 62  # Adaptable 50 + phys 12
    assert sheet["encumbrance"].explanation == (
        "Encumbrance 2 = slots filled 7 (+1 at 3, 6, 9, 12 slots filled, then +1 per whole "
        "slot beyond)")


def test_moving_the_torch_to_a_handy_slot_changes_backpack_off_only():
    build = violent()
    moved = tuple(replace(i, location=HANDY) if i.name == "Torch" else i for i in build.items)
    before, after = compute_sheet(build), compute_sheet(replace(build, items=moved))
    assert after.value("slots_filled") == before.value("slots_filled")
    assert after.value("slots_filled_no_backpack") == F(7, 2)
    assert after["slots_filled_no_backpack"].display == "3½"


def test_exhaustion_fills_slots_and_kills_at_phys():
    sheet = compute_sheet(violent(exhaustion=2))
    assert sheet.value("slots_filled") == 9 and sheet.value("encumbrance") == 3
    assert sheet.value("slots_filled_no_backpack") == 5  # Exhaustion stays with the body
    dead = compute_sheet(violent(exhaustion=12))
    assert "dead" in dead.flags
    assert dead.value("encumbrance") == 4 + 7  # 19 filled: 7 whole slots past 12
    assert "incapable" in dead.flags


def test_derived_has_every_name_of_issue_14():
    sheet = compute_sheet(violent())
    derived = sheet.derived()
    for name in DERIVED_NAMES:
        assert name in derived
    assert {"attack_rolls", "feats_known", "combat_dice"} <= derived.keys()
    assert derived["slots_filled"] == 7


@pytest.mark.parametrize(("archetype", "choice"), [
    ("violent", "small_shield"), ("deviant", "burglars_tools"), ("occult", "grimoires"),
    ("zealot", "relic")])
def test_each_archetype_sheet(archetype, choice):
    sheet = compute_sheet(violent(archetype=archetype,
                                  items=items_from_kit(starting_kit(archetype, choice))))
    for name in ARCHETYPE_NAMES_BY_KEY[archetype]:
        assert sheet.stats[name].value is not None
    assert sheet.derived()["slots_filled"] == 6
    assert not [i for i in sheet.errors if i.field != "proficiencies"]


def test_a_deviant_with_fitness_mastery_is_fleet_footed():
    items = items_from_kit(starting_kit("deviant", "burglars_tools")) + (
        Item("Chest of loot", F(4)),)  # 10 slots on phys 12: Encumbrance 3
    sheet = compute_sheet(violent(archetype="deviant", items=items,
                                  proficiencies=(("fitness", 2), ("stealth", 0))))
    assert sheet.value("encumbrance") == 3
    assert sheet.value("spd") == 14  # not reduced
    assert "proficiency_points_invalid" in [i.code for i in sheet.issues]


def test_the_occult_stabilise_dv_follows_encumbrance():
    sheet = compute_sheet(violent(archetype="occult",
                                  items=items_from_kit(starting_kit("occult", "grimoires"))))
    assert sheet.value("stabilise") == 8
    assert sheet.value("stabilise_dv") == 8 + sheet.value("encumbrance")


def test_renown_and_its_raises():
    sheet = compute_sheet(violent(xp=6_000, renown_raises=(("phys", "skill"),)))
    assert sheet.value("renown") == 3
    assert sheet.attributes == Attributes(13, 15, 8, 10)
    assert sheet.value("hp_max") == 13 and sheet.value("attack_rolls") == 2
    assert [i.code for i in sheet.warnings] == ["renown_raises_pending"]
    over = compute_sheet(violent(renown_raises=(("phys", "skill"),)))
    assert [i.code for i in over.errors] == ["renown_raises_over"]
    assert "renown_raise_same" in [i.code for i in compute_sheet(
        violent(xp=2_000, renown_raises=(("phys", "phys"),))).issues]


def test_trained_attributes_add_to_the_raises():
    """DT §Improving Attributes: each successful attempt is +1, after the Renown raises;
    phys trained raises HP with it."""
    base = compute_sheet(violent(xp=2_000, renown_raises=(("phys", "skill"),)))
    sheet = compute_sheet(violent(xp=2_000, renown_raises=(("phys", "skill"),),
                                  trained=("phys", "pres", "phys")))
    assert sheet.attributes.phys == base.attributes.phys + 2
    assert sheet.attributes.pres == base.attributes.pres + 1
    assert sheet.attributes.skill == base.attributes.skill
    assert sheet.value("hp_max") == base.value("hp_max") + 2
    assert ("trained", 2) in [tuple(t) for t in sheet["phys"].terms]
    assert "DT §Improving Attributes" in sheet["phys"].source


def test_set_by_the_guide():
    sheet = compute_sheet(ErrantBuild(method=Method.GUIDE,
                                      guide_attributes=Attributes(18, 9, 9, 9),
                                      guide_note="inherited phys"))
    assert sheet.errors == () and sheet.value("phys") == 18
    assert sheet["phys"].explanation == "phys 18 = set by the Guide 18"
    assert compute_sheet(ErrantBuild(method=Method.GUIDE,
                                     guide_attributes=Attributes(18, 9, 9, 9))).errors[0].code \
        == "guide_note_missing"


@pytest.mark.parametrize(("changes", "code"), [
    ({"dice": ((5, 1, 1, 1),) * 4}, "dice_not_4d4"),
    ({"dice": ()}, "dice_wrong_count"),
    ({"swap": ("phys", "phys")}, "swap_same_attribute"),
    ({"archetype": "bard"}, "archetype_unknown"),
    ({"ancestry": "robot"}, "ancestry_unknown"),
    ({"extra_languages": ("doors",)}, "languages_over"),
    ({"alignment": "L9"}, "alignment_invalid"),
    ({"age": 11, "minimum_age": 15}, "age_below_minimum"),
    ({"xp": -5}, "xp_negative"),
    ({"coins": -1}, "coins_negative"),
    ({"items": (Item("Sword", F(1), location="hand"), Item("Axe", F(2), location="hand"))},
     "hands_over"),
    ({"items": (Item("Pole", F(5), location="handy"),)}, "handy_over"),
    ({"items": (Item("Rope", F(1, 2)),)}, "no_container"),
    ({"items": (Item("Rope", F(1, 2), location="pocket"),)}, "item_location_invalid"),
])
def test_problems_are_collected_on_their_field(changes, code):
    sheet = compute_sheet(violent(**changes))
    assert code in [i.code for i in sheet.issues]


def test_the_zealot_starts_aligned_with_the_covenant():
    sheet = compute_sheet(violent(archetype="zealot", covenant_alignment="C",
                                  items=items_from_kit(starting_kit("zealot", "relic"))))
    assert sheet.value("alignment") == "C1"
    assert sheet.value("favour") == 10 - 8


def test_coins_fill_slots_where_they_are():
    sheet = compute_sheet(violent(coins=250))  # in the backpack
    assert sheet.value("slots_filled") == F(19, 2)
    assert sheet.value("slots_filled_no_backpack") == 3
    assert sheet.derived()["slots_filled"] == 9.5


@settings(max_examples=50)
@given(st.integers(0, 40), st.integers(0, 10))
def test_spd_is_skill_minus_encumbrance_on_and_off(extra_quarters, exhaustion):
    build = violent(items=violent().items + (Item("Sand", F(1, 4), extra_quarters),),
                    exhaustion=exhaustion)
    sheet = compute_sheet(build)
    for suffix in ("", "_no_backpack"):
        assert sheet.value(f"spd{suffix}") == 14 - sheet.value(f"encumbrance{suffix}")
        assert sheet.value(f"movement_dice{suffix}") == max(0, sheet.value(f"spd{suffix}") // 4)
    assert sheet.value("encumbrance_no_backpack") <= sheet.value("encumbrance")


faces = st.lists(st.one_of(st.integers(-3, 9), st.just("x")), min_size=0, max_size=6)


@settings(max_examples=80)
@given(st.lists(faces, min_size=0, max_size=5),
       st.one_of(st.none(), st.tuples(st.sampled_from(["phys", "skill", "mind", "pres", "x"]),
                                      st.sampled_from(["phys", "skill", "mind", "pres"]))),
       st.integers(-10, 10**9), st.integers(-5, 10**6), st.integers(-5, 10**6),
       st.sampled_from(["violent", "deviant", "occult", "zealot", "bard"]),
       st.lists(st.tuples(st.sampled_from(["phys", "skill", "mind", "pres", "x"]),
                          st.sampled_from(["phys", "skill", "mind", "pres"])), max_size=12))
def test_hostile_builds_never_raise(dice, swap, xp, exhaustion, coins, archetype, raises):
    sheet = compute_sheet(ErrantBuild(dice=tuple(tuple(f) for f in dice), swap=swap, xp=xp,
                                      exhaustion=exhaustion, coins=coins, archetype=archetype,
                                      renown_raises=tuple(raises)))
    assert set(DERIVED_NAMES) <= sheet.stats.keys()
    sheet.derived()
    if dice and any(not isinstance(f, int) or not 1 <= f <= 4 for fs in dice for f in fs):
        assert sheet.errors


def test_bad_item_lines_and_method_are_reported_not_raised():
    sheet = compute_sheet(violent(items=violent().items + (Item("Void", F(-3)),
                                                           Item("None", F(1), quantity=0)),
                                  method="bogus"))
    codes = [i.code for i in sheet.issues]
    assert "item_size_invalid" in codes and "method_invalid" in codes
    assert sheet.value("slots_filled") == 7  # the bad lines are left out


def test_item_lines_show_depletion_supply_and_quality():
    sheet = compute_sheet(violent(items=violent().items + (
        Item("Sword +1", F(1), location="handy", kind="weapon", quality=3, magic_bonus=1),
        Item("Broken axe", F(1), kind="weapon", quality=0),
        Item("Helmet +2", F(2), location="worn", kind="armour", quality=3, blocks=4,
             magic_bonus=2))))
    lines = {line.item.name: line for line in sheet.item_lines}
    assert lines["Torch"].supply_to_restore == 2  # 1/2 slot: 2 Supply (PR §Supply)
    assert lines["Rations"].supply_to_restore == 1
    assert lines["Bedroll"].supply_to_restore is None  # nothing to deplete
    assert (lines["Medium weapon"].quality_label, lines["Medium weapon"].destroyed) == \
        ("average", False)
    assert lines["Broken axe"].quality_label == "destroyed"
    assert lines["Sword +1"].true_strikes == 1 and lines["Helmet +2"].deflects == 2
    assert lines["Supply"].total == 1
    assert sheet.value("supply") == 4


def test_hp_now_as_stored_or_as_lost():
    """HP now may be given as it is (the app stores it; None: full) or as HP lost; above
    phys is a problem on the field, and HP now is never below 0 (ER §Record Other
    Information)."""
    assert compute_sheet(violent(hp_current=None)).value("hp_current") == 12
    sheet = compute_sheet(violent(hp_current=5))
    assert sheet.value("hp_current") == 5 and sheet["hp_current"].explanation == \
        "HP now 5 = HP 12 - lost 7"
    assert compute_sheet(violent(hp_current=0)).value("hp_current") == 0
    assert compute_sheet(violent(hp_lost=3)).value("hp_current") == 9
    over = compute_sheet(violent(hp_current=13))
    assert [(i.code, i.field) for i in over.errors] == [("hp_over_max", "hp_current")]
    assert over.value("hp_current") == 12
    # A Renown raise of phys raises full HP with it.
    raised = compute_sheet(violent(hp_current=12, xp=2_000, renown_raises=(("phys", "skill"),)))
    assert (raised.value("hp_max"), raised.value("hp_current")) == (13, 12)


def test_a_deviant_with_lore_mastery_has_sorcery_depletion_1():
    """ER §The Deviant, Lore mastery (AMB-E-LORE): a Sorcery Depletion row of 1 on the
    sheet and in the export, at Renown 7 too; expertise (1 point) gives none."""
    items = items_from_kit(starting_kit("deviant", "burglars_tools"))
    master = compute_sheet(violent(archetype="deviant", items=items, xp=xp_for_renown(7),
                                   proficiencies=(("lore", 2), ("stealth", 2),
                                                  ("fitness", 2), ("awareness", 2))))
    assert master.value("renown") == 7 and master.value("sorcery_depletion") == 1
    assert master["sorcery_depletion"].label == "Sorcery Depletion"
    assert master.names()[-4:] == ("proficiency_points", "jettons", "sneak_attack_dice",
                                   "sorcery_depletion")
    assert master.value("sneak_attack_dice") == 3  # Stealth mastery: Assassin
    assert master.derived()["sorcery_depletion"] == 1
    expert = compute_sheet(violent(archetype="deviant", items=items,
                                   proficiencies=(("lore", 1), ("stealth", 1))))
    assert "sorcery_depletion" not in expert.stats
    assert "sorcery_depletion" not in expert.derived()
    occult = compute_sheet(violent(archetype="occult", xp=xp_for_renown(7),
                                   proficiencies=(("lore", 2),)))
    assert occult.value("sorcery_depletion") == 3  # an Occult's own, not the mastery's


def test_pack_rat_and_beast_master_rows_on_a_deviants_sheet():
    """ER §The Deviant: Pack Rat (Sleight of hand mastery) retrieves from any slot as from a
    handy one, a free action (AMB-E-PACKRAT); Beast Master (Survival mastery) has an animal
    companion with HP and SPD equal to skill and a D6 (AMB-E-BEAST); Assassin (Stealth
    mastery) rolls three sneak attack dice. Expertise gives none of them."""
    items = items_from_kit(starting_kit("deviant", "burglars_tools"))
    master = compute_sheet(violent(archetype="deviant", items=items, proficiencies=(
        ("sleight_of_hand", 2), ("survival", 2))))
    skill = master.value("skill")
    assert master.value("retrieve") == "free action"
    assert "as if it were a handy slot" in master["retrieve"].explanation
    assert (master.value("companion_hp"), master.value("companion_spd"),
            master.value("companion_damage_die")) == (skill, skill, "D6")
    assert master.value("sneak_attack_dice") == 2
    assert master.names()[-5:] == ("sneak_attack_dice", "retrieve", "companion_hp",
                                   "companion_spd", "companion_damage_die")
    assert master.derived()["companion_hp"] == skill
    expert = compute_sheet(violent(archetype="deviant", items=items, proficiencies=(
        ("sleight_of_hand", 1), ("survival", 1))))
    for name in ("retrieve", "companion_hp", "companion_spd", "companion_damage_die"):
        assert name not in expert.stats and name not in expert.derived()
    assert "sneak_attack_dice" not in compute_sheet(violent()).derived()
