from django.contrib import admin

from .models import ErrantCharacter, ErrantItem, ErrantTrade


@admin.register(ErrantCharacter)
class ErrantCharacterAdmin(admin.ModelAdmin):
    list_display = ("display_name", "owner", "archetype", "ancestry", "method", "updated_at")
    search_fields = ("name", "owner__username")


@admin.register(ErrantItem)
class ErrantItemAdmin(admin.ModelAdmin):
    """An inventory line's Errant side (size, place, Depletion, Quality, Blocks)."""

    list_display = ("item", "quarters", "location", "kind", "uses", "uses_max", "quality")
    list_select_related = ("item",)
    search_fields = ("item__name", "item__character__name")
    raw_id_fields = ("item",)


@admin.register(ErrantTrade)
class ErrantTradeAdmin(admin.ModelAdmin):
    """A purchase or sale at the market; its money is the coin entry it belongs to, so
    the ledger stays the one record (read only here)."""

    list_display = ("entry", "kind", "settlement_tier", "rarity")
    list_filter = ("kind",)
    readonly_fields = ("entry", "kind", "item", "line", "settlement_tier", "rarity")
