"""Travel Turns at the table (campaigns/systems/errant/travel.py): the day counted, Pace
and the secret navigation DV, getting lost, each Event Die result applied (rations and
Supply, Rest, the weather), watches and a night's Rest, Forage, over-marching, Exhaustion
from the weather, the other Turns' Burn, double clicks, stale pages and the undo."""

from fractions import Fraction

import pytest

from campaigns.services import CampaignError
from campaigns.systems.errant import travel, turns
from campaigns.systems.errant.turn_models import ErrantTurn
from characters.systems.errant.builds import sheet_for
from characters.systems.errant.inventory import carried_lines
from characters.systems.errant.models import ErrantCharacter
from rules.engine.errant import checks, event_die
from rules.engine.errant import travel as rules
from rules.engine.errant.data.turns_tables import WEATHER_TABLE

pytestmark = pytest.mark.django_db


class Dice:
    """A scripted rng: each randint(lo, hi) takes the next face (checked in range)."""

    def __init__(self, *faces):
        self.faces = list(faces)

    def randint(self, lo, hi):
        face = self.faces.pop(0)
        assert lo <= face <= hi, (face, lo, hi)
        return face


def plan(**kw):
    return travel.TravelPlan(**kw)


def run(campaign, guide, *faces, **kw):
    return travel.run(campaign=campaign, plan=plan(**kw), by=guide, rng=Dice(*faces))


def fresh(errant):
    return ErrantCharacter.objects.get(pk=errant.pk)


def line(errant, name):
    return next(x for x in carried_lines(errant) if x.name == name)


def test_six_turns_a_day_night_from_the_fourth_then_day_two(campaign, guide, wren):
    done = [run(campaign, guide, 6, action="explore") for _ in range(7)]
    assert [(t.day, t.turn_of_day, t.night) for t in done] == [
        (1, 1, False), (1, 2, False), (1, 3, False), (1, 4, True), (1, 5, True),
        (1, 6, True), (2, 1, False)]
    assert any("Night falls" in c.label for c in done[3].changes.all())
    assert done[6].state["new_day"] and done[6].kind_number == 7


def test_a_lost_navigation_check_keeps_the_dv_secret(campaign, guide, wren):
    skill = sheet_for(wren).stats["skill"].value
    # rough terrain +2 on a base 6: DV 8; the d20 20 is above skill (fails), d6 2: NE.
    turn = run(campaign, guide, 20, 2, 6, action="peregrinate", terrain="rough", base_dv=6,
               pathfinder=wren.pk)
    assert turn.secret["navigation_dv"] == 8 and turn.secret["d20"] == 20
    assert turn.secret["direction"] == "NE" and not turn.secret["success"]
    assert turn.state["pace"] == "1/2"
    player_view = [c.label for c in turns.log_rows(turn.company, guide=False)[0].shown_changes]
    assert not any("DV" in label for label in player_view)
    assert any("keeps its result" in label for label in player_view)
    guide_view = [c.label for c in turns.log_rows(turn.company, guide=True)[0].shown_changes]
    assert any(f"{skill} against DV 8" in label and "NE" in label for label in guide_view)


def test_the_chance_to_get_lost_is_exact(campaign, guide, wren):
    p = travel.preview(campaign, plan(action="peregrinate", base_dv=4, map="general_map",
                                      pathfinder=wren.pk))
    skill = sheet_for(wren).stats["skill"].value
    assert p.nav.dv == 2 and p.p_lost == 1 - checks.p_success(skill, 2)
    road = travel.preview(campaign, plan(action="peregrinate", road=True, speed="quick"))
    assert road.check == "" and str(road.pace.pace) == "3/1"
    assert [s.label for s in road.dice.sources][-1] == "moving quickly"


def test_orient_lowers_the_next_check_by_four(campaign, guide, wren):
    run(campaign, guide, 6, action="orient")
    p = travel.preview(campaign, plan(action="peregrinate", base_dv=6, pathfinder=wren.pk))
    assert p.oriented and p.nav.dv == 2
    turn = run(campaign, guide, 3, 6, action="peregrinate", base_dv=6, pathfinder=wren.pk)
    assert turn.secret["navigation_dv"] == 2 and turn.state["oriented"] is False
    assert not travel.preview(campaign, plan(action="peregrinate", base_dv=6)).oriented


def test_deplete_eats_a_ration_then_supply_then_starves(campaign, guide, wren):
    rations = line(wren, "Rations")
    supply_before = line(wren, "Supply").quantity
    turn = run(campaign, guide, 3, action="explore")
    assert turn.event_result == "deplete"
    rations.errant_item.refresh_from_db()
    assert rations.errant_item.uses == 0
    run(campaign, guide, 3, action="explore")
    assert line(wren, "Supply").quantity == supply_before - 1
    for _ in range(supply_before - 1):
        run(campaign, guide, 3, action="explore")
    assert "Supply" not in [x.name for x in carried_lines(wren)]
    starving = run(campaign, guide, 3, action="explore")
    assert fresh(wren).exhaustion == 1 and starving.state["starving"] == [wren.pk]
    # Undo puts the starvation back, and the Supply line after it.
    turns.undo_latest(campaign=campaign, by=guide, turn_pk=starving.pk)
    assert fresh(wren).exhaustion == 0


def test_rest_result_the_companys_choice(campaign, guide, wren):
    rested = run(campaign, guide, 2, action="explore", rest_choice="rest")
    assert rested.state["rest_taken"]
    p = travel.preview(campaign, plan(action="explore"))
    assert p.rested_last_turn and p.dice.negative == 1
    run(campaign, guide, 6, 6, action="explore")  # two dice now (one negative)
    tired = run(campaign, guide, 2, action="explore", rest_choice="exhaustion")
    assert fresh(wren).exhaustion == 1 and not tired.state.get("rest_taken")


def test_the_weather_changes_on_a_local_effect_carries_and_resets(campaign, guide, wren):
    t = run(campaign, guide, 4, 5, 5, action="explore", season="spring")  # 2d6 10: clear
    assert t.state["weather"]["label"] == WEATHER_TABLE["spring"][3].label
    assert t.state["weather_roll"] == {"dice": [5, 5], "modifier": 0, "total": 10}
    # Clear skies: +2 to the next roll; 1 + 1 + 2 = 4: Cosmetic change.
    t = run(campaign, guide, 4, 1, 1, action="explore", season="spring")
    assert t.state["weather_roll"]["total"] == 4
    assert t.state["weather"]["label"] == WEATHER_TABLE["spring"][1].label
    t = run(campaign, guide, 3, action="explore", season="spring")  # Deplete: normal
    assert t.state["weather"]["band"] == 2
    t = run(campaign, guide, 4, action="explore", season="spring", weather_changes=False)
    assert "weather_roll" not in t.state and t.state["weather"]["band"] == 2


def test_inclement_weather_saves_and_severe_exhausts(campaign, guide, wren):
    phys = sheet_for(wren).stats["phys"].value
    run(campaign, guide, 4, 1, 2, action="explore", season="summer")  # 3: heat wave
    t = run(campaign, guide, 6, 1, action="explore", season="summer")  # save d20 1: fails
    assert fresh(wren).exhaustion == 1
    assert any(f"d20 1 against phys {phys}, failed" in c.label for c in t.changes.all())
    # Inclement adds its Pace row and +2 navigation DV.
    p = travel.preview(campaign, plan(action="peregrinate", season="summer"))
    assert "inclement" in [m.key for m in p.pace.modifiers] and p.nav.dv == 2
    # Resting at a suitable campsite: no Save.
    run(campaign, guide, 3, 6, action="make_camp", season="summer", base_dv=0)
    t = run(campaign, guide, 6, action="sleep", season="summer", sleepers=(wren.pk,))
    assert not any("Saving Throw" in c.label for c in t.changes.all())


def test_watch_and_a_nights_rest(campaign, guide, wren, ash):
    ErrantCharacter.objects.filter(pk=wren.pk).update(exhaustion=2)
    camp = run(campaign, guide, 1, 6, action="make_camp", pathfinder=ash.pk)
    assert camp.state["campsite"] == "suitable"
    alone = run(campaign, guide, 6, action="take_watch", watchers=(ash.pk,),
                sleepers=(wren.pk,))
    assert fresh(ash).exhaustion == 1 and not alone.fives_are_ones
    none = run(campaign, guide, 5, action="sleep", sleepers=(wren.pk,))
    assert none.fives_are_ones and none.event_result == "encounter"
    assert fresh(wren).exhaustion == 1  # two Turns' sleep: -1
    assert any("full night's Rest" in c.label for c in none.changes.all())
    assert none.state["sleep"][str(wren.pk)] == 0


def test_no_watch_counts_fives_as_ones_in_the_odds(campaign, guide, wren):
    run(campaign, guide, 1, 6, action="make_camp", pathfinder=wren.pk)
    p = travel.preview(campaign, plan(action="sleep", sleepers=(wren.pk,)))
    odds = {key: chance for key, _, chance in p.odds}
    assert p.fives_are_ones and odds["encounter"] == Fraction(2, 6)
    assert "encounter_sign" not in odds


def test_a_failed_camp_check_gives_the_chosen_unsuitable_campsite(campaign, guide, wren):
    camp = run(campaign, guide, 20, 6, action="make_camp", pathfinder=wren.pk,
               campsite_if_failed="open")
    assert camp.state["campsite"] == "open"
    p = travel.preview(campaign, plan(action="sleep", sleepers=(wren.pk,),
                                      watchers=()))
    assert p.campsite == "open" and p.fives_are_ones


def test_over_marching_costs_exhaustion_from_the_fifth(campaign, guide, wren):
    for _ in range(4):
        run(campaign, guide, 6, action="peregrinate", road=True)
    assert fresh(wren).exhaustion == 0
    fifth = run(campaign, guide, 6, action="peregrinate", road=True)
    assert fresh(wren).exhaustion == 1 and fifth.state["peregrinations_today"] == 5


def test_forage_adds_supply_and_undo_takes_it_back(campaign, guide, wren, ash):
    for name in ("Supply",):
        turns_line = line(ash, name)
        turns_line.delete()
    wren_supply = line(wren, "Supply").quantity
    turn = run(campaign, guide, 1, 1, 6, action="forage")
    assert line(wren, "Supply").quantity == wren_supply + rules.FORAGE_SUPPLY
    assert line(ash, "Supply").quantity == rules.FORAGE_SUPPLY
    turns.undo_latest(campaign=campaign, by=guide, turn_pk=turn.pk)
    assert line(wren, "Supply").quantity == wren_supply
    assert "Supply" not in [x.name for x in carried_lines(ash)]


def test_a_rest_result_forgoes_forage_and_1_exhaustion_each_keeps_it(campaign, guide, wren):
    supply = line(wren, "Supply").quantity
    # Event Die 2 with the Rest taken: no Forage roll at all (Dice has no face for one).
    rested = run(campaign, guide, 2, action="forage", rest_choice="rest")
    assert rested.state["rest_taken"] and rested.state["action_forgone"]
    assert line(wren, "Supply").quantity == supply and "forage" not in rested.secret
    assert any("forgoes its declared action (Forage)" in c.label
               for c in rested.changes.all())
    # The Company that takes 1 Exhaustion each instead still forages (two dice: the Rest).
    tired = run(campaign, guide, 2, 2, 1, action="forage", rest_choice="exhaustion")
    assert not tired.state.get("action_forgone") and fresh(wren).exhaustion == 1
    assert line(wren, "Supply").quantity == supply + rules.FORAGE_SUPPLY


def test_a_march_forgone_for_a_rest_is_not_one_of_the_days_marches(campaign, guide, wren):
    for _ in range(4):
        run(campaign, guide, 6, action="peregrinate", road=True)
    fifth = run(campaign, guide, 2, action="peregrinate", road=True, rest_choice="rest")
    assert fifth.state["action_forgone"] and "peregrinations_today" not in fifth.state
    assert fresh(wren).exhaustion == 0  # no fifth march: no over-march Exhaustion
    assert any("it does not move" in c.label for c in fifth.changes.all())
    sixth = run(campaign, guide, 6, 6, action="peregrinate", road=True)  # +1 negative die
    assert sixth.state["peregrinations_today"] == 5 and fresh(wren).exhaustion == 1
    turns.undo_latest(campaign=campaign, by=guide, turn_pk=sixth.pk)
    turns.undo_latest(campaign=campaign, by=guide, turn_pk=fifth.pk)
    again = run(campaign, guide, 6, action="peregrinate", road=True)
    assert again.state["peregrinations_today"] == 5 and fresh(wren).exhaustion == 1


def test_an_orient_forgone_for_a_rest_gives_no_minus_four(campaign, guide, wren):
    rested = run(campaign, guide, 2, action="orient", rest_choice="rest")
    assert rested.state["action_forgone"] and rested.state["oriented"] is False
    assert not travel.preview(campaign, plan(action="peregrinate", base_dv=6)).oriented


def test_a_camping_turn_forgone_for_a_rest_keeps_no_watch_and_counts_no_sleep(
        campaign, guide, wren, ash):
    run(campaign, guide, 1, 6, action="make_camp", pathfinder=ash.pk)
    rested = run(campaign, guide, 2, action="take_watch", watchers=(ash.pk,),
                 sleepers=(wren.pk,), rest_choice="rest")
    assert rested.state["action_forgone"] and fresh(ash).exhaustion == 0
    assert rested.state["sleep"].get(str(wren.pk), 0) == 0


def test_a_rest_keeps_the_weathers_exhaustion(campaign, guide, wren):
    run(campaign, guide, 4, 1, 2, action="explore", season="summer")  # 3: heat wave
    t = run(campaign, guide, 2, 1, action="explore", season="summer", rest_choice="rest")
    assert t.state["action_forgone"] and fresh(wren).exhaustion == 1  # the Save d20 1 fails


def test_event_dice_count_encumbrance_and_extra_dice(campaign, guide, wren):
    enc = sheet_for(wren).stats["encumbrance"].value
    p = travel.preview(campaign, plan(action="explore", extra_positive=2,
                                      extra_reason="a guide from the village"))
    heavy = 1 if enc > event_die.ENCUMBRANCE_LIMIT else 0
    assert (p.dice.positive, p.dice.negative) == (2, heavy)
    assert "a guide from the village" in p.dice.sources[-1].label
    assert sum(chance for _, _, chance in p.odds) == 1


@pytest.mark.parametrize("kw,code", [
    ({"action": "nap"}, "action"), ({"season": "monsoon"}, "season"),
    ({"base_dv": 99}, "base_dv"), ({"extra_negative": 7}, "extra_negative"),
    ({"misleading": 1}, "misleading"), ({"speed": "quick", "action": "explore"}, "speed"),
    ({"watchers": (999,), "action": "take_watch"}, "watchers"),
    ({"sleepers": (1,), "action": "peregrinate"}, "sleepers"),
    ({"activity": "x" * 301}, "activity_too_long"),
])
def test_bad_plans_are_refused_and_nothing_recorded(campaign, guide, wren, kw, code):
    with pytest.raises(CampaignError) as refused:
        run(campaign, guide, 6, **kw)
    assert refused.value.code == code
    assert not ErrantTurn.objects.exists()


def test_only_the_guide_runs_a_turn(campaign, player, wren):
    with pytest.raises(CampaignError, match="Only the Guide"):
        run(campaign, player, 6, action="explore")


def test_a_double_click_counts_once_and_a_stale_page_is_refused(campaign, guide, wren):
    once = travel.run(campaign=campaign, plan=plan(action="explore"), by=guide, seen=0,
                      request_key="k", rng=Dice(6))
    again = travel.run(campaign=campaign, plan=plan(action="explore"), by=guide, seen=0,
                       request_key="k", rng=Dice(6))
    assert once.pk == again.pk
    with pytest.raises(CampaignError, match="changed since"):
        travel.run(campaign=campaign, plan=plan(action="explore"), by=guide, seen=0,
                   rng=Dice(6))
    assert ErrantTurn.objects.count() == 1


def test_exploration_zooms_in_and_burns_the_lit_light(campaign, guide, wren):
    parent = run(campaign, guide, 6, action="explore")
    torch = line(wren, "Torch")
    torch.errant_item.location = "hand"
    torch.errant_item.save()
    turn = travel.run_other(campaign=campaign, by=guide, rng=Dice(3), plan=travel.OtherPlan(
        kind="exploration", activity="Into the abbey", parent=parent.pk))
    torch.errant_item.refresh_from_db()
    assert turn.parent == parent and turn.day == parent.day and turn.event_result == "burn"
    assert torch.errant_item.uses == 1
    assert any("Sorceries and Miracles" in c.label for c in turn.changes.all())
    init = travel.run_other(campaign=campaign, by=guide, plan=travel.OtherPlan(
        kind="initiative", parent=turn.pk))
    assert init.event_face is None and init.parent == turn


def test_burn_without_a_lit_light_costs_supply(campaign, guide, wren):
    supply = line(wren, "Supply").quantity
    travel.run_other(campaign=campaign, by=guide, rng=Dice(3),
                     plan=travel.OtherPlan(kind="exploration", lit=()))
    assert line(wren, "Supply").quantity == supply - 1


def test_a_safe_bed_heals_a_roll_of_the_damage_die(campaign, guide, wren):
    from rules.engine.errant.data import ARCHETYPE_DAMAGE_DIE

    hp_max = sheet_for(wren).stats["hp_max"].value
    ErrantCharacter.objects.filter(pk=wren.pk).update(hp_current=1)
    die = ARCHETYPE_DAMAGE_DIE[wren.archetype]
    run(campaign, guide, 3, 6, action="make_camp", pathfinder=wren.pk)
    run(campaign, guide, 6, action="sleep", sleepers=(wren.pk,), safe_bed=True)
    rested = run(campaign, guide, 6, die, action="sleep", sleepers=(wren.pk,),
                 safe_bed=True)
    assert fresh(wren).hp_current == min(hp_max, 1 + die)
    assert any(f"d{die} {die}: HP 1 to" in c.label for c in rested.changes.all())
    turns.undo_latest(campaign=campaign, by=guide, turn_pk=rested.pk)
    assert fresh(wren).hp_current == 1
