from django.contrib import admin

from .models import Character, CoinEntry, GearTransfer, InventoryItem, XpEntry


class InventoryInline(admin.TabularInline):
    model = InventoryItem
    fk_name = "character"
    extra = 0
    raw_id_fields = ("catalog_item", "container")


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin):
    """Every character, whatever its system (the shell's columns); each system's admin
    shows its build (Eldritch Gambit's: characters/systems/eldritch_gambit/admin.py)."""

    list_display = ("display_name", "owner", "system", "updated_at")
    list_filter = ("system",)
    search_fields = ("name", "owner__username")
    inlines = [InventoryInline]


@admin.register(XpEntry)
class XpEntryAdmin(admin.ModelAdmin):
    list_display = ("character", "kind", "xp_change", "level_change", "created_by", "created_at")
    list_filter = ("kind",)


@admin.register(CoinEntry)
class CoinEntryAdmin(admin.ModelAdmin):
    list_display = ("character", "kind", "amount_cp", "created_by", "created_at")
    list_filter = ("kind",)


@admin.register(GearTransfer)
class GearTransferAdmin(admin.ModelAdmin):
    list_display = ("created_at", "kind", "item_name", "lines", "from_label", "to_label",
                    "campaign", "created_by")
    list_filter = ("kind",)
    search_fields = ("item_name", "from_label", "to_label")
    raw_id_fields = ("campaign", "from_character", "to_character", "item")
