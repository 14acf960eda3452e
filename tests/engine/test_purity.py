"""The Crazy10s engine is pure Python: no service imports, no clock, no global randomness."""

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE_DIR = ROOT / "games" / "crazy10s" / "engine"
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


def test_engine_import_pulls_in_no_service_modules():
    code = (
        "import json, sys\n"
        "import games.crazy10s.engine as engine\n"
        "engine.new_game_from_seed(1)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    loaded = json.loads(out.stdout)
    assert "games.crazy10s.engine" in loaded
    offending = [m for m in loaded if m.split(".")[0] in FORBIDDEN_MODULES]
    assert offending == []


def test_engine_sources_use_no_clock_or_global_random():
    sources = sorted(ENGINE_DIR.glob("*.py"))
    assert len(sources) >= 8
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
