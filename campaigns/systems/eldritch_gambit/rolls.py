"""The roll log: every Check, Gambit, Roll, Reroll and Roll-off made from a character's
page. A character in a campaign logs into its campaign's current session (the latest by
number); outside a campaign, or before the first session, the roll is kept with the
character alone. Rows are written once by roll_services.py and never changed.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Roll(models.Model):
    class Kind(models.TextChoices):
        CHECK = "check", "Check"
        GAMBIT = "gambit", "Gambit"
        DAMAGE = "damage", "Damage"
        RALLY = "rally", "Rally"
        FALL = "fall", "Fall"
        FIRE = "fire", "Fire"
        BUILDUP = "buildup", "Buildup"
        ROLLOFF = "rolloff", "Roll-off"
        REROLL = "reroll", "Reroll"

    class Outcome(models.TextChoices):
        NONE = "", "—"
        CRITICAL = "critical", "Critical"
        SUCCESS = "success", "Success"
        FAILURE = "failure", "Failure"
        BOTCH = "botch", "Botch"
        ATTACKER = "attacker", "Attacker wins"
        DEFENDER = "defender", "Defender wins"

    character = models.ForeignKey(
        "characters.Character", on_delete=models.CASCADE, related_name="rolls"
    )
    session = models.ForeignKey(
        "campaigns.Session", null=True, blank=True, on_delete=models.SET_NULL,
        related_name="rolls",
    )
    rolled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    label = models.CharField(max_length=200)  # "Attack, Melee: DEX", "Spear damage"
    expression = models.CharField(max_length=100)  # "d20+2 vs DF 11", "1d8+3"
    dice = models.JSONField(default=list)  # the natural die results
    total = models.IntegerField()
    # Checks and Gambits.
    die = models.PositiveSmallIntegerField(null=True, blank=True)  # 20 or 12
    modifier = models.IntegerField(null=True, blank=True)
    df = models.SmallIntegerField(null=True, blank=True)
    outcome = models.CharField(max_length=10, choices=Outcome.choices, blank=True)
    # The odds shown before the roll: {"success": "11/20", "critical": ..., "botch": ...}.
    chances = models.JSONField(default=dict, blank=True)
    action = models.CharField(max_length=40, blank=True)  # scenes.Action slug
    # Anything else worth showing: the Action's default Critical and Botch, the WP before
    # and after a Reroll, the two sides of a Roll-off, the Buildup total.
    detail = models.JSONField(default=dict, blank=True)
    # A Gambit belongs to its Check, a Reroll to the Roll it rerolls: once each.
    gambit_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="gambit"
    )
    reroll_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="reroll"
    )
    request_key = models.CharField(max_length=64, null=True, blank=True, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(fields=["session", "-created_at"], name="roll_session_recent"),
            models.Index(fields=["character", "-created_at"], name="roll_character_recent"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(gambit_of__isnull=True) | Q(kind="gambit"),
                name="roll_gambit_of_only_gambits",
            ),
            models.CheckConstraint(
                condition=Q(reroll_of__isnull=True) | Q(kind="reroll"),
                name="roll_reroll_of_only_rerolls",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.label} = {self.total}"

    @property
    def is_check(self) -> bool:
        return self.kind == self.Kind.CHECK

    @property
    def outcome_name(self) -> str:
        return self.get_outcome_display() if self.outcome else ""
