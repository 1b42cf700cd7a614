from django.contrib import admin

from .models import EncounterCharacter


@admin.register(EncounterCharacter)
class EncounterCharacterAdmin(admin.ModelAdmin):
    list_display = ("name", "owner", "campaign", "quickness", "command")
