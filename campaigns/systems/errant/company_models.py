"""The Company (DT §Debts, §Reputation, §Alignment; issue 15): an Errant campaign's
members are its Errants; the Company adds the table roles, the marching order, its debt
(a ledger) and its reputation with each Faction (a ledger per Faction). Sums are computed,
never stored."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from characters.models import LedgerEntry
from rules.engine.errant.data.company import REPUTATION_MAX, REPUTATION_MIN, TABLE_ROLES

FACTION_NAME_LENGTH = 80
ROLE_KEYS = tuple(key for key, _ in TABLE_ROLES)


class ErrantCompany(models.Model):
    """One per Errant campaign, made when first needed. Each table role is a member
    Errant or nobody; the marching order lists Errants' ids, the front first (members
    not listed march behind, in the order they joined)."""

    campaign = models.OneToOneField("campaigns.Campaign", on_delete=models.CASCADE,
                                    related_name="errant_company")
    caller = models.ForeignKey("characters.Character", null=True, blank=True,
                               on_delete=models.SET_NULL, related_name="+")
    mapper = models.ForeignKey("characters.Character", null=True, blank=True,
                               on_delete=models.SET_NULL, related_name="+")
    note_taker = models.ForeignKey("characters.Character", null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    quartermaster = models.ForeignKey("characters.Character", null=True, blank=True,
                                      on_delete=models.SET_NULL, related_name="+")
    timekeeper = models.ForeignKey("characters.Character", null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    marching_order = models.JSONField(default=list, blank=True)

    def __str__(self) -> str:
        return f"The Company of {self.campaign}"


class ErrantDebtEntry(LedgerEntry):
    """DT §Debts: "the debt of the entire Company is held cumulatively". In pennies: a
    loan or a surplus owed is positive, a repayment negative; the debt is the sum."""

    class Kind(models.TextChoices):
        OWED = "owed", "Owed"
        REPAID = "repaid", "Repaid"
        DOUBLED = "doubled", "Doubled (a Downtime Turn begins)"
        REVERSAL = "reversal", "Undone"

    company = models.ForeignKey(ErrantCompany, on_delete=models.CASCADE,
                                related_name="debt_entries")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    amount = models.BigIntegerField()

    class Meta(LedgerEntry.Meta):
        verbose_name_plural = "Errant debt entries"


class ErrantFaction(models.Model):
    """A Faction the Company has a reputation with (DT §Reputation)."""

    company = models.ForeignKey(ErrantCompany, on_delete=models.CASCADE,
                                related_name="factions")
    name = models.CharField(max_length=FACTION_NAME_LENGTH)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]
        constraints = [models.UniqueConstraint(fields=["company", "name"],
                                               name="errant_faction_name_once")]

    def __str__(self) -> str:
        return self.name


class ErrantReputationEntry(LedgerEntry):
    """A change to the Company's reputation with a Faction; the first entry sets where it
    starts. The score is the sum, always within 2-12 (DT §Reputation's table)."""

    faction = models.ForeignKey(ErrantFaction, on_delete=models.CASCADE,
                                related_name="entries")
    change = models.SmallIntegerField()

    class Meta(LedgerEntry.Meta):
        verbose_name_plural = "Errant reputation entries"
        constraints = [models.CheckConstraint(
            condition=Q(change__gte=-(REPUTATION_MAX - REPUTATION_MIN))
            & Q(change__lte=REPUTATION_MAX), name="errant_reputation_change_in_range")]
