from django.contrib import admin

from .models import ErrantCharacter


@admin.register(ErrantCharacter)
class ErrantCharacterAdmin(admin.ModelAdmin):
    list_display = ("display_name", "owner", "archetype", "ancestry", "method", "updated_at")
    search_fields = ("name", "owner__username")
