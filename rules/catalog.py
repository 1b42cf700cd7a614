"""Read helpers over the rules rows, for pages that list or pick from them."""

from collections.abc import Iterable

from .models import GearCategory, GearItem, Source


def gear_by_category(user=None) -> dict[str, list[GearItem]]:
    """The gear a user may pick (SRD rows and their own homebrew), grouped by category.

    Every category is present, in the order of `GearItem.Category`, even when empty.
    """
    grouped: dict[str, list[GearItem]] = {category: [] for category in GearCategory.values}
    for item in GearItem.objects.visible_to(user).select_related("source"):
        grouped[item.category].append(item)
    return grouped


def sources_of(rows: Iterable) -> list[Source]:
    """The distinct sources of some rules rows, to show their attribution where they appear."""
    ids = {row.source_id for row in rows if row.source_id is not None}
    return list(Source.objects.filter(pk__in=ids))
