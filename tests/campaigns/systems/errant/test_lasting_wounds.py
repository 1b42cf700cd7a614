"""Lasting wounds (IT §Death & Dying: "Wounds without a stated duration are permanent unless
seen to by a physician, though they cannot restore lost body parts"; AMB-E-WOUND-1, -2):
written to the character when the fight ends, undone with the end, read by the sheet (HP
halved), brought into the next fight, healed by a physician in a Downtime Turn or by a
beneficence, the healing undone; the campaign's character page and its POSTs: who may,
hostile input beside the field."""

import re

import pytest
from django.urls import reverse

from campaigns.services import CampaignError
from campaigns.systems.errant import downtime, fight, lasting
from characters.systems.errant.builds import sheet_for
from characters.systems.errant.models import ErrantCharacter, ErrantWound, ErrantWoundHeal
from tests.campaigns.systems.errant.test_fight import Dice, _wren_at_one_hp_wounded, go
from tests.factories import CampaignFactory, MembershipFactory

pytestmark = pytest.mark.django_db


def _ended(campaign, guide, wren, column, damage):
    f, wound = _wren_at_one_hp_wounded(campaign, guide, wren, column, damage, 1)
    go(campaign, guide, f, "end_turn")
    go(campaign, guide, f, "end")
    f.refresh_from_db()
    return f


def _undo(campaign, guide, f):
    f.refresh_from_db()
    return fight.undo(campaign=campaign, by=guide, fight_pk=f.pk, version=f.version)


def _carry(wren, *cells, campaign=None):
    return [ErrantWound.objects.create(character=wren, campaign=campaign, column=c, row=r,
                                       text="A wound", fight_name="Earlier")
            for c, r in cells]


def test_the_end_writes_a_lasting_wound_and_undoing_the_end_marks_it_undone(
        campaign, guide, wren):
    f = _ended(campaign, guide, wren, "trauma", 2)  # "Leg mangled. Can't run."
    wound = ErrantWound.objects.get(character=wren)
    assert (wound.column, wound.row, wound.fight_name) == ("trauma", 2, "In the mire")
    assert wound.text.startswith("Leg mangled") and wound.end_step.kind == "end"
    assert wound.end_step.payload["wounds"] == [wound.pk]
    assert sheet_for(ErrantCharacter.objects.get(pk=wren.pk)).build.wounds == (("trauma", 2),)
    _undo(campaign, guide, f)
    wound.refresh_from_db()
    assert wound.undone_at is not None and wound.undone_by == guide  # kept, marked
    assert sheet_for(ErrantCharacter.objects.get(pk=wren.pk)).build.wounds == ()


@pytest.mark.parametrize("damage", [1, 2, 3])  # Zapped, Knocked out, Concussed
def test_a_wound_with_a_stated_duration_ends_with_the_fight(campaign, guide, wren, damage):
    _ended(campaign, guide, wren, "shock", damage)
    assert not ErrantWound.objects.exists()


def test_hp_halved_lasts_on_the_sheet_and_into_the_next_fight(campaign, guide, wren):
    phys = sheet_for(wren).value("phys")
    _ended(campaign, guide, wren, "toxic", 2)  # "Immune system compromised. HP halved."
    wren = ErrantCharacter.objects.get(pk=wren.pk)
    assert sheet_for(wren).value("hp_max") == phys // 2
    payload = fight.errant_payload(wren)
    assert payload["hp_max"] == phys // 2 and payload["wounds"] == [["toxic", 2]]
    nxt = fight.start(campaign=campaign, by=guide, name="Again", character_pks=[wren.pk],
                      rng=Dice(3, 3))
    errant = fight.state_of(nxt).fighters[f"e{wren.pk}"]
    assert errant.hp_max == phys // 2  # not halved twice
    assert errant.carried == 1 and errant.taken == [] and errant.lasting == []
    assert "carrying 1 wound." in nxt.steps.get(kind="errant").text


def test_a_new_fight_brings_both_legs_lost_and_writes_no_wound_twice(campaign, guide, wren):
    _carry(wren, ("trauma", 2), ("trauma", 5), campaign=campaign)
    f = fight.start(campaign=campaign, by=guide, name="Lame", character_pks=[wren.pk],
                    rng=Dice(3, 3))
    assert "carrying 2 wounds: can't walk" in f.steps.get(kind="errant").text
    w = f"e{wren.pk}"
    go(campaign, guide, f, "npc", {"name": "Goblin", "threat": 1, "hp": 4, "att": "spear",
                                   "mv": "2", "morale": 7, "alignment": "Chaotic",
                                   "damage_sides": 6, "warband": 0})
    go(campaign, guide, f, "turn", {"call": "even"}, 1, 1)  # the Company wins
    go(campaign, guide, f, "pace", {"key": w, "pace": "quick"})
    with pytest.raises(CampaignError, match="can't walk: both legs are gone") as refused:
        go(campaign, guide, f, "act", {"key": w, "kind": "move"})
    assert refused.value.field == "kind"
    go(campaign, guide, f, "end_turn")
    go(campaign, guide, f, "end")
    assert ErrantWound.objects.filter(character=wren).count() == 2


def test_a_healed_wound_no_longer_comes_in(campaign, guide, wren):
    wound, = _carry(wren, ("toxic", 7), campaign=campaign)  # "Can't move"
    assert fight.errant_payload(wren)["wounds"] == [["toxic", 7]]
    lasting.heal(campaign=campaign, by=guide, wound_pk=wound.pk, how="beneficence")
    assert fight.errant_payload(wren)["wounds"] == []


def test_undoing_the_end_is_refused_once_a_wound_is_healed(campaign, guide, wren):
    f = _ended(campaign, guide, wren, "trauma", 3)  # "Arm wrecked."
    wound = ErrantWound.objects.get(character=wren)
    done = lasting.heal(campaign=campaign, by=guide, wound_pk=wound.pk, how="beneficence")
    with pytest.raises(CampaignError, match="healed since the fight ended"):
        _undo(campaign, guide, f)
    lasting.undo_heal(campaign=campaign, by=guide, heal_pk=done.pk)
    _undo(campaign, guide, f)
    wound.refresh_from_db()
    assert wound.undone_at is not None


def test_a_physician_heals_one_wound_per_downtime_turn_never_a_lost_part(campaign, guide,
                                                                        wren):
    arm, leg, eye = _carry(wren, ("trauma", 3), ("trauma", 2), ("burn", 1), campaign=campaign)
    with pytest.raises(CampaignError, match="in a Downtime Turn") as refused:
        lasting.heal(campaign=campaign, by=guide, wound_pk=arm.pk, how="physician",
                     physician="Dr Vell")
    assert refused.value.field == "how"
    turn = downtime.start(campaign=campaign, by=guide, settlement="town")
    with pytest.raises(CampaignError, match="Name the physician") as refused:
        lasting.heal(campaign=campaign, by=guide, wound_pk=arm.pk, how="physician")
    assert refused.value.field == "physician"
    with pytest.raises(CampaignError, match="cannot restore lost body parts"):
        lasting.heal(campaign=campaign, by=guide, wound_pk=eye.pk, how="physician",
                     physician="Dr Vell")
    done = lasting.heal(campaign=campaign, by=guide, wound_pk=arm.pk, how="physician",
                        physician="Dr Vell")
    assert done.turn_id == turn.pk and done.created_by == guide
    with pytest.raises(CampaignError, match="already treated a wound") as refused:
        lasting.heal(campaign=campaign, by=guide, wound_pk=leg.pk, how="physician",
                     physician="dr vell")
    assert refused.value.field == "physician"
    with pytest.raises(CampaignError, match="already healed"):
        lasting.heal(campaign=campaign, by=guide, wound_pk=arm.pk, how="beneficence")
    lasting.heal(campaign=campaign, by=guide, wound_pk=leg.pk, how="physician",
                 physician="Mother Osk")  # a second physician
    lasting.heal(campaign=campaign, by=guide, wound_pk=eye.pk, how="beneficence")
    assert lasting.carried(wren).open == []
    lasting.undo_heal(campaign=campaign, by=guide, heal_pk=done.pk)
    assert [w.pk for w in lasting.carried(wren).open] == [arm.pk]
    assert ErrantWoundHeal.objects.count() == 3  # the undone one kept
    with pytest.raises(CampaignError, match="already undone"):
        lasting.undo_heal(campaign=campaign, by=guide, heal_pk=done.pk)


def test_only_the_guide_heals_and_only_the_companys_wounds(campaign, guide, player, wren):
    wound, = _carry(wren, ("trauma", 3), campaign=campaign)
    with pytest.raises(CampaignError, match="Only the Guide"):
        lasting.heal(campaign=campaign, by=player, wound_pk=wound.pk, how="beneficence")
    elsewhere = CampaignFactory(system="errant")
    with pytest.raises(CampaignError, match="not one of the Company's"):
        lasting.heal(campaign=elsewhere, by=elsewhere.owner, wound_pk=wound.pk,
                     how="beneficence")
    done = lasting.heal(campaign=campaign, by=guide, wound_pk=wound.pk, how="beneficence",
                        request_key="k" * 32)
    again = lasting.heal(campaign=campaign, by=guide, wound_pk=wound.pk, how="beneficence",
                         request_key="k" * 32)
    assert again.pk == done.pk  # a double click counts once
    with pytest.raises(CampaignError, match="Only the Guide"):
        lasting.undo_heal(campaign=campaign, by=player, heal_pk=done.pk)


def test_recovery_leaves_the_hp_of_an_errant_who_cannot_recover_it(campaign, guide, wren):
    """DT §Recovery with "Blood tainted. Can't recover HP" (toxic 3; AMB-E89)."""
    ErrantCharacter.objects.filter(pk=wren.pk).update(hp_current=1)
    _carry(wren, ("toxic", 3), campaign=campaign)
    turn = downtime.start(campaign=campaign, by=guide, settlement="town")
    downtime.act(campaign=campaign, by=guide, turn_pk=turn.pk, step="recover", data={})
    wren.refresh_from_db()
    assert wren.hp_current == 1
    assert turn.changes.filter(what="note", label__contains="can't recover HP").exists()


# -- the pages ---------------------------------------------------------------------------------

def page(campaign, wren):
    return reverse("campaigns:character", args=[campaign.pk, wren.pk])


def heal_url(campaign, wound):
    return reverse("campaigns:errant_wound_heal", args=[campaign.pk, wound.pk])


def test_the_sheet_and_the_campaign_page_list_the_wounds_and_their_effects(
        client, campaign, guide, player, wren):
    _carry(wren, ("trauma", 2), ("trauma", 5), ("toxic", 3), campaign=campaign)
    client.force_login(player)
    sheet = client.get(reverse("characters:detail", args=[wren.pk])).content.decode()
    assert "Lasting wounds" in sheet and "can&#x27;t walk, can&#x27;t recover HP" in sheet
    own = client.get(page(campaign, wren)).content.decode()
    assert 'id="wounds"' in own and "data-heal-submit" not in own  # the player reads
    client.force_login(guide)
    theirs = client.get(page(campaign, wren)).content.decode()
    assert theirs.count("data-heal-submit") == 3


def test_the_heal_post_who_may(client, campaign, guide, player, other, wren):
    wound, = _carry(wren, ("trauma", 3), campaign=campaign)
    anonymous = client.post(heal_url(campaign, wound), {"how": "beneficence"})
    assert anonymous.status_code == 302 and "login" in anonymous.url
    client.force_login(other)  # another player: not their Errant
    assert client.post(heal_url(campaign, wound), {"how": "beneficence"}).status_code == 404
    client.force_login(MembershipFactory().user)  # not a member
    assert client.post(heal_url(campaign, wound), {"how": "beneficence"}).status_code == 404
    client.force_login(player)  # the owner: the Guide's to do
    assert client.post(heal_url(campaign, wound), {"how": "beneficence"}).status_code == 403
    assert not ErrantWoundHeal.objects.exists()
    client.force_login(guide)
    done = client.post(heal_url(campaign, wound), {"how": "beneficence", "note": "Boon, 23"})
    assert done.status_code == 302 and done.url.endswith("#wounds")
    heal = ErrantWoundHeal.objects.get()
    assert heal.note == "Boon, 23" and heal.created_by == guide
    shown = client.get(page(campaign, wren)).content.decode()
    assert "data-wound-healed" in shown and "data-heal-undo" in shown
    undo = reverse("campaigns:errant_wound_heal_undo", args=[campaign.pk, heal.pk])
    client.force_login(player)
    assert client.post(undo).status_code == 403
    heal.refresh_from_db()
    assert heal.undone_at is None
    client.force_login(guide)
    assert client.post(undo).status_code == 302
    heal.refresh_from_db()
    assert heal.undone_at is not None


@pytest.mark.parametrize("data, field, message", [
    ({"how": "prayer"}, "how", "Select a valid choice"),
    ({}, "how", "This field is required"),
    ({"how": "physician", "physician": "Dr\x01Vell"}, "physician", "no control characters"),
    ({"how": "physician", "physician": "x" * 81}, "physician", "at most 80 characters"),
    ({"how": "physician", "physician": "Dr Vell"}, "how", "in a Downtime Turn"),
    ({"how": "beneficence", "note": "\x00"}, "note", "Null characters are not allowed"),
])
def test_hostile_heal_input_is_answered_beside_the_field(client, campaign, guide, wren, data,
                                                         field, message):
    wound, = _carry(wren, ("trauma", 3), campaign=campaign)
    client.force_login(guide)
    response = client.post(heal_url(campaign, wound), data)
    body = response.content.decode()
    assert response.status_code == 200 and message in body
    assert f'id="heal_{field}"' in body
    assert not ErrantWoundHeal.objects.exists()


def test_a_missing_or_undone_wound_is_404(client, campaign, guide, wren):
    wound, = _carry(wren, ("trauma", 3), campaign=campaign)
    client.force_login(guide)
    assert client.post(reverse("campaigns:errant_wound_heal",
                               args=[campaign.pk, 99999]), {"how": "beneficence"}
                       ).status_code == 404
    ErrantWound.objects.filter(pk=wound.pk).update(undone_at="2026-01-01T00:00:00Z")
    assert client.post(heal_url(campaign, wound), {"how": "beneficence"}).status_code == 404
    assert client.post(reverse("campaigns:errant_wound_heal_undo",
                               args=[campaign.pk, 99999])).status_code == 404


def test_a_double_click_on_mark_healed_heals_once_and_answers_both_alike(
        client, campaign, guide, wren):
    """Each wound's heal form carries its own request key: the second POST of a double
    click finds the healing the first made and is answered as it was, not with "already
    healed"; the page writes a key per wound."""
    first, second = _carry(wren, ("trauma", 3), ("toxic", 3), campaign=campaign)
    client.force_login(guide)
    page = client.get(reverse("campaigns:character", args=[campaign.pk, wren.pk]))
    keys = re.findall(r'name="request_key" value="([0-9a-f]+-\d+)"', page.content.decode())
    assert [key.rsplit("-", 1)[1] for key in keys] == [str(first.pk), str(second.pk)]
    posted = {"how": "beneficence", "request_key": keys[0]}
    answers = [client.post(heal_url(campaign, first), posted) for _ in range(2)]
    assert [a.status_code for a in answers] == [302, 302]
    assert ErrantWoundHeal.objects.filter(wound=first).count() == 1
    # The same key for another wound is refused beside the form, and heals nothing.
    reused = client.post(heal_url(campaign, second), posted)
    assert reused.status_code == 200 and "already used" in reused.content.decode()
    assert not ErrantWoundHeal.objects.filter(wound=second).exists()
