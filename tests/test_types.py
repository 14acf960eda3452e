"""The types check: mypy, as `make lint` runs it (pyproject.toml's [tool.mypy]: the packages of
``files``, django-stubs' and djangorestframework-stubs' plugins, the strict flags on the
engines and games.kinds), reports no error. Run here so that `make test` and CI enforce it.

mypy runs with a cache of its own in a temporary directory (a cold run, ~30 s on two busy cores):
the django plugin reads the settings, and a change there does not always reach a warm cache's
dependents. The environment is a clean one, not the test run's: its EXTRA_GAME_KINDS would add
the test kind to the settings the plugin reads.
"""

import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MYPY = Path(sys.executable).with_name("mypy")
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
STRICT = {
    "disallow_untyped_defs", "disallow_incomplete_defs", "disallow_untyped_calls",
    "disallow_any_generics", "disallow_untyped_decorators", "check_untyped_defs",
    "warn_return_any", "no_implicit_reexport", "disallow_subclassing_any", "extra_checks",
}


def test_mypy_finds_no_error(tmp_path):
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "DEBUG": "true",
        "VAR_DIR": str(tmp_path / "var"),
    }
    result = subprocess.run(
        [str(MYPY), "--cache-dir", str(tmp_path / "mypy_cache"), "--no-color-output"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )
    output = result.stdout + result.stderr
    errors = [line for line in output.splitlines() if ": error:" in line]
    assert not errors and result.returncode == 0, "\n".join(errors) or output
    # It looked at every module of the checked packages (migrations included, their errors
    # ignored): a mistyped ``files`` would otherwise pass quietly.
    modules = sum(1 for package in CONFIG["files"] for _ in (ROOT / package).rglob("*.py"))
    assert f"no issues found in {modules} source files" in output, output


def test_the_engines_and_the_kind_base_are_checked_strictly():
    assert set(CONFIG["files"]) == {"games", "config", "accounts", "social", "live", "web"}
    assert CONFIG["plugins"] == ["mypy_django_plugin.main", "mypy_drf_plugin.main"]
    strict = [o for o in CONFIG["overrides"] if STRICT <= {k for k, v in o.items() if v is True}]
    assert len(strict) == 1, strict
    assert set(strict[0]["module"]) == {
        "games.crazy10s.engine.*", "games.crazy_eights.engine.*", "games.kinds.*"
    }
    # mypy ignores a per-module ``strict``: the flags must be spelled out.
    assert all("strict" not in o for o in CONFIG["overrides"])
    # Only the migrations' errors are ignored.
    assert [o["module"] for o in CONFIG["overrides"] if o.get("ignore_errors")] == [
        ["*.migrations.*"]
    ]
