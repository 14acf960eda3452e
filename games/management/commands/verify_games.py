"""``manage.py verify_games [--all]``: replay every finished game and report any difference."""

from django.core.management.base import BaseCommand, CommandError

from games.moderation.verification import games_to_verify, verify_game


class Command(BaseCommand):
    help = (
        "Replay each finished (and aborted) game's moves from its seed and compare with the "
        "stored state, scores, racks and result. One line per difference; exit code 1 if any."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--all", action="store_true", help="check active and waiting games too"
        )

    def handle(self, *args, **options):
        checked = failed = differences = 0
        for game in games_to_verify(include_active=options["all"]):
            checked += 1
            problems = verify_game(game)
            if problems:
                failed += 1
                differences += len(problems)
            for problem in problems:
                self.stdout.write(f"game {game.pk} ({game.status}): {problem}")
        summary = (
            f"verified {checked} game(s): {checked - failed} consistent, "
            f"{failed} with {differences} difference(s)"
        )
        if failed:
            raise CommandError(summary, returncode=1)
        self.stdout.write(self.style.SUCCESS(summary))
