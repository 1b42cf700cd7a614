"""Errant advancement at the table: the money wasted behind each XP entry (ER §Renown; DT
§Setbacks, §Funerals, §Conspicuous Consumption), the Renown raises chosen (the Company's
first, the player's second), the Fame rolls and the Ancestry ability's use per session."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from rules.engine.errant.data import ATTRIBUTE_KEYS
from rules.engine.errant.data.company import CONSUMPTION_KINDS, WASTE_SOURCES

ATTRIBUTE_CHOICES = [(key, key) for key in ATTRIBUTE_KEYS]


class ErrantWaste(models.Model):
    """Why an XP entry was given: the money wasted (or the investment lost), its source
    and, when the Errant paid it, the coin entry that took it from the purse and the
    Company's debt for what the purse lacked (Conspicuous Consumption). Each Errant of a
    grant wasted `pennies` (a setback: their `invested`-way share of it)."""

    xp_entry = models.OneToOneField("characters.XpEntry", on_delete=models.CASCADE,
                                    related_name="errant_waste")
    coin_entry = models.OneToOneField("characters.CoinEntry", null=True, blank=True,
                                      on_delete=models.SET_NULL, related_name="+")
    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE,
                                 related_name="+")
    debt_entry = models.OneToOneField("campaigns.ErrantDebtEntry", null=True, blank=True,
                                      on_delete=models.SET_NULL, related_name="+")
    session = models.ForeignKey("campaigns.Session", null=True, blank=True,
                                on_delete=models.SET_NULL, related_name="+")
    source = models.CharField(max_length=12, choices=[(k, label) for k, label, _ in
                                                      WASTE_SOURCES])
    consumption = models.CharField(max_length=12, blank=True,
                                   choices=[(k, label) for k, label, _ in CONSUMPTION_KINDS])
    pennies = models.BigIntegerField()
    invested = models.PositiveSmallIntegerField(default=1)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(pennies__gt=0), name="errant_waste_positive"),
            models.CheckConstraint(condition=Q(invested__gte=1), name="errant_waste_invested"),
        ]


class ErrantRenownPick(models.Model):
    """One of the two Attributes raised at a Renown gained (ER §Renown): the Company's
    (`by_company`, first) or the player's (second, different). Undone picks stay, marked."""

    character = models.ForeignKey("characters.Character", on_delete=models.CASCADE,
                                  related_name="errant_renown_picks")
    renown = models.PositiveSmallIntegerField()
    by_company = models.BooleanField()
    attribute = models.CharField(max_length=5, choices=ATTRIBUTE_CHOICES)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                  on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["renown", "-by_company", "created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["character", "renown", "by_company"],
                                    condition=Q(undone_at__isnull=True),
                                    name="errant_renown_pick_once"),
            models.CheckConstraint(condition=Q(renown__gte=2, renown__lte=9),
                                   name="errant_renown_pick_range"),
        ]


class ErrantFameRoll(models.Model):
    """ER §Renown: a D10 against Renown, the die kept for the table to see."""

    character = models.ForeignKey("characters.Character", on_delete=models.CASCADE,
                                  related_name="errant_fame_rolls")
    session = models.ForeignKey("campaigns.Session", null=True, blank=True,
                                on_delete=models.SET_NULL, related_name="+")
    die = models.PositiveSmallIntegerField()
    renown = models.PositiveSmallIntegerField()
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [models.CheckConstraint(condition=Q(die__gte=1, die__lte=10),
                                              name="errant_fame_die_d10")]

    @property
    def known(self) -> bool:
        return self.die <= self.renown


class ErrantAncestryUse(models.Model):
    """ER §Choose Ancestry: the ability used "once per session", in that session."""

    session = models.ForeignKey("campaigns.Session", on_delete=models.CASCADE,
                                related_name="+")
    character = models.ForeignKey("characters.Character", on_delete=models.CASCADE,
                                  related_name="errant_ancestry_uses")
    ancestry = models.CharField(max_length=10)
    note = models.CharField(max_length=300, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    undone_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["session", "character"],
                                               condition=Q(undone_at__isnull=True),
                                               name="errant_ancestry_once_per_session")]
