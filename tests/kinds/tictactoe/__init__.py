"""A third game kind that exists only for the tests: tic-tac-toe, added by following
ARCHITECTURE.md's "Adding a game kind" without touching any generic file. Registered through
the settings (``EXTRA_GAME_KINDS``, set in tests/django_env.py), so the whole suite, its
workers and its servers run with three kinds."""
