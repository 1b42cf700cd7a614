"""Travel Turns (TT; next-games.md E41-E42, AMB-E28, AMB-E142..E145)."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.errant import travel as T
from rules.engine.errant.data.turns_tables import TRAVEL_ACTIONS, TRAVEL_PACE


def test_standard_pace():
    r = T.travel_pace()
    assert str(r.pace) == "1/1" and r.navigation_dv == 0


def test_pace_adds_numerators_and_denominators_unreduced():
    """AMB-E28: 2/2 is kept, not 1/1."""
    r = T.travel_pace(["road", "rough"])
    assert (r.pace.locations, r.pace.turns) == (2, 2) and r.pace.rate == 1
    assert r.cannot_get_lost and r.navigation_dv == 2


def test_swamp_at_night_in_a_storm():
    r = T.travel_pace(["wild", "night", "severe", "slow"])
    assert str(r.pace) == "1/7"
    assert r.navigation_dv == 12 and r.positive_dice == 1 and r.detects
    assert r.exhaustion_unless_camping


def test_quick_adds_a_negative_die_and_overlooks():
    r = T.travel_pace(["quick", "mounted"])
    assert str(r.pace) == "3/1" and r.negative_dice == 1 and r.overlooks


@pytest.mark.parametrize("keys", [["slow", "quick"], ["teleport"], ["road", "road"]])
def test_bad_pace(keys):
    with pytest.raises(ValueError):
        T.travel_pace(keys)


@given(st.lists(st.sampled_from(sorted(TRAVEL_PACE)), unique=True))
def test_pace_is_additive(keys):
    if "slow" in keys and "quick" in keys:
        return
    r = T.travel_pace(keys)
    assert r.pace.locations == 1 + sum(TRAVEL_PACE[k].locations for k in keys)
    assert r.pace.turns == 1 + sum(TRAVEL_PACE[k].turns for k in keys)


def test_day_and_night():
    """AMB-E142: night from the fourth Turn of six."""
    assert [T.is_night(t) for t in range(1, 7)] == [False] * 3 + [True] * 3
    assert T.day_and_turn(1) == (1, 1) and T.day_and_turn(6) == (1, 6)
    assert T.day_and_turn(10) == (2, 4) and T.is_night(T.day_and_turn(10)[1])
    for bad in (0, 7):
        with pytest.raises(ValueError):
            T.is_night(bad)
    with pytest.raises(ValueError):
        T.day_and_turn(0)


def test_over_marching():
    assert [T.over_march_exhaustion(n) for n in range(7)] == [0, 0, 0, 0, 0, 1, 2]


def test_navigation_dv_and_secret():
    pace = T.travel_pace(["rough", "night"])
    nav = T.navigation_dv(6, pace, oriented=True, misleading=3)
    assert nav.dv == 6 + 2 + 4 - 4 + 3 and nav.secret and nav.needed
    assert ("Orient", -4) in nav.terms
    assert T.navigation_dv(6, T.travel_pace(["detailed_map"])).dv == 2
    with pytest.raises(ValueError):
        T.navigation_dv(6, misleading=1)


def test_road_or_landmark_never_gets_lost():
    nav = T.navigation_dv(10, T.travel_pace(["road"]))
    assert not nav.needed and T.p_lost(5, nav) == 0
    assert T.p_lost(5, T.navigation_dv(10, landmark=True)) == 0


def test_p_lost_is_a_failed_check():
    nav = T.navigation_dv(4)
    assert T.p_lost(10, nav) == Fraction(7, 10)


def test_lost_direction_goes_round_the_hex():
    assert [T.lost_direction(d) for d in range(1, 7)] == ["N", "NE", "SE", "S", "SW", "NW"]
    with pytest.raises(ValueError):
        T.lost_direction(7)


def test_forage():
    assert T.forage_expected_supply([10, 14], 4) == 2 * Fraction(6, 20) + 2 * Fraction(10, 20)


def test_watch():
    """AMB-E143: two or more watchers, no Exhaustion."""
    assert T.watch(1) == T.Watch(1, False)
    assert T.watch(2) == T.Watch(0, False) and T.watch(3) == T.Watch(0, False)
    assert T.watch(0).fives_are_ones
    assert T.watch(2, open_campsite=True).fives_are_ones
    with pytest.raises(ValueError):
        T.watch(-1)


def test_nights_rest():
    assert not T.nights_rest(1).full
    full = T.nights_rest(2)
    assert full.full and full.exhaustion_removed == 1 and full.heal_with_kit
    assert not full.heal_without_kit and T.nights_rest(2, safe_bed=True).heal_without_kit
    assert T.nights_rest(1, beautiful_day=True).full


def test_uncomfortable_campsite_keeps_other_resources():
    """AMB-E144."""
    r = T.nights_rest(2, uncomfortable=True)
    assert r.full and r.exhaustion_removed == 0 and not r.heal_with_kit and r.resources


def test_deplete_and_starving():
    assert T.deplete_member(True, 0) == T.Deplete("ration", 0)
    assert T.deplete_member(False, 3) == T.Deplete("supply", 0)
    assert T.deplete_member(False, 0) == T.Deplete("starving", 1)
    assert T.deplete_member(True, 2, plentiful=True).outcome == "supply"
    # AMB-E145: plentiful food but no Supply left: the ration is eaten, nobody starves
    assert T.deplete_member(True, 0, plentiful=True).outcome == "ration"


def test_weather_exhaustion():
    assert T.weather_exhaustion("fair", sheltered=False) == 0
    assert T.weather_exhaustion("inclement", sheltered=False, save_passed=False) == 1
    assert T.weather_exhaustion("inclement", sheltered=False, save_passed=True) == 0
    assert T.weather_exhaustion("inclement", sheltered=True) == 0
    assert T.weather_exhaustion("severe", sheltered=False) == 1
    assert T.weather_exhaustion("severe", sheltered=False, extreme_climate=True,
                                outfitted=False) == 2
    with pytest.raises(ValueError):
        T.weather_exhaustion("inclement", sheltered=False)
    with pytest.raises(ValueError):
        T.weather_exhaustion("sunny", sheltered=False)


def test_mounts():
    assert T.mount_exhaustion(1) == 10
    assert T.rider_slots(10) == 30


def test_actions():
    assert T.action("forage").navigation_check == "each Errant"
    assert T.action("orient").navigation_check == ""
    assert {"peregrinate", "explore", "orient", "forage", "make_camp", "take_watch",
            "sleep"} == set(TRAVEL_ACTIONS)
    with pytest.raises(ValueError):
        T.action("teleport")


def test_march_ledger_step_matches_the_day_total():
    for n in range(9):
        assert sum(T.march_exhaustion_this_turn(i) for i in range(n)) == T.over_march_exhaustion(n)
    with pytest.raises(ValueError):
        T.march_exhaustion_this_turn(-1)


def test_pace_dice_agree_with_the_event_die_sources():
    from rules.engine.errant import event_die as E
    for pace in ("slow", "quick"):
        r = T.travel_pace([pace])
        d = E.event_dice("travel", pace=pace)
        assert (r.positive_dice, r.negative_dice) == (d.positive, d.negative)


def test_starvation():
    """AMB-E154: the first starving Deplete, then one per Deplete and per day."""
    assert T.starvation_exhaustion(1, 0) == 1
    assert T.starvation_exhaustion(2, 1) == 3
    with pytest.raises(ValueError):
        T.starvation_exhaustion(-1, 0)


def test_disease_and_eating_monsters():
    assert T.disease_dv(3, 10) == 7 and T.disease_dv(10, 10) == 0
    with pytest.raises(ValueError):
        T.disease_dv(11, 10)
    assert T.eating_monster_dv(6, clean_water=True, fire=True, spices=True) == 3
    assert T.eating_monster_dv(6, cooking_gear=True, rushed=True) == 9


def test_voyage_odds():
    assert T.voyage_odds() == {"arrives": Fraction(1, 6), "complication": Fraction(5, 12),
                               "fails": Fraction(5, 12)}
    assert T.voyage_odds(3) == {"arrives": Fraction(7, 12), "complication": Fraction(1, 3),
                                "fails": Fraction(1, 12)}
    with pytest.raises(ValueError):
        T.voyage_odds(4)


def test_wind_roll():
    assert [T.wind(t) for t in (2, 3, 5, 6, 8, 9, 11, 12)] == [
        "becalmed", "weak", "weak", "normal", "normal", "fair", "fair", "strong"]
    with pytest.raises(ValueError):
        T.wind(1)


def test_marine_pace():
    """AMB-E155: wind rows change sailing Pace only; the river's flow changes both."""
    assert str(T.marine_pace("galley", sailing=True, conditions=["fair"])) == "4/1"
    assert str(T.marine_pace("galley", sailing=False, conditions=["fair"])) == "2/1"
    assert str(T.marine_pace("raft", sailing=False, conditions=["upriver"])) == "1/3"
    assert str(T.marine_pace("warship", sailing=True, conditions=["storms", "water_damaged"])
               ) == "6/2"
    assert T.marine_pace("sailing_ship", sailing=True, conditions=["becalmed"]) is None
    assert T.marine_pace("canoe", sailing=True) is None
    for bad in ({"vessel": "zeppelin", "sailing": True},
                {"vessel": "canoe", "sailing": False, "conditions": ["tsunami"]}):
        with pytest.raises(ValueError):
            T.marine_pace(**bad)


def test_marine_chances():
    assert T.p_gale_damage("longship") == Fraction(1, 3)
    assert T.p_gale_damage("warship") == Fraction(1, 6)
    assert T.p_storm_sinking(rowed=True) == Fraction(2, 3)
    assert T.p_storm_sinking(rowed=False) == 0


def test_turn_conditions_from_the_day_and_the_weather():
    from rules.engine.errant import weather as W
    storm = W.Weather("summer", 0)
    keys = T.turn_conditions(5, storm.pace_key, "wild")
    assert keys == ["wild", "night", "severe"]
    assert str(T.travel_pace([*keys, "road"]).pace) == "2/6"
    assert T.turn_conditions(1, W.start("spring").pace_key) == []
    for bad in ({"weather_pace_key": "sunny"}, {"terrain": "ocean"}):
        with pytest.raises(ValueError):
            T.turn_conditions(1, **bad)


def test_mount_load_and_the_mounted_pace_row():
    from rules.engine.errant.data.turns_tables import MOUNTS
    horse = MOUNTS["horse_riding"]
    load = T.mount_load(horse.slots, [10], cargo=45)
    assert load == 75 and not T.mount_overloaded(horse.slots, load)
    heavy = T.mount_load(horse.slots, [10, 10 + Fraction(1, 2)])
    assert heavy == Fraction(121, 2) and not T.mount_overloaded(horse.slots, heavy)
    assert T.mount_overloaded(MOUNTS["horse_war"].slots, heavy)
    assert T.mounted_pace(True, False) and not T.mounted_pace(True, True)
    assert not T.mounted_pace(False, False)
    with pytest.raises(ValueError):
        T.mount_load(80, [-1])


@given(st.integers(1, 20), st.integers(0, 20),
       st.lists(st.sampled_from(["rough", "wild", "night", "inclement", "severe",
                                 "detailed_map", "general_map"]), unique=True))
def test_harder_navigation_never_lowers_the_chance_of_getting_lost(attribute, base, keys):
    easy = T.navigation_dv(base)
    hard = T.navigation_dv(base, T.travel_pace(keys))
    assert 0 <= T.p_lost(attribute, hard) <= 1
    if hard.dv >= easy.dv:
        assert T.p_lost(attribute, hard) >= T.p_lost(attribute, easy)
