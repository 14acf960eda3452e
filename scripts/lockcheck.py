#!/usr/bin/env python3
"""Do pyproject.toml and the locks (requirements/base.txt, requirements/dev.txt) agree?

Every requirement of pyproject.toml must be pinned in the locks at a version its specifier
admits, with hashes, and the locks must pin nothing as a direct requirement that pyproject.toml
no longer lists; base.txt holds the runtime dependencies only, at dev.txt's versions.
Exits 1 with one line per disagreement (fix: ``make lock``). Standard library only: it runs
before anything is installed (``make venv``).

    python3 scripts/lockcheck.py [--pyproject PATH] [--locks DIR]
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# What pip-compile writes under a pin that pyproject.toml asked for itself.
DIRECT = "crazy10s-online (pyproject.toml)"
_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


@dataclass
class Pin:
    version: str
    hashes: int = 0
    via: list[str] = field(default_factory=list)


def read_lock(path: Path) -> dict[str, Pin]:
    """{canonical name: Pin} of a pip-compile output with hashes."""
    pins: dict[str, Pin] = {}
    current: Pin | None = None
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if match := re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+?)(\s*\\)?$", line):
            current = pins[canonical(match.group(1))] = Pin(match.group(2))
        elif current is not None and line.startswith("--hash="):
            current.hashes += 1
        elif current is not None and line.startswith("#"):
            via = line.lstrip("#").strip()
            via = via.removeprefix("via").strip()
            if via:
                current.via.append(via)
    return pins


def requirement_names(pyproject: Path) -> tuple[dict[str, str], dict[str, str]]:
    """({name: requirement} of the runtime dependencies, {name: requirement} of the dev extra)."""
    project = tomllib.loads(pyproject.read_text())["project"]

    def by_name(requirements: list[str]) -> dict[str, str]:
        return {canonical(_NAME.match(r).group(1)): r for r in requirements}

    return (by_name(project.get("dependencies", [])),
            by_name(project.get("optional-dependencies", {}).get("dev", [])))


def admits(requirement: str, version: str) -> bool:
    try:  # packaging is there once the venv is; before that only names and hashes are checked
        from packaging.requirements import Requirement
    except ImportError:
        return True
    return Requirement(requirement).specifier.contains(version, prereleases=True)


def problems(pyproject: Path, locks: Path) -> list[str]:
    runtime, dev = requirement_names(pyproject)
    found: list[str] = []
    for lock_name, wanted in (("base.txt", runtime), ("dev.txt", {**runtime, **dev})):
        path = locks / lock_name
        if not path.is_file():
            return [f"{path} is missing"]
        pins = read_lock(path)
        for name, requirement in sorted(wanted.items()):
            pin = pins.get(name)
            if pin is None:
                found.append(f"{lock_name}: {requirement!r} is not locked")
            elif not admits(requirement, pin.version):
                found.append(f"{lock_name}: {name}=={pin.version} does not satisfy {requirement!r}")
        direct = {name for name, pin in pins.items() if DIRECT in pin.via}
        for name in sorted(direct - set(wanted)):
            found.append(f"{lock_name}: {name} is locked as a direct requirement that "
                         "pyproject.toml does not list")
        for name, pin in sorted(pins.items()):
            if pin.hashes == 0:
                found.append(f"{lock_name}: {name}=={pin.version} has no hash")
    base, everything = read_lock(locks / "base.txt"), read_lock(locks / "dev.txt")
    for name, pin in sorted(base.items()):
        other = everything.get(name)
        if other is None or other.version != pin.version:
            found.append(f"base.txt: {name}=={pin.version} differs from dev.txt "
                         f"({other.version if other else 'missing'})")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pyproject", type=Path, default=ROOT / "pyproject.toml")
    parser.add_argument("--locks", type=Path, default=ROOT / "requirements")
    args = parser.parse_args(argv)
    found = problems(args.pyproject, args.locks)
    for line in found:
        print(f"lock: {line}", file=sys.stderr)
    if found:
        print("pyproject.toml and the lock disagree: run `make lock` (see README, "
              "'Dependencies')", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
