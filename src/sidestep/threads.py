"""Running a batch kernel over row ranges on all cores.

Batch kernels take ``(..., first, stop)`` and release the GIL; this module
splits the rows into contiguous ranges, a few per core so that a core slowed
by another process does not hold the others up, and runs them on a shared
thread pool. Rows are independent, so the result does not depend on the split.
"""
import os
from concurrent.futures import ThreadPoolExecutor

#: Below this many rows one thread does all the work (starting threads costs more).
SERIAL_ROWS = 512

#: Ranges per core: small enough to balance, large enough that each is worth a task.
RANGES_PER_CORE = 1

_pool = None


def _workers():
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
               else (os.cpu_count() or 1))


def run_rows(kernel, n, *args):
    """Call ``kernel(*args, first, stop)`` over ``[0, n)`` in per-core ranges."""
    global _pool
    workers = _workers()
    if n < SERIAL_ROWS or workers == 1:
        kernel(*args, 0, n)
        return
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="sidestep")
    parts = min(workers * RANGES_PER_CORE, max(1, n // (SERIAL_ROWS // 2)))
    bounds = [n * k // parts for k in range(parts + 1)]
    futures = [_pool.submit(kernel, *args, bounds[k], bounds[k + 1]) for k in range(parts)]
    for f in futures:
        f.result()
