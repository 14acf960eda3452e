from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.models import User

_PREFERENCES = ("display_name", "language", "turn_emails", "reminder_emails", "result_emails")


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = (
        *(BaseUserAdmin.fieldsets or ()),  # never None: the stubs allow a ModelAdmin's None
        (_("Game preferences"), {"fields": _PREFERENCES}),
        (_("Account"), {"fields": ("email_verified", "deleted_at")}),
    )
    add_fieldsets = (
        *BaseUserAdmin.add_fieldsets,
        (_("Game preferences"), {"fields": ("email", "language")}),
    )
    list_display = (
        "username", "email", "email_verified", "display_name", "language", "is_active",
        "is_staff",
    )
    list_filter = (*BaseUserAdmin.list_filter, "email_verified", "language", "turn_emails")
    readonly_fields = ("deleted_at",)
    actions = ["suspend_users"]

    @admin.action(description=_("Suspend selected users"), permissions=["change"])
    def suspend_users(self, request, queryset):
        # Through the moderation service, so each suspension is recorded with who and when.
        from games.moderation import services as moderation

        count = 0
        for user_id in queryset.values_list("pk", flat=True):
            moderation.suspend_user(moderator=request.user, user_id=user_id, reason="admin action")
            count += 1
        self.message_user(
            request, _("Suspended %(count)d user(s).") % {"count": count}, messages.SUCCESS
        )
