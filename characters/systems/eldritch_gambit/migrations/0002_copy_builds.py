"""Every character made before game systems existed is an Eldritch Gambit character (the
`system` default of characters 0007): its build moves, column for column, into a child row
with the same pk. Plain SQL that SQLite and PostgreSQL both run, so no model's save() can
touch the parent row (no `updated_at` bump, no defaults written over the data).

Reversed, the parent's columns (which characters 0008's reversal has just added back with
their defaults) are filled again from the child rows."""

from django.db import migrations

PARENT = "characters_character"
CHILD = "eldritch_gambit_eldritchgambitcharacter"
COLUMNS = (
    "pronouns", "career", "quest", "origin", "description", "template_name",
    "template_traits", "strength", "wisdom", "dexterity", "agility", "charisma",
    "endurance", "skills", "hp_current", "wp_current", "statuses", "poison_buildup",
)

FORWARD = (
    f"INSERT INTO {CHILD} (character_ptr_id, {', '.join(COLUMNS)}) "
    f"SELECT id, {', '.join(COLUMNS)} FROM {PARENT} WHERE system = 'eldritch-gambit'"
)

BACKWARD = (
    f"UPDATE {PARENT} SET "
    + ", ".join(f"{column} = (SELECT {CHILD}.{column} FROM {CHILD} "
                f"WHERE {CHILD}.character_ptr_id = {PARENT}.id)" for column in COLUMNS)
    + f" WHERE id IN (SELECT character_ptr_id FROM {CHILD})"
)


class Migration(migrations.Migration):

    dependencies = [
        ('eldritch_gambit', '0001_eldritch_gambit_character'),
    ]

    operations = [
        migrations.RunSQL(FORWARD, BACKWARD, elidable=False),
    ]
