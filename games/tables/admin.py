"""Staff pages of the tables: who sits where, the rules, and a link to the match (whose page
shows every hand and the stock, staff only; moderation acts on the game)."""

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from games.tables.models import Table, TableSeat


class TableSeatInline(admin.TabularInline):
    model = TableSeat
    extra = 0
    fields = ("index", "user", "joined_at")
    readonly_fields = fields
    can_delete = False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("code", "status", "host", "target", "created_at", "game_link")
    list_filter = ("status",)
    search_fields = ("code", "host__username")
    readonly_fields = ("code", "host", "target", "rules", "game_link", "created_at",
                       "dealt_at", "closed_at", "status")
    exclude = ("game",)
    inlines = [TableSeatInline]

    @admin.display(description="match")
    def game_link(self, table: Table) -> str:
        if table.game_id is None:
            return "-"
        url = reverse("admin:games_game_change", args=[table.game_id])
        return format_html('<a href="{}">game #{}</a>', url, table.game_id)

    def has_add_permission(self, request) -> bool:
        return False
