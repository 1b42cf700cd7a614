from django.contrib import admin

from .models import MettleCharacter


@admin.register(MettleCharacter)
class MettleCharacterAdmin(admin.ModelAdmin):
    list_display = ("display_name", "owner", "method", "credit", "updated_at")
    search_fields = ("name", "owner__username")
