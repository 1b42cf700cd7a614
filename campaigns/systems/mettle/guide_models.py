"""The Guide's records for a METTLE Core campaign (GD §NPC Creation, §Faction Tracker):
the NPC pools, and the Faction triangle with its Resources ledger and Faction Checks.

The rows hold the Guide's choices and the dice rolled; every number the rules derive
(an NPC's Mettle and Soak, a Faction's Resources, a relation's name, a Check's Score,
Edge and success, who sits out a Faction turn) is computed by rules/engine/mettle/guide.py
from them (campaigns/systems/mettle/guide.py)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from rules.engine.mettle.checks import POOL_MAX
from rules.engine.mettle.data import ARMOR, ATTRIBUTE_KEYS, ATTRIBUTE_NAMES
from rules.engine.mettle.guide import BACKER, FACTION_NAMES, RIVAL, VILLAIN

ATTRIBUTE_CHOICES = [(key, ATTRIBUTE_NAMES[key]) for key in ATTRIBUTE_KEYS]
ARMOUR_CHOICES = [(armor.name, f"{armor.name}, Soak +{armor.soak}") for armor in ARMOR]
FACTION_CHOICES = [(role, FACTION_NAMES[role]) for role in (VILLAIN, BACKER, RIVAL)]
NPC_NAME_LENGTH = 120
NOTES_LENGTH = 2000


class MettleNpc(models.Model):
    """GD §NPC Creation: "a single NPC pool will do for Attributes *and* Mettle"; a far
    higher Attribute is "listed in parentheses" (one per NPC here)."""

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE,
                                 related_name="mettle_npcs")
    name = models.CharField(max_length=NPC_NAME_LENGTH)
    pool = models.PositiveSmallIntegerField()
    higher_attribute = models.CharField(max_length=10, blank=True, choices=ATTRIBUTE_CHOICES)
    higher_pool = models.PositiveSmallIntegerField(null=True, blank=True)
    armour = models.CharField(max_length=40, blank=True, choices=ARMOUR_CHOICES)
    notes = models.TextField(blank=True, max_length=NOTES_LENGTH)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    request_key = models.CharField(max_length=64, null=True, blank=True, unique=True)

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(pool__gte=1, pool__lte=POOL_MAX),
                                   name="mettle_npc_pool_range"),
            models.CheckConstraint(
                condition=(Q(higher_attribute="", higher_pool__isnull=True)
                           | (~Q(higher_attribute="") & Q(higher_pool__gt=models.F("pool"),
                                                         higher_pool__lte=POOL_MAX))),
                name="mettle_npc_higher_pool"),
        ]

    def __str__(self) -> str:
        return self.name


class MettleTriangle(models.Model):
    """GD §Faction Tracker: a campaign's Villain, Backer and Rival, the six arrows between
    them and the Faction turn the Guide is playing."""

    campaign = models.OneToOneField("campaigns.Campaign", on_delete=models.CASCADE,
                                    related_name="mettle_triangle")
    turn = models.PositiveIntegerField(default=1)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Factions of {self.campaign}"


class MettleFaction(models.Model):
    triangle = models.ForeignKey(MettleTriangle, on_delete=models.CASCADE,
                                 related_name="factions")
    role = models.CharField(max_length=10, choices=FACTION_CHOICES)
    name = models.CharField(max_length=NPC_NAME_LENGTH)
    seed_roll = models.PositiveSmallIntegerField()  # FACTION SEEDS: the d6 for its name

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["triangle", "role"], name="mettle_faction_once"),
            models.CheckConstraint(condition=Q(seed_roll__gte=1, seed_roll__lte=6),
                                   name="mettle_faction_seed_d6"),
        ]

    def __str__(self) -> str:
        return f"{self.get_role_display()}: {self.name}"


class MettleRelation(models.Model):
    """One arrow of the triangle: how `source` deals with `target`, a d6 on FACTION
    RELATIONS (AMB-M-GD-1: a relation each way on each side)."""

    triangle = models.ForeignKey(MettleTriangle, on_delete=models.CASCADE,
                                 related_name="relations")
    source = models.CharField(max_length=10, choices=FACTION_CHOICES)
    target = models.CharField(max_length=10, choices=FACTION_CHOICES)
    roll = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["triangle", "source", "target"],
                                    name="mettle_relation_once"),
            models.CheckConstraint(condition=Q(roll__gte=1, roll__lte=6),
                                   name="mettle_relation_d6"),
        ]


class MettleResourcesEntry(models.Model):
    """A Faction's Resources are the sum of its entries: the first roll (1d6+3, its die
    kept), the Guide's adjustments, and reversals of either (audited, reversible)."""

    class Kind(models.TextChoices):
        ROLL = "roll", "Rolled 1d6+3"
        ADJUSTMENT = "adjustment", "Guide's adjustment"
        REVERSAL = "reversal", "Undone"

    faction = models.ForeignKey(MettleFaction, on_delete=models.CASCADE,
                                related_name="resources_entries")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    change = models.IntegerField()
    die = models.PositiveSmallIntegerField(null=True, blank=True)
    note = models.CharField(max_length=300, blank=True)
    reverses = models.OneToOneField("self", null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="reversed_by")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    request_key = models.CharField(max_length=64, null=True, blank=True, unique=True)

    class Meta:
        ordering = ["created_at", "pk"]


class MettleFactionCheck(models.Model):
    """A Faction Check: the actor's Resources in dice against the target's Resources as
    Difficulty, both as they stood when rolled; a Twist's reroll of the Edge dice."""

    triangle = models.ForeignKey(MettleTriangle, on_delete=models.CASCADE,
                                 related_name="checks")
    turn = models.PositiveIntegerField()
    actor = models.CharField(max_length=10, choices=FACTION_CHOICES)
    target = models.CharField(max_length=10, choices=FACTION_CHOICES)
    difficulty = models.PositiveSmallIntegerField()
    faces = models.JSONField()
    twist_faces = models.JSONField(null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    request_key = models.CharField(max_length=64, null=True, blank=True, unique=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [models.CheckConstraint(condition=~Q(actor=models.F("target")),
                                              name="mettle_check_two_factions")]
