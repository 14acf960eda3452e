"""Error pages for requests that never reach a DRF view (no URL matched, an unhandled crash).

API clients get the same JSON envelope as every other error; other paths (the admin) keep
Django's HTML pages.
"""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults

from config.exceptions import envelope

API_PREFIX = "/api/"


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if request.path.startswith(API_PREFIX):
        return JsonResponse(envelope("not_found", _("Not found.")), status=404)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if request.path.startswith(API_PREFIX):
        message = _("Something went wrong on our side. Please try again later.")
        return JsonResponse(envelope("server_error", message), status=500)
    return defaults.server_error(request)
