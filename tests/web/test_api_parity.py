"""Whatever a player can do in the web client, the JSON API can do too (issue 13): the list of
web actions (web/actions.py) against the web's URLs, the API paths its scripts call and the
API's operations."""

import re
from pathlib import Path

import pytest
from django.urls import get_resolver
from drf_spectacular.generators import SchemaGenerator

from web.actions import API_ONLY, WEB_ACTIONS

pytestmark = pytest.mark.django_db

STATIC = Path(__file__).resolve().parents[2] / "web" / "static" / "web"
# "/api/v1/games/" + id + "/preview": the literal before and (optionally) after one value
API_CALL = re.compile(r'"(/api/v1/[^"]*)"(?:\s*\+\s*[^"+]+(?:\+\s*"([^"]*)")?)?')


@pytest.fixture(scope="module")
def operations() -> dict[str, tuple[str, str]]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return {
        op["operationId"]: (method.upper(), path)
        for path, methods in schema["paths"].items()
        for method, op in methods.items()
    }


def test_every_web_action_is_an_api_operation(operations):
    named = {op for action in WEB_ACTIONS for op in action.operations}
    assert named - set(operations) == set(), "web actions without an API operation"


def test_every_api_operation_is_a_web_action_or_listed_as_api_only(operations):
    named = {op for action in WEB_ACTIONS for op in action.operations}
    assert set(operations) == named | set(API_ONLY), (
        f"not in the web client nor in API_ONLY: {sorted(set(operations) - named - set(API_ONLY))}"
        f"; stale API_ONLY: {sorted(set(API_ONLY) - set(operations))}"
    )
    assert not named & set(API_ONLY), "an operation is both a web action and API-only"


def test_every_web_page_is_listed_as_an_action():
    web_urls = {
        p.name for p in get_resolver().url_patterns[-1].url_patterns if getattr(p, "name", None)
    }
    pages = {a.page for a in WEB_ACTIONS if a.page}
    assert web_urls == pages


def test_the_page_scripts_call_only_api_operations(operations):
    patterns = [
        re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", path) + "$")
        for _method, path in operations.values()
    ]
    called = set()
    for script in STATIC.glob("*.js"):
        for head, tail in API_CALL.findall(script.read_text()):
            called.add(head + ("x" + tail if tail or head.endswith("/") else ""))
    assert "/api/v1/events" in called and "/api/v1/games/x/moves" in called
    unknown = {c for c in called if not any(p.match(c) for p in patterns)}
    assert not unknown, f"scripts call paths the API does not have: {unknown}"
    # and every operation a script-side action names is called by a script
    scripted = {op for a in WEB_ACTIONS if a.page is None for op in a.operations}
    for op in scripted:
        _method, path = operations[op]
        pattern = re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", path) + "$")
        assert any(pattern.match(c) for c in called), f"{op} ({path}) is not called by a script"
