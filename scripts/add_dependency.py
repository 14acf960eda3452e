#!/usr/bin/env python3
"""Add a requirement to pyproject.toml (``make add DEP='name>=1,<2'``, ``DEV=1`` for the dev
extra); ``make add`` then re-locks (``make lock``) and installs it.

The line goes at the end of ``[project] dependencies`` or of the ``dev`` extra, as written;
a name already listed (in either list) is refused rather than listed twice.
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from lockcheck import _NAME, canonical, requirement_names  # noqa: E402


def add(pyproject: Path, requirement: str, *, dev: bool) -> None:
    requirement = requirement.strip()
    match = _NAME.match(requirement)
    if not match or '"' in requirement:
        raise SystemExit(f"not a requirement: {requirement!r} (e.g. 'pywebpush>=2,<3')")
    name = canonical(match.group(1))
    runtime, dev_reqs = requirement_names(pyproject)
    if name in runtime or name in dev_reqs:
        listed = runtime.get(name) or dev_reqs[name]
        raise SystemExit(f"{name} is already listed in pyproject.toml: {listed!r} "
                         "(change that line, then run `make lock`)")
    lines = pyproject.read_text().splitlines(keepends=True)
    opening = re.compile(r"^dev\s*=\s*\[\s*$" if dev else r"^dependencies\s*=\s*\[\s*$")
    section = "[project.optional-dependencies]" if dev else "[project]"
    in_section = False
    for index, line in enumerate(lines):
        if line.startswith("["):
            in_section = line.strip() == section
        elif in_section and opening.match(line):
            end = next(i for i in range(index + 1, len(lines)) if lines[i].strip() == "]")
            lines.insert(end, f'    "{requirement}",\n')
            break
    else:
        raise SystemExit(f"no list to add to in {section} of {pyproject}")
    text = "".join(lines)
    tomllib.loads(text)  # still valid TOML, or nothing is written
    pyproject.write_text(text)
    print(f"added {requirement!r} to {'the dev extra' if dev else 'the dependencies'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("requirement")
    parser.add_argument("--dev", action="store_true", help="the dev extra (tools, tests)")
    parser.add_argument("--pyproject", type=Path, default=ROOT / "pyproject.toml")
    args = parser.parse_args()
    add(args.pyproject, args.requirement, dev=args.dev)


if __name__ == "__main__":
    main()
