"""Python's cyclic garbage collector paused around one piece of work, for the callers that run
it (the service and the case runner around a turn, the YAML reader around a load), never inside
the rules core: the collector is the whole process's, which a pure function must not change.

It pays where the work allocates many small values that all live until it ends: the
collections they trigger free nothing and walk all of them again (docs/benchmarks.md, "The
collector paused during the turn" and the YAML reader)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """The collector off inside the block, and back as it was found when the block ends or
    raises (one the caller paused stays paused); whatever cycles the block left are collected
    by the collector's next run."""
    running = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if running:
            gc.enable()
