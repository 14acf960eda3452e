"""The moderation log in the admin: read only (rows are written by the moderation services)."""

from django.contrib import admin

from games.moderation.models import ModerationAction


@admin.register(ModerationAction)
class ModerationActionAdmin(admin.ModelAdmin):
    list_display = ("created_at", "moderator", "action", "game", "target_user", "reason")
    list_filter = ("action",)
    list_select_related = ("moderator", "game", "target_user")
    search_fields = ("moderator__username", "target_user__username")
    date_hierarchy = "created_at"
    readonly_fields = (
        "created_at", "moderator", "action", "game", "target_user", "reason", "details",
    )
    fields = readonly_fields

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
