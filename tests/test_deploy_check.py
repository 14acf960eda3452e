"""`manage.py check --deploy` is clean with the production settings the README documents.

The environment is read from the README's "Production" section itself, so the documentation
and the settings cannot drift apart. Runs in a fresh interpreter: settings are read at import.
"""

import re
import secrets
import subprocess
import sys

from tests.test_settings import CLEAN, ROOT


def documented_production_env() -> dict[str, str]:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("\n## Production", 1)[1]
    block = re.search(r"```sh\n(SECRET_KEY=.*?)```", section, re.S).group(1)
    env = {}
    for line in block.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, value = line.split("=", 1)
        # <placeholders> stand for secrets the operator generates.
        env[name] = secrets.token_urlsafe(50) if value.startswith("<") else value
    return env


def run_deploy_check(env: dict[str, str], tmp_path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=ROOT,
        env={**CLEAN, "VAR_DIR": str(tmp_path), **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def issue_ids(output: str) -> set[str]:
    return set(re.findall(r"\(([a-z_]+\.[EW]\d+)\)", output))


def test_readme_documents_the_https_settings():
    env = documented_production_env()
    assert "DEBUG" not in env or env["DEBUG"] == "false"
    for name in ("SECRET_KEY", "PUZZLE_SECRET", "ALLOWED_HOSTS", "SECURE_HSTS_SECONDS",
                 "SECURE_PROXY_SSL_HEADER"):
        assert name in env, name


def test_deploy_checks_are_clean_with_the_documented_settings(tmp_path):
    result = run_deploy_check(documented_production_env(), tmp_path)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert issue_ids(output) == set(), output


def test_deploy_checks_catch_a_missing_hsts_setting(tmp_path):
    """The same check does see a weaker set-up (so the clean result above means something)."""
    env = documented_production_env()
    del env["SECURE_HSTS_SECONDS"]
    result = run_deploy_check(env, tmp_path)
    assert "security.W004" in issue_ids(result.stdout + result.stderr)
