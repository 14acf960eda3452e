"""Starting and ending a vacation from the settings page (the form posts here, then back)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.errors import ApiError
from games.correspondence import services as vacations
from web.views.common import SignedInRequest


@login_required
@require_POST
def vacation(request: SignedInRequest) -> HttpResponse:
    """``action=start`` with ``days``, or ``action=end``; the answer shows on the settings page
    (the service's own message for a refusal, e.g. more days than earned)."""
    try:
        if request.POST.get("action") == "end":
            vacations.end(user=request.user)
            messages.success(request, _("Your vacation has ended: your clocks run again."))
        else:
            days = request.POST.get("days", "")
            vacations.start(user=request.user, days=int(days) if days.isdigit() else 0)
            messages.success(request, _("Your vacation has begun: your clocks are paused."))
    except ApiError as exc:
        messages.error(request, exc.message)
    return redirect("/settings#vacation")
