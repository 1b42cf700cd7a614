"""Read-mostly admin: the campaign's writes belong to campaigns/services.py (they lock,
write the XP ledger and apply Level-ups), so ledger-linked rows are read-only here."""

from django.contrib import admin

from .models import Campaign, Highlight, Invitation, Membership, Session


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ("user",)


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ("name", "owner", "system", "settings_summary", "default_highlight_rounds",
                    "created_at")
    search_fields = ("name", "owner__username")
    inlines = [MembershipInline]
    raw_id_fields = ("owner",)
    # The settings are the game system's: its form checks them (campaign_create).
    readonly_fields = ("owner", "settings")


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ("campaign", "created_by", "created_at", "revoked_at")


@admin.register(Session)
class SessionAdmin(admin.ModelAdmin):
    list_display = ("campaign", "number", "date", "highlight_rounds")
    list_filter = ("campaign",)


@admin.register(Highlight)
class HighlightAdmin(admin.ModelAdmin):
    list_display = ("session", "character", "round_number", "awarded", "about_other")
    readonly_fields = [f.name for f in Highlight._meta.fields]


# The admin of the game systems' campaign models (campaigns/systems/<system>/admin.py).
from .systems import import_each  # noqa: E402

import_each("admin")
