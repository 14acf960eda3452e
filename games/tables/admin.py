"""Staff pages of the tables: who sits where, the rules, and a link to the match (whose page
shows every hand and the stock, staff only; moderation acts on the game)."""

from typing import TYPE_CHECKING, cast

from django.contrib import admin
from django.db.models import Prefetch
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from games import kinds
from games.models import Seat
from games.tables.models import Table, TableSeat

if TYPE_CHECKING:
    from accounts.models import User


class TableSeatInline(admin.TabularInline):
    model = TableSeat
    extra = 0
    fields = ("index", "user", "joined_at")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("code", "kind", "host", "status", "seat_list", "options_text", "game_link",
                    "created_at")
    list_filter = ("status", "kind")
    search_fields = ("code", "host__username")
    readonly_fields = ("code", "kind", "host", "status", "options", "game_link", "match_seats",
                       "created_at", "dealt_at", "closed_at")
    exclude = ("game",)
    inlines = [TableSeatInline]
    list_per_page = 50

    def get_queryset(self, request):
        # The list's columns come from these: no query per row.
        seats = Prefetch("seats", queryset=TableSeat.objects.select_related("user"))
        return super().get_queryset(request).select_related("host").prefetch_related(seats)

    @admin.display(description="seats")
    def seat_list(self, table: Table) -> str:
        return ", ".join(f"{s.index}: {s.user.username}" for s in table.seats.all()) or "-"

    @admin.display(description="options")
    def options_text(self, table: Table) -> str:
        return "; ".join(kinds.get(table.kind).describe_table_options(table.options)) or "-"

    @admin.display(description="match")
    def game_link(self, table: Table) -> str:
        if table.game_id is None:
            return "-"
        url = reverse("admin:games_game_change", args=[table.game_id])
        return format_html('<a href="{}">game #{}</a>', url, table.game_id)

    @admin.display(description="match seats (after the deal)")
    def match_seats(self, table: Table) -> str:
        if table.game_id is None:
            return "-"
        seats = Seat.objects.filter(game_id=table.game_id).select_related("user").order_by("index")
        return format_html_join("", "<div>seat {}: {}{}</div>", (
            # A dealt table's seat is a computer's or else a person's.
            (s.index, f"computer ({s.ai_level})" if s.ai_level else cast("User", s.user).username,
             " (left)" if s.left else " (away)" if s.away else "")
            for s in seats
        ))

    # Tables change only through games.tables.services (the players' API).
    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
