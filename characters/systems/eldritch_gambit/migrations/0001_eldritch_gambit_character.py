"""Eldritch Gambit's build gets its own table: a multi-table child of characters.Character.

Until characters 0008 drops them, the parent still holds the same columns (0002 copies them
over), and a migration state in which a child's field has the name of one of its parent's
cannot be rendered. So the table is created here with every column and the CHECK
constraint, as the final model has them, while the migration state gets only the parent
link; 0003 adds the build's fields to the state once the parent's are gone. The table is
the same either way: `character_ptr_id`, the primary key and a foreign key to the parent.
"""

import django.db.models.deletion
from django.db import migrations, models

CONSTRAINTS = [models.CheckConstraint(condition=models.Q(('strength__gte', -99), ('strength__lte', 999), ('wisdom__gte', -99), ('wisdom__lte', 999), ('dexterity__gte', -99), ('dexterity__lte', 999), ('agility__gte', -99), ('agility__lte', 999), ('charisma__gte', -99), ('charisma__lte', 999), ('endurance__gte', -99), ('endurance__lte', 999)), name='character_attributes_in_range')]


def build_fields():
    return [
        ('pronouns', models.CharField(blank=True, max_length=40)),
        ('career', models.CharField(blank=True, max_length=200)),
        ('quest', models.CharField(blank=True, max_length=200)),
        ('origin', models.CharField(blank=True, max_length=200)),
        ('description', models.TextField(blank=True, max_length=2000)),
        ('template_name', models.CharField(default='Human', max_length=100)),
        ('template_traits', models.JSONField(blank=True, default=list)),
        ('strength', models.SmallIntegerField(default=0)),
        ('wisdom', models.SmallIntegerField(default=0)),
        ('dexterity', models.SmallIntegerField(default=0)),
        ('agility', models.SmallIntegerField(default=0)),
        ('charisma', models.SmallIntegerField(default=0)),
        ('endurance', models.SmallIntegerField(default=0)),
        ('skills', models.JSONField(blank=True, default=list)),
        ('hp_current', models.SmallIntegerField(blank=True, null=True)),
        ('wp_current', models.SmallIntegerField(blank=True, null=True)),
        ('statuses', models.JSONField(blank=True, default=list)),
        ('poison_buildup', models.PositiveSmallIntegerField(default=0)),
    ]


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('characters', '0007_game_system'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                # The table as the final model makes it (the parent link is a one-to-one
                # primary key in the database, whatever the state calls it).
                migrations.CreateModel(
                    name='EldritchGambitCharacter',
                    fields=[
                        ('character_ptr', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, serialize=False, to='characters.character')),
                        *build_fields(),
                    ],
                    options={'constraints': CONSTRAINTS},
                ),
            ],
            state_operations=[
                migrations.CreateModel(
                    name='EldritchGambitCharacter',
                    fields=[
                        ('character_ptr', models.OneToOneField(auto_created=True, on_delete=django.db.models.deletion.CASCADE, parent_link=True, primary_key=True, serialize=False, to='characters.character')),
                    ],
                    options={
                        'verbose_name': 'Eldritch Gambit character',
                    },
                    bases=('characters.character',),
                ),
            ],
        ),
    ]
