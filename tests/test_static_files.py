"""With DEBUG off, WhiteNoise serves the collected static files: the admin has its CSS.

`collectstatic` runs once for this module into a temporary STATIC_ROOT with the production
storage (compressed, content-hashed names), as `make run` and the Dockerfile run it.
"""

import pytest
from django.conf import settings
from django.core.management import call_command
from django.templatetags.static import static
from django.test import Client, override_settings

PRODUCTION_STORAGES = {
    **settings.STORAGES,
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}


@pytest.fixture(scope="module")
def collected(tmp_path_factory):
    root = tmp_path_factory.mktemp("static")
    with override_settings(STORAGES=PRODUCTION_STORAGES, STATIC_ROOT=root, DEBUG=False):
        call_command("collectstatic", interactive=False, verbosity=0)
        yield root


def test_the_admin_css_is_served_under_its_hashed_name(collected):
    url = static("admin/css/base.css")
    assert url.startswith("/static/admin/css/base.") and url != "/static/admin/css/base.css"
    client = Client()  # WhiteNoise indexes STATIC_ROOT when the handler is built
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/css")
    assert "immutable" in response["Cache-Control"]  # hashed names may be cached for ever
    body = b"".join(response.streaming_content)
    assert b"body" in body


def test_compressed_variants_are_served_to_clients_that_accept_them(collected):
    response = Client().get(static("admin/css/base.css"), HTTP_ACCEPT_ENCODING="gzip")
    assert response.status_code == 200
    assert response["Content-Encoding"] in {"gzip", "br"}


def test_the_admin_login_page_links_to_served_css(collected):
    client = Client()
    page = client.get("/admin/login/")
    assert page.status_code == 200
    css = static("admin/css/base.css")
    assert css in page.content.decode()
    assert client.get(css).status_code == 200


def test_swagger_ui_files_are_served(collected):
    url = static("drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js")
    response = Client().get(url)
    assert response.status_code == 200


@pytest.mark.django_db
def test_the_web_client_links_its_hashed_compressed_files(collected):
    """The players' pages (web/) load htmx from django-htmx and our own CSS and scripts, all
    through WhiteNoise with content-hashed names."""
    client = Client()
    page = client.get("/signin").content.decode()
    for name in ("django_htmx/htmx-2.min.js", "web/app.css", "web/app.js"):
        url = static(name)
        assert url != f"/static/{name}" and url in page, name
        response = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
        assert response.status_code == 200 and "immutable" in response["Cache-Control"]
        assert response["Content-Encoding"] in {"gzip", "br"}
