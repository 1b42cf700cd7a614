"""Errant's adjutants, rosters and training (issue 14; ER §Adjutants, §Rosters; DT
§Improving Attributes). The campaign side writes them (campaigns/systems/errant/roster.py);
they live here because the sheet reads the training: an Attribute raised by a trainer is
one of the inputs the engine computes the Errant from (builds.values_of), never a stored
derived number.

- ErrantAdjutant: the one adjutant an Errant attracts in its lifetime. The row stays when
  the adjutant is gone (its name kept): "should they perish, they cannot be replaced".
- ErrantXpShare: XP one of the pair earned, divided ¾ to the Errant and ¼ to the adjutant:
  the earner's entry and the partner's share, undone together.
- ErrantRosterSwap: which of a player's Errants in the Company they play; a swap at most
  once per session (the database holds it too).
- ErrantTraining: one attempt at improving an Attribute: its cost (the n-th attempt across
  all Attributes), the 5D4 rolled, whether the Attribute rose, the coin entry that paid.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from rules.engine.errant.data import ATTRIBUTE_KEYS

ATTRIBUTE_CHOICES = [(key, key) for key in ATTRIBUTE_KEYS]
NAME_LENGTH = 120


class ErrantAdjutant(models.Model):
    """ER §Adjutants: from Renown 2 an Errant "may ... attract an adjutant" (one in its
    lifetime). `adjutant` is null once that character is deleted; `adjutant_name` stays."""

    master = models.OneToOneField("characters.Character", on_delete=models.CASCADE,
                                  related_name="errant_adjutant_link")
    adjutant = models.OneToOneField("characters.Character", null=True, blank=True,
                                    on_delete=models.SET_NULL,
                                    related_name="errant_master_link")
    adjutant_name = models.CharField(max_length=NAME_LENGTH, blank=True)
    campaign = models.ForeignKey("campaigns.Campaign", null=True, blank=True,
                                 on_delete=models.SET_NULL, related_name="+")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.CheckConstraint(condition=~Q(master=models.F("adjutant")),
                                              name="errant_adjutant_not_self")]


class ErrantXpShare(models.Model):
    """XP earned by one of a master-and-adjutant pair: `entry` is the earner's (its part),
    `share` the partner's part. Undoing either undoes both (ritual.py)."""

    link = models.ForeignKey(ErrantAdjutant, on_delete=models.CASCADE, related_name="shares")
    entry = models.OneToOneField("characters.XpEntry", on_delete=models.CASCADE,
                                 related_name="errant_share_of")
    share = models.OneToOneField("characters.XpEntry", on_delete=models.CASCADE,
                                 related_name="errant_share")
    earned = models.IntegerField()  # the XP before the division


class ErrantRosterSwap(models.Model):
    """ER §Rosters: the Errant a player plays from now on. The first choice is no swap;
    a swap (`is_swap`) is "only ... once per game session"."""

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE,
                                 related_name="+")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="+")
    session = models.ForeignKey("campaigns.Session", null=True, blank=True,
                                on_delete=models.CASCADE, related_name="+")
    is_swap = models.BooleanField(default=False)
    from_character = models.ForeignKey("characters.Character", null=True, blank=True,
                                       on_delete=models.SET_NULL, related_name="+")
    to_character = models.ForeignKey("characters.Character", on_delete=models.CASCADE,
                                     related_name="errant_roster_swaps")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    request_key = models.CharField(max_length=64, null=True, blank=True, unique=True)

    class Meta:
        ordering = ["-pk"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "player", "session"],
                                    condition=Q(is_swap=True),
                                    name="errant_roster_one_swap_per_session"),
            models.CheckConstraint(condition=Q(is_swap=False) | Q(session__isnull=False),
                                   name="errant_roster_swap_in_session"),
        ]


class ErrantTraining(models.Model):
    """DT §Improving Attributes: one attempt, paid from the purse (`coin_entry`), 5D4
    rolled and the lowest dropped; the Attribute rose by 1 when `raised`. An undone
    attempt stays, marked, with the money given back by a reversal."""

    character = models.ForeignKey("characters.Character", on_delete=models.CASCADE,
                                  related_name="errant_trainings")
    campaign = models.ForeignKey("campaigns.Campaign", null=True, blank=True,
                                 on_delete=models.SET_NULL, related_name="+")
    session = models.ForeignKey("campaigns.Session", null=True, blank=True,
                                on_delete=models.SET_NULL, related_name="+")
    attribute = models.CharField(max_length=5, choices=ATTRIBUTE_CHOICES)
    attempt = models.PositiveSmallIntegerField()  # the n-th, across all Attributes
    cost = models.BigIntegerField()  # pennies
    before = models.SmallIntegerField()  # the Attribute when trained
    trainer = models.SmallIntegerField(null=True, blank=True)  # the trainer's Attribute
    dice = models.JSONField(default=list)
    total = models.SmallIntegerField()  # the dice without the lowest
    raised = models.BooleanField()
    coin_entry = models.OneToOneField("characters.CoinEntry", null=True, blank=True,
                                      on_delete=models.SET_NULL, related_name="+")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                  on_delete=models.SET_NULL, related_name="+")
    request_key = models.CharField(max_length=64, null=True, blank=True, unique=True)

    class Meta:
        ordering = ["-pk"]
        constraints = [
            models.CheckConstraint(condition=Q(attribute__in=ATTRIBUTE_KEYS),
                                   name="errant_training_attribute_known"),
            models.CheckConstraint(condition=Q(attempt__gte=1) & Q(cost__gt=0),
                                   name="errant_training_attempt_paid"),
            models.CheckConstraint(condition=Q(total__gte=4, total__lte=16),
                                   name="errant_training_total_4d4"),
        ]


def trained_raises(character) -> list[str]:
    """The Attributes a trainer raised, oldest first (one key per +1): the sheet's input."""
    if character is None or character.pk is None:
        return []
    loaded = getattr(character, "sheet_trained", None)  # builds.for_sheets
    if loaded is not None:
        return [training.attribute for training in loaded]
    return list(ErrantTraining.objects.filter(character_id=character.pk, raised=True,
                                              undone_at__isnull=True)
                .order_by("pk").values_list("attribute", flat=True))


TRADE_LENGTH = 60


class ErrantTradeTraining(models.Model):
    """DT §Trades: one attempt at the next level of a Trade (apprentice, journeyman,
    master): the fee and any extra expenditure paid (`coin_entry`), the bonus (at most +3),
    2D6 rolled (none when a 7-9 before made this one an automatic success) and the outcome.
    The level an Errant holds in a Trade is counted from the standing attempts."""

    class Outcome(models.TextChoices):
        SUCCESS = "success", "Training attempt is successful"
        NEXT_AUTOMATIC = "next_automatic", "The next training attempt is an automatic success"
        NO_PROGRESS = "no_progress", "No progress is made"

    character = models.ForeignKey("characters.Character", on_delete=models.CASCADE,
                                  related_name="errant_trade_trainings")
    campaign = models.ForeignKey("campaigns.Campaign", null=True, blank=True,
                                 on_delete=models.SET_NULL, related_name="+")
    session = models.ForeignKey("campaigns.Session", null=True, blank=True,
                                on_delete=models.SET_NULL, related_name="+")
    trade = models.CharField(max_length=TRADE_LENGTH)  # as typed, compared case-blind
    level = models.CharField(max_length=12)  # rules.engine.errant.trades.LEVEL_KEYS
    cost = models.BigIntegerField()
    extra = models.BigIntegerField(default=0)
    situational = models.SmallIntegerField(default=0)
    bonus = models.SmallIntegerField(default=0)
    dice = models.JSONField(default=list, blank=True)  # [] for an automatic success
    automatic = models.BooleanField(default=False)
    outcome = models.CharField(max_length=16, choices=Outcome.choices)
    coin_entry = models.OneToOneField("characters.CoinEntry", null=True, blank=True,
                                      on_delete=models.SET_NULL, related_name="+")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                  on_delete=models.SET_NULL, related_name="+")
    request_key = models.CharField(max_length=64, null=True, blank=True, unique=True)

    class Meta:
        ordering = ["-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(level__in=["apprentice", "journeyman", "master"])
                & Q(cost__gt=0, extra__gte=0) & Q(bonus__gte=0, bonus__lte=3)
                & Q(situational__gte=0, situational__lte=3),
                name="errant_trade_training_in_range"),
        ]
