"""The Swagger UI page works offline: its scripts, styles and icon are our own static files."""

import re

from django.conf import settings


def test_docs_page_references_only_local_static_files(client):
    response = client.get("/api/v1/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    urls = re.findall(r"""(?:src|href)\s*=\s*["']([^"']+)["']""", html)
    urls += re.findall(r"""["']([^"'\s]*swagger-ui[^"'\s]*\.(?:js|css))["']""", html)
    assert any("swagger-ui-bundle" in url for url in urls), html
    static = "/" + settings.STATIC_URL.lstrip("/")
    for url in urls:
        assert url.startswith(static), f"{url} is not one of our static files"
    assert "://" not in html.replace("http://www.w3.org", ""), "an absolute URL in the page"
    # The schema it loads is ours too.
    assert "/api/v1/schema/" in html


def test_the_swagger_ui_files_exist_in_the_sidecar(client):
    from django.contrib.staticfiles import finders

    for name in ("swagger-ui-bundle.js", "swagger-ui-standalone-preset.js", "swagger-ui.css"):
        assert finders.find(f"drf_spectacular_sidecar/swagger-ui-dist/{name}"), name
