"""The README's curl walkthrough is scripts/demo.sh, line for line.

tests/integration/test_walkthrough.py runs the script against the embedded service, so this
makes the README itself the tested text.
"""

import re

from tests.test_settings import ROOT


def demo_walkthrough() -> str:
    script = (ROOT / "scripts/demo.sh").read_text()
    match = re.search(r"# --- walkthrough:[^\n]*\n(.*?)# --- end of walkthrough", script, re.S)
    assert match, "walkthrough markers missing in scripts/demo.sh"
    return match.group(1)


def readme_walkthrough() -> str:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("\n## Playing a game with curl\n", 1)[1]
    return re.search(r"```sh\n(.*?)```", section, re.S).group(1)


def test_readme_shows_exactly_the_demo_script():
    assert readme_walkthrough() == demo_walkthrough()


def test_the_walkthrough_covers_the_newcomer_steps():
    text = demo_walkthrough()
    for step in ("auth/register", "auth/token", "auth/logout", "games/computer-levels",
                 "If-None-Match: $ETAG", "games.crazy10s analyze", "/preview", "/moves",
                 "/how-to-play", "/resign"):
        assert step in text, step
    assert "<etag>" not in text  # a real ETag, not a placeholder
