"""The demo METTLE campaign of `manage.py seed_demo` (issue #13): the Guide (the demo Imp),
Viktor (player1) and Mae Lindqvist (player2), two sessions with a Highlights round told,
NPC pools and the Faction triangle; made once, however often seed_demo runs."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from campaigns.models import Campaign, Highlight
from campaigns.services import progress
from campaigns.systems.mettle import guide
from campaigns.systems.mettle.guide_models import MettleFactionCheck, MettleNpc, MettleTriangle
from characters.models import Character
from characters.systems.mettle.apps import KEY

pytestmark = pytest.mark.django_db


def test_seed_demo_makes_the_mettle_campaign_once(client):
    out = StringIO()
    call_command("seed_demo", stdout=out)
    call_command("seed_demo", stdout=StringIO())
    campaign = Campaign.objects.get(system=KEY)
    assert f"Demo campaign: The Idol of Saint Vitus ({campaign.get_absolute_url()})" in \
        out.getvalue()
    assert campaign.owner.username == "imp"
    assert sorted(Character.objects.filter(campaign=campaign).values_list(
        "name", "owner__username")) == [("Mae Lindqvist", "player2"), ("Viktor", "player1")]
    assert Character.objects.filter(name="Viktor").count() == 1
    assert [s.number for s in campaign.sessions.order_by("number")] == [1, 2]
    told = Highlight.objects.filter(session__campaign=campaign)
    assert told.count() == 2  # round 1 of 2: one turn each
    viktor = Character.objects.get(name="Viktor")
    assert progress(viktor)[1] == 1  # one Highlight, 1 XP
    assert MettleNpc.objects.filter(campaign=campaign).count() == 3
    assert MettleTriangle.objects.filter(campaign=campaign).count() == 1
    assert MettleFactionCheck.objects.count() == 1
    resources = guide.resources_of(campaign.mettle_triangle)
    assert resources["rival"] == min(resources.values())
    lines = out.getvalue().splitlines()
    imp = next(line for line in lines if line.lstrip().startswith("imp "))
    assert "imp-demo-pass" in imp and "Guide" in imp
    player2 = next(line for line in lines if line.lstrip().startswith("player2 "))
    assert "Mae Lindqvist" in player2

    client.force_login(campaign.owner)
    page = client.get(reverse("campaigns:mettle_guide", args=[campaign.pk])).content.decode()
    assert "Horse 4D (FRAME 7)" in page and "Mae Lindqvist" in page
    assert "Recent Faction Checks" in page and "Roll the Faction triangle" not in page
    session = client.get(campaign.sessions.get(number=2).get_absolute_url()).content.decode()
    assert "<strong>Mae Lindqvist</strong>'s turn" in session


def test_the_demo_table_has_a_twist_a_fight_ready_and_maes_raise(client):
    """Issue #13: session 2's log holds Viktor's Check and its Twist; a fight of Viktor,
    Mae and a cultist pool is set up, ready to run; Mae bought a raise, Viktor did not (his
    sheet keeps the SRD's numbers). Running the seed again adds nothing; an older demo
    without them gets them."""
    from campaigns.systems.mettle import demo
    from campaigns.systems.mettle.encounters import MettleEncounter
    from campaigns.systems.mettle.rolls import MettleRoll
    from characters.systems.mettle.builds import sheet_for
    from characters.systems.mettle.models import MettleCharacter

    call_command("seed_demo", stdout=StringIO())
    call_command("seed_demo", stdout=StringIO())
    campaign = Campaign.objects.get(system=KEY)
    second = campaign.sessions.get(number=2)
    check, twist = MettleRoll.objects.filter(session=second).order_by("pk")
    assert (check.kind, check.success, check.edge > 0) == ("check", False, True)
    assert (twist.kind, twist.twist_of_id, twist.success) == ("twist", check.pk, True)
    assert twist.twist_price.startswith("Delay")
    fight = MettleEncounter.objects.get(campaign=campaign)
    assert fight.status == MettleEncounter.Status.SETUP
    assert sorted(c.name for c in fight.combatants.all()) == [
        "Cultists of the Idol", "Mae Lindqvist", "Viktor"]
    viktor = MettleCharacter.objects.get(name="Viktor")
    mae = MettleCharacter.objects.get(name="Mae Lindqvist")
    assert (viktor.raises, mae.raises) == ([], ["nature"])
    assert sheet_for(viktor).value("mettle_max") == 9  # the SRD sheet's
    assert sheet_for(mae).value("nature") == 3 and progress(mae)[1] == 0

    client.force_login(campaign.owner)
    log = client.get(reverse("campaigns:mettle_session_log",
                             args=[campaign.pk, second.number])).content.decode()
    assert "Spot the cultist in the market crowd" in log and "Twist" in log
    tracker = client.get(reverse("campaigns:mettle_initiative", args=[campaign.pk, fight.pk]))
    assert tracker.status_code == 200 and "Cultists of the Idol" in tracker.content.decode()

    # An older demo (before these) gets them when seeded again.
    MettleRoll.objects.all().delete()
    MettleEncounter.objects.all().delete()
    demo.seed_table(campaign)
    assert MettleRoll.objects.count() == 2 and MettleEncounter.objects.count() == 1
    assert MettleCharacter.objects.get(pk=mae.pk).raises == ["nature"]
