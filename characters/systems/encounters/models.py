"""A combatant of the encounter rules (seed 004): a multi-table child of the generic
characters.Character (owner, campaign, system, name, portrait, the XP and coin ledgers)
holding the numbers the tracker needs. The chapter has no character chapter beside it, so
these are numbers the player (or the Guide) enters; everything derived from them
(the Initiative rolls, the pace, Pushing Power) comes from rules/engine/encounters/sheet.py
and is never stored. The bounds are the engine's (sheet.BOUNDS), held by the database."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from characters.models import Character
from rules.engine.encounters.sheet import BOUNDS

DEFAULT_TRACK = 10  # our starting value for a new build's tracks, not the chapter's


def _in_bounds() -> Q:
    condition = Q()
    for name, (low, high) in BOUNDS.items():
        condition &= Q(**{f"{name}__gte": low, f"{name}__lte": high})
    return condition


class EncounterCharacter(Character):
    """A combatant's numbers. The parent's manager (visible_to, editable_by,
    with_progress) is inherited."""

    # The two skills Initiative rolls (H2), and what Pushing Power raises (H19).
    quickness = models.SmallIntegerField(default=0)
    command = models.SmallIntegerField(default=0)
    strength = models.SmallIntegerField(default=0)
    willpower = models.SmallIntegerField(default=0)
    # The three tracks' maxima (their formulas are in chapters we do not have).
    stamina_max = models.SmallIntegerField(default=DEFAULT_TRACK)
    health_max = models.SmallIntegerField(default=DEFAULT_TRACK)
    sanity_max = models.SmallIntegerField(default=DEFAULT_TRACK)
    # What it carries, in percent of its maximum lift (H10, AMB-H9).
    load = models.SmallIntegerField(default=0)

    class Meta:
        verbose_name = "Encounter combatant"
        constraints = [
            models.CheckConstraint(condition=_in_bounds(), name="encounters_numbers_in_range"),
        ]

    def numbers(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in BOUNDS}
