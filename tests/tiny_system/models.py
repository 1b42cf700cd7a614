from django.db import models
from django.db.models import Q

from characters.models import Character

from .engine import MAX_SCORE, MIN_SCORE


class TinyCharacter(Character):
    """A tiny character's build: the generic shell (owner, campaign, name, ledgers,
    inventory) and two scores."""

    grit = models.SmallIntegerField(default=1)
    wits = models.SmallIntegerField(default=1)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(grit__gte=MIN_SCORE, grit__lte=MAX_SCORE)
                & Q(wits__gte=MIN_SCORE, wits__lte=MAX_SCORE),
                name="tiny_scores_in_range",
            ),
        ]
