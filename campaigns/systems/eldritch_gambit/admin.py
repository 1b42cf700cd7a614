"""The admin of Eldritch Gambit's campaign models: campaigns/admin.py imports this module
through campaigns.systems.import_each."""

from django.contrib import admin

from .models import Combatant, Encounter, InitiativeStep, Quest
from .rolls import Roll


@admin.register(Quest)
class QuestAdmin(admin.ModelAdmin):
    list_display = ("character", "text", "status", "started_at", "ended_at")
    list_filter = ("status",)
    readonly_fields = [f.name for f in Quest._meta.fields]


@admin.register(Roll)
class RollAdmin(admin.ModelAdmin):
    """The roll log is a record: read-only here."""

    list_display = ("created_at", "character", "kind", "label", "total", "outcome", "session",
                    "rolled_by")
    list_filter = ("kind", "outcome")
    search_fields = ("character__name", "label")
    raw_id_fields = ("character", "session", "rolled_by", "gambit_of", "reroll_of")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


# The Initiative tracker (initiative.py writes it; the ledger is read-only here).
class InitiativeStepInline(admin.TabularInline):
    model = InitiativeStep
    extra = 0
    can_delete = False
    readonly_fields = ("number", "kind", "payload", "round", "text", "created_by", "created_at")


@admin.register(Encounter)
class EncounterAdmin(admin.ModelAdmin):
    list_display = ("name", "campaign", "status", "round", "created_at")
    list_filter = ("status",)
    readonly_fields = ("status", "round", "holder", "version")
    inlines = [InitiativeStepInline]


@admin.register(Combatant)
class CombatantAdmin(admin.ModelAdmin):
    list_display = ("name", "encounter", "side", "is_mob", "members")
    raw_id_fields = ("character",)
