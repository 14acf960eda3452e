"""``python -m games.crazy10s``: the analysis and self-play command line (see cli.py)."""

import sys

from .cli import main

sys.exit(main())
