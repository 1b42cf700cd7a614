"""METTLE Core's Volleyball Initiative tracker models (app label "campaigns", imported by
campaigns/systems/mettle/models.py). As Eldritch Gambit's tracker: the fight's setup (its
combatants) and a ledger of steps are stored; the state (who holds Initiative, who has an
Action, Mettle, Staggered or Fallen, the Split parts left, the Zones) is the rules
engine's replay of that ledger (rules/engine/mettle/initiative.py, through
campaigns/systems/mettle/initiative.py). `round`, `holder` and `surprised` repeat the
replay's result for the list page and are written in the same transaction as each step.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse

SIDES = [("party", "Party"), ("foes", "Foes")]


class MettleEncounter(models.Model):
    class Status(models.TextChoices):
        SETUP = "setup", "Setting up"
        RUNNING = "running", "Initiative running"
        ENDED = "ended", "Ended"

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE,
                                 related_name="mettle_encounters")
    session = models.ForeignKey("campaigns.Session", null=True, blank=True,
                                on_delete=models.SET_NULL, related_name="mettle_encounters")
    name = models.CharField(max_length=120)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SETUP)
    round = models.PositiveSmallIntegerField(default=0)
    holder = models.ForeignKey("MettleCombatant", null=True, blank=True,
                               on_delete=models.SET_NULL, related_name="+")
    # The side that goes Round 1 without an Action (Sneak > Surprise), "" for none.
    surprised = models.CharField(max_length=5, choices=SIDES, blank=True)
    # Goes up with every change: a stale page's click is refused.
    version = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "campaigns"
        ordering = ["campaign", "-created_at", "-pk"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("campaigns:mettle_initiative", args=[self.campaign_id, self.pk])


class MettleCombatant(models.Model):
    """A PC of the campaign (Mettle and Soak from its sheet) or an NPC pool the Guide
    entered: one pool for every Attribute and Mettle, the odd higher Attribute noted
    (GD §NPC Creation), with its armour's Soak; a Mob shares one pool."""

    encounter = models.ForeignKey(MettleEncounter, on_delete=models.CASCADE,
                                  related_name="combatants")
    position = models.PositiveSmallIntegerField(default=0)
    character = models.ForeignKey("characters.Character", null=True, blank=True,
                                  on_delete=models.SET_NULL, related_name="mettle_combatants")
    name = models.CharField(max_length=120)
    side = models.CharField(max_length=5, choices=SIDES, default="foes")
    # NPC pools only: the pool (every Attribute and Mettle), [[attribute key, pool], ...]
    # for the higher ones, and the armour's Soak on top of FRAME.
    pool = models.PositiveSmallIntegerField(null=True, blank=True)
    higher = models.JSONField(default=list, blank=True)
    armor_soak = models.PositiveSmallIntegerField(default=0)
    is_mob = models.BooleanField(default=False)
    members = models.PositiveSmallIntegerField(default=1)
    # What they bring into the fight: current Mettle (None: at maximum), statuses, Zone.
    mettle_start = models.SmallIntegerField(null=True, blank=True)
    statuses_start = models.JSONField(default=list, blank=True)
    zone = models.CharField(max_length=40, blank=True)
    joined_midway = models.BooleanField(default=False)

    class Meta:
        app_label = "campaigns"
        ordering = ["encounter", "position", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["encounter", "character"],
                                    condition=Q(character__isnull=False),
                                    name="mettle_combatant_character_once"),
            models.CheckConstraint(condition=Q(character__isnull=False) | Q(pool__gte=1),
                                   name="mettle_combatant_npc_has_pool"),
            models.CheckConstraint(condition=Q(members__gte=1),
                                   name="mettle_combatant_members_min_1"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def key(self) -> str:
        return str(self.pk)


class MettleInitiativeStep(models.Model):
    """One line of the ledger: a step of the rules engine (kind + payload), who took it
    and what it did (the engine's log text). Undo deletes the last one."""

    encounter = models.ForeignKey(MettleEncounter, on_delete=models.CASCADE,
                                  related_name="steps")
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=20)
    payload = models.JSONField(default=dict, blank=True)
    round = models.PositiveSmallIntegerField(default=0)
    text = models.TextField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "campaigns"
        ordering = ["encounter", "number"]
        constraints = [
            models.UniqueConstraint(fields=["encounter", "number"],
                                    name="mettle_initiative_step_once"),
        ]

    def __str__(self) -> str:
        return f"{self.encounter} #{self.number}: {self.kind}"
