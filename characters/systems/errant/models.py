"""An Errant's build: a multi-table child of the generic characters.Character (owner,
campaign, system, name, portrait, the XP and coin ledgers) with what the player chose, in
typed columns. Every derived number (the Attributes after the swap, HP, Item Slots,
Encumbrance, SPD, movement dice, Renown from the XP ledger, the Archetype's resources...)
comes from rules/engine/errant/ (builds.py here feeds it) and is never stored.

The database holds the invariants it can: the method, at most one swap of two different
Attributes, Attributes set by the Guide within range and with their note, the Ancestry,
Archetype and Alignment known, Exhaustion and HP in range. The engine checks the rest (the
dice are four 4D4, the age against the rolled minimum, the items' places and sizes).
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from characters.models import Character, CoinEntry, InventoryItem
from rules.engine.errant.attributes import GUIDE_SET_MAX, GUIDE_SET_MIN, Method
from rules.engine.errant.data import (
    ALIGNMENTS,
    ANCESTRIES,
    ARCHETYPE_KEYS,
    ARCHETYPE_NAMES,
    ATTRIBUTE_KEYS,
    VIOLENT,
)

NOTE_LENGTH = 300
TEXT_LENGTH = 200
EXHAUSTION_MAX = 99
HP_MAX = 99
AGE_MAX = 9_999
DEEDS_MAX = 99
ATTRIBUTE_CHOICES = [(key, key) for key in ATTRIBUTE_KEYS]


def _guide_in_range() -> Q:
    condition = ~Q(guide_note="")
    for key in ATTRIBUTE_KEYS:
        # Spelled out: a NULL score would pass a CHECK of its range (NULL is not false).
        condition &= Q(**{f"guide_{key}__isnull": False, f"guide_{key}__gte": GUIDE_SET_MIN,
                          f"guide_{key}__lte": GUIDE_SET_MAX})
    return condition


class ErrantCharacter(Character):
    """The build of an Errant. The parent's manager (visible_to, editable_by,
    with_progress) is inherited."""

    class BuildMethod(models.TextChoices):
        ROLLED = Method.ROLLED.value, "Rolled: 4D4 each, in order, at most one swap"
        GUIDE = Method.GUIDE.value, "Set by the Guide (with a note of why)"

    # ER §Determine Attributes: the 4D4 rolled for phys, skill, mind and pres, in order
    # ([[3, 4, 2, 1], ...]), and at most one swap of two scores ("" and "": none).
    method = models.CharField(max_length=10, choices=BuildMethod.choices,
                              default=BuildMethod.ROLLED)
    dice = models.JSONField(default=list, blank=True)
    swap_first = models.CharField(max_length=5, choices=ATTRIBUTE_CHOICES, blank=True)
    swap_second = models.CharField(max_length=5, choices=ATTRIBUTE_CHOICES, blank=True)
    # "Set by the Guide": the four scores and why (IT §Death & Dying: an inheritance...).
    guide_phys = models.SmallIntegerField(null=True, blank=True)
    guide_skill = models.SmallIntegerField(null=True, blank=True)
    guide_mind = models.SmallIntegerField(null=True, blank=True)
    guide_pres = models.SmallIntegerField(null=True, blank=True)
    guide_note = models.CharField(max_length=NOTE_LENGTH, blank=True)
    # ER §Renown: the Attributes raised at each Renown gained, [["phys", "skill"], ...]
    # (the Company's, then the player's); Renown itself comes from the XP ledger.
    renown_raises = models.JSONField(default=list, blank=True)
    # ER §Choose Ancestry: the Ancestry, the rolled minimum starting age and the age.
    ancestry = models.CharField(max_length=10, choices=[(key, a.name) for key, a in
                                                        ANCESTRIES.items()],
                                default="adaptable")
    minimum_age = models.SmallIntegerField(null=True, blank=True)
    age = models.SmallIntegerField(null=True, blank=True)
    # ER §Keepsakes, §Failed Professions (d100 or chosen).
    keepsake = models.CharField(max_length=TEXT_LENGTH, blank=True)
    failed_profession = models.CharField(max_length=TEXT_LENGTH, blank=True)
    # ER §Choose an Archetype and its kit choice (ER §Select Starting Equipment).
    archetype = models.CharField(max_length=10, choices=list(ARCHETYPE_NAMES.items()),
                                 default=VIOLENT)
    kit_choice = models.CharField(max_length=30, blank=True)
    # A Deviant's Proficiency points: [["fitness", 2], ...]; a Zealot's Covenant's
    # alignment ("L", "C" or "") and Favour raised by deeds.
    proficiencies = models.JSONField(default=list, blank=True)
    covenant_alignment = models.CharField(max_length=1, blank=True)
    favour_deeds = models.SmallIntegerField(default=0)
    # ER §Note Languages Known: the languages beyond the common and Ancestry ones.
    extra_languages = models.JSONField(default=list, blank=True)
    # ER §Record Other Information: "" is the starting Alignment (N, or L1/C1 for a Zealot).
    alignment = models.CharField(max_length=2, blank=True)
    # HP now (None: full), Exhaustion (PR §Exhaustion), times reduced to 0 HP (lifespan).
    hp_current = models.SmallIntegerField(null=True, blank=True)
    exhaustion = models.SmallIntegerField(default=0)
    times_at_zero_hp = models.SmallIntegerField(default=0)
    class Meta:
        verbose_name = "Errant"
        constraints = [
            models.CheckConstraint(condition=Q(method__in=[m.value for m in Method]),
                                   name="errant_method_known"),
            # At most one swap, of two different Attributes.
            models.CheckConstraint(
                condition=Q(swap_first="", swap_second="")
                | (Q(swap_first__in=ATTRIBUTE_KEYS, swap_second__in=ATTRIBUTE_KEYS)
                   & ~Q(swap_first=models.F("swap_second"))),
                name="errant_one_swap_of_two"),
            models.CheckConstraint(
                condition=~Q(method=Method.GUIDE.value) | _guide_in_range(),
                name="errant_guide_set_with_note"),
            models.CheckConstraint(condition=Q(ancestry__in=list(ANCESTRIES)),
                                   name="errant_ancestry_known"),
            models.CheckConstraint(condition=Q(archetype__in=list(ARCHETYPE_KEYS)),
                                   name="errant_archetype_known"),
            models.CheckConstraint(condition=Q(alignment="") | Q(alignment__in=ALIGNMENTS),
                                   name="errant_alignment_known"),
            models.CheckConstraint(condition=Q(covenant_alignment__in=["", "L", "C"]),
                                   name="errant_covenant_alignment_known"),
            models.CheckConstraint(
                condition=Q(exhaustion__gte=0, exhaustion__lte=EXHAUSTION_MAX)
                & Q(times_at_zero_hp__gte=0, times_at_zero_hp__lte=EXHAUSTION_MAX)
                & Q(favour_deeds__gte=0, favour_deeds__lte=DEEDS_MAX),
                name="errant_counts_in_range"),
            models.CheckConstraint(
                condition=Q(hp_current__isnull=True) | Q(hp_current__gte=0,
                                                         hp_current__lte=HP_MAX),
                name="errant_hp_in_range"),
            models.CheckConstraint(
                condition=(Q(age__isnull=True) | Q(age__gte=0, age__lte=AGE_MAX))
                & (Q(minimum_age__isnull=True) | Q(minimum_age__gte=0,
                                                   minimum_age__lte=AGE_MAX)),
                name="errant_age_in_range"),
        ]

    @property
    def swap(self) -> tuple[str, str] | None:
        return (self.swap_first, self.swap_second) if self.swap_first else None

    @property
    def gear(self) -> list[dict]:
        """The items, each where it is (PR §Item Slots ... §Containers), as the builder,
        the engine's feed and the exchange read them: the character's inventory lines
        (characters.InventoryItem, in order) with their ErrantItem, sizes in quarter
        slots: [{"name": "Torch", "quarters": 2, "quantity": 1, "location": "backpack",
        "kind": "light", "uses": 2, "uses_max": 2, "quality": None, "blocks": None,
        "magic": 0}]. Read only: inventory.py writes the lines."""
        from .inventory import gear_of

        return gear_of(self)


LOCATION_KEYS = ("hand", "handy", "worn", "backpack", "container")
QUARTERS_MAX = 400
USES_LIMIT = 99
QUALITY_MAX = 3
MAGIC_LIMIT = 9


class ErrantItem(models.Model):
    """What makes an inventory line an Errant's item: its size in quarter slots, where it
    is carried (PR §Hand, Handy & Worn; the backpack or another container), its
    Depletion (Burn for a light, PR §Depletion), Quality (GS §Quality & Breakage: shoddy
    1, average 2, masterwork 3, destroyed at 0), Blocks and magic bonus. It follows its
    line wherever the line goes (given, stashed); a split part of a stack gets a copy
    (inventory.line_split)."""

    item = models.OneToOneField(InventoryItem, on_delete=models.CASCADE, primary_key=True,
                                related_name="errant_item")
    quarters = models.PositiveSmallIntegerField(default=0)
    location = models.CharField(max_length=10, default="backpack")
    kind = models.CharField(max_length=12, blank=True)
    uses = models.SmallIntegerField(null=True, blank=True)
    uses_max = models.SmallIntegerField(null=True, blank=True)
    quality = models.SmallIntegerField(null=True, blank=True)
    blocks = models.SmallIntegerField(null=True, blank=True)
    magic = models.SmallIntegerField(default=0)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(location__in=LOCATION_KEYS),
                                   name="errant_item_location_known"),
            models.CheckConstraint(condition=Q(quarters__lte=QUARTERS_MAX),
                                   name="errant_item_quarters_in_range"),
            models.CheckConstraint(
                condition=(Q(uses__isnull=True) | Q(uses__gte=0, uses__lte=USES_LIMIT))
                & (Q(uses_max__isnull=True) | Q(uses_max__gte=0, uses_max__lte=USES_LIMIT))
                & (Q(blocks__isnull=True) | Q(blocks__gte=0, blocks__lte=USES_LIMIT))
                & Q(magic__gte=0, magic__lte=MAGIC_LIMIT),
                name="errant_item_counts_in_range"),
            models.CheckConstraint(
                condition=Q(quality__isnull=True) | Q(quality__gte=0, quality__lte=QUALITY_MAX),
                name="errant_item_quality_in_range"),
        ]

    def __str__(self) -> str:
        return f"{self.item.name} ({self.location})"


class ErrantTrade(models.Model):
    """A purchase or a sale at a settlement's market (GS price tables; PR §Rarity): the
    coin ledger's entry (characters.CoinEntry, in pennies) and the line it added or
    removed. Undoing it reverses the entry and removes the bought line, or gives the sold
    line back as it was (`line`, its fields when sold)."""

    class Kind(models.TextChoices):
        PURCHASE = "purchase", "Bought"
        SALE = "sale", "Sold"

    entry = models.OneToOneField(CoinEntry, on_delete=models.CASCADE, primary_key=True,
                                 related_name="errant_trade")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    item = models.ForeignKey(InventoryItem, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+")
    line = models.JSONField(default=dict, blank=True)
    settlement_tier = models.SmallIntegerField(default=1)
    rarity = models.SmallIntegerField(default=1)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=["purchase", "sale"]),
                                   name="errant_trade_kind_known"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.line.get('name', '')}"


# Adjutants, rosters and training (issue 14): their own module, read by builds.py.
from .roster_models import (  # noqa: E402, F401
    ErrantAdjutant,
    ErrantRosterSwap,
    ErrantTradeTraining,
    ErrantTraining,
    ErrantXpShare,
)

# Lasting wounds (IT §Death & Dying): their own module, read by builds.py.
from .wound_models import ErrantWound, ErrantWoundHeal  # noqa: E402, F401
