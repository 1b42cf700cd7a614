"""An Eldritch Gambit character's build: a multi-table child of the generic
characters.Character (owner, campaign, system, name, portrait, ledgers, inventory) with the
game's typed columns. Every derived number comes from the rules engine
(builds.py here feeds it)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from characters.models import Character

ATTRIBUTE_FIELDS = {
    "str": "strength", "wis": "wisdom", "dex": "dexterity",
    "agi": "agility", "cha": "charisma", "end": "endurance",
}


class EldritchGambitCharacter(Character):
    """The build of an Eldritch Gambit character. The parent's manager (visible_to,
    editable_by, with_progress) is inherited, so `EldritchGambitCharacter.objects` reads
    a character and its build in one query."""

    # Concept (Characters > Concept). Every part may stay blank for now.
    pronouns = models.CharField(max_length=40, blank=True)
    career = models.CharField(max_length=200, blank=True)
    quest = models.CharField(max_length=200, blank=True)
    origin = models.CharField(max_length=200, blank=True)
    description = models.TextField(blank=True, max_length=2000)
    template_name = models.CharField(max_length=100, default="Human")
    # [{"name": "Size", "value": "Large", "load": 2}, ...]; empty for humans.
    template_traits = models.JSONField(default=list, blank=True)
    # Attributes (Characters > Attributes): the player's choices.
    strength = models.SmallIntegerField(default=0)
    wisdom = models.SmallIntegerField(default=0)
    dexterity = models.SmallIntegerField(default=0)
    agility = models.SmallIntegerField(default=0)
    charisma = models.SmallIntegerField(default=0)
    endurance = models.SmallIntegerField(default=0)
    skills = models.JSONField(default=list, blank=True)
    # Trackers: None means "at maximum", so a new or re-armored character is full.
    hp_current = models.SmallIntegerField(null=True, blank=True)
    wp_current = models.SmallIntegerField(null=True, blank=True)
    statuses = models.JSONField(default=list, blank=True)  # chosen status keys
    poison_buildup = models.PositiveSmallIntegerField(default=0)

    class Meta:
        # `ordering` comes from Character.
        verbose_name = "Eldritch Gambit character"
        constraints = [
            models.CheckConstraint(
                condition=Q(strength__gte=-99, strength__lte=999)
                & Q(wisdom__gte=-99, wisdom__lte=999)
                & Q(dexterity__gte=-99, dexterity__lte=999)
                & Q(agility__gte=-99, agility__lte=999)
                & Q(charisma__gte=-99, charisma__lte=999)
                & Q(endurance__gte=-99, endurance__lte=999),
                name="character_attributes_in_range",
            ),
        ]

    @property
    def attribute_values(self) -> dict[str, int]:
        return {key: getattr(self, field) for key, field in ATTRIBUTE_FIELDS.items()}
