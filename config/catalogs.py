"""Compiled message catalogs (.mo files are built at deploy, never committed): a process whose
catalogs are missing says so at start, loudly, instead of serving English to everyone.

Called once per process by the web entry points (config/asgi.py, config/wsgi.py) and by
Celery's worker and beat (config/celery.py); ``make messages`` or
``python manage.py compilemessages`` builds them (the Dockerfile does, ``make run`` and
``make test`` too).
"""

from __future__ import annotations

import logging
from pathlib import Path

from django.conf import settings
from django.utils.translation import to_locale

log = logging.getLogger("crazy10s.catalogs")


def missing_catalogs() -> list[str]:
    """The locales (``de``, ``pt_BR``) of LANGUAGES but English without a compiled catalog in
    any of LOCALE_PATHS."""
    missing = []
    for code, _name in settings.LANGUAGES:
        if code == settings.LANGUAGE_CODE:
            continue  # the source language needs no catalog
        locale = to_locale(code)
        if not any((Path(path) / locale / "LC_MESSAGES" / "django.mo").is_file()
                   for path in settings.LOCALE_PATHS):
            missing.append(locale)
    return missing


def report_missing_catalogs() -> list[str]:
    missing = missing_catalogs()
    if missing:
        log.error(
            "Message catalogs are not compiled for %s: those players get English texts. "
            "Build them at each deploy: make messages (or python manage.py compilemessages)",
            ", ".join(missing),
        )
    return missing
