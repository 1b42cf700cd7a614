"""A METTLE Core character's advancement ledgers (issue 13, "Advancement and the Guide's
table"): the Attribute raises bought with XP, the make-up XP of a player back after
missed sessions, the Downtime Vouchers and the Contacts lost and regained. Rows are
never edited away: an undo is a row of its own (or a timestamp on the row it undoes),
so the Guide reads who did what and when. The writes are the campaign side's
(campaigns/systems/mettle/advancement.py); every number shown is a sum of these rows.

METTLE Core SRD: Characters > Experience (Spending XP), Characters > Contacts;
Guidance > Characters (make-up XP); seed 001, Scenes > Downtime (Vouchers).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q, Sum

from rules.engine.mettle.data import ATTRIBUTE_KEYS, ATTRIBUTE_NAMES

NOTE_LENGTH = 300
CONTACT_LENGTH = 120


class AttributeRaise(models.Model):
    """One Attribute raised by one with XP in play (Characters > Spending XP): what it
    cost then, the XP ledger's entry that paid for it and, once undone, when and by whom
    (the XP ledger holds the refund as a reversal). The character's `raises` list is the
    order the engine applies them in; these rows are their audit, one per raise bought
    here (a builder's or an imported character's raises came with their XP)."""

    character = models.ForeignKey("mettle.MettleCharacter", on_delete=models.CASCADE,
                                  related_name="attribute_raises")
    attribute = models.CharField(max_length=10,
                                 choices=[(key, ATTRIBUTE_NAMES[key]) for key in ATTRIBUTE_KEYS])
    before = models.SmallIntegerField()  # the unmodified pool before the raise
    cost = models.PositiveSmallIntegerField()
    xp_entry = models.OneToOneField("characters.XpEntry", on_delete=models.PROTECT,
                                    related_name="attribute_raise")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                  on_delete=models.SET_NULL, related_name="+")
    request_key = models.CharField(max_length=64, null=True, blank=True, unique=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(attribute__in=ATTRIBUTE_KEYS),
                                   name="mettle_raise_attribute_known"),
            models.CheckConstraint(condition=Q(cost__gte=1), name="mettle_raise_costs_xp"),
        ]

    def __str__(self) -> str:
        return f"{ATTRIBUTE_NAMES[self.attribute]} {self.before} -> {self.before + 1} " \
               f"({self.cost} XP)"


class MakeUp(models.Model):
    """One missed session (its Absence) made up in a later session's ritual (Guidance >
    Characters: "a bonus 'make-up' XP for each missing session", docs/RULES.md
    AMB-M-ADV-2). The XP ledger's entry pays for every session made up at once; undoing
    it (the generic undo) marks these rows undone, and the sessions may be made up
    again."""

    character = models.ForeignKey("mettle.MettleCharacter", on_delete=models.CASCADE,
                                  related_name="make_ups")
    absence = models.ForeignKey("campaigns.Absence", on_delete=models.CASCADE,
                                related_name="+")
    session = models.ForeignKey("campaigns.Session", on_delete=models.CASCADE,
                                related_name="+")  # where it was made up
    xp_entry = models.ForeignKey("characters.XpEntry", on_delete=models.PROTECT,
                                 related_name="make_ups")
    created_at = models.DateTimeField(auto_now_add=True)
    undone_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["absence"], condition=Q(undone_at__isnull=True),
                                    name="mettle_absence_made_up_once"),
        ]

    def __str__(self) -> str:
        return f"{self.absence} made up in {self.session}"


class VoucherEntry(models.Model):
    """The Downtime Voucher ledger (seed 001, Scenes > Downtime: "a token spent later to
    reveal something helpful they did"): the Guide grants one (+1), the player spends one
    (-1) saying what they reveal, an undo is a REVERSAL of either. A character's Vouchers
    are the sum."""

    class Kind(models.TextChoices):
        GRANT = "grant", "Granted"
        SPEND = "spend", "Spent"
        REVERSAL = "reversal", "Undone"

    character = models.ForeignKey("mettle.MettleCharacter", on_delete=models.CASCADE,
                                  related_name="voucher_entries")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    change = models.SmallIntegerField()
    note = models.CharField(max_length=NOTE_LENGTH, blank=True)
    reverses = models.OneToOneField("self", null=True, blank=True, on_delete=models.RESTRICT,
                                    related_name="reversed_by")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    request_key = models.CharField(max_length=64, null=True, blank=True, unique=True)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name_plural = "voucher entries"
        constraints = [
            models.CheckConstraint(
                condition=Q(kind="grant", change=1) | Q(kind="spend", change=-1)
                | Q(kind="reversal", change__in=[-1, 1], reverses__isnull=False),
                name="mettle_voucher_change_fits_kind"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.change:+d} Voucher"


class ContactEvent(models.Model):
    """A Contact lost or regained (Characters > Contacts: "can be lost by abuse and
    regained between campaigns"). A Contact is lost while its latest event is LOST, made
    in the character's present campaign, and the character has not left that campaign
    since (docs/RULES.md AMB-M-ADV-4): leaving the campaign regains it, with no row to
    write; the Guide may also regain it with a REGAINED row."""

    class Kind(models.TextChoices):
        LOST = "lost", "Lost"
        REGAINED = "regained", "Regained"

    character = models.ForeignKey("mettle.MettleCharacter", on_delete=models.CASCADE,
                                  related_name="contact_events")
    contact = models.CharField(max_length=CONTACT_LENGTH)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    campaign = models.ForeignKey("campaigns.Campaign", null=True, blank=True,
                                 on_delete=models.SET_NULL, related_name="+")
    note = models.CharField(max_length=NOTE_LENGTH, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=["lost", "regained"]),
                                   name="mettle_contact_event_kind_known"),
        ]

    def __str__(self) -> str:
        return f"{self.contact}: {self.get_kind_display()}"


# -- reads (the sheet's page and the Spend XP page) -------------------------------------------


def vouchers(character) -> int:
    """The character's Downtime Vouchers: the sum of its Voucher ledger."""
    return VoucherEntry.objects.filter(character_id=character.pk).aggregate(
        n=Sum("change"))["n"] or 0


def contact_states(character) -> dict[str, ContactEvent]:
    """The latest event of each Contact that has one."""
    latest: dict[str, ContactEvent] = {}
    for event in ContactEvent.objects.filter(character_id=character.pk).select_related(
            "campaign", "created_by").order_by("created_at", "pk"):
        latest[event.contact] = event
    return latest


def contacts_lost(character) -> dict[str, ContactEvent]:
    """The character's Contacts lost now: their latest event is LOST (none, and no
    query, for a character that names no Contacts)."""
    if not character.contacts:
        return {}
    return {name: event for name, event in contact_states(character).items()
            if event.kind == ContactEvent.Kind.LOST and name in character.contacts}
