"""The garbage collector of a web process, set up once the application is loaded (issue 28).

Python's oldest generation is collected when the objects that survived into it grew by a
quarter since the last time, and each such collection walks every object the process holds:
Django, the apps, their modules, compiled templates and statements, hundreds of thousands of
objects that live as long as the process. In bench/lists.py the collector took 8 % of the
process's CPU on the web lists and 18 % on the API's, more than half of it in these full
collections (~100 ms each); with ``gc.freeze()``, 5 % and 8 %. It moves what exists at
start-up to a generation the collector never walks (what the process holds for good is not
garbage); the requests' own garbage is collected as before.

Called from the ASGI lifespan's startup (``ASGI_STARTUP_HOOKS``), in every web process, after
the URL configuration and thus every view module is imported. ``WEB_GC_FREEZE=false`` leaves
the collector as Python sets it.
"""

from __future__ import annotations

import gc
import logging

from django.conf import settings
from django.urls import get_resolver

log = logging.getLogger(__name__)


def freeze_after_startup() -> None:
    if not settings.WEB_GC_FREEZE:
        return
    get_resolver().url_patterns  # noqa: B018 (imports every view module, as a request would)
    gc.collect()  # what start-up left as garbage is freed, not kept forever
    gc.freeze()
    log.info("gc: %d objects of the start-up frozen", gc.get_freeze_count())
