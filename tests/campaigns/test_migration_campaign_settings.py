"""A campaign's starting Level moves from the generic `starting_level` column into the
game system's settings (campaigns 0006), losslessly and reversibly."""

from __future__ import annotations

import pytest

from rules import systems

BEFORE = ("campaigns", "0005_game_system")
AFTER = ("campaigns", "0006_campaign_settings")
OTHER_SYSTEM = "another-system"


@pytest.mark.django_db(transaction=True)
def test_the_starting_level_moves_into_the_settings_and_back(migrator):
    old = migrator.apply_initial_migration(BEFORE)
    User = old.apps.get_model("auth", "User")
    Campaign = old.apps.get_model("campaigns", "Campaign")
    imp = User.objects.create(username="imp")
    levels = {"Low table": 1, "Usual table": 10, "High table": 100}
    made = {name: Campaign.objects.create(name=name, owner=imp, starting_level=level).pk
            for name, level in levels.items()}
    # A campaign of a system with no starting Level (stored as the column's default).
    other = Campaign.objects.create(name="Elsewhere", owner=imp, system=OTHER_SYSTEM).pk
    before = list(Campaign.objects.order_by("pk").values())

    new = migrator.apply_tested_migration(AFTER)
    Campaign = new.apps.get_model("campaigns", "Campaign")
    assert "starting_level" not in {field.name for field in Campaign._meta.fields}
    for name, level in levels.items():
        campaign = Campaign.objects.get(pk=made[name])
        assert campaign.system == systems.ELDRITCH_GAMBIT
        assert campaign.settings == {"starting_level": level}
    assert Campaign.objects.get(pk=other).settings == {}
    # The rest of every row is unchanged.
    assert [{k: v for k, v in row.items() if k != "settings"}
            for row in Campaign.objects.order_by("pk").values()] == [
        {k: v for k, v in row.items() if k != "starting_level"} for row in before]

    back = migrator.apply_tested_migration(BEFORE)
    Campaign = back.apps.get_model("campaigns", "Campaign")
    assert list(Campaign.objects.order_by("pk").values()) == before


@pytest.mark.django_db(transaction=True)
def test_migrated_campaigns_read_their_level_through_the_systems_accessor(migrator):
    old = migrator.apply_initial_migration(BEFORE)
    User = old.apps.get_model("auth", "User")
    Campaign = old.apps.get_model("campaigns", "Campaign")
    pk = Campaign.objects.create(name="Salt", owner=User.objects.create(username="imp"),
                                 starting_level=6).pk
    migrator.apply_tested_migration(AFTER)
    migrator.reset()  # the latest schema, as the real code sees it

    from campaigns.models import Campaign as Current
    from characters.systems.eldritch_gambit.campaign_settings import starting_level

    campaign = Current.objects.get(pk=pk)
    assert starting_level(campaign) == 6
    assert campaign.settings_summary == "starting Level 6"
