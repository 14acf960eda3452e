"""The moderation log in the admin: read only (rows are written by the moderation services);
the reports queue, worked through with actions that go through ``games.moderation.reports``."""

from django.contrib import admin, messages

from config.errors import ApiError
from games.moderation import reports
from games.moderation.models import ModerationAction, Report


@admin.register(ModerationAction)
class ModerationActionAdmin(admin.ModelAdmin):
    list_display = (
        "created_at", "moderator", "action", "game", "target_user", "report", "reason",
    )
    list_filter = ("action",)
    list_select_related = ("moderator", "game", "target_user")
    search_fields = ("moderator__username", "target_user__username")
    date_hierarchy = "created_at"
    readonly_fields = (
        "created_at", "moderator", "action", "game", "target_user", "report", "reason",
        "details",
    )
    fields = readonly_fields

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    """The queue: open reports first (filter by status); the actions below each record a
    moderation log entry. Reports are written by players only (no add, no edit, no delete)."""

    list_display = (
        "id", "created_at", "status", "reason", "reporter", "player", "game", "handled_by",
        "resolution",
    )
    list_filter = ("status", "reason")
    list_select_related = ("reporter", "player", "game", "handled_by")
    search_fields = ("reporter__username", "player__username", "text")
    ordering = ("created_at", "id")
    readonly_fields = (
        "created_at", "reporter", "player", "game", "reason", "text", "status", "handled_by",
        "resolution",
    )
    fields = readonly_fields
    actions = ["take_reports", "warn_players", "suspend_players", "dismiss_reports"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def _each(self, request, queryset, act, done: str) -> None:
        count = 0
        for report_id in queryset.values_list("pk", flat=True):
            try:
                act(moderator=request.user, report_id=report_id)
                count += 1
            except ApiError as exc:
                self.message_user(request, f"Report {report_id}: {exc.message}", messages.ERROR)
        if count:
            self.message_user(request, f"{done}: {count} report(s).", messages.SUCCESS)

    @admin.action(description="Take in hand (in progress)", permissions=["change"])
    def take_reports(self, request, queryset):
        self._each(request, queryset, reports.take, "In progress")

    @admin.action(description="Warn the reported player by email", permissions=["change"])
    def warn_players(self, request, queryset):
        self._each(request, queryset, reports.warn, "Warned")

    @admin.action(description="Suspend the reported player", permissions=["change"])
    def suspend_players(self, request, queryset):
        self._each(request, queryset, reports.suspend, "Suspended")

    @admin.action(description="Dismiss", permissions=["change"])
    def dismiss_reports(self, request, queryset):
        self._each(request, queryset, reports.dismiss, "Dismissed")
