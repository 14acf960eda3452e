"""``python -m games.crazy_eights``: the analysis and self-play command line (see cli.py)."""

import sys

from .cli import main

sys.exit(main())
