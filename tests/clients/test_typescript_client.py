"""TypeScript types generated from the schema (openapi-typescript) hold a move body to its shape
under ``tsc --strict`` (issue 22): clients/typescript/check.sh generates ``api.d.ts`` from the
schema ``manage.py spectacular`` writes and type-checks check/good_move.ts (every move shape with
its fields, a new game without the fields it may leave out: passes) and check/bad_move.ts (a
place move without its tiles: refused, at its line).

Node and npm come from the machine; the packages are pinned in clients/typescript's
package-lock.json (``npm ci`` there, which .ci/run does). Skipped only without node.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest
from django.core.management import call_command

from tests.integration.workers import ROOT

HERE = ROOT / "clients" / "typescript"
CHECK = HERE / "check.sh"

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None, reason="node is not installed: no TypeScript check"
)


@pytest.fixture(scope="module")
def schema_file(tmp_path_factory):
    if not (HERE / "node_modules" / ".bin" / "tsc").exists():
        npm = shutil.which("npm")
        assert npm, "node without npm: install npm to run `npm ci` in clients/typescript"
        installed = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=HERE,
                                   capture_output=True, text=True, timeout=600)
        assert installed.returncode == 0, (
            "npm ci in clients/typescript failed (is the npm registry reachable?):\n"
            + installed.stdout[-2000:] + installed.stderr[-2000:]
        )
    path = tmp_path_factory.mktemp("schema") / "schema.yaml"
    call_command("spectacular", file=str(path))
    return path


def check(schema_file, tmp_path, name: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(CHECK), str(schema_file), str(tmp_path), name],
                          capture_output=True, text=True, timeout=300)


def test_move_bodies_with_their_fields_type_check(schema_file, tmp_path):
    result = check(schema_file, tmp_path, "good_move.ts")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "openapi-typescript 7.13.0" in result.stdout + result.stderr  # the pinned one
    assert "export interface paths" in (tmp_path / "api.d.ts").read_text()


def test_a_move_body_without_its_fields_does_not_type_check(schema_file, tmp_path):
    source = (HERE / "check" / "bad_move.ts").read_text().splitlines()
    line = next(n for n, text in enumerate(source, 1) if "// no tiles" in text)
    result = check(schema_file, tmp_path, "bad_move.ts")
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert f"bad_move.ts({line},14): error TS2322" in output, output
    assert "Property 'tiles' is missing" in output, output
