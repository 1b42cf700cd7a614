"""The build's fields and CHECK constraint join the migration state, now that characters
0008 has taken them off the parent. The table has had them since 0001 (see there why), so
nothing changes in the database."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('eldritch_gambit', '0002_copy_builds'),
        ('characters', '0008_builds_moved_to_game_systems'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.AddField(
                    model_name='eldritchgambitcharacter',
                    name='pronouns',
                    field=models.CharField(blank=True, max_length=40),
                ),
                migrations.AddField(
                    model_name='eldritchgambitcharacter',
                    name='career',
                    field=models.CharField(blank=True, max_length=200),
                ),
                migrations.AddField(
                    model_name='eldritchgambitcharacter',
                    name='quest',
                    field=models.CharField(blank=True, max_length=200),
                ),
                migrations.AddField(
                    model_name='eldritchgambitcharacter',
                    name='origin',
                    field=models.CharField(blank=True, max_length=200),
                ),
                migrations.AddField(
                    model_name='eldritchgambitcharacter',
                    name='description',
                    field=models.TextField(blank=True, max_length=2000),
                ),
                migrations.AddField(
                    model_name='eldritchgambitcharacter',
                    name='template_name',
                    field=models.CharField(default='Human', max_length=100),
                ),
                migrations.AddField(
                    model_name='eldritchgambitcharacter',
                    name='template_traits',
                    field=models.JSONField(blank=True, default=list),
                ),
                migrations.AddField(
                    model_name='eldritchgambitcharacter',
                    name='strength',
                    field=models.SmallIntegerField(default=0),
                ),
                migrations.AddField(
                    model_name='eldritchgambitcharacter',
                    name='wisdom',
                    field=models.SmallIntegerField(default=0),
                ),
                migrations.AddField(
                    model_name='eldritchgambitcharacter',
                    name='dexterity',
                    field=models.SmallIntegerField(default=0),
                ),
                migrations.AddField(
                    model_name='eldritchgambitcharacter',
                    name='agility',
                    field=models.SmallIntegerField(default=0),
                ),
                migrations.AddField(
                    model_name='eldritchgambitcharacter',
                    name='charisma',
                    field=models.SmallIntegerField(default=0),
                ),
                migrations.AddField(
                    model_name='eldritchgambitcharacter',
                    name='endurance',
                    field=models.SmallIntegerField(default=0),
                ),
                migrations.AddField(
                    model_name='eldritchgambitcharacter',
                    name='skills',
                    field=models.JSONField(blank=True, default=list),
                ),
                migrations.AddField(
                    model_name='eldritchgambitcharacter',
                    name='hp_current',
                    field=models.SmallIntegerField(blank=True, null=True),
                ),
                migrations.AddField(
                    model_name='eldritchgambitcharacter',
                    name='wp_current',
                    field=models.SmallIntegerField(blank=True, null=True),
                ),
                migrations.AddField(
                    model_name='eldritchgambitcharacter',
                    name='statuses',
                    field=models.JSONField(blank=True, default=list),
                ),
                migrations.AddField(
                    model_name='eldritchgambitcharacter',
                    name='poison_buildup',
                    field=models.PositiveSmallIntegerField(default=0),
                ),
                migrations.AddConstraint(
                    model_name='eldritchgambitcharacter',
                    constraint=models.CheckConstraint(condition=models.Q(('strength__gte', -99), ('strength__lte', 999), ('wisdom__gte', -99), ('wisdom__lte', 999), ('dexterity__gte', -99), ('dexterity__lte', 999), ('agility__gte', -99), ('agility__lte', 999), ('charisma__gte', -99), ('charisma__lte', 999), ('endurance__gte', -99), ('endurance__lte', 999)), name='character_attributes_in_range'),
                ),
            ],
        ),
    ]
