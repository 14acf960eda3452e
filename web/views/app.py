"""The installable app: the web app manifest, the service worker at the root scope, and the
offline page it shows when the network is gone.

The worker (``web/templates/web/sw.js``) is rendered here, not served as a static file: only a
script served from ``/`` may control every page, and its text carries the version (a hash of
the app shell's hashed static URLs and of the worker's own template), so a deploy that changes
any of them installs a new worker, which deletes the old version's caches when it activates.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import get_template, render_to_string
from django.templatetags.static import static
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

THEME_COLOUR = "#1f2d3d"  # the top bar's
BACKGROUND_COLOUR = "#f7f5ef"  # the page's

SHELL_STATIC = (
    "web/app.css", "web/app.js", "web/push.js", "django_htmx/htmx-2.min.js",
    "web/icons/icon-192.png", "web/icons/icon-512.png",
)


def _languages() -> list[str]:
    return [code for code, _name in settings.LANGUAGES]


def shell_urls() -> list[str]:
    """What the worker caches when it installs: the static files every page needs and the
    offline page in each language."""
    return [static(path) for path in SHELL_STATIC] + [
        f"/offline/{code}" for code in _languages()
    ]


@lru_cache(maxsize=1)
def _template_source() -> str:
    template = get_template("web/sw.js")
    return str(template.template.source)  # type: ignore[attr-defined]


def worker_version() -> str:
    digest = hashlib.sha256()
    for part in [*shell_urls(), _template_source()]:
        digest.update(part.encode())
    return digest.hexdigest()[:12]


@require_GET
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    body = render_to_string("web/sw.js", {
        "version": worker_version(),
        "shell": json.dumps(shell_urls()),
        "languages": json.dumps(_languages()),
        "icon": static("web/icons/icon-192.png"),
        "badge_icon": static("web/icons/icon-192.png"),
    })
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
@cache_control(max_age=3600)
def manifest(request: HttpRequest) -> JsonResponse:
    language = get_language() or "en"
    body = {
        "name": "Crazy10s Online",
        "short_name": "Crazy10s",
        "description": _("Turn-based number-tile and card games with friends and the computer."),
        "lang": language,
        "dir": "ltr",
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "categories": ["games"],
        "icons": [
            {"src": static("web/icons/icon-192.png"), "sizes": "192x192", "type": "image/png",
             "purpose": "any"},
            {"src": static("web/icons/icon-512.png"), "sizes": "512x512", "type": "image/png",
             "purpose": "any"},
            {"src": static("web/icons/maskable-512.png"), "sizes": "512x512",
             "type": "image/png", "purpose": "maskable"},
        ],
    }
    response = JsonResponse(body, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    response["Vary"] = "Cookie, Accept-Language"
    return response


@require_GET
def offline(request: HttpRequest, language: str | None = None) -> HttpResponse:
    """The page the worker shows for a page it cannot fetch (cached in every language)."""
    from django.utils import translation

    code = language if language in _languages() else (get_language() or "en")
    with translation.override(code):
        return render(request, "web/offline.html", {"offline_language": code})
