"""An affliction's ticks on the Guide's Hazards card (Scenery > Affliction; hazards.
affliction_tick, guide_views.affliction_tick; docs/RULES.md AMB-M-AFF-1 to -5): max Mettle
lowered by one up to the Dose kept on the row it was rolled on, recovered once it has
ended, each tick a MettleHazard row with before and after, a request key and the newest
undoable; every sheet shows the lowered maximum; permissions and hostile input."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.services import CampaignError
from campaigns.systems.mettle import hazards
from campaigns.systems.mettle.hazard_models import MettleHazard
from characters.systems.mettle.apps import KEY
from characters.systems.mettle.builds import sheet_for
from characters.systems.mettle.models import MettleCharacter
from tests.characters.systems.mettle.helpers import stats
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

from .test_hazards import Fixed

pytestmark = pytest.mark.django_db


@pytest.fixture
def cold(campaign, gm, viktor):
    """A common cold: 1d6 (5) - 3 = Dose 2 (a disease: FRAME is not subtracted)."""
    row = hazards.apply(campaign=campaign, by=gm, rng=Fixed(5), data={
        "character": viktor.pk, "kind": "affliction", "affliction": "cold"})
    assert row.dose == 2
    return row


def tick(campaign, gm, cold, step, key=None):
    return hazards.affliction_tick(campaign=campaign, by=gm, affliction_pk=cold.pk,
                                   step=step, request_key=key)


def fresh(viktor):
    return MettleCharacter.objects.get(pk=viktor.pk)


# --- the service ----------------------------------------------------------------------------
def test_ticks_lower_max_mettle_up_to_the_dose_then_refuse(campaign, gm, viktor, cold):
    first = tick(campaign, gm, cold, "lower")
    assert (first.kind, first.affliction_id) == ("aff_lower", cold.pk)
    assert (first.max_lost_before, first.max_lost_after) == (0, 1)
    assert first.summary == "Viktor: Common cold, max Mettle lowered 9 → 8."  # no Dose
    tick(campaign, gm, cold, "lower")
    assert fresh(viktor).mettle_max_lost == 2
    assert sheet_for(fresh(viktor)).value("mettle_max") == 7
    with pytest.raises(CampaignError) as error:
        tick(campaign, gm, cold, "lower")
    assert error.value.code == "dose_reached"
    assert fresh(viktor).mettle_max_lost == 2
    assert hazards.affliction_state(cold)["ended"]


def test_current_mettle_above_the_new_maximum_comes_down(campaign, gm, viktor, cold):
    MettleCharacter.objects.filter(pk=viktor.pk).update(mettle_current=9)
    row = tick(campaign, gm, cold, "lower")
    assert (row.mettle_before, row.mettle_after) == (9, 8)
    assert fresh(viktor).mettle_current == 8
    MettleCharacter.objects.filter(pk=viktor.pk).update(mettle_current=4)
    row = tick(campaign, gm, cold, "lower")
    assert (row.mettle_before, row.mettle_after) == (4, 4)  # below it: untouched


def test_a_blank_current_mettle_follows_the_maximum(campaign, gm, viktor, cold):
    tick(campaign, gm, cold, "lower")
    assert fresh(viktor).mettle_current is None
    assert sheet_for(fresh(viktor)).value("mettle_current") == 8


def test_recovery_ends_the_affliction_and_stops_at_zero(campaign, gm, viktor, cold):
    tick(campaign, gm, cold, "lower")
    MettleCharacter.objects.filter(pk=viktor.pk).update(mettle_current=3)
    row = tick(campaign, gm, cold, "recover")  # cured after one day
    assert (row.kind, row.max_lost_before, row.max_lost_after) == ("aff_recover", 1, 0)
    assert fresh(viktor).mettle_current == 3  # "unaffected by Rallies": the maximum only
    with pytest.raises(CampaignError) as error:
        tick(campaign, gm, cold, "lower")
    assert error.value.code == "ended"
    with pytest.raises(CampaignError) as error:
        tick(campaign, gm, cold, "recover")
    assert error.value.code == "nothing_lost"


def test_afflicted_ends_when_the_affliction_runs_out(campaign, gm, viktor, cold):
    """EN §Status Effects: Afflicted "until it runs out or is cured" (AMB-M-AFF-6): the
    tick that takes the last of the Dose takes the status off, and its Undo puts it back."""
    tick(campaign, gm, cold, "lower")
    assert fresh(viktor).statuses == ["afflicted"]
    last = tick(campaign, gm, cold, "lower")  # Dose 2 reached
    assert fresh(viktor).statuses == []
    assert (last.statuses_before, last.statuses_after) == (["afflicted"], [])
    assert last.summary.endswith("; no longer Afflicted.")
    recovery = tick(campaign, gm, cold, "recover")  # after the run-out: nothing changes
    assert recovery.statuses_after == [] and fresh(viktor).statuses == []
    hazards.undo(campaign=campaign, by=gm, hazard_pk=recovery.pk)
    hazards.undo(campaign=campaign, by=gm, hazard_pk=last.pk)
    assert fresh(viktor).statuses == ["afflicted"]


def test_afflicted_ends_at_the_cure(campaign, gm, viktor, cold):
    tick(campaign, gm, cold, "lower")
    cure = tick(campaign, gm, cold, "recover")  # cured before the Dose is reached
    assert (cure.statuses_before, cure.statuses_after) == (["afflicted"], [])
    assert fresh(viktor).statuses == []


def test_afflicted_stays_while_another_affliction_lasts(campaign, gm, viktor, cold):
    bite = hazards.apply(campaign=campaign, by=gm, rng=Fixed(4), data={
        "character": viktor.pk, "kind": "affliction", "affliction": "monitor"})
    assert bite.dose == 3
    tick(campaign, gm, cold, "lower")
    cure = tick(campaign, gm, cold, "recover")  # the cold cured, the bite still festers
    assert cure.statuses_after == ["afflicted"] and fresh(viktor).statuses == ["afflicted"]
    for _ in range(3):
        last = hazards.affliction_tick(campaign=campaign, by=gm, affliction_pk=bite.pk,
                                       step="lower")
    assert last.statuses_after == [] and fresh(viktor).statuses == []


def test_other_statuses_are_kept(campaign, gm, viktor, cold):
    MettleCharacter.objects.filter(pk=viktor.pk).update(statuses=["afflicted", "blinded"])
    tick(campaign, gm, cold, "lower")
    tick(campaign, gm, cold, "lower")
    assert fresh(viktor).statuses == ["blinded"]


def test_the_newest_tick_is_undone_and_an_older_one_refused(campaign, gm, viktor, cold):
    first = tick(campaign, gm, cold, "lower")
    second = tick(campaign, gm, cold, "lower")
    with pytest.raises(CampaignError) as error:
        hazards.undo(campaign=campaign, by=gm, hazard_pk=first.pk)
    assert error.value.code == "changed_since"
    with pytest.raises(CampaignError) as error:  # the affliction with live ticks
        hazards.undo(campaign=campaign, by=gm, hazard_pk=cold.pk)
    assert error.value.code == "has_ticks"
    hazards.undo(campaign=campaign, by=gm, hazard_pk=second.pk)
    assert fresh(viktor).mettle_max_lost == 1
    assert hazards.affliction_state(cold)["taken"] == 1  # the undone tick no longer counts
    hazards.undo(campaign=campaign, by=gm, hazard_pk=first.pk)
    hazards.undo(campaign=campaign, by=gm, hazard_pk=cold.pk)
    viktor = fresh(viktor)
    assert (viktor.mettle_max_lost, viktor.statuses) == (0, [])


def test_undo_puts_back_the_mettle_a_tick_lowered(campaign, gm, viktor, cold):
    MettleCharacter.objects.filter(pk=viktor.pk).update(mettle_current=9)
    row = tick(campaign, gm, cold, "lower")
    hazards.undo(campaign=campaign, by=gm, hazard_pk=row.pk)
    viktor = fresh(viktor)
    assert (viktor.mettle_current, viktor.mettle_max_lost) == (9, 0)


def test_a_request_key_replayed_is_one_tick(campaign, gm, viktor, cold):
    first = tick(campaign, gm, cold, "lower", key="a" * 32)
    again = tick(campaign, gm, cold, "lower", key="a" * 32)
    assert first.pk == again.pk and fresh(viktor).mettle_max_lost == 1
    assert MettleHazard.objects.filter(kind="aff_lower").count() == 1


def test_refusals(campaign, gm, player, viktor, cold):
    with pytest.raises(CampaignError) as error:
        tick(campaign, player, cold, "lower")
    assert error.value.code == "not_imp"
    with pytest.raises(CampaignError) as error:
        tick(campaign, gm, cold, "sideways")
    assert error.value.code == "step"
    fall = hazards.apply(campaign=campaign, by=gm, rng=Fixed(1), data={
        "character": viktor.pk, "kind": "fall", "zones": 0, "surface": "normal"})
    with pytest.raises(CampaignError) as error:  # not an affliction
        hazards.affliction_tick(campaign=campaign, by=gm, affliction_pk=fall.pk, step="lower")
    assert error.value.code == "no_such_hazard"
    other = CampaignFactory(system=KEY)
    with pytest.raises(CampaignError):  # another campaign's Guide
        tick(other, other.owner, cold, "lower")
    assert fresh(viktor).mettle_max_lost == 0


def test_a_poison_ticks_by_the_fights_rounds(campaign, gm, viktor):
    """Scenery > Affliction: a poison lowers max Mettle "by one each Round": a curare dart
    in a fight (2d6 (6+4) - FRAME 3 = Dose 7) is rolled on the card and ticked each Round,
    the fight's maximum and Mettle following at once (AMB-M-AFF-4); the end writes back
    the fight's Mettle under the lowered maximum, Afflicted kept."""
    from campaigns.systems.mettle import initiative

    encounter = initiative.create(campaign=campaign, by=gm, name="Quay")
    initiative.add_characters(encounter_id=encounter.pk, version=None, characters=[viktor])
    initiative.add_npc(encounter_id=encounter.pk, version=None, name="Thug", pool=3)
    me = str(encounter.combatants.get(character_id=viktor.pk).pk)
    initiative.step(encounter_id=encounter.pk, version=None, kind="trigger",
                    payload={"key": me}, by=gm)
    initiative.step(encounter_id=encounter.pk, version=None, kind="damage",
                    payload={"key": me, "amount": 5}, by=gm)  # 5 - Soak 3: Mettle 7/9
    dart = hazards.apply(campaign=campaign, by=gm, rng=Fixed(6, 4), data={
        "character": viktor.pk, "kind": "affliction", "affliction": "curare"})
    assert dart.dose == 7

    def fighter():
        return initiative.load(encounter).state.fighter(me)

    assert "afflicted" in fighter().statuses
    first = tick(campaign, gm, dart, "lower")
    assert (fighter().hp, fighter().hp_max) == (7, 8)  # 7 is under the new maximum
    tick(campaign, gm, dart, "lower")
    tick(campaign, gm, dart, "lower")
    assert (fighter().hp, fighter().hp_max) == (6, 6)  # came down to it
    steps = list(encounter.steps.filter(kind="affliction").order_by("number"))
    assert [s.payload["change"] for s in steps] == [0, -1, -1, -1]
    assert steps[1].text == "Viktor: Curare dart, max Mettle lowered 9 → 8."
    assert all("7" not in s.text.split("→")[0] for s in steps[:1])  # no Dose in the log
    with pytest.raises(CampaignError) as error:  # the card defers to the tracker's Undo
        hazards.undo(campaign=campaign, by=gm, hazard_pk=first.pk)
    assert error.value.code == "in_a_fight"
    initiative.undo(encounter_id=encounter.pk, version=None)  # the third tick
    assert fresh(viktor).mettle_max_lost == 2 and fighter().hp_max == 7
    assert hazards.affliction_state(dart)["taken"] == 2
    initiative.step(encounter_id=encounter.pk, version=None, kind="end", payload={}, by=gm)
    viktor = fresh(viktor)
    # The end refills Mettle above 0 to the (lowered) maximum: blank, 7 on the sheet.
    assert viktor.mettle_current is None and viktor.statuses == ["afflicted"]
    assert sheet_for(viktor).value("mettle_current") == 7


def test_a_tick_in_the_fight_that_ends_the_affliction_clears_afflicted_there(
        campaign, gm, viktor, cold):
    from campaigns.systems.mettle import initiative

    encounter = initiative.create(campaign=campaign, by=gm, name="Quay")
    initiative.add_characters(encounter_id=encounter.pk, version=None, characters=[viktor])
    initiative.add_npc(encounter_id=encounter.pk, version=None, name="Thug", pool=3)
    me = str(encounter.combatants.get(character_id=viktor.pk).pk)
    tick(campaign, gm, cold, "lower")  # before the trigger too: in the fight's ledger
    tick(campaign, gm, cold, "lower")  # run out: no longer Afflicted, in the fight too
    state = initiative.load(encounter).state
    assert "afflicted" not in state.fighter(me).statuses and state.fighter(me).hp_max == 7
    initiative.step(encounter_id=encounter.pk, version=None, kind="trigger",
                    payload={"key": me}, by=gm)
    initiative.step(encounter_id=encounter.pk, version=None, kind="end", payload={}, by=gm)
    assert fresh(viktor).statuses == [] and fresh(viktor).mettle_max_lost == 2


def test_other_hazards_are_still_refused_in_a_fight(campaign, gm, viktor):
    from campaigns.systems.mettle import initiative

    encounter = initiative.create(campaign=campaign, by=gm, name="Quay")
    initiative.add_characters(encounter_id=encounter.pk, version=None, characters=[viktor])
    with pytest.raises(CampaignError) as error:
        hazards.apply(campaign=campaign, by=gm, rng=Fixed(3), data={
            "character": viktor.pk, "kind": "fall", "zones": 1, "surface": "normal"})
    assert error.value.code == "in_a_fight"


def test_every_sheet_shows_the_lowered_maximum(client, campaign, gm, player, viktor, cold):
    """The page, the builder (as stored and as previewed), the print, the party card and
    the fight all read the sheet built with what the affliction took: 9 - 1 = 8."""
    from campaigns.systems.mettle import initiative
    from campaigns.systems.mettle.encounters import MettleCombatant
    from tests.characters.systems.mettle.helpers import posted

    tick(campaign, gm, cold, "lower")
    client.force_login(player)
    assert stats(client.get(viktor.get_absolute_url()))["mettle_max"] == "8"
    assert stats(client.get(reverse("characters:edit", args=[viktor.pk])))["mettle_max"] == "8"
    preview = client.post(reverse("characters:preview", args=[viktor.pk]), posted(),
                          HTTP_HX_REQUEST="true")
    assert stats(preview)["mettle_max"] == "8"
    refused = client.post(reverse("characters:edit", args=[viktor.pk]),
                          posted(mettle_current="9"))
    assert "Current Mettle 9 is over the maximum of 8." in refused.content.decode()
    client.post(reverse("characters:edit", args=[viktor.pk]), posted(name="Vik"))
    assert (fresh(viktor).name, fresh(viktor).mettle_max_lost) == ("Vik", 1)  # kept
    printed = client.get(reverse("characters:print", args=[viktor.pk])).content.decode()
    assert '<span class="m-number" data-field="mettle_max">8</span>' in printed
    client.force_login(gm)
    guide = client.get(reverse("campaigns:mettle_guide", args=[campaign.pk])).content.decode()
    assert "8/8" in guide
    encounter = initiative.create(campaign=campaign, by=gm, name="Quay")
    initiative.add_characters(encounter_id=encounter.pk, version=None, characters=[viktor])
    combatant = MettleCombatant.objects.get(character_id=viktor.pk)
    assert initiative._numbers(initiative._combatants(combatant.encounter)[0])[0] == 8


# --- the view -------------------------------------------------------------------------------
def tick_url(campaign, row):
    return reverse("campaigns:mettle_affliction_tick", args=[campaign.pk, row.pk])


def test_permissions(client, campaign, gm, player, viktor, cold):
    path = tick_url(campaign, cold)
    response = client.post(path, {"step": "lower"})
    assert response.status_code == 302 and "/login" in response.url
    client.force_login(UserFactory())
    assert client.post(path, {"step": "lower"}).status_code == 404
    client.force_login(MembershipFactory(campaign=campaign).user)  # another player
    assert client.post(path, {"step": "lower"}).status_code == 403
    client.force_login(player)  # the afflicted character's own player
    assert client.post(path, {"step": "lower"}).status_code == 403
    assert fresh(viktor).mettle_max_lost == 0
    assert client.get(path).status_code == 405
    client.force_login(gm)
    assert client.post(path, {"step": "lower"}).status_code == 302
    response = client.post(path, {"step": "lower", "request_key": "b" * 32},
                           HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert response.status_code == 200 and 'id="hazards"' in page
    assert "max Mettle lowered 8 → 7" in page and "7/7" in page  # the party card too
    assert fresh(viktor).mettle_max_lost == 2
    assert client.post(path, {"step": "lower", "request_key": "b" * 32}).status_code == 302
    assert fresh(viktor).mettle_max_lost == 2  # replayed: one tick
    assert client.post(tick_url(campaign, cold).replace(f"/{cold.pk}/", "/99999/"),
                       {"step": "lower"}).status_code == 404


def test_the_card_lists_the_affliction_with_its_buttons(client, campaign, gm, viktor, cold):
    client.force_login(gm)
    page = client.get(reverse("campaigns:mettle_guide", args=[campaign.pk])).content.decode()
    assert f'data-affliction="{cold.pk}"' in page and "Common cold" in page
    assert 'value="lower"' in page and 'value="recover"' not in page  # nothing lost yet
    tick(campaign, gm, cold, "lower")
    tick(campaign, gm, cold, "lower")
    page = client.get(reverse("campaigns:mettle_guide", args=[campaign.pk])).content.decode()
    assert 'value="lower"' not in page and 'value="recover"' in page  # run out
    assert "(run out)" in page


def test_the_card_reads_its_afflictions_in_flat_queries(client, campaign, gm, viktor, cold):
    """The ticks of every affliction listed are counted in the list's one query."""
    client.force_login(gm)
    path = reverse("campaigns:mettle_guide", args=[campaign.pk])

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(path).status_code == 200
        return len(captured)

    one = queries()
    for face in (6, 6):
        hazards.apply(campaign=campaign, by=gm, rng=Fixed(face), data={
            "character": viktor.pk, "kind": "affliction", "affliction": "cold"})
    tick(campaign, gm, cold, "lower")
    page = client.get(path).content.decode()
    assert page.count("data-affliction=") == 3
    assert queries() == one


@pytest.mark.parametrize("data, status, message", [
    ({"step": "sideways"}, 200, "Choose lower or recover."),
    ({}, 200, "Choose lower or recover."),
    ({"step": ["lower", "recover"]}, 200, ""),  # the last one posted, as Django reads it
    ({"step": "lower", "request_key": "x" * 500}, 400, ""),  # forged: RequestKeyField's 400
])
def test_hostile_input_is_said_not_a_500(client, campaign, gm, viktor, cold, data, status,
                                         message):
    client.force_login(gm)
    response = client.post(tick_url(campaign, cold), data, HTTP_HX_REQUEST="true")
    assert response.status_code == status and message in response.content.decode()
    assert fresh(viktor).mettle_max_lost == 0  # "recover" with nothing lost is refused too


def test_a_refusal_is_the_cards_notice(client, campaign, gm, viktor, cold):
    client.force_login(gm)
    for _ in range(2):
        tick(campaign, gm, cold, "lower")
    response = client.post(tick_url(campaign, cold), {"step": "lower"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "has run out" in response.content.decode()
    assert fresh(viktor).mettle_max_lost == 2


def test_the_card_ticks_in_a_fight_and_the_trackers_undo_takes_it_back(client, campaign,
                                                                        gm, player, viktor,
                                                                        cold):
    """Through the pages: the card's tick while Viktor is in a fight is in the fight's log
    (the players' live view too, no Dose); the tracker's Undo takes both back."""
    from campaigns.systems.mettle import initiative

    encounter = initiative.create(campaign=campaign, by=gm, name="Quay")
    initiative.add_characters(encounter_id=encounter.pk, version=None, characters=[viktor])
    client.force_login(gm)
    assert client.post(tick_url(campaign, cold), {"step": "lower"}).status_code == 302
    assert fresh(viktor).mettle_max_lost == 1
    fight_url = reverse("campaigns:mettle_initiative", args=[campaign.pk, encounter.pk])
    assert "Viktor: Common cold, max Mettle lowered 9 → 8." in client.get(
        fight_url).content.decode()
    client.force_login(player)
    live = client.get(fight_url).content.decode()
    assert "max Mettle lowered 9 → 8" in live and "8/8" in live
    assert client.post(reverse("campaigns:mettle_initiative_undo",
                               args=[campaign.pk, encounter.pk])).status_code == 403
    client.force_login(gm)
    encounter.refresh_from_db()
    response = client.post(reverse("campaigns:mettle_initiative_undo",
                                   args=[campaign.pk, encounter.pk]),
                           {"version": encounter.version})
    assert response.status_code == 302
    assert fresh(viktor).mettle_max_lost == 0 and hazards.affliction_state(cold)["taken"] == 0
    assert not encounter.steps.exists()
