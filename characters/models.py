"""Characters hold the player's choices and their ledgers; every derived number
comes from the game system's rules engine, through its package (Eldritch Gambit's:
characters/systems/eldritch_gambit/builds.py)."""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable
from pathlib import PurePath

from django.conf import settings
from django.db import models
from django.db.models import OuterRef, Q, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.urls import reverse

from rules import systems


def portrait_path(character: Character, filename: str) -> str:
    """portraits/<character id>/<random>.<ext>: a new name for every upload, so a cached
    old picture is never shown for a new one."""
    suffix = PurePath(filename).suffix.lower()
    return f"portraits/{character.pk}/{secrets.token_hex(8)}{suffix}"


class CharacterQuerySet(models.QuerySet):
    def visible_to(self, user) -> CharacterQuerySet:
        """What a user may see: their own characters, and read-only the characters
        of the campaigns they run as Imp or co-Imp. (Players of a campaign see the
        party's summary on the campaign's page, not each other's sheets.)"""
        if not user.is_authenticated:
            return self.none()
        # Through the user's memberships (campaigns' related name): campaigns is the
        # higher app, so it is not imported here.
        run = user.memberships.running().values("campaign_id")
        return self.filter(Q(owner=user) | Q(campaign_id__in=run))

    def editable_by(self, user) -> CharacterQuerySet:
        if not user.is_authenticated:
            return self.none()
        return self.filter(owner=user)

    def with_progress(self) -> CharacterQuerySet:
        """Annotate Level, XP and coins from the ledgers (level_total, xp_total,
        coins_total): each a correlated subquery summing the character's ledger rows,
        0 for none, in the same query."""

        def ledger_sum(model, column):
            total = (model.objects.filter(character=OuterRef("pk")).order_by()
                     .values("character").annotate(total=Sum(column)).values("total"))
            return Coalesce(Subquery(total), Value(0), output_field=models.BigIntegerField())

        return self.annotate(
            level_total=ledger_sum(XpEntry, "level_change"),
            xp_total=ledger_sum(XpEntry, "xp_change"),
            coins_total=ledger_sum(CoinEntry, "amount_cp"),
        )


    def with_builds(self) -> CharacterQuerySet:
        """Join each game system's own table (the multi-table child of Character that
        holds its build: rules.systems, `character_model`), so `as_built` turns a row
        into its system's model without another query."""
        accessors = (_build_accessor(system.character_model) for system in systems.all_systems())
        return self.select_related(*filter(None, accessors))


def progress_of(pk: int, *, coins: bool = True) -> dict[str, int]:
    """One character's Level, XP and (unless `coins` is false) coins from its ledgers, by
    name as `with_progress` annotates them: a plain aggregate query per ledger. For one
    character these are cheaper to build and to run than the correlated subqueries
    `with_progress` adds to a query (which pays for a list of characters)."""
    xp = XpEntry.objects.filter(character_id=pk).aggregate(
        level_total=Sum("level_change"), xp_total=Sum("xp_change"))
    totals = {name: value or 0 for name, value in xp.items()}
    if coins:
        totals["coins_total"] = CoinEntry.objects.filter(character_id=pk).aggregate(
            t=Sum("amount_cp"))["t"] or 0
    return totals


def with_totals(character: Character, *, coins: bool = True) -> Character:
    """`character` with its ledger sums set (progress_of), as if read `with_progress`."""
    for name, value in progress_of(character.pk, coins=coins).items():
        setattr(character, name, value)
    return character


@functools.cache
def _build_accessor(model: type[models.Model] | None) -> str | None:
    """The reverse one-to-one accessor from Character to a system's build model (its
    multi-table child), or None for a system whose characters stay Characters. Fixed for
    a model, so looked up once per model."""
    if model is None or model is Character:
        return None
    return model._meta.model_name


def get_built(pk: int, narrow: Callable[[CharacterQuerySet], CharacterQuerySet]
              = CharacterQuerySet.all, *, system: str | None = None) -> Character:
    """The character `pk` as its system's model, from the characters `narrow` leaves of
    that model's (the user's own, those they may see; annotated `with_progress`, joined
    with its campaign...). Its system's name is read first (one column of one row), then
    its system's table joined to the shell: for one character this costs less than the
    join of every game's table that `with_builds` makes (about half as much to build and
    read on SQLite with four games, and each game added would add a join to every read).
    Raises Character.DoesNotExist when there is no such character or `narrow` leaves it
    out.

    `system`, when the caller knows it (the builder's page names its own game in the
    live preview's address, which posts on every keystroke), saves the first query: the
    row is read from that system's table only if it is of that system, and a wrong or
    stale key falls back to reading the system's name, so it is a hint, never trusted."""
    hinted = systems.find(system)
    if hinted is not None:
        model = hinted.character_model or Character
        try:
            return narrow(model.objects.filter(system=hinted.key)).get(pk=pk)
        except Character.DoesNotExist:
            pass
    key = Character.objects.values_list("system", flat=True).get(pk=pk)
    system = systems.find(key)
    model = (system.character_model if system is not None else None) or Character
    # A build model's DoesNotExist is Character.DoesNotExist's subclass (multi-table
    # inheritance), so callers catch the one.
    return narrow(model.objects.all()).get(pk=pk)


def as_built(character: Character) -> Character:
    """The character as its system's model (the shell's columns and the build's), with
    what the queryset annotated (ledger sums...): from the join of `with_builds`, or one
    query without it. A character whose system keeps it as Character is returned as is."""
    system = systems.find(character.system)
    accessor = _build_accessor(system.character_model) if system is not None else None
    if accessor is None:
        return character
    built = getattr(character, accessor)
    # The build row carries the shell's columns too (multi-table inheritance); what it
    # lacks is what the queryset annotated on the shell's row.
    built.__dict__.update({name: value for name, value in vars(character).items()
                           if not name.startswith("_") and name not in vars(built)})
    return built


class Character(models.Model):
    """The generic shell of a character: who owns it, its campaign, its game system, its
    name and portrait, its ledgers and its inventory. The build (a game's typed columns)
    lives in the system's multi-table child of this model (rules.systems,
    `GameSystem.character_model`; Eldritch Gambit's is
    characters.systems.eldritch_gambit.models.EldritchGambitCharacter)."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="characters"
    )
    # The campaign the character plays in, at most one (campaigns.services.character_join).
    campaign = models.ForeignKey(
        "campaigns.Campaign", null=True, blank=True, on_delete=models.SET_NULL,
        related_name="characters",
    )
    # The game system (rules.systems), chosen when the character is created.
    system = models.CharField(max_length=systems.KEY_MAX_LENGTH, default=systems.ELDRITCH_GAMBIT)
    # May stay blank ("Unnamed character #<pk>").
    name = models.CharField(max_length=120, blank=True)
    # The picture on the printed sheet: re-encoded on upload (characters/portraits.py),
    # stored by STORAGES["default"], served only through characters:portrait_image.
    portrait = models.ImageField(upload_to=portrait_path, blank=True, max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = CharacterQuerySet.as_manager()

    class Meta:
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.display_name

    def __eq__(self, other) -> bool:
        """One character, whichever model read it: the shell and its system's build (a
        multi-table child, same pk) are equal, where Django's own equality tells models
        apart. So `highlight.character == character` holds for a build too."""
        if isinstance(other, Character):
            return self is other if self.pk is None else self.pk == other.pk
        return super().__eq__(other)

    __hash__ = models.Model.__hash__

    def get_absolute_url(self) -> str:
        return reverse("characters:detail", args=[self.pk])

    @property
    def game_system(self) -> systems.GameSystem:
        return systems.get(self.system)

    @property
    def display_name(self) -> str:
        return self.name or f"Unnamed character #{self.pk}"

    def _ledger_total(self, attr: str, model, column: str) -> int:
        annotated = getattr(self, attr, None)
        if annotated is not None:
            return annotated
        if self.pk is None:
            return 0
        return model.objects.filter(character=self).aggregate(t=Sum(column))["t"] or 0

    @property
    def level(self) -> int:
        return self._ledger_total("level_total", XpEntry, "level_change")

    @property
    def xp(self) -> int:
        return self._ledger_total("xp_total", XpEntry, "xp_change")

    @property
    def coins_cp(self) -> int:
        return self._ledger_total("coins_total", CoinEntry, "amount_cp")


class LedgerEntry(models.Model):
    """What every ledger row records: who, when, why, and what it reverses."""

    note = models.CharField(max_length=300, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    reverses = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.RESTRICT, related_name="reversed_by"
    )
    # An idempotency key: the same submission recorded twice is recorded once.
    request_key = models.CharField(max_length=64, null=True, blank=True, unique=True)

    class Meta:
        abstract = True
        ordering = ["created_at", "pk"]


class XpEntry(LedgerEntry):
    """The XP ledger. A character's Level and XP are the sums of its entries.

    A Level-up is one entry: xp_change = -old Level, level_change = +1
    (Characters > Advancement: "raises the Level by one and erases the old XP").
    """

    class Kind(models.TextChoices):
        CREATION = "creation", "Character created"
        ADJUSTMENT = "adjustment", "Set in the builder"
        HIGHLIGHT = "highlight", "Highlight"
        QUEST_INVESTMENT = "quest_investment", "Quest investment"
        QUEST_PAYOUT = "quest_payout", "Quest payout"
        LEVEL_SPEND = "level_spend", "Level up"
        IMP_ADJUSTMENT = "imp_adjustment", "Imp adjustment"
        IMPORT = "import", "Imported"
        REVERSAL = "reversal", "Reversal"
        # No change: the record that the character came to or left a campaign, with its
        # Level and XP then (docs/RULES.md, "Level and XP after a campaign").
        JOINED = "joined", "Joined a campaign"
        LEFT = "left", "Left a campaign"
        # A game system's spends and catch-ups (METTLE Core: XP spent on an Attribute
        # raise; the make-up XP of a player back after missed sessions).
        ATTRIBUTE_RAISE = "attribute_raise", "Attribute raise"
        MAKE_UP = "make_up", "Make-up XP"
        # Errant: XP for money wasted (ER §Renown), and an adjutant pair's share of it.
        WASTE = "waste", "Money wasted"

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="xp_entries")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    xp_change = models.IntegerField(default=0)
    level_change = models.IntegerField(default=0)

    class Meta(LedgerEntry.Meta):
        verbose_name_plural = "XP entries"

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.xp_change:+d} XP, {self.level_change:+d} Level"


class CoinEntry(LedgerEntry):
    """The coin ledger, in copper pieces; a character's purse is its sum."""

    class Kind(models.TextChoices):
        STARTING = "starting", "Starting coins"
        ADJUSTMENT = "adjustment", "Set in the builder"
        PURCHASE = "purchase", "Purchase"
        SALE = "sale", "Sale"
        TRANSFER = "transfer", "Transfer"
        IMPORT = "import", "Imported"
        REVERSAL = "reversal", "Reversal"

    character = models.ForeignKey(
        Character, on_delete=models.CASCADE, related_name="coin_entries"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    amount_cp = models.BigIntegerField()

    class Meta(LedgerEntry.Meta):
        verbose_name_plural = "coin entries"

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.amount_cp:+d} cp"


class InventoryItem(models.Model):
    """One line of a character's gear: a catalog item or free text."""

    class Kind(models.TextChoices):
        ARMOR = "armor", "Armor"
        SHIELD = "shield", "Shield"
        WEAPON = "weapon", "Weapon"
        ITEM = "item", "Item"
        LOAD = "load", "Load"
        MATERIA = "materia", "Materia"
        EPHEMERA = "ephemera", "Ephemera"

    class Quality(models.TextChoices):
        STANDARD = "standard", "Standard"
        SUPERIOR = "superior", "Superior"
        INFERIOR = "inferior", "Inferior"

    class Coverage(models.TextChoices):
        FULL = "full", "Full set"
        PARTIAL = "partial", "Partial set (one type lower)"
        MINIMAL = "minimal", "Minimal set (two types lower)"

    # Who holds the line: a character, or a campaign's shared stash (exactly one of the
    # two; campaigns/transfers.py moves lines between them).
    character = models.ForeignKey(
        Character, null=True, blank=True, on_delete=models.CASCADE, related_name="items"
    )
    stash = models.ForeignKey(
        "campaigns.Campaign", null=True, blank=True, on_delete=models.CASCADE,
        related_name="stash_items",
    )
    catalog_item = models.ForeignKey(
        "rules.GearItem", null=True, blank=True, on_delete=models.SET_NULL,
        related_name="inventory_items",  # rules asks which lines use its homebrew gear
    )
    name = models.CharField(max_length=120)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.ITEM)
    quantity = models.PositiveIntegerField(default=1)
    quality = models.CharField(max_length=10, choices=Quality.choices, default=Quality.STANDARD)
    equipped = models.BooleanField(default=False)
    coverage = models.CharField(max_length=10, choices=Coverage.choices, default=Coverage.FULL)
    # Load of one unit for free-text items; None takes the catalog item's Load.
    load = models.SmallIntegerField(null=True, blank=True)
    container = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="contents"
    )
    dropped = models.BooleanField(default=False)
    attuned = models.BooleanField(default=False)
    charges = models.PositiveSmallIntegerField(null=True, blank=True)
    notes = models.CharField(max_length=300, blank=True)
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["position", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(quantity__gte=1), name="item_quantity_positive"),
            models.CheckConstraint(
                condition=~Q(container=models.F("pk")), name="item_not_inside_itself"
            ),
            models.CheckConstraint(
                condition=Q(character__isnull=False, stash__isnull=True)
                | Q(character__isnull=True, stash__isnull=False),
                name="item_held_by_character_or_stash",
            ),
        ]

    def __str__(self) -> str:
        return self.name if self.quantity == 1 else f"{self.name} x{self.quantity}"


class GearTransfer(models.Model):
    """One hand-over of gear inside a campaign: a line (a container with everything in
    it) from a character to another, into the party's stash, or out of it. Both sides
    read the same row; the names are kept as they were, so the history survives a
    character's deletion."""

    class Kind(models.TextChoices):
        GIVE = "give", "Given"
        TO_STASH = "to_stash", "Put in the stash"
        FROM_STASH = "from_stash", "Taken from the stash"

    kind = models.CharField(max_length=10, choices=Kind.choices)
    campaign = models.ForeignKey(
        "campaigns.Campaign", null=True, blank=True, on_delete=models.SET_NULL,
        related_name="gear_transfers",
    )
    # None on the stash's side (and once a character is deleted: the label stays).
    from_character = models.ForeignKey(
        Character, null=True, blank=True, on_delete=models.SET_NULL, related_name="gear_given"
    )
    to_character = models.ForeignKey(
        Character, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="gear_received",
    )
    from_label = models.CharField(max_length=120)
    to_label = models.CharField(max_length=120)
    # The line handed over, as it was: its name, quantity and quality, and how many
    # lines moved with it (1 + everything inside, nested), named in `contents`.
    item = models.ForeignKey(
        InventoryItem, null=True, blank=True, on_delete=models.SET_NULL, related_name="transfers"
    )
    item_name = models.CharField(max_length=120)
    quantity = models.PositiveIntegerField(default=1)
    quality = models.CharField(max_length=10, choices=InventoryItem.Quality.choices,
                               default=InventoryItem.Quality.STANDARD)
    lines = models.PositiveIntegerField(default=1)
    contents = models.JSONField(default=list, blank=True)  # ["Sack, small", "Rope (10m)"]
    note = models.CharField(max_length=300, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # An idempotency key: the same submission recorded twice is recorded once.
    request_key = models.CharField(max_length=64, null=True, blank=True, unique=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(quantity__gte=1) & Q(lines__gte=1),
                                   name="transfer_moves_something"),
            models.CheckConstraint(
                condition=Q(from_character__isnull=True) | Q(to_character__isnull=True)
                | ~Q(from_character=models.F("to_character")),
                name="transfer_between_two_holders",
            ),
            models.CheckConstraint(
                condition=~Q(kind="to_stash") | Q(to_character__isnull=True),
                name="transfer_to_stash_has_no_receiver",
            ),
            models.CheckConstraint(
                condition=~Q(kind="from_stash") | Q(from_character__isnull=True),
                name="transfer_from_stash_has_no_giver",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.item_name}: {self.from_label} -> {self.to_label}"
