from django.contrib import admin

from .models import GearItem, Source, Trait


@admin.register(Source)
class SourceAdmin(admin.ModelAdmin):
    list_display = ["title", "slug", "publisher", "license_name"]
    search_fields = ["title", "slug", "author", "publisher"]
    list_filter = ["license_name"]
    prepopulated_fields = {"slug": ["title"]}


@admin.register(GearItem)
class GearItemAdmin(admin.ModelAdmin):
    list_display = ["name", "category", "cost_cp", "load", "source", "owner"]
    list_filter = ["category", "source"]
    search_fields = ["name", "slug", "notes"]
    list_select_related = ["source", "owner"]
    prepopulated_fields = {"slug": ["name"]}
    raw_id_fields = ["owner"]
    fieldsets = [
        (None, {"fields": ["name", "slug", "category", "source", "owner"]}),
        ("Cost and Load", {"fields": ["cost_cp", "load", "capacity", "pack_size"]}),
        ("Armor", {"fields": ["armor_ap", "armor_rally_die", "armor_rank"]}),
        ("Shield", {"fields": ["shield_af", "shield_block"]}),
        (
            "Weapon",
            {
                "fields": [
                    "weapon_hit",
                    "weapon_damage",
                    "weapon_range",
                    "weapon_reload",
                    "weapon_tags",
                ]
            },
        ),
        ("Text", {"fields": ["notes", "description"]}),
    ]


@admin.register(Trait)
class TraitAdmin(admin.ModelAdmin):
    list_display = ["name", "group", "value", "load", "load_min", "load_max", "source", "owner"]
    list_filter = ["group", "source"]
    search_fields = ["name", "slug", "group", "effects", "description"]
    list_select_related = ["source", "owner"]
    prepopulated_fields = {"slug": ["name"]}
    raw_id_fields = ["owner"]
