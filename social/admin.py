"""Staff pages of the social app: a game's chat for moderators, with the actions "remove the
message" and "mute the author from chat" (each recorded in the moderation log through
``social.services.chat``), and read-only ratings.

Open a game's chat from the game's page (link "chat") or with ``?game__id__exact=<id>``.
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib import admin, messages

from social.models import ChatMessage, Rating, RatingChange
from social.services import chat


class _ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


def _ban(hours: int):
    def action(modeladmin, request, queryset) -> None:
        authors = sorted({m.author_id for m in queryset if m.author_id is not None})
        for user_id in authors:
            chat.ban_from_chat(
                moderator=request.user, user_id=user_id, duration=timedelta(hours=hours),
                reason=f"chat moderation ({hours} h)",
            )
        modeladmin.message_user(
            request, f"{len(authors)} player(s) muted from chat for {hours} h.", messages.SUCCESS
        )

    action.__name__ = f"mute_authors_{hours}h"
    return admin.action(
        description=f"Mute the authors from chat for {hours} hours", permissions=("moderate",)
    )(action)


@admin.register(ChatMessage)
class ChatMessageAdmin(_ReadOnly):
    list_display = ("created_at", "game", "move_number", "seat", "author", "text", "removed_at")
    list_filter = ("removed_at",)
    list_select_related = ("author", "game")
    search_fields = ("=game__id", "author__username", "text")
    date_hierarchy = "created_at"
    readonly_fields = (
        "game", "author", "seat", "move_number", "text", "created_at", "removed_at", "removed_by",
    )
    fields = readonly_fields
    actions = ["remove_messages", _ban(24), _ban(24 * 7)]

    def has_moderate_permission(self, request) -> bool:
        # Moderators with the games change permission (as for the game actions).
        return request.user.has_perm("games.change_game")

    def has_view_permission(self, request, obj=None) -> bool:
        return request.user.has_perm("games.view_game") or super().has_view_permission(
            request, obj
        )

    @admin.action(description="Remove the selected messages (players no longer see them)",
                  permissions=("moderate",))
    def remove_messages(self, request, queryset) -> None:
        count = 0
        for message in queryset:
            chat.remove_message(moderator=request.user, message_id=message.pk,
                                reason="removed by a moderator")
            count += 1
        self.message_user(request, f"{count} message(s) removed.", messages.SUCCESS)


@admin.register(Rating)
class RatingAdmin(_ReadOnly):
    list_display = ("user", "kind", "rating", "deviation", "volatility", "games", "updated_at")
    list_filter = ("kind",)
    search_fields = ("user__username",)


@admin.register(RatingChange)
class RatingChangeAdmin(_ReadOnly):
    list_display = ("created_at", "user", "kind", "game", "rating_before", "rating_after", "score")
    list_filter = ("kind",)
    search_fields = ("user__username", "=game__id")
