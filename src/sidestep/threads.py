"""Running a batch kernel over many rows on all cores.

Batch kernels take ``(..., queue)`` and release the GIL. The calling thread
and one pooled thread per other core each call the kernel with the same
:mod:`~sidestep.kernels.row_queue`, and each takes chunks of rows from it
until none are left, so a core slowed by another process just takes fewer
chunks. Rows are independent: the result does not depend on who took which.
"""
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from .kernels.row_queue import row_queue

#: Below this many rows one thread does all the work (starting threads costs more).
SERIAL_ROWS = 512

#: Chunks per thread: enough that the threads finish together, few enough
#: that taking one stays negligible.
CHUNKS_PER_THREAD = 16

#: No chunk is smaller than this many rows.
MIN_CHUNK = 32

_pool: ThreadPoolExecutor | None = None


def _workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
               else (os.cpu_count() or 1))


def run_rows(kernel: Callable[..., object], n: int, *args: object) -> None:
    """Call ``kernel(*args, queue)`` on every core until rows ``[0, n)`` are done."""
    global _pool
    workers = _workers()
    if n < SERIAL_ROWS or workers == 1:
        kernel(*args, row_queue(0, n, n))
        return
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=workers - 1, thread_name_prefix="sidestep")
    queue = row_queue(0, n, max(MIN_CHUNK, n // (workers * CHUNKS_PER_THREAD)))
    helpers = [_pool.submit(kernel, *args, queue) for _ in range(workers - 1)]
    kernel(*args, queue)
    for f in helpers:
        f.result()
