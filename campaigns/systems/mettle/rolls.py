"""METTLE Core's roll log: every Check (and its Twist) made from a character's Play page.

A character in a campaign logs into its campaign's current session (the latest by
number), as Eldritch Gambit's rolls do; outside a campaign, or before the first session,
the roll is kept with the character alone. Rows are written once by roll_services.py and
never changed: a Twist is a new row pointing at its Check (one per Check: OneToOne), a
Mettle Surge is recorded on the row that spent it (Mettle before and after).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class MettleRoll(models.Model):
    class Kind(models.TextChoices):
        CHECK = "check", "Check"
        TWIST = "twist", "Twist"

    class DifficultyFrom(models.TextChoices):
        LADDER = "ladder", "the Difficulty ladder"
        POOL = "pool", "a target's pool"

    character = models.ForeignKey(
        "characters.Character", on_delete=models.CASCADE, related_name="mettle_rolls"
    )
    session = models.ForeignKey(
        "campaigns.Session", null=True, blank=True, on_delete=models.SET_NULL,
        related_name="mettle_rolls",
    )
    rolled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.CHECK)
    label = models.CharField(max_length=200)  # "Attack: NATURE vs the target's POISE"
    action = models.CharField(max_length=20, blank=True)  # data.ACTIONS name, "" plain
    attribute = models.CharField(max_length=10)  # the pool rolled (a Backstory: concept)
    backstory = models.CharField(max_length=200, blank=True)  # the Backstory used, if any
    # The dice: the Attribute's pool (as modified), the +/-D typed, the Mettle Surge, the
    # Teamwork die and the Raises (dice set to six, not rolled); `dice` is what was rolled
    # in all, raised dice included.
    pool = models.PositiveSmallIntegerField()
    bonus = models.PositiveSmallIntegerField(default=0)
    penalty = models.PositiveSmallIntegerField(default=0)
    surge = models.PositiveSmallIntegerField(default=0)
    mettle_before = models.SmallIntegerField(null=True, blank=True)  # with a Surge only
    mettle_after = models.SmallIntegerField(null=True, blank=True)
    teamwork = models.PositiveSmallIntegerField(default=0)
    raises = models.PositiveSmallIntegerField(default=0)
    dice = models.PositiveSmallIntegerField()
    difficulty = models.SmallIntegerField()
    difficulty_from = models.CharField(max_length=10, choices=DifficultyFrom.choices,
                                       default=DifficultyFrom.LADDER)
    # The faces: a Check's as rolled (raised dice as sixes); a Twist's the Score dice kept
    # and the Edge dice rerolled (`rerolled` holds the new ones).
    faces = models.JSONField(default=list)
    rerolled = models.JSONField(default=list, blank=True)
    score = models.PositiveSmallIntegerField()
    edge = models.PositiveSmallIntegerField()
    grade = models.CharField(max_length=12, blank=True)  # EDGE table, successes only
    success = models.BooleanField()
    # The odds shown before the roll, exact fractions as strings: {"success": "35/54",
    # "with_twist": ..., "twist_allowed": ...}.
    odds = models.JSONField(default=dict, blank=True)
    # A Twist's price (EN §Twists: Delay by default, or another agreed Twist).
    twist_price = models.CharField(max_length=120, blank=True)
    twist_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="twist"
    )
    # A part of a Split Action: {"key": ..., "part": 1, "of": 2, "shares": [3, 2]}.
    split = models.JSONField(default=dict, blank=True)
    request_key = models.CharField(max_length=64, null=True, blank=True, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(fields=["session", "-created_at"], name="mettle_roll_session"),
            models.Index(fields=["character", "-created_at"], name="mettle_roll_character"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(twist_of__isnull=True) | Q(kind="twist"),
                name="mettle_roll_twist_of_only_twists",
            ),
            models.CheckConstraint(condition=Q(raises__lte=models.F("dice")),
                                   name="mettle_roll_raises_within_dice"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.label} = {self.score}/{self.edge}"

    @property
    def outcome(self) -> str:
        return "success" if self.success else "failure"

    @property
    def split_label(self) -> str:
        if not self.split:
            return ""
        return f"Split Action, part {self.split.get('part')} of {self.split.get('of')}"
