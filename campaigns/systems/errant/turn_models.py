"""The Company's Turn log (issue 15, "The Company and its Turn log"; PR §Turns, §Event Die;
next-games.md E39-E40): every Turn the Guide declares, in order, with what the Company
did, its Event Die and what changed.

- `ErrantTurn` is one Turn: its type and its number (in the log and among its type), the
  day and the Turn of the day, the Turn it zooms in from (a Travel Turn that becomes
  Exploration that becomes Initiative: `parent`), the Event Die (its sources, every face
  rolled, the kept face, the result and its meaning), and two JSON states: `state`, what
  every member may read (weather, Pace, trackers), and `secret`, what only the Guide sees
  (the navigation DV, secret rolls).
- `ErrantTurnChange` is one thing the Turn changed on a character or an item (Depletion,
  Burn, Supply, Exhaustion, HP, money, XP), with the value before and after, so the Turn
  can be undone by putting each value back. A change to a ledger (money, XP) points at
  the ledger's entry, and undoing it writes the ledger's reversal.

A Turn is undone as a whole, newest first (turns.py); the row stays, marked undone, for
the audit. Rows are written by turns.py only.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from .company_models import ErrantCompany

ACTIVITY_LENGTH = 300
LABEL_LENGTH = 300


class ErrantTurn(models.Model):
    class Kind(models.TextChoices):  # PR §Turns
        TRAVEL = "travel", "Travel Turn"
        EXPLORATION = "exploration", "Exploration Turn"
        INITIATIVE = "initiative", "Initiative Turn"
        DOWNTIME = "downtime", "Downtime Turn"

    company = models.ForeignKey(ErrantCompany, on_delete=models.CASCADE, related_name="turns")
    session = models.ForeignKey("campaigns.Session", null=True, blank=True,
                                on_delete=models.SET_NULL, related_name="errant_turns")
    number = models.PositiveIntegerField()  # in the Company's log, every type
    kind = models.CharField(max_length=12, choices=Kind.choices)
    kind_number = models.PositiveIntegerField()  # among the Turns of its type
    parent = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="zoomed")
    day = models.PositiveIntegerField(default=1)  # the Company's day count
    turn_of_day = models.PositiveSmallIntegerField(null=True, blank=True)  # Travel: 1-6
    night = models.BooleanField(default=False)
    activity = models.CharField(max_length=ACTIVITY_LENGTH, blank=True)  # what they did
    # The Event Die: its sources [{"label", "positive", "negative"}], every face rolled,
    # the face kept (after fives counting as ones), the result's key and meaning.
    event_sources = models.JSONField(default=list, blank=True)
    event_positive = models.PositiveSmallIntegerField(default=0)
    event_negative = models.PositiveSmallIntegerField(default=0)
    event_faces = models.JSONField(default=list, blank=True)
    event_face = models.PositiveSmallIntegerField(null=True, blank=True)
    fives_are_ones = models.BooleanField(default=False)
    event_result = models.CharField(max_length=20, blank=True)
    event_meaning = models.CharField(max_length=LABEL_LENGTH, blank=True)
    state = models.JSONField(default=dict, blank=True)  # every member reads it
    secret = models.JSONField(default=dict, blank=True)  # the Guide's only
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                  on_delete=models.SET_NULL, related_name="+")
    request_key = models.CharField(max_length=64, null=True, blank=True, unique=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["company", "number"],
                                    name="errant_turn_number_unique"),
            models.CheckConstraint(
                condition=Q(kind__in=["travel", "exploration", "initiative", "downtime"]),
                name="errant_turn_kind_known"),
            models.CheckConstraint(
                condition=Q(turn_of_day__isnull=True)
                | Q(turn_of_day__gte=1, turn_of_day__lte=6),
                name="errant_turn_of_day_1_to_6"),
            models.CheckConstraint(
                condition=Q(event_face__isnull=True) | Q(event_face__gte=1, event_face__lte=6),
                name="errant_turn_event_face_d6"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.kind_number}"

    @property
    def undone(self) -> bool:
        return self.undone_at is not None


class ErrantTurnChange(models.Model):
    class What(models.TextChoices):
        HP = "hp", "HP"
        EXHAUSTION = "exhaustion", "Exhaustion"
        DEPLETION = "depletion", "Depletion"  # an item's uses (Burn for a light)
        QUANTITY = "quantity", "Quantity"  # a line's quantity: Supply, rations, ammunition
        REMOVED = "removed", "Item removed"  # a line used up; `line` keeps it to restore
        MONEY = "money", "Money"  # a CoinEntry (coin_entry)
        XP = "xp", "XP"  # an XpEntry (xp_entry)
        NOTE = "note", "Note"  # named for the Guide, nothing applied

    turn = models.ForeignKey(ErrantTurn, on_delete=models.CASCADE, related_name="changes")
    what = models.CharField(max_length=12, choices=What.choices)
    character = models.ForeignKey("characters.Character", null=True, blank=True,
                                  on_delete=models.CASCADE, related_name="+")
    item = models.ForeignKey("characters.InventoryItem", null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="+")
    line = models.JSONField(default=dict, blank=True)  # a removed line, to put it back
    before = models.IntegerField(null=True, blank=True)
    after = models.IntegerField(null=True, blank=True)
    coin_entry = models.ForeignKey("characters.CoinEntry", null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    xp_entry = models.ForeignKey("characters.XpEntry", null=True, blank=True,
                                 on_delete=models.SET_NULL, related_name="+")
    label = models.CharField(max_length=LABEL_LENGTH)  # as shown in the log
    secret = models.BooleanField(default=False)  # the Guide's only

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(what__in=["hp", "exhaustion", "depletion", "quantity", "removed",
                                      "money", "xp", "note"]),
                name="errant_turn_change_what_known"),
        ]

    def __str__(self) -> str:
        return self.label
