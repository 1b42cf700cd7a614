"""A fight of Initiative Turns (issue 15, "Initiative Turns"; IT): the fight and its step
ledger. The same pattern as the encounters tracker (campaigns/systems/encounters): the
fight stores only its steps, each one event of fight_state.py (kind + payload with its
dice), and the state (combatants, HP, the Turn, its phase, effects, wounds, death
clocks) is `fight_state.fold` of the steps not undone. Undo marks the latest step
undone (who, when); `version` goes up with every change so a stale page's click is
refused; a step's `request_key` makes a double submission count once.

Each Initiative Turn of the fight is also a row of the Company's Turn log (ErrantTurn,
kind "initiative"); the step that starts it keeps that row's pk in its payload."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from .company_models import ErrantCompany


class ErrantFight(models.Model):
    company = models.ForeignKey(ErrantCompany, on_delete=models.CASCADE,
                                related_name="fights")
    name = models.CharField(max_length=80)
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    # IT §Combat Distance and §Surprise, as rolled by the set-up step (also in its payload).
    distance = models.PositiveSmallIntegerField(null=True, blank=True)
    surprise = models.CharField(max_length=12, blank=True)
    version = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True,
                                   on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["-started_at", "-pk"]

    def __str__(self) -> str:
        return self.name

    @property
    def ended(self) -> bool:
        return self.ended_at is not None


class ErrantFightStep(models.Model):
    """One line of the ledger: a fight_state step (kind, payload with its dice), the
    log's text for players (`text`) and for the Guide (`guide_text`, with the NPCs'
    numbers), who and when; undone (by whom, when) when the Guide takes it back."""

    fight = models.ForeignKey(ErrantFight, on_delete=models.CASCADE, related_name="steps")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=12)
    payload = models.JSONField(default=dict, blank=True)
    text = models.TextField(blank=True)
    guide_text = models.TextField(blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                           related_name="+")
    at = models.DateTimeField(auto_now_add=True)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                  on_delete=models.SET_NULL, related_name="+")
    request_key = models.CharField(max_length=64, null=True, blank=True, unique=True)

    class Meta:
        ordering = ["fight", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["fight", "seq"], name="errant_fight_step_once"),
        ]

    def __str__(self) -> str:
        return f"{self.fight} #{self.seq}: {self.kind}"
