"""The Guide's hazards (issue #13; seed 001 Scenery > Falls, Fire, Affliction; Attack >
Area Attacks): each application to a character is a ledger row keeping the dice, the
arithmetic and what the character's sheet was before, so that it can be undone. An
affliction's Dose is here only: it is shown on the Guide's screen, never on a page a
player sees."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class MettleHazard(models.Model):
    class Kind(models.TextChoices):
        FALL = "fall", "Fall"
        FIRE = "fire", "Fire"
        AREA = "area", "Area damage"
        AFFLICTION = "affliction", "Affliction"
        # The Guide's ticks of an affliction (Scenery > Affliction, AMB-M-AFF-1): max
        # Mettle lowered by one (counted against the Dose of the row it was rolled on),
        # and recovered by one once it has ended.
        LOWER = "aff_lower", "Affliction: max Mettle lowered"
        RECOVER = "aff_recover", "Affliction: max Mettle recovered"

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE,
                                 related_name="mettle_hazards")
    character = models.ForeignKey("characters.Character", on_delete=models.CASCADE,
                                  related_name="mettle_hazards")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    dice = models.JSONField(default=list)  # the faces rolled
    inputs = models.JSONField(default=dict)  # zones, surface, dm, cover, affliction...
    damage = models.SmallIntegerField(default=0)
    soak = models.SmallIntegerField(default=0)
    through = models.SmallIntegerField(default=0)
    dose = models.SmallIntegerField(null=True, blank=True)  # the Guide's secret
    felled = models.CharField(max_length=12, blank=True)
    mettle_before = models.SmallIntegerField(null=True, blank=True)  # None: full
    mettle_after = models.SmallIntegerField(null=True, blank=True)
    statuses_before = models.JSONField(default=list)
    statuses_after = models.JSONField(default=list)
    # A tick: the affliction row (kind AFFLICTION, with the Dose) it counts against, and
    # the character's max Mettle lost before and after it (None for the other kinds).
    affliction = models.ForeignKey("self", null=True, blank=True, on_delete=models.CASCADE,
                                   related_name="ticks")
    max_lost_before = models.SmallIntegerField(null=True, blank=True)
    max_lost_after = models.SmallIntegerField(null=True, blank=True)
    summary = models.CharField(max_length=300)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                  on_delete=models.SET_NULL, related_name="+")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    request_key = models.CharField(max_length=64, null=True, blank=True, unique=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
