"""docker-compose.yml and the Dockerfile (no Docker engine here: their structure is checked)."""

import re

import yaml

from tests.test_settings import ROOT

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
    env = services()["web"]["environment"]
    assert env["DEBUG"] == "false"
    assert re.fullmatch(r"\$\{SECRET_KEY:\?[^}]+\}", env["SECRET_KEY"])  # required, no default


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
