"""The archive page: your finished games, filtered and paged, with their exports."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from config.errors import ApiError
from games import kinds
from games.correspondence import archive as archive_selectors
from web.views.common import SignedInRequest, game_rows

FILTERS = ("opponent", "kind", "result", "month")


@login_required
@require_GET
def archive(request: SignedInRequest) -> HttpResponse:
    chosen = {name: request.GET.get(name, "").strip() for name in FILTERS}
    if chosen["kind"] and chosen["kind"] not in kinds.names():
        chosen["kind"] = ""
    number = request.GET.get("page", "1")
    error = None
    try:
        page, rows = archive_selectors.page(
            user=request.user, number=int(number) if number.isdigit() else 1, **chosen
        )
    except ApiError as exc:
        error, page, rows = exc.message, None, []
    game_rows(rows)
    query = "&".join(f"{k}={v}" for k, v in chosen.items() if v)
    context = {
        "page": page,
        "rows": rows,
        "chosen": chosen,
        "query": query,
        "error": error,
        "kinds": [(k.name, k.title) for k in kinds.all_kinds()],
    }
    return render(request, "web/archive.html", context, status=400 if error else 200)
