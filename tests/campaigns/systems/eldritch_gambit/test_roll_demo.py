"""The demo rolls of `manage.py seed_demo` (Checks and Rolls): real ledger rows in the
demo campaign's current session, made once however often seed_demo runs."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from campaigns.models import Campaign
from campaigns.systems.eldritch_gambit.rolls import Roll
from characters.systems.eldritch_gambit.models import EldritchGambitCharacter

pytestmark = pytest.mark.django_db


def test_seed_demo_adds_a_gambited_check_and_a_rerolled_damage_roll_once(client):
    call_command("seed_demo", stdout=StringIO())
    call_command("seed_demo", stdout=StringIO())
    campaign = Campaign.objects.get(system="eldritch-gambit")
    session = campaign.sessions.order_by("-number").first()
    asphodel = EldritchGambitCharacter.objects.get(name="Asphodel the Grumbling Bloom")
    rolls = Roll.objects.filter(character=asphodel)
    assert sorted(rolls.values_list("kind", flat=True)) == [
        "check", "damage", "gambit", "reroll"]
    assert all(r.session_id == session.pk for r in rolls)
    assert all(r.rolled_by == asphodel.owner for r in rolls)
    check = rolls.get(kind="check")
    assert check.label == "Attack, Melee: DEX" and check.expression == "d20+2 vs DF 10"
    assert check.gambit.outcome == "critical"  # the story: Success, then a Critical
    assert check.detail["default_critical"] == "Bonus Damage"
    damage = rolls.get(kind="damage")
    assert damage.reroll.detail["wp_before"] == 11 and damage.reroll.detail["wp_after"] == 10
    assert "Winged spear" in damage.label
    assert damage.reroll.total > damage.total  # the better die kept
    asphodel.refresh_from_db()
    assert asphodel.wp_current == 10  # one WP spent, once

    # The table sees them: the session's roll log and Asphodel's page.
    client.force_login(campaign.owner)
    log = client.get(reverse("campaigns:session_log", args=[campaign.pk, session.number]))
    text = log.content.decode()
    assert text.count('class="roll-entry') == 4
    client.force_login(asphodel.owner)
    page = client.get(reverse("characters:play", args=[asphodel.pk])).content.decode()
    assert 'data-kind="reroll"' in page and "rerolled:" in page


def test_seed_demo_gives_rolls_to_a_campaign_seeded_before_them():
    call_command("seed_demo", stdout=StringIO())
    Roll.objects.all().delete()
    call_command("seed_demo", stdout=StringIO())
    assert Roll.objects.count() == 4
