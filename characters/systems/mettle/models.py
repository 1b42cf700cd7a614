"""A METTLE Core character's build: a multi-table child of the generic
characters.Character (owner, campaign, system, name, portrait, ledgers) with what the
player chooses, in typed columns. Every derived number (Mettle, Soak, Load, the pools as
modified, the attack pools, the XP costs...) comes from rules/engine/mettle/ (builds.py
here feeds it) and is never stored.

The database holds the invariants it can: starting pools 1 to 6, the Array's five values
(sum 17 and sum of squares 63 with pools of 2 to 5 is exactly 5, 4, 3, 3, 2), the
Freestyle budget and its half-budget cap, Credit. The engine checks the rest
(Backstories, Contacts, Mettle against its maximum).

The gear is the generic inventory's (characters.InventoryItem lines: containers, drop and
pick up, give, the party stash); what a line is in METTLE's tables is read by name
(inventory.py here), and a weapon's table row and martial CONCEPT are its MettleWeapon
row. The Credit lost to purchases is the CreditEntry ledger's sum (README, "Design
notes", METTLE gear and Credit).
"""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Greatest
from django.db.models.lookups import Exact, LessThanOrEqual

from characters.models import Character, InventoryItem, LedgerEntry
from rules.engine.mettle.attributes import ARRAY, POOL_MAX, POOL_MIN, Method
from rules.engine.mettle.data import ARMOR, ATTRIBUTE_KEYS, WEAPONS

ARMOR_NAMES = tuple(armor.name for armor in ARMOR)
WEAPON_NAMES = tuple(weapon.name for weapon in WEAPONS)
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
    # Engine > Mettle: None means "at maximum", so a new character is full.
    mettle_current = models.SmallIntegerField(null=True, blank=True)
    # EN §Taking Damage, §Status Effects: the lasting statuses the character has (keys of
    # rules.engine.mettle.statuses.LASTING_STATUSES: Staggered, Afflicted...), set by the
    # player or written back by the end of Initiative. Fallen and Encumbered are derived.
    statuses = models.JSONField(default=list, blank=True)
    # Scenery > Affliction: "Afflictions lower the maximum Mettle of the character over
    # time" (one a day for a disease, one a Round for a poison, up to the secret Dose) and
    # it "recovers by 1" as often once the affliction ends: what they have taken now. The
    # Guide's Hazards card writes it, each tick a MettleHazard row (AMB-M-AFF-1).
    mettle_max_lost = models.PositiveSmallIntegerField(default=0)

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
                condition=Q(credit__gte=CREDIT_MIN, credit__lte=CREDIT_MAX),
                name="mettle_credit_assigned_in_range",
            ),
            models.CheckConstraint(
                condition=Q(mettle_current__isnull=True)
                | Q(mettle_current__gte=METTLE_MIN, mettle_current__lte=METTLE_MAX),
                name="mettle_current_in_range",
            ),
            models.CheckConstraint(
                condition=Q(mettle_max_lost__gte=0, mettle_max_lost__lte=METTLE_MAX),
                name="mettle_max_lost_in_range",
            ),
        ]

    @property
    def descriptors(self) -> dict[str, str]:
        return {key: getattr(self, f"{key}_descriptor") for key in ATTRIBUTE_KEYS}

    @property
    def credit_lost(self) -> int:
        """The Credit lost to purchases one digit over it, until it is restored between
        campaigns: the CreditEntry ledger's sum (a `credit_lost_total` annotation, if
        the queryset has one)."""
        return credit_lost_of(self)


class MettleWeapon(models.Model):
    """What makes a gear line a weapon: the WEAPONS table's row it is (RS §Weapons; the
    line's name is the character's own, "Sword cane" for a Sword) and whether a martial
    CONCEPT covers it (CH §CONCEPT). It follows its line wherever the line goes (given,
    stashed); a weapon line is always one weapon (quantity 1), so it is never split."""

    item = models.OneToOneField(InventoryItem, on_delete=models.CASCADE, primary_key=True,
                                related_name="mettle_weapon")
    weapon = models.CharField(max_length=40)
    concept = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(weapon__in=WEAPON_NAMES),
                                   name="mettle_weapon_known"),
        ]

    def __str__(self) -> str:
        return f"{self.item.name} ({self.weapon})"


class CreditEntry(LedgerEntry):
    """The ledger of Credit lost and restored (CH §Credit: "If they want to buy something
    one Credit digit higher, they lose a digit of Credit temporarily. Lost Credit
    recovers between campaigns."). `change` is Credit *lost*: +1 for a purchase one
    digit over, 0 for one within Credit (recorded so that a double click buys once and
    the purchase can be undone), minus what is restored."""

    class Kind(models.TextChoices):
        PURCHASE = "purchase", "Purchase"
        RESTORED = "restored", "Restored between campaigns"
        GUIDE = "guide", "Restored by the Guide"
        IMPORT = "import", "Imported"
        REVERSAL = "reversal", "Reversal"

    character = models.ForeignKey(MettleCharacter, on_delete=models.CASCADE,
                                  related_name="credit_entries")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    change = models.SmallIntegerField()
    # The line a purchase added (its undo removes it if the character still has it).
    item = models.ForeignKey(InventoryItem, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+")

    class Meta(LedgerEntry.Meta):
        verbose_name_plural = "credit entries"
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=["purchase", "restored", "guide",
                                                         "import", "reversal"]),
                                   name="mettle_credit_entry_kind_known"),
            models.CheckConstraint(condition=Q(change__gte=-99, change__lte=99),
                                   name="mettle_credit_entry_change_in_range"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.change:+d} Credit lost"


def credit_lost_of(character) -> int:
    """The Credit `character` (a METTLE character, or the generic row of one) has lost:
    its `credit_lost_total` annotation (builds.for_sheets), else the CreditEntry ledger's
    sum."""
    annotated = getattr(character, "credit_lost_total", None)
    if annotated is not None:
        return annotated
    if character.pk is None:
        return 0
    return (CreditEntry.objects.filter(character_id=character.pk)
            .aggregate(total=models.Sum("change"))["total"] or 0)


from .ledgers import AttributeRaise, ContactEvent, MakeUp, VoucherEntry  # noqa: E402, F401

