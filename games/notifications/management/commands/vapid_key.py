"""``manage.py vapid_key``: a new VAPID private key for web push on standard output (set it as
VAPID_PRIVATE_KEY; ``make run`` keeps one under var/), its public key on standard error.
``--public`` prints the public key of the configured one instead."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.notifications.push.keys import (
    application_key,
    new_private_key,
    parse_private_key,
    public_key_of,
)


class Command(BaseCommand):
    help = "Print a new VAPID private key (web push), or the configured key's public key."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--public", action="store_true",
                            help="print the public key of the configured VAPID key")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["public"]:
            key = application_key()
            if key is None:
                raise CommandError("no VAPID key is configured (VAPID_PRIVATE_KEY)")
            self.stdout.write(key.public_key)
            return
        private = new_private_key()
        self.stdout.write(private)
        self.stderr.write(f"public key: {public_key_of(parse_private_key(private))}")
