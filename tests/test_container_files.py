"""docker-compose.yml and the Dockerfile (no Docker engine here: their structure is checked)."""

import re
import subprocess

import yaml

from tests.test_settings import ROOT, load_settings

COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
DOCKERFILE = (ROOT / "Dockerfile").read_text()
PINNED = {
    "postgres": r"16\.\d+(-[a-z]+)?",
    "redis": r"7\.\d+\.\d+(-[a-z]+)?",
    "axllent/mailpit": r"v\d+\.\d+\.\d+",
}


def services() -> dict[str, dict]:
    return COMPOSE["services"]


def test_every_service_has_a_restart_policy():
    for name, service in services().items():
        expected = {"no"} if name == "migrate" else {"unless-stopped", "always", "on-failure"}
        assert service.get("restart") in expected, name


def test_every_service_is_health_checked_or_waits_for_healthy_dependencies():
    for name, service in services().items():
        depends = service.get("depends_on", {})
        conditions = {d.get("condition") for d in depends.values()} if depends else set()
        assert "healthcheck" in service or conditions, name
        assert "service_started" not in conditions, name  # started is not ready


def test_the_web_service_is_checked_through_healthz():
    web = services()["web"]
    assert web["healthcheck"]["test"] == ["CMD", "python", "scripts/healthcheck.py"]
    assert (ROOT / "scripts/healthcheck.py").is_file()
    for name in ("worker", "beat"):
        assert services()[name]["depends_on"]["migrate"]["condition"] == (
            "service_completed_successfully"
        )


def test_images_are_pinned():
    for name, service in services().items():
        if "build" in service:
            continue
        repo, _, tag = service["image"].partition(":")
        assert repo in PINNED, name
        assert re.fullmatch(PINNED[repo], tag), f"{name}: {service['image']} is not pinned"


def test_no_published_secret_default():
    """Both secrets are required and come from the environment or .env (stable across
    starts): no default, no empty PUZZLE_SECRET falling back to SECRET_KEY."""
    env = services()["web"]["environment"]
    assert env["DEBUG"] == "false"
    for name in ("SECRET_KEY", "PUZZLE_SECRET"):
        assert re.fullmatch(rf"\$\{{{name}:\?[^}}]+\}}", env[name]), name
        assert "make secrets" in env[name]


def test_make_secrets_writes_an_env_file_once(tmp_path):
    make = ["make", "--no-print-directory", "-f", str(ROOT / "Makefile"), "secrets"]
    first = subprocess.run(make, cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert first.returncode == 0, first.stderr
    env_file = tmp_path / ".env"
    written = env_file.read_text()
    values = dict(line.split("=", 1) for line in written.splitlines())
    assert set(values) == {"SECRET_KEY", "PUZZLE_SECRET"}
    assert env_file.stat().st_mode & 0o077 == 0  # readable by its owner only
    loaded = load_settings(**values)
    assert loaded.returncode == 0, loaded.stderr  # long enough, distinct, unpublished
    again = subprocess.run(make, cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert again.returncode != 0 and ".env exists" in again.stderr
    assert env_file.read_text() == written
    assert ".env" in (ROOT / ".gitignore").read_text().split()
    assert ".env" in (ROOT / ".dockerignore").read_text().split()


def test_dockerfile_pins_python_and_installs_dependencies_before_the_code():
    assert re.search(r"^FROM python:3\.11\.\d+-slim-bookworm$", DOCKERFILE, re.M)
    lines = [line.strip() for line in DOCKERFILE.splitlines()]
    copy_deps = lines.index("COPY requirements/base.txt /app/requirements/base.txt")
    pip = next(i for i, line in enumerate(lines) if "pip install --require-hashes -r" in line)
    copy_code = lines.index("COPY . /app")
    assert copy_deps < pip < copy_code


def test_dockerfile_collects_static_files_and_runs_as_non_root():
    assert "collectstatic --noinput" in DOCKERFILE
    users = re.findall(r"^USER (\S+)$", DOCKERFILE, re.M)
    assert users and users[-1] not in {"root", "0"}
    assert DOCKERFILE.index("USER ") < DOCKERFILE.index("CMD [")


def test_mailpit_is_reachable_from_this_host_only():
    """Its web UI shows every email, reset links included; SMTP is for the compose network."""
    ports = [str(port) for port in services()["mailpit"].get("ports", [])]
    assert ports, "the UI is published for the operator"
    for port in ports:
        assert port.startswith("127.0.0.1:"), port
    assert not any(port.endswith(":1025") for port in ports)


def seconds(value: str) -> float:
    match = re.fullmatch(r"(\d+)s", value)
    assert match, value
    return float(match.group(1))


def test_stop_grace_periods_leave_the_processes_their_drain():
    gunicorn_settings: dict = {}
    exec((ROOT / "config/gunicorn.py").read_text(), gunicorn_settings)
    graceful = gunicorn_settings["graceful_timeout"]
    assert graceful <= 10  # streams end at once; other requests are short
    assert seconds(services()["web"]["stop_grace_period"]) > graceful
    # A warm shutdown waits for running tasks, which the hard time limit caps (35 s default).
    task_limit = int(re.search(r'env_int\("CELERY_TASK_TIME_LIMIT", (\d+)',
                               (ROOT / "config/settings.py").read_text()).group(1))
    assert seconds(services()["worker"]["stop_grace_period"]) > task_limit


def test_the_image_compose_and_the_readme_start_the_web_processes_alike():
    cmd = re.search(r"^CMD (\[.*\])$", DOCKERFILE, re.M).group(1)
    command = " ".join(yaml.safe_load(cmd))
    assert command.startswith("gunicorn -c config/gunicorn.py config.asgi:application")
    assert services()["web"]["command"] == command
    assert f"`{command}`" in (ROOT / "README.md").read_text()


def test_the_image_compiles_the_message_catalogs():
    lines = [line.strip() for line in DOCKERFILE.splitlines()]
    compile_step = next(i for i, line in enumerate(lines) if "compilemessages" in line)
    assert lines.index("COPY . /app") < compile_step < lines.index("USER app")
