"""Staff pages: vacations (running first), and ending one."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from config.errors import ApiError
from games.correspondence import services
from games.correspondence.models import Vacation


class RunningFilter(admin.SimpleListFilter):
    title = "running"
    parameter_name = "running"

    def lookups(self, request, model_admin):
        return [("yes", "Running"), ("no", "Ended")]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(ended_at__isnull=True)
        if self.value() == "no":
            return queryset.filter(ended_at__isnull=False)
        return queryset


@admin.register(Vacation)
class VacationAdmin(admin.ModelAdmin):
    list_display = ["user", "started_at", "ends_at", "ended_at", "ended_by"]
    list_filter = [RunningFilter]
    search_fields = ["user__username"]
    list_select_related = ["user", "ended_by"]
    readonly_fields = ["user", "started_at", "ends_at", "ended_at", "ended_by"]
    actions = ["end_now"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # players start their own (games.correspondence.services.start)

    def has_delete_permission(self, request: HttpRequest, obj: Vacation | None = None) -> bool:
        return False

    @admin.action(description="End these vacations now (their clocks resume)",
                  permissions=["change"])
    def end_now(self, request: HttpRequest, queryset: QuerySet[Vacation]) -> None:
        ended = 0
        for vacation in queryset.filter(ended_at__isnull=True).select_related("user"):
            try:
                services.end(user=vacation.user, by=request.user)  # type: ignore[arg-type]
            except ApiError:
                continue  # ended meanwhile
            ended += 1
        self.message_user(request, f"Ended {ended} vacation(s).", messages.SUCCESS)
