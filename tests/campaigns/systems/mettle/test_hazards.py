"""The Guide's Hazards card (issue #13; hazards.py, guide_views.hazard_*): the engine's
falls, fire, area damage and afflictions applied to a character's Mettle, audited and
undoable; permissions; hostile input beside the field; the secret Dose never on a page a
player sees."""

import random

import pytest
from django.urls import reverse

from campaigns import services
from campaigns.services import CampaignError
from campaigns.systems.mettle import hazards
from campaigns.systems.mettle.hazard_models import MettleHazard
from characters.systems.mettle.models import MettleCharacter
from rules.engine.mettle import damage
from tests.characters.systems.mettle.helpers import make_viktor
from tests.factories import (
    CoImpMembershipFactory,
    MembershipFactory,
    SessionFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


class Fixed(random.Random):
    def __init__(self, *faces):
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a, b):
        return self.faces.pop(0)


def url(campaign, name, *args):
    return reverse(f"campaigns:mettle_{name}", args=[campaign.pk, *args])


def fall(viktor, **more):
    return {"character": viktor.pk, "kind": "fall", "zones": 2, "surface": "normal",
            "jumped": False, "soak": None, **more}


# --- engine glue ----------------------------------------------------------------------------
def test_fall_soaked_by_poise_and_applied(campaign, gm, viktor):
    """Viktor: Mettle 9, POISE 2, no armour. 1d6 (5) +4 (two Zones) = 9, less POISE 2 = 7."""
    hazard = hazards.apply(campaign=campaign, by=gm, data=fall(viktor), rng=Fixed(5))
    assert (hazard.damage, hazard.soak, hazard.through) == (9, 2, 7)
    viktor.refresh_from_db()
    assert viktor.mettle_current == 2
    assert "Mettle 9 → 2" in hazard.summary


@pytest.fixture
def plated(campaign):
    """FRAME 2, POISE 3, Heavy plate (Soak 3, Load 3) and nothing else carried: the plate's
    Load over FRAME lowers POISE to 2 (RS §Armor)."""
    user = MembershipFactory(campaign=campaign).user
    character = make_viktor(user, name="Greta", frame=2, poise=3, armor="Heavy (Plate)",
                            weapons=[], gear=[])
    services.character_join(campaign=campaign, character=character, by=user)
    return MettleCharacter.objects.get(pk=character.pk)


def test_a_fall_soaks_with_the_lowered_poise_and_the_armour(campaign, gm, plated):
    """1d6 (6) +4 = 10, less POISE 2 (3 less the plate's burden 1) + plate 3 = 5."""
    hazard = hazards.apply(campaign=campaign, by=gm, data=fall(plated), rng=Fixed(6))
    assert (hazard.damage, hazard.soak, hazard.through) == (10, 5, 5)
    plated.refresh_from_db()
    assert plated.mettle_current == 4  # Mettle 9 - 5


def test_a_fallen_character_falls_with_poise_0(campaign, gm, plated):
    """Fallen has POISE 0 (EN §Status Effects): the plate's Soak 3 only."""
    MettleCharacter.objects.filter(pk=plated.pk).update(mettle_current=0)
    hazard = hazards.apply(campaign=campaign, by=gm, data=fall(plated), rng=Fixed(2))
    assert (hazard.damage, hazard.soak, hazard.through) == (6, 3, 3)
    plated.refresh_from_db()
    assert plated.mettle_current == -3


def test_hard_ground_jumped_and_typed_soak(campaign, gm, viktor):
    hazard = hazards.apply(campaign=campaign, by=gm, rng=Fixed(6),
                           data=fall(viktor, zones=1, surface="hard", jumped=True, soak=5))
    assert hazard.damage == damage.fall_damage(6, 1, damage.Surface.HARD, jumped=True) == 7
    assert hazard.through == 2


def test_area_damage_halved_in_partial_cover(campaign, gm, viktor):
    hazard = hazards.apply(campaign=campaign, by=gm, rng=Fixed(4), data={
        "character": viktor.pk, "kind": "area", "dm": 3, "partial_cover": True})
    assert hazard.damage == 4  # (4 + 3) halved, rounded up
    assert (hazard.soak, hazard.through) == (3, 1)  # FRAME 3


def test_felling_blow_fallen_or_staggered(campaign, gm, viktor):
    hazards.apply(campaign=campaign, by=gm, rng=Fixed(6, 6, 6), data={
        "character": viktor.pk, "kind": "fire", "fire_dice": 3, "burning": True})
    viktor.refresh_from_db()  # 18 - 3 = 15 through: 9 → -6, Fallen
    assert viktor.mettle_current == -6 and viktor.statuses == ["burning"]
    hazard = hazards.apply(campaign=campaign, by=gm, rng=Fixed(2), data={
        "character": viktor.pk, "kind": "area", "dm": 5, "stagger": True})
    viktor.refresh_from_db()  # 7 - 3 = 4: -10, Staggered one more: -11
    assert hazard.felled == "staggered"
    assert viktor.mettle_current == -11 and "staggered" in viktor.statuses


def test_affliction_dose_secret_and_afflicted(campaign, gm, viktor):
    hazard = hazards.apply(campaign=campaign, by=gm, rng=Fixed(6, 5), data={
        "character": viktor.pk, "kind": "affliction", "affliction": "cobra"})
    assert hazard.dose == 8  # 2d6 (11) - FRAME 3
    assert str(hazard.dose) not in hazard.summary
    viktor.refresh_from_db()
    assert viktor.statuses == ["afflicted"] and viktor.mettle_current is None


def test_a_poison_frame_cuts_to_nothing_does_not_afflict(campaign, gm, viktor):
    """Scenery > Affliction: "subtract the victim's FRAME. If positive, lower ...": a
    Dose of 0 has run out at once, so the character is not Afflicted (AMB-M-AFF-6)."""
    hazard = hazards.apply(campaign=campaign, by=gm, rng=Fixed(2), data={
        "character": viktor.pk, "kind": "affliction", "affliction": "tranquilizer"})
    assert hazard.dose == 0  # 1d6 (2) - FRAME 3, never below 0
    assert "no effect" in hazard.summary
    viktor.refresh_from_db()
    assert viktor.statuses == []


def test_undo_restores_and_double_click_is_one_row(campaign, gm, viktor):
    data = {**fall(viktor), "request_key": "k" * 32}
    first = hazards.apply(campaign=campaign, by=gm, data=data, rng=Fixed(5))
    again = hazards.apply(campaign=campaign, by=gm, data=data, rng=Fixed(1))
    assert first.pk == again.pk and MettleHazard.objects.count() == 1
    hazards.undo(campaign=campaign, by=gm, hazard_pk=first.pk)
    hazards.undo(campaign=campaign, by=gm, hazard_pk=first.pk)  # a second click: no-op
    viktor.refresh_from_db()
    assert viktor.mettle_current is None and viktor.statuses == []


def test_undo_refused_when_the_sheet_changed_since(campaign, gm, viktor):
    hazard = hazards.apply(campaign=campaign, by=gm, data=fall(viktor), rng=Fixed(5))
    MettleCharacter.objects.filter(pk=viktor.pk).update(mettle_current=5)
    with pytest.raises(CampaignError) as error:
        hazards.undo(campaign=campaign, by=gm, hazard_pk=hazard.pk)
    assert error.value.code == "changed_since"


def test_a_player_cannot_apply(campaign, player, viktor):
    with pytest.raises(CampaignError):
        hazards.apply(campaign=campaign, by=player, data=fall(viktor), rng=Fixed(5))


# --- views ----------------------------------------------------------------------------------
def posted(viktor, **more):
    return {"hz-character": str(viktor.pk), "hz-kind": "fall", "hz-zones": "2",
            "hz-surface": "normal", **more}


def test_permissions(client, campaign, gm, player, viktor):
    hazard = hazards.apply(campaign=campaign, by=gm, data=fall(viktor), rng=Fixed(1))
    posts = [url(campaign, "hazard_apply"), url(campaign, "hazard_undo", hazard.pk)]
    for path in posts:
        response = client.post(path, posted(viktor))
        assert response.status_code == 302 and "/login" in response.url
    client.force_login(UserFactory())
    assert {client.post(p, posted(viktor)).status_code for p in posts} == {404}
    other = MembershipFactory(campaign=campaign).user  # another player
    client.force_login(other)
    assert {client.post(p, posted(viktor)).status_code for p in posts} == {403}
    client.force_login(player)
    assert {client.post(p, posted(viktor)).status_code for p in posts} == {403}
    assert MettleHazard.objects.count() == 1
    client.force_login(gm)
    assert client.post(url(campaign, "hazard_apply"), posted(viktor)).status_code == 302
    co_guide = CoImpMembershipFactory(campaign=campaign).user
    client.force_login(co_guide)
    response = client.post(url(campaign, "hazard_apply"), posted(viktor), HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert response.status_code == 200 and 'id="hazards"' in page
    assert 'hx-swap-oob="true"' in page  # the party card, with the new Mettle
    viktor.refresh_from_db()
    assert f"{viktor.mettle_current}/9" in page
    assert MettleHazard.objects.count() == 3
    assert client.post(url(campaign, "hazard_undo", 99999)).status_code == 404


@pytest.mark.parametrize("changes, field, message", [
    ({"hz-zones": "-3"}, "zones", "greater than or equal"),
    ({"hz-zones": "99999999999999"}, "zones", "less than or equal"),
    ({"hz-zones": "two"}, "zones", "whole number"),
    ({"hz-zones": ""}, "zones", "How many Zones"),
    ({"hz-character": "abc"}, "character", "valid choice"),
    ({"hz-character": "999999"}, "character", "valid choice"),
    ({"hz-kind": "lava"}, "kind", "valid choice"),
    # An affliction's ticks are its row's buttons, not a hazard the form rolls.
    ({"hz-kind": "aff_lower"}, "kind", "valid choice"),
    ({"hz-kind": "aff_recover"}, "kind", "valid choice"),
    ({"hz-kind": "fire"}, "fire_dice", "How many d6"),
    ({"hz-kind": "fire", "hz-fire_dice": "50"}, "fire_dice", "less than or equal"),
    ({"hz-kind": "area"}, "dm", "DM"),
    ({"hz-kind": "affliction", "hz-affliction": "plague"}, "affliction", "valid choice"),
    ({"hz-kind": "affliction"}, "affliction", "Choose the affliction"),
    ({"hz-soak": "1e9"}, "soak", "whole number"),
])
def test_hostile_input_beside_the_field(client, campaign, gm, viktor, changes, field, message):
    client.force_login(gm)
    response = client.post(url(campaign, "hazard_apply"), posted(viktor, **changes))
    assert response.status_code == 400
    form = response.context["hazard_form"]
    assert field in form.errors and message in " ".join(form.errors[field])
    page = response.content.decode()
    assert f'id="errors-hz-{field}"' in page or f"errors-{field}" in page or message in page
    assert not MettleHazard.objects.exists()
    viktor.refresh_from_db()
    assert viktor.mettle_current is None


def test_a_character_of_another_campaign_is_refused(client, campaign, gm, viktor):
    stranger = make_viktor(UserFactory(), name="Olga")
    client.force_login(gm)
    response = client.post(url(campaign, "hazard_apply"),
                           posted(viktor, **{"hz-character": str(stranger.pk)}))
    assert response.status_code == 400
    assert MettleHazard.objects.count() == 0


def test_the_dose_is_shown_to_the_guide_only(client, campaign, gm, player, viktor):
    SessionFactory(campaign=campaign)
    hazard = hazards.apply(campaign=campaign, by=gm, rng=Fixed(6, 6), data={
        "character": viktor.pk, "kind": "affliction", "affliction": "curare"})
    assert hazard.dose == 9
    client.force_login(gm)
    page = client.get(url(campaign, "guide")).content.decode()
    assert "<td data-dose>9</td>" in page
    marker = "data-dose"
    client.force_login(player)
    for path in (viktor.get_absolute_url(), campaign.get_absolute_url(),
                 reverse("campaigns:sessions", args=[campaign.pk]),
                 reverse("campaigns:session_detail", args=[campaign.pk, 1])):
        response = client.get(path)
        assert response.status_code == 200, path
        text = response.content.decode()
        assert marker not in text and "Dose" not in text and "Curare" not in text, path
    assert client.get(url(campaign, "guide")).status_code == 403


def test_a_character_in_a_fight_is_refused_beside_the_field(client, campaign, gm, viktor):
    """The Initiative tracker writes the fight's Mettle back at its end: a fall, fire or
    area damage on the sheet meanwhile would be lost, so it is refused until the fight
    ends (an affliction is recorded in the fight: AMB-M-AFF-4)."""
    from campaigns.systems.mettle import initiative
    encounter = initiative.create(campaign=campaign, by=gm, name="Quay")
    initiative.add_characters(encounter_id=encounter.pk, version=None, characters=[viktor])
    client.force_login(gm)
    response = client.post(url(campaign, "hazard_apply"), posted(viktor))
    assert response.status_code == 400
    assert "Quay" in " ".join(response.context["hazard_form"].errors["character"])
    assert not MettleHazard.objects.exists()
