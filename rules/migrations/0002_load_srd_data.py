"""Load the Eldritch Gambit SRD rows from rules/data/eldritch-gambit/*.json."""

from django.db import migrations

from rules.loaders import load_source_data, unload_source_data

SOURCE = "eldritch-gambit"


def historical_models(apps):
    return {
        "Source": apps.get_model("rules", "Source"),
        "GearItem": apps.get_model("rules", "GearItem"),
        "Trait": apps.get_model("rules", "Trait"),
    }


def load(apps, schema_editor):
    load_source_data(SOURCE, **historical_models(apps))


def unload(apps, schema_editor):
    unload_source_data(SOURCE, **historical_models(apps))


class Migration(migrations.Migration):
    dependencies = [
        ("rules", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(load, unload),
    ]
