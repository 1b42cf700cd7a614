"""Errant's roll log: every Check, Saving Throw and opposed Check made from an Errant's
Play page.

An Errant in a campaign logs into its campaign's current session (the latest by number);
before the first session the roll is kept with the Errant alone. Rows are written once by
roll_services.py and never changed. The DV's explanation, the odds shown before the roll
(exact fractions as strings) and the outcome's meaning are kept as they were shown, so the
log reads the same after the sheet changes.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class ErrantRoll(models.Model):
    class Kind(models.TextChoices):
        CHECK = "check", "Check"
        SAVE = "save", "Saving Throw"
        OPPOSED = "opposed", "Opposed Check"

    class Position(models.TextChoices):  # CR §Position & Impact
        SHAKY = "shaky", "Shaky"
        RISKY = "risky", "Risky"
        DIRE = "dire", "Dire"

    class Impact(models.TextChoices):
        STRONG = "strong", "Strong"
        FAIR = "fair", "Fair"
        WEAK = "weak", "Weak"

    class SaveAgainst(models.TextChoices):  # CR §Saving Throws
        RENOWN = "renown", "an Errant's Renown"
        THREAT = "threat", "an NPC's Threat"

    class Opposed(models.TextChoices):  # CR §Opposed Checks
        WON = "first", "won"
        LOST = "second", "lost"
        TIE = "tie", "tied"
        BOTH_FAIL = "both_fail", "both failed"

    character = models.ForeignKey(
        "characters.Character", on_delete=models.CASCADE, related_name="errant_rolls"
    )
    session = models.ForeignKey(
        "campaigns.Session", null=True, blank=True, on_delete=models.SET_NULL,
        related_name="errant_rolls",
    )
    rolled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.CHECK)
    label = models.CharField(max_length=200, blank=True)  # what was attempted, as typed
    # The Check: the Attribute and its value then, the DV as set and as modified.
    attribute = models.CharField(max_length=5)  # phys, skill, mind, pres
    attribute_value = models.SmallIntegerField()
    base_dv = models.SmallIntegerField()
    dv = models.SmallIntegerField()
    dv_explanation = models.CharField(max_length=300)
    save_against = models.CharField(max_length=10, choices=SaveAgainst.choices, blank=True)
    physical = models.BooleanField(default=False)  # + Encumbrance (PR §Encumbrance)
    encumbrance = models.SmallIntegerField(default=0)  # the Encumbrance counted, if physical
    proficiency = models.CharField(max_length=30, blank=True)  # a Deviant's, if related
    expertise = models.BooleanField(default=False)
    mastery = models.BooleanField(default=False)
    jettons = models.PositiveSmallIntegerField(default=0)
    position = models.CharField(max_length=6, choices=Position.choices,
                                default=Position.RISKY)
    impact = models.CharField(max_length=6, choices=Impact.choices, default=Impact.FAIR)
    face = models.PositiveSmallIntegerField()  # the d20
    success = models.BooleanField()
    automatic = models.BooleanField(default=False)  # DV below 0
    meaning = models.CharField(max_length=200)  # what the outcome means (Position/Impact)
    # An opposed Check: the other side (its name, Attribute, DV, d20) and who won.
    opponent = models.CharField(max_length=100, blank=True)
    opponent_attribute = models.SmallIntegerField(null=True, blank=True)
    opponent_dv = models.SmallIntegerField(null=True, blank=True)
    opponent_face = models.PositiveSmallIntegerField(null=True, blank=True)
    opponent_success = models.BooleanField(null=True, blank=True)
    opposed_result = models.CharField(max_length=10, choices=Opposed.choices, blank=True)
    # The odds shown before the roll, exact fractions as strings: {"success": "3/10"}, and
    # for an opposed Check also "win", "lose", "tie", "both_fail".
    odds = models.JSONField(default=dict, blank=True)
    request_key = models.CharField(max_length=64, null=True, blank=True, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(fields=["session", "-created_at"], name="errant_roll_session"),
            models.Index(fields=["character", "-created_at"], name="errant_roll_character"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(face__gte=1, face__lte=20),
                                   name="errant_roll_face_d20"),
            models.CheckConstraint(
                condition=Q(kind="opposed") | Q(opponent_face__isnull=True,
                                                opposed_result=""),
                name="errant_roll_opponent_only_opposed"),
            models.CheckConstraint(condition=Q(kind="save") | Q(save_against=""),
                                   name="errant_roll_save_against_only_saves"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.attribute} vs DV {self.dv} = {self.face}"

    @property
    def outcome(self) -> str:
        if self.kind == self.Kind.OPPOSED:
            return {"first": "success", "second": "failure"}.get(self.opposed_result,
                                                                 self.opposed_result)
        return "success" if self.success else "failure"

    @property
    def badge(self) -> str:
        """The outcome badge's class: rolls.css's success, failure, or neutral (a tie)."""
        return {"success": "success", "tie": "attacker"}.get(self.outcome, "failure")

    @property
    def outcome_text(self) -> str:
        if self.kind == self.Kind.OPPOSED:
            return {"first": "Won", "second": "Lost", "tie": "Tie: a draw, or roll again",
                    "both_fail": "Both failed: worse for both"}[self.opposed_result]
        return "Success" if self.success else "Failure"
