"""A campaign's starting Level is Eldritch Gambit's setting: it moves from the generic
`starting_level` column into `Campaign.settings` (the game system's settings,
GameSystem.campaign_settings_form), and back when migrated backwards."""

from django.db import migrations, models

ELDRITCH_GAMBIT = "eldritch-gambit"
# The column's default (campaigns.models.DEFAULT_STARTING_LEVEL, then): a campaign of
# another system, which had no use for it, gets it back when migrated backwards.
DEFAULT_STARTING_LEVEL = 10


def starting_level_into_settings(apps, schema_editor):
    Campaign = apps.get_model("campaigns", "Campaign")
    for campaign in Campaign.objects.filter(system=ELDRITCH_GAMBIT).only("starting_level"):
        campaign.settings = {"starting_level": campaign.starting_level}
        campaign.save(update_fields=["settings"])


def starting_level_out_of_settings(apps, schema_editor):
    Campaign = apps.get_model("campaigns", "Campaign")
    for campaign in Campaign.objects.only("system", "settings"):
        settings = campaign.settings if isinstance(campaign.settings, dict) else {}
        campaign.starting_level = settings.get("starting_level", DEFAULT_STARTING_LEVEL)
        campaign.save(update_fields=["starting_level"])


class Migration(migrations.Migration):

    dependencies = [
        ('campaigns', '0005_game_system'),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='campaign',
            name='campaign_starting_level_in_range',
        ),
        migrations.AddField(
            model_name='campaign',
            name='settings',
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RunPython(starting_level_into_settings, starting_level_out_of_settings),
        migrations.RemoveField(
            model_name='campaign',
            name='starting_level',
        ),
    ]
