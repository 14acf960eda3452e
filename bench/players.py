"""Each computer level against the greedy player over paired seeds:
``python bench/players.py [--pairs 100] [--levels beginner,casual] [--seed 0] [--jobs 2]
[--write]``.

Every seed is played once with each side moving first. Prints games, win rate with its 95 %
Wilson interval (draws count half), average scores and ms per move (median, p99) of the level.
``--pairs-expert N`` runs fewer pairs for the slow expert; ``--jobs N`` plays on N processes
(one per core: the times per move stay those of one core). ``--write`` stores the figures in
games/crazy10s/engine/level_stats.json, which the level descriptions quote (the same as
``python -m games.crazy10s levelstats --write``). Run it with ``nice -n 19`` on shared machines.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.crazy10s.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(["levelstats", *sys.argv[1:]]))
