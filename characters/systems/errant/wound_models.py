"""Errant's lasting wounds (IT §Death & Dying: "Wounds without a stated duration are
permanent unless seen to by a physician, though they cannot restore lost body parts").
The campaign side writes them (campaigns/systems/errant/fight.py at a fight's end,
lasting.py for healing); they live here because the sheet reads them: a wound carried is
one of the inputs the engine computes the Errant from (builds.values_of: "HP halved"
halves the maximum), never a stored derived number.

- ErrantWound: one wound an Errant took in a fight and carries after it (a row of one of
  the four tables), written when the fight ends; marked undone (never deleted) when the
  fight's end is undone.
- ErrantWoundHeal: the wound seen to, by a physician in a Downtime Turn or by a
  beneficence; marked undone (never deleted) when the Guide takes it back. A wound is
  healed while one of its heals is not undone (the database holds at most one).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower

from rules.engine.errant.data.initiative_tables import WOUND_COLUMNS
from rules.engine.errant.wounds import HEALS, WOUND_ROWS

COLUMN_CHOICES = list(WOUND_COLUMNS.items())
HOW_CHOICES = [(key, label) for key, label in HEALS.items()]
TEXT_LENGTH = 200
NAME_LENGTH = 80
NOTE_LENGTH = 300


class ErrantWound(models.Model):
    character = models.ForeignKey("characters.Character", on_delete=models.CASCADE,
                                  related_name="errant_wounds")
    campaign = models.ForeignKey("campaigns.Campaign", null=True, blank=True,
                                 on_delete=models.SET_NULL, related_name="+")
    column = models.CharField(max_length=8, choices=COLUMN_CHOICES)
    row = models.PositiveSmallIntegerField()
    text = models.CharField(max_length=TEXT_LENGTH)
    # The fight's end that wrote it (its step), and the fight's name kept for the sheet.
    end_step = models.ForeignKey("campaigns.ErrantFightStep", null=True, blank=True,
                                 on_delete=models.SET_NULL, related_name="lasting_wounds")
    fight_name = models.CharField(max_length=NAME_LENGTH, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    undone_at = models.DateTimeField(null=True, blank=True)  # the fight's end undone
    undone_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                  on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.CheckConstraint(condition=Q(column__in=list(WOUND_COLUMNS)),
                                   name="errant_wound_column_known"),
            models.CheckConstraint(condition=Q(row__gte=1, row__lte=WOUND_ROWS),
                                   name="errant_wound_row_1_9"),
        ]

    def __str__(self) -> str:
        return f"{self.get_column_display()} {self.row}: {self.text}"

    @property
    def heal(self) -> ErrantWoundHeal | None:
        """The heal in force, or None (loaded by `live`)."""
        heals = getattr(self, "live_heals", None)
        if heals is None:
            heals = list(self.heals.filter(undone_at__isnull=True))
        return heals[0] if heals else None


class ErrantWoundHeal(models.Model):
    wound = models.ForeignKey(ErrantWound, on_delete=models.CASCADE, related_name="heals")
    how = models.CharField(max_length=12, choices=HOW_CHOICES)
    physician = models.CharField(max_length=NAME_LENGTH, blank=True)  # who, for a physician
    turn = models.ForeignKey("campaigns.ErrantTurn", null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="+")  # the Downtime Turn
    note = models.CharField(max_length=NOTE_LENGTH, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                  on_delete=models.SET_NULL, related_name="+")
    request_key = models.CharField(max_length=64, null=True, blank=True, unique=True)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.CheckConstraint(condition=Q(how__in=list(HEALS)),
                                   name="errant_wound_heal_how_known"),
            models.CheckConstraint(condition=~Q(how="physician") | ~Q(physician=""),
                                   name="errant_wound_heal_physician_named"),
            models.UniqueConstraint(fields=["wound"], condition=Q(undone_at__isnull=True),
                                    name="errant_wound_healed_once"),
            # GS §Retainers: a physician "can treat one disease or wound per Downtime Turn".
            models.UniqueConstraint(Lower("physician"), "turn",
                                    condition=Q(undone_at__isnull=True, how="physician"),
                                    name="errant_wound_physician_once_per_turn"),
        ]


def live(character_pk: int):
    """The Errant's wounds not undone, oldest first, each with its heal in force loaded."""
    return (ErrantWound.objects.filter(character_id=character_pk, undone_at__isnull=True)
            .order_by("pk").prefetch_related(models.Prefetch(
                "heals", to_attr="live_heals",
                queryset=ErrantWoundHeal.objects.filter(undone_at__isnull=True)
                .select_related("turn"))))


def carried_wounds(character) -> list[tuple[str, int]]:
    """(table, row) of each lasting wound not healed, oldest first: the sheet's input."""
    if character is None or character.pk is None:
        return []
    loaded = getattr(character, "sheet_wounds", None)  # builds.for_sheets
    if loaded is not None:
        return [(w.column, w.row) for w in loaded if not w.live_heals]
    healed = ErrantWoundHeal.objects.filter(wound=models.OuterRef("pk"),
                                            undone_at__isnull=True)
    return [tuple(pair) for pair in ErrantWound.objects.filter(
        ~models.Exists(healed), character_id=character.pk, undone_at__isnull=True)
        .order_by("pk").values_list("column", "row")]
