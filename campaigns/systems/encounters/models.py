"""The encounter tracker's models (app label "campaigns", imported by the campaigns app
through campaigns.systems.import_each).

Named `SeedEncounter` and `SeedEncounterStep` because the campaigns app already has
Eldritch Gambit's `Encounter`. An encounter stores only its ledger of steps: each step is
one event of the engine's tracker (rules/engine/encounters/tracker.py: kind + payload),
and the state (phases, rounds, the queue, the tracks) is the engine's `fold` of the steps
not undone. Undo marks the latest step undone (who and when), so the ledger keeps it for
the audit; `version` goes up with every change, so a stale page's click is refused."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse


class SeedEncounter(models.Model):
    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE,
                                 related_name="seed_encounters")
    name = models.CharField(max_length=120)
    finished = models.BooleanField(default=False)
    version = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "campaigns"
        ordering = ["campaign", "-created_at", "-pk"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("campaigns:encounters_tracker", args=[self.campaign_id, self.pk])


class SeedEncounterStep(models.Model):
    """One line of the ledger: an engine event, who took it and when; undone (by whom,
    when) when the Guide takes it back."""

    encounter = models.ForeignKey(SeedEncounter, on_delete=models.CASCADE,
                                  related_name="steps")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=20)
    payload = models.JSONField(default=dict, blank=True)
    text = models.TextField(blank=True)  # the engine's log line(s) for it
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                           related_name="+")
    at = models.DateTimeField(auto_now_add=True)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                  on_delete=models.SET_NULL, related_name="+")

    class Meta:
        app_label = "campaigns"
        ordering = ["encounter", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["encounter", "seq"],
                                    name="seed_encounter_step_once"),
        ]

    def __str__(self) -> str:
        return f"{self.encounter} #{self.seq}: {self.kind}"
