"""The Guide's screen (screen.py, screen_views.py; issue #15): Exploration Turns, Reactions
and Negotiations, Chases, recorded in the Turn log; who reaches it; hostile input."""

from fractions import Fraction

import pytest
from django.urls import reverse

from campaigns import services
from campaigns.models import Campaign
from campaigns.services import CampaignError
from campaigns.systems.errant import screen, screen_views, turns
from campaigns.systems.errant.turn_models import ErrantTurn, ErrantTurnChange
from characters.models import InventoryItem
from characters.systems.errant.builds import sheet_for
from characters.systems.errant.inventory import carried_lines
from characters.systems.errant.models import ErrantCharacter
from rules.engine.errant import chases, exploration, reactions
from rules.engine.errant.checks import p_success
from tests.characters.systems.errant.helpers import make_wren
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


class Dice:
    """Stands in for the dice: each randint gives the next face (checked in range)."""

    def __init__(self, *faces):
        self.faces = list(faces)

    def randint(self, low, high):
        face = self.faces.pop(0)
        assert low <= face <= high, (face, low, high)
        return face


def stat(errant, name):
    return sheet_for(ErrantCharacter.objects.get(pk=errant.pk)).stats[name].value


def master(campaign, proficiency, name="Quill"):
    """A Deviant of the Company with mastery (2 points) of `proficiency`."""
    user = MembershipFactory(campaign=campaign).user
    errant = make_wren(user, name=name, archetype="deviant", kit_choice="burglars_tools",
                       proficiencies=[[proficiency, 2]])
    services.character_join(campaign=campaign, character=errant, by=user)
    return ErrantCharacter.objects.get(pk=errant.pk)


@pytest.fixture
def turn(campaign, guide, wren, ash, session):
    return screen.start_exploration(campaign=campaign, by=guide, activity="The crypt",
                                    pace=["slow"])


# -- Exploration ------------------------------------------------------------------------


def test_an_exploration_turn_is_declared_with_its_pace_and_can_zoom_from_travel(
        campaign, guide, wren):
    travel = turns.declare(campaign=campaign, kind="travel", by=guide, turn_of_day=1)
    turn = screen.start_exploration(campaign=campaign, by=guide, pace=["quick", "explored"],
                                    zoom=True, seen=1, request_key="s1")
    again = screen.start_exploration(campaign=campaign, by=guide, pace=["quick", "explored"],
                                     zoom=True, seen=1, request_key="s1")
    assert again.pk == turn.pk and turn.parent == travel and turn.kind == "exploration"
    assert turn.state["pace"]["pace"] == str(exploration.exploration_pace(
        ("quick", "explored")).pace) == "6/1"
    assert turn.state["pace"]["negative"] == 1 and turn.state["pace"]["no_mapping"]
    assert [c.label for c in turn.changes.all()] == ["Pace 6/1 (moving quickly, explored "
                                                     "areas)"]
    with pytest.raises(CampaignError) as refused:
        screen.start_exploration(campaign=campaign, by=guide, pace=["slow", "quick"])
    assert refused.value.field == "pace"


def test_zooming_needs_a_travel_turn(campaign, guide):
    with pytest.raises(CampaignError) as refused:
        screen.start_exploration(campaign=campaign, by=guide, zoom=True)
    assert refused.value.code == "no_travel" and not ErrantTurn.objects.exists()


def test_only_the_guide_writes_and_only_onto_a_turn(campaign, guide, player, wren):
    with pytest.raises(CampaignError, match="Only the Guide"):
        screen.start_exploration(campaign=campaign, by=player)
    with pytest.raises(CampaignError) as refused:
        screen.stealth(campaign=campaign, by=guide, roller=wren.pk)
    assert refused.value.code == "no_turn"


def test_stealth_alone_uses_the_errants_encumbrance_and_a_group_half_the_total(
        campaign, guide, wren, ash, turn):
    alone = screen.stealth(campaign=campaign, by=guide, roller=wren.pk, rng=Dice(1),
                           turn_pk=turn.pk)
    skill, enc = stat(wren, "skill"), stat(wren, "encumbrance")
    assert (alone["skill"], alone["dv"], alone["roll"]) == (skill, enc, 1)
    assert alone["chance"] == screen.odds(p_success(skill, enc))
    group = screen.stealth(campaign=campaign, by=guide, roller=ash.pk,
                           group=[wren.pk, ash.pk], secret=True, rng=Dice(20))
    assert group["dv"] == (enc + stat(ash, "encumbrance")) // 2 and not group["success"]
    turn.refresh_from_db()
    assert turn.state["stealth"]["roll"] == 1 and turn.secret["stealth"]["roll"] == 20
    notes = list(turn.changes.filter(label__startswith="Stealth"))
    assert [n.secret for n in notes] == [False, True]
    with pytest.raises(CampaignError) as refused:
        screen.stealth(campaign=campaign, by=guide, roller=wren.pk, group=[ash.pk],
                       rng=Dice(3))
    assert refused.value.field == "roller"


def test_a_stale_page_is_refused_and_a_double_click_counts_once(campaign, guide, wren, turn):
    first = screen.stealth(campaign=campaign, by=guide, roller=wren.pk, rng=Dice(4),
                           turn_pk=turn.pk, request_key="k")
    assert first is not None
    assert screen.stealth(campaign=campaign, by=guide, roller=wren.pk, rng=Dice(5),
                          turn_pk=turn.pk, request_key="k") is None
    assert turn.changes.filter(label__startswith="Stealth").count() == 1
    screen.start_exploration(campaign=campaign, by=guide)
    with pytest.raises(CampaignError) as refused:
        screen.stealth(campaign=campaign, by=guide, roller=wren.pk, rng=Dice(5),
                       turn_pk=turn.pk)
    assert refused.value.code == "stale"


def test_the_light_is_the_lit_lights_burn_against_the_company(campaign, guide, wren, ash,
                                                              turn):
    lights = screen.lights([wren, ash])
    assert lights, "Wren carries a light"
    one = lights[0]
    burn = one.errant_item.uses
    result = screen.illuminate(campaign=campaign, by=guide, lit=[one.pk])
    assert result["burn"] == burn and result["members"] == 2
    assert result["level"] == exploration.illumination(burn, 2)
    dark = screen.illuminate(campaign=campaign, by=guide, lit=[])
    assert dark["level"] == "dim"
    with pytest.raises(CampaignError) as refused:
        screen.illuminate(campaign=campaign, by=guide, lit=[10**9])
    assert refused.value.field == "lit"


def test_forcing_a_door_counts_strong_helpers_and_breaking_it_marks_the_event_die(
        campaign, guide, wren, ash, turn):
    result = screen.force_door(campaign=campaign, by=guide, forcer=wren.pk, helpers=[ash.pk],
                               width_ft=10, rng=Dice(2))
    door = exploration.force_door([stat(ash, "phys")], width_ft=10)
    assert result["dv"] == door.dv and result["phys"] == stat(wren, "phys")
    assert result["success"] == (door.dv < 2 <= stat(wren, "phys"))
    with pytest.raises(CampaignError) as refused:
        screen.force_door(campaign=campaign, by=guide, forcer=wren.pk, helpers=[wren.pk])
    assert refused.value.field == "helpers"
    broken = screen.break_door(campaign=campaign, by=guide, material="wood")
    turn.refresh_from_db()
    assert turn.state["breaking_door"] is True and broken["turns"] == 2
    assert broken["negative_event_dice"] == 1
    with pytest.raises(CampaignError):
        screen.break_door(campaign=campaign, by=guide, material="cheese")


def test_a_lock_is_picked_step_by_step_and_its_spikes_hurt_through_the_log(
        campaign, guide, wren, turn):
    # d12s: 7 Steel, sequence 2 (twist-tap-turn), modifier 1 spiked.
    screen.new_lock(campaign=campaign, by=guide, d12s=(7, 2, 1))
    turn.refresh_from_db()
    assert turn.secret["lock"]["sequence"] == ["twist", "tap", "turn"]
    assert "sequence" not in turn.state["lock"] and turn.state["lock"]["material"] == "Steel"
    assert turn.changes.get(label__startswith="The lock").secret
    hp = stat(wren, "hp_max") if wren.hp_current is None else wren.hp_current
    screen.pick_lock(campaign=campaign, by=guide, action="twist", picker=wren.pk)
    state = screen.pick_lock(campaign=campaign, by=guide, action="turn", picker=wren.pk,
                             rng=Dice(3))
    assert state["progress"] == 1 and state["stiff"] and state["steps"][-1]["damage"] == 3
    wren.refresh_from_db()
    assert wren.hp_current == hp - 3
    change = ErrantTurnChange.objects.get(what="hp")
    assert (change.before, change.after) == (hp, hp - 3)
    screen.pick_lock(campaign=campaign, by=guide, action="tap", picker=wren.pk)
    state = screen.pick_lock(campaign=campaign, by=guide, action="turn", picker=wren.pk)
    assert state["open"] and state["progress"] == 3
    with pytest.raises(CampaignError, match="open"):
        screen.pick_lock(campaign=campaign, by=guide, action="turn", picker=wren.pk)
    turns.undo_latest(campaign=campaign, by=guide, turn_pk=turn.pk)
    wren.refresh_from_db()
    assert wren.hp_current == hp


def test_a_locksmith_ignores_the_first_jam_and_anyone_else_jams(campaign, guide, wren, turn):
    """ER §The Deviant, Engineering mastery Locksmith: "you may ignore the first jam"."""
    quill = master(campaign, "engineering")
    assert screen.masters(quill, "engineering") and not screen.masters(wren, "engineering")
    crude = (12, 9, 12)  # Crude, turn-twist-tap, normal
    screen.new_lock(campaign=campaign, by=guide, d12s=crude)
    screen.pick_lock(campaign=campaign, by=guide, action="twist", picker=wren.pk)
    state = screen.pick_lock(campaign=campaign, by=guide, action="tap", picker=wren.pk)
    assert state["jammed"] and state["stiff"]
    screen.new_lock(campaign=campaign, by=guide, d12s=crude)
    state = screen.pick_lock(campaign=campaign, by=guide, action="twist", picker=quill.pk)
    assert state["stiff"] and not state["jammed"]
    state = screen.pick_lock(campaign=campaign, by=guide, action="tap", picker=quill.pk)
    assert not state["jammed"] and state["jams_ignored"] == 1
    assert state["steps"][-1]["locksmith"] is True
    assert turn.changes.filter(label__contains="the Locksmith ignores the first jam").exists()
    for action in ("turn", "twist", "tap"):
        state = screen.pick_lock(campaign=campaign, by=guide, action=action, picker=quill.pk)
    assert state["open"]
    # The second jam is not ignored, and a Weathered lock's own ignored jam stays secret.
    screen.new_lock(campaign=campaign, by=guide, d12s=(5, 9, 5))
    steps = [screen.pick_lock(campaign=campaign, by=guide, action="twist", picker=quill.pk)
             for _ in range(4)]
    assert [s["steps"][-1]["locksmith"] for s in steps] == [False, False, True, False]
    assert [s["jammed"] for s in steps] == [False, False, False, True]
    assert screen_views._context(campaign, {})["locksmiths"] == ["Quill"]


def test_a_lock_from_rolled_d12s_and_bad_d12s(campaign, guide, turn):
    screen.new_lock(campaign=campaign, by=guide, rng=Dice(12, 12, 12))
    turn.refresh_from_db()
    assert turn.secret["lock"]["d12s"] == [12, 12, 12]
    assert turn.secret["lock"]["modifier"] == "normal"
    with pytest.raises(CampaignError) as refused:
        screen.new_lock(campaign=campaign, by=guide, d12s=(0, 13, 2))
    assert refused.value.field == "d12s"


def test_a_trap_uses_the_dungeon_level_and_its_damage_goes_through_the_log(
        campaign, guide, wren, turn):
    phys = stat(wren, "phys")
    result = screen.trap(campaign=campaign, by=guide, errant=wren.pk, attribute="phys",
                         level=3, damage=2, rng=Dice(20), secret=True)
    assert result["dv"] == 3 and not result["success"]
    assert result["chance"] == screen.odds(exploration.p_avoid_trap(phys, 3))
    assert result["hp"]["after"] == result["hp"]["before"] - 2
    turn.refresh_from_db()
    assert "trap" in turn.secret and "trap" not in turn.state
    with pytest.raises(CampaignError) as refused:
        screen.trap(campaign=campaign, by=guide, errant=wren.pk, attribute="luck", level=1)
    assert refused.value.field == "attribute"


def test_harvesting_adds_to_a_line_through_the_log_and_the_kit_holds_four(
        campaign, guide, wren, turn):
    line = carried_lines(wren)[0]
    before = line.quantity
    result = screen.harvest(campaign=campaign, by=guide, errant=wren.pk, threat=6, held=1,
                            line=line.pk, rng=Dice(4))
    skill = stat(wren, "skill")
    assert result["dv"] == 3 and result["components"] == 3
    assert result["success"] == (3 < 4 <= skill)
    if result["success"]:
        assert InventoryItem.objects.get(pk=line.pk).quantity == before + 1
    with pytest.raises(CampaignError) as refused:
        screen.harvest(campaign=campaign, by=guide, errant=wren.pk, threat=6, held=2)
    assert refused.value.field == "held"


def test_a_chemists_kit_holds_six_components(campaign, guide, wren, turn):
    """ER §The Deviant, Anatomy mastery Chemist: "six alchemical components rather than
    four"; anyone else's kit holds four."""
    quill = master(campaign, "anatomy")
    result = screen.harvest(campaign=campaign, by=guide, errant=quill.pk, threat=6, held=3,
                            rng=Dice(20))
    assert result["capacity"] == 6 and result["components"] == 3 and not result["success"]
    with pytest.raises(CampaignError) as refused:
        screen.harvest(campaign=campaign, by=guide, errant=quill.pk, threat=6, held=4)
    assert refused.value.code == "kit_full" and refused.value.field == "held"
    with pytest.raises(CampaignError) as refused:
        screen.harvest(campaign=campaign, by=guide, errant=wren.pk, threat=6, held=3)
    assert refused.value.code == "kit_full"
    with pytest.raises(CampaignError) as refused:
        screen.harvest(campaign=campaign, by=guide, errant=wren.pk, threat=2, held=5)
    assert refused.value.code == "held_over" and "holds 4" in str(refused.value)
    with pytest.raises(CampaignError) as refused:
        screen.harvest(campaign=campaign, by=guide, errant=quill.pk, threat=2, held=7)
    assert refused.value.field == "held"


def test_a_kit_over_four_is_named_beside_the_field_for_anyone_but_a_chemist(
        client, campaign, guide, wren, turn):
    quill = master(campaign, "anatomy")
    client.force_login(guide)
    before = ErrantTurnChange.objects.count()
    for who, held, message in ((wren, "5", "holds 4"), (quill, "7", "At most 6.")):
        response = client.post(url(campaign, "harvest"), {
            "turn": turn.pk, "errant": who.pk, "threat": "2", "held": held})
        assert response.status_code == 200
        errors = response.context["harvest_form"].errors["held"]
        assert any(message in e for e in errors), errors
    assert ErrantTurnChange.objects.count() == before
    response = client.post(url(campaign, "harvest"), {
        "turn": turn.pk, "errant": quill.pk, "threat": "2", "held": "5"})
    assert response.status_code == 302
    assert ErrantTurn.objects.get(pk=turn.pk).state["harvest"]["capacity"] == 6


# -- Reactions and Negotiations ---------------------------------------------------------


def test_a_speechcraft_master_dealing_with_the_npc_rolls_3d6(campaign, guide, wren, turn):
    """ER §The Deviant, Speechcraft mastery: "all Reaction Rolls for NPCs interacting with
    you are rolled with 3D6" (AMB-E-SPEECH: all three summed)."""
    quill = master(campaign, "speechcraft")
    alignment = reactions.alignment_modifier(screen.company_alignments(campaign), "N")
    result = screen.reaction(campaign=campaign, by=guide, npc="Abbot", npc_alignment="N",
                             speaker=quill.pk, negotiate=True, rng=Dice(6, 5, 4))
    assert result["dice"] == [6, 5, 4] and result["speechcraft"]
    assert result["value"] == 15 + alignment
    assert result["disposition"] == reactions.DispositionBands().disposition(15 + alignment)
    turn.refresh_from_db()
    assert turn.state["negotiation"]["tolerance"] == 15 + alignment
    assert turn.changes.filter(label__startswith="Reaction Roll, Abbot: 3D6 (Speechcraft "
                                                 "master Quill) 6+5+4").exists()
    for speaker in (wren.pk, None):  # not a master, or nobody named: 2D6
        result = screen.reaction(campaign=campaign, by=guide, npc="Abbot",
                                 npc_alignment="N", speaker=speaker, rng=Dice(3, 4))
        assert result["dice"] == [3, 4] and not result["speechcraft"]
    stranger = make_wren(UserFactory(), name="Stranger", archetype="deviant",
                         kit_choice="burglars_tools", proficiencies=[["speechcraft", 2]])
    with pytest.raises(CampaignError) as refused:
        screen.reaction(campaign=campaign, by=guide, npc="Abbot", npc_alignment="N",
                        speaker=stranger.pk, rng=Dice(1, 1, 1))
    assert refused.value.field == "speaker"


def test_the_page_shows_3d6_odds_and_rolls_them_for_the_master_chosen(
        client, campaign, guide, wren, turn):
    quill = master(campaign, "speechcraft")
    client.force_login(guide)
    page = client.get(url(campaign))
    body = page.content.decode()
    alignment = reactions.alignment_modifier(screen.company_alignments(campaign), "N")
    three = reactions.disposition_odds(alignment, screen.bands_of(campaign), dice=3)
    row = next(r for r in page.context["reaction_rows"] if r["dice"] == 3
               and r["npc"].startswith("Neutral"))
    assert row["npc"] == "Neutral, 3D6 (Quill)"
    assert row["odds"][-1] == ("Friendly", screen.odds(three["friendly"]))
    assert "The NPC deals with" in body
    # Shown as a narrow table per dice count: a row per disposition, a column per NPC.
    two, three_table = page.context["reaction_tables"]
    assert (two["dice"], three_table["dice"]) == (2, 3)
    assert three_table["caption"] == "3D6, with a Speechcraft master (Quill)"
    assert three_table["caption"] in body
    assert [npc for npc, _ in three_table["columns"]] == ["Lawful", "Neutral", "Chaotic"]
    assert three_table["columns"][1] == ("Neutral", alignment)
    assert [name for name, _ in three_table["rows"]] == [
        "Hostile", "Unfriendly", "Unsure", "Amicable", "Friendly"]
    assert three_table["rows"][-1] == ("Friendly", [
        r["odds"][-1][1] for r in page.context["reaction_rows"] if r["dice"] == 3])
    assert three_table["rows"][-1][1][1] == screen.odds(three["friendly"])
    response = client.post(url(campaign, "reaction"), {
        "turn": turn.pk, "npc": "Abbot", "npc_alignment": "N", "speaker": quill.pk},
        HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and b"Reaction (3D6)" in response.content
    assert len(ErrantTurn.objects.get(pk=turn.pk).state["reaction"]["dice"]) == 3




def test_a_reaction_counts_the_companys_alignment_and_caps_the_modifiers(
        campaign, guide, wren, ash, turn):
    alignments = screen.company_alignments(campaign)
    alignment = reactions.alignment_modifier(alignments, "C")
    result = screen.reaction(campaign=campaign, by=guide, npc="The abbot",
                             npc_alignment="C", modifiers=[2, 3], rng=Dice(3, 4))
    assert result["modifier"] == 3 and result["alignment"] == alignment
    assert result["value"] == 7 + 3 + alignment
    disposition = reactions.DispositionBands().disposition(result["value"])
    assert result["disposition"] == disposition
    assert result["dv"] == reactions.social_dv(disposition)
    turn.refresh_from_db()
    assert turn.state["reaction"]["value"] == result["value"]


def test_a_secret_reaction_and_a_negotiation_the_npc_ends(campaign, guide, wren, turn):
    screen.reaction(campaign=campaign, by=guide, npc="Ghoul", npc_alignment="N",
                    modifiers=[-3], secret=True, negotiate=True, rng=Dice(1, 2))
    turn.refresh_from_db()
    assert "reaction" in turn.secret and "reaction" not in turn.state
    kept = turn.secret["negotiation"]
    assert kept["disposition"] == 0 and kept["tolerance"] == 0
    player_view = turns.log_rows(turn.company, guide=False)[0].shown_changes
    assert not any("2D6" in c.label for c in player_view)
    after = screen.exchange(campaign=campaign, by=guide, kind="banal")
    assert after["ended"] and after["exchanges"] == 1
    with pytest.raises(CampaignError, match="ended"):
        screen.exchange(campaign=campaign, by=guide, kind="banal")
    assert turn.changes.filter(label="Ghoul ends the Negotiation").exists()


def test_negotiation_exchanges_follow_position_and_impact(campaign, guide, wren, turn):
    screen.reaction(campaign=campaign, by=guide, npc="Merchant", npc_alignment="N",
                    negotiate=True, rng=Dice(4, 4))
    first = screen.exchange(campaign=campaign, by=guide, kind="giving", success=True,
                            impact="strong")
    n = reactions.exchange(reactions.start_negotiation(8), "giving", success=True,
                           impact="strong")
    assert first["disposition"] == n.disposition == 11 and first["log"][-1][1] == "touched"
    second = screen.exchange(campaign=campaign, by=guide, kind="taking", success=False,
                             position="dire")
    assert second["log"][-1] == ["taking", "upset", -3] and second["disposition"] == 8
    with pytest.raises(CampaignError) as refused:
        screen.exchange(campaign=campaign, by=guide, kind="convincing")
    assert refused.value.field == "success"


def test_the_guides_bands_are_a_campaign_setting_labelled_not_from_the_text(
        campaign, guide, player):
    bands = screen.set_bands(campaign=campaign, by=guide, tops=[3, 6, 8, 10, 12])
    campaign.refresh_from_db()
    assert campaign.settings[screen.BANDS_KEY] == [3, 6, 8, 10, 12]
    assert screen.bands_of(campaign).disposition(3) == "hostile"
    assert "Not from the text" in bands.label
    with pytest.raises(CampaignError):
        screen.set_bands(campaign=campaign, by=guide, tops=[3, 3, 8, 10, 12])
    with pytest.raises(CampaignError, match="Only the Guide"):
        screen.set_bands(campaign=campaign, by=player, tops=[2, 5, 8, 11, 12])
    screen.set_bands(campaign=campaign, by=guide, tops=[2, 5, 8, 11, 12])
    campaign.refresh_from_db()
    assert screen.BANDS_KEY not in campaign.settings


# -- Chases -----------------------------------------------------------------------------


def test_a_chase_rolls_each_sides_slowest_and_ends_on_two_fours(campaign, guide, wren, turn):
    chase = screen.start_chase(campaign=campaign, by=guide, fugitives=[wren.pk], pursuers=[],
                               pursuer_npcs=[("Hound", 8, 2, 10), ("Ghoul", 4, 1, 9)])
    assert [r["name"] for r in chase["pursuers"]] == ["Hound", "Ghoul"]
    dice = stat(wren, "movement_dice")
    # Wren's dice all 2 (doubles if two or more), the Ghoul (slowest, one die) a 2: they
    # match; the Ghoul's lower total rolls the D10 (7).
    result = screen.chase_round(campaign=campaign, by=guide,
                                rng=Dice(*([2] * dice), 2, 7))
    assert result["pursuers"]["roller"] == "Ghoul" and result["pursuers"]["faces"] == [2]
    assert result["ranged"] and result["fugitives_act"] == (dice >= 2)
    expected_side = chases.chase_round([2] * dice, [2]).development_side
    assert (result["development"] or {}).get("side") == expected_side
    # A sprint: phys d20 1 vs DV = Encumbrance succeeds only at Encumbrance 0.
    enc, phys = stat(wren, "encumbrance"), stat(wren, "phys")
    ok = enc == 0 and phys >= 1
    faces = [4] * (2 * dice if ok else 0)
    result = screen.chase_round(campaign=campaign, by=guide, sprint_fugitives=True,
                                rng=Dice(1, *faces, 1, *([5] if not ok else [])))
    assert result["fugitives"]["sprint_ok"] == ok
    if ok and dice >= 1:
        assert result["escaped"]
        turn.refresh_from_db()
        assert turn.state["chase"]["ended"] == "escaped"
        with pytest.raises(CampaignError, match="ended"):
            screen.chase_round(campaign=campaign, by=guide)
    assert turn.changes.filter(label__startswith="Chase round").count() == 2


def test_a_chase_needs_two_sides_and_an_errant_on_one(campaign, guide, wren, turn):
    with pytest.raises(CampaignError) as refused:
        screen.start_chase(campaign=campaign, by=guide, fugitives=[wren.pk],
                           pursuers=[wren.pk])
    assert refused.value.field == "pursuers"
    with pytest.raises(CampaignError) as refused:
        screen.start_chase(campaign=campaign, by=guide, fugitives=[wren.pk], pursuers=[])
    assert refused.value.field == "pursuers"


def test_the_closed_form_two_fours_agrees_with_the_engine():
    for dice in range(0, 7):
        assert screen_views.p_two_fours(dice) == chases.p_two_fours(dice)


def test_odds_are_a_fraction_and_a_percent():
    assert screen.odds(Fraction(3, 10)) == "3/10 (30%)"
    assert screen.odds(Fraction(1, 3)) == "1/3 (33.3%)"
    assert (screen.odds(Fraction(0)), screen.odds(Fraction(1))) == ("0 (0%)", "1 (100%)")


# -- The page ---------------------------------------------------------------------------


def url(campaign, op=""):
    name = f"campaigns:errant_screen_{op}" if op else "campaigns:errant_screen"
    return reverse(name, args=[campaign.pk])


def test_who_reaches_the_screen(client, campaign, guide, player, wren):
    assert client.get(url(campaign)).status_code == 302  # to the login
    client.force_login(player)
    assert client.get(url(campaign)).status_code == 404
    assert client.post(url(campaign, "start")).status_code == 404
    client.force_login(UserFactory())
    assert client.get(url(campaign)).status_code == 404
    client.force_login(guide)
    page = client.get(url(campaign))
    assert page.status_code == 200 and "The Guide's screen" in page.content.decode()
    other = CampaignFactory(system="eldritch_gambit", owner=guide)
    assert client.get(url(other)).status_code == 404


def test_the_campaign_page_links_the_screen_for_the_guide_only(client, campaign, guide,
                                                               player):
    company = reverse("campaigns:errant_company", args=[campaign.pk])
    client.force_login(guide)
    assert url(campaign).encode() in client.get(campaign.get_absolute_url()).content
    assert url(campaign).encode() in client.get(company).content
    client.force_login(player)
    assert url(campaign).encode() not in client.get(campaign.get_absolute_url()).content
    assert url(campaign).encode() not in client.get(company).content


def test_the_guide_runs_a_turn_from_the_page(client, campaign, guide, wren, ash, session):
    client.force_login(guide)
    response = client.post(url(campaign, "start"), {"activity": "The crypt", "pace": ["slow"],
                                                    "seen": "0", "request_key": "a" * 32})
    assert response.status_code == 302
    turn = ErrantTurn.objects.get()
    page = client.get(url(campaign))
    body = page.content.decode()
    chance = screen.odds(exploration.p_stealth(stat(wren, "skill"),
                                               stat(wren, "encumbrance")))
    pace = exploration.exploration_pace(("slow",)).pace
    assert chance in body and f"This Turn's Pace: <strong>{pace}</strong>" in body
    helped = screen.odds(p_success(stat(wren, "phys"), 2))
    assert f"<td>{helped}</td>" in body and "DV 2 with one strong helper" in body
    response = client.post(url(campaign, "lock"), {"turn": turn.pk, "d12s": "7 2 9"},
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and b"twist-tap-turn" in response.content
    response = client.post(url(campaign, "pick"), {"turn": turn.pk, "picker": wren.pk,
                                                   "action": "twist"},
                           HTTP_HX_REQUEST="true")
    assert b"1/3" in response.content
    response = client.post(url(campaign, "reaction"), {
        "turn": turn.pk, "npc": "Abbot", "npc_alignment": "L", "modifiers": "+1",
        "negotiate": "on"})
    assert response.status_code == 302
    assert "reaction" in ErrantTurn.objects.get().state


@pytest.mark.parametrize("op,data,field", [
    ("stealth", {"roller": "999999"}, "roller"),
    ("stealth", {"roller": "x\x00"}, "roller"),
    ("door", {"forcer": "", "width_ft": "10" * 50, "base": "4"}, "width_ft"),
    ("lock", {"d12s": "1 2 99"}, "d12s"),
    ("pick", {"action": "kick"}, "action"),
    ("trap", {"attribute": "phys", "level": "-1"}, "level"),
    ("reaction", {"npc": "A\x00", "npc_alignment": "N"}, "npc"),
    ("reaction", {"npc": "Abbot", "npc_alignment": "N", "modifiers": "+1 lots"},
     "modifiers"),
    ("reaction", {"npc": "Abbot", "npc_alignment": "N", "speaker": "999999"}, "speaker"),
    ("reaction", {"npc": "Abbot", "npc_alignment": "N", "speaker": "1 OR 1=1\x00"},
     "speaker"),
    ("harvest", {"threat": "4", "held": "7"}, "held"),
    ("harvest", {"threat": "4", "held": "-1e9"}, "held"),
    ("chase", {"fugitive_npcs": "Hound, fast, 2, 3"}, "fugitive_npcs"),
    ("bands", {"hostile": "9" * 30}, "hostile"),
])
def test_hostile_input_is_named_beside_its_field(client, campaign, guide, wren, turn, op,
                                                 data, field):
    client.force_login(guide)
    before = ErrantTurnChange.objects.count()
    response = client.post(url(campaign, op), {"turn": turn.pk, "unknown": "x", **data})
    assert response.status_code == 200
    assert response.context[f"{op}_form"].errors.get(field), response.context[
        f"{op}_form"].errors
    assert ErrantTurnChange.objects.count() == before


def test_a_stale_page_is_named_and_writes_nothing(client, campaign, guide, wren, turn):
    client.force_login(guide)
    later = screen.start_exploration(campaign=campaign, by=guide)
    response = client.post(url(campaign, "stealth"), {"turn": turn.pk, "roller": wren.pk})
    assert b"moved on" in response.content
    assert not later.changes.filter(label__startswith="Stealth").exists()


def test_bands_posted_are_stored(client, campaign, guide):
    client.force_login(guide)
    response = client.post(url(campaign, "bands"), {
        "hostile": "3", "unfriendly": "5", "unsure": "8", "amicable": "11", "friendly": "12"})
    assert response.status_code == 302
    assert Campaign.objects.get(pk=campaign.pk).settings[screen.BANDS_KEY][0] == 3
