"""The one way the benchmark scripts time a run (imported as ``timing``: a script's own
folder is first on ``sys.path``)."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_of(repeat: int, run: Callable[[], None]) -> float:
    """The least CPU time of ``repeat`` runs, in seconds.

    CPU time of this process, not wall time: on a machine shared with other
    busy processes the wall clock counts their turns too (and their noise only
    ever adds time, so the least is the figure).
    """
    times = []
    for _ in range(repeat):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return min(times)
