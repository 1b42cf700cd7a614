from django.contrib import admin

from characters.admin import InventoryInline

from .models import EldritchGambitCharacter


@admin.register(EldritchGambitCharacter)
class EldritchGambitCharacterAdmin(admin.ModelAdmin):
    list_display = ("display_name", "owner", "career", "template_name", "updated_at")
    search_fields = ("name", "career", "owner__username")
    inlines = [InventoryInline]
