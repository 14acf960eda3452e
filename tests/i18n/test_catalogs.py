"""The catalogs are complete: every message translated, nothing fuzzy, placeholders kept, no
message in the code missing from a catalog, and the compiled catalogs are in use."""

from __future__ import annotations

import re
import shutil

import pytest
from django.core.management import call_command
from django.utils import translation

from tests.i18n.po import CATALOG_LANGUAGES, catalog_path, messages, read

PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|\{(\w*)\}")
# Folders makemessages must not scan (the same list the project's catalogs are built with).
IGNORED = [".venv", "var", "tests", "bench", "control", "build", "locale", "scripts"]


def placeholders(text: str) -> set[str]:
    return {a or b for a, b in PLACEHOLDER.findall(text)}


@pytest.mark.parametrize("language", CATALOG_LANGUAGES)
def test_every_message_is_translated_and_none_is_fuzzy(language):
    path = catalog_path(language)
    entries = read(path)
    header = next(e for e in entries if not e.msgid)
    assert "fuzzy" not in header.flags, f"{path}: the header is fuzzy"
    problems = []
    for entry in messages(path):
        if "fuzzy" in entry.flags:
            problems.append(f"fuzzy: {entry.msgid!r}")
        forms = entry.msgstrs.values()
        if not forms or not all(forms):
            problems.append(f"untranslated: {entry.msgid!r}")
        wanted = placeholders(entry.msgid) | placeholders(entry.msgid_plural or "")
        for form in forms:
            if form and placeholders(form) != wanted:
                problems.append(f"placeholders differ: {entry.msgid!r} -> {form!r}")
    assert not problems, f"{path}:\n" + "\n".join(problems)


def test_catalogs_hold_every_message_the_code_marks(tmp_path, settings, monkeypatch):
    """Extract the messages the way makemessages does (into a scratch copy) and compare."""
    from django.conf import settings as live

    project = live.BASE_DIR
    for name in ("accounts", "config", "games", "live", "social", "templates", "web"):
        if (project / name).exists():
            shutil.copytree(
                project / name, tmp_path / name,
                ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "locale"),
            )
    (tmp_path / "locale").mkdir()
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    monkeypatch.chdir(tmp_path)
    call_command("makemessages", locale=["de"], ignore_patterns=IGNORED, verbosity=0)
    extracted = {(e.msgctxt, e.msgid) for e in messages(catalog_path_in(tmp_path, "de"))}
    assert (None, "How to play Crazy10s") in extracted  # the scan did reach the code
    for language in CATALOG_LANGUAGES:
        in_catalog = {(e.msgctxt, e.msgid) for e in messages(catalog_path(language))}
        missing = extracted - in_catalog
        assert not missing, f"run makemessages; {language} lacks: {sorted(missing)}"
        stale = in_catalog - extracted
        assert not stale, f"run makemessages --no-obsolete; {language} still has: {stale}"


def catalog_path_in(root, language):
    return root / "locale" / language / "LC_MESSAGES" / "django.po"


@pytest.mark.parametrize("language", ["de", "fr", "pt-br"])
def test_compiled_catalogs_are_in_use(language):
    """Fails when compilemessages has not run (or ran before the last change to a catalog)."""
    entries = [
        e for e in messages(catalog_path(translation.to_locale(language)))
        if e.msgid_plural is None and e.msgctxt is None and e.msgstrs.get(0)
    ]
    assert entries
    with translation.override(language):
        stale = [e.msgid for e in entries if translation.gettext(e.msgid) != e.msgstrs[0]]
    assert not stale, f"run compilemessages: {language} is out of step for {stale[:5]}"


@pytest.mark.parametrize(
    "language,label",
    [
        ("en", "Hourly digest"),
        ("de", "Stündliche Zusammenfassung"),
        ("fr", "Résumé horaire"),
        ("pt-br", "Resumo a cada hora"),
    ],
)
def test_digest_choice_says_hourly(language, label):
    """The digest is sent at most once an hour, whatever the old label said."""
    from accounts.models import TurnEmails

    with translation.override(language):
        assert str(TurnEmails.DIGEST.label) == label
