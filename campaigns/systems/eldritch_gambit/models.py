"""Eldritch Gambit's campaign models, registered with the campaigns app (app label
"campaigns", the tables they always had): campaigns/models.py imports this module through
campaigns.systems.import_each. The roll log lives in rolls.py; the Volleyball Initiative
tracker's models (they store Eldritch Gambit's AF and WP) and the Quests (Quest,
QuestInvestment: the ritual's step after the Highlights) live here."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse

from campaigns.initiative_models import CombatantBase, EncounterBase, InitiativeStepBase

from .rolls import Roll  # noqa: F401


# --- Volleyball Initiative (Scenes > Staging > Initiative) -------------------------------
# The tracker stores the fight's setup (its combatants) and a ledger of steps; the state
# (who holds Initiative, who has an Action, HP) is the rules engine's replay of that
# ledger (campaigns/systems/eldritch_gambit/initiative.py). The shared shape is
# campaigns/initiative_models.py's.
class Encounter(EncounterBase):
    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE,
                                 related_name="encounters")
    session = models.ForeignKey("campaigns.Session", null=True, blank=True,
                                on_delete=models.SET_NULL, related_name="encounters")
    holder = models.ForeignKey("Combatant", null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="+")

    def get_absolute_url(self) -> str:
        return reverse("campaigns:initiative", args=[self.campaign_id, self.pk])


class Combatant(CombatantBase):
    """One side of the fight: a campaign character (its HP, WP and AF from the rules
    engine) or a foe the Imp entered (a Mob shares one member's HP: Scenery > Mobs)."""

    class Side(models.TextChoices):
        PARTY = "party", "Party"
        FOES = "foes", "Foes"

    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE,
                                  related_name="combatants")
    character = models.ForeignKey("characters.Character", null=True, blank=True,
                                  on_delete=models.SET_NULL, related_name="combatants")
    side = models.CharField(max_length=5, choices=Side.choices, default=Side.FOES)
    # Foes only (a character's come from its sheet), but hp_max: a character's Armored HP
    # when it joined (None in fights stored before it was recorded: the sheet's now).
    hp_max = models.PositiveSmallIntegerField(null=True, blank=True)
    af = models.PositiveSmallIntegerField(null=True, blank=True)
    wp = models.PositiveSmallIntegerField(null=True, blank=True)
    # What they bring into the fight: current HP (None: at maximum) and statuses.
    hp_start = models.SmallIntegerField(null=True, blank=True)

    class Meta(CombatantBase.Meta):
        constraints = [
            models.UniqueConstraint(fields=["encounter", "character"],
                                    condition=Q(character__isnull=False),
                                    name="combatant_character_once"),
            models.CheckConstraint(condition=Q(character__isnull=False) | Q(hp_max__gte=1),
                                   name="combatant_foe_has_hp"),
            models.CheckConstraint(condition=Q(members__gte=1), name="combatant_members_min_1"),
        ]


class InitiativeStep(InitiativeStepBase):
    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="steps")

    class Meta(InitiativeStepBase.Meta):
        constraints = [
            models.UniqueConstraint(fields=["encounter", "number"], name="initiative_step_once"),
        ]


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
