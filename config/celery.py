"""The Celery app of the workers and beat.

- Logging is the project's (``LOGGING`` in config/settings.py, text or ``LOG_FORMAT=json``),
  not Celery's own: with json every line of a worker or beat is a JSON object, their start-up
  banners included (logged as one line instead of printed).
- The request id travels with the tasks a request queued (a ``request_id`` message header,
  passed on to the tasks those queue in turn): the lines a task logs name it (config/logs.py).
- At start both say so if the message catalogs are missing (config/catalogs.py).
"""

import logging
import os
import sys
from logging.config import dictConfig
from typing import TextIO

from celery import Celery
from celery.apps import worker as celery_apps_worker
from celery.apps.beat import Beat as CeleryBeat
from celery.apps.worker import Worker as CeleryWorker
from celery.signals import beat_init, before_task_publish, setup_logging, worker_init
from kombu.utils.objects import cached_property

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

log = logging.getLogger("crazy10s.celery")


def django_settings():
    from django.conf import settings

    return settings


def _json_logs() -> bool:
    return django_settings().LOG_FORMAT == "json"


def _say_as_json(msg: str, f: TextIO | None = None) -> None:
    """``celery.apps.worker.safe_say`` (its shutdown notices, written from signal handlers with
    a bare os.write) as one JSON line, written the same way."""
    from config.logs import JsonFormatter

    record = logging.LogRecord("celery.apps.worker", logging.WARNING, __file__, 0,
                               " ".join(msg.split()), None, None)
    record.request_id = "-"
    stream = f or sys.__stdout__
    if stream is None:  # a process without standard output: nowhere to say it
        return
    try:
        os.write(stream.fileno(), (JsonFormatter().format(record) + "\n").encode())
    except (OSError, ValueError):
        pass


class Worker(CeleryWorker):
    def on_before_init(self, quiet: bool = False, **kwargs) -> None:
        if _json_logs():
            # Before Celery's first words (a warning about running as root, shutdown notices).
            dictConfig(django_settings().LOGGING)
            logging.captureWarnings(True)
            celery_apps_worker.safe_say = _say_as_json
        super().on_before_init(quiet=quiet, **kwargs)

    def emit_banner(self) -> None:
        if not _json_logs():
            super().emit_banner()
            return
        log.info("celery worker starting: %s", " ".join(self.startup_info(artlines=False).split()))


class Beat(CeleryBeat):
    def run(self) -> None:
        if _json_logs():
            self.quiet = True  # its banners are prints
            dictConfig(django_settings().LOGGING)  # Celery sets logging up later
            logging.captureWarnings(True)
            log.info("celery beat starting: scheduler %s, schedule %s",
                     self.scheduler_cls, self.schedule)
        super().run()


class App(Celery):
    @cached_property
    def Worker(self):  # noqa: N802 (Celery's name)
        return self.subclass_with_self("config.celery:Worker")

    @cached_property
    def Beat(self):  # noqa: N802 (Celery's name)
        return self.subclass_with_self("config.celery:Beat")


app = App("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@setup_logging.connect
def use_project_logging(**kwargs) -> None:
    """Connected, so Celery installs none of its own handlers or formats."""
    dictConfig(django_settings().LOGGING)


@before_task_publish.connect
def carry_request_id(headers: dict | None = None, **kwargs) -> None:
    from config.logs import current_request_id

    request_id = current_request_id()
    if request_id and headers is not None:
        headers.setdefault("request_id", request_id)


@worker_init.connect
@beat_init.connect
def check_catalogs(**kwargs) -> None:
    from config.catalogs import report_missing_catalogs

    report_missing_catalogs()
