"""Error pages for requests that never reach a DRF view (no URL matched, an unhandled crash).

API clients get the same JSON envelope as every other error; other paths (the admin) keep
Django's HTML pages.
"""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt

from config.exceptions import TOO_LARGE, envelope, server_error_envelope, too_large_envelope

API_PREFIX = "/api/"


def api_not_found_response() -> JsonResponse:
    return JsonResponse(envelope("not_found", _("Not found.")), status=404)


@csrf_exempt  # any method, with or without a session: the answer is the same 404
def api_not_found(request: HttpRequest, rest: str = "") -> HttpResponse:
    """The last URL pattern under /api/: no endpoint there, in the envelope even with DEBUG on
    (where Django would answer its HTML debug page instead of calling handler404)."""
    return api_not_found_response()


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if request.path.startswith(API_PREFIX):
        return api_not_found_response()
    return defaults.page_not_found(request, exception)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if request.path.startswith(API_PREFIX):
        if isinstance(exception, TOO_LARGE):
            return JsonResponse(too_large_envelope(), status=413)
        return JsonResponse(envelope("bad_request", _("Bad request.")), status=400)
    return defaults.bad_request(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if request.path.startswith(API_PREFIX):
        return JsonResponse(server_error_envelope(), status=500)
    return defaults.server_error(request)
