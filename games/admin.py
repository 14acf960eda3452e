"""Moderators' admin for games: a list without N+1 queries, the board as a grid with both racks
and the bag (the admin is staff only), the full move history, and moderation actions that go
through ``games.moderation.services`` so every one of them is recorded."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef, Prefetch, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join

from config.errors import ApiError
from games import kinds
from games.models import Game, Move, Seat
from games.moderation import services as moderation

# An active turn older than this is "stale" in the list filter (or any turn past its deadline).
STALE_TURN_AFTER = timedelta(hours=24)
# A computer turn pending longer than this is probably a lost message: re-queue it.
AI_TURN_STUCK_AFTER = timedelta(minutes=2)


class PlayerFilter(admin.SimpleListFilter):
    title = "player"
    parameter_name = "player"
    MAX_CHOICES = 200

    def lookups(self, request, model_admin):
        names = (
            get_user_model()
            .objects.filter(seats__isnull=False)
            .order_by("username")
            .values_list("username", flat=True)
            .distinct()[: self.MAX_CHOICES]
        )
        return [(name, name) for name in names]

    def queryset(self, request, queryset):
        if self.value():
            return queryset.filter(seats__user__username=self.value()).distinct()
        return queryset


class StaleTurnFilter(admin.SimpleListFilter):
    title = "stale turns"
    parameter_name = "stale"

    def lookups(self, request, model_admin):
        return [
            ("stale", f"Turn older than {STALE_TURN_AFTER} or past its deadline"),
            ("computer", f"Computer to move for more than {AI_TURN_STUCK_AFTER}"),
        ]

    def queryset(self, request, queryset):
        now = timezone.now()
        active = queryset.filter(status=Game.Status.ACTIVE)
        if self.value() == "stale":
            return active.filter(
                Q(turn_started_at__lt=now - STALE_TURN_AFTER) | Q(turn_deadline__lt=now)
            )
        if self.value() == "computer":
            # A computer's turn, or an away person's at a table: both are played by the server.
            computer_to_move = Seat.objects.filter(
                Q(ai_level__isnull=False) | Q(away=True),
                game=OuterRef("pk"), index=OuterRef("current_seat"),
            )
            return active.filter(
                Exists(computer_to_move), turn_started_at__lt=now - AI_TURN_STUCK_AFTER
            )
        return queryset


class MoveInline(admin.TabularInline):
    """The full history, swaps with their tiles (staff may see them)."""

    model = Move
    fields = (
        "number", "seat", "kind", "notation", "score", "best_score", "best_notation", "public",
        "is_timeout", "created_at",
    )
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ("number",)
    show_change_link = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


def _run(modeladmin, request, queryset, label: str, call) -> None:
    """Apply ``call(game)`` to each selected game; report successes and refusals."""
    done, refused = 0, []
    for game in queryset.only("pk"):
        try:
            call(game)
            done += 1
        except ApiError as exc:
            refused.append(f"#{game.pk}: {exc.message}")
    if done:
        modeladmin.message_user(request, f"{label}: {done} game(s).", messages.SUCCESS)
    if refused:
        modeladmin.message_user(
            request, f"{label} refused for " + "; ".join(refused), messages.WARNING
        )


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = (
        "id", "kind", "status", "players", "scores", "move_number", "to_move",
        "turn_started_at", "turn_deadline", "created_at",
    )
    list_filter = ("status", "kind", PlayerFilter, StaleTurnFilter)
    search_fields = ("seats__user__username",)
    search_help_text = "Game id or a player's username"
    date_hierarchy = "created_at"
    list_per_page = 50
    inlines = [MoveInline]
    actions = [
        "abort_games", "award_to_seat_0", "award_to_seat_1", "award_to_seat_2",
        "award_to_seat_3", "requeue_computer_turns",
    ]
    fieldsets = (
        (None, {"fields": (
            "kind", "status", "seat_count", "turn_hours", "move_number",
            "current_seat", "turn_started_at", "turn_deadline", "created_at", "started_at",
            "finished_at", "result", "rated", "chat",
        )}),
        ("Position (staff only: every hidden piece)", {"fields": ("board_grid",)}),
        ("Hidden information (staff only)", {"fields": ("racks", "seed")}),
        ("Private state (read only)", {"classes": ("collapse",),
                                        "fields": ("state", "options", "pairing_pool")}),
    )
    readonly_fields = (
        "kind", "status", "turn_hours", "move_number", "current_seat",
        "turn_started_at", "turn_deadline", "created_at", "started_at", "finished_at", "result",
        "board_grid", "racks", "seed", "state", "options", "pairing_pool", "seat_count", "rated",
        "chat",
    )

    def get_queryset(self, request):
        seats = Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("index"))
        qs = super().get_queryset(request).prefetch_related(seats)
        match = getattr(request, "resolver_match", None)
        if match is not None and match.url_name and match.url_name.endswith("changelist"):
            qs = qs.defer("state", "options")  # the list never needs the private JSON
        return qs

    def get_search_results(self, request, queryset, search_term):
        term = search_term.strip().lstrip("#")
        if term.isdigit():
            return queryset.filter(pk=int(term)), False
        results, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        return results, may_have_duplicates

    # Moderators act through the actions; nobody edits a game by hand.
    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    # --- list columns (from the prefetched seats: no query per row) ----------------------
    @admin.display(description="players")
    def players(self, game: Game) -> str:
        return " vs ".join(_seat_name(seat) for seat in game.seats.all()) or "-"

    @admin.display(description="scores")
    def scores(self, game: Game) -> str:
        return " : ".join(str(seat.score) for seat in game.seats.all())

    @admin.display(description="to move")
    def to_move(self, game: Game) -> str:
        if game.current_seat is None:
            return "-"
        seat = next((s for s in game.seats.all() if s.index == game.current_seat), None)
        return f"{game.current_seat}: {_seat_name(seat)}" if seat else str(game.current_seat)

    # --- the game page ---------------------------------------------------------------------
    @admin.display(description="position (with the bag or stock in draw order)")
    def board_grid(self, game: Game) -> str:
        if not game.state:
            return "-"
        return kinds.get(game.kind).admin_position_html(game.state)

    @admin.display(description="chat")
    def chat(self, game: Game) -> str:
        # The chat's own admin page (social/admin.py) filtered to this game: moderators remove
        # messages and mute players from there.
        url = reverse("admin:social_chatmessage_changelist")
        return format_html('<a href="{}?game__id__exact={}">the game\'s chat</a>', url, game.pk)

    @admin.display(description="hands / racks")
    def racks(self, game: Game):
        kind = kinds.get(game.kind)
        return format_html_join(
            "", "<div>seat {}: {} <code>{}</code></div>",
            ((seat.index, _seat_name(seat), kind.admin_private_text(seat.private))
             for seat in game.seats.all()),
        )

    # --- actions -----------------------------------------------------------------------------
    @admin.action(description="Abort selected games (no winner)", permissions=["change"])
    def abort_games(self, request, queryset):
        _run(self, request, queryset, "Aborted", lambda g: moderation.abort_game(
            moderator=request.user, game_id=g.pk, reason="admin action"))

    @admin.action(description="Award selected games to seat 0", permissions=["change"])
    def award_to_seat_0(self, request, queryset):
        _run(self, request, queryset, "Awarded to seat 0", lambda g: moderation.award_game(
            moderator=request.user, game_id=g.pk, seat_index=0, reason="admin action"))

    @admin.action(description="Award selected games to seat 1", permissions=["change"])
    def award_to_seat_1(self, request, queryset):
        _run(self, request, queryset, "Awarded to seat 1", lambda g: moderation.award_game(
            moderator=request.user, game_id=g.pk, seat_index=1, reason="admin action"))

    # Seats 2 and 3 exist in games of kinds with more seats (Crazy Eights); award_game refuses
    # a seat the game does not have.
    @admin.action(description="Award selected games to seat 2", permissions=["change"])
    def award_to_seat_2(self, request, queryset):
        _run(self, request, queryset, "Awarded to seat 2", lambda g: moderation.award_game(
            moderator=request.user, game_id=g.pk, seat_index=2, reason="admin action"))

    @admin.action(description="Award selected games to seat 3", permissions=["change"])
    def award_to_seat_3(self, request, queryset):
        _run(self, request, queryset, "Awarded to seat 3", lambda g: moderation.award_game(
            moderator=request.user, game_id=g.pk, seat_index=3, reason="admin action"))

    @admin.action(description="Re-queue the computer's (or an away seat's) pending turn",
                  permissions=["change"])
    def requeue_computer_turns(self, request, queryset):
        _run(self, request, queryset, "Re-queued", lambda g: moderation.requeue_ai_turn(
            moderator=request.user, game_id=g.pk, reason="admin action"))


def _seat_name(seat: Seat | None) -> str:
    if seat is None:
        return "-"
    if seat.ai_level is not None:
        return f"computer ({seat.ai_level})"
    return seat.user.username if seat.user else "-"
