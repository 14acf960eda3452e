"""Staff pages of web push: a user's subscriptions (where they point, when they last worked,
how many failures; never the keys or the full endpoint, which is a bearer capability)."""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from games.notifications.models import PushSubscription


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    list_display = ("user", "endpoint_host", "signed_in_with", "created_at", "last_success_at",
                    "failures")
    list_filter = ("created_at", "last_success_at")
    search_fields = ("user__username", "user__email")
    list_select_related = ("user",)
    fields = ("user", "endpoint_host", "signed_in_with", "created_at", "last_success_at",
              "failures")
    readonly_fields = fields
    ordering = ("-created_at",)

    def lookup_allowed(self, lookup: str, value: str, request=None) -> bool:
        # Filters on the keys or the endpoint would let a count in the changelist spell them
        # out a character at a time: only the list's own filters and the user's fields.
        field = lookup.split("__", 1)[0]
        if field in {"endpoint", "p256dh", "auth", "session_key"}:
            return False
        return super().lookup_allowed(lookup, value, request)

    @admin.display(description=_("push service"))
    def endpoint_host(self, obj: PushSubscription) -> str:
        return obj.host

    @admin.display(description=_("signed in with"))
    def signed_in_with(self, obj: PushSubscription) -> str:
        return str(_("device token")) if obj.device_id else str(_("web session"))

    def has_add_permission(self, request, obj=None) -> bool:
        return False  # a subscription comes from a browser

    def has_change_permission(self, request, obj=None) -> bool:
        return False
