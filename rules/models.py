"""Rules content: the reference rows a character is built from.

Every row knows where it comes from: an SRD row points at its `Source` (title, license,
attribution); a homebrew row has no source and points at its author instead. SRD rows are
loaded from the versioned JSON files in `rules/data/<source>/` by `rules.loaders`.

Only what the books print is stored here. Numbers derived from it (quality prices, HP,
encumbrance) belong to the rules engine.
"""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Exists, OuterRef, Q

# The Special/Notes tags of the STANDARD WEAPONS legend (Resources chapter) that are kept as
# tags. Range, Reload, AF and Block carry numbers and have fields of their own.
WEAPON_TAGS = ("2H", "Reach", "Stun", "Wrap", "Entangle", "Grapple")

# Die sizes a rally die can take (d4 with no armor up to d12 with plate).
RALLY_DICE = (4, 6, 8, 10, 12)

# An SRD row has a source and no owner; a homebrew row has an owner and no source.
SOURCE_XOR_OWNER = Q(source__isnull=False, owner__isnull=True) | Q(
    source__isnull=True, owner__isnull=False
)
# Only homebrew is shared with a campaign: an SRD row is everyone's already.
SHARED_ONLY_IF_HOMEBREW = Q(campaign__isnull=True) | Q(owner__isnull=False)


def shared_with_campaign(model_name):
    """The `campaign` a homebrew row is shared with; empty: its author's alone.

    SET_NULL, not CASCADE: the row is the author's work, not the campaign's, so deleting
    the campaign makes it private again instead of deleting it (and the characters'
    gear lines that point at it).
    """
    return models.ForeignKey(
        "campaigns.Campaign",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name=f"homebrew_{model_name}",
        help_text="Homebrew shared with this campaign's members; empty: the author's alone.",
    )


class Source(models.Model):
    """A published document the rules rows come from, with its license."""

    slug = models.SlugField(unique=True)
    title = models.CharField(max_length=200)
    author = models.CharField(max_length=200, blank=True)
    publisher = models.CharField(max_length=200, blank=True)
    license_name = models.CharField(max_length=50, help_text='For example "CC BY 4.0".')
    license_url = models.URLField(blank=True)
    attribution = models.TextField(
        help_text="The attribution text the license requires, shown wherever the rows are."
    )
    url = models.URLField(blank=True)

    class Meta:
        ordering = ["title"]

    def __str__(self):
        return self.title


class RulesContentQuerySet(models.QuerySet):
    def srd(self):
        return self.filter(source__isnull=False)

    def visible_to(self, user):
        """SRD rows, the user's own homebrew, and homebrew shared with a campaign the
        user is a member of (any role). An Exists() subquery, not a join: no row twice."""
        if user is None or not user.is_authenticated:
            return self.srd()
        # Through the user's memberships (campaigns' related name): campaigns is the
        # higher app, so it is not imported here.
        member = user.memberships.filter(campaign=OuterRef("campaign"))
        return self.filter(
            Q(source__isnull=False) | Q(owner=user) | Q(Exists(member))
        )


# The provenance constraints every rules row carries; Django spells each model's own
# name into %(app_label)s_%(class)s ("rules_gearitem_source_xor_owner").
PROVENANCE_CONSTRAINTS = [
    models.CheckConstraint(
        condition=SOURCE_XOR_OWNER, name="%(app_label)s_%(class)s_source_xor_owner"
    ),
    models.CheckConstraint(
        condition=SHARED_ONLY_IF_HOMEBREW, name="%(app_label)s_%(class)s_shared_only_if_homebrew"
    ),
    models.UniqueConstraint(
        fields=["source", "slug"],
        condition=Q(source__isnull=False),
        name="%(app_label)s_%(class)s_unique_source_slug",
    ),
    models.UniqueConstraint(
        fields=["owner", "slug"],
        condition=Q(owner__isnull=False),
        name="%(app_label)s_%(class)s_unique_owner_slug",
    ),
]


def rules_content(*, plural, noun):
    """The abstract base of a rules row: where it comes from, read one way.

    An SRD row points at its `source`; a homebrew row at its `owner` and, when shared,
    a `campaign`. Rows are read through RulesContentQuerySet (`srd()`, `visible_to()`).
    The subclass adds its `name` and `slug` (which PROVENANCE_CONSTRAINTS keep unique
    per source and per owner) and lists PROVENANCE_CONSTRAINTS in its Meta.

    A function returning the abstract model, not a plain abstract model: each model
    keeps its reverse names (`source.gear_items`, `user.homebrew_traits`,
    `campaign.homebrew_gear_items`), which a related_name's %(class)s cannot spell
    ("gearitem"), and the owner's help text names the kind of row (`noun`).
    """

    class RulesContent(models.Model):
        source = models.ForeignKey(
            Source, on_delete=models.PROTECT, null=True, blank=True, related_name=plural
        )
        owner = models.ForeignKey(
            settings.AUTH_USER_MODEL,
            on_delete=models.CASCADE,
            null=True,
            blank=True,
            related_name=f"homebrew_{plural}",
            help_text=f"The author of a homebrew {noun}; empty for SRD rows.",
        )
        campaign = shared_with_campaign(plural)

        objects = RulesContentQuerySet.as_manager()

        class Meta:
            abstract = True

        def __str__(self):
            return self.name

    return RulesContent


class GearCategory(models.TextChoices):
    ARMOR = "armor", "Armor"
    SHIELD = "shield", "Shield"
    WEAPON = "weapon", "Weapon"
    ITEM = "item", "Miscellaneous item"
    LOAD = "load", "Common load"


ARMED = [GearCategory.WEAPON, GearCategory.SHIELD]


class GearItem(rules_content(plural="gear_items", noun="item")):
    """One line of an SRD gear table (or a homebrew item shaped like one)."""

    Category = GearCategory

    name = models.CharField(max_length=100, help_text="As the table prints it.")
    slug = models.SlugField()
    category = models.CharField(max_length=10, choices=Category.choices)
    cost_cp = models.PositiveIntegerField(
        null=True, blank=True, help_text='Price in copper pieces; empty where the table has "-".'
    )
    load = models.IntegerField(default=0, help_text='Encumbrance; "-" in the table is 0.')
    capacity = models.PositiveIntegerField(
        null=True, blank=True, help_text="For containers: the most Load they hold."
    )

    armor_ap = models.PositiveSmallIntegerField(null=True, blank=True)
    armor_rally_die = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The die size: 6 for 1d6."
    )
    armor_rank = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="1 Leather to 4 Plate mail; partial and minimal sets step down this order.",
    )

    shield_af = models.SmallIntegerField(null=True, blank=True)
    shield_block = models.SmallIntegerField(null=True, blank=True)

    weapon_hit = models.SmallIntegerField(
        null=True, blank=True, help_text='Hit modifier; "-" in the table is 0.'
    )
    weapon_damage = models.CharField(
        max_length=20, blank=True, help_text='Damage dice as printed, e.g. "1d4+1".'
    )
    weapon_range = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Range in Zones."
    )
    weapon_reload = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Actions needed to reload."
    )
    weapon_tags = models.JSONField(default=list, blank=True)

    pack_size = models.PositiveSmallIntegerField(
        default=1, help_text="How many are bought together: 12 for arrows or bolts."
    )
    notes = models.CharField(max_length=100, blank=True, help_text="The Notes column as printed.")
    description = models.TextField(blank=True)

    class Meta:
        ordering = ["category", "name"]
        constraints = [
            *PROVENANCE_CONSTRAINTS,
            models.CheckConstraint(
                condition=Q(category__in=GearCategory.values),
                name="rules_gearitem_category_valid",
            ),
            models.CheckConstraint(
                condition=Q(
                    category=GearCategory.ARMOR,
                    armor_ap__isnull=False,
                    armor_rally_die__in=RALLY_DICE,
                    armor_rank__gte=1,
                )
                | (
                    ~Q(category=GearCategory.ARMOR)
                    & Q(
                        armor_ap__isnull=True, armor_rally_die__isnull=True, armor_rank__isnull=True
                    )
                ),
                name="rules_gearitem_armor_stats_on_armor_only",
            ),
            models.CheckConstraint(
                condition=Q(
                    category=GearCategory.SHIELD,
                    shield_af__isnull=False,
                    shield_block__isnull=False,
                )
                | (
                    ~Q(category=GearCategory.SHIELD)
                    & Q(shield_af__isnull=True, shield_block__isnull=True)
                ),
                name="rules_gearitem_shield_stats_on_shields_only",
            ),
            models.CheckConstraint(
                condition=(Q(category__in=ARMED, weapon_hit__isnull=False) & ~Q(weapon_damage=""))
                | Q(
                    ~Q(category__in=ARMED),
                    weapon_hit__isnull=True,
                    weapon_damage="",
                    weapon_range__isnull=True,
                    weapon_reload__isnull=True,
                ),
                name="rules_gearitem_weapon_stats_on_weapons_only",
            ),
            models.CheckConstraint(
                condition=Q(capacity__isnull=True) | Q(capacity__gte=1),
                name="rules_gearitem_capacity_positive",
            ),
            models.CheckConstraint(
                condition=Q(pack_size__gte=1), name="rules_gearitem_pack_size_positive"
            ),
        ]

    def clean(self):
        tags = self.weapon_tags
        if not isinstance(tags, list) or not all(isinstance(tag, str) for tag in tags):
            raise ValidationError(
                {
                    "weapon_tags": ValidationError(
                        "Give the tags as a list of names.", code="invalid"
                    )
                }
            )
        unknown = sorted(set(tags) - set(WEAPON_TAGS))
        if unknown:
            raise ValidationError(
                {
                    "weapon_tags": ValidationError(
                        "Unknown weapon tags: %(tags)s.",
                        code="unknown_weapon_tag",
                        params={"tags": ", ".join(unknown)},
                    )
                }
            )

    @property
    def is_container(self):
        return self.capacity is not None


class Trait(rules_content(plural="traits", noun="Trait")):
    """One line of the Bestiary's TEMPLATES table: a Template is a set of Traits."""

    name = models.CharField(max_length=100, help_text='As the table prints it: "Size (large)".')
    slug = models.SlugField()
    group = models.CharField(max_length=50, help_text='The base name: "Size", "Attack".')
    value = models.CharField(
        max_length=50, blank=True, help_text='The level or kind within the group: "Large".'
    )
    load = models.IntegerField(
        default=0, help_text="Load it inflicts (negative relieves); the default of a range."
    )
    load_min = models.SmallIntegerField(
        null=True, blank=True, help_text="Lowest Load when it varies; empty when fixed."
    )
    load_max = models.SmallIntegerField(
        null=True,
        blank=True,
        help_text='Highest Load when it varies; empty when fixed or open ("1+").',
    )
    effects = models.CharField(max_length=200, blank=True, help_text="The table's Effects text.")
    description = models.TextField(blank=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            *PROVENANCE_CONSTRAINTS,
            # Fixed Load: no min/max. Variable: min <= load, and load <= max unless open.
            models.CheckConstraint(
                condition=Q(load_min__isnull=True, load_max__isnull=True)
                | (
                    Q(load_min__isnull=False, load_min__lte=models.F("load"))
                    & (Q(load_max__isnull=True) | Q(load_max__gte=models.F("load")))
                ),
                name="rules_trait_load_within_range",
            ),
        ]

    @property
    def has_variable_load(self):
        return self.load_min is not None
