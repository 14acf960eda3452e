"""The README's walkthrough (scripts/demo.sh) runs as written against the embedded service.

`scripts/run_dev.sh` as `make run` starts it (the ``embedded_service`` fixture,
tests/integration/conftest.py, shared with the other tests of the embedded service): waits for
/healthz, runs the walkthrough, checks that the email links use the server's own port.
"""

import os
import re
import subprocess
import sys
import time
import urllib.request

import pytest

from tests.integration.workers import ROOT

pytestmark = pytest.mark.embedded


def test_the_walkthrough_runs_against_make_run(embedded_service):
    port, log_path = embedded_service
    # The container healthcheck's probe, against this server.
    probe = subprocess.run(
        [sys.executable, "scripts/healthcheck.py"], cwd=ROOT, capture_output=True, text=True,
        env={**os.environ, "HEALTHCHECK_PORT": str(port), "ALLOWED_HOSTS": ".localhost,x"},
        timeout=30,
    )
    assert probe.returncode == 0, probe.stderr
    assert '"status": "ok"' in probe.stdout
    started = time.monotonic()
    demo = subprocess.run(
        ["scripts/demo.sh", f"http://127.0.0.1:{port}"], cwd=ROOT, capture_output=True,
        text=True, timeout=180,
    )
    assert demo.returncode == 0, demo.stdout[-3000:] + demo.stderr[-3000:]
    game = re.search(r"Walkthrough completed: game (\d+)", demo.stdout).group(1)
    assert re.search(r'If-None-Match: "[0-9a-f]+" -> 304', demo.stdout)
    assert "after logout: 401" in demo.stdout
    assert time.monotonic() - started < 60

    # The docs page and the files it loads (Swagger UI from the sidecar), and the admin's CSS.
    base = f"http://127.0.0.1:{port}"
    with urllib.request.urlopen(f"{base}/api/v1/docs/", timeout=10) as response:
        html = response.read().decode()
    assets = re.findall(r"""(?:src|href)=["'](/static/[^"']+)["']""", html)
    assert any("swagger-ui-bundle" in a for a in assets), html
    for path in [*assets, "/static/admin/css/base.css"]:
        with urllib.request.urlopen(base + path, timeout=10) as response:
            assert response.status == 200, path

    # The computer's reply sent a turn email (printed by the worker): its link has our port.
    link = f"Open the game: http://127.0.0.1:{port}/games/{game}"
    end = time.monotonic() + 30
    while link not in log_path.read_text(errors="replace"):
        assert time.monotonic() < end, log_path.read_text(errors="replace")[-4000:]
        time.sleep(0.3)
