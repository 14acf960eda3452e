"""Browser tests: Playwright drives Debian's Chromium (``/usr/bin/chromium``; Playwright's own
browser download does not work here) against a real uvicorn server (``config.asgi``, as
``make run`` serves) and a real Celery worker, both on this run's test database.

Fixtures: ``stack`` (session: the server's base URL, worker and server shared by every
browser test), ``browser`` (this package), ``page`` (one fresh context per test, parametrised over
the phone 390×844 and desktop 1280×800 viewports), ``signed_up`` (a page signed in as a new
player through the sign-up form), ``shot(page, name)`` (a screenshot in docs/screenshots/) and
``assert_accessible(page)`` (axe-core: no serious or critical violation).
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from tests.helpers import PASSWORD
from tests.integration.workers import (
    ROOT,
    remove_log,
    start_worker,
    stop_worker,
    worker_database_url,
    worker_log,
)
from tests.live.server import start_server, stop_server

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]
# Every run takes the screenshots; UPDATE_SCREENSHOTS=1 writes them over the committed set in
# docs/screenshots/ (else var/screenshots/, so a test run leaves the work tree clean).
SCREENSHOTS = (
    ROOT / "docs" / "screenshots"
    if os.environ.get("UPDATE_SCREENSHOTS") == "1"
    else ROOT / "var" / "screenshots"
)
VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}

pytestmark = [pytest.mark.browser]


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.fspath):
            for name in ("browser", "worker", "redis", "postgres"):
                item.add_marker(getattr(pytest.mark, name))


def collect_static(root: Path) -> None:
    """The production static files (hashed, compressed) the server's WhiteNoise serves."""
    env = {**os.environ, "STATIC_ROOT": str(root), "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
                   cwd=ROOT, env=env, check=True)


_STACK: dict[str, str] = {}  # what the running stack was started with


@pytest.fixture(scope="session")
def stack(django_db_setup, django_db_blocker, tmp_path_factory):
    """(base URL) of a uvicorn server (DEBUG off, as in production) and a Celery worker
    sharing the test database."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (.ci/run does)")
    static_root = tmp_path_factory.mktemp("static")
    collect_static(static_root)
    queue = f"c10s-web-{uuid.uuid4().hex[:8]}"
    _STACK["queue"] = queue
    env = {"GAMES_AI_QUEUE": queue, "NOTIFY_QUEUE": queue, "LIVE_HEARTBEAT_SECONDS": "2",
           "GAMES_AI_PAUSE_MS": "0", "WEB_POLL_SECONDS": "2", "DEBUG": "false",
           "SESSION_COOKIE_SECURE": "false", "CSRF_COOKIE_SECURE": "false",
           "STATIC_ROOT": str(static_root)}
    with django_db_blocker.unblock():
        db_url = worker_database_url()
    worker = start_worker(queue=queue, db_url=db_url, extra_env=env)
    server, base = start_server(db_url=db_url, extra_env=env)
    try:
        yield base
    finally:
        stop_server(server)
        if os.environ.get("WEB_SHOW_WORKER_LOG"):
            print(worker_log(worker))
        stop_worker(worker)
        remove_log(worker)


@pytest.fixture(scope="session")
def stack_queue(stack) -> str:
    """The queue of the stack's worker, for a test that sends it a task itself."""
    return _STACK["queue"]


@pytest.fixture(scope="package")
def browser():
    """Chromium for this package's tests only: Playwright's sync API keeps an event loop
    running in this thread while it is open, which the later async tests (asyncio.run) and
    Django's async-safety check would trip over."""
    from playwright.sync_api import sync_playwright

    # The tests' own ORM calls are plain synchronous code, beside Playwright's loop.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            yield chromium
            chromium.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture(params=list(VIEWPORTS))
def viewport(request) -> str:
    return request.param


@pytest.fixture
def page(browser, stack, viewport, transactional_db):
    context = browser.new_context(
        base_url=stack, viewport=VIEWPORTS[viewport], locale="en-GB",
        extra_http_headers={"Accept-Language": "en"},
    )
    context.set_default_timeout(15_000)
    tab = context.new_page()
    tab.viewport_name = viewport
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    yield tab
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.fixture
def shot():
    def take(page, name: str) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}-{page.viewport_name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


@pytest.fixture
def assert_accessible():
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()

    def check(page) -> None:
        results = axe.run(page)
        bad = [v for v in results.response["violations"]
               if v.get("impact") in ("serious", "critical")]
        assert not bad, "\n".join(
            f"{v['id']} ({v['impact']}): {v['help']} — "
            + "; ".join(n["html"][:120] for n in v["nodes"][:3])
            for v in bad
        )

    return check


def sign_up(page, name: str | None = None) -> str:
    """Sign up through the form; returns the username."""
    name = name or f"p{uuid.uuid4().hex[:10]}"
    page.goto("/signup")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Email").fill(f"{name}@example.test")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    page.wait_for_url("**/")
    return name


@pytest.fixture
def signed_up(page) -> str:
    return sign_up(page)
