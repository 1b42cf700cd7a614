"""A METTLE Core character's build: a multi-table child of the generic
characters.Character (owner, campaign, system, name, portrait, ledgers) with what the
player chooses, in typed columns. Every derived number (Mettle, Soak, Load, the pools as
modified, the attack pools, the XP costs...) comes from rules/engine/mettle/ (builds.py
here feeds it) and is never stored.

The database holds the invariants it can: starting pools 1 to 6, the Array's five values
(sum 17 and sum of squares 63 with pools of 2 to 5 is exactly 5, 4, 3, 3, 2), the
Freestyle budget and its half-budget cap, Credit and what is lost of it, the armour's
name. The engine checks the rest (Backstories, Contacts, Mettle against its maximum).
"""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Greatest
from django.db.models.lookups import Exact, LessThanOrEqual

from characters.models import Character
from rules.engine.mettle.attributes import ARRAY, POOL_MAX, POOL_MIN, Method
from rules.engine.mettle.data import ARMOR, ATTRIBUTE_KEYS

ARMOR_NAMES = tuple(armor.name for armor in ARMOR)
BUDGET_MIN, BUDGET_MAX = 1, 99
CREDIT_MIN, CREDIT_MAX = 0, 9
METTLE_MIN, METTLE_MAX = -99, 99
DESCRIPTOR_LENGTH = 120

_POOLS = [F(key) for key in ATTRIBUTE_KEYS]
_SUM = _POOLS[0] + _POOLS[1] + _POOLS[2] + _POOLS[3] + _POOLS[4]
_SQUARES = (F("concept") * F("concept") + F("frame") * F("frame") + F("motive") * F("motive")
            + F("nature") * F("nature") + F("poise") * F("poise"))
_HIGHEST = Greatest(*_POOLS)


def _each_pool(low: int, high: int) -> Q:
    condition = Q()
    for key in ATTRIBUTE_KEYS:
        condition &= Q(**{f"{key}__gte": low, f"{key}__lte": high})
    return condition


class MettleCharacter(Character):
    """The build of a METTLE Core character. The parent's manager (visible_to,
    editable_by, with_progress) is inherited."""

    class BuildMethod(models.TextChoices):
        ARRAY = Method.ARRAY.value, "Array (5, 4, 3, 3, 2)"
        FREESTYLE = Method.FREESTYLE.value, "Freestyle (spend a budget of points)"

    # Characters > Step 1-2: who they are (the d66 seeds may fill them).
    appearance = models.CharField(max_length=200, blank=True)
    background = models.CharField(max_length=300, blank=True)
    # Characters > Step 3: the starting pools (unmodified) and how they were bought.
    method = models.CharField(max_length=10, choices=BuildMethod.choices,
                              default=BuildMethod.ARRAY)
    budget = models.SmallIntegerField(default=22)
    concept = models.SmallIntegerField(default=ARRAY[0])
    frame = models.SmallIntegerField(default=ARRAY[1])
    motive = models.SmallIntegerField(default=ARRAY[2])
    nature = models.SmallIntegerField(default=ARRAY[3])
    poise = models.SmallIntegerField(default=ARRAY[4])
    concept_descriptor = models.CharField(max_length=DESCRIPTOR_LENGTH, blank=True)
    frame_descriptor = models.CharField(max_length=DESCRIPTOR_LENGTH, blank=True)
    motive_descriptor = models.CharField(max_length=DESCRIPTOR_LENGTH, blank=True)
    nature_descriptor = models.CharField(max_length=DESCRIPTOR_LENGTH, blank=True)
    poise_descriptor = models.CharField(max_length=DESCRIPTOR_LENGTH, blank=True)
    # Characters > Spending XP: the Attribute keys raised, in the order bought (each
    # raise's cost depends on the pools at the time; the engine recomputes it).
    raises = models.JSONField(default=list, blank=True)
    # Characters > Step 4, Contacts, Credit.
    backstories = models.JSONField(default=list, blank=True)  # ["Raised in Kyiv (Ukrainian)"]
    contacts = models.JSONField(default=list, blank=True)  # ["Oleg", "Samuelson"]
    credit = models.SmallIntegerField(default=2)
    credit_lost = models.SmallIntegerField(default=0)  # until the next campaign
    # Engine > Mettle: None means "at maximum", so a new character is full.
    mettle_current = models.SmallIntegerField(null=True, blank=True)
    # Resources: the worn armour ("" none), the weapons and the rest of the gear.
    armor = models.CharField(max_length=40, blank=True)
    # [{"name": "Sword cane", "weapon": "Sword", "concept": false}]: a weapon of the
    # WEAPONS table under the character's own name; `concept` when a martial CONCEPT
    # covers it (Characters > CONCEPT).
    weapons = models.JSONField(default=list, blank=True)
    # [{"name": "Pocket watch and fob", "load": null, "quantity": 1}]: a table item
    # (COMMON LOADS, Medicine, Standard Kits, Vehicles, Mounts) takes the table's Load when
    # `load` is null; anything else is free-form with its own Load (null: 0).
    gear = models.JSONField(default=list, blank=True)

    class Meta:
        verbose_name = "METTLE Core character"
        constraints = [
            models.CheckConstraint(condition=_each_pool(POOL_MIN, POOL_MAX),
                                   name="mettle_pools_in_range"),
            models.CheckConstraint(condition=Q(method__in=[m.value for m in Method]),
                                   name="mettle_method_known"),
            models.CheckConstraint(condition=Q(budget__gte=BUDGET_MIN, budget__lte=BUDGET_MAX),
                                   name="mettle_budget_in_range"),
            # The Array: exactly 5, 4, 3, 3, 2 in any order.
            models.CheckConstraint(
                condition=~Q(method=Method.ARRAY.value)
                | (_each_pool(min(ARRAY), max(ARRAY)) & Q(Exact(_SUM, sum(ARRAY)))
                   & Q(Exact(_SQUARES, sum(value * value for value in ARRAY)))),
                name="mettle_array_is_the_array",
            ),
            # Freestyle: the highest costs double; the pools cost at most the budget, and
            # the highest (the dearest) at most half of it.
            models.CheckConstraint(
                condition=~Q(method=Method.FREESTYLE.value)
                | (Q(LessThanOrEqual(_SUM + _HIGHEST, F("budget")))
                   & Q(LessThanOrEqual(_HIGHEST * 4, F("budget")))),
                name="mettle_freestyle_within_budget",
            ),
            models.CheckConstraint(
                condition=Q(credit__gte=CREDIT_MIN, credit__lte=CREDIT_MAX)
                & Q(credit_lost__gte=0, credit_lost__lte=F("credit")),
                name="mettle_credit_in_range",
            ),
            models.CheckConstraint(
                condition=Q(mettle_current__isnull=True)
                | Q(mettle_current__gte=METTLE_MIN, mettle_current__lte=METTLE_MAX),
                name="mettle_current_in_range",
            ),
            models.CheckConstraint(condition=Q(armor="") | Q(armor__in=ARMOR_NAMES),
                                   name="mettle_armor_known"),
        ]

    @property
    def descriptors(self) -> dict[str, str]:
        return {key: getattr(self, f"{key}_descriptor") for key in ATTRIBUTE_KEYS}


from .ledgers import AttributeRaise, ContactEvent, MakeUp, VoucherEntry  # noqa: E402, F401
