"""The layer contracts of pyproject.toml ([tool.importlinter]) hold: run lint-imports as CI
would, and check that it really looks (a forbidden import written on purpose is caught)."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _lint(cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"], cwd=cwd, capture_output=True, text=True, timeout=120
    )


def test_the_layer_contracts_hold():
    result = _lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_a_generic_module_importing_a_kind_breaks_a_contract(tmp_path):
    for name in ("games", "config", "accounts", "social", "live"):
        shutil.copytree(ROOT / name, tmp_path / name,
                        ignore=shutil.ignore_patterns("__pycache__", "migrations", "locale"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    selectors = tmp_path / "games" / "selectors.py"
    selectors.write_text(selectors.read_text() + "\nfrom games.crazy10s import engine  # noqa\n")
    result = subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"], cwd=tmp_path, capture_output=True, text=True,
        timeout=120, env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode != 0
    assert "Generic code reaches a game kind only through games.kinds" in result.stdout
    assert "games.selectors -> games.crazy10s.engine" in result.stdout
