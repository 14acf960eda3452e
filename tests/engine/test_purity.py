"""The game engines are pure Python: no service imports, no clock, no global randomness."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# (engine package, a call that builds a game, the minimum number of source files it has)
ENGINES = [
    ("games.crazy10s.engine", "engine.new_game_from_seed(1)", 8),
    ("games.crazy_eights.engine", "engine.new_match(seed=1)", 8),
]
FORBIDDEN_MODULES = ("django", "rest_framework", "celery", "redis", "kombu")

# Calls that read the wall clock or use the module-level (unseeded, shared) random generator.
FORBIDDEN_CALLS = re.compile(
    r"(?<![\w.])random\.(random|randint|randrange|shuffle|choice|choices|sample|seed|"
    r"getrandbits|uniform|gauss)\("
    r"|(?<![\w.])time\.(time|monotonic|perf_counter|process_time|sleep)\("
    r"|datetime\.(now|utcnow|today)\("
    r"|date\.today\("
    r"|^\s*(import time|from time import)",
    re.MULTILINE,
)


@pytest.mark.parametrize(("package", "build", "_min_files"), ENGINES)
def test_engine_import_pulls_in_no_service_modules(package, build, _min_files):
    code = (
        "import json, sys\n"
        f"import {package} as engine\n"
        f"{build}\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    loaded = json.loads(out.stdout)
    assert package in loaded
    offending = [m for m in loaded if m.split(".")[0] in FORBIDDEN_MODULES]
    assert offending == []


@pytest.mark.parametrize(("package", "_build", "min_files"), ENGINES)
def test_engine_sources_use_no_clock_or_global_random(package, _build, min_files):
    sources = sorted(ROOT.joinpath(*package.split(".")).glob("*.py"))
    assert len(sources) >= min_files
    offending = {
        path.name: FORBIDDEN_CALLS.findall(path.read_text()) for path in sources
    }
    assert {name: hits for name, hits in offending.items() if hits} == {}


def test_the_source_scan_recognises_forbidden_calls():
    # Guards the scan itself: if the pattern broke, the test above would pass vacuously.
    for bad in ("x = random.randint(1, 2)", "random.shuffle(bag)", "t = time.time()",
                "datetime.now()", "import time"):
        assert FORBIDDEN_CALLS.search(bad), bad
    for good in ("rng.shuffle(bag)", "random.Random(seed).shuffle(bag)", "self.random.choice(x)"):
        assert not FORBIDDEN_CALLS.search(good), good
