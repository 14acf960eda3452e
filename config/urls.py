from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

import config.schema  # noqa: F401  (registers the schema extensions before any schema is built)
from config import views
from config.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/v1/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("api/v1/", include("live.urls")),  # Server-Sent Events (async views)
    path("api/v1/", include("accounts.api.urls")),
    path("api/v1/", include("games.api.urls")),
    path("api/v1/", include("games.tables.api.urls")),
    path("api/v1/", include("social.api.urls")),
    path("api/v1/", include("games.notifications.api_urls")),
    path("api/v1/", include("games.correspondence.api.urls")),
    path("api/v1/puzzles/", include("games.crazy10s.puzzles.api.urls")),
    path("api/v1/notifications/", include("games.notifications.urls")),
    # Last: anything else under /api/ is a 404 in the error envelope, whatever DEBUG says.
    re_path(r"^api/(?P<rest>.*)$", views.api_not_found, name="api-not-found"),
    # The players' web client (pages; it calls the same services and selectors as the API).
    path("", include("web.urls")),
]

handler400 = "config.views.bad_request"
handler404 = "config.views.not_found"
handler500 = "config.views.server_error"
