"""METTLE Core's Volleyball Initiative tracker models (app label "campaigns", imported by
campaigns/systems/mettle/models.py). As Eldritch Gambit's tracker: the fight's setup (its
combatants) and a ledger of steps are stored; the state (who holds Initiative, who has an
Action, Mettle, Staggered or Fallen, the Split parts left, the Zones) is the rules
engine's replay of that ledger (rules/engine/mettle/initiative.py, through
campaigns/systems/mettle/initiative.py). `round`, `holder` and `surprised` repeat the
replay's result for the list page and are written in the same transaction as each step.
The shape both trackers share: campaigns/initiative_models.py.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.urls import reverse

from campaigns.initiative_models import CombatantBase, EncounterBase, InitiativeStepBase

SIDES = [("party", "Party"), ("foes", "Foes")]


class MettleEncounter(EncounterBase):
    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE,
                                 related_name="mettle_encounters")
    session = models.ForeignKey("campaigns.Session", null=True, blank=True,
                                on_delete=models.SET_NULL, related_name="mettle_encounters")
    holder = models.ForeignKey("MettleCombatant", null=True, blank=True,
                               on_delete=models.SET_NULL, related_name="+")
    # The side that goes Round 1 without an Action (Sneak > Surprise), "" for none.
    surprised = models.CharField(max_length=5, choices=SIDES, blank=True)

    class Meta(EncounterBase.Meta):
        app_label = "campaigns"

    def get_absolute_url(self) -> str:
        return reverse("campaigns:mettle_initiative", args=[self.campaign_id, self.pk])


class MettleCombatant(CombatantBase):
    """A PC of the campaign (Mettle and Soak from its sheet) or an NPC pool the Guide
    entered: one pool for every Attribute and Mettle, the odd higher Attribute noted
    (GD §NPC Creation), with its armour's Soak; a Mob shares one pool."""

    encounter = models.ForeignKey(MettleEncounter, on_delete=models.CASCADE,
                                  related_name="combatants")
    character = models.ForeignKey("characters.Character", null=True, blank=True,
                                  on_delete=models.SET_NULL, related_name="mettle_combatants")
    side = models.CharField(max_length=5, choices=SIDES, default="foes")
    # NPC pools only: the pool (every Attribute and Mettle), [[attribute key, pool], ...]
    # for the higher ones, and the armour's Soak on top of FRAME.
    pool = models.PositiveSmallIntegerField(null=True, blank=True)
    higher = models.JSONField(default=list, blank=True)
    armor_soak = models.PositiveSmallIntegerField(default=0)
    # What they bring into the fight: current Mettle (None: at maximum) and Zone.
    mettle_start = models.SmallIntegerField(null=True, blank=True)
    zone = models.CharField(max_length=40, blank=True)

    class Meta(CombatantBase.Meta):
        app_label = "campaigns"
        constraints = [
            models.UniqueConstraint(fields=["encounter", "character"],
                                    condition=Q(character__isnull=False),
                                    name="mettle_combatant_character_once"),
            models.CheckConstraint(condition=Q(character__isnull=False) | Q(pool__gte=1),
                                   name="mettle_combatant_npc_has_pool"),
            models.CheckConstraint(condition=Q(members__gte=1),
                                   name="mettle_combatant_members_min_1"),
        ]


class MettleInitiativeStep(InitiativeStepBase):
    encounter = models.ForeignKey(MettleEncounter, on_delete=models.CASCADE,
                                  related_name="steps")

    class Meta(InitiativeStepBase.Meta):
        app_label = "campaigns"
        constraints = [
            models.UniqueConstraint(fields=["encounter", "number"],
                                    name="mettle_initiative_step_once"),
        ]
