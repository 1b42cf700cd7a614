"""The shape every Volleyball Initiative tracker stores (abstract models: no table of
their own): a fight (its status, Round and version), its combatants and its ledger of
steps, which the system's rules engine replays into the state. A system's models add its
own numbers, the foreign keys (their related names are the system's) and the constraints'
names (campaigns/systems/<system>/: Eldritch Gambit's models.py, METTLE's encounters.py).
Generic: imports no game system."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class EncounterBase(models.Model):
    """`round` (and the system's `holder`) repeat the replay's result for the list pages
    and are written in the same transaction as each step."""

    class Status(models.TextChoices):
        SETUP = "setup", "Setting up"
        RUNNING = "running", "Initiative running"
        ENDED = "ended", "Ended"

    name = models.CharField(max_length=120)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SETUP)
    round = models.PositiveSmallIntegerField(default=0)
    # Goes up with every change: a form carries the version it was drawn from, and a
    # stale page's click is refused.
    version = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True
        ordering = ["campaign", "-created_at", "-pk"]

    def __str__(self) -> str:
        return self.name


class CombatantBase(models.Model):
    """One side of the fight: a campaign character (its numbers from its sheet) or a foe
    the game master entered; a Mob shares one pool among its members."""

    position = models.PositiveSmallIntegerField(default=0)
    name = models.CharField(max_length=120)
    is_mob = models.BooleanField(default=False)
    members = models.PositiveSmallIntegerField(default=1)
    statuses_start = models.JSONField(default=list, blank=True)
    # Added after Initiative was triggered: enters the fight with its "join" step.
    joined_midway = models.BooleanField(default=False)

    class Meta:
        abstract = True
        ordering = ["encounter", "position", "pk"]

    def __str__(self) -> str:
        return self.name

    @property
    def key(self) -> str:
        return str(self.pk)


class InitiativeStepBase(models.Model):
    """One line of the ledger: a step of the rules engine (kind + payload), who took it
    and what it did (the engine's log text). Undo deletes the last one."""

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
        abstract = True
        ordering = ["encounter", "number"]

    def __str__(self) -> str:
        return f"{self.encounter} #{self.number}: {self.kind}"
