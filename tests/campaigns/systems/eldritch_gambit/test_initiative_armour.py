"""The Initiative tracker when a character's sheet changes mid-fight (docs/RULES.md,
Volleyball Initiative, "Armour changed mid-fight"): a step already taken replays with
the Armored HP it was taken under; armour put on or taken off (through the inventory
service) counts from then on (Resources > Armor: "armor only raises max HP, not
current"); Undo is stable; fights stored before the numbers were recorded read the
sheet as now; WP spent on Rerolls during the fight is neither lost nor spent twice."""

import random

import pytest
from django.urls import reverse

from campaigns.systems.eldritch_gambit import initiative as service
from campaigns.systems.eldritch_gambit import roll_services
from campaigns.systems.eldritch_gambit.models import InitiativeStep
from campaigns.systems.eldritch_gambit.rolls import Roll
from characters.systems.eldritch_gambit import inventory
from characters.systems.eldritch_gambit.builds import sheet_for
from characters.systems.eldritch_gambit.models import EldritchGambitCharacter
from rules.engine.eldritch_gambit import rolls
from rules.models import GearItem

pytestmark = pytest.mark.django_db


def wear(character, name):
    item = inventory.item_add(character=character, by=character.owner,
                              catalog_item=GearItem.objects.srd().get(name=name))
    inventory.item_equip(character=character, item=item)
    return item


def armored(character) -> int:
    return sheet_for(EldritchGambitCharacter.objects.get(pk=character.pk)).value("hp_armored")


@pytest.fixture
def fight(campaign, imp, seat):
    ana = seat(name="Ana")
    chain = wear(ana, "Chain mail")  # AP 10
    bo = seat(name="Bo")
    encounter = service.create(campaign=campaign, by=imp, name="Ambush")
    service.add_characters(encounter_id=encounter.pk, version=None, characters=[ana, bo])
    service.add_foe(encounter_id=encounter.pk, version=None, name="Wolf", hp_max=8)
    encounter.refresh_from_db()
    keys = {c.name: c.key for c in encounter.combatants.all()}
    return encounter, ana, bo, chain, keys


def step(encounter, imp, kind, **payload):
    return service.step(encounter_id=encounter.pk, version=None, kind=kind, payload=payload,
                        by=imp)


def texts(tracker):
    return [event.text for event in tracker.state.log]


def test_steps_taken_replay_the_same_after_the_armour_comes_off_and_goes_back_on(
        fight, imp):
    encounter, ana, _, chain, k = fight
    a, w = k["Ana"], k["Wolf"]
    full = armored(ana)
    step(encounter, imp, "trigger", key=a)
    step(encounter, imp, "act", actor=a, targets=[w], action="melee Attack")
    step(encounter, imp, "damage", key=a, amount=3)  # full-3 of full
    before = service.load(encounter)
    assert not before.failed
    assert (before.state.fighter(a).hp, before.state.fighter(a).hp_max) == (full - 3, full)
    recorded = list(InitiativeStep.objects.filter(encounter=encounter)
                    .order_by("number").values_list("text", flat=True))

    # Chain mail off (the real inventory service): Armored HP 10 lower from now on.
    inventory.item_equip(character=ana, item=chain, equipped=False)
    assert armored(ana) == full - 10
    after = service.load(encounter)
    assert not after.failed
    assert texts(after)[:len(texts(before))] == texts(before)  # earlier steps unchanged
    assert f"({full - 3}/{full} HP)" in " ".join(texts(after))
    assert texts(after)[-1] == (f"Ana's maximum HP is now {full - 10} (armour changed): "
                                f"{full - 10}/{full - 10} HP.")
    assert after.state.fighter(a).hp == full - 10  # the sheet allows no more
    assert list(InitiativeStep.objects.filter(encounter=encounter).order_by("number")
                .values_list("text", flat=True)) == recorded

    # The next step records the lowered maximum; putting the armour back on raises the
    # maximum only ("they still need to Rally up to their new max HP").
    heal = step(encounter, imp, "heal", key=a, amount=50)
    assert heal.text.startswith(f"Ana's maximum HP is now {full - 10}")
    assert service.load(encounter).state.fighter(a).hp == full - 10
    inventory.item_equip(character=ana, item=chain)
    back = service.load(encounter)
    assert (back.state.fighter(a).hp, back.state.fighter(a).hp_max) == (full - 10, full)
    rally = step(encounter, imp, "heal", key=a, amount=4)
    assert service.load(encounter).state.fighter(a).hp == full - 6
    assert f"recovers to {full - 6}/{full} HP" in rally.text

    # Undo: the Rally goes, the earlier steps replay as they were, whatever the sheet.
    inventory.item_equip(character=ana, item=chain, equipped=False)
    service.undo(encounter_id=encounter.pk, version=None)
    undone = service.load(encounter)
    assert not undone.failed
    assert texts(undone)[:len(texts(before))] == texts(before)
    assert f"recovers to {full - 10}/{full - 10} HP" in " ".join(texts(undone))
    assert (undone.state.fighter(a).hp, undone.state.fighter(a).hp_max) == (
        full - 10, full - 10)
    service.undo(encounter_id=encounter.pk, version=None)  # the heal
    service.undo(encounter_id=encounter.pk, version=None)  # the damage
    again = service.load(encounter)
    assert not again.failed and again.state.fighter(a).hp == full - 10  # sheet as now


def test_the_end_refills_to_the_maximum_the_fight_ends_with_and_writes_it(fight, imp):
    encounter, ana, _, chain, k = fight
    a, w = k["Ana"], k["Wolf"]
    full = armored(ana)
    step(encounter, imp, "trigger", key=a)
    step(encounter, imp, "act", actor=a, targets=[w], action="melee Attack")
    step(encounter, imp, "damage", key=a, amount=12)
    inventory.item_equip(character=ana, item=chain, equipped=False)
    end = step(encounter, imp, "end")
    ended = service.load(encounter)
    assert ended.state.fighter(a).hp == full - 10 == ended.state.fighter(a).hp_max
    assert "maximum HP is now" in end.text
    assert EldritchGambitCharacter.objects.get(pk=ana.pk).hp_current is None  # full
    # An ended fight keeps what it ended with, whatever the sheet says afterwards.
    inventory.item_equip(character=ana, item=chain)
    assert service.load(encounter).state.fighter(a).hp_max == full - 10


def test_armour_put_on_before_the_fight_starts_counts_and_a_join_records_its_own(
        fight, imp, seat):
    encounter, ana, bo, chain, k = fight
    b = k["Bo"]
    base = armored(bo)
    assert encounter.combatants.get(name="Bo").hp_max == base  # recorded at the join
    wear(bo, "Leather")  # AP 5, in setup: counts from now, HP not raised
    tracker = service.load(encounter)
    assert (tracker.state.fighter(b).hp, tracker.state.fighter(b).hp_max) == (base, base + 5)
    step(encounter, imp, "trigger", key=b)
    cleo = seat(name="Cleo")
    service.add_characters(encounter_id=encounter.pk, version=None, characters=[cleo])
    joined = InitiativeStep.objects.filter(encounter=encounter, kind="join").get()
    assert joined.payload["hp_max"][b] == base + 5
    c = encounter.combatants.get(name="Cleo").key
    wear(cleo, "Plate mail")
    tracker = service.load(encounter)
    assert not tracker.failed
    assert tracker.state.fighter(c).hp_max == armored(cleo)
    assert joined.text == service.load(encounter).state.log[-2].text  # its own line
    assert joined.text.startswith("Cleo")


def test_a_fight_stored_before_the_numbers_were_recorded_reads_the_sheet_as_now(fight, imp):
    encounter, ana, _, chain, k = fight
    a, w = k["Ana"], k["Wolf"]
    full = armored(ana)
    step(encounter, imp, "trigger", key=a)
    step(encounter, imp, "act", actor=a, targets=[w], action="melee Attack")
    step(encounter, imp, "damage", key=a, amount=3)
    # As stored before: no maximum on the character's Combatant nor in the steps.
    encounter.combatants.exclude(character=None).update(hp_max=None)
    for old in InitiativeStep.objects.filter(encounter=encounter):
        old.payload.pop("hp_max", None)
        old.save(update_fields=["payload"])
    assert service.load(encounter).state.fighter(a).hp_max == full
    inventory.item_equip(character=ana, item=chain, equipped=False)
    tracker = service.load(encounter)  # the old behaviour: the sheet's maximum throughout
    assert not tracker.failed
    assert (tracker.state.fighter(a).hp, tracker.state.fighter(a).hp_max) == (
        full - 13, full - 10)
    assert "maximum HP is now" not in " ".join(texts(tracker))
    step(encounter, imp, "heal", key=a, amount=1)  # new steps record as usual
    assert InitiativeStep.objects.filter(encounter=encounter).order_by(
        "-number").first().payload["hp_max"] == {a: full - 10, k["Bo"]: armored(fight[2])}


def test_wp_spent_on_rerolls_mid_fight_is_kept_once(fight, imp):
    """The tracker reads WP from the sheet as it is now: it only settles who triggers
    (the trigger step keeps who did), and the end writes back HP and statuses, never WP.
    A Reroll's WP spent during the fight stays spent, once."""
    encounter, ana, bo, _, k = fight
    a, b, w = k["Ana"], k["Bo"], k["Wolf"]
    ana_wp = sheet_for(ana).value("wp_current")
    EldritchGambitCharacter.objects.filter(pk=bo.pk).update(wp_current=ana_wp - 1)
    damage = roll_services.make_roll(
        character=ana, by=ana.owner, spec=rolls.weapon_damage("Spear", "1d8+3", 8),
        kind=Roll.Kind.DAMAGE, rng=random.Random(1))
    roll_services.reroll(roll=damage, by=ana.owner, rng=random.Random(2))  # 1 WP
    claimants = service.load(encounter).state
    assert claimants.fighter(a).wp == ana_wp - 1 == claimants.fighter(b).wp
    step(encounter, imp, "trigger", key=b)
    step(encounter, imp, "act", actor=b, targets=[w], action="melee Attack")
    second = roll_services.make_roll(
        character=ana, by=ana.owner, spec=rolls.weapon_damage("Spear", "1d8+3", 8),
        kind=Roll.Kind.DAMAGE, rng=random.Random(3))
    roll_services.reroll(roll=second, by=ana.owner, rng=random.Random(4))  # 1 more WP
    tracker = service.load(encounter)
    assert not tracker.failed and tracker.state.holder == b  # the trigger stays Bo's
    assert tracker.state.fighter(a).wp == ana_wp - 2
    step(encounter, imp, "end")
    ana.refresh_from_db()
    assert ana.wp_current == ana_wp - 2  # neither given back nor spent again


def test_the_hp_form_refuses_hp_over_the_lowered_maximum_beside_the_field(
        client, fight, imp):
    encounter, ana, _, chain, k = fight
    a = k["Ana"]
    full = armored(ana)
    client.force_login(imp)
    step(encounter, imp, "trigger", key=a)
    inventory.item_equip(character=ana, item=chain, equipped=False)
    encounter.refresh_from_db()
    path = reverse("campaigns:initiative_hp", args=[encounter.campaign_id, encounter.pk,
                                                    int(a)])
    response = client.post(path, {"version": encounter.version, f"c{a}-change": "set",
                                  f"c{a}-amount": str(full), "hp_max": "999"})
    assert response.status_code == 400
    assert f"over the maximum of {full - 10}" in response.content.decode()
    # A player cannot post a step; the hostile "hp_max" field is never read.
    client.force_login(ana.owner)
    response = client.post(path, {"version": encounter.version, f"c{a}-change": "set",
                                  f"c{a}-amount": "1"})
    assert response.status_code in (403, 404)
    assert InitiativeStep.objects.filter(encounter=encounter).count() == 1
    page = client.get(reverse("campaigns:initiative", args=[encounter.campaign_id,
                                                           encounter.pk]))
    assert page.status_code == 200
    assert f"{full - 10}/{full - 10}" in page.content.decode()
