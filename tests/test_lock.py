"""Reproducible installs: pyproject.toml and the hashed locks agree, and every installer (the
Dockerfile, `make run`/`make test`, .ci/run through `make test`) installs from a lock."""

import re
import subprocess
import sys

from tests.test_settings import ROOT

LOCKCHECK = ROOT / "scripts/lockcheck.py"
ADD = ROOT / "scripts/add_dependency.py"


def lockcheck(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(LOCKCHECK), *args], capture_output=True,
                          text=True, timeout=60)


def test_pyproject_and_the_locks_agree():
    result = lockcheck()
    assert result.returncode == 0, result.stderr


def test_a_requirement_missing_from_the_lock_is_caught(tmp_path):
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text((ROOT / "pyproject.toml").read_text())
    subprocess.run([sys.executable, str(ADD), "--pyproject", str(pyproject), "humanize>=4,<5"],
                   check=True, capture_output=True)
    subprocess.run([sys.executable, str(ADD), "--dev", "--pyproject", str(pyproject),
                    "pytest-benchmark>=4,<5"], check=True, capture_output=True)
    result = lockcheck("--pyproject", str(pyproject))
    assert result.returncode == 1
    assert "base.txt: 'humanize>=4,<5' is not locked" in result.stderr
    assert "dev.txt: 'pytest-benchmark>=4,<5' is not locked" in result.stderr
    assert "run `make lock`" in result.stderr


def test_a_range_the_pin_does_not_satisfy_and_a_dropped_requirement_are_caught(tmp_path):
    text = (ROOT / "pyproject.toml").read_text()
    assert '"whitenoise>=6.7,<7",\n' in text and '"a2wsgi>=1.10,<2",\n' in text
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(text.replace('"whitenoise>=6.7,<7"', '"whitenoise>=99"')
                         .replace('    "a2wsgi>=1.10,<2",\n', ""))
    result = lockcheck("--pyproject", str(pyproject))
    assert result.returncode == 1
    assert "does not satisfy 'whitenoise>=99'" in result.stderr
    assert "a2wsgi is locked as a direct requirement that pyproject.toml does not list" in (
        result.stderr)


def test_adding_a_listed_name_again_is_refused(tmp_path):
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text((ROOT / "pyproject.toml").read_text())
    result = subprocess.run([sys.executable, str(ADD), "--pyproject", str(pyproject), "django"],
                            capture_output=True, text=True)
    assert result.returncode != 0 and "already listed" in result.stderr
    assert pyproject.read_text() == (ROOT / "pyproject.toml").read_text()


def test_every_installer_uses_a_lock():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert re.search(r"pip install --require-hashes -r /app/requirements/base\.txt", dockerfile)
    assert "COPY pyproject.toml" not in dockerfile  # the ranges are never installed
    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile.split("$(STAMP):", 1)[1].split("\n\n", 1)[0]
    assert "pip install --quiet --require-hashes -r requirements/dev.txt" in recipe
    assert "scripts/lockcheck.py" in recipe
    assert not re.search(r"pip install (?!.*--require-hashes)", makefile)
    assert re.search(r"^test: venv", makefile, re.M) and re.search(r"^run: venv", makefile, re.M)
    assert "make test" in (ROOT / ".ci/run").read_text()
