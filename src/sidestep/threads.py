"""Running a batch kernel over many rows on all cores, or on as many as allowed.

Batch kernels take ``(..., queue)`` and release the GIL. The calling thread
and one pooled thread per other core each call the kernel with the same
:mod:`~sidestep.kernels.row_queue`, and each takes chunks of rows from it
until none are left, so a core slowed by another process just takes fewer
chunks. Rows are independent: the result does not depend on who took which,
nor on how many threads there were.

**The thread cap.** By default a batch call (``move_many``, ``clearance``,
``nearest``, ``raycast``, a crowd's step, the bounding-volume batches) uses
one thread per core this process may run on. Many worker processes on one
machine (a process pool, Ray workers) should not each start a thread per
core: cap them with :func:`set_threads` or with the environment variable
:data:`ENV` (``SIDESTEP_THREADS=1``), read at every batch call, so it can be
set before or after ``import sidestep``. :func:`set_threads` wins over the
variable; ``set_threads(None)`` goes back to it. sidestep's kernels do not use
Numba's own threading layer (no ``parallel=True``), so ``NUMBA_NUM_THREADS``
does not change them.

>>> from sidestep import threads
>>> previous = threads.set_threads(1)
>>> threads.thread_count()
1
>>> _ = threads.set_threads(previous)
"""
import operator
import os
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

from .kernels.row_queue import row_queue

#: Below this many rows one thread does all the work (starting threads costs more).
SERIAL_ROWS = 512

#: Chunks per thread: enough that the threads finish together, few enough
#: that taking one stays negligible.
CHUNKS_PER_THREAD = 16

#: No chunk is smaller than this many rows.
MIN_CHUNK = 32

#: The environment variable that caps the threads of a batch call (a whole number >= 1).
ENV = "SIDESTEP_THREADS"

_pool: ThreadPoolExecutor | None = None
_pool_size = 0
_cap: int | None = None          # set_threads(); None: the environment variable, else every core
#: Pooled threads' calls not waited for (``run_rows(join=False)``), until they are done.
_unjoined: list[Future[object]] = []
# (raw text of ENV, its parsed value), parsed once per value
_env_seen: tuple[str | None, int | None] = (None, None)


def _cores() -> int:
    """Cores this process may run on."""
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
               else (os.cpu_count() or 1))


def _from_env() -> int | None:
    """The cap :data:`ENV` sets, or None when it is unset or empty."""
    global _env_seen
    raw = os.environ.get(ENV)
    if raw == _env_seen[0]:
        return _env_seen[1]
    value: int | None = None
    if raw is not None and raw.strip():
        try:
            value = int(raw)
        except ValueError:
            value = 0
        if value < 1:
            raise ValueError(f"{ENV} must be a whole number >= 1, got {raw!r}")
    _env_seen = (raw, value)
    return value


def set_threads(count: int | None) -> int | None:
    """Cap the threads every batch call of this process uses.

    Parameters
    ----------
    count : int >= 1, or None
        Threads at most, the calling one included; None lifts the cap (back
        to :data:`ENV`, or one per core).

    Returns
    -------
    int or None
        The cap set before, to restore it later.

    Raises
    ------
    ValueError
        When ``count`` is not a whole number >= 1 (nor None).
    """
    global _cap
    if count is not None:
        try:
            whole = operator.index(count)       # ints and NumPy integers; not 2.5, not "2"
        except TypeError:
            whole = 0
        if isinstance(count, bool) or whole < 1:
            raise ValueError(f"count must be a whole number >= 1 or None, got {count!r}")
        count = whole
    previous, _cap = _cap, count
    return previous


def thread_count() -> int:
    """Threads a batch call uses now: the cap (:func:`set_threads`, else :data:`ENV`) or every core."""
    cap = _cap if _cap is not None else _from_env()
    return _cores() if cap is None else cap


def _workers() -> int:
    return thread_count()


def run_rows(kernel: Callable[..., object], n: int, *args: object, join: bool = True,
             serial_rows: int = SERIAL_ROWS, min_chunk: int = MIN_CHUNK) -> None:
    """Call ``kernel(*args, queue)`` on :func:`thread_count` threads until rows ``[0, n)`` are done.

    ``join=False`` is for a kernel that itself returns only once every row is done, by
    whichever thread took it (it counts them: the crowd steps): the calling thread then
    goes on without waiting for the pooled threads to return. Waking a pooled thread and
    being woken by it cost tens of microseconds each on a virtual machine; a thread woken
    after the rows are gone just returns. An error in such a thread is raised by the next
    call. ``serial_rows`` and ``min_chunk`` stand for :data:`SERIAL_ROWS` and
    :data:`MIN_CHUNK` for a kernel whose rows cost more (a character's frame).
    """
    global _pool, _pool_size
    _raise_unjoined()
    workers = _workers()
    if n < serial_rows or workers == 1:
        kernel(*args, row_queue(0, n, n))
        return
    if _pool is None or _pool_size < workers - 1:
        if _pool is not None:
            _pool.shutdown(wait=False)
        _pool = ThreadPoolExecutor(max_workers=workers - 1, thread_name_prefix="sidestep")
        _pool_size = workers - 1
    queue = row_queue(0, n, max(min_chunk, n // (workers * CHUNKS_PER_THREAD)))
    helpers = [_pool.submit(kernel, *args, queue) for _ in range(workers - 1)]
    kernel(*args, queue)
    if join:
        for f in helpers:
            f.result()
    else:
        _unjoined.extend(helpers)


def _raise_unjoined() -> None:
    """Forget the calls not waited for that are done, raising the first one's error."""
    if not _unjoined:
        return
    done = [f for f in _unjoined if f.done()]
    for f in done:
        _unjoined.remove(f)
    for f in done:
        f.result()
