"""A small reader of gettext .po files (enough for checking our own catalogs)."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parents[2] / "locale"
CATALOG_LANGUAGES = ("de", "fr", "pt_BR")


@dataclass
class Entry:
    msgid: str = ""
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstrs: dict[int, str] = field(default_factory=dict)  # msgstr is index 0
    flags: set[str] = field(default_factory=set)
    obsolete: bool = False


def catalog_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / "django.po"


def read(path: Path) -> list[Entry]:
    """Every entry of the file, the header (msgid "") included, in file order."""
    entries: list[Entry] = []
    entry = Entry()
    started = False
    target: tuple[str, int | None] | None = None
    for raw in path.read_text(encoding="utf-8").splitlines() + [""]:
        line = raw.strip()
        if not line:
            if started:
                entries.append(entry)
            entry, started, target = Entry(), False, None
            continue
        if line.startswith("#~"):
            entry.obsolete = started = True
            continue
        if line.startswith("#,"):
            entry.flags |= {f.strip() for f in line[2:].split(",")}
            continue
        if line.startswith("#"):
            continue
        started = True
        keyword, _, rest = line.partition(" ")
        if line.startswith('"'):
            value = ast.literal_eval(line)
        else:
            value = ast.literal_eval(rest)
            if keyword.startswith("msgstr["):
                target = ("msgstr", int(keyword[7:-1]))
            else:
                target = (keyword, None)
            _store(entry, target, "")
        _store(entry, target, value)
    return entries


def _store(entry: Entry, target, text: str) -> None:
    keyword, index = target
    if keyword == "msgid":
        entry.msgid += text
    elif keyword == "msgid_plural":
        entry.msgid_plural = (entry.msgid_plural or "") + text
    elif keyword == "msgctxt":
        entry.msgctxt = (entry.msgctxt or "") + text
    elif keyword == "msgstr":
        key = 0 if index is None else index
        entry.msgstrs[key] = entry.msgstrs.get(key, "") + text
    else:
        raise ValueError(f"unexpected line keyword {keyword!r}")


def messages(path: Path) -> list[Entry]:
    """The translatable entries (no header, no obsolete ones)."""
    return [e for e in read(path) if e.msgid and not e.obsolete]
