"""Eldritch Gambit's campaign models, registered with the campaigns app: campaigns/models.py
imports this module through campaigns.systems.import_each. Their rows sit in the campaigns
app's tables and migrations (campaigns_quest, campaigns_questinvestment, campaigns_roll)."""

from django.conf import settings
from django.db import models
from django.db.models import Q

from .rolls import Roll  # noqa: F401


class Quest(models.Model):
    """A character's Quest and its fate. The invested XP is the sum of its investments;
    achieving it pays back double (Characters > Advancement > Quest XP)."""

    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        ACHIEVED = "achieved", "Achieved"
        ABANDONED = "abandoned", "Abandoned"

    character = models.ForeignKey(
        "characters.Character", on_delete=models.CASCADE, related_name="quests"
    )
    campaign = models.ForeignKey(
        "campaigns.Campaign", null=True, blank=True, on_delete=models.SET_NULL,
        related_name="quests",
    )
    text = models.CharField(max_length=200)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    started_in = models.ForeignKey(
        "campaigns.Session", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    ended_in = models.ForeignKey(
        "campaigns.Session", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    payout_entry = models.OneToOneField(
        "characters.XpEntry", null=True, blank=True, on_delete=models.SET_NULL,
        related_name="quest_paid",
    )

    class Meta:
        ordering = ["character", "started_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["character"], condition=Q(status="active"),
                                    name="quest_one_active_per_character"),
            models.CheckConstraint(
                condition=Q(status="active", ended_at__isnull=True)
                | (~Q(status="active") & Q(ended_at__isnull=False)),
                name="quest_ended_iff_not_active",
            ),
            models.CheckConstraint(
                condition=Q(payout_entry__isnull=True) | Q(status="achieved"),
                name="quest_payout_only_when_achieved",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.text} ({self.get_status_display()})"


class QuestInvestment(models.Model):
    """One XP put into a Quest after a session's Highlights: exactly one per character
    per session. The XP left the character as the linked QUEST_INVESTMENT entry."""

    quest = models.ForeignKey(Quest, on_delete=models.CASCADE, related_name="investments")
    session = models.ForeignKey("campaigns.Session", on_delete=models.CASCADE,
                                related_name="investments")
    # The Quest's character, repeated so the database can hold one investment per
    # character per session.
    character = models.ForeignKey(
        "characters.Character", on_delete=models.CASCADE, related_name="quest_investments"
    )
    xp_entry = models.OneToOneField(
        "characters.XpEntry", on_delete=models.CASCADE, related_name="quest_investment"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["session", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["character", "session"],
                                    name="investment_once_per_session"),
        ]

    def __str__(self) -> str:
        return f"{self.character} invested in {self.quest.text} ({self.session})"
